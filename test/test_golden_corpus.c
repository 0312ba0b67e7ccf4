/* test/test_golden_corpus.c — the top-level golden/ corpus (golden/README.md)
 * through the JSON layer and the runtime types, under every runnable ISA:
 *  - every golden/<P>.bin decodes under <P>.schema.json to exactly the text
 *    of <P>.json and uses every byte; <P>.json encodes to exactly <P>.bin;
 *  - the same through desert_type_decode / desert_type_encode and
 *    desert_json_write_value on the value tree;
 *  - older readers: the current bytes under each older schema, and the
 *    older bytes under the current schema, give the hand-written
 *    *.read-by-*.json (with the consumed counts docs/format.md §9.6 predicts);
 *  - byte sequences derived by hand from docs/format.md (whole files for the
 *    record, enum and option themes; the spec's tables and examples inside
 *    the others), so the corpus is checked against the spec and not only
 *    against what today's encoder writes.
 * The hand-written API side (C-struct descriptors, hand-written codecs,
 * zstd.bin, api_only.bin) is test/test_golden_corpus_api.c.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_files.h"
#include "desert/json.h"
#include "desert/kernels.h"
#include "record_testlib.h"
#include "test_util.h"

/* ---- ISAs ------------------------------------------------------------------------ */

static desert_isa isas[DESERT_ISA_COUNT_];
static size_t isa_count;

static void find_isas(void) {
  for (int i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++)
    if (desert_isa_runnable((desert_isa)i)) isas[isa_count++] = (desert_isa)i;
}

/* ---- loading ------------------------------------------------------------------------ */

/* golden/<prefix><suffix>, which must exist. */
static uint8_t *must_read(const char *prefix, const char *suffix, size_t *len) {
  char path[1024];
  golden_corpus_path(path, sizeof path, NULL, prefix, suffix, NULL);
  uint8_t *d = golden_corpus_read(path, len);
  if (!d) fail_msg("cannot read %s", path);
  return d;
}

/* A JSON file of the corpus: one canonical line ended by '\n'. Returns the
 * text without the newline. */
static char *must_read_json(const char *prefix, const char *suffix, size_t *len) {
  char *t = (char *)must_read(prefix, suffix, len);
  if (*len == 0 || t[*len - 1] != '\n' || memchr(t, '\n', *len - 1))
    fail_msg("%s%s: not one line ended by a newline", prefix, suffix);
  t[--*len] = '\0';
  return t;
}

static desert_schema *load_schema(const char *prefix, desert_value_arena *a) {
  size_t len = 0;
  char *text = (char *)must_read(prefix, ".schema.json", &len);
  desert_json *doc = NULL;
  char msg[300];
  if (desert_json_parse(text, len, a, &doc, msg, sizeof msg))
    fail_msg("%s.schema.json: %s", prefix, msg);
  desert_schema *s = NULL;
  desert_json_error err;
  if (desert_schema_load(doc, NULL, &s, &err)) fail_msg("%s.schema.json: %s", prefix, err.message);
  free(text);
  return s;
}

/* A reader, a writer and a value arena with the document's options, pinned
 * to one ISA. */
typedef struct corpus_ctx {
  desert_reader *r;
  desert_writer *w;
  desert_value_arena *a;
} corpus_ctx;

static corpus_ctx ctx_open(const desert_schema *s, desert_isa isa) {
  desert_options o;
  desert_schema_options_apply(&s->options, NULL, &o);
  o.isa = isa;
  corpus_ctx c = {NULL, NULL, NULL};
  assert_int_equal(desert_reader_create(&o, &c.r), DESERT_OK);
  assert_int_equal(desert_writer_create(&o, &c.w), DESERT_OK);
  assert_int_equal(desert_value_arena_create(NULL, &c.a), DESERT_OK);
  return c;
}

static void ctx_close(corpus_ctx *c) {
  desert_value_arena_free(c->a);
  desert_writer_free(c->w);
  desert_reader_free(c->r);
}

/* ---- the three paths ------------------------------------------------------------------ */

/* bin under s through the JSON layer: the canonical text is `want` and
 * `consumed` bytes are used. */
static void check_decode(const char *what, const desert_schema *s, desert_isa isa,
                         const uint8_t *bin, size_t len, const char *want, size_t consumed) {
  corpus_ctx c = ctx_open(s, isa);
  desert_json_buf out = {0};
  size_t used = 0;
  desert_json_error err;
  if (desert_json_decode(s, c.r, bin, len, c.a, &out, &used, &err))
    fail_msg("%s [%s]: %s at %zu: %s", what, desert_isa_name(isa), desert_json_error_kind_name(&err),
             err.offset, err.message);
  if (out.len != strlen(want) || memcmp(out.data, want, out.len) != 0)
    fail_msg("%s [%s]:\n  got  %.*s\n  want %s", what, desert_isa_name(isa), (int)out.len,
             out.data, want);
  if (used != consumed)
    fail_msg("%s [%s]: consumed %zu, want %zu", what, desert_isa_name(isa), used, consumed);
  desert_json_buf_free(&out);
  ctx_close(&c);
}

/* json under s through the JSON layer gives exactly bin. */
static void check_encode(const char *what, const desert_schema *s, desert_isa isa,
                         const char *json, size_t json_len, const uint8_t *bin, size_t len) {
  corpus_ctx c = ctx_open(s, isa);
  desert_json *value = NULL;
  char msg[300];
  if (desert_json_parse(json, json_len, c.a, &value, msg, sizeof msg)) fail_msg("%s: %s", what, msg);
  desert_json_error err;
  if (desert_json_encode(s, value, c.w, c.a, &err))
    fail_msg("%s [%s]: %s: %s", what, desert_isa_name(isa), desert_json_error_kind_name(&err),
             err.message);
  size_t n = 0;
  const uint8_t *got = desert_writer_data(c.w, &n);
  desert_assert_bytes_equal(bin, len, got, n);
  ctx_close(&c);
}

/* The runtime types without the JSON layer in between: bin decodes to a
 * value tree that encodes back to bin, and whose canonical JSON is want. */
static void check_types(const char *what, const desert_schema *s, desert_isa isa,
                        const uint8_t *bin, size_t len, const char *want) {
  corpus_ctx c = ctx_open(s, isa);
  assert_int_equal(desert_reader_begin(c.r, bin, len), DESERT_OK);
  desert_value *v = NULL;
  desert_type_error terr;
  if (desert_type_decode(c.r, s->root, c.a, NULL, &v, &terr))
    fail_msg("%s [%s]: type decode: %s at %zu (%s)", what, desert_isa_name(isa),
             desert_status_name(terr.status), terr.offset, terr.path);
  assert_int_equal(desert_reader_offset(c.r), len);
  if (desert_type_encode(c.w, s->root, v, NULL, &terr))
    fail_msg("%s [%s]: type encode: %s (%s)", what, desert_isa_name(isa),
             desert_status_name(terr.status), terr.path);
  size_t n = 0;
  const uint8_t *got = desert_writer_data(c.w, &n);
  desert_assert_bytes_equal(bin, len, got, n);
  desert_json_buf out = {0};
  assert_int_equal(desert_json_write_value(&out, s->root, v), DESERT_OK);
  if (out.len != strlen(want) || memcmp(out.data, want, out.len) != 0)
    fail_msg("%s [%s]: value tree as JSON:\n  got  %.*s\n  want %s", what, desert_isa_name(isa),
             (int)out.len, out.data, want);
  desert_json_buf_free(&out);
  ctx_close(&c);
}

/* <prefix>.bin <-> <prefix>.json under <prefix>.schema.json, every path,
 * every ISA. */
static void check_file(const char *prefix) {
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *s = load_schema(prefix, a);
  size_t bin_len = 0, json_len = 0;
  uint8_t *bin = must_read(prefix, ".bin", &bin_len);
  char *json = must_read_json(prefix, ".json", &json_len);
  assert_true(bin_len > 0 && bin_len <= 4096); /* small files: KiB, not MiB */
  for (size_t i = 0; i < isa_count; i++) {
    check_decode(prefix, s, isas[i], bin, bin_len, json, bin_len);
    check_encode(prefix, s, isas[i], json, json_len, bin, bin_len);
    check_types(prefix, s, isas[i], bin, bin_len, json);
  }
  free(bin);
  free(json);
  desert_schema_free(s);
  desert_value_arena_free(a);
}

static void test_themes(void **state) {
  (void)state;
  for (size_t i = 0; i < golden_corpus_theme_count; i++) check_file(golden_corpus_themes[i]);
}

static void test_older_versions(void **state) {
  (void)state;
  for (size_t i = 0; i < golden_corpus_version_count; i++) {
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s.%s", golden_corpus_versions[i].name,
             golden_corpus_versions[i].version);
    check_file(prefix);
  }
}

/* ---- older readers ------------------------------------------------------------------- */

static void test_cross_reads(void **state) {
  (void)state;
  for (size_t i = 0; i < golden_corpus_version_count; i++) {
    const char *name = golden_corpus_versions[i].name;
    const char *version = golden_corpus_versions[i].version;
    char old_prefix[256], suffix[256];
    snprintf(old_prefix, sizeof old_prefix, "%s.%s", name, version);
    desert_value_arena *a = NULL;
    assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
    desert_schema *cur = load_schema(name, a);
    desert_schema *old = load_schema(old_prefix, a);
    size_t new_len = 0, old_len = 0, j1 = 0, j2 = 0;
    uint8_t *new_bin = must_read(name, ".bin", &new_len);
    uint8_t *old_bin = must_read(old_prefix, ".bin", &old_len);
    snprintf(suffix, sizeof suffix, ".read-by-%s.json", version);
    char *old_reads_new = must_read_json(name, suffix, &j1);
    char *new_reads_old = must_read_json(old_prefix, ".read-by-current.json", &j2);
    for (size_t k = 0; k < isa_count; k++) {
      check_decode(suffix, old, isas[k], new_bin, new_len, old_reads_new,
                   golden_corpus_cross_consumed(name, version, 1, new_len));
      check_decode(old_prefix, cur, isas[k], old_bin, old_len, new_reads_old,
                   golden_corpus_cross_consumed(name, version, 0, old_len));
    }
    free(new_bin);
    free(old_bin);
    free(old_reads_new);
    free(new_reads_old);
    desert_schema_free(cur);
    desert_schema_free(old);
    desert_value_arena_free(a);
  }
}

/* ---- bytes derived by hand from docs/format.md ------------------------------------------ */

/* golden/<name>.bin holds the hex text at offset `at`; whole: and nothing else. */
static void assert_hex_at(const char *name, size_t at, const char *hex, bool whole) {
  uint8_t want[1024];
  size_t n = rt_hex(hex, want, sizeof want);
  size_t len = 0;
  uint8_t *bin = must_read(name, ".bin", &len);
  if (whole) {
    desert_assert_bytes_equal(want, n, bin, len);
  } else {
    if (at + n > len) fail_msg("%s.bin: %zu bytes, want %zu at %zu", name, len, n, at);
    desert_assert_bytes_equal(want, n, bin + at, n);
  }
  free(bin);
}
#define assert_file_hex(name, hex) assert_hex_at((name), 0, (hex), true)
#define assert_file_has(name, at, hex) assert_hex_at((name), (at), (hex), false)

/* Person with six steps (docs/format.md §9.4–§9.5): chunk 0 holds id, name and
 * age (made optional at step 2: position 2 -> byte fe), chunk 1 email
 * (made optional at step 5: position byte 01), chunk 4 tags; the removed
 * names are DeduplicatedStrings ids 1 and 2. */
static void test_hand_evolution(void **state) {
  (void)state;
  assert_file_hex("evolution",
                  "06 | 22 | 22 | 01 fe | 03 0c 6c 65 67 61 63 79 | 1a | 01 01 | 03 0a 63 61 63 68 65"
                  "| 00 00 00 00 00 00 03 e9  06 41 64 61  01 00 00 00 24"
                  "| 01 1e 61 64 61 40 65 78 61 6d 70 6c 65 2e 6f 72 67"
                  "| 04 08 6d 61 74 68 0c 70 6f 65 74 72 79");
  /* version 0: no header, optional cache and legacy as Some */
  assert_file_hex("evolution.v0", "00 | 00 00 00 00 00 00 00 07 | 06 42 6f 62 | 00 00 00 29"
                                  "| 01 08 77 61 72 6d | 01 06 6f 6c 64");
  /* version 3: chunk 0 = id, name, age None, cache Some("hot") (17 bytes);
   * chunk 1 = email (15 bytes) */
  assert_file_hex("evolution.v3", "03 | 22 | 1e | 01 fe | 03 0c 6c 65 67 61 63 79"
                                  "| 00 00 00 00 00 00 00 03  04 43 79  00  01 06 68 6f 74"
                                  "| 1c 63 79 40 65 78 61 6d 70 6c 65 2e 6f 72 67");
}

/* The same model under Rust and Scala options: chars (docs/format.md §4),
 * PointV4's made-optional-then-removed label (§9.9 (d)), two Entry records
 * with the transient `cached` (header names shared or, legacy, not: §9.8), a
 * DeduplicatedString "cached" after them, and compressed blocks in the
 * option's flavour (§16: level 0 = one stored DEFLATE block). */
static void test_hand_options(void **state) {
  (void)state;
  assert_file_hex("options_rust",
                  "00 | 06 41 e9 01 ac 41"
                  "| 03 10 00 03 0a 6c 61 62 65 6c 03 01 00 00 00 0a 00 00 00 14"
                  "| 04 01 04 03 0c 63 61 63 68 65 64 02 61 01 04 03 03 02 62"
                  "| 03"
                  "| 03 08 01 03 00 fc ff 61 62 63"
                  "| 00 02 03 00");
  assert_file_hex("options_scala",
                  "00 | 06 00 41 00 e9 20 ac"
                  "| 03 10 00 01 80 03 0a 6c 61 62 65 6c 00 00 00 0a 00 00 00 14"
                  "| 04 01 04 03 0c 63 61 63 68 65 64 02 61 01 04 03 0c 63 61 63 68 65 64 02 62"
                  "| 0c 63 61 63 68 65 64"
                  "| 03 0e 78 01 01 03 00 fc ff 61 62 63 02 4d 01 27"
                  "| 00");
}

/* Enums (docs/format.md §11): declaration ids Started 0, Message 1, (Cached transient),
 * Moved 2, Raw 3, Tick 4, Renamed 5; sorted ids Circle 0, None 1, Square 2,
 * Triangle 3 (Blob transient). */
static void test_hand_enums(void **state) {
  (void)state;
  assert_file_hex("enums", "00 | 0e"
                           "| 00 00 00 | 00 01 00 04 68 69 | 00 02 00 00 00 00 01 ff ff ff ff"
                           "| 00 03 02 7a | 00 04"
                           "| 00 05 01 08 0c 02 61 02 62 01 08 74 79 70 6f"
                           "| 00 05 01 08 02 02 63 02 64 00"
                           "| 08 | 00 02 40 04 00 00 00 00 00 00 | 00 00 00 3f f0 00 00 00 00 00 00"
                           "| 00 01 00 | 00 03 00 00 00 00 03 00 00 00 04");
  assert_file_hex("enums.v0", "00 | 04 | 00 00 00 | 00 05 00 02 78 02 79 | 02 | 00 01 00");
}

/* Strings, chars and dedup (docs/format.md §4, §5, §6.1). */
static void test_hand_strings(void **state) {
  (void)state;
  /* chars: 'A', U+00E9, U+20AC, U+1F600 as var_u32; char16 as 2 bytes */
  assert_file_has("strings", 0, "00 08 41 e9 01 ac 41 80 ec 07 06 00 41 00 e9 20 ac");
  /* "hello", "", "é", "日本語", U+1F600 */
  assert_file_has("strings", 17, "0c 0a 68 65 6c 6c 6f 00 04 c3 a9 12 e6 97 a5 e6 9c ac e8 aa 9e"
                                 "08 f0 9f 98 80");
  /* the last bytes: dedup list (ids 1..4, back-references 01 03 05 01),
   * bytes 03 010203, empty block, non-empty ff, [u8; 4], and "new" = id 4 */
  size_t len = 0;
  free(must_read("strings", ".bin", &len));
  assert_file_has("strings", len - 34,
                  "10 08 73 61 6d 65 0a 6f 74 68 65 72 01 03 00 05 06 6e 65 77 01"
                  "03 01 02 03 00 01 ff 04 de ad be ef 07");
}

/* The tables of docs/format.md §3.1, §3.3, §13.3 and the UUID of §13.1
 * inside primitives.bin, and the §14 examples inside time.bin. */
static void test_hand_tables(void **state) {
  (void)state;
  /* version, true, false, -128, -2, INT32_MAX, INT64_MIN, then u8..u64 max */
  assert_file_has("primitives", 0, "00 01 00 80 ff fe 7f ff ff ff 80 00 00 00 00 00 00 00"
                                   "ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff 3d cc cc cd"
                                   "c0 04 00 00 00 00 00 00");
  /* f32: NaN, a NaN with payload, Infinity, -0.0, 16777218, FLT_MAX */
  assert_file_has("primitives", 45, "0c 7f c0 00 00 7f c0 00 01 7f 80 00 00 80 00 00 00"
                                    "4b 80 00 01 7f 7f ff ff");
  /* var_u32 table of §3.1 (9 values), var_i32 table of §3.3 (10 values) */
  assert_file_has("primitives", 135, "12 00 7f 80 01 ac 02 ff 7f 80 80 01 80 80 80 01"
                                     "80 80 80 80 01 ff ff ff ff 0f"
                                     "14 00 01 02 03 7e 7f 80 01 81 01 fe ff ff ff 0f ff ff ff ff 0f");
  /* the UUID of §13.1, then the BigInt table of §13.3 and -2^127 */
  assert_file_has("primitives", 182, "d9 0c 42 85 54 4d 42 4d 88 5c 39 40 fe 00 88 3d"
                                     "0e 01 00 01 7f 02 00 80 01 80 02 ff 7f 04 49 96 02 d2"
                                     "10 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
  /* bigdecimal_binary: scale 2 (i64), unscaled -12345 = cf c7 */
  size_t len = 0;
  free(must_read("primitives", ".bin", &len));
  assert_file_has("primitives", len - 11, "00 00 00 00 00 00 00 02 02 cf c7");
  /* the version byte, then Duration 3 s + 7 ns (§13.2) */
  assert_file_has("time", 0, "00 00 00 00 00 00 00 00 03 00 00 00 07");
  /* LocalDate 2024-06-22 and LocalTime 09:30:05.000000125 (§14) */
  assert_file_has("time", 76, "e8 0f 06 16 09 1e 05 7d");
  /* ZoneId +01:00 (§14: 00 a0 38), then the region form */
  assert_file_has("time", 55, "04 00 a0 38 01 1e");
}

/* Collections (docs/format.md §6.2–§6.4, §7, §8): the examples of §6.2 open
 * the file. */
static void test_hand_collections(void **state) {
  (void)state;
  assert_file_has("collections", 0, "00 | 04 00 00 00 01 00 00 00 02"
                                    "| 01 01 00 00 00 01 01 00 00 00 02 00"
                                    "| 00 | 01 00 | 06 01 02 03");
}

/* Stored DEFLATE blocks (RFC 1951 §3.2.4: 01, LEN, NLEN, data), raw and
 * zlib-wrapped (78 01 header, Adler-32 of "abc" = 024d0127), and the two
 * empty forms of docs/format.md §16. */
static void test_hand_compressed(void **state) {
  (void)state;
  assert_file_has("compressed", 0, "00 03 08 01 03 00 fc ff 61 62 63 | 00 02 03 00");
  assert_file_has("compressed", 99, "03 0e 78 01 01 03 00 fc ff 61 62 63 02 4d 01 27 | 00");
}

int main(void) {
  desert_test_check_expected_isa();
  find_isas();
  fprintf(stderr, "golden_corpus: ISAs");
  for (size_t k = 0; k < isa_count; k++) fprintf(stderr, " %s", desert_isa_name(isas[k]));
  fprintf(stderr, "\n");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_themes),          cmocka_unit_test(test_older_versions),
      cmocka_unit_test(test_cross_reads),     cmocka_unit_test(test_hand_evolution),
      cmocka_unit_test(test_hand_options),    cmocka_unit_test(test_hand_enums),
      cmocka_unit_test(test_hand_strings),    cmocka_unit_test(test_hand_tables),
      cmocka_unit_test(test_hand_collections), cmocka_unit_test(test_hand_compressed),
  };
  return cmocka_run_group_tests_name("golden_corpus", tests, NULL, NULL);
}
