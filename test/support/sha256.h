/* test/support/sha256.h — a small SHA-256 (FIPS 180-4) for tests that pin
 * outputs by hash (the golden dataset's modern re-encoding). Not for speed.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_SHA256_H
#define DESERT_TEST_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* out = SHA-256 of data[0..len). */
void desert_test_sha256(const void *data, size_t len, uint8_t out[32]);
/* The same as 64 lowercase hex digits plus NUL. */
void desert_test_sha256_hex(const void *data, size_t len, char out[65]);

#endif
