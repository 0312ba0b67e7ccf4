/* src/base/version.c — version of the library actually linked, which can differ
 * from the DESERT_VERSION_* macros a caller was compiled against.
 * SPDX-License-Identifier: MIT */
#include "desert/common.h"

unsigned desert_version_number(void) { return DESERT_VERSION_NUMBER; }

const char *desert_version_string(void) { return DESERT_VERSION_STRING; }
