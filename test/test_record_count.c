/* test/test_record_count.c — size-only writers (desert_writer_count_only)
 * against independent expectations: records counted in place (the counted
 * layout of prepared plans whose header is fixed and whose chunks follow
 * declaration order), the records that fall back to counted chunk buffers
 * (removed names, chunks out of declaration order, description-based
 * calls), nesting of both kinds, and the inline writes, which only count in
 * size-only mode. Every message is also modelled here from docs/format.md (§2,
 * §3, §5, §6, §9) and written for real: the count must be the model's
 * length and the real output's, with the same status (invalid UTF-8,
 * misuse, depth, chunks above 2^31 - 1 bytes).
 * SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "desert/record.h"
#include "desert/writer.h"
#include "oracle.h"
#include "test_util.h"

/* ---- the model's output buffer ------------------------------------------------ */

typedef struct mbuf {
  uint8_t *p;
  size_t n, cap;
} mbuf;

static void mput(mbuf *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + n) cap *= 2;
    b->p = realloc(b->p, cap);
    assert_non_null(b->p);
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->n, src, n);
  b->n += n;
}
static void mbyte(mbuf *b, uint8_t v) { mput(b, &v, 1); }
static void mvar(mbuf *b, uint32_t v) {
  uint8_t t[5];
  mput(b, t, desert_oracle_var_u32_encode(t, &v, 1));
}
static void mbe(mbuf *b, uint64_t v, unsigned width) {
  for (unsigned i = width; i-- > 0;) mbyte(b, (uint8_t)(v >> (8 * i)));
}

/* ---- record types with their layout written out by hand ---------------------------
 * Each field: its kind and its chunk (the FieldAdded step that owns it,
 * docs/format.md §9.1); each step: its header entry. */

typedef enum { K_I32, K_F64, K_BOOL, K_STR, K_STRS, K_OPT_STR, K_REC } fkind;
enum { E_SIZE = -1, E_REMOVED = -2 }; /* header entries; >= 0: 01 + that position byte */

typedef struct trec trec;
typedef struct tfield {
  fkind kind;
  unsigned chunk;
  const trec *rec; /* K_REC */
} tfield;
struct trec {
  const desert_record_desc *desc;
  const tfield *f;
  const int *entries; /* one per step */
  desert_record_plan *plan;
};

/* Person (case 8's record): tags added in version 1. */
static const desert_field_desc person_f[] = {
    {"id", 0}, {"name", 0}, {"score", 0}, {"active", 0}, {"tags", 0}};
static const desert_evolution_step person_s[] = {{DESERT_STEP_FIELD_ADDED, "tags", true}};
static const desert_record_desc person_d = DESERT_RECORD_DESC("Person", person_f, person_s);
static const tfield person_t[] = {
    {K_I32, 0, NULL}, {K_STR, 0, NULL}, {K_F64, 0, NULL}, {K_BOOL, 0, NULL}, {K_STRS, 1, NULL}};
static const int person_e[] = {E_SIZE};

/* Wide: five steps (more than the in-place sequential writer takes), a
 * transient field, an optional field in an added chunk. */
static const desert_field_desc wide_f[] = {{"a", 0},
                                           {"b", 0},
                                           {"t", DESERT_FIELD_TRANSIENT},
                                           {"c", 0},
                                           {"d", 0},
                                           {"e", DESERT_FIELD_OPTIONAL},
                                           {"f", 0}};
static const desert_evolution_step wide_s[] = {{DESERT_STEP_FIELD_ADDED, "c", true},
                                               {DESERT_STEP_FIELD_ADDED, "d", true},
                                               {DESERT_STEP_FIELD_ADDED, "e", true},
                                               {DESERT_STEP_FIELD_MADE_OPTIONAL, "e", false},
                                               {DESERT_STEP_FIELD_ADDED, "f", true}};
static const desert_record_desc wide_d = DESERT_RECORD_DESC("Wide", wide_f, wide_s);
static const tfield wide_t[] = {{K_I32, 0, NULL}, {K_STR, 0, NULL},     {K_I32, 0, NULL},
                                {K_STR, 1, NULL}, {K_I32, 2, NULL},     {K_OPT_STR, 3, NULL},
                                {K_STRS, 5, NULL}};
static const int wide_e[] = {E_SIZE, E_SIZE, E_SIZE, 3, E_SIZE}; /* e: chunk 3 */

/* Evolved: a chunk-0 field made optional (position 1: byte ff), then an
 * added field in chunk 2 (step 1 has no chunk). */
static const desert_field_desc evo_f[] = {
    {"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}, {"z", 0}};
static const desert_evolution_step evo_s[] = {{DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false},
                                              {DESERT_STEP_FIELD_ADDED, "z", true}};
static const desert_record_desc evo_d = DESERT_RECORD_DESC("Evolved", evo_f, evo_s);
static const tfield evo_t[] = {
    {K_I32, 0, NULL}, {K_OPT_STR, 0, NULL}, {K_STR, 0, NULL}, {K_STRS, 2, NULL}};
static const int evo_e[] = {0xff, E_SIZE};

/* Plain: version 0. */
static const desert_field_desc plain_f[] = {{"n", 0}, {"s", 0}};
static const desert_record_desc plain_d = DESERT_RECORD_DESC_V0("Plain", plain_f);
static const tfield plain_t[] = {{K_I32, 0, NULL}, {K_STR, 0, NULL}};

/* Removed: a FieldRemoved step (a name in the header: counted chunk
 * buffers). */
static const desert_field_desc rem_f[] = {{"a", 0}, {"b", 0}, {"c", 0}};
static const desert_evolution_step rem_s[] = {{DESERT_STEP_FIELD_REMOVED, "gone", false},
                                              {DESERT_STEP_FIELD_ADDED, "c", true}};
static const desert_record_desc rem_d = DESERT_RECORD_DESC("Removed", rem_f, rem_s);
static const tfield rem_t[] = {{K_STR, 0, NULL}, {K_I32, 0, NULL}, {K_STRS, 2, NULL}};
static const int rem_e[] = {E_REMOVED, E_SIZE};

/* Backward: a field of chunk 1 declared before one of chunk 0 (chunks
 * against declaration order: counted chunk buffers). */
static const desert_field_desc back_f[] = {{"late", 0}, {"early", 0}};
static const desert_evolution_step back_s[] = {{DESERT_STEP_FIELD_ADDED, "late", true}};
static const desert_record_desc back_d = DESERT_RECORD_DESC("Backward", back_f, back_s);
static const tfield back_t[] = {{K_STR, 1, NULL}, {K_STR, 0, NULL}};
static const int back_e[] = {E_SIZE};

static trec person = {&person_d, person_t, person_e, NULL};
static trec wide = {&wide_d, wide_t, wide_e, NULL};
static trec evo = {&evo_d, evo_t, evo_e, NULL};
static trec plain = {&plain_d, plain_t, NULL, NULL};
static trec rem = {&rem_d, rem_t, rem_e, NULL};
static trec back = {&back_d, back_t, back_e, NULL};

/* Outer (counted): a counted record, a fallback one, then in added
 * chunks a string, a counted record and a version-0 one. */
static const desert_field_desc outer_f[] = {{"p", 0}, {"k", 0}, {"n", 0}, {"q", 0}, {"v", 0}};
static const desert_evolution_step outer_s[] = {{DESERT_STEP_FIELD_ADDED, "n", true},
                                                {DESERT_STEP_FIELD_ADDED, "q", true},
                                                {DESERT_STEP_FIELD_ADDED, "v", true}};
static const desert_record_desc outer_d = DESERT_RECORD_DESC("Outer", outer_f, outer_s);
static const tfield outer_t[] = {{K_REC, 0, &person},
                                 {K_REC, 0, &back},
                                 {K_STR, 1, NULL},
                                 {K_REC, 2, &evo},
                                 {K_REC, 3, &plain}};
static const int outer_e[] = {E_SIZE, E_SIZE, E_SIZE};
static trec outer = {&outer_d, outer_t, outer_e, NULL};

/* Host (fallback): counted records inside counted chunk buffers. */
static const desert_field_desc host_f[] = {{"w", 0}, {"o", 0}, {"i", 0}};
static const desert_evolution_step host_s[] = {{DESERT_STEP_FIELD_ADDED, "w", true}};
static const desert_record_desc host_d = DESERT_RECORD_DESC("Host", host_f, host_s);
static const tfield host_t[] = {{K_REC, 1, &wide}, {K_REC, 0, &outer}, {K_I32, 0, NULL}};
static const int host_e[] = {E_SIZE};
static trec host = {&host_d, host_t, host_e, NULL};

static trec *const all_recs[] = {&person, &wide, &evo, &plain, &rem, &back, &outer, &host};

static int setup_plans(void **state) {
  (void)state;
  for (size_t i = 0; i < DESERT_COUNTOF(all_recs); i++)
    if (desert_record_plan_create(all_recs[i]->desc, NULL, &all_recs[i]->plan)) return 1;
  return 0;
}
static int teardown_plans(void **state) {
  (void)state;
  for (size_t i = 0; i < DESERT_COUNTOF(all_recs); i++) {
    desert_record_plan_free(all_recs[i]->plan);
    all_recs[i]->plan = NULL;
  }
  return 0;
}

/* ---- values, drawn from a seeded generator ----------------------------------------
 * The model and every writer replay the same seed, so they see the same
 * values in the same order. */

/* String lengths around every var_i32 length class and the inline limit. */
static const size_t str_lens[] = {0,    1,    2,    3,    5,    7,     8,     13,   62,
                                  63,   64,   65,   100,  8190, 8191,  8192,  8193, 20000,
                                  4,    9,    16,   31,   32,   40,    50,    6,    11};
enum { STR_HUGE = 1u << 20 }; /* a chunk size of four bytes */

typedef struct drawn_str {
  char *s;
  size_t len;
  bool invalid; /* not UTF-8 */
} drawn_str;

/* A string: ASCII, or with 2-, 3- and 4-byte sequences, rarely a broken
 * one (a byte ff, or a sequence cut short at the end). */
static drawn_str draw_str(desert_rng *g, bool allow_invalid) {
  drawn_str d;
  d.len = desert_rng_below(g, 400) == 0 ? STR_HUGE + desert_rng_below(g, 3)
                                        : str_lens[desert_rng_below(g, DESERT_COUNTOF(str_lens))];
  d.s = malloc(d.len ? d.len : 1);
  assert_non_null(d.s);
  d.invalid = false;
  for (size_t i = 0; i < d.len; i++) d.s[i] = (char)('a' + desert_rng_below(g, 26));
  static const char *const seqs[] = {"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80"};
  unsigned mix = desert_rng_below(g, 3);
  if (mix && d.len) {
    for (unsigned k = 0; k < 1 + desert_rng_below(g, 4); k++) {
      const char *q = seqs[desert_rng_below(g, 3)];
      size_t ql = strlen(q);
      if (ql > d.len) continue;
      size_t at = desert_rng_below(g, (uint32_t)(d.len - ql + 1));
      /* keep sequences whole: only over ASCII */
      bool free_run = true;
      for (size_t j = 0; j < ql; j++) free_run = free_run && ((unsigned char)d.s[at + j] < 0x80);
      if (free_run) memcpy(d.s + at, q, ql);
    }
  }
  if (allow_invalid && d.len && desert_rng_below(g, 40) == 0) {
    /* ff is never UTF-8; a lead byte last is a sequence cut short
     * (whatever it replaced: after a lead, a continuation or ASCII) */
    if (desert_rng_below(g, 2)) d.s[desert_rng_below(g, (uint32_t)d.len)] = (char)0xff;
    else d.s[d.len - 1] = (char)0xe6;
    d.invalid = true;
  }
  return d;
}

/* ---- the model (docs/format.md) ---------------------------------------------------- */

typedef struct model {
  bool invalid; /* an invalid string: the writers fail with DESERT_E_INVALID_UTF8 */
  const char *names[8]; /* removed names written so far (the string table) */
  size_t nnames;
} model;

static void model_str(model *m, mbuf *b, const drawn_str *d) {
  uint32_t z = desert_oracle_zigzag((int32_t)d->len);
  mvar(b, z);
  mput(b, d->s, d->len);
  if (d->invalid) m->invalid = true;
}

static void model_rec(model *m, mbuf *out, const trec *t, desert_rng *g);

static void model_value(model *m, mbuf *b, const tfield *f, desert_rng *g) {
  switch (f->kind) {
  case K_I32:
    mbe(b, (uint32_t)desert_rng_next(g), 4);
    break;
  case K_F64: {
    double v = (double)(int32_t)desert_rng_next(g) / 8.0;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    mbe(b, bits, 8);
    break;
  }
  case K_BOOL:
    mbyte(b, (uint8_t)desert_rng_below(g, 2));
    break;
  case K_OPT_STR:
    if (!desert_rng_below(g, 3)) {
      mbyte(b, 0);
      break;
    }
    mbyte(b, 1);
    /* fall through */
  case K_STR: {
    drawn_str d = draw_str(g, true);
    model_str(m, b, &d);
    free(d.s);
    break;
  }
  case K_STRS: {
    unsigned n = desert_rng_below(g, 5);
    mvar(b, desert_oracle_zigzag((int32_t)n));
    for (unsigned i = 0; i < n; i++) {
      drawn_str d = draw_str(g, true);
      model_str(m, b, &d);
      free(d.s);
    }
    break;
  }
  case K_REC:
    model_rec(m, b, f->rec, g);
    break;
  }
}

static void model_rec(model *m, mbuf *out, const trec *t, desert_rng *g) {
  const desert_record_desc *d = t->desc;
  size_t v = d->step_count;
  mbyte(out, (uint8_t)v);
  if (v == 0) {
    for (size_t i = 0; i < d->field_count; i++)
      if (!(d->fields[i].flags & DESERT_FIELD_TRANSIENT)) model_value(m, out, &t->f[i], g);
    return;
  }
  mbuf chunk[8];
  memset(chunk, 0, sizeof chunk);
  for (size_t i = 0; i < d->field_count; i++)
    if (!(d->fields[i].flags & DESERT_FIELD_TRANSIENT)) model_value(m, &chunk[t->f[i].chunk], &t->f[i], g);
  for (size_t s = 0; s <= v; s++) {
    int e = s ? t->entries[s - 1] : E_SIZE;
    if (e == E_SIZE) {
      mvar(out, desert_oracle_zigzag((int32_t)chunk[s].n));
    } else if (e == E_REMOVED) { /* 03 + the name as a DeduplicatedString */
      const char *name = d->steps[s - 1].field;
      size_t id = 0;
      for (size_t k = 0; k < m->nnames; k++)
        if (strcmp(m->names[k], name) == 0) id = k + 1;
      mbyte(out, 0x03);
      if (id) {
        mvar(out, desert_oracle_zigzag(-(int32_t)id));
      } else {
        m->names[m->nnames++] = name;
        drawn_str ds = {(char *)(uintptr_t)name, strlen(name), false};
        model_str(m, out, &ds);
      }
    } else {
      mbyte(out, 0x01);
      mbyte(out, (uint8_t)e);
    }
  }
  for (size_t s = 0; s <= v; s++) {
    mput(out, chunk[s].p, chunk[s].n);
    free(chunk[s].p);
  }
}

/* ---- the writers ------------------------------------------------------------------- */

enum { VIA_PLAN = 1, VIA_INLINE = 2 };

static void write_str(desert_writer *w, const drawn_str *d, unsigned via) {
  if (via & VIA_INLINE) desert_write_string_inline(w, d->s, d->len);
  else desert_write_string(w, d->s, d->len);
}

static void write_rec(desert_writer *w, const trec *t, desert_rng *g, unsigned via);

static void write_value(desert_writer *w, desert_record_writer *rw, size_t i, const tfield *f,
                        desert_rng *g, unsigned via) {
  const bool in = (via & VIA_INLINE) != 0;
  if (f->kind != K_OPT_STR) desert_record_write_field(rw, i);
  switch (f->kind) {
  case K_I32: {
    int32_t v = (int32_t)(uint32_t)desert_rng_next(g);
    if (in) desert_write_i32_inline(w, v);
    else desert_write_i32(w, v);
    break;
  }
  case K_F64: {
    double v = (double)(int32_t)desert_rng_next(g) / 8.0;
    if (in) desert_write_f64_inline(w, v);
    else desert_write_f64(w, v);
    break;
  }
  case K_BOOL: {
    bool v = desert_rng_below(g, 2) != 0;
    if (in) desert_write_bool_inline(w, v);
    else desert_write_bool(w, v);
    break;
  }
  case K_OPT_STR: {
    bool some = desert_rng_below(g, 3) != 0;
    if (in) { /* both ways of starting an optional field */
      desert_record_write_field(rw, i);
      desert_write_option_inline(w, some);
    } else {
      desert_record_write_field_option(rw, i, some);
    }
    if (!some) break;
  }
    /* fall through */
  case K_STR: {
    drawn_str d = draw_str(g, true);
    write_str(w, &d, via);
    free(d.s);
    break;
  }
  case K_STRS: {
    unsigned n = desert_rng_below(g, 5);
    if (in) desert_write_count_inline(w, n);
    else desert_write_count(w, n);
    for (unsigned k = 0; k < n; k++) {
      drawn_str d = draw_str(g, true);
      write_str(w, &d, via);
      free(d.s);
    }
    break;
  }
  case K_REC:
    write_rec(w, f->rec, g, via);
    break;
  }
}

static void write_rec(desert_writer *w, const trec *t, desert_rng *g, unsigned via) {
  desert_record_writer rw;
  if ((via & VIA_PLAN) ? desert_record_write_begin_plan(w, t->plan, &rw)
                       : desert_record_write_begin(w, t->desc, &rw))
    return;
  for (size_t i = 0; i < t->desc->field_count; i++)
    if (!(t->desc->fields[i].flags & DESERT_FIELD_TRANSIENT)) write_value(w, &rw, i, &t->f[i], g, via);
  desert_record_write_end(&rw);
}

/* The message: an i32, the record, a short string (so that the record
 * starts and ends inside the output). */
static const int32_t lead_in = 0x01020304;
static void write_message(desert_writer *w, const trec *t, uint64_t seed, unsigned via) {
  desert_rng g;
  desert_rng_init(&g, seed);
  if (via & VIA_INLINE) desert_write_i32_inline(w, lead_in);
  else desert_write_i32(w, lead_in);
  write_rec(w, t, &g, via);
  if (via & VIA_INLINE) desert_write_string_inline(w, "end", 3);
  else desert_write_string(w, "end", 3);
}
static size_t model_message(mbuf *b, const trec *t, uint64_t seed, bool *invalid) {
  desert_rng g;
  desert_rng_init(&g, seed);
  model m;
  memset(&m, 0, sizeof m);
  b->n = 0;
  mbe(b, (uint32_t)lead_in, 4);
  model_rec(&m, b, t, &g);
  mbyte(b, 0x06);
  mput(b, "end", 3);
  *invalid = m.invalid;
  return b->n;
}

/* ---- tests ---------------------------------------------------------------------------- */

/* Every record type, random values: the real output equals the model; the
 * size-only writer (caller storage and heap; plan and description; inline
 * and exported writes) counts exactly its length, or fails the same way. */
static void test_counts_match_output(void **state) {
  (void)state;
  desert_rng g;
  desert_rng_init_test(&g, 0xc0417);
  desert_writer *grow = NULL, *heap_count = NULL;
  assert_int_equal(desert_writer_create(NULL, &grow), DESERT_OK);
  assert_int_equal(desert_writer_create(NULL, &heap_count), DESERT_OK);
  desert_writer_count_only(heap_count);
  desert_writer_storage ws;
  desert_writer *st_count = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &st_count), DESERT_OK);
  desert_writer_count_only(st_count);
  mbuf want = {0};
  size_t invalid_seen = 0, huge_seen = 0;
  for (unsigned round = 0; round < 300; round++) {
    for (size_t k = 0; k < DESERT_COUNTOF(all_recs); k++) {
      const trec *t = all_recs[k];
      uint64_t seed = desert_rng_next(&g);
      bool invalid;
      size_t n = model_message(&want, t, seed, &invalid);
      const desert_status expect = invalid ? DESERT_E_INVALID_UTF8 : DESERT_OK;
      invalid_seen += invalid;
      huge_seen += n > STR_HUGE;
      desert_writer_reset(grow);
      write_message(grow, t, seed, VIA_PLAN);
      assert_int_equal(desert_writer_status(grow), expect);
      if (!invalid) {
        size_t len;
        const uint8_t *got = desert_writer_data(grow, &len);
        desert_assert_bytes_equal(want.p, n, got, len);
      }
      for (unsigned via = 0; via < 4; via++) {
        desert_writer *c = (via & VIA_INLINE) ? st_count : heap_count;
        if (via & VIA_INLINE) desert_writer_reset_inline(c);
        else desert_writer_reset(c);
        write_message(c, t, seed, via);
        assert_int_equal(desert_writer_status(c), expect);
        if (!invalid) assert_int_equal(desert_writer_size(c), n);
        assert_null(desert_writer_data(c, NULL));
      }
    }
  }
  /* the draws reached the cases they are there for */
  assert_true(invalid_seen > 0);
  assert_true(huge_seen > 0);
  free(want.p);
  desert_writer_free(st_count);
  desert_writer_free(heap_count);
  desert_writer_free(grow);
}

/* A size-only writer reused after a message that failed inside a counted
 * record (never ended) counts the next message from zero: the reset
 * clears the error and the depth. */
static void test_count_after_errors(void **state) {
  (void)state;
  desert_writer_storage ws;
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &w), DESERT_OK);
  desert_writer_count_only(w);
  /* an abandoned record (error inside, no _end), then a clean message */
  desert_record_writer rw;
  assert_int_equal(desert_record_write_begin_plan(w, person.plan, &rw), DESERT_OK);
  desert_record_write_field(&rw, 0);
  desert_write_string_inline(w, "\xff", 1);
  assert_int_equal(desert_writer_status(w), DESERT_E_INVALID_UTF8);
  desert_writer_reset_inline(w);
  mbuf want = {0};
  bool invalid = true;
  for (uint64_t seed = 1; invalid; seed++) {
    size_t n = model_message(&want, &person, seed, &invalid);
    if (invalid) continue;
    write_message(w, &person, seed, VIA_PLAN | VIA_INLINE);
    assert_int_equal(desert_writer_status(w), DESERT_OK);
    assert_int_equal(desert_writer_size(w), n);
  }
  free(want.p);
  desert_writer_free(w);
}

/* Calls in the wrong order fail where the writer with output fails, with
 * the same status, for a counted record and for its output twin. */
typedef enum { M_SKIP, M_TWICE, M_TRANSIENT, M_MISSING_END, M_OPTION_ON_REQUIRED, M_RANGE } misuse;

static desert_status misuse_run(desert_writer *w, misuse m, desert_status *at_call) {
  desert_record_writer rw;
  *at_call = desert_record_write_begin_plan(w, wide.plan, &rw);
  if (*at_call) return *at_call;
  desert_record_write_field(&rw, 0);
  desert_write_i32_inline(w, 7);
  switch (m) {
  case M_SKIP: /* field 1 (b) skipped */
    *at_call = desert_record_write_field(&rw, 3);
    break;
  case M_TWICE:
    *at_call = desert_record_write_field(&rw, 0);
    break;
  case M_TRANSIENT:
    desert_record_write_field(&rw, 1);
    desert_write_string_inline(w, "b", 1);
    *at_call = desert_record_write_field(&rw, 2);
    break;
  case M_MISSING_END: /* fields 1.. never started */
    *at_call = DESERT_OK;
    break;
  case M_OPTION_ON_REQUIRED:
    *at_call = desert_record_write_field_option(&rw, 1, true);
    break;
  case M_RANGE:
    *at_call = desert_record_write_field(&rw, 99);
    break;
  }
  return desert_record_write_end(&rw);
}

static void test_misuse_statuses(void **state) {
  (void)state;
  static const misuse all[] = {M_SKIP, M_TWICE, M_TRANSIENT, M_MISSING_END, M_OPTION_ON_REQUIRED,
                               M_RANGE};
  static const desert_status want_call[] = {
      DESERT_E_FIELD_SKIPPED, DESERT_E_FIELD_ORDER, DESERT_E_FIELD_TRANSIENT,
      DESERT_OK,              DESERT_E_FIELD_NOT_OPTIONAL, DESERT_E_ARGUMENT};
  static const desert_status want_end[] = {
      DESERT_E_FIELD_SKIPPED, DESERT_E_FIELD_ORDER,        DESERT_E_FIELD_TRANSIENT,
      DESERT_E_FIELD_SKIPPED, DESERT_E_FIELD_NOT_OPTIONAL, DESERT_E_ARGUMENT};
  desert_writer *grow = NULL, *count = NULL;
  assert_int_equal(desert_writer_create(NULL, &grow), DESERT_OK);
  assert_int_equal(desert_writer_create(NULL, &count), DESERT_OK);
  desert_writer_count_only(count);
  for (size_t i = 0; i < DESERT_COUNTOF(all); i++) {
    desert_status ca, cb;
    desert_writer_reset(grow);
    desert_writer_reset(count);
    desert_status ea = misuse_run(grow, all[i], &ca);
    desert_status eb = misuse_run(count, all[i], &cb);
    assert_int_equal(ca, want_call[i]);
    assert_int_equal(cb, want_call[i]);
    assert_int_equal(ea, want_end[i]);
    assert_int_equal(eb, want_end[i]);
  }
  /* the writer reset under an open counted record: its end sees the count
   * below the record's start */
  desert_writer_reset(count);
  desert_record_writer rw;
  desert_write_i32(count, 1);
  assert_int_equal(desert_record_write_begin_plan(count, person.plan, &rw), DESERT_OK);
  desert_writer_reset(count);
  assert_int_equal(desert_record_write_end(&rw), DESERT_E_STATE);
  desert_writer_free(count);
  desert_writer_free(grow);
}

/* The depth limit stops a counted record where it stops a written one. */
static void test_depth_limit(void **state) {
  (void)state;
  desert_options o;
  desert_options_init(&o);
  o.max_depth = 2;
  desert_writer *w[2];
  for (int i = 0; i < 2; i++) assert_int_equal(desert_writer_create(&o, &w[i]), DESERT_OK);
  desert_writer_count_only(w[1]);
  for (int i = 0; i < 2; i++) {
    desert_record_writer a, b, c;
    assert_int_equal(desert_record_write_begin_plan(w[i], outer.plan, &a), DESERT_OK);
    desert_record_write_field(&a, 0);
    assert_int_equal(desert_record_write_begin_plan(w[i], person.plan, &b), DESERT_OK);
    desert_record_write_field(&b, 0);
    assert_int_equal(desert_record_write_begin_plan(w[i], evo.plan, &c), DESERT_E_DEPTH);
    assert_int_equal(desert_record_write_end(&b), DESERT_E_DEPTH);
    assert_int_equal(desert_record_write_end(&a), DESERT_E_DEPTH);
    desert_writer_reset(w[i]);
    /* after the reset the full depth is there again */
    assert_int_equal(desert_record_write_begin_plan(w[i], person.plan, &b), DESERT_OK);
  }
  desert_writer_free(w[0]);
  desert_writer_free(w[1]);
}

/* Chunks of 2^27 bytes and more (five-byte sizes) and above 2^31 - 1
 * (DESERT_E_LENGTH_TOO_LARGE, reported at _end unless an error came
 * first): only counted, from a readable zero mapping that is never
 * touched; the expected count is the formula of docs/format.md §9. Counted
 * layout (plan) and counted chunk buffers (description) agree. */
static const desert_field_desc big_f[] = {{"a", 0}, {"b", 0}, {"c", 0}};
static const desert_evolution_step big_s[] = {{DESERT_STEP_FIELD_ADDED, "c", true}};
static const desert_record_desc big_d = DESERT_RECORD_DESC("Big", big_f, big_s);

static desert_status write_big(desert_writer *w, const desert_record_plan *plan,
                               const uint8_t *mem, size_t a, size_t b, const char *c) {
  desert_record_writer rw;
  if (plan ? desert_record_write_begin_plan(w, plan, &rw) : desert_record_write_begin(w, &big_d, &rw))
    return desert_writer_status(w);
  desert_record_write_field(&rw, 0);
  desert_write_bytes(w, mem, a);
  desert_record_write_field(&rw, 1);
  desert_write_bytes(w, mem, b);
  desert_record_write_field(&rw, 2);
  desert_write_string_inline(w, c, strlen(c));
  return desert_record_write_end(&rw);
}

static void test_huge_chunks(void **state) {
  (void)state;
  const size_t map = (size_t)3 << 30;
  void *mem = mmap(NULL, map, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) skip();
  desert_record_plan *plan = NULL;
  assert_int_equal(desert_record_plan_create(&big_d, NULL, &plan), DESERT_OK);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  desert_writer_count_only(w);
  /* sizes of chunk 0 on both sides of the four- and five-byte classes */
  const size_t cases[][2] = {{(1u << 20) - 8, 0}, {1u << 20, 5}, {(1u << 27) - 9, 0},
                             {1u << 27, 0},       {(size_t)INT32_MAX - 10, 0}};
  for (size_t i = 0; i < DESERT_COUNTOF(cases); i++) {
    size_t a = cases[i][0], b = cases[i][1];
    size_t body0 = desert_oracle_var_u32_len((uint32_t)a) + a + desert_oracle_var_u32_len((uint32_t)b) + b;
    size_t body1 = 1 + 1; /* "z": 02 7a */
    size_t want = 1 + desert_oracle_var_u32_len(desert_oracle_zigzag((int32_t)body0)) +
                  desert_oracle_var_u32_len(desert_oracle_zigzag((int32_t)body1)) + body0 + body1;
    for (int with_plan = 0; with_plan < 2; with_plan++) {
      desert_writer_reset(w);
      assert_int_equal(write_big(w, with_plan ? plan : NULL, mem, a, b, "z"), DESERT_OK);
      assert_int_equal(desert_writer_size(w), want);
    }
  }
  /* chunk 0 above 2^31 - 1 bytes */
  const size_t a = (size_t)INT32_MAX - 3, b = 4;
  for (int with_plan = 0; with_plan < 2; with_plan++) {
    desert_writer_reset(w);
    assert_int_equal(write_big(w, with_plan ? plan : NULL, mem, a, b, "z"),
                     DESERT_E_LENGTH_TOO_LARGE);
    /* an invalid string in a later chunk is the first error */
    desert_writer_reset(w);
    assert_int_equal(write_big(w, with_plan ? plan : NULL, mem, a, b, "\xc3"),
                     DESERT_E_INVALID_UTF8);
  }
  desert_writer_free(w);
  desert_record_plan_free(plan);
  munmap(mem, map);
}

/* Chunk sizes on both sides of every var_i32 length class up to four
 * bytes (63/64, 8191/8192, 2^20 - 1 / 2^20), in chunk 0 and in an added
 * chunk: the count is the formula of docs/format.md §9 and the real output's
 * length, through the plan (counted in place) and the description. */
static const desert_field_desc pair_f[] = {{"s0", 0}, {"s1", 0}};
static const desert_evolution_step pair_s[] = {{DESERT_STEP_FIELD_ADDED, "s1", true}};
static const desert_record_desc pair_d = DESERT_RECORD_DESC("Pair", pair_f, pair_s);

static void write_pair(desert_writer *w, const desert_record_plan *plan, const char *text,
                       size_t l0, size_t l1, unsigned via) {
  desert_record_writer rw;
  if (plan ? desert_record_write_begin_plan(w, plan, &rw) : desert_record_write_begin(w, &pair_d, &rw))
    return;
  drawn_str a = {(char *)(uintptr_t)text, l0, false}, b = {(char *)(uintptr_t)text, l1, false};
  desert_record_write_field(&rw, 0);
  write_str(w, &a, via);
  desert_record_write_field(&rw, 1);
  write_str(w, &b, via);
  desert_record_write_end(&rw);
}

static void test_chunk_size_boundaries(void **state) {
  (void)state;
  /* string lengths whose chunk (prefix + text) is 63, 64, 8191, 8192,
   * 2^20 - 1 and 2^20 bytes, and 0 */
  static const size_t lens[] = {0, 62, 63, 8189, 8190, 1048572, 1048573};
  static const size_t chunk[] = {1, 63, 64, 8191, 8192, 1048575, 1048576};
  const size_t max = lens[DESERT_COUNTOF(lens) - 1];
  char *text = malloc(max);
  assert_non_null(text);
  memset(text, 'q', max);
  desert_record_plan *plan = NULL;
  assert_int_equal(desert_record_plan_create(&pair_d, NULL, &plan), DESERT_OK);
  desert_writer *grow = NULL, *count = NULL;
  assert_int_equal(desert_writer_create(NULL, &grow), DESERT_OK);
  assert_int_equal(desert_writer_create(NULL, &count), DESERT_OK);
  desert_writer_count_only(count);
  for (size_t i = 0; i < DESERT_COUNTOF(lens); i++)
    for (size_t j = 0; j < DESERT_COUNTOF(lens); j++) {
      size_t c0 = desert_oracle_var_u32_len(desert_oracle_zigzag((int32_t)lens[i])) + lens[i];
      size_t c1 = desert_oracle_var_u32_len(desert_oracle_zigzag((int32_t)lens[j])) + lens[j];
      assert_int_equal(c0, chunk[i]);
      assert_int_equal(c1, chunk[j]);
      size_t want = 1 + desert_oracle_var_u32_len(desert_oracle_zigzag((int32_t)c0)) +
                    desert_oracle_var_u32_len(desert_oracle_zigzag((int32_t)c1)) + c0 + c1;
      desert_writer_reset(grow);
      write_pair(grow, plan, text, lens[i], lens[j], 0);
      assert_int_equal(desert_writer_status(grow), DESERT_OK);
      assert_int_equal(desert_writer_size(grow), want);
      for (unsigned via = 0; via < 4; via++) {
        desert_writer_reset(count);
        write_pair(count, (via & VIA_PLAN) ? plan : NULL, text, lens[i], lens[j], via);
        assert_int_equal(desert_writer_status(count), DESERT_OK);
        assert_int_equal(desert_writer_size(count), want);
      }
    }
  desert_writer_free(count);
  desert_writer_free(grow);
  desert_record_plan_free(plan);
  free(text);
}

/* The inline writes in size-only mode count what the exported ones write,
 * for values at every varint length boundary; errors stay with the
 * exported functions (a count above 2^31 - 1, an error already set). */
static void test_inline_counts(void **state) {
  (void)state;
  static const uint32_t us[] = {0,       1,        127,        128,        16383,     16384,
                                2097151, 2097152,  268435455u, 268435456u, UINT32_MAX};
  static const int32_t is[] = {0, -1, 63, -64, 64, 8191, -8192, 8192, INT32_MIN, INT32_MAX};
  desert_writer_storage ws;
  desert_writer *c = NULL, *g = NULL;
  assert_int_equal(desert_writer_init(&ws, sizeof ws, NULL, &c), DESERT_OK);
  assert_int_equal(desert_writer_create(NULL, &g), DESERT_OK);
  desert_writer_count_only(c);
  size_t total = 0;
#define BOTH(call_inline, call)                                 \
  do {                                                          \
    desert_writer_reset(g);                                     \
    assert_int_equal(call, DESERT_OK);                          \
    size_t before = desert_writer_size(c);                      \
    assert_int_equal(call_inline, DESERT_OK);                   \
    assert_int_equal(desert_writer_size(c) - before, desert_writer_size(g)); \
    total += desert_writer_size(g);                             \
  } while (0)
  for (size_t i = 0; i < DESERT_COUNTOF(us); i++) {
    BOTH(desert_write_var_u32_inline(c, us[i]), desert_write_var_u32(g, us[i]));
    BOTH(desert_write_u32_inline(c, us[i]), desert_write_u32(g, us[i]));
    if (us[i] <= (uint32_t)INT32_MAX)
      BOTH(desert_write_count_inline(c, us[i]), desert_write_count(g, us[i]));
  }
  for (size_t i = 0; i < DESERT_COUNTOF(is); i++) {
    BOTH(desert_write_var_i32_inline(c, is[i]), desert_write_var_i32(g, is[i]));
    BOTH(desert_write_i16_inline(c, (int16_t)is[i]), desert_write_i16(g, (int16_t)is[i]));
    BOTH(desert_write_i64_inline(c, is[i]), desert_write_i64(g, is[i]));
  }
  BOTH(desert_write_u8_inline(c, 1), desert_write_u8(g, 1));
  BOTH(desert_write_f32_inline(c, 1.5f), desert_write_f32(g, 1.5f));
  BOTH(desert_write_f64_inline(c, 2.5), desert_write_f64(g, 2.5));
  BOTH(desert_write_option_inline(c, true), desert_write_option(g, true));
  BOTH(desert_write_either_inline(c, false), desert_write_either(g, false));
  BOTH(desert_write_try_inline(c, true), desert_write_try(g, true));
  static const char text[] = "a string of sixty-three ascii characters, the longest inline: ok";
  for (size_t len = 0; len < sizeof text; len++)
    BOTH(desert_write_string_inline(c, text, len), desert_write_string(g, text, len));
  BOTH(desert_write_string_inline(c, "\xc3\xa9t\xc3\xa9", 6), desert_write_string(g, "\xc3\xa9t\xc3\xa9", 6));
#undef BOTH
  assert_int_equal(desert_writer_size(c), total);
  /* errors: from the exported functions, then sticky with no count */
  assert_int_equal(desert_write_count_inline(c, (size_t)INT32_MAX + 1), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_write_i32_inline(c, 1), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_write_string_inline(c, "x", 1), DESERT_E_LENGTH_TOO_LARGE);
  assert_int_equal(desert_writer_size(c), total);
  desert_writer_reset_inline(c);
  assert_int_equal(desert_write_string_inline(c, "\xe6\x97", 2), DESERT_E_INVALID_UTF8);
  desert_writer_free(g);
  desert_writer_free(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counts_match_output), cmocka_unit_test(test_count_after_errors),
      cmocka_unit_test(test_misuse_statuses),     cmocka_unit_test(test_depth_limit),
      cmocka_unit_test(test_huge_chunks),         cmocka_unit_test(test_chunk_size_boundaries),
      cmocka_unit_test(test_inline_counts),
  };
  return cmocka_run_group_tests_name("record_count", tests, setup_plans, teardown_plans);
}
