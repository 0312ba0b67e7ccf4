/* src/base/copy_policy.c — the one run-time switch of desert_copy (see
 * base/internal.h): whether blocks above 8 KiB may go in one memcpy on
 * this CPU. It lives in base so that every layer's copies read it; the
 * CPU detection in src/dispatch sets it once, before any context exists.
 * SPDX-License-Identifier: MIT */
#include "base/internal.h"

_Atomic unsigned char desert_copy_large_whole = 0;
