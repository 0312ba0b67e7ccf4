/* bench/bench_workloads.c — the workloads from other codecs' suites through the
 * public API:
 *   wide records   a version-0 record of 16 or 256 fields cycling through
 *                  i64, a 16-byte fixed binary block (written raw), bool
 *                  and a 3-element list of i64; encode (reused writer) and
 *                  decode (into the application struct);
 *   term dictionary N = 100, 500, 1000, 5000 terms, each a version-0 record
 *                  {term: String, doc_freq: var_i32, postings: Vec<var_u32>};
 *                  serialize (reused writer) and deserialize (views and
 *                  arena arrays); throughput in terms/s.
 * The *_stream rows run the same workloads through a streaming writer
 * (a sink copying into memory) and a streaming reader (a source copying
 * from memory) with a 16 KiB window; the term dictionary is then read one
 * term at a time, marking after each (issue 15).
 * Inputs rotate over CODEC_K variants; expected bytes come from the
 * independent encoders of bench_codec_util.c.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_values.h"
#include "desert.h"

#define K CODEC_K

/* ---- streaming I/O over memory (the *_stream rows) ------------------------------ */

#define BS_WINDOW ((size_t)16 << 10)

typedef struct bsio {
  uint8_t *out; /* sink target */
  size_t out_len, out_cap;
  const uint8_t *in; /* source */
  size_t in_len, in_pos;
} bsio;

static void bsio_free(bsio *io) {
  if (!io) return;
  free(io->out);
  free(io);
}

static bsio *bsio_new(size_t out_cap) {
  bsio *io = calloc(1, sizeof *io);
  if (!io) return NULL;
  io->out = malloc(out_cap);
  io->out_cap = out_cap;
  if (!io->out) {
    free(io);
    return NULL;
  }
  return io;
}

static int bs_write(void *ctx, const void *buf, size_t n) {
  bsio *io = ctx;
  if (n > io->out_cap - io->out_len) return -1;
  memcpy(io->out + io->out_len, buf, n);
  io->out_len += n;
  return 0;
}

static ptrdiff_t bs_read(void *ctx, void *buf, size_t cap) {
  bsio *io = ctx;
  size_t n = io->in_len - io->in_pos < cap ? io->in_len - io->in_pos : cap;
  memcpy(buf, io->in + io->in_pos, n);
  io->in_pos += n;
  return (ptrdiff_t)n;
}

/* Warm writers and readers keep their buffers: these allocate nothing. */
static desert_status bs_begin_write(desert_writer *w, bsio *io) {
  io->out_len = 0;
  desert_sink k = {bs_write, io};
  return desert_writer_begin_stream(w, k, BS_WINDOW);
}

static desert_status bs_begin_read(desert_reader *r, bsio *io, const uint8_t *in, size_t n) {
  io->in = in;
  io->in_len = n;
  io->in_pos = 0;
  desert_source src = {bs_read, io};
  return desert_reader_begin_stream(r, src, BS_WINDOW);
}

/* ---- wide records ---------------------------------------------------------------- */

static char wide_names[BV_WIDE_MAX][8];
static desert_field_desc wide_fields[BV_WIDE_MAX];

static const desert_field_desc *wide_field_table(void) {
  if (!wide_fields[0].name) { /* single-threaded benchmark: built once */
    for (unsigned i = 0; i < BV_WIDE_MAX; i++) {
      snprintf(wide_names[i], sizeof wide_names[i], "f%u", i);
      wide_fields[i].name = wide_names[i];
      wide_fields[i].flags = 0;
    }
  }
  return wide_fields;
}

typedef struct wstate {
  desert_writer *w;
  desert_reader *r;
  desert_record_desc desc;
  size_t fields;
  bv_wide *src[K];
  uint8_t *enc[K];
  size_t enc_len[K];
  bv_wide out; /* decode target */
  struct bsio *io; /* streaming rows only */
} wstate;

static void wstate_free(void *p) {
  wstate *s = p;
  if (!s) return;
  desert_writer_free(s->w);
  desert_reader_free(s->r);
  bsio_free(s->io);
  for (unsigned k = 0; k < K; k++) {
    free(s->src[k]);
    free(s->enc[k]);
  }
  free(s);
}

static size_t wide_expected(const bv_wide *v, uint8_t *b) {
  size_t n = 0;
  b[n++] = 0x00; /* version 0: the fields follow, nothing else (docs/format.md §9.3) */
  for (size_t i = 0; i < v->fields; i++) {
    size_t slot = i / 4;
    switch (i % 4) {
    case 0:
      n += codec_put_be64(b + n, (uint64_t)v->i64[slot]);
      break;
    case 1:
      memcpy(b + n, v->bin[slot], 16);
      n += 16;
      break;
    case 2:
      b[n++] = v->b[slot] ? 1 : 0;
      break;
    default:
      n += codec_put_var_i32(b + n, 3);
      for (int j = 0; j < 3; j++) n += codec_put_be64(b + n, (uint64_t)v->list[slot][j]);
    }
  }
  return n;
}

static desert_status wide_write(desert_writer *w, const desert_record_desc *d, const bv_wide *v) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, d, &rw)) return desert_writer_status(w);
  for (size_t i = 0; i < v->fields; i++) {
    size_t slot = i / 4;
    desert_record_write_field(&rw, i);
    switch (i % 4) {
    case 0:
      desert_write_i64(w, v->i64[slot]);
      break;
    case 1:
      desert_write_raw(w, v->bin[slot], 16);
      break;
    case 2:
      desert_write_bool(w, v->b[slot]);
      break;
    default:
      desert_write_count(w, 3);
      desert_write_i64_array(w, v->list[slot], 3);
    }
  }
  return desert_record_write_end(&rw);
}

static desert_status wide_read(desert_reader *r, const desert_record_desc *d, bv_wide *v) {
  desert_record_reader rr;
  if (desert_record_read_begin(r, d, &rr)) return desert_reader_status(r);
  v->fields = d->field_count;
  for (size_t i = 0; i < d->field_count; i++) {
    size_t slot = i / 4;
    desert_field_action a;
    if (desert_record_read_field(&rr, i, &a)) break;
    switch (i % 4) {
    case 0:
      desert_read_i64(r, &v->i64[slot]);
      break;
    case 1: {
      const uint8_t *p;
      if (!desert_read_raw(r, 16, &p)) memcpy(v->bin[slot], p, 16);
      break;
    }
    case 2:
      desert_read_bool(r, &v->b[slot]);
      break;
    default: {
      desert_seq seq;
      if (desert_read_seq_begin(r, &seq)) break;
      if (!seq.known || seq.count != 3) {
        desert_reader_fail(r, DESERT_E_INVALID_VALUE, seq.offset);
        break;
      }
      desert_read_i64_array(r, v->list[slot], 3);
    }
    }
  }
  return desert_record_read_end(&rr);
}

static void *setup_wide(desert_isa isa, size_t fields, codec_info *info) {
  wstate *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  desert_options o;
  codec_options(&o, isa, 0);
  if (desert_writer_create(&o, &s->w) || desert_reader_create(&o, &s->r)) goto fail;
  s->fields = fields;
  s->desc.name = fields == 16 ? "Wide16" : "Wide256";
  s->desc.fields = wide_field_table();
  s->desc.field_count = fields;
  if (desert_record_desc_check(&s->desc)) goto fail;
  for (unsigned k = 0; k < K; k++) {
    s->src[k] = malloc(sizeof(bv_wide));
    s->enc[k] = malloc(1 + fields * 25 + 64);
    if (!s->src[k] || !s->enc[k]) goto fail;
    bv_wide_make(k, fields, s->src[k]);
    s->enc_len[k] = wide_expected(s->src[k], s->enc[k]);
  }
  info->bytes_per_op = s->enc_len[0];
  info->items_per_op = fields;
  return s;
fail:
  wstate_free(s);
  return NULL;
}

static uint64_t run_wide_enc(void *p, size_t i) {
  wstate *s = p;
  desert_writer_reset(s->w);
  wide_write(s->w, &s->desc, s->src[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(s->w, &len);
  return d ? (uint64_t)d[len - 1] + len : 0;
}

static uint64_t run_wide_dec(void *p, size_t i) {
  wstate *s = p;
  unsigned k = (unsigned)(i % K);
  desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
  if (wide_read(s->r, &s->desc, &s->out)) return 0;
  return (uint64_t)s->out.i64[0] + (uint64_t)s->out.list[s->fields / 4 - 1][2];
}

static int wide_equal(const bv_wide *a, const bv_wide *b) {
  for (size_t i = 0; i < a->fields; i++) {
    size_t slot = i / 4;
    switch (i % 4) {
    case 0:
      if (a->i64[slot] != b->i64[slot]) return 0;
      break;
    case 1:
      if (memcmp(a->bin[slot], b->bin[slot], 16)) return 0;
      break;
    case 2:
      if (a->b[slot] != b->b[slot]) return 0;
      break;
    default:
      if (memcmp(a->list[slot], b->list[slot], sizeof a->list[slot])) return 0;
    }
  }
  return a->fields == b->fields;
}

static int verify_wide(void *p, char *msg, size_t cap) {
  wstate *s = p;
  size_t want = 1 + s->fields / 4 * (8 + 16 + 1 + 25);
  if (s->enc_len[0] != want)
    return codec_fail(msg, cap, "wide %zu: %zu bytes, expected %zu", s->fields, s->enc_len[0],
                      want);
  for (unsigned k = 0; k < K; k++) {
    desert_writer_reset(s->w);
    wide_write(s->w, &s->desc, s->src[k]);
    if (desert_writer_status(s->w))
      return codec_fail(msg, cap, "wide: write failed: %s",
                        desert_status_name(desert_writer_status(s->w)));
    size_t len;
    const uint8_t *d = desert_writer_data(s->w, &len);
    if (codec_check_bytes("wide record", d, len, s->enc[k], s->enc_len[k], msg, cap)) return 1;
    memset(&s->out, 0, sizeof s->out);
    desert_reader_begin(s->r, s->enc[k], s->enc_len[k]);
    if (wide_read(s->r, &s->desc, &s->out) || desert_reader_offset(s->r) != s->enc_len[k])
      return codec_fail(msg, cap, "wide variant %u: decode failed: %s", k,
                        desert_status_name(desert_reader_status(s->r)));
    if (!wide_equal(&s->out, s->src[k])) return codec_fail(msg, cap, "wide variant %u differs", k);
  }
  return 0;
}

/* ---- term dictionary ---------------------------------------------------------------- */

static const desert_field_desc term_fields[] = {{"term", 0}, {"doc_freq", 0}, {"postings", 0}};
static const desert_record_desc term_desc = DESERT_RECORD_DESC_V0("Term", term_fields);

typedef struct term_view {
  desert_str term;
  int32_t doc_freq;
  uint32_t *post;
  size_t npost;
} term_view;

typedef struct tstate {
  desert_writer *w;
  desert_reader *r;
  size_t n;
  bv_terms src[K];
  uint8_t *enc[K];
  size_t enc_len[K];
  const term_view *out;
  struct bsio *io; /* streaming rows only */
} tstate;

static void tstate_free(void *p) {
  tstate *s = p;
  if (!s) return;
  desert_writer_free(s->w);
  desert_reader_free(s->r);
  bsio_free(s->io);
  for (unsigned k = 0; k < K; k++) {
    bv_terms_free(&s->src[k]);
    free(s->enc[k]);
  }
  free(s);
}

static size_t terms_expected(const bv_terms *d, uint8_t *b) {
  size_t n = codec_put_var_i32(b, (int32_t)d->n);
  for (size_t i = 0; i < d->n; i++) {
    const bv_term *t = &d->t[i];
    b[n++] = 0x00;
    n += codec_put_string(b + n, t->s, t->len);
    n += codec_put_var_i32(b + n, t->doc_freq);
    n += codec_put_var_i32(b + n, (int32_t)t->npost);
    for (size_t j = 0; j < t->npost; j++) n += codec_put_var_u32(b + n, t->post[j]);
  }
  return n;
}

/* The term record's prepared plan (README: recommended for records
 * written or read more than once), built on first use; the rows run one
 * thread. */
static const desert_record_plan *term_plan(void) {
  static void *mem[DESERT_RECORD_PLAN_BYTES(3, 0) / sizeof(void *)];
  static const desert_record_plan *plan;
  if (!plan && desert_record_plan_init(&term_desc, mem, sizeof mem, &plan)) plan = NULL;
  return plan;
}

/* Through the API the README recommends for C code: a prepared plan and
 * the inline fast paths (the msgpack-c packer is header-inline too). */
static desert_status terms_write(desert_writer *w, const bv_terms *d) {
  const desert_record_plan *plan = term_plan();
  if (!plan) return DESERT_E_NOMEM;
  desert_write_count_inline(w, d->n);
  for (size_t i = 0; i < d->n; i++) {
    const bv_term *t = &d->t[i];
    desert_record_writer rw;
    if (desert_record_write_begin_plan(w, plan, &rw)) break;
    desert_record_write_field(&rw, 0);
    desert_write_string_inline(w, t->s, t->len);
    desert_record_write_field(&rw, 1);
    desert_write_var_i32_inline(w, t->doc_freq);
    desert_record_write_field(&rw, 2);
    desert_write_count_inline(w, t->npost);
    desert_write_var_u32_array(w, t->post, t->npost);
    desert_record_write_end(&rw);
  }
  return desert_writer_status(w);
}

static const term_view *terms_read(desert_reader *r, const uint8_t *data, size_t len, size_t *n) {
  desert_seq seq;
  desert_reader_begin(r, data, len);
  if (desert_read_seq_begin(r, &seq) || !seq.known || seq.count > desert_reader_remaining(r))
    return NULL;
  const desert_record_plan *plan = term_plan();
  term_view *v = plan ? desert_reader_alloc(r, seq.count * sizeof *v, 16) : NULL;
  if (!v) return NULL;
  for (size_t i = 0; i < seq.count; i++) {
    desert_record_reader rr;
    desert_field_action a;
    if (desert_record_read_begin_plan(r, plan, &rr)) return NULL;
    if (!desert_record_read_field(&rr, 0, &a)) desert_read_string_inline(r, &v[i].term);
    if (!desert_record_read_field(&rr, 1, &a)) desert_read_var_i32_inline(r, &v[i].doc_freq);
    if (!desert_record_read_field(&rr, 2, &a)) {
      desert_seq ps;
      if (!desert_read_seq_begin(r, &ps)) {
        if (!ps.known || ps.count > desert_reader_remaining(r)) {
          desert_reader_fail(r, DESERT_E_DESERIALIZATION, ps.offset);
        } else {
          v[i].post = desert_reader_alloc(r, ps.count * sizeof(uint32_t), 4);
          v[i].npost = ps.count;
          if (v[i].post) desert_read_var_u32_array(r, v[i].post, ps.count);
        }
      }
    }
    if (desert_record_read_end(&rr)) return NULL;
  }
  *n = seq.count;
  return v;
}

static void *setup_terms(desert_isa isa, size_t n, codec_info *info) {
  tstate *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  desert_options o;
  codec_options(&o, isa, 0);
  if (desert_writer_create(&o, &s->w) || desert_reader_create(&o, &s->r)) goto fail;
  s->n = n;
  size_t total = 0;
  for (unsigned k = 0; k < K; k++) {
    if (bv_terms_make(k, n, &s->src[k])) goto fail;
    s->enc[k] = malloc(5 + n * (1 + 1 + 12 + 3 + 1 + 5 * BV_MAX_POSTINGS));
    if (!s->enc[k]) goto fail;
    s->enc_len[k] = terms_expected(&s->src[k], s->enc[k]);
    total += s->enc_len[k];
  }
  info->bytes_per_op = total / K;
  info->items_per_op = n;
  return s;
fail:
  tstate_free(s);
  return NULL;
}

static uint64_t run_terms_ser(void *p, size_t i) {
  tstate *s = p;
  desert_writer_reset(s->w);
  terms_write(s->w, &s->src[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(s->w, &len);
  return d ? (uint64_t)d[len - 1] + len : 0;
}

static uint64_t run_terms_de(void *p, size_t i) {
  tstate *s = p;
  unsigned k = (unsigned)(i % K);
  size_t n = 0;
  const term_view *v = terms_read(s->r, s->enc[k], s->enc_len[k], &n);
  return v && n ? n + v[n - 1].term.len + v[n - 1].post[v[n - 1].npost - 1] : 0;
}

static int verify_terms(void *p, char *msg, size_t cap) {
  tstate *s = p;
  for (unsigned k = 0; k < K; k++) {
    const bv_terms *d = &s->src[k];
    desert_writer_reset(s->w);
    if (terms_write(s->w, d))
      return codec_fail(msg, cap, "terms: write failed: %s",
                        desert_status_name(desert_writer_status(s->w)));
    size_t len, n = 0;
    const uint8_t *out = desert_writer_data(s->w, &len);
    if (codec_check_bytes("term dictionary", out, len, s->enc[k], s->enc_len[k], msg, cap))
      return 1;
    const term_view *v = terms_read(s->r, s->enc[k], s->enc_len[k], &n);
    if (!v || desert_reader_offset(s->r) != s->enc_len[k] || n != d->n)
      return codec_fail(msg, cap, "terms variant %u: decode failed: %s", k,
                        desert_status_name(desert_reader_status(s->r)));
    for (size_t i = 0; i < n; i++) {
      const bv_term *t = &d->t[i];
      if (v[i].term.len != t->len || memcmp(v[i].term.ptr, t->s, t->len) ||
          v[i].doc_freq != t->doc_freq || v[i].npost != t->npost ||
          memcmp(v[i].post, t->post, t->npost * 4))
        return codec_fail(msg, cap, "terms variant %u: term %zu differs", k, i);
    }
  }
  return 0;
}

/* ---- streaming rows ---------------------------------------------------------------- */

static void *setup_wide_stream(desert_isa isa, size_t fields, codec_info *info) {
  wstate *s = setup_wide(isa, fields, info);
  if (s && !(s->io = bsio_new(1 + fields * 25 + 64))) {
    wstate_free(s);
    return NULL;
  }
  return s;
}

static uint64_t run_wide_enc_stream(void *p, size_t i) {
  wstate *s = p;
  bs_begin_write(s->w, s->io);
  wide_write(s->w, &s->desc, s->src[i % K]);
  desert_writer_flush(s->w);
  return s->io->out_len ? (uint64_t)s->io->out[s->io->out_len - 1] + s->io->out_len : 0;
}

static uint64_t run_wide_dec_stream(void *p, size_t i) {
  wstate *s = p;
  unsigned k = (unsigned)(i % K);
  bs_begin_read(s->r, s->io, s->enc[k], s->enc_len[k]);
  if (wide_read(s->r, &s->desc, &s->out)) return 0;
  return (uint64_t)s->out.i64[0] + (uint64_t)s->out.list[s->fields / 4 - 1][2];
}

static int verify_wide_stream(void *p, char *msg, size_t cap) {
  wstate *s = p;
  for (unsigned k = 0; k < K; k++) {
    if (bs_begin_write(s->w, s->io) || wide_write(s->w, &s->desc, s->src[k]) ||
        desert_writer_flush(s->w))
      return codec_fail(msg, cap, "wide stream: write failed: %s",
                        desert_status_name(desert_writer_status(s->w)));
    if (codec_check_bytes("wide record (stream)", s->io->out, s->io->out_len, s->enc[k],
                          s->enc_len[k], msg, cap))
      return 1;
    memset(&s->out, 0, sizeof s->out);
    if (bs_begin_read(s->r, s->io, s->enc[k], s->enc_len[k]) ||
        wide_read(s->r, &s->desc, &s->out) || desert_reader_offset(s->r) != s->enc_len[k])
      return codec_fail(msg, cap, "wide stream variant %u: decode failed: %s", k,
                        desert_status_name(desert_reader_status(s->r)));
    if (!wide_equal(&s->out, s->src[k]))
      return codec_fail(msg, cap, "wide stream variant %u differs", k);
  }
  return 0;
}

static void *setup_terms_stream(desert_isa isa, size_t n, codec_info *info) {
  tstate *s = setup_terms(isa, n, info);
  if (s && !(s->io = bsio_new(5 + n * (1 + 1 + 12 + 3 + 1 + 5 * BV_MAX_POSTINGS)))) {
    tstate_free(s);
    return NULL;
  }
  return s;
}

/* Reads the dictionary one term at a time (marking after each); with
 * `check`, every term must equal check's. Returns the number of terms
 * (SIZE_MAX on an error or a difference) and a value depending on all. */
static size_t terms_read_stream(desert_reader *r, const bv_terms *check, uint64_t *sum) {
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return SIZE_MAX;
  size_t i = 0;
  uint64_t acc = 0;
  while (desert_read_seq_next(r, &seq)) {
    desert_record_reader rr;
    desert_field_action a;
    desert_str term = {NULL, 0};
    int32_t df = 0;
    uint32_t post[BV_MAX_POSTINGS];
    desert_seq ps = {false, 0, 0, 0};
    if (desert_record_read_begin(r, &term_desc, &rr)) return SIZE_MAX;
    if (!desert_record_read_field(&rr, 0, &a)) desert_read_string(r, &term);
    if (!desert_record_read_field(&rr, 1, &a)) desert_read_var_i32(r, &df);
    if (!desert_record_read_field(&rr, 2, &a) && !desert_read_seq_begin(r, &ps)) {
      if (!ps.known || ps.count > BV_MAX_POSTINGS)
        desert_reader_fail(r, DESERT_E_DESERIALIZATION, ps.offset);
      else
        desert_read_var_u32_array(r, post, ps.count);
    }
    if (desert_record_read_end(&rr)) return SIZE_MAX;
    if (check) {
      const bv_term *t = &check->t[i];
      if (i >= check->n || term.len != t->len || memcmp(term.ptr, t->s, t->len) ||
          df != t->doc_freq || ps.count != t->npost || memcmp(post, t->post, t->npost * 4))
        return SIZE_MAX;
    }
    acc += term.len + (uint64_t)df + (ps.count ? post[ps.count - 1] : 0);
    i++;
    desert_reader_mark(r);
  }
  *sum = acc;
  return desert_reader_status(r) ? SIZE_MAX : i;
}

static uint64_t run_terms_ser_stream(void *p, size_t i) {
  tstate *s = p;
  bs_begin_write(s->w, s->io);
  terms_write(s->w, &s->src[i % K]);
  desert_writer_flush(s->w);
  return s->io->out_len ? (uint64_t)s->io->out[s->io->out_len - 1] + s->io->out_len : 0;
}

static uint64_t run_terms_de_stream(void *p, size_t i) {
  tstate *s = p;
  unsigned k = (unsigned)(i % K);
  bs_begin_read(s->r, s->io, s->enc[k], s->enc_len[k]);
  uint64_t sum = 0;
  size_t n = terms_read_stream(s->r, NULL, &sum);
  return n == SIZE_MAX ? 0 : n + sum;
}

static int verify_terms_stream(void *p, char *msg, size_t cap) {
  tstate *s = p;
  for (unsigned k = 0; k < K; k++) {
    if (bs_begin_write(s->w, s->io) || terms_write(s->w, &s->src[k]) || desert_writer_flush(s->w))
      return codec_fail(msg, cap, "terms stream: write failed: %s",
                        desert_status_name(desert_writer_status(s->w)));
    if (codec_check_bytes("term dictionary (stream)", s->io->out, s->io->out_len, s->enc[k],
                          s->enc_len[k], msg, cap))
      return 1;
    uint64_t sum;
    bs_begin_read(s->r, s->io, s->enc[k], s->enc_len[k]);
    if (terms_read_stream(s->r, &s->src[k], &sum) != s->src[k].n ||
        desert_reader_offset(s->r) != s->enc_len[k])
      return codec_fail(msg, cap, "terms stream variant %u: decode failed or differs: %s", k,
                        desert_status_name(desert_reader_status(s->r)));
  }
  return 0;
}

#define PF CODEC_FAULTS
#define HL CODEC_HEADLINE

CODEC_BATCH(run_wide_enc)
CODEC_BATCH(run_wide_dec)
CODEC_BATCH(run_terms_ser)
CODEC_BATCH(run_terms_de)
CODEC_BATCH(run_wide_enc_stream)
CODEC_BATCH(run_wide_dec_stream)
CODEC_BATCH(run_terms_ser_stream)
CODEC_BATCH(run_terms_de_stream)

const codec_case bench_workload_cases[] = {
    {"w_wide16_enc", "desert", "wide record, 16 fields (201 B): encode, reused writer", -1, HL, 0,
     16, setup_wide, verify_wide, run_wide_enc, wstate_free, run_wide_enc_batch},
    {"w_wide16_dec", "desert", "wide record, 16 fields: decode into the struct", -1, HL, 0, 16,
     setup_wide, verify_wide, run_wide_dec, wstate_free, run_wide_dec_batch},
    {"w_wide256_enc", "desert", "wide record, 256 fields (3,201 B): encode, reused writer", -1, HL,
     0, 256, setup_wide, verify_wide, run_wide_enc, wstate_free, run_wide_enc_batch},
    {"w_wide256_dec", "desert", "wide record, 256 fields: decode into the struct", -1, HL, 0, 256,
     setup_wide, verify_wide, run_wide_dec, wstate_free, run_wide_dec_batch},
    {"w_terms100_ser", "desert", "term dictionary N=100: serialize, reused writer", -1, HL, 0, 100,
     setup_terms, verify_terms, run_terms_ser, tstate_free, run_terms_ser_batch},
    {"w_terms100_de", "desert", "term dictionary N=100: deserialize", -1, HL, 0, 100, setup_terms,
     verify_terms, run_terms_de, tstate_free, run_terms_de_batch},
    {"w_terms500_ser", "desert", "term dictionary N=500: serialize, reused writer", -1, HL, 0, 500,
     setup_terms, verify_terms, run_terms_ser, tstate_free, run_terms_ser_batch},
    {"w_terms500_de", "desert", "term dictionary N=500: deserialize", -1, HL, 0, 500, setup_terms,
     verify_terms, run_terms_de, tstate_free, run_terms_de_batch},
    {"w_terms1000_ser", "desert", "term dictionary N=1000: serialize, reused writer", -1, HL, 0,
     1000, setup_terms, verify_terms, run_terms_ser, tstate_free, run_terms_ser_batch},
    {"w_terms1000_de", "desert", "term dictionary N=1000: deserialize", -1, HL, 0, 1000,
     setup_terms, verify_terms, run_terms_de, tstate_free, run_terms_de_batch},
    {"w_terms5000_ser", "desert", "term dictionary N=5000: serialize, reused writer", -1, HL | PF,
     0, 5000, setup_terms, verify_terms, run_terms_ser, tstate_free, run_terms_ser_batch},
    {"w_terms5000_de", "desert", "term dictionary N=5000: deserialize", -1, HL | PF, 0, 5000,
     setup_terms, verify_terms, run_terms_de, tstate_free, run_terms_de_batch},
    {"w_wide256_enc_stream", "desert", "wide record, 256 fields: encode to a sink, 16 KiB buffer",
     -1, 0, 0, 256, setup_wide_stream, verify_wide_stream, run_wide_enc_stream, wstate_free, run_wide_enc_stream_batch},
    {"w_wide256_dec_stream", "desert", "wide record, 256 fields: decode from a source, 16 KiB window",
     -1, 0, 0, 256, setup_wide_stream, verify_wide_stream, run_wide_dec_stream, wstate_free, run_wide_dec_stream_batch},
    {"w_terms5000_ser_stream", "desert", "term dictionary N=5000: serialize to a sink, 16 KiB buffer",
     -1, 0, 0, 5000, setup_terms_stream, verify_terms_stream, run_terms_ser_stream, tstate_free, run_terms_ser_stream_batch},
    {"w_terms5000_de_stream", "desert",
     "term dictionary N=5000: deserialize from a source term by term, 16 KiB window", -1, 0, 0, 5000,
     setup_terms_stream, verify_terms_stream, run_terms_de_stream, tstate_free, run_terms_de_stream_batch},
};
const size_t bench_workload_case_count =
    sizeof bench_workload_cases / sizeof bench_workload_cases[0];
