/* test/test_golden_corpus_api.c — the top-level golden/ corpus through the
 * hand-written API (no JSON, no runtime types), under every runnable ISA:
 *  - every entry of the theme tables of test/golden_corpus/corpus_models.h
 *    (C-struct descriptors and hand-written codecs): the hand-written model
 *    encodes to exactly the file, the file decodes to a struct equal to the
 *    model using the expected bytes, and the decoded struct re-encodes to
 *    exactly the file; cross entries are the older readers both ways;
 *  - golden/zstd.bin and golden/api_only.bin (corpus_api.c), which only the
 *    API can describe, with their bytes checked by hand against docs/format.md
 *    §17, §12, §13.5–§13.6 and the zstd frame format (RFC 8878).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_api.h"
#include "corpus_files.h"
#include "corpus_models.h"
#include "desert/kernels.h"
#include "record_testlib.h"
#include "test_util.h"

static desert_isa isas[DESERT_ISA_COUNT_];
static size_t isa_count;

static uint8_t *must_read_bin(const char *name, size_t *len) {
  char path[1024];
  golden_corpus_path(path, sizeof path, NULL, name, ".bin", NULL);
  uint8_t *d = golden_corpus_read(path, len);
  if (!d) fail_msg("cannot read %s", path);
  return d;
}

static desert_options options(unsigned flags, desert_isa isa) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  o.isa = isa;
  return o;
}

/* A reader with the given flags and ISA, positioned on bin. */
static desert_reader *reader_on(const uint8_t *bin, size_t len, unsigned flags, desert_isa isa) {
  desert_options o = options(flags, isa);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, bin, len), DESERT_OK);
  return r;
}

typedef desert_status (*write_fn)(desert_writer *w, const void *obj);

/* What c's codec (or fn, when c is NULL) writes from obj is exactly
 * want[0..n). */
static void assert_writes(const char *what, desert_isa isa, unsigned flags, const golden_codec *c,
                          write_fn fn, const void *obj, const uint8_t *want, size_t n) {
  desert_options o = options(flags, isa);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  desert_status st = !c            ? fn(w, obj)
                     : c->cstruct ? desert_cstruct_encode(w, c->cstruct, obj)
                                  : c->write(w, obj);
  if (st) fail_msg("%s [%s]: write: %s", what, desert_isa_name(isa), desert_status_name(st));
  size_t got_len = 0;
  const uint8_t *got = desert_writer_data(w, &got_len);
  desert_assert_bytes_equal(want, n, got, got_len);
  desert_writer_free(w);
}

static void run_codec(const golden_codec *c, desert_isa isa) {
  size_t len = 0;
  uint8_t *bin = must_read_bin(c->file, &len);
  if (c->cstruct) assert_int_equal(desert_cstruct_check(c->cstruct), DESERT_OK);
  if (!c->cross) assert_writes(c->label, isa, c->flags, c, NULL, c->model, bin, len);
  desert_reader *r = reader_on(bin, len, c->flags, isa);
  void *obj = calloc(1, c->size);
  assert_non_null(obj);
  desert_status st = c->cstruct ? desert_cstruct_decode(r, c->cstruct, obj) : c->read(r, obj);
  if (st)
    fail_msg("%s [%s]: read: %s at %zu", c->label, desert_isa_name(isa), desert_status_name(st),
             desert_reader_error_offset(r));
  if (!c->equal(obj, c->model))
    fail_msg("%s [%s]: the decoded value differs from the model", c->label, desert_isa_name(isa));
  size_t want_used = c->consumed ? c->consumed : len;
  if (desert_reader_offset(r) != want_used)
    fail_msg("%s [%s]: used %zu bytes, want %zu", c->label, desert_isa_name(isa),
             desert_reader_offset(r), want_used);
  /* the decoded struct (views into bin and the reader's arena) writes the
   * same bytes again */
  if (!c->cross) assert_writes(c->label, isa, c->flags, c, NULL, obj, bin, len);
  free(obj);
  desert_reader_free(r);
  free(bin);
}

/* A theme table; not const: cmocka passes test states as void *. */
typedef struct codec_table {
  const golden_codec *codecs;
  const size_t *count;
} codec_table;

static codec_table evolution = {golden_evolution_codecs, &golden_evolution_codec_count};
static codec_table enums = {golden_enum_codecs, &golden_enum_codec_count};
static codec_table option_themes = {golden_option_codecs, &golden_option_codec_count};
static codec_table values = {golden_value_codecs, &golden_value_codec_count};
static codec_table collections = {golden_collection_codecs, &golden_collection_codec_count};

/* Every entry of the table in the test's state, under every ISA. */
static void test_table(void **state) {
  const codec_table *t = *state;
  for (size_t i = 0; i < *t->count; i++)
    for (size_t k = 0; k < isa_count; k++) run_codec(&t->codecs[i], isas[k]);
}

/* ---- zstd.bin ------------------------------------------------------------------------ */

static desert_status zstd_write(desert_writer *w, const void *m) { return golden_zstd_write(w, m); }

static void test_zstd(void **state) {
  (void)state;
  size_t len = 0;
  uint8_t *bin = must_read_bin(GOLDEN_CORPUS_ZSTD, &len);
  /* block 1: plain 17, frame 0x15 bytes: magic, descriptor 20 (single
   * segment, 1-byte content size), content size 17 (RFC 8878 §3.1.1.1) */
  uint8_t want[32];
  size_t n = rt_hex("11 15 28 b5 2f fd 20 11", want, sizeof want);
  assert_true(len > 0x15 + 2 + 11);
  desert_assert_bytes_equal(want, n, bin, n);
  /* block 2: the empty input, a whole 9-byte frame: content size 0 and one
   * last raw block of size 0 (block header 01 00 00) */
  n = rt_hex("00 09 28 b5 2f fd 20 00 01 00 00", want, sizeof want);
  desert_assert_bytes_equal(want, n, bin + 0x17, n);
  /* block 3: plain 432 (b0 03); descriptor 60: 2-byte content size, stored
   * minus 256 (0x00b0 + 256 = 432) */
  n = rt_hex("b0 03", want, sizeof want);
  desert_assert_bytes_equal(want, n, bin + 0x22, n);
  n = rt_hex("28 b5 2f fd 60 b0 00", want, sizeof want);
  desert_assert_bytes_equal(want, n, bin + 0x25, n);
  assert_int_equal(len, 0x25 + bin[0x24]);
  for (size_t k = 0; k < isa_count; k++) {
    desert_reader *r = reader_on(bin, len, 0, isas[k]);
    golden_zstd z;
    assert_int_equal(golden_zstd_read(r, &z), DESERT_OK);
    assert_int_equal(desert_reader_offset(r), len);
    assert_int_equal(z.text.len, 17);
    assert_memory_equal(z.text.ptr, "hello hello hello", 17);
    assert_int_equal(z.empty.len, 0);
    assert_int_equal(z.para.len, GOLDEN_PARA_LEN);
    for (size_t i = 0; i < GOLDEN_PARA_LEN; i += 54)
      assert_memory_equal(z.para.ptr + i, "desert golden corpus: the same words again and again, ",
                          54);
    assert_writes("zstd.bin (model)", isas[k], 0, NULL, zstd_write, &golden_zstd_model, bin, len);
    assert_writes("zstd.bin (decoded)", isas[k], 0, NULL, zstd_write, &z, bin, len);
    desert_reader_free(r);
  }
  free(bin);
}

/* ---- api_only.bin -------------------------------------------------------------------- */

static desert_status api_only_write(desert_writer *w, const void *m) {
  return golden_api_only_write(w, m);
}

static void test_api_only(void **state) {
  (void)state;
  size_t len = 0;
  uint8_t *bin = must_read_bin(GOLDEN_CORPUS_API_ONLY, &len);
  uint8_t want[256];
  size_t n = rt_hex("80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01"     /* u128 2^127+1 */
                    "ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff fe"     /* i128 -2 */
                    "| 00 0a 01 02 03"                                    /* IpAddr V4 (§13.5) */
                    "| 01 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01" /* V6 */
                    "| 00 1a 2b 3c 4d 5e"                                 /* MacAddress (§13.6) */
                    "| 32 68 74 74 70 73 3a 2f 2f 65 78 61 6d 70 6c 65 2e 6f 72 67 2f 61 3f 62 3d 63"
                    "| 01 00 00 00 05 | 02 ff ff ff ff | 00"  /* Bound (§7) */
                    "| 00 00 00 01 00 00 00 03"              /* Range 1..3 (§7) */
                    "| 07 7b 22 61 22 3a 31 7d"              /* serde_json text (§13.7) */
                    "| 05 00 00 00 2a"                 /* registry id 5 (§12), Int 42 */
                    "| 00 02 41 01 00 02 42 01 01 | 02", /* refs (§17): A, B, ref 1; ref 2 */
                    want, sizeof want);
  desert_assert_bytes_equal(want, n, bin, len);
  for (size_t k = 0; k < isa_count; k++) {
    desert_reader *r = reader_on(bin, len, 0, isas[k]);
    golden_api_only m;
    assert_int_equal(golden_api_only_read(r, &m), DESERT_OK);
    assert_int_equal(desert_reader_offset(r), len);
    assert_true(m.u128.hi == 0x8000000000000000u && m.u128.lo == 1u);
    assert_true(m.i128.hi == UINT64_MAX && m.i128.lo == UINT64_MAX - 1u);
    assert_false(m.ip4.is_v6);
    assert_memory_equal(m.ip4.bytes, "\x0a\x01\x02\x03", 4);
    assert_true(m.ip6.is_v6);
    assert_memory_equal(m.ip6.bytes, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
    assert_memory_equal(m.mac, "\x00\x1a\x2b\x3c\x4d\x5e", 6);
    assert_true(golden_str_eq(m.url, (desert_str)GSTR("https://example.org/a?b=c")));
    assert_memory_equal(m.bound_tags, "\x01\x02\x00", 3);
    assert_true(m.bounds[0] == 5 && m.bounds[1] == -1);
    assert_true(m.range[0] == 1 && m.range[1] == 3);
    assert_true(golden_bytes_eq(m.json, (desert_bytes)GBYTES("{\"a\":1}")));
    assert_int_equal(m.type_id, 5);
    assert_int_equal(m.registered, 42);
    /* the graph: A -> B -> A, and the second reference is B itself */
    assert_true(golden_str_eq(m.graph->name, (desert_str)GSTR("A")));
    assert_non_null(m.graph->next);
    assert_true(golden_str_eq(m.graph->next->name, (desert_str)GSTR("B")));
    assert_ptr_equal(m.graph->next->next, m.graph);
    assert_ptr_equal(m.again, m.graph->next);
    assert_writes("api_only.bin (model)", isas[k], 0, NULL, api_only_write, &golden_api_only_model, bin,
                  len);
    assert_writes("api_only.bin (decoded)", isas[k], 0, NULL, api_only_write, &m, bin, len);
    desert_reader_free(r);
  }
  free(bin);
}

int main(void) {
  desert_test_check_expected_isa();
  for (int i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++)
    if (desert_isa_runnable((desert_isa)i)) isas[isa_count++] = (desert_isa)i;
  fprintf(stderr, "golden_corpus_api: ISAs");
  for (size_t k = 0; k < isa_count; k++) fprintf(stderr, " %s", desert_isa_name(isas[k]));
  fprintf(stderr, "\n");
  golden_values_init();
  const struct CMUnitTest tests[] = {
      {"evolution (C structs)", test_table, NULL, NULL, &evolution},
      {"enums (hand-written)", test_table, NULL, NULL, &enums},
      {"options (hand-written)", test_table, NULL, NULL, &option_themes},
      {"values (C structs, hand-written)", test_table, NULL, NULL, &values},
      {"collections (C structs)", test_table, NULL, NULL, &collections},
      cmocka_unit_test(test_zstd),
      cmocka_unit_test(test_api_only),
  };
  return cmocka_run_group_tests_name("golden_corpus_api", tests, NULL, NULL);
}
