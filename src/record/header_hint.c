/* src/record/header_hint.c — the process-wide header size hint table (see
 * header_hint.h).
 * SPDX-License-Identifier: MIT */
#include "record/header_hint.h"

_Atomic uint64_t desert_rec_ghints[DESERT_REC_GHINTS];
