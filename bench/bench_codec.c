/* bench/bench_codec.c — the desert case inventory (cases 0–20)
 * (cases 0–20) through the public API, as an application calls it, plus
 * memcpy rows of the same byte counts for the bulk cases 6, 7, 14, 15.
 *
 * What "fresh" and "reused" mean here:
 *   fresh   every op creates a writer (desert_writer_create), writes, takes
 *           the bytes and frees it: a new output buffer per op, like
 *           desert-rust's serialize_to_bytes. Cases 1 and 5 are defined this
 *           way; the other serialize/roundtrip cases use it for their
 *           headline row (the like-for-like comparison with desert-rust)
 *           and add a "_reused" row.
 *   reused  one writer per row, desert_writer_reset() per op: the buffer
 *           is kept (case 17, and the "_reused" rows).
 * Decoding always uses one reader per row (desert_reader_begin per op, the
 * documented reuse of a reader) and stores decoded collections in the
 * reader's arena; strings and byte blocks come out as zero-copy views.
 *
 * The small-message cases (1-5, 8, 10, 13, 17) run the API the README
 * recommends for one-shot C use: contexts in caller storage
 * (desert_writer_init / desert_reader_init; a fresh op builds its writer
 * in storage owned by the row, as a stack variable would be), the
 * inline fast paths (desert_write_*_inline, desert_read_*_inline) and the
 * inline message boundaries (desert_writer_reset_inline,
 * desert_writer_data_inline, desert_reader_begin_inline). Their
 * "_heap" twins are the same rows through heap contexts
 * (desert_writer_create / desert_reader_create) and the exported
 * functions, as before.
 * Decode inputs rotate over CODEC_K variants of the same shape and size.
 *
 * Expected bytes are built with the independent encoders of
 * bench_codec_util.c (docs/format.md rules), and the literal byte strings of
 * the case inventory are checked for variant 0.
 * SPDX-License-Identifier: MIT */
#include <libdeflate.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "bench_codec.h"
#include "bench_values.h"
#include "desert.h"
#include "desert_build_config.h"
#include "golden_model.h"

#define K       CODEC_K
#define MSG_CAP 240

/* ---- generic row state ------------------------------------------------------ */

typedef struct cs {
  desert_options opt;
  desert_writer *w; /* the row's reused writer (also used by fresh rows' checks) */
  desert_reader *r; /* the row's reader */
  int fresh;        /* 1: a new writer per op */
  int storage;      /* 1: contexts in caller storage (the storage fields at the end) */
  size_t n;         /* element count / size parameter */
  /* expected wire bytes per variant (also the decode inputs) */
  uint8_t *enc[K];
  size_t enc_len[K];
  /* source values per variant (meaning depends on the case) */
  int32_t i32[K];
  void *src[K];
  size_t src_len[K];
  uint8_t *dst; /* memcpy rows: destination */
  void *extra;  /* case-specific */
  /* Last, so the inputs above keep the offsets they had before these
   * were added (the heap rows' memory layout stays as it was). */
  desert_writer_storage ws;     /* a fresh op's writer */
  desert_writer_storage ws_row; /* the row's writer */
  desert_reader_storage rs_row; /* the row's reader */
  const desert_options *init_opt; /* what a fresh storage writer gets: NULL
                                   * when opt is the defaults (README's
                                   * one-shot path), else &opt */
} cs;

static void cs_free(void *p) {
  cs *s = p;
  if (!s) return;
  desert_writer_free(s->w);
  desert_reader_free(s->r);
  for (unsigned k = 0; k < K; k++) {
    free(s->enc[k]);
    free(s->src[k]);
  }
  free(s->dst);
  free(s->extra);
  free(s);
}

/* Context kinds of a row (the `fresh` argument of cs_new and the setups). */
enum { CS_REUSED = 0, CS_FRESH = 1, CS_STORAGE = 2 };

static cs *cs_new(desert_isa isa, size_t n, int fresh, unsigned flags, codec_info *info) {
  cs *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  codec_options(&s->opt, isa, flags);
  s->init_opt = isa == DESERT_ISA_AUTO && flags == 0 ? NULL : &s->opt;
  s->n = n;
  s->fresh = fresh & CS_FRESH;
  s->storage = (fresh & CS_STORAGE) != 0;
  desert_status st;
  if (s->storage) {
    st = desert_writer_init(&s->ws_row, sizeof s->ws_row, &s->opt, &s->w);
    if (!st) st = desert_reader_init(&s->rs_row, sizeof s->rs_row, &s->opt, &s->r);
  } else {
    st = desert_writer_create(&s->opt, &s->w);
    if (!st) st = desert_reader_create(&s->opt, &s->r);
  }
  if (st) {
    if (info)
      snprintf(info->fail, sizeof info->fail, "cannot create a context for ISA %s: %s",
               desert_isa_name(isa), desert_status_name(st));
    cs_free(s);
    return NULL;
  }
  return s;
}

/* Stores a copy of the expected bytes of variant k. */
static int cs_set_enc(cs *s, unsigned k, const uint8_t *b, size_t n) {
  s->enc[k] = malloc(n ? n : 1);
  if (!s->enc[k]) return 1;
  memcpy(s->enc[k], b, n);
  s->enc_len[k] = n;
  return 0;
}

/* The writer one op uses: a fresh one or the reset row writer. */
static desert_writer *op_writer(cs *s) {
  if (!s->fresh) {
    desert_writer *w = s->w; /* (a reset's stores may alias s->w for the compiler) */
    /* storage rows: the inline reset (README's one-shot C path) */
    if (s->storage)
      desert_writer_reset_inline(w);
    else
      desert_writer_reset(w);
    return w;
  }
  desert_writer *w = NULL;
  if (s->storage ? desert_writer_init(&s->ws, sizeof s->ws, s->init_opt, &w)
                 : desert_writer_create(&s->opt, &w))
    return NULL;
  return w;
}

/* op_writer for the caller-storage rows, the row kind a constant at each
 * call so that the batch loop carries no test of it (the peers' rows have
 * none either). */
static inline desert_writer *op_writer_st(cs *s, int fresh) {
  if (!fresh) {
    desert_writer *w = s->w; /* (a reset's stores may alias s->w for the compiler) */
    desert_writer_reset_inline(w);
    return w;
  }
  desert_writer *w = NULL;
  if (desert_writer_init_inline(&s->ws, sizeof s->ws, s->init_opt, &w)) return NULL;
  return w;
}
static void op_writer_done(const cs *s, desert_writer *w) {
  if (s->fresh) desert_writer_free(w);
}

/* Checks a writer's output against variant k's expected bytes. */
static int check_writer(const char *what, desert_writer *w, const cs *s, unsigned k, char *msg,
                        size_t cap) {
  if (desert_writer_status(w))
    return codec_fail(msg, cap, "%s: variant %u: writer failed: %s", what, k,
                      desert_status_name(desert_writer_status(w)));
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  char label[64];
  snprintf(label, sizeof label, "%s variant %u", what, k);
  return codec_check_bytes(label, d, len, s->enc[k], s->enc_len[k], msg, cap);
}

static int check_reader_done(const char *what, desert_reader *r, size_t len, unsigned k, char *msg,
                             size_t cap) {
  if (desert_reader_status(r))
    return codec_fail(msg, cap, "%s: variant %u: reader failed: %s at offset %zu", what, k,
                      desert_status_name(desert_reader_status(r)), desert_reader_error_offset(r));
  if (desert_reader_offset(r) != len)
    return codec_fail(msg, cap, "%s: variant %u: consumed %zu of %zu bytes", what, k,
                      desert_reader_offset(r), len);
  return 0;
}

/* ---- case 0: the harness floor ------------------------------------------------ */

static void *setup_empty(desert_isa isa, size_t n, codec_info *info) {
  (void)isa;
  (void)n;
  (void)info;
  return calloc(1, 1);
}
static int verify_ok(void *p, char *msg, size_t cap) {
  (void)p;
  (void)msg;
  (void)cap;
  return 0;
}
static uint64_t run_empty(void *p, size_t i) {
  (void)p;
  return i;
}

/* ---- cases 1, 2, 17: i32 ------------------------------------------------------ */

static void *setup_i32_common(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, 1, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    s->i32[k] = bv_i32(k);
    uint8_t b[4];
    codec_put_be32(b, (uint32_t)s->i32[k]);
    if (cs_set_enc(s, k, b, 4)) {
      cs_free(s);
      return NULL;
    }
  }
  info->bytes_per_op = 4;
  return s;
}
static void *setup_i32_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_i32_common(isa, 1, info);
}
static void *setup_i32_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_i32_common(isa, 0, info);
}

static uint64_t run_i32_ser(void *p, size_t i) {
  cs *s = p;
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  desert_write_i32(w, s->i32[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}

static int verify_i32_ser(void *p, char *msg, size_t cap) {
  cs *s = p;
  static const uint8_t lit[] = {0x07, 0x5b, 0xcd, 0x15}; /* case 1 */
  if (codec_check_bytes("case 1 literal", s->enc[0], s->enc_len[0], lit, 4, msg, cap)) return 1;
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    desert_write_i32(w, s->i32[k]);
    int bad = check_writer("i32", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
  }
  return 0;
}

static uint64_t run_i32_de(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  int32_t v = 0;
  desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
  desert_read_i32(s->r, &v);
  return (uint32_t)v;
}

static int verify_i32_de(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    int32_t v = 0;
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    desert_read_i32(s->r, &v);
    if (check_reader_done("i32", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (v != s->i32[k]) return codec_fail(msg, cap, "i32 variant %u: got %d", k, v);
  }
  return 0;
}

/* ---- cases 3, 4: string ---------------------------------------------------------- */

static void *setup_str_common(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, BV_FOX_LEN, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    s->src[k] = malloc(s->n + 1);
    uint8_t b[64];
    if (!s->src[k]) goto fail;
    bv_fox(k, s->src[k]);
    s->src_len[k] = s->n;
    size_t len = codec_put_string(b, s->src[k], s->n);
    if (cs_set_enc(s, k, b, len)) goto fail;
  }
  info->bytes_per_op = s->enc_len[0];
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_str_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_str_common(isa, 1, info);
}
static void *setup_str_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_str_common(isa, 0, info);
}

static uint64_t run_str_ser(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  desert_write_string(w, s->src[k], s->src_len[k]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}

static int verify_str_ser(void *p, char *msg, size_t cap) {
  cs *s = p;
  if (s->enc_len[0] != 44 || s->enc[0][0] != 0x56)
    return codec_fail(msg, cap, "case 3: expected 44 bytes starting 56");
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    desert_write_string(w, s->src[k], s->src_len[k]);
    int bad = check_writer("string", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
  }
  return 0;
}

static uint64_t run_str_de(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_str v = {NULL, 0};
  desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
  desert_read_string(s->r, &v);
  return v.len + (uint64_t)(uintptr_t)v.ptr;
}

static int verify_str_de(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    desert_str v = {NULL, 0};
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    desert_read_string(s->r, &v);
    if (check_reader_done("string", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (v.len != s->src_len[k] || memcmp(v.ptr, s->src[k], v.len) != 0)
      return codec_fail(msg, cap, "string variant %u: wrong text", k);
  }
  return 0;
}

/* ---- case 5: var_i32 to a fresh buffer ----------------------------------------- */

static void *setup_vari32_common(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, 1, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    s->i32[k] = bv_var_i32(k); /* all 4-byte varints */
    uint8_t b[8];
    size_t len = codec_put_var_i32(b, s->i32[k]);
    if (cs_set_enc(s, k, b, len)) {
      cs_free(s);
      return NULL;
    }
  }
  info->bytes_per_op = 4;
  return s;
}

static uint64_t run_vari32_ser(void *p, size_t i) {
  cs *s = p;
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  desert_write_var_i32(w, s->i32[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}

static int verify_vari32(void *p, char *msg, size_t cap) {
  cs *s = p;
  static const uint8_t lit[] = {0xa9, 0xb4, 0xde, 0x75}; /* case 5 */
  if (codec_check_bytes("case 5 literal", s->enc[0], s->enc_len[0], lit, 4, msg, cap)) return 1;
  for (unsigned k = 0; k < K; k++) {
    if (s->enc_len[k] != 4) return codec_fail(msg, cap, "var_i32 variant %u not 4 bytes", k);
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    desert_write_var_i32(w, s->i32[k]);
    int bad = check_writer("var_i32", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
  }
  return 0;
}

/* ---- cases 6, 14 (i32 arrays) and 7, 15 (byte blocks) ------------------------- *
 * Rows: _rt (fresh writer, the headline), _rt_reused, _ser (reused writer)
 * and _de (reader), each per ISA; memcpy rows of the wire byte count. */

enum { BULK_RT = 0, BULK_RT_REUSED, BULK_SER, BULK_DE };

static void *setup_i32arr(desert_isa isa, size_t n, int mode, codec_info *info) {
  cs *s = cs_new(isa, n, mode == BULK_RT, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    int32_t *v = malloc(n * sizeof *v);
    uint8_t *b = malloc(5 + 4 * n);
    if (!v || !b) {
      free(v);
      free(b);
      cs_free(s);
      return NULL;
    }
    size_t len = codec_put_var_i32(b, (int32_t)n);
    bv_i32_array(k, n, v); /* variant 0: 0..n-1 */
    for (size_t j = 0; j < n; j++) len += codec_put_be32(b + len, (uint32_t)v[j]);
    s->src[k] = v;
    s->src_len[k] = n;
    s->enc[k] = b;
    s->enc_len[k] = len;
  }
  info->bytes_per_op = s->enc_len[0];
  info->items_per_op = n;
  return s;
}
#define I32ARR_SETUP(name, mode)                                                 \
  static void *setup_i32arr_##name(desert_isa isa, size_t n, codec_info *info) { \
    return setup_i32arr(isa, n, mode, info);                                     \
  }
I32ARR_SETUP(rt, BULK_RT)
I32ARR_SETUP(rt_reused, BULK_RT_REUSED)
I32ARR_SETUP(ser, BULK_SER)
I32ARR_SETUP(de, BULK_DE)

/* Decodes an i32 collection the way an application does: count, then the
 * elements into arena memory of that many elements. NULL on error. */
static const int32_t *decode_i32arr(desert_reader *r, const uint8_t *d, size_t len, size_t *n) {
  desert_seq seq;
  desert_reader_begin(r, d, len);
  if (desert_read_seq_begin(r, &seq) || !seq.known || seq.count > desert_reader_remaining(r) / 4)
    return NULL;
  int32_t *out = desert_reader_alloc(r, seq.count * 4, 16);
  if (!out || desert_read_i32_array(r, out, seq.count)) return NULL;
  *n = seq.count;
  return out;
}

static uint64_t run_i32arr_rt(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  desert_write_count(w, s->n);
  desert_write_i32_array(w, s->src[k], s->n);
  size_t len, n = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  const int32_t *v = decode_i32arr(s->r, d, len, &n);
  uint64_t r = v && n ? (uint64_t)(uint32_t)v[n - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}

static uint64_t run_i32arr_ser(void *p, size_t i) {
  cs *s = p;
  desert_writer_reset(s->w);
  desert_write_count(s->w, s->n);
  desert_write_i32_array(s->w, s->src[i % K], s->n);
  size_t len;
  const uint8_t *d = desert_writer_data(s->w, &len);
  return d ? (uint64_t)d[len - 1] + len : 0;
}

static uint64_t run_i32arr_de(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  size_t n = 0;
  const int32_t *v = decode_i32arr(s->r, s->enc[k], s->enc_len[k], &n);
  return v && n ? (uint64_t)(uint32_t)v[n - 1] + n : 0;
}

static int verify_i32arr(void *p, char *msg, size_t cap) {
  cs *s = p;
  size_t want0 = s->n == 1000 ? 4002 : s->n == 10000 ? 40003 : s->enc_len[0];
  if (s->enc_len[0] != want0)
    return codec_fail(msg, cap, "i32 x%zu: %zu wire bytes, the case inventory says %zu", s->n,
                      s->enc_len[0], want0);
  for (unsigned k = 0; k < K; k++) {
    /* encode side */
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    desert_write_count(w, s->n);
    desert_write_i32_array(w, s->src[k], s->n);
    int bad = check_writer("i32 array", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    /* decode side */
    size_t n = 0;
    const int32_t *v = decode_i32arr(s->r, s->enc[k], s->enc_len[k], &n);
    if (!v || check_reader_done("i32 array", s->r, s->enc_len[k], k, msg, cap))
      return msg[0] ? 1 : codec_fail(msg, cap, "i32 array variant %u: decode failed", k);
    if (n != s->n || memcmp(v, s->src[k], n * 4) != 0)
      return codec_fail(msg, cap, "i32 array variant %u: decoded values differ", k);
  }
  return 0;
}

static void *setup_bytes(desert_isa isa, size_t n, int mode, codec_info *info) {
  cs *s = cs_new(isa, n, mode == BULK_RT, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    uint8_t *v = malloc(n);
    uint8_t *b = malloc(5 + n);
    if (!v || !b) {
      free(v);
      free(b);
      cs_free(s);
      return NULL;
    }
    bv_bytes(k, n, v); /* variant 0: i % 251 */
    size_t len = codec_put_var_u32(b, (uint32_t)n);
    memcpy(b + len, v, n);
    s->src[k] = v;
    s->src_len[k] = n;
    s->enc[k] = b;
    s->enc_len[k] = len + n;
  }
  info->bytes_per_op = s->enc_len[0];
  return s;
}
#define BYTES_SETUP(name, mode)                                                 \
  static void *setup_bytes_##name(desert_isa isa, size_t n, codec_info *info) { \
    return setup_bytes(isa, n, mode, info);                                     \
  }
BYTES_SETUP(rt, BULK_RT)
BYTES_SETUP(rt_reused, BULK_RT_REUSED)
BYTES_SETUP(ser, BULK_SER)
BYTES_SETUP(de, BULK_DE)

static uint64_t run_bytes_rt(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  desert_write_bytes(w, s->src[k], s->n);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  desert_bytes b = {NULL, 0};
  desert_reader_begin(s->r, d, len);
  desert_read_bytes(s->r, &b);
  uint64_t r = b.len ? (uint64_t)b.ptr[b.len - 1] + b.len : 0;
  op_writer_done(s, w);
  return r;
}

static uint64_t run_bytes_ser(void *p, size_t i) {
  cs *s = p;
  desert_writer_reset(s->w);
  desert_write_bytes(s->w, s->src[i % K], s->n);
  size_t len;
  const uint8_t *d = desert_writer_data(s->w, &len);
  return d ? (uint64_t)d[len - 1] + len : 0;
}

static uint64_t run_bytes_de(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_bytes b = {NULL, 0};
  desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
  desert_read_bytes(s->r, &b);
  return b.len ? (uint64_t)b.ptr[b.len - 1] + b.len : 0;
}

static int verify_bytes(void *p, char *msg, size_t cap) {
  cs *s = p;
  size_t want0 = s->n == 4096 ? 4098 : s->n == 65536 ? 65539 : s->enc_len[0];
  if (s->enc_len[0] != want0)
    return codec_fail(msg, cap, "byte block %zu: %zu wire bytes, the case inventory says %zu", s->n,
                      s->enc_len[0], want0);
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    desert_write_bytes(w, s->src[k], s->n);
    int bad = check_writer("byte block", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    desert_bytes b = {NULL, 0};
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    desert_read_bytes(s->r, &b);
    if (check_reader_done("byte block", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (b.len != s->n || memcmp(b.ptr, s->src[k], b.len) != 0)
      return codec_fail(msg, cap, "byte block variant %u: decoded bytes differ", k);
  }
  return 0;
}

/* memcpy of the wire byte count of the bulk case, from the same kind of
 * rotated sources: the limit for bulk data. */
static void *setup_memcpy(desert_isa isa, size_t n, codec_info *info) {
  (void)isa;
  cs *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->n = n;
  s->dst = malloc(n);
  if (!s->dst) goto fail;
  for (unsigned k = 0; k < K; k++) {
    s->src[k] = malloc(n);
    if (!s->src[k]) goto fail;
    bv_bytes(k, n, s->src[k]);
  }
  info->bytes_per_op = n;
  return s;
fail:
  cs_free(s);
  return NULL;
}

static uint64_t run_memcpy(void *p, size_t i) {
  cs *s = p;
  memcpy(s->dst, s->src[i % K], s->n);
  return s->dst[s->n - 1];
}

static int verify_memcpy(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    run_memcpy(s, k);
    if (memcmp(s->dst, s->src[k], s->n) != 0) return codec_fail(msg, cap, "memcpy differs");
  }
  return 0;
}

/* ---- cases 8, 10: the evolved record --------------------------------------------
 * Person {id: i32, name: String, score: f64, active: bool, tags: Vec<String>}
 * with one FieldAdded("tags") step: version 1, tags in chunk 1. */

static const desert_field_desc rec8_fields[] = {
    {"id", 0}, {"name", 0}, {"score", 0}, {"active", 0}, {"tags", 0}};
static const desert_evolution_step rec8_steps[] = {{DESERT_STEP_FIELD_ADDED, "tags", true}};
static const desert_record_desc rec8_desc = DESERT_RECORD_DESC("Person", rec8_fields, rec8_steps);

typedef bv_rec8 rec8;

typedef struct rec8_view {
  int32_t id;
  desert_str name;
  double score;
  bool active;
  desert_str *tags;
  size_t ntags;
} rec8_view;

/* The record's prepared plan (record.h), built once in static storage:
 * the _plan rows use it, the others the description-based calls. */
static const desert_record_plan *rec8_plan(void) {
  static void *mem[DESERT_RECORD_PLAN_BYTES(5, 1) / sizeof(void *)];
  static const desert_record_plan *plan;
  if (!plan && desert_record_plan_init(&rec8_desc, mem, sizeof mem, &plan)) return NULL;
  return plan;
}

static desert_status rec8_write_with(desert_writer *w, const rec8 *p,
                                     const desert_record_plan *plan) {
  desert_record_writer rw;
  if (plan ? desert_record_write_begin_plan(w, plan, &rw)
           : desert_record_write_begin(w, &rec8_desc, &rw))
    return desert_writer_status(w);
  desert_record_write_field(&rw, 0);
  desert_write_i32(w, p->id);
  desert_record_write_field(&rw, 1);
  desert_write_string(w, p->name, p->name_len);
  desert_record_write_field(&rw, 2);
  desert_write_f64(w, p->score);
  desert_record_write_field(&rw, 3);
  desert_write_bool(w, p->active);
  desert_record_write_field(&rw, 4);
  desert_write_count(w, 4);
  for (unsigned t = 0; t < 4; t++) desert_write_string(w, p->tag[t], p->tag_len[t]);
  return desert_record_write_end(&rw); /* errors are sticky: one check */
}

/* Reads a collection of strings into arena memory. */
static desert_status read_str_seq(desert_reader *r, desert_str **out, size_t *n) {
  desert_seq seq;
  *out = NULL;
  *n = 0;
  if (desert_read_seq_begin(r, &seq)) return desert_reader_status(r);
  if (!seq.known || seq.count > desert_reader_remaining(r)) /* each string takes >= 1 byte */
    return desert_reader_fail(r, DESERT_E_DESERIALIZATION, seq.offset);
  desert_str *v = desert_reader_alloc(r, seq.count * sizeof *v, 16);
  if (!v) return desert_reader_status(r);
  for (size_t j = 0; j < seq.count; j++)
    if (desert_read_string(r, &v[j])) return desert_reader_status(r);
  *out = v;
  *n = seq.count;
  return DESERT_OK;
}

static desert_status rec8_read_with(desert_reader *r, rec8_view *o,
                                    const desert_record_plan *plan) {
  desert_record_reader rr;
  desert_field_action a = DESERT_FIELD_READ;
  if (plan ? desert_record_read_begin_plan(r, plan, &rr)
           : desert_record_read_begin(r, &rec8_desc, &rr))
    return desert_reader_status(r);
  if (!desert_record_read_field(&rr, 0, &a)) desert_read_i32(r, &o->id);
  if (!desert_record_read_field(&rr, 1, &a)) desert_read_string(r, &o->name);
  if (!desert_record_read_field(&rr, 2, &a)) desert_read_f64(r, &o->score);
  if (!desert_record_read_field(&rr, 3, &a)) desert_read_bool(r, &o->active);
  if (!desert_record_read_field(&rr, 4, &a)) {
    if (a == DESERT_FIELD_READ) {
      read_str_seq(r, &o->tags, &o->ntags);
    } else { /* data older than the tags: the FieldAdded default, empty */
      o->tags = NULL;
      o->ntags = 0;
    }
  }
  return desert_record_read_end(&rr);
}

/* docs/format.md §9.4: version, header (chunk sizes), chunks. */
static size_t rec8_expected(const rec8 *p, uint8_t *out) {
  uint8_t c0[64], c1[64];
  size_t n0 = 0, n1 = 0;
  n0 += codec_put_be32(c0 + n0, (uint32_t)p->id);
  n0 += codec_put_string(c0 + n0, p->name, p->name_len);
  uint64_t bits;
  memcpy(&bits, &p->score, 8);
  n0 += codec_put_be64(c0 + n0, bits);
  c0[n0++] = p->active ? 1 : 0;
  n1 += codec_put_var_i32(c1 + n1, 4);
  for (unsigned t = 0; t < 4; t++) n1 += codec_put_string(c1 + n1, p->tag[t], p->tag_len[t]);
  size_t n = 0;
  out[n++] = 1;
  n += codec_put_var_i32(out + n, (int32_t)n0);
  n += codec_put_var_i32(out + n, (int32_t)n1);
  memcpy(out + n, c0, n0);
  n += n0;
  memcpy(out + n, c1, n1);
  return n + n1;
}

static void *setup_rec8(desert_isa isa, int fresh, int count_only, codec_info *info) {
  cs *s = cs_new(isa, 1, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    rec8 *p = malloc(sizeof *p);
    uint8_t b[160];
    if (!p) goto fail;
    bv_record8(k, p);
    s->src[k] = p;
    if (cs_set_enc(s, k, b, rec8_expected(p, b))) goto fail;
  }
  if (count_only) desert_writer_count_only(s->w);
  info->bytes_per_op = s->enc_len[0];
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_rec8_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_rec8(isa, 1, 0, info);
}
static void *setup_rec8_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_rec8(isa, 0, 0, info);
}
static void *setup_rec8_count(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_rec8(isa, 0, 1, info);
}

static uint64_t rec8_view_sum(const rec8_view *v) {
  return (uint64_t)(uint32_t)v->id + v->name.len + (uint64_t)v->score + v->active + v->ntags +
         (v->ntags ? v->tags[v->ntags - 1].len : 0);
}

static uint64_t rec8_rt(cs *s, size_t i, const desert_record_plan *plan) {
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  rec8_write_with(w, s->src[k], plan);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  rec8_view v;
  desert_reader_begin(s->r, d, len);
  uint64_t r = rec8_read_with(s->r, &v, plan) ? 0 : rec8_view_sum(&v) + len;
  op_writer_done(s, w);
  return r;
}

static uint64_t rec8_ser(cs *s, size_t i, const desert_record_plan *plan) {
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  rec8_write_with(w, s->src[i % K], plan);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}

static uint64_t rec8_de(cs *s, size_t i, const desert_record_plan *plan) {
  unsigned k = (unsigned)(i % K);
  rec8_view v;
  desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
  return rec8_read_with(s->r, &v, plan) ? 0 : rec8_view_sum(&v);
}

static uint64_t rec8_size(cs *s, size_t i, const desert_record_plan *plan) {
  desert_writer_reset(s->w); /* stays in size-only mode */
  rec8_write_with(s->w, s->src[i % K], plan);
  return desert_writer_size(s->w);
}

static uint64_t run_rec8_rt(void *p, size_t i) { return rec8_rt(p, i, NULL); }
static uint64_t run_rec8_ser(void *p, size_t i) { return rec8_ser(p, i, NULL); }
static uint64_t run_rec8_de(void *p, size_t i) { return rec8_de(p, i, NULL); }
static uint64_t run_rec8_size(void *p, size_t i) { return rec8_size(p, i, NULL); }
static uint64_t run_rec8_rt_plan(void *p, size_t i) { return rec8_rt(p, i, rec8_plan()); }
static uint64_t run_rec8_ser_plan(void *p, size_t i) { return rec8_ser(p, i, rec8_plan()); }
static uint64_t run_rec8_de_plan(void *p, size_t i) { return rec8_de(p, i, rec8_plan()); }
static uint64_t run_rec8_size_plan(void *p, size_t i) { return rec8_size(p, i, rec8_plan()); }

static int rec8_check_view(const rec8_view *v, const rec8 *p, unsigned k, char *msg, size_t cap) {
  if (v->id != p->id || v->name.len != p->name_len || memcmp(v->name.ptr, p->name, p->name_len) ||
      memcmp(&v->score, &p->score, 8) || v->active != p->active || v->ntags != 4)
    return codec_fail(msg, cap, "record variant %u: decoded fields differ", k);
  for (unsigned t = 0; t < 4; t++)
    if (v->tags[t].len != p->tag_len[t] || memcmp(v->tags[t].ptr, p->tag[t], p->tag_len[t]))
      return codec_fail(msg, cap, "record variant %u: tag %u differs", k, t);
  return 0;
}

static int verify_rec8(void *p, char *msg, size_t cap) {
  cs *s = p;
  /* Case 8, byte for byte. */
  static const uint8_t lit[54] = {0x01, 0x36, 0x30, 0x00, 0x00, 0x00, 0x2a, 0x1a, 'A',  'l',  'i',
                                  'c',  'e',  ' ',  'E',  'x',  'a',  'm',  'p',  'l',  'e',  0x40,
                                  0x58, 0xa8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x0a, 'a',
                                  'l',  'p',  'h',  'a',  0x08, 'b',  'e',  't',  'a',  0x0a, 'g',
                                  'a',  'm',  'm',  'a',  0x0a, 'd',  'e',  'l',  't',  'a'};
  if (codec_check_bytes("case 8 literal", s->enc[0], s->enc_len[0], lit, sizeof lit, msg, cap))
    return 1;
  if (!rec8_plan()) return codec_fail(msg, cap, "cannot build the record's plan");
  /* Both the description-based and the plan-based calls, whichever the row
   * times. */
  for (unsigned k = 0; k < 2 * K; k++) {
    const desert_record_plan *plan = k < K ? NULL : rec8_plan();
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    rec8_write_with(w, s->src[k % K], plan);
    int bad = check_writer("record", w, s, k % K, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    rec8_view v;
    desert_reader_begin(s->r, s->enc[k % K], s->enc_len[k % K]);
    rec8_read_with(s->r, &v, plan);
    if (check_reader_done("record", s->r, s->enc_len[k % K], k % K, msg, cap)) return 1;
    if (rec8_check_view(&v, s->src[k % K], k % K, msg, cap)) return 1;
  }
  return 0;
}

static int verify_rec8_size(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < 2 * K; k++) {
    uint64_t n = k < K ? run_rec8_size(s, k) : run_rec8_size_plan(s, k);
    if (desert_writer_status(s->w))
      return codec_fail(msg, cap, "size-only writer failed: %s",
                        desert_status_name(desert_writer_status(s->w)));
    if (n != 54 || n != s->enc_len[k % K])
      return codec_fail(msg, cap, "size-only variant %u: %llu bytes, expected 54", k,
                        (unsigned long long)n);
    if (desert_writer_data(s->w, NULL) != NULL)
      return codec_fail(msg, cap, "size-only writer produced bytes");
  }
  return 0;
}

/* ---- case 9: DeduplicatedString x100 ----------------------------------------------- */

static void *setup_dedup(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, 100, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    char *t = malloc(BV_DEDUP_LEN + 1);
    uint8_t b[160];
    if (!t) goto fail;
    bv_dedup(k, t);
    s->src[k] = t;
    s->src_len[k] = 28;
    size_t n = codec_put_var_i32(b, 100);
    n += codec_put_string(b + n, t, 28);              /* first: in full, id 1 */
    for (unsigned j = 1; j < 100; j++) b[n++] = 0x01; /* var_i32(-1): back-reference */
    if (cs_set_enc(s, k, b, n)) goto fail;
  }
  info->bytes_per_op = s->enc_len[0];
  info->items_per_op = 100;
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_dedup_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_dedup(isa, 1, info);
}
static void *setup_dedup_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_dedup(isa, 0, info);
}

static void dedup_write(desert_writer *w, const char *t) {
  desert_write_count(w, 100);
  for (unsigned j = 0; j < 100; j++) desert_write_dedup_string(w, t, 28);
}

static uint64_t run_dedup_ser(void *p, size_t i) {
  cs *s = p;
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  dedup_write(w, s->src[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}

static const desert_str *dedup_read(desert_reader *r, const uint8_t *d, size_t len, size_t *n) {
  desert_seq seq;
  desert_reader_begin(r, d, len);
  if (desert_read_seq_begin(r, &seq) || !seq.known || seq.count > desert_reader_remaining(r))
    return NULL;
  desert_str *v = desert_reader_alloc(r, seq.count * sizeof *v, 16);
  if (!v) return NULL;
  for (size_t j = 0; j < seq.count; j++)
    if (desert_read_dedup_string(r, &v[j])) return NULL;
  *n = seq.count;
  return v;
}

static uint64_t run_dedup_de(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  size_t n = 0;
  const desert_str *v = dedup_read(s->r, s->enc[k], s->enc_len[k], &n);
  return v && n ? n + v[n - 1].len + (uint8_t)v[n - 1].ptr[27] : 0;
}

static int verify_dedup(void *p, char *msg, size_t cap) {
  cs *s = p;
  if (s->enc_len[0] != 130)
    return codec_fail(msg, cap, "case 9: %zu bytes, expected 130", s->enc_len[0]);
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    dedup_write(w, s->src[k]);
    int bad = check_writer("dedup strings", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    size_t n = 0;
    const desert_str *v = dedup_read(s->r, s->enc[k], s->enc_len[k], &n);
    if (!v || check_reader_done("dedup strings", s->r, s->enc_len[k], k, msg, cap))
      return msg[0] ? 1 : codec_fail(msg, cap, "dedup variant %u: decode failed", k);
    if (n != 100) return codec_fail(msg, cap, "dedup variant %u: %zu strings", k, n);
    for (size_t j = 0; j < n; j++)
      if (v[j].len != 28 || memcmp(v[j].ptr, s->src[k], 28))
        return codec_fail(msg, cap, "dedup variant %u: string %zu differs", k, j);
  }
  return 0;
}

/* ---- case 11: array of strings x100 ------------------------------------------------ */

typedef bv_strlist strlist;

static void *setup_str100(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, 100, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    strlist *l = malloc(sizeof *l);
    uint8_t b[1024];
    if (!l) goto fail;
    bv_strlist_make(k, l);
    size_t n = codec_put_var_i32(b, 100);
    for (unsigned j = 0; j < 100; j++) n += codec_put_string(b + n, l->s[j], l->len[j]);
    s->src[k] = l;
    if (cs_set_enc(s, k, b, n)) goto fail;
  }
  info->bytes_per_op = s->enc_len[0];
  info->items_per_op = 100;
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_str100_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_str100(isa, 1, info);
}
static void *setup_str100_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_str100(isa, 0, info);
}

static void str100_write(desert_writer *w, const strlist *l) {
  desert_write_count(w, 100);
  for (unsigned j = 0; j < 100; j++) desert_write_string(w, l->s[j], l->len[j]);
}

static uint64_t run_str100_rt(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  str100_write(w, s->src[k]);
  size_t len, n = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  desert_str *v = NULL;
  desert_reader_begin(s->r, d, len);
  uint64_t r = read_str_seq(s->r, &v, &n) || !n ? 0 : n + v[n - 1].len + len;
  op_writer_done(s, w);
  return r;
}

static int verify_str100(void *p, char *msg, size_t cap) {
  cs *s = p;
  if (s->enc_len[0] != 692)
    return codec_fail(msg, cap, "case 11: %zu bytes, expected 692", s->enc_len[0]);
  for (unsigned k = 0; k < K; k++) {
    const strlist *l = s->src[k];
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    str100_write(w, l);
    int bad = check_writer("strings", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    desert_str *v = NULL;
    size_t n = 0;
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    read_str_seq(s->r, &v, &n);
    if (check_reader_done("strings", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (n != 100) return codec_fail(msg, cap, "strings variant %u: %zu strings", k, n);
    for (unsigned j = 0; j < 100; j++)
      if (v[j].len != l->len[j] || memcmp(v[j].ptr, l->s[j], l->len[j]))
        return codec_fail(msg, cap, "strings variant %u: string %u differs", k, j);
  }
  return 0;
}

/* ---- case 12: map String -> i32 x100 ----------------------------------------------- */

typedef bv_strmap strmap;

typedef struct map_entry_view {
  desert_str key;
  int32_t val;
} map_entry_view;

static void *setup_map100(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, 100, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    strmap *m = malloc(sizeof *m);
    uint8_t b[1536];
    if (!m) goto fail;
    bv_strmap_make(k, m);
    size_t n = codec_put_var_i32(b, 100);
    for (unsigned j = 0; j < 100; j++) {
      b[n++] = 0x00; /* tuple version byte (docs/format.md §6.4, §8) */
      n += codec_put_string(b + n, m->key[j], m->len[j]);
      n += codec_put_be32(b + n, (uint32_t)m->val[j]);
    }
    s->src[k] = m;
    if (cs_set_enc(s, k, b, n)) goto fail;
  }
  info->bytes_per_op = s->enc_len[0];
  info->items_per_op = 100;
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_map100_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_map100(isa, 1, info);
}
static void *setup_map100_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_map100(isa, 0, info);
}

static void map100_write(desert_writer *w, const strmap *m) {
  desert_write_count(w, 100);
  for (unsigned j = 0; j < 100; j++) {
    desert_write_tuple_begin(w);
    desert_write_string(w, m->key[j], m->len[j]);
    desert_write_i32(w, m->val[j]);
  }
}

/* Map entries are 2-tuples, read as records (docs/format.md §8, record.h). */
static const map_entry_view *map100_read_with(desert_reader *r, const uint8_t *d, size_t len,
                                              size_t *n, bool plan) {
  desert_seq seq;
  desert_reader_begin(r, d, len);
  if (desert_read_seq_begin(r, &seq) || !seq.known || seq.count > desert_reader_remaining(r))
    return NULL;
  map_entry_view *v = desert_reader_alloc(r, seq.count * sizeof *v, 16);
  if (!v) return NULL;
  const desert_record_desc *t2 = desert_tuple_desc(2);
  const desert_record_plan *p2 = desert_tuple_plan(2);
  for (size_t j = 0; j < seq.count; j++) {
    desert_record_reader tr;
    desert_field_action a;
    if (plan ? desert_record_read_begin_plan(r, p2, &tr) : desert_record_read_begin(r, t2, &tr))
      return NULL;
    if (!desert_record_read_field(&tr, 0, &a)) desert_read_string(r, &v[j].key);
    if (!desert_record_read_field(&tr, 1, &a)) desert_read_i32(r, &v[j].val);
    if (desert_record_read_end(&tr)) return NULL;
  }
  *n = seq.count;
  return v;
}

static uint64_t map100_rt(cs *s, size_t i, bool plan) {
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  map100_write(w, s->src[k]);
  size_t len, n = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  const map_entry_view *v = map100_read_with(s->r, d, len, &n, plan);
  uint64_t r = v && n ? n + (uint32_t)v[n - 1].val + v[n - 1].key.len + len : 0;
  op_writer_done(s, w);
  return r;
}
static uint64_t run_map100_rt(void *p, size_t i) { return map100_rt(p, i, false); }
static uint64_t run_map100_rt_plan(void *p, size_t i) { return map100_rt(p, i, true); }

static int verify_map100(void *p, char *msg, size_t cap) {
  cs *s = p;
  if (s->enc_len[0] != 1092)
    return codec_fail(msg, cap, "case 12: %zu bytes, expected 1092", s->enc_len[0]);
  for (unsigned k = 0; k < K; k++) {
    const strmap *m = s->src[k];
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    map100_write(w, m);
    int bad = check_writer("map", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    for (int plan = 0; plan < 2; plan++) { /* the tuple description, then its plan */
      size_t n = 0;
      const map_entry_view *v = map100_read_with(s->r, s->enc[k], s->enc_len[k], &n, plan);
      if (!v || check_reader_done("map", s->r, s->enc_len[k], k, msg, cap))
        return msg[0] ? 1 : codec_fail(msg, cap, "map variant %u: decode failed", k);
      if (n != 100) return codec_fail(msg, cap, "map variant %u: %zu entries", k, n);
      for (unsigned j = 0; j < 100; j++)
        if (v[j].val != m->val[j] || v[j].key.len != m->len[j] ||
            memcmp(v[j].key.ptr, m->key[j], m->len[j]))
          return codec_fail(msg, cap, "map variant %u: entry %u differs", k, j);
    }
  }
  return 0;
}

/* ---- case 13: Option<i32> ---------------------------------------------------------- */

static void *setup_opt(desert_isa isa, int fresh, codec_info *info) {
  cs *s = cs_new(isa, 1, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    uint8_t b[5] = {0x01};
    s->i32[k] = bv_opt_i32(k);
    codec_put_be32(b + 1, (uint32_t)s->i32[k]);
    if (cs_set_enc(s, k, b, 5)) {
      cs_free(s);
      return NULL;
    }
  }
  info->bytes_per_op = 5;
  return s;
}
static void *setup_opt_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_opt(isa, 1, info);
}
static void *setup_opt_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_opt(isa, 0, info);
}

static uint64_t run_opt_rt(void *p, size_t i) {
  cs *s = p;
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  desert_write_option(w, true);
  desert_write_i32(w, s->i32[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  bool some = false;
  int32_t v = 0;
  desert_reader_begin(s->r, d, len);
  if (!desert_read_option(s->r, &some) && some) desert_read_i32(s->r, &v);
  op_writer_done(s, w);
  return (uint64_t)(uint32_t)v + some + len;
}

static int verify_opt(void *p, char *msg, size_t cap) {
  cs *s = p;
  static const uint8_t lit[] = {0x01, 0x00, 0x00, 0x00, 0x2a};
  if (codec_check_bytes("case 13 literal", s->enc[0], s->enc_len[0], lit, 5, msg, cap)) return 1;
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    desert_write_option(w, true);
    desert_write_i32(w, s->i32[k]);
    int bad = check_writer("option", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    bool some = false;
    int32_t v = 0;
    desert_reader_begin(s->r, s->enc[k], 5);
    desert_read_option(s->r, &some);
    if (some) desert_read_i32(s->r, &v);
    if (check_reader_done("option", s->r, 5, k, msg, cap)) return 1;
    if (!some || v != s->i32[k]) return codec_fail(msg, cap, "option variant %u differs", k);
  }
  return 0;
}

/* ---- case 16: the golden dataset --------------------------------------------------
 * dataset1.bin decoded into the golden C model of examples/golden_model.c
 * and encoded back. Variant k: the same model with the 30000 longs shifted
 * by k * 10^6 and `int` + k, written in the legacy form: 242,540 bytes like
 * the file (variant 0 IS the file). Encode rows write the modern form
 * (default options, as desert-rust writes): 242,534 bytes. The fresh
 * headline row builds its writer in row-owned caller storage (as a stack
 * variable would be) and writes through prepared plans: the README's
 * recommended API for one-shot C use and for records written more than
 * once; `c16_golden_encode_heap` keeps a heap writer per op and the
 * description-based calls. */

enum { GOLDEN_HEAP = 1, GOLDEN_STORAGE = 2 };

typedef struct golden_state {
  desert_options opt;
  desert_options legacy;
  desert_writer *w;  /* reused modern writer */
  desert_reader *r;  /* the row's reader */
  desert_reader *r0; /* keeps m0's arena alive */
  int fresh;   /* 0: reuse w; GOLDEN_HEAP: desert_writer_create per op;
                * GOLDEN_STORAGE: desert_writer_init in ws per op */
  unsigned kk; /* variants in rotation: CODEC_K, or 1 for the hot-cache rows */
  desert_writer_storage ws; /* a fresh op's writer (GOLDEN_STORAGE) */
  uint8_t *file;
  size_t file_len;
  golden_model m0;
  uint8_t *var[K];
  size_t var_len[K];
  int64_t *arr[K];
  golden_model model[K];
} golden_state;

static void golden_free(void *p) {
  golden_state *g = p;
  if (!g) return;
  desert_writer_free(g->w);
  desert_reader_free(g->r);
  desert_reader_free(g->r0);
  for (unsigned k = 0; k < K; k++) {
    free(g->var[k]);
    free(g->arr[k]);
  }
  free(g->file);
  free(g);
}

static void golden_path(char *out, size_t cap) {
  const char *dir = getenv("DESERT_GOLDEN_DIR");
  snprintf(out, cap, "%s/dataset1.bin", dir && *dir ? dir : DESERT_GOLDEN_DIR);
}

static void *setup_golden(desert_isa isa, int fresh, unsigned kk, codec_info *info) {
  char path[1024];
  golden_path(path, sizeof path);
  size_t len = 0;
  uint8_t *file = codec_read_file(path, &len);
  if (!file) {
    snprintf(info->skip, sizeof info->skip,
             "golden dataset not found at %.120s (desert-scala's data, never committed; set "
             "DESERT_GOLDEN_DIR)",
             path);
    return NULL;
  }
  golden_state *g = calloc(1, sizeof *g);
  if (!g) {
    free(file);
    return NULL;
  }
  g->file = file;
  g->file_len = len;
  g->fresh = fresh;
  g->kk = kk;
  codec_options(&g->opt, isa, 0);
  codec_options(&g->legacy, isa, DESERT_OPT_LEGACY_HEADER_STRINGS);
  desert_writer *lw = NULL;
  desert_status st = desert_writer_create(&g->opt, &g->w);
  if (!st) st = desert_reader_create(&g->opt, &g->r);
  if (!st) st = desert_reader_create(&g->opt, &g->r0);
  if (!st) st = desert_writer_create(&g->legacy, &lw);
  if (st) {
    snprintf(info->fail, sizeof info->fail, "cannot create a context for ISA %s: %s",
             desert_isa_name(isa), desert_status_name(st));
    goto fail;
  }
  desert_reader_begin(g->r0, g->file, g->file_len);
  if (golden_model_read(g->r0, &g->m0)) {
    snprintf(info->fail, sizeof info->fail, "%.120s does not decode: %s at offset %zu", path,
             desert_status_name(desert_reader_status(g->r0)), desert_reader_error_offset(g->r0));
    goto fail;
  }
  for (unsigned k = 0; k < K; k++) {
    size_t n = g->m0.array_len;
    g->arr[k] = malloc(n * sizeof(int64_t) + 8);
    if (!g->arr[k]) goto fail_nomsg;
    for (size_t j = 0; j < n; j++) g->arr[k][j] = g->m0.array[j] + (int64_t)k * 1000000;
    g->model[k] = g->m0;
    g->model[k].array = g->arr[k];
    g->model[k].int_ = g->m0.int_ + (int32_t)k;
    desert_writer_reset(lw);
    if (golden_model_write(lw, &g->model[k])) goto fail_nomsg;
    size_t vlen;
    const uint8_t *d = desert_writer_data(lw, &vlen);
    g->var[k] = malloc(vlen);
    if (!g->var[k]) goto fail_nomsg;
    memcpy(g->var[k], d, vlen);
    g->var_len[k] = vlen;
  }
  desert_writer_free(lw);
  info->bytes_per_op = g->file_len;
  return g;
fail_nomsg:
  snprintf(info->fail, sizeof info->fail, "golden variants: out of memory or encode failure");
fail:
  desert_writer_free(lw);
  golden_free(g);
  return NULL;
}
static void *setup_golden_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_golden(isa, GOLDEN_HEAP, K, info);
}
static void *setup_golden_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_golden(isa, 0, K, info);
}
/* One input, the same every op: caches warm, as a plain loop over one
 * buffer measures it (not the method's number; shows the memory share). */
static void *setup_golden_hot(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_golden(isa, 0, 1, info);
}

static uint64_t run_golden_decode(void *p, size_t i) {
  golden_state *g = p;
  unsigned k = (unsigned)(i % g->kk);
  golden_model m;
  desert_reader_begin(g->r, g->var[k], g->var_len[k]);
  if (golden_model_read(g->r, &m)) return 0;
  return (uint64_t)m.array[m.array_len - 1] + m.vector_len + m.option_len;
}

static uint64_t run_golden_encode(void *p, size_t i) {
  golden_state *g = p;
  desert_writer *w = g->w;
  if (g->fresh == GOLDEN_STORAGE) {
    if (desert_writer_init(&g->ws, sizeof g->ws, &g->opt, &w)) return 0;
  } else if (g->fresh) {
    if (desert_writer_create(&g->opt, &w)) return 0;
  } else {
    desert_writer_reset(w);
  }
  golden_model_write(w, &g->model[i % g->kk]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  if (g->fresh) desert_writer_free(w);
  return r;
}

/* The _plan rows: the same codecs on prepared plans (golden_model_prepare),
 * switched on for the op only so that the other rows keep the
 * description-based calls. */
static void *setup_golden_planned(desert_isa isa, int fresh, codec_info *info) {
  if (golden_model_prepare()) return NULL;
  golden_model_use_plans(false);
  return setup_golden(isa, fresh, K, info);
}
static void *setup_golden_plan(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_golden_planned(isa, 0, info);
}
static void *setup_golden_fresh_plan(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_golden_planned(isa, GOLDEN_STORAGE, info);
}
static uint64_t run_golden_decode_plan(void *p, size_t i) {
  golden_model_use_plans(true);
  uint64_t r = run_golden_decode(p, i);
  golden_model_use_plans(false);
  return r;
}
static uint64_t run_golden_encode_plan(void *p, size_t i) {
  golden_model_use_plans(true);
  uint64_t r = run_golden_encode(p, i);
  golden_model_use_plans(false);
  return r;
}

static int str_is(desert_str s, const char *t) {
  return s.len == strlen(t) && !memcmp(s.ptr, t, s.len);
}

/* The decoded value the golden dataset's README lists (the parts a wrong decoder would miss). */
static int golden_check_m0(const golden_model *m, char *msg, size_t cap) {
  uint32_t fb;
  uint64_t db;
  memcpy(&fb, &m->float_, 4);
  memcpy(&db, &m->double_, 8);
  static const uint8_t uuid[16] = {0xd9, 0x0c, 0x42, 0x85, 0x54, 0x4d, 0x42, 0x4d,
                                   0x88, 0x5c, 0x39, 0x40, 0xfe, 0x00, 0x88, 0x3d};
  if (m->byte_ != -10 || m->short_ != 10000 || m->int_ != -2000000000 ||
      m->long_ != 100000000001ll || fb != 0x4048f5c3u || db != 0x3dab22cd6bbd390cull ||
      m->boolean_ || !str_is(m->string, "Example data set") || memcmp(m->uuid, uuid, 16))
    return codec_fail(msg, cap, "golden: scalar fields differ from the golden dataset's expected value");
  if (!str_is(m->exception.class_name, "java.lang.RuntimeException") ||
      !str_is(m->exception.message, "Example exception") || m->exception.stack_trace_len != 16)
    return codec_fail(msg, cap, "golden: exception differs");
  if (m->list_len != 3 || m->list_known_size || !str_is(m->list[0].id, "a") ||
      !str_is(m->list[2].id, "aaa"))
    return codec_fail(msg, cap, "golden: list differs");
  if (m->array_len != 30000) return codec_fail(msg, cap, "golden: array length %zu", m->array_len);
  for (size_t j = 0; j < m->array_len; j++)
    if (m->array[j] != (int64_t)j + 1) return codec_fail(msg, cap, "golden: array[%zu] differs", j);
  if (m->vector_len != 100) return codec_fail(msg, cap, "golden: vector length %zu", m->vector_len);
  for (size_t j = 0; j < 100; j++) {
    char t[8];
    snprintf(t, sizeof t, "%zu", j + 1);
    if (!str_is(m->vector[j].id, t)) return codec_fail(msg, cap, "golden: vector[%zu] differs", j);
  }
  if (m->set_len != 2 || !str_is(m->set[0], "hello") || !str_is(m->set[1], "world"))
    return codec_fail(msg, cap, "golden: set differs");
  if (!m->either_right || !m->either_right_value || !m->tried_success ||
      m->tried_value.kind != GOLDEN_FIRST || m->tried_value.first.id.len != 0)
    return codec_fail(msg, cap, "golden: either/tried differ");
  if (!m->has_option || m->option_len != 3 || !str_is(m->option[0].key, "first") ||
      !str_is(m->option[1].key, "second") || !str_is(m->option[2].key, "third") ||
      m->option[1].value.kind != GOLDEN_SECOND || m->option[1].value.has_desc ||
      !m->option[2].value.has_desc || !str_is(m->option[2].value.desc, "some description"))
    return codec_fail(msg, cap, "golden: option map differs");
  return 0;
}

static int verify_golden(void *p, char *msg, size_t cap) {
  golden_state *g = p;
  if (g->file_len != 242540)
    return codec_fail(msg, cap, "golden: file is %zu bytes, expected 242540", g->file_len);
  if (golden_check_m0(&g->m0, msg, cap)) return 1;
  if (codec_check_bytes("golden legacy re-encoding", g->var[0], g->var_len[0], g->file, g->file_len,
                        msg, cap))
    return 1;
  desert_reader *chk = NULL;
  desert_writer *lw = NULL;
  if (desert_reader_create(&g->opt, &chk) || desert_writer_create(&g->legacy, &lw)) {
    desert_reader_free(chk);
    return codec_fail(msg, cap, "cannot create contexts");
  }
  int bad = 0;
  for (unsigned k = 0; k < K && !bad; k++) {
    /* decode rows: every variant decodes completely to its values */
    golden_model m;
    desert_reader_begin(g->r, g->var[k], g->var_len[k]);
    golden_model_read(g->r, &m);
    if ((bad = check_reader_done("golden decode", g->r, g->var_len[k], k, msg, cap))) break;
    if (g->var_len[k] != g->file_len || m.array_len != 30000 ||
        memcmp(m.array, g->arr[k], 30000 * 8) || m.int_ != g->model[k].int_) {
      bad = codec_fail(msg, cap, "golden variant %u: decoded values differ", k);
      break;
    }
    /* encode rows: the modern form, 242,534 bytes, decoding back to the
     * same value (checked by re-encoding it in the legacy form) */
    (void)run_golden_encode(g, k); /* the timed path runs (fresh rows: its writer is gone) */
    desert_writer *w = g->w;
    desert_writer_reset(w); /* the same writer options, model k */
    golden_model_write(w, &g->model[k]);
    size_t mlen;
    const uint8_t *modern = desert_writer_data(w, &mlen);
    if (desert_writer_status(w) || mlen != 242534) {
      bad = codec_fail(msg, cap,
                       "golden variant %u: modern encoding is %zu bytes (%s), expected 242534", k,
                       mlen, desert_status_name(desert_writer_status(w)));
      break;
    }
    golden_model m2;
    desert_reader_begin(chk, modern, mlen);
    golden_model_read(chk, &m2);
    if ((bad = check_reader_done("golden modern decode", chk, mlen, k, msg, cap))) break;
    desert_writer_reset(lw);
    golden_model_write(lw, &m2);
    size_t llen;
    const uint8_t *ld = desert_writer_data(lw, &llen);
    bad =
        codec_check_bytes("golden modern -> legacy", ld, llen, g->var[k], g->var_len[k], msg, cap);
  }
  desert_reader_free(chk);
  desert_writer_free(lw);
  return bad;
}

static int verify_golden_plan(void *p, char *msg, size_t cap) {
  golden_model_use_plans(true);
  int bad = verify_golden(p, msg, cap);
  golden_model_use_plans(false);
  return bad;
}

/* ---- case 18: compressed block 4096 B -------------------------------------------- */

typedef enum { Z_RAW = 0, Z_ZLIB = 1, Z_ZSTD = 2 } zkind;

static void *setup_z(desert_isa isa, zkind kind, codec_info *info) {
  cs *s = cs_new(isa, 4096, 0, 0, info);
  if (!s) return NULL;
  s->extra = malloc(sizeof(int));
  if (!s->extra) goto fail;
  *(int *)s->extra = (int)kind;
  for (unsigned k = 0; k < K; k++) {
    uint8_t *v = malloc(4096);
    if (!v) goto fail;
    bv_bytes(k, 4096, v);
    s->src[k] = v;
    s->src_len[k] = 4096;
  }
  info->bytes_per_op = 4096;
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_z_raw(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_z(isa, Z_RAW, info);
}
static void *setup_z_zlib(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_z(isa, Z_ZLIB, info);
}
static void *setup_z_zstd(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_z(isa, Z_ZSTD, info);
}

static void z_write(cs *s, unsigned k) {
  zkind kind = (zkind) * (int *)s->extra;
  desert_writer_reset(s->w);
  if (kind == Z_ZSTD)
    desert_write_compressed_zstd(s->w, -1, s->src[k], 4096);
  else
    desert_write_compressed(s->w, kind == Z_RAW ? DESERT_COMPRESSION_RAW : DESERT_COMPRESSION_ZLIB,
                            -1, s->src[k], 4096);
}

static desert_status z_read(cs *s, const uint8_t *d, size_t len, desert_bytes *out) {
  zkind kind = (zkind) * (int *)s->extra;
  desert_reader_begin(s->r, d, len);
  if (kind == Z_ZSTD) return desert_read_compressed_zstd(s->r, out);
  return desert_read_compressed(
      s->r, kind == Z_RAW ? DESERT_COMPRESSION_RAW : DESERT_COMPRESSION_ZLIB, out);
}

static uint64_t run_z_rt(void *p, size_t i) {
  cs *s = p;
  z_write(s, (unsigned)(i % K));
  size_t len;
  const uint8_t *d = desert_writer_data(s->w, &len);
  desert_bytes b = {NULL, 0};
  if (z_read(s, d, len, &b) || !b.len) return 0;
  return b.ptr[b.len - 1] + b.len + len;
}

/* Checks the block with libdeflate / zstd directly: var_u32 plain length,
 * var_u32 compressed length, then the stream of the flavour. */
static int z_check_wire(zkind kind, const uint8_t *d, size_t len, const uint8_t *want, char *msg,
                        size_t cap) {
  uint32_t vals[2] = {0, 0};
  size_t pos = 0;
  for (int f = 0; f < 2; f++) {
    unsigned shift = 0;
    for (;;) {
      if (pos >= len || shift > 28) return codec_fail(msg, cap, "compressed block: bad lengths");
      uint8_t b = d[pos++];
      vals[f] |= (uint32_t)(b & 0x7fu) << shift;
      shift += 7;
      if (!(b & 0x80u)) break;
    }
  }
  if (vals[0] != 4096 || pos + vals[1] != len)
    return codec_fail(msg, cap, "compressed block: lengths %u/%u for %zu bytes", vals[0], vals[1],
                      len);
  uint8_t out[4096];
  size_t got = 0;
  if (kind == Z_ZSTD) {
    got = ZSTD_decompress(out, sizeof out, d + pos, vals[1]);
    if (ZSTD_isError(got)) return codec_fail(msg, cap, "zstd: %s", ZSTD_getErrorName(got));
  } else {
    struct libdeflate_decompressor *z = libdeflate_alloc_decompressor();
    if (!z) return codec_fail(msg, cap, "no decompressor");
    enum libdeflate_result r =
        kind == Z_RAW ? libdeflate_deflate_decompress(z, d + pos, vals[1], out, sizeof out, &got)
                      : libdeflate_zlib_decompress(z, d + pos, vals[1], out, sizeof out, &got);
    libdeflate_free_decompressor(z);
    if (r != LIBDEFLATE_SUCCESS)
      return codec_fail(msg, cap, "%s stream does not inflate (%d)",
                        kind == Z_RAW ? "raw DEFLATE" : "zlib", (int)r);
  }
  if (got != 4096 || memcmp(out, want, 4096))
    return codec_fail(msg, cap, "compressed block inflates to other bytes");
  return 0;
}

static int verify_z(void *p, char *msg, size_t cap) {
  cs *s = p;
  zkind kind = (zkind) * (int *)s->extra;
  for (unsigned k = 0; k < K; k++) {
    z_write(s, k);
    if (desert_writer_status(s->w))
      return codec_fail(msg, cap, "compressed write failed: %s",
                        desert_status_name(desert_writer_status(s->w)));
    size_t len;
    const uint8_t *d = desert_writer_data(s->w, &len);
    if (z_check_wire(kind, d, len, s->src[k], msg, cap)) return 1;
    desert_bytes b = {NULL, 0};
    z_read(s, d, len, &b);
    if (check_reader_done("compressed block", s->r, len, k, msg, cap)) return 1;
    if (b.len != 4096 || memcmp(b.ptr, s->src[k], 4096))
      return codec_fail(msg, cap, "compressed variant %u: decoded bytes differ", k);
  }
  return 0;
}

/* ---- cases 19, 20: evolution --------------------------------------------------------
 * v0 writer: Member {id: i32, name: String}. v2: Member {id, name,
 * email: String (FieldAdded, default), age: i32 (FieldAdded, default)}. */

static const desert_field_desc m0_fields[] = {{"id", 0}, {"name", 0}};
static const desert_record_desc m0_desc = DESERT_RECORD_DESC_V0("Member", m0_fields);
static const desert_field_desc m2_fields[] = {{"id", 0}, {"name", 0}, {"email", 0}, {"age", 0}};
static const desert_evolution_step m2_steps[] = {{DESERT_STEP_FIELD_ADDED, "email", true},
                                                 {DESERT_STEP_FIELD_ADDED, "age", true}};
static const desert_record_desc m2_desc = DESERT_RECORD_DESC("Member", m2_fields, m2_steps);
static const char m2_default_email[] = "unknown@example.com";
enum { M2_DEFAULT_AGE = -1 };

typedef struct member {
  int32_t id;
  char name[16];
  size_t name_len;
  char email[32];
  size_t email_len;
  int32_t age;
} member;

typedef struct member_view {
  int32_t id;
  desert_str name, email;
  int32_t age;
  int defaults; /* fields that took their FieldAdded default */
} member_view;

static void member_variant(unsigned k, member *m) {
  memset(m, 0, sizeof *m);
  m->id = 7 + (int32_t)k;
  m->name_len = (size_t)snprintf(m->name, sizeof m->name, "Member %02u", k);
  m->email_len = (size_t)snprintf(m->email, sizeof m->email, "member%02u@example.com", k);
  m->age = 30 + (int32_t)k;
}

static desert_status member_write_v0(desert_writer *w, const member *m) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, &m0_desc, &rw)) return desert_writer_status(w);
  desert_record_write_field(&rw, 0);
  desert_write_i32(w, m->id);
  desert_record_write_field(&rw, 1);
  desert_write_string(w, m->name, m->name_len);
  return desert_record_write_end(&rw);
}

static desert_status member_write_v2(desert_writer *w, const member *m) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, &m2_desc, &rw)) return desert_writer_status(w);
  desert_record_write_field(&rw, 0);
  desert_write_i32(w, m->id);
  desert_record_write_field(&rw, 1);
  desert_write_string(w, m->name, m->name_len);
  desert_record_write_field(&rw, 2);
  desert_write_string(w, m->email, m->email_len);
  desert_record_write_field(&rw, 3);
  desert_write_i32(w, m->age);
  return desert_record_write_end(&rw);
}

static desert_status member_read_v2(desert_reader *r, member_view *v) {
  desert_record_reader rr;
  desert_field_action a = DESERT_FIELD_READ;
  v->defaults = 0;
  if (desert_record_read_begin(r, &m2_desc, &rr)) return desert_reader_status(r);
  if (!desert_record_read_field(&rr, 0, &a)) desert_read_i32(r, &v->id);
  if (!desert_record_read_field(&rr, 1, &a)) desert_read_string(r, &v->name);
  if (!desert_record_read_field(&rr, 2, &a)) {
    if (a == DESERT_FIELD_READ) {
      desert_read_string(r, &v->email);
    } else {
      v->email.ptr = m2_default_email;
      v->email.len = sizeof m2_default_email - 1;
      v->defaults++;
    }
  }
  if (!desert_record_read_field(&rr, 3, &a)) {
    if (a == DESERT_FIELD_READ) {
      desert_read_i32(r, &v->age);
    } else {
      v->age = M2_DEFAULT_AGE;
      v->defaults++;
    }
  }
  return desert_record_read_end(&rr);
}

static void *setup_member(desert_isa isa, int fresh, int v2, codec_info *info) {
  cs *s = cs_new(isa, 1, fresh, 0, info);
  if (!s) return NULL;
  for (unsigned k = 0; k < K; k++) {
    member *m = malloc(sizeof *m);
    uint8_t b[128];
    if (!m) goto fail;
    member_variant(k, m);
    s->src[k] = m;
    size_t n = 0;
    if (!v2) { /* docs/format.md §9.3 */
      b[n++] = 0x00;
      n += codec_put_be32(b + n, (uint32_t)m->id);
      n += codec_put_string(b + n, m->name, m->name_len);
    } else { /* docs/format.md §9.4: version 2, three chunk sizes, three chunks */
      uint8_t c0[32], c1[48], c2[8];
      size_t n0 = codec_put_be32(c0, (uint32_t)m->id);
      n0 += codec_put_string(c0 + n0, m->name, m->name_len);
      size_t n1 = codec_put_string(c1, m->email, m->email_len);
      size_t n2 = codec_put_be32(c2, (uint32_t)m->age);
      b[n++] = 0x02;
      n += codec_put_var_i32(b + n, (int32_t)n0);
      n += codec_put_var_i32(b + n, (int32_t)n1);
      n += codec_put_var_i32(b + n, (int32_t)n2);
      memcpy(b + n, c0, n0);
      n += n0;
      memcpy(b + n, c1, n1);
      n += n1;
      memcpy(b + n, c2, n2);
      n += n2;
    }
    if (cs_set_enc(s, k, b, n)) goto fail;
  }
  info->bytes_per_op = s->enc_len[0];
  return s;
fail:
  cs_free(s);
  return NULL;
}
static void *setup_member_old(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_member(isa, 0, 0, info);
}
static void *setup_member_v2_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_member(isa, 1, 1, info);
}
static void *setup_member_v2_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_member(isa, 0, 1, info);
}

static uint64_t member_sum(const member_view *v) {
  return (uint64_t)(uint32_t)v->id + v->name.len + v->email.len + (uint32_t)v->age;
}

static uint64_t run_member_old_de(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  member_view v;
  desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
  return member_read_v2(s->r, &v) ? 0 : member_sum(&v);
}

static int verify_member_old(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    const member *m = s->src[k];
    desert_writer_reset(s->w); /* the old writer's bytes equal the expected ones */
    member_write_v0(s->w, m);
    if (check_writer("v0 record", s->w, s, k, msg, cap)) return 1;
    member_view v;
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    member_read_v2(s->r, &v);
    if (check_reader_done("v0 record read as v2", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (v.id != m->id || v.name.len != m->name_len || memcmp(v.name.ptr, m->name, m->name_len) ||
        v.defaults != 2 || !str_is(v.email, m2_default_email) || v.age != M2_DEFAULT_AGE)
      return codec_fail(msg, cap, "v0 record variant %u: fields or defaults differ", k);
  }
  return 0;
}

static uint64_t run_member_v2_rt(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  member_write_v2(w, s->src[k]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  member_view v;
  desert_reader_begin(s->r, d, len);
  uint64_t r = member_read_v2(s->r, &v) ? 0 : member_sum(&v) + len;
  op_writer_done(s, w);
  return r;
}

static int verify_member_v2(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    const member *m = s->src[k];
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot create a writer");
    member_write_v2(w, m);
    int bad = check_writer("v2 record", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    member_view v;
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    member_read_v2(s->r, &v);
    if (check_reader_done("v2 record", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (v.id != m->id || v.defaults || v.age != m->age || v.name.len != m->name_len ||
        memcmp(v.name.ptr, m->name, m->name_len) || v.email.len != m->email_len ||
        memcmp(v.email.ptr, m->email, m->email_len))
      return codec_fail(msg, cap, "v2 record variant %u: fields differ", k);
  }
  return 0;
}

/* ---- cases 1-5, 8, 10, 13, 17 through caller storage + inline fast paths --------
 * The same values, bytes and checks as the rows above, written the way the
 * README recommends for one-shot C use. The "_heap" rows are the rows above. */

#define SETUP_AS(name, common, kind)                                         \
  static void *name(desert_isa isa, size_t n, codec_info *info) {            \
    (void)n;                                                                 \
    return common(isa, kind, info);                                          \
  }
SETUP_AS(setup_vari32, setup_vari32_common, CS_FRESH)
SETUP_AS(setup_i32_fresh_st, setup_i32_common, CS_FRESH | CS_STORAGE)
SETUP_AS(setup_i32_reused_st, setup_i32_common, CS_REUSED | CS_STORAGE)
SETUP_AS(setup_str_fresh_st, setup_str_common, CS_FRESH | CS_STORAGE)
SETUP_AS(setup_str_reused_st, setup_str_common, CS_REUSED | CS_STORAGE)
SETUP_AS(setup_vari32_st, setup_vari32_common, CS_FRESH | CS_STORAGE)
SETUP_AS(setup_opt_fresh_st, setup_opt, CS_FRESH | CS_STORAGE)
SETUP_AS(setup_opt_reused_st, setup_opt, CS_REUSED | CS_STORAGE)
static void *setup_rec8_fresh_st(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_rec8(isa, CS_FRESH | CS_STORAGE, 0, info);
}
static void *setup_rec8_reused_st(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_rec8(isa, CS_REUSED | CS_STORAGE, 0, info);
}
static void *setup_rec8_count_st(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return setup_rec8(isa, CS_REUSED | CS_STORAGE, 1, info);
}

/* One op's message for cases 1/17, 3, 5 and 13 (s->n tells 3 apart). */
typedef enum { ST_I32, ST_STR, ST_VARI32, ST_OPT } st_kind;

static void st_write(const cs *s, desert_writer *w, st_kind kind, unsigned k) {
  switch (kind) {
    case ST_I32:
      desert_write_i32_inline(w, s->i32[k]);
      break;
    case ST_STR:
      desert_write_string_inline(w, s->src[k], s->src_len[k]);
      break;
    case ST_VARI32:
      desert_write_var_i32_inline(w, s->i32[k]);
      break;
    case ST_OPT:
      desert_write_option_inline(w, true);
      desert_write_i32_inline(w, s->i32[k]);
      break;
  }
}

/* kind is a constant at every call, so each row's op inlines to its own
 * straight-line code. */
static inline uint64_t st_ser(cs *s, size_t i, st_kind kind, int fresh) {
  desert_writer *w = op_writer_st(s, fresh);
  if (!w) return 0;
  st_write(s, w, kind, (unsigned)(i % K));
  size_t len;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  if (fresh) desert_writer_free_inline(w);
  return r;
}
static uint64_t run_i32_ser_st(void *p, size_t i) { return st_ser(p, i, ST_I32, 1); }
static uint64_t run_i32_ser_st_reused(void *p, size_t i) { return st_ser(p, i, ST_I32, 0); }
static uint64_t run_str_ser_st(void *p, size_t i) { return st_ser(p, i, ST_STR, 1); }
static uint64_t run_str_ser_st_reused(void *p, size_t i) { return st_ser(p, i, ST_STR, 0); }
static uint64_t run_vari32_ser_st(void *p, size_t i) { return st_ser(p, i, ST_VARI32, 1); }

static int st_verify_ser(cs *s, st_kind kind, const char *what, char *msg, size_t cap) {
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot build a writer in storage");
    st_write(s, w, kind, k);
    int bad = check_writer(what, w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
  }
  return 0;
}
/* The literal checks of the heap rows' verify run first (same inputs). */
static int verify_i32_ser_st(void *p, char *msg, size_t cap) {
  static const uint8_t lit[] = {0x07, 0x5b, 0xcd, 0x15};
  cs *s = p;
  if (codec_check_bytes("case 1 literal", s->enc[0], s->enc_len[0], lit, 4, msg, cap)) return 1;
  return st_verify_ser(s, ST_I32, "i32 (storage, inline)", msg, cap);
}
static int verify_str_ser_st(void *p, char *msg, size_t cap) {
  cs *s = p;
  if (s->enc_len[0] != 44 || s->enc[0][0] != 0x56)
    return codec_fail(msg, cap, "case 3: expected 44 bytes starting 56");
  return st_verify_ser(s, ST_STR, "string (storage, inline)", msg, cap);
}
static int verify_vari32_st(void *p, char *msg, size_t cap) {
  static const uint8_t lit[] = {0xa9, 0xb4, 0xde, 0x75};
  cs *s = p;
  if (codec_check_bytes("case 5 literal", s->enc[0], s->enc_len[0], lit, 4, msg, cap)) return 1;
  return st_verify_ser(s, ST_VARI32, "var_i32 (storage, inline)", msg, cap);
}

static uint64_t run_i32_de_st(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  int32_t v = 0;
  desert_reader_begin_inline(s->r, s->enc[k], s->enc_len[k]);
  desert_read_i32_inline(s->r, &v);
  return (uint32_t)v;
}
static uint64_t run_str_de_st(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_str v = {NULL, 0};
  desert_reader_begin_inline(s->r, s->enc[k], s->enc_len[k]);
  desert_read_string_inline(s->r, &v);
  return v.len + (uint64_t)(uintptr_t)v.ptr;
}
static int verify_de_st(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    desert_reader_begin_inline(s->r, s->enc[k], s->enc_len[k]);
    if (s->n == 1) { /* i32 */
      int32_t v = 0;
      desert_read_i32_inline(s->r, &v);
      if (check_reader_done("i32 (inline)", s->r, s->enc_len[k], k, msg, cap)) return 1;
      if (v != s->i32[k]) return codec_fail(msg, cap, "i32 variant %u: got %d", k, v);
    } else {
      desert_str v = {NULL, 0};
      desert_read_string_inline(s->r, &v);
      if (check_reader_done("string (inline)", s->r, s->enc_len[k], k, msg, cap)) return 1;
      if (v.len != s->src_len[k] || memcmp(v.ptr, s->src[k], v.len) != 0)
        return codec_fail(msg, cap, "string variant %u: wrong text", k);
    }
  }
  return 0;
}

static inline uint64_t opt_rt_st(void *p, size_t i, int fresh) {
  cs *s = p;
  desert_writer *w = op_writer_st(s, fresh);
  if (!w) return 0;
  st_write(s, w, ST_OPT, (unsigned)(i % K));
  size_t len;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  bool some = false;
  int32_t v = 0;
  desert_reader_begin_inline(s->r, d, len);
  if (!desert_read_option_inline(s->r, &some) && some) desert_read_i32_inline(s->r, &v);
  if (fresh) desert_writer_free_inline(w);
  return (uint64_t)(uint32_t)v + some + len;
}
static uint64_t run_opt_rt_st(void *p, size_t i) { return opt_rt_st(p, i, 1); }
static uint64_t run_opt_rt_st_reused(void *p, size_t i) { return opt_rt_st(p, i, 0); }
static int verify_opt_st(void *p, char *msg, size_t cap) {
  static const uint8_t lit[] = {0x01, 0x00, 0x00, 0x00, 0x2a};
  cs *s = p;
  if (codec_check_bytes("case 13 literal", s->enc[0], s->enc_len[0], lit, 5, msg, cap)) return 1;
  if (st_verify_ser(s, ST_OPT, "option (storage, inline)", msg, cap)) return 1;
  for (unsigned k = 0; k < K; k++) {
    bool some = false;
    int32_t v = 0;
    desert_reader_begin_inline(s->r, s->enc[k], 5);
    desert_read_option_inline(s->r, &some);
    if (some) desert_read_i32_inline(s->r, &v);
    if (check_reader_done("option (inline)", s->r, 5, k, msg, cap)) return 1;
    if (!some || v != s->i32[k]) return codec_fail(msg, cap, "option variant %u differs", k);
  }
  return 0;
}

/* Case 8's record the way README recommends for C: its prepared plan and the
 * inline fast paths for its fields (the _heap rows keep the description-based
 * calls and the exported functions, the _plan rows the plan alone). */
static desert_status rec8_write_st(desert_writer *w, const rec8 *p) {
  desert_record_writer rw;
  if (desert_record_write_begin_plan(w, rec8_plan(), &rw)) return desert_writer_status(w);
  desert_record_write_field(&rw, 0);
  desert_write_i32_inline(w, p->id);
  desert_record_write_field(&rw, 1);
  desert_write_string_inline(w, p->name, p->name_len);
  desert_record_write_field(&rw, 2);
  desert_write_f64_inline(w, p->score);
  desert_record_write_field(&rw, 3);
  desert_write_bool_inline(w, p->active);
  desert_record_write_field(&rw, 4);
  desert_write_count_inline(w, 4);
  for (unsigned t = 0; t < 4; t++) desert_write_string_inline(w, p->tag[t], p->tag_len[t]);
  return desert_record_write_end(&rw);
}

static desert_status rec8_read_st(desert_reader *r, rec8_view *o) {
  desert_record_reader rr;
  desert_field_action a = DESERT_FIELD_READ;
  if (desert_record_read_begin_plan(r, rec8_plan(), &rr)) return desert_reader_status(r);
  if (!desert_record_read_field(&rr, 0, &a)) desert_read_i32_inline(r, &o->id);
  if (!desert_record_read_field(&rr, 1, &a)) desert_read_string_inline(r, &o->name);
  if (!desert_record_read_field(&rr, 2, &a)) desert_read_f64_inline(r, &o->score);
  if (!desert_record_read_field(&rr, 3, &a)) desert_read_bool_inline(r, &o->active);
  if (!desert_record_read_field(&rr, 4, &a)) {
    o->tags = NULL;
    o->ntags = 0;
    desert_seq seq;
    if (a == DESERT_FIELD_READ && !desert_read_seq_begin(r, &seq)) {
      if (!seq.known || seq.count > desert_reader_remaining(r))
        return desert_reader_fail(r, DESERT_E_DESERIALIZATION, seq.offset);
      o->tags = desert_reader_alloc(r, seq.count * sizeof *o->tags, 16);
      if (!o->tags) return desert_reader_status(r);
      for (size_t j = 0; j < seq.count; j++) desert_read_string_inline(r, &o->tags[j]);
      o->ntags = seq.count;
    }
  }
  return desert_record_read_end(&rr);
}

static uint64_t run_rec8_rt_st(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  rec8_write_st(w, s->src[k]);
  size_t len;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  rec8_view v;
  desert_reader_begin_inline(s->r, d, len);
  uint64_t r = rec8_read_st(s->r, &v) ? 0 : rec8_view_sum(&v) + len;
  op_writer_done(s, w);
  return r;
}
static uint64_t run_rec8_ser_st(void *p, size_t i) {
  cs *s = p;
  desert_writer *w = op_writer(s);
  if (!w) return 0;
  rec8_write_st(w, s->src[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data_inline(w, &len);
  uint64_t r = d ? (uint64_t)d[len - 1] + len : 0;
  op_writer_done(s, w);
  return r;
}
static uint64_t run_rec8_de_st(void *p, size_t i) {
  cs *s = p;
  unsigned k = (unsigned)(i % K);
  rec8_view v;
  desert_reader_begin_inline(s->r, s->enc[k], s->enc_len[k]);
  return rec8_read_st(s->r, &v) ? 0 : rec8_view_sum(&v);
}
static uint64_t run_rec8_size_st(void *p, size_t i) {
  cs *s = p;
  desert_writer_reset_inline(s->w); /* stays in size-only mode */
  rec8_write_st(s->w, s->src[i % K]);
  return desert_writer_size(s->w);
}
static int verify_rec8_st(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    desert_writer *w = op_writer(s);
    if (!w) return codec_fail(msg, cap, "cannot build a writer in storage");
    rec8_write_st(w, s->src[k]);
    int bad = check_writer("record (storage, inline)", w, s, k, msg, cap);
    op_writer_done(s, w);
    if (bad) return 1;
    rec8_view v;
    desert_reader_begin_inline(s->r, s->enc[k], s->enc_len[k]);
    rec8_read_st(s->r, &v);
    if (check_reader_done("record (inline)", s->r, s->enc_len[k], k, msg, cap)) return 1;
    if (rec8_check_view(&v, s->src[k], k, msg, cap)) return 1;
  }
  /* the heap rows' checks too: the literal bytes */
  return verify_rec8(p, msg, cap);
}
static int verify_rec8_size_st(void *p, char *msg, size_t cap) {
  cs *s = p;
  for (unsigned k = 0; k < K; k++) {
    uint64_t n = run_rec8_size_st(s, k);
    if (desert_writer_status(s->w) || n != 54 || n != s->enc_len[k])
      return codec_fail(msg, cap, "size-only (storage) variant %u: %llu bytes, expected 54", k,
                        (unsigned long long)n);
  }
  return 0;
}

/* ---- the table ----------------------------------------------------------------------- */

#define PI CODEC_PER_ISA
#define PF CODEC_FAULTS
#define HL CODEC_HEADLINE

// clang-format off
CODEC_BATCH(run_empty)
CODEC_BATCH(run_i32_ser_st)
CODEC_BATCH(run_i32_ser_st_reused)
CODEC_BATCH(run_i32_ser)
CODEC_BATCH(run_i32_de_st)
CODEC_BATCH(run_i32_de)
CODEC_BATCH(run_str_ser_st)
CODEC_BATCH(run_str_ser_st_reused)
CODEC_BATCH(run_str_ser)
CODEC_BATCH(run_str_de_st)
CODEC_BATCH(run_str_de)
CODEC_BATCH(run_vari32_ser_st)
CODEC_BATCH(run_vari32_ser)
CODEC_BATCH(run_i32arr_rt)
CODEC_BATCH(run_memcpy)
CODEC_BATCH(run_i32arr_ser)
CODEC_BATCH(run_i32arr_de)
CODEC_BATCH(run_bytes_rt)
CODEC_BATCH(run_bytes_ser)
CODEC_BATCH(run_bytes_de)
CODEC_BATCH(run_rec8_rt_st)
CODEC_BATCH(run_rec8_rt)
CODEC_BATCH(run_rec8_ser_st)
CODEC_BATCH(run_rec8_ser)
CODEC_BATCH(run_rec8_de_st)
CODEC_BATCH(run_rec8_de)
CODEC_BATCH(run_rec8_rt_plan)
CODEC_BATCH(run_rec8_ser_plan)
CODEC_BATCH(run_rec8_de_plan)
CODEC_BATCH(run_dedup_ser)
CODEC_BATCH(run_dedup_de)
CODEC_BATCH(run_rec8_size_st)
CODEC_BATCH(run_rec8_size)
CODEC_BATCH(run_rec8_size_plan)
CODEC_BATCH(run_str100_rt)
CODEC_BATCH(run_map100_rt)
CODEC_BATCH(run_opt_rt_st)
CODEC_BATCH(run_opt_rt_st_reused)
CODEC_BATCH(run_opt_rt)
CODEC_BATCH(run_map100_rt_plan)
CODEC_BATCH(run_golden_decode)
CODEC_BATCH(run_golden_encode)
CODEC_BATCH(run_golden_decode_plan)
CODEC_BATCH(run_golden_encode_plan)
CODEC_BATCH(run_z_rt)
CODEC_BATCH(run_member_old_de)
CODEC_BATCH(run_member_v2_rt)

const codec_case bench_desert_cases[] = {
    {"c00_empty_op", "harness", "empty op: the harness floor", 0, HL, 0, 0, setup_empty,
     verify_ok, run_empty, free, run_empty_batch},
    {"c01_i32_ser", "desert", "serialize i32 to a fresh buffer (writer in caller storage, options NULL, inline init/write/free)",
     1, HL, 8.4, 0, setup_i32_fresh_st, verify_i32_ser_st, run_i32_ser_st, cs_free, run_i32_ser_st_batch},
    {"c01_i32_ser_heap", "desert", "serialize i32 to a fresh buffer (writer create/free per op) (heap contexts, exported functions)",
     1, 0, 8.4, 0, setup_i32_fresh, verify_i32_ser, run_i32_ser, cs_free, run_i32_ser_batch},
    {"c02_i32_de", "desert", "deserialize i32 (4 B), reader in caller storage, inline read",
     2, HL, 0.4, 0, setup_i32_reused_st, verify_de_st, run_i32_de_st, cs_free, run_i32_de_st_batch},
    {"c02_i32_de_heap", "desert", "deserialize i32 (4 B) (heap contexts, exported functions)",
     2, 0, 0.4, 0, setup_i32_reused, verify_i32_de, run_i32_de, cs_free, run_i32_de_batch},
    {"c03_str_ser", "desert", "serialize 43-char string to a fresh buffer (caller storage, options NULL, inline init/write/free)",
     3, HL, 22.8, 0, setup_str_fresh_st, verify_str_ser_st, run_str_ser_st, cs_free, run_str_ser_st_batch},
    {"c03_str_ser_heap", "desert", "serialize 43-char string to a fresh buffer (heap contexts, exported functions)",
     3, 0, 22.8, 0, setup_str_fresh, verify_str_ser, run_str_ser, cs_free, run_str_ser_batch},
    {"c03_str_ser_reused", "desert", "serialize 43-char string, reused writer in caller storage, inline",
     3, 0, 22.8, 0, setup_str_reused_st, verify_str_ser_st, run_str_ser_st_reused, cs_free, run_str_ser_st_reused_batch},
    {"c03_str_ser_reused_heap", "desert", "serialize 43-char string, reused writer (heap contexts, exported functions)",
     3, 0, 22.8, 0, setup_str_reused, verify_str_ser, run_str_ser, cs_free, run_str_ser_batch},
    {"c04_str_de", "desert", "deserialize 44-byte string (zero-copy view), caller storage, inline",
     4, HL, 20.9, 0, setup_str_reused_st, verify_de_st, run_str_de_st, cs_free, run_str_de_st_batch},
    {"c04_str_de_heap", "desert", "deserialize 44-byte string (zero-copy view) (heap contexts, exported functions)",
     4, 0, 20.9, 0, setup_str_reused, verify_str_de, run_str_de, cs_free, run_str_de_batch},
    {"c05_vari32_ser", "desert", "write var_i32 to a fresh buffer (caller storage, options NULL, inline init/write/free)",
     5, HL, 13.5, 0, setup_vari32_st, verify_vari32_st, run_vari32_ser_st, cs_free, run_vari32_ser_st_batch},
    {"c05_vari32_ser_heap", "desert", "write var_i32 to a fresh buffer (heap contexts, exported functions)",
     5, 0, 13.5, 0, setup_vari32, verify_vari32, run_vari32_ser, cs_free, run_vari32_ser_batch},
    {"c06_i32x1000_rt", "desert", "roundtrip i32 x1000 (4,002 B), fresh writer", 6, HL | PI | PF,
     1315, 1000, setup_i32arr_rt, verify_i32arr, run_i32arr_rt, cs_free, run_i32arr_rt_batch},
    {"c06_i32x1000_rt", "memcpy", "memcpy of 4,002 B", 6, 0, 0, 4002, setup_memcpy,
     verify_memcpy, run_memcpy, cs_free, run_memcpy_batch},
    {"c06_i32x1000_rt_reused", "desert", "roundtrip i32 x1000, reused writer", 6, PI | PF, 1315,
     1000, setup_i32arr_rt_reused, verify_i32arr, run_i32arr_rt, cs_free, run_i32arr_rt_batch},
    {"c06_i32x1000_ser", "desert", "serialize i32 x1000, reused writer", 6, PI, 0, 1000,
     setup_i32arr_ser, verify_i32arr, run_i32arr_ser, cs_free, run_i32arr_ser_batch},
    {"c06_i32x1000_de", "desert", "deserialize i32 x1000 into arena memory", 6, PI, 0, 1000,
     setup_i32arr_de, verify_i32arr, run_i32arr_de, cs_free, run_i32arr_de_batch},
    {"c07_bytes4k_rt", "desert", "roundtrip byte block 4096 B (4,098 B), fresh writer", 7,
     HL | PI | PF, 160, 4096, setup_bytes_rt, verify_bytes, run_bytes_rt, cs_free, run_bytes_rt_batch},
    {"c07_bytes4k_rt", "memcpy", "memcpy of 4,098 B", 7, 0, 0, 4098, setup_memcpy,
     verify_memcpy, run_memcpy, cs_free, run_memcpy_batch},
    {"c07_bytes4k_rt_reused", "desert", "roundtrip byte block 4096 B, reused writer", 7, PI | PF,
     160, 4096, setup_bytes_rt_reused, verify_bytes, run_bytes_rt, cs_free, run_bytes_rt_batch},
    {"c07_bytes4k_ser", "desert", "serialize byte block 4096 B, reused writer", 7, PI, 0, 4096,
     setup_bytes_ser, verify_bytes, run_bytes_ser, cs_free, run_bytes_ser_batch},
    {"c07_bytes4k_de", "desert", "deserialize byte block 4096 B (zero-copy view)", 7, PI, 0, 4096,
     setup_bytes_de, verify_bytes, run_bytes_de, cs_free, run_bytes_de_batch},
    {"c08_record_rt", "desert", "roundtrip evolved record (54 B), fresh writer in caller storage, plan, inline fields",
     8, HL, 429, 0, setup_rec8_fresh_st, verify_rec8_st, run_rec8_rt_st, cs_free, run_rec8_rt_st_batch},
    {"c08_record_rt_heap", "desert", "roundtrip evolved record (54 B), fresh writer (heap contexts, exported functions)",
     8, 0, 429, 0, setup_rec8_fresh, verify_rec8, run_rec8_rt, cs_free, run_rec8_rt_batch},
    {"c08_record_rt_reused", "desert", "roundtrip evolved record, reused writer in caller storage, plan, inline fields",
     8, 0, 429, 0, setup_rec8_reused_st, verify_rec8_st, run_rec8_rt_st, cs_free, run_rec8_rt_st_batch},
    {"c08_record_rt_reused_heap", "desert", "roundtrip evolved record, reused writer (heap contexts, exported functions)",
     8, 0, 429, 0, setup_rec8_reused, verify_rec8, run_rec8_rt, cs_free, run_rec8_rt_batch},
    {"c08_record_ser", "desert", "serialize evolved record, fresh writer in caller storage, plan, inline fields",
     8, 0, 0, 0, setup_rec8_fresh_st, verify_rec8_st, run_rec8_ser_st, cs_free, run_rec8_ser_st_batch},
    {"c08_record_ser_heap", "desert", "serialize evolved record, fresh writer (heap contexts, exported functions)",
     8, 0, 0, 0, setup_rec8_fresh, verify_rec8, run_rec8_ser, cs_free, run_rec8_ser_batch},
    {"c08_record_ser_reused", "desert", "serialize evolved record, reused writer in caller storage, plan, inline fields",
     8, 0, 0, 0, setup_rec8_reused_st, verify_rec8_st, run_rec8_ser_st, cs_free, run_rec8_ser_st_batch},
    {"c08_record_ser_reused_heap", "desert", "serialize evolved record, reused writer (heap contexts, exported functions)",
     8, 0, 0, 0, setup_rec8_reused, verify_rec8, run_rec8_ser, cs_free, run_rec8_ser_batch},
    {"c08_record_de", "desert", "deserialize evolved record, reader in caller storage, plan, inline fields",
     8, 0, 0, 0, setup_rec8_reused_st, verify_rec8_st, run_rec8_de_st, cs_free, run_rec8_de_st_batch},
    {"c08_record_de_heap", "desert", "deserialize evolved record (heap contexts, exported functions)",
     8, 0, 0, 0, setup_rec8_reused, verify_rec8, run_rec8_de, cs_free, run_rec8_de_batch},
    {"c08_record_rt_plan", "desert", "roundtrip evolved record, fresh writer, prepared plan", 8,
     0, 429, 0, setup_rec8_fresh, verify_rec8, run_rec8_rt_plan, cs_free, run_rec8_rt_plan_batch},
    {"c08_record_ser_reused_plan", "desert", "serialize evolved record, reused writer, prepared plan",
     8, 0, 0, 0, setup_rec8_reused, verify_rec8, run_rec8_ser_plan, cs_free, run_rec8_ser_plan_batch},
    {"c08_record_de_plan", "desert", "deserialize evolved record, prepared plan", 8, 0, 0, 0,
     setup_rec8_reused, verify_rec8, run_rec8_de_plan, cs_free, run_rec8_de_plan_batch},
    {"c09_dedup100_ser", "desert", "serialize DeduplicatedString x100 (130 B), fresh writer", 9,
     HL, 3005, 0, setup_dedup_fresh, verify_dedup, run_dedup_ser, cs_free, run_dedup_ser_batch},
    {"c09_dedup100_ser_reused", "desert", "serialize DeduplicatedString x100, reused writer", 9,
     0, 3005, 0, setup_dedup_reused, verify_dedup, run_dedup_ser, cs_free, run_dedup_ser_batch},
    {"c09_dedup100_de", "desert", "deserialize DeduplicatedString x100", 9, HL, 3389, 0,
     setup_dedup_reused, verify_dedup, run_dedup_de, cs_free, run_dedup_de_batch},
    {"c10_record_size", "desert", "serialized size of case 8's record (size-only writer in caller storage, plan, inline: counted in place)",
     10, HL, 161, 0, setup_rec8_count_st, verify_rec8_size_st, run_rec8_size_st, cs_free, run_rec8_size_st_batch},
    {"c10_record_size_heap", "desert", "serialized size of case 8's record (size-only writer) (heap contexts, exported functions)",
     10, 0, 161, 0, setup_rec8_count, verify_rec8_size, run_rec8_size, cs_free, run_rec8_size_batch},
    {"c10_record_size_plan", "desert", "serialized size of case 8's record, prepared plan", 10, 0,
     161, 0, setup_rec8_count, verify_rec8_size, run_rec8_size_plan, cs_free, run_rec8_size_plan_batch},
    {"c11_str100_rt", "desert", "roundtrip strings item0..item99 (692 B), fresh writer", 11,
     HL | PI, 3518, 0, setup_str100_fresh, verify_str100, run_str100_rt, cs_free, run_str100_rt_batch},
    {"c11_str100_rt_reused", "desert", "roundtrip strings x100, reused writer", 11, PI, 3518, 0,
     setup_str100_reused, verify_str100, run_str100_rt, cs_free, run_str100_rt_batch},
    {"c12_map100_rt", "desert", "roundtrip map String->i32 x100 (1,092 B), fresh writer", 12, HL,
     7518, 0, setup_map100_fresh, verify_map100, run_map100_rt, cs_free, run_map100_rt_batch},
    {"c12_map100_rt_reused", "desert", "roundtrip map String->i32 x100, reused writer", 12, 0,
     7518, 0, setup_map100_reused, verify_map100, run_map100_rt, cs_free, run_map100_rt_batch},
    {"c13_opt_i32_rt", "desert", "roundtrip Option<i32> Some(42) (5 B), fresh writer in caller storage (options NULL), inline init/free and values",
     13, HL, 13.3, 0, setup_opt_fresh_st, verify_opt_st, run_opt_rt_st, cs_free, run_opt_rt_st_batch},
    {"c13_opt_i32_rt_heap", "desert", "roundtrip Option<i32> Some(42) (5 B), fresh writer (heap contexts, exported functions)",
     13, 0, 13.3, 0, setup_opt_fresh, verify_opt, run_opt_rt, cs_free, run_opt_rt_batch},
    {"c13_opt_i32_rt_reused", "desert", "roundtrip Option<i32>, reused writer in caller storage, inline",
     13, 0, 13.3, 0, setup_opt_reused_st, verify_opt_st, run_opt_rt_st_reused, cs_free, run_opt_rt_st_reused_batch},
    {"c13_opt_i32_rt_reused_heap", "desert", "roundtrip Option<i32>, reused writer (heap contexts, exported functions)",
     13, 0, 13.3, 0, setup_opt_reused, verify_opt, run_opt_rt, cs_free, run_opt_rt_batch},
    {"c12_map100_rt_reused_plan", "desert", "roundtrip map x100, reused writer, tuple plan", 12, 0,
     7518, 0, setup_map100_reused, verify_map100, run_map100_rt_plan, cs_free, run_map100_rt_plan_batch},
    {"c14_i32x10000_rt", "desert", "roundtrip i32 x10000 (40,003 B), fresh writer", 14,
     HL | PI | PF, 12222, 10000, setup_i32arr_rt, verify_i32arr, run_i32arr_rt, cs_free, run_i32arr_rt_batch},
    {"c14_i32x10000_rt", "memcpy", "memcpy of 40,003 B", 14, 0, 0, 40003, setup_memcpy,
     verify_memcpy, run_memcpy, cs_free, run_memcpy_batch},
    {"c14_i32x10000_rt_reused", "desert", "roundtrip i32 x10000, reused writer", 14, PI | PF,
     12222, 10000, setup_i32arr_rt_reused, verify_i32arr, run_i32arr_rt, cs_free, run_i32arr_rt_batch},
    {"c14_i32x10000_ser", "desert", "serialize i32 x10000, reused writer", 14, PI, 0, 10000,
     setup_i32arr_ser, verify_i32arr, run_i32arr_ser, cs_free, run_i32arr_ser_batch},
    {"c14_i32x10000_de", "desert", "deserialize i32 x10000 into arena memory", 14, PI, 0, 10000,
     setup_i32arr_de, verify_i32arr, run_i32arr_de, cs_free, run_i32arr_de_batch},
    {"c15_bytes64k_rt", "desert", "roundtrip byte block 64 KiB (65,539 B), fresh writer", 15,
     HL | PI | PF, 1578, 65536, setup_bytes_rt, verify_bytes, run_bytes_rt, cs_free, run_bytes_rt_batch},
    {"c15_bytes64k_rt", "memcpy", "memcpy of 65,539 B", 15, 0, 0, 65539, setup_memcpy,
     verify_memcpy, run_memcpy, cs_free, run_memcpy_batch},
    {"c15_bytes64k_rt_reused", "desert", "roundtrip byte block 64 KiB, reused writer", 15,
     PI | PF, 1578, 65536, setup_bytes_rt_reused, verify_bytes, run_bytes_rt, cs_free, run_bytes_rt_batch},
    {"c15_bytes64k_ser", "desert", "serialize byte block 64 KiB, reused writer", 15, PI, 0, 65536,
     setup_bytes_ser, verify_bytes, run_bytes_ser, cs_free, run_bytes_ser_batch},
    {"c15_bytes64k_de", "desert", "deserialize byte block 64 KiB (zero-copy view)", 15, PI, 0,
     65536, setup_bytes_de, verify_bytes, run_bytes_de, cs_free, run_bytes_de_batch},
    {"c16_golden_decode", "desert", "decode dataset1.bin (242,540 B) into the golden C model", 16,
     HL | PI | PF, 22392, 0, setup_golden_reused, verify_golden, run_golden_decode, golden_free, run_golden_decode_batch},
    {"c16_golden_encode", "desert",
     "encode the golden model (modern form, 242,534 B), fresh writer in caller storage, prepared plans",
     16, HL | PI | PF, 28633, 0, setup_golden_fresh_plan, verify_golden_plan, run_golden_encode_plan,
     golden_free, run_golden_encode_plan_batch},
    {"c16_golden_encode_heap", "desert",
     "encode the golden model, fresh heap writer per op, description-based calls", 16, PI | PF, 28633,
     0, setup_golden_fresh, verify_golden, run_golden_encode, golden_free, run_golden_encode_batch},
    {"c16_golden_encode_reused", "desert", "encode the golden model, reused writer", 16, PI | PF,
     28633, 0, setup_golden_reused, verify_golden, run_golden_encode, golden_free, run_golden_encode_batch},
    {"c16_golden_decode_plan", "desert", "decode dataset1.bin, prepared plans", 16, PI | PF, 22392,
     0, setup_golden_plan, verify_golden_plan, run_golden_decode_plan, golden_free, run_golden_decode_plan_batch},
    {"c16_golden_encode_reused_plan", "desert", "encode the golden model, reused writer, prepared plans",
     16, PI | PF, 28633, 0, setup_golden_plan, verify_golden_plan, run_golden_encode_plan,
     golden_free, run_golden_encode_plan_batch},
    {"c16_golden_decode_hot", "desert", "decode dataset1.bin, one input every op (warm caches)",
     16, PI, 22392, 0, setup_golden_hot, verify_golden, run_golden_decode, golden_free, run_golden_decode_batch},
    {"c16_golden_encode_hot", "desert", "encode the golden model, one model every op, reused writer",
     
     16, PI, 28633, 0, setup_golden_hot, verify_golden, run_golden_encode, golden_free, run_golden_encode_batch},
    {"c17_i32_ser_reused", "desert", "serialize i32 into a reused buffer (writer in caller storage, inline)",
     17, HL, 2.8, 0, setup_i32_reused_st, verify_i32_ser_st, run_i32_ser_st_reused, cs_free, run_i32_ser_st_reused_batch},
    {"c17_i32_ser_reused_heap", "desert", "serialize i32 into a reused buffer (heap contexts, exported functions)",
     17, 0, 2.8, 0, setup_i32_reused, verify_i32_ser, run_i32_ser, cs_free, run_i32_ser_batch},
    {"c18_deflate4k_rt", "desert", "roundtrip compressed block 4096 B, raw DEFLATE (desert-rust), reused writer",
     
     18, HL, 0, 0, setup_z_raw, verify_z, run_z_rt, cs_free, run_z_rt_batch},
    {"c18_zlib4k_rt", "desert", "roundtrip compressed block 4096 B, zlib flavour (desert-scala), reused writer",
     
     18, 0, 0, 0, setup_z_zlib, verify_z, run_z_rt, cs_free, run_z_rt_batch},
    {"c18_zstd4k_rt", "desert", "roundtrip compressed block 4096 B, zstd (libdesert extension), reused writer",
     
     18, 0, 0, 0, setup_z_zstd, verify_z, run_z_rt, cs_free, run_z_rt_batch},
    {"c19_old_defaults_de", "desert", "deserialize v0 data with a v2 reader (two FieldAdded defaults)",
     
     19, HL, 0, 0, setup_member_old, verify_member_old, run_member_old_de, cs_free, run_member_old_de_batch},
    {"c20_multichunk_rt", "desert", "roundtrip version-2 record with two FieldAdded chunks, fresh writer",
     
     20, HL, 0, 0, setup_member_v2_fresh, verify_member_v2, run_member_v2_rt, cs_free, run_member_v2_rt_batch},
    {"c20_multichunk_rt_reused", "desert", "roundtrip version-2 record, reused writer", 20, 0, 0, 0,
     setup_member_v2_reused, verify_member_v2, run_member_v2_rt, cs_free, run_member_v2_rt_batch},
};
// clang-format on
const size_t bench_desert_case_count = sizeof bench_desert_cases / sizeof bench_desert_cases[0];
