/* bench/bench_kernels.c — kernel suite cases (see bench_kernels.h): bulk
 * big-endian arrays, varint runs, UTF-8 validation and transcoding, each
 * over BENCH_ROTATE variants of its input so caches and branch predictors
 * cannot learn a single buffer. Inputs are checked
 * against the scalar table's output once, in setup.
 * SPDX-License-Identifier: MIT */
#include "bench_kernels.h"

#include <stdlib.h>
#include <string.h>

#include "bench_data.h"
#include "base/kernels.h"

#define BENCH_ROTATE 8u

size_t bench_tables(const desert_kernels **out, size_t max, int include_emulated) {
  const desert_kernels *all[8];
  size_t n = desert_kernels_runnable(all, 8), m = 0;
  for (size_t i = 0; i < n && m < max; i++)
    if (include_emulated || !all[i]->emulated) out[m++] = all[i];
  return m;
}
/* The process default when it is none of the runnable tables: the
 * automatic table the kernel policy composed for this CPU's class, slot by
 * slot from the AVX2 and AVX-512 tables (src/dispatch/kernel_policy.c). */
static const desert_kernels *bench_composed_default(void) {
  const desert_kernels *all[8];
  const size_t n = desert_kernels_runnable(all, 8);
  const desert_kernels *d = desert_kernels_default();
  for (size_t i = 0; i < n; i++)
    if (all[i] == d) return NULL;
  return d;
}

size_t bench_kernel_tables(const desert_kernels **out, size_t max, int include_emulated) {
  size_t m = bench_tables(out, max, include_emulated);
  const desert_kernels *d = bench_composed_default();
  if (d != NULL && m < max) out[m++] = d;
  return m;
}

const char *bench_table_name(const desert_kernels *k) {
  return k == bench_composed_default() ? "default" : k->name;
}
int bench_table_emulated(const desert_kernels *k) { return (int)k->emulated; }

/* ---- generic state: rotated input buffers and one output buffer ---- */
typedef struct bstate {
  uint8_t *in[BENCH_ROTATE];
  size_t in_len[BENCH_ROTATE]; /* bytes (or units/values, per case) */
  size_t items[BENCH_ROTATE];
  uint8_t *out;
  size_t out_cap;
} bstate;

static void bstate_free(void *p) {
  bstate *s = p;
  if (!s) return;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) free(s->in[i]);
  free(s->out);
  free(s);
}

static bstate *bstate_new(size_t in_bytes, size_t out_bytes) {
  bstate *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) {
    s->in[i] = malloc(in_bytes ? in_bytes : 1);
    if (!s->in[i]) {
      bstate_free(s);
      return NULL;
    }
  }
  s->out = malloc(out_bytes ? out_bytes : 1);
  s->out_cap = out_bytes;
  if (!s->out) {
    bstate_free(s);
    return NULL;
  }
  return s;
}

const uint8_t *bench_case_input(const void *state, size_t i, size_t *len) {
  const bstate *s = state;
  size_t v = i % BENCH_ROTATE;
  *len = s->in_len[v];
  return s->in[v];
}

/* ---- memcpy reference and byte swaps ---- */
static void *setup_bytes(size_t size, size_t *bytes, size_t *items) {
  bstate *s = bstate_new(size, size);
  if (!s) return NULL;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) {
    bench_make_bytes(i, s->in[i], size);
    s->in_len[i] = size;
  }
  *bytes = size;
  *items = size;
  return s;
}

static size_t run_memcpy(const desert_kernels *k, void *p, size_t i) {
  (void)k;
  bstate *s = p;
  size_t v = i % BENCH_ROTATE;
  memcpy(s->out, s->in[v], s->in_len[v]);
  return s->out[0];
}

#define BSWAP_RUN(w)                                                    \
  static size_t run_bswap##w(const desert_kernels *k, void *p, size_t i) { \
    bstate *s = p;                                                      \
    size_t v = i % BENCH_ROTATE;                                        \
    k->bswap##w(s->out, s->in[v], s->in_len[v] / ((w) / 8));            \
    return s->out[0];                                                   \
  }
BSWAP_RUN(16)
BSWAP_RUN(32)
BSWAP_RUN(64)

static size_t run_bswap32_inplace(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE;
  k->bswap32(s->in[v], s->in[v], s->in_len[v] / 4);
  return s->in[v][0];
}

/* ---- varints ---- */
typedef struct vstate {
  bstate b;           /* in = encoded bytes */
  uint32_t *vals[BENCH_ROTATE];
  int32_t *svals[BENCH_ROTATE]; /* zig-zag decoded vals: var_i32 encodes them to b.in */
  uint32_t *dec;
  size_t n;
} vstate;

static void vstate_free(void *p) {
  vstate *s = p;
  if (!s) return;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) {
    free(s->vals[i]);
    free(s->svals[i]);
    free(s->b.in[i]);
  }
  free(s->dec);
  free(s->b.out);
  free(s);
}

/* Values whose encoding is about `size` bytes. */
static void *setup_varint(bench_varint_kind kind, size_t size, size_t *bytes, size_t *items) {
  vstate *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  /* Average encoded length by distribution, to pick the value count. */
  static const double avg[] = {1.0, 1.35, 3.0, 4.9};
  size_t n = (size_t)((double)size / avg[kind]);
  if (n == 0) n = 1;
  s->n = n;
  s->dec = malloc(n * sizeof *s->dec);
  s->b.out = malloc(5 * n);
  s->b.out_cap = 5 * n;
  if (!s->dec || !s->b.out) {
    vstate_free(s);
    return NULL;
  }
  size_t total = 0;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) {
    s->vals[i] = malloc(n * sizeof(uint32_t));
    s->svals[i] = malloc(n * sizeof(int32_t));
    s->b.in[i] = malloc(5 * n);
    if (!s->vals[i] || !s->svals[i] || !s->b.in[i]) {
      vstate_free(s);
      return NULL;
    }
    bench_make_varints(kind, i, s->vals[i], n);
    /* the signed values whose zig-zag forms are vals: same bytes */
    for (size_t j = 0; j < n; j++) {
      const uint32_t x = (s->vals[i][j] >> 1) ^ (0u - (s->vals[i][j] & 1u));
      memcpy(&s->svals[i][j], &x, sizeof x);
    }
    s->b.in_len[i] = desert_kernels_scalar.var_u32_encode(s->b.in[i], s->vals[i], n);
    total += s->b.in_len[i];
  }
  *bytes = total / BENCH_ROTATE;
  *items = n;
  return s;
}

#define VARINT_SETUP(kind)                                                            \
  static void *setup_varint_##kind(size_t size, size_t *bytes, size_t *items) {       \
    return setup_varint(BENCH_VARINT_##kind, size, bytes, items);                     \
  }
VARINT_SETUP(ONE_BYTE)
VARINT_SETUP(DESERT)
VARINT_SETUP(UNIFORM_LEN)
VARINT_SETUP(UNIFORM32)

/* One decode (zz: var_i32, into svals' type) or encode of variant i % ROTATE;
 * the first round checks the output against the setup's values/bytes. */
static size_t var_decode(const desert_kernels *k, vstate *s, size_t i, int zz) {
  size_t v = i % BENCH_ROTATE, used = 0;
  desert_status st =
      zz ? k->var_i32_decode(s->b.in[v], s->b.in_len[v], (int32_t *)(void *)s->dec, s->n, &used)
         : k->var_u32_decode(s->b.in[v], s->b.in_len[v], s->dec, s->n, &used);
  if (st != DESERT_OK || used != s->b.in_len[v]) return (size_t)-1;
  const void *want = zz ? (const void *)s->svals[v] : (const void *)s->vals[v];
  if (i < BENCH_ROTATE && memcmp(s->dec, want, s->n * sizeof(uint32_t)) != 0) return (size_t)-1;
  return s->dec[0];
}

static size_t var_encode(const desert_kernels *k, vstate *s, size_t i, int zz) {
  size_t v = i % BENCH_ROTATE;
  size_t n = zz ? k->var_i32_encode(s->b.out, s->svals[v], s->n)
                : k->var_u32_encode(s->b.out, s->vals[v], s->n);
  if (n != s->b.in_len[v]) return (size_t)-1;
  if (i < BENCH_ROTATE && memcmp(s->b.out, s->b.in[v], n) != 0) return (size_t)-1;
  return s->b.out[0];
}

static size_t run_var_decode(const desert_kernels *k, void *p, size_t i) {
  return var_decode(k, p, i, 0);
}
static size_t run_var_i32_decode(const desert_kernels *k, void *p, size_t i) {
  return var_decode(k, p, i, 1);
}
static size_t run_var_encode(const desert_kernels *k, void *p, size_t i) {
  return var_encode(k, p, i, 0);
}
static size_t run_var_i32_encode(const desert_kernels *k, void *p, size_t i) {
  return var_encode(k, p, i, 1);
}

/* ---- text ---- */
static void *setup_text(bench_text_kind kind, size_t size, size_t *bytes, size_t *items) {
  /* Output room for UTF-16 (2 bytes per input byte at most). */
  bstate *s = bstate_new(size, 2 * size + 16);
  if (!s) return NULL;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) bench_make_text(kind, i, s->in[i], size, &s->in_len[i]);
  *bytes = size;
  *items = size;
  return s;
}

#define TEXT_SETUP(kind)                                                         \
  static void *setup_text_##kind(size_t size, size_t *bytes, size_t *items) {    \
    return setup_text(BENCH_TEXT_##kind, size, bytes, items);                    \
  }
TEXT_SETUP(ASCII)
TEXT_SETUP(LATIN1)
TEXT_SETUP(TWO_BYTE)
TEXT_SETUP(CJK)
TEXT_SETUP(EMOJI)
TEXT_SETUP(MIXED)

static size_t run_validate(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE, pos;
  if (k->utf8_validate(s->in[v], s->in_len[v], &pos) != DESERT_OK) return (size_t)-1;
  return pos;
}

static size_t run_to_utf16(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE, w, pos;
  if (k->utf8_to_utf16(s->in[v], s->in_len[v], (uint16_t *)(void *)s->out, s->out_cap / 2, &w,
                       &pos) != DESERT_OK)
    return (size_t)-1;
  return w;
}

/* The UTF-16 length of UTF-8 text (the size pass before utf8_to_utf16);
 * the first round checks it against the scalar table's count. */
static size_t run_utf16_len(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE, n, want;
  if (k->utf16_len_from_utf8(s->in[v], s->in_len[v], &n) != DESERT_OK) return (size_t)-1;
  if (i < BENCH_ROTATE &&
      (desert_kernels_scalar.utf16_len_from_utf8(s->in[v], s->in_len[v], &want) != DESERT_OK ||
       n != want))
    return (size_t)-1;
  return n;
}

/* UTF-16 -> UTF-8: inputs are the UTF-16 forms of the text variants. */
typedef struct u16state {
  uint16_t *in[BENCH_ROTATE];
  size_t units[BENCH_ROTATE];
  uint8_t *out;
  size_t out_cap;
} u16state;

static void u16state_free(void *p) {
  u16state *s = p;
  if (!s) return;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) free(s->in[i]);
  free(s->out);
  free(s);
}

static void *setup_utf16(bench_text_kind kind, size_t size, size_t *bytes, size_t *items) {
  u16state *s = calloc(1, sizeof *s);
  uint8_t *tmp = malloc(size ? size : 1);
  if (!s || !tmp) {
    free(s);
    free(tmp);
    return NULL;
  }
  s->out = malloc(size + 16);
  s->out_cap = size + 16;
  size_t total = 0;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) {
    size_t len, w, pos;
    bench_make_text(kind, i, tmp, size, &len);
    s->in[i] = malloc((len + 1) * sizeof(uint16_t));
    if (!s->in[i] || !s->out ||
        desert_kernels_scalar.utf8_to_utf16(tmp, len, s->in[i], len + 1, &w, &pos) != DESERT_OK) {
      free(tmp);
      u16state_free(s);
      return NULL;
    }
    s->units[i] = w;
    total += w * 2;
  }
  free(tmp);
  *bytes = total / BENCH_ROTATE;
  *items = *bytes;
  return s;
}

#define U16_SETUP(kind)                                                          \
  static void *setup_u16_##kind(size_t size, size_t *bytes, size_t *items) {     \
    return setup_utf16(BENCH_TEXT_##kind, size, bytes, items);                   \
  }
U16_SETUP(ASCII)
U16_SETUP(TWO_BYTE)
U16_SETUP(CJK)
U16_SETUP(MIXED)

static size_t run_from_utf16(const desert_kernels *k, void *p, size_t i) {
  u16state *s = p;
  size_t v = i % BENCH_ROTATE, w, pos;
  if (k->utf16_to_utf8(s->in[v], s->units[v], s->out, s->out_cap, &w, &pos) != DESERT_OK)
    return (size_t)-1;
  return w;
}

/* The UTF-8 length of UTF-16 text (the size pass before utf16_to_utf8). */
static size_t run_utf8_len_from_utf16(const desert_kernels *k, void *p, size_t i) {
  u16state *s = p;
  size_t v = i % BENCH_ROTATE, n, want;
  if (k->utf8_len_from_utf16(s->in[v], s->units[v], &n) != DESERT_OK) return (size_t)-1;
  if (i < BENCH_ROTATE &&
      (desert_kernels_scalar.utf8_len_from_utf16(s->in[v], s->units[v], &want) != DESERT_OK ||
       n != want))
    return (size_t)-1;
  return n;
}

/* Latin-1 bytes (every byte value) -> UTF-8. */
static void *setup_latin1_bytes(size_t size, size_t *bytes, size_t *items) {
  bstate *s = bstate_new(size, 2 * size + 16);
  if (!s) return NULL;
  for (unsigned i = 0; i < BENCH_ROTATE; i++) {
    bench_make_bytes(i, s->in[i], size);
    /* Mostly ASCII prose with ~10% accented bytes, like real Latin-1 text. */
    for (size_t j = 0; j < size; j++)
      s->in[i][j] = s->in[i][j] < 230 ? (uint8_t)('a' + s->in[i][j] % 26u) : s->in[i][j];
    s->in_len[i] = size;
  }
  *bytes = size;
  *items = size;
  return s;
}

static size_t run_latin1_to_utf8(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE;
  return k->latin1_to_utf8(s->in[v], s->in_len[v], s->out);
}

/* The UTF-8 size of Latin-1 text (the size pass before latin1_to_utf8). */
static size_t run_utf8_len_from_latin1(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE;
  const size_t n = k->utf8_len_from_latin1(s->in[v], s->in_len[v]);
  if (i < BENCH_ROTATE && n != desert_kernels_scalar.utf8_len_from_latin1(s->in[v], s->in_len[v]))
    return (size_t)-1;
  return n;
}

static size_t run_utf8_to_latin1(const desert_kernels *k, void *p, size_t i) {
  bstate *s = p;
  size_t v = i % BENCH_ROTATE, w, pos;
  if (k->utf8_to_latin1(s->in[v], s->in_len[v], s->out, s->out_cap, &w, &pos) != DESERT_OK)
    return (size_t)-1;
  return w;
}

const bench_case bench_kernel_cases[] = {
    {"memcpy", "bytes", 0, setup_bytes, run_memcpy, bstate_free},
    {"bswap16", "bytes", 1, setup_bytes, run_bswap16, bstate_free},
    {"bswap32", "bytes", 1, setup_bytes, run_bswap32, bstate_free},
    {"bswap32_inplace", "bytes", 1, setup_bytes, run_bswap32_inplace, bstate_free},
    {"bswap64", "bytes", 1, setup_bytes, run_bswap64, bstate_free},
    {"var_u32_decode/1byte", "values", 1, setup_varint_ONE_BYTE, run_var_decode, vstate_free},
    {"var_u32_decode/desert", "values", 1, setup_varint_DESERT, run_var_decode, vstate_free},
    {"var_u32_decode/uniform_len", "values", 1, setup_varint_UNIFORM_LEN, run_var_decode,
     vstate_free},
    {"var_u32_decode/uniform32", "values", 1, setup_varint_UNIFORM32, run_var_decode,
     vstate_free},
    {"var_u32_encode/1byte", "values", 1, setup_varint_ONE_BYTE, run_var_encode, vstate_free},
    {"var_u32_encode/desert", "values", 1, setup_varint_DESERT, run_var_encode, vstate_free},
    {"var_u32_encode/uniform32", "values", 1, setup_varint_UNIFORM32, run_var_encode,
     vstate_free},
    {"var_i32_decode/desert", "values", 1, setup_varint_DESERT, run_var_i32_decode, vstate_free},
    {"var_i32_encode/desert", "values", 1, setup_varint_DESERT, run_var_i32_encode, vstate_free},
    {"utf8_validate/ascii", "bytes", 1, setup_text_ASCII, run_validate, bstate_free},
    {"utf8_validate/latin1", "bytes", 1, setup_text_LATIN1, run_validate, bstate_free},
    {"utf8_validate/2byte", "bytes", 1, setup_text_TWO_BYTE, run_validate, bstate_free},
    {"utf8_validate/cjk", "bytes", 1, setup_text_CJK, run_validate, bstate_free},
    {"utf8_validate/emoji", "bytes", 1, setup_text_EMOJI, run_validate, bstate_free},
    {"utf8_validate/mixed", "bytes", 1, setup_text_MIXED, run_validate, bstate_free},
    {"utf8_to_utf16/ascii", "bytes", 1, setup_text_ASCII, run_to_utf16, bstate_free},
    {"utf8_to_utf16/2byte", "bytes", 1, setup_text_TWO_BYTE, run_to_utf16, bstate_free},
    {"utf8_to_utf16/cjk", "bytes", 1, setup_text_CJK, run_to_utf16, bstate_free},
    {"utf8_to_utf16/mixed", "bytes", 1, setup_text_MIXED, run_to_utf16, bstate_free},
    {"utf16_to_utf8/ascii", "bytes", 1, setup_u16_ASCII, run_from_utf16, u16state_free},
    {"utf16_to_utf8/2byte", "bytes", 1, setup_u16_TWO_BYTE, run_from_utf16, u16state_free},
    {"utf16_to_utf8/cjk", "bytes", 1, setup_u16_CJK, run_from_utf16, u16state_free},
    {"utf16_to_utf8/mixed", "bytes", 1, setup_u16_MIXED, run_from_utf16, u16state_free},
    {"utf16_len_from_utf8/ascii", "bytes", 1, setup_text_ASCII, run_utf16_len, bstate_free},
    {"utf16_len_from_utf8/2byte", "bytes", 1, setup_text_TWO_BYTE, run_utf16_len, bstate_free},
    {"utf16_len_from_utf8/cjk", "bytes", 1, setup_text_CJK, run_utf16_len, bstate_free},
    {"utf16_len_from_utf8/mixed", "bytes", 1, setup_text_MIXED, run_utf16_len, bstate_free},
    {"utf8_len_from_utf16/ascii", "bytes", 1, setup_u16_ASCII, run_utf8_len_from_utf16,
     u16state_free},
    {"utf8_len_from_utf16/2byte", "bytes", 1, setup_u16_TWO_BYTE, run_utf8_len_from_utf16,
     u16state_free},
    {"utf8_len_from_utf16/cjk", "bytes", 1, setup_u16_CJK, run_utf8_len_from_utf16,
     u16state_free},
    {"utf8_len_from_utf16/mixed", "bytes", 1, setup_u16_MIXED, run_utf8_len_from_utf16,
     u16state_free},
    {"latin1_to_utf8", "bytes", 1, setup_latin1_bytes, run_latin1_to_utf8, bstate_free},
    {"utf8_len_from_latin1", "bytes", 1, setup_latin1_bytes, run_utf8_len_from_latin1,
     bstate_free},
    {"utf8_to_latin1", "bytes", 1, setup_text_LATIN1, run_utf8_to_latin1, bstate_free},
};
const size_t bench_kernel_case_count = sizeof bench_kernel_cases / sizeof bench_kernel_cases[0];
