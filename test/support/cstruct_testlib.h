/* test/support/cstruct_testlib.h — the hostile-input check shared by the
 * C-struct descriptor suites (test_types_cstruct_*.c): a descriptor's
 * encoding cut at every byte must fail cleanly, and every allocation
 * failure while decoding the whole of it must be reported and leak nothing.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_CSTRUCT_TESTLIB_H
#define DESERT_TEST_CSTRUCT_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

#include "desert/types.h"

/* bytes[0..n) is a complete encoding of a value of d (the default options);
 * obj is scratch room for one d->size struct. Checks, with a counting
 * allocator behind the reader:
 *  - every proper prefix (a heap copy of exactly that many bytes, so ASan
 *    sees any over-read) fails with the reader's sticky status and an error
 *    offset inside the prefix, leaking nothing;
 *  - decoding all n bytes with the k-th allocation failing, for every k,
 *    reports DESERT_E_NOMEM and leaks nothing, until it succeeds, consumes
 *    n bytes and re-encodes to exactly bytes[0..n). */
void desert_test_cstruct_hostile(const desert_cstruct *d, const uint8_t *bytes, size_t n,
                                 void *obj);

#endif /* DESERT_TEST_CSTRUCT_TESTLIB_H */
