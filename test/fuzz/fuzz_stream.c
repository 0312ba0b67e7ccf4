/* test/fuzz/fuzz_stream.c — libFuzzer harness of the streaming reader
 * (issue 15): the inputs of the `golden` and `types` harnesses, fed through
 * a source in random pieces and a small window, must decode exactly as the
 * in-memory reader decodes them.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 bit 0 picks the decoder (0: examples/golden_model.c's
 * TestModel1 — records with evolution, dedup strings; 1: the generic type
 * codec under fixed schema byte 1 with option overrides byte 2, as in
 * fuzz_types); the next byte seeds the piece sizes and picks the window
 * (64 B .. 4 KiB); the next one picks a cut position p; the rest is the
 * message m. Three streamed decodes are compared with in-memory ones:
 *   1. m whole, random pieces        == in-memory decode of m
 *   2. m[0..p) whole, then the end    == in-memory decode of m[0..p)
 *   3. m[0..p), then a source failure == in-memory decode of m[0..p), with
 *                                        READ_INPUT for InputEnded where the
 *                                        cut made the decode run out (see
 *                                        agree)
 * Equal means the same status, the same error offset (or bytes consumed),
 * and for a success the same value: the golden model's bytes when written
 * again, the canonical JSON text of a generic value. The source is never
 * called again after it reported the end or a failure. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_schema_util.h"
#include "golden_model.h"

typedef struct fzs_src {
  const uint8_t *p;
  size_t len, pos, fail_at;
  uint64_t rng;
  int done, calls_after;
} fzs_src;

static ptrdiff_t src_read(void *ctx, void *buf, size_t cap) {
  fzs_src *s = ctx;
  if (s->done) s->calls_after++;
  if (s->pos >= s->fail_at) {
    s->done = 1;
    return -1;
  }
  if (s->pos >= s->len) {
    s->done = 1;
    return 0;
  }
  s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
  size_t n = 1 + (size_t)(s->rng >> 33) % 97;
  if (n > cap) n = cap;
  if (n > s->len - s->pos) n = s->len - s->pos;
  if (n > s->fail_at - s->pos) n = s->fail_at - s->pos;
  memcpy(buf, s->p + s->pos, n);
  s->pos += n;
  return (ptrdiff_t)n;
}

/* What one decode gave: status, offset, and the value as bytes. */
typedef struct outcome {
  desert_status st;
  size_t off;
  uint8_t *val;
  size_t val_len;
} outcome;

typedef struct mode {
  bool generic;
  const desert_schema *schema;
  desert_options o;
} mode;

static void keep(outcome *out, const void *p, size_t n) {
  out->val = malloc(n ? n : 1);
  FZ_CHECK(out->val != NULL);
  if (n) memcpy(out->val, p, n);
  out->val_len = n;
}

/* Decodes one value at r's position and fills *out. */
static void decode(const mode *m, desert_reader *r, outcome *out) {
  out->val = NULL;
  out->val_len = 0;
  if (!m->generic) {
    golden_model gm;
    out->st = golden_model_read(r, &gm);
    if (!out->st) {
      desert_writer *w = NULL;
      FZ_CHECK(desert_writer_create(NULL, &w) == DESERT_OK);
      FZ_CHECK(golden_model_write(w, &gm) == DESERT_OK);
      size_t n;
      const uint8_t *b = desert_writer_data(w, &n);
      keep(out, b, n);
      desert_writer_free(w);
    }
  } else {
    desert_value_arena *a = NULL;
    FZ_CHECK(desert_value_arena_create(fzs_aux(), &a) == DESERT_OK);
    desert_codec_limits lim = {FZS_MAX_DEPTH, FZS_MAX_VALUES, FZS_MAX_BIGINT};
    desert_value *v = NULL;
    out->st = desert_type_decode(r, m->schema->root, a, &lim, &v, NULL);
    if (!out->st) {
      desert_json_buf b = {NULL, 0, 0, false};
      FZ_CHECK(desert_json_write_value(&b, m->schema->root, v) == DESERT_OK);
      keep(out, b.data, b.len);
      desert_json_buf_free(&b);
    }
    desert_value_arena_free(a);
  }
  out->off = out->st ? desert_reader_error_offset(r) : desert_reader_offset(r);
}

static void in_memory(const mode *m, const uint8_t *data, size_t len, outcome *out) {
  uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees over-reads */
  FZ_CHECK(copy != NULL);
  if (len) memcpy(copy, data, len);
  desert_reader *r = fz_reader_new(&m->o);
  fz_decode_begin(r, copy, len);
  decode(m, r, out);
  fz_decode_end(r);
  fz_reader_free(r);
  free(copy);
}

static void streamed(const mode *m, const uint8_t *data, size_t len, size_t fail_at, uint8_t seed,
                     outcome *out) {
  desert_options o = m->o; /* the flags; fz_reader_new's counter is for in-memory decodes */
  desert_allocator plain = {NULL, NULL, NULL};
  o.allocator = plain;
  desert_reader *r = NULL;
  FZ_CHECK(desert_reader_create(&o, &r) == DESERT_OK);
  fzs_src s = {data, len, 0, fail_at, seed * 0x9E3779B97F4A7C15ull + 1, 0, 0};
  desert_source src = {src_read, &s};
  FZ_CHECK(desert_reader_begin_stream(r, src, (size_t)64 << (seed % 7)) == DESERT_OK);
  decode(m, r, out);
  FZ_CHECK_MSG(s.calls_after == 0, "source called after its end");
  desert_reader_free(r);
}

static bool same(const outcome *a, const outcome *b) {
  return a->st == b->st && a->off == b->off && a->val_len == b->val_len &&
         (a->val_len == 0 || memcmp(a->val, b->val, a->val_len) == 0);
}

/* Streamed == in memory. With a failing source (full = the in-memory
 * outcome of the whole input): READ_INPUT replaces InputEnded at the same
 * offset where the in-memory decode ran out because of the cut (its
 * outcome differs from the whole input's); where the whole input fails
 * with the same InputEnded (a data error such as a short record chunk)
 * either status is accepted; everything else must be identical. */
static void agree(const outcome *mem, const outcome *str, const outcome *full, const char *what) {
  bool ok = same(mem, str);
  bool ran_out = full && mem->st == DESERT_E_INPUT_ENDED;
  if (ok && ran_out && !same(mem, full)) ok = false;
  if (!ok && ran_out && str->st == DESERT_E_READ_INPUT && str->off == mem->off) ok = true;
  FZ_CHECK_MSG(ok, "%s: streamed %s at %zu, in memory %s at %zu (value bytes %zu/%zu)", what,
               desert_status_name(str->st), str->off, desert_status_name(mem->st), mem->off,
               str->val_len, mem->val_len);
}

FZ_TARGET(stream) {
  fz_in in = {data, size};
  mode m;
  m.generic = (fz_u8(&in) & 1u) != 0;
  m.schema = NULL;
  if (m.generic) {
    uint8_t pick = fz_u8(&in);
    uint8_t sel = fz_u8(&in);
    m.schema = fzs_schema(pick);
    fzs_options(m.schema, sel, &m.o);
  } else {
    fz_options(&m.o, 0);
  }
  uint8_t seed = fz_u8(&in);
  size_t frac = fz_u8(&in);
  size_t cut = frac * in.n / 256;
  outcome full, mem, str;
  in_memory(&m, in.p, in.n, &full);
  streamed(&m, in.p, in.n, SIZE_MAX, seed, &str);
  agree(&full, &str, NULL, "whole");
  free(str.val);
  in_memory(&m, in.p, cut, &mem);
  streamed(&m, in.p, cut, SIZE_MAX, seed, &str);
  agree(&mem, &str, NULL, "cut");
  free(str.val);
  streamed(&m, in.p, in.n, cut, seed, &str);
  agree(&mem, &str, &full, "failing");
  free(str.val);
  free(mem.val);
  free(full.val);
  fzs_aux_check_empty();
  return 0;
}
