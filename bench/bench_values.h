/* bench/bench_values.h — the application values of the codec suite, shared
 * by the desert rows and the peer rows so every library encodes exactly the
 * same data. Variant k (0 <= k < CODEC_K) has the shape and size of variant
 * 0 with different content; variant 0 is the value the case inventory names.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_VALUES_H
#define DESERT_BENCH_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cases 1, 2, 17: i32 123456789; case 5: var_i32 -123456789 (4-byte
 * varints in every variant); case 13: Some(42). */
int32_t bv_i32(unsigned k);
int32_t bv_var_i32(unsigned k);
int32_t bv_opt_i32(unsigned k);

/* cases 3, 4: "The quick brown fox jumps over the lazy dog" (43 chars),
 * rotated / case-toggled per variant; out holds BV_FOX_LEN + 1 (NUL-terminated). */
#define BV_FOX_LEN 43u
void bv_fox(unsigned k, char *out);

/* cases 6, 14: 0..n-1 (+ k*n); cases 7, 15, 18: byte i = (i + k) % 251. */
void bv_i32_array(unsigned k, size_t n, int32_t *out);
void bv_bytes(unsigned k, size_t n, uint8_t *out);

/* case 8: {id:i32=42, name="Alice Example", score:f64=98.625, active=true,
 * tags=["alpha","beta","gamma","delta"]}. Strings NUL-terminated. */
typedef struct bv_rec8 {
  int32_t id;
  char name[16];
  size_t name_len;
  double score;
  bool active;
  char tag[4][8];
  size_t tag_len[4];
} bv_rec8;
void bv_record8(unsigned k, bv_rec8 *p);

/* case 9: "desert-dedup-sample-string-x" (28 chars); out holds 29 (NUL). */
#define BV_DEDUP_LEN 28u
void bv_dedup(unsigned k, char *out);

/* case 11: "item0".."item99" (NUL-terminated). */
typedef struct bv_strlist {
  char s[100][8];
  size_t len[100];
} bv_strlist;
void bv_strlist_make(unsigned k, bv_strlist *l);

/* case 12: "key0"->0 .. "key99"->99 (keys NUL-terminated). */
typedef struct bv_strmap {
  char key[100][8];
  size_t len[100];
  int32_t val[100];
} bv_strmap;
void bv_strmap_make(unsigned k, bv_strmap *m);

/* Wide records: field i has kind i % 4: i64, 16-byte fixed binary
 * block, bool, 3-element list of i64; slot i / 4 of that kind. */
#define BV_WIDE_MAX 256u
typedef struct bv_wide {
  size_t fields;
  int64_t i64[BV_WIDE_MAX / 4];
  uint8_t bin[BV_WIDE_MAX / 4][16];
  bool b[BV_WIDE_MAX / 4];
  int64_t list[BV_WIDE_MAX / 4][3];
} bv_wide;
void bv_wide_make(unsigned k, size_t fields, bv_wide *w);

/* Term dictionary: n terms, each a short lowercase string (4–12
 * chars, NUL-terminated), a document frequency and 1–8 ascending postings. */
#define BV_MAX_POSTINGS 8u
typedef struct bv_term {
  const char *s;
  size_t len;
  int32_t doc_freq;
  size_t npost;
  uint32_t post[BV_MAX_POSTINGS];
} bv_term;
typedef struct bv_terms {
  size_t n;
  bv_term *t;
  char *text; /* the strings */
} bv_terms;
/* Allocates; 0 on success. Free with bv_terms_free. */
int bv_terms_make(unsigned k, size_t n, bv_terms *d);
void bv_terms_free(bv_terms *d);

#ifdef __cplusplus
}
#endif
#endif
