/* test/fuzz/fuzz_common.h — shared helpers of the libFuzzer harnesses: an
 * input cursor, invariant checks that abort (a crash for libFuzzer and for
 * the replay driver), reader options with a counting allocator that enforces
 * the decoder memory bound, and the golden-file helpers.
 * SPDX-License-Identifier: MIT
 *
 * Every harness file defines its body with FZ_TARGET(name): that gives a
 * function fz_target_<name>(data, size) and, unless FZ_NO_ENTRY is defined,
 * LLVMFuzzerTestOneInput calling it. test_resource_bounds.c compiles the
 * harnesses with FZ_NO_ENTRY to run every corpus in one process.
 *
 * Memory bound (checked for every reader a harness creates through
 * fz_reader_new, on every input, in fuzzing and in replay):
 *
 *   peak live bytes of one decode  <=  FZ_BOUND_PER_BYTE * n
 *                                     + FZ_BOUND_CONST
 *                                     + FZ_BOUND_PER_PLAIN * d
 *
 * n = input bytes the decode was given, d = bytes the compressed blocks of
 * the input decompress to (0 for data without compressed blocks), as the
 * reader itself counts them (`inflated` minus `zlib_padding` in
 * src/core/reader_internal.h: every block that decoded successfully,
 * including those the schema layer reads inside values; a failing block
 * adds nothing). Zlib zero padding is not in d: the other terms must cover
 * it (the reader allows 64 KiB + 8 bytes per input byte of it per
 * message). test_resource_bounds.c uses the exact d of its crafted inputs.
 * The bound is documented in test/fuzz/README.md. */
#ifndef DESERT_FUZZ_COMMON_H
#define DESERT_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desert.h"

#define FZ_BOUND_PER_BYTE ((size_t)64)
#define FZ_BOUND_CONST ((size_t)512 * 1024)
#define FZ_BOUND_PER_PLAIN ((size_t)4)

#ifdef FZ_NO_ENTRY
#define FZ_TARGET(name)                                                \
  int fz_target_##name(const uint8_t *data, size_t size);              \
  int fz_target_##name(const uint8_t *data, size_t size)
#else
#define FZ_TARGET(name)                                                \
  int fz_target_##name(const uint8_t *data, size_t size);              \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);        \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {       \
    return fz_target_##name(data, size);                               \
  }                                                                    \
  int fz_target_##name(const uint8_t *data, size_t size)
#endif

/* ---- checks ------------------------------------------------------------------ */

/* Prints "fuzz check failed: file:line: what" plus the formatted detail and
 * aborts. */
void fz_fail(const char *file, int line, const char *what, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 4, 5)))
#endif
    ;
#define FZ_CHECK(cond)                                                          \
  do {                                                                          \
    if (!(cond)) fz_fail(__FILE__, __LINE__, #cond, "%s", "");                   \
  } while (0)
#define FZ_CHECK_MSG(cond, ...)                                                 \
  do {                                                                          \
    if (!(cond)) fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                \
  } while (0)

/* ---- input cursor --------------------------------------------------------------- */

typedef struct fz_in {
  const uint8_t *p;
  size_t n;
} fz_in;

uint8_t fz_u8(fz_in *in);      /* 0 once empty */
uint16_t fz_u16(fz_in *in);
uint32_t fz_u32(fz_in *in);
uint64_t fz_u64(fz_in *in);
/* Takes up to n bytes (fewer when the input runs out); *got = how many. */
const uint8_t *fz_bytes(fz_in *in, size_t n, size_t *got);

/* ---- readers with the counting allocator ------------------------------------------ */

/* Option flags a harness lets the input choose (the low bits of a byte). */
unsigned fz_flags_from(uint8_t b);
/* desert_options_init + the counting allocator + flags. */
void fz_options(desert_options *o, unsigned flags);
/* A reader on its own counter of the counting allocator (aborts if
 * creation fails; up to 8 counted readers may be alive at once). Every
 * decode on it goes between fz_decode_begin and fz_decode_end. */
desert_reader *fz_reader_new(const desert_options *o);
/* Starts one decode of data[0..len) on r: desert_reader_begin and a fresh
 * memory measurement (peak = what is live now). */
void fz_decode_begin(desert_reader *r, const void *data, size_t len);
/* Ends one decode: checks the reader invariants (status a known code and
 * never an API error, error offset and position inside the input) and the
 * memory bound for len input bytes. Returns the reader's status. */
desert_status fz_decode_end(desert_reader *r);
/* Frees r and checks that every block was given back with its size. */
void fz_reader_free(desert_reader *r);

/* Statistics of the last decodes (for test_resource_bounds). */
typedef struct fz_mem_stats {
  size_t decodes;       /* fz_decode_end calls */
  size_t worst_excess;  /* 0 unless a bound was exceeded (then fz_decode_end aborts) */
  double worst_ratio;   /* max of (peak - const part) / n over decodes with n > 0 */
  size_t worst_ratio_n; /* input length of that decode */
  size_t worst_peak;    /* largest peak of one decode */
  size_t worst_peak_n;
} fz_mem_stats;
extern fz_mem_stats fz_stats;
/* When 0, fz_decode_end records measurements but does not abort on a bound
 * violation (test_resource_bounds asserts itself); default 1. */
extern int fz_enforce_bound;
/* Peak live bytes of the last finished decode and its input length. */
size_t fz_last_peak(void);
/* Bound for an input of n bytes with d decompressed bytes. */
size_t fz_bound(size_t n, size_t d);

/* ---- misc ------------------------------------------------------------------------ */

/* True when s[0..len) is valid UTF-8 (the kernels' strict definition),
 * decided by an independent byte-at-a-time check. */
bool fz_utf8_ok(const uint8_t *s, size_t len);
/* True when [p, p+len) lies inside [base, base+n). */
bool fz_inside(const void *p, size_t len, const void *base, size_t n);

#endif /* DESERT_FUZZ_COMMON_H */
