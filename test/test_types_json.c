/* test/test_types_json.c — the JSON layer (src/json): the strict parser
 * (exact number text, big integers, lone surrogates, duplicate keys, NaN,
 * nesting), the float text of docs/schema.md §11.4, every BadSchema rule of §9,
 * JSON value input rules and canonical output (§11), the testee's request
 * handling (§14), and the golden checks through the schema language:
 * dataset1.bin decodes to exactly dataset1.json, which re-encodes to
 * dataset1.bin with legacy_header_strings and to the pinned 242534-byte
 * modern form without. The golden files come from DESERT_GOLDEN_DIR; when
 * missing the golden test is skipped loudly unless DESERT_REQUIRE_GOLDEN=1.
 * SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert_build_config.h"
#include "desert/json.h"
#include "sha256.h"
#include "test_util.h"

/* ---- parser ---------------------------------------------------------------------- */

static desert_json *parse(desert_value_arena *a, const char *text) {
  desert_json *j = NULL;
  char msg[200];
  desert_status st = desert_json_parse(text, strlen(text), a, &j, msg, sizeof msg);
  if (st) return NULL;
  return j;
}

static void test_parser(void **state) {
  (void)state;
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json *j = parse(a, " {\"a\": [1, -0, 1.50, 2e3, 123456789012345678901234567890], \"b\": "
                            "\"\\ud83d\\ude00\\u00e9\"} ");
  assert_non_null(j);
  assert_int_equal(j->kind, DESERT_JSON_OBJECT);
  const desert_json *arr = desert_json_get(j, "a");
  assert_int_equal(arr->count, 5);
  assert_true(arr->items[0].integer);
  assert_true(arr->items[1].integer);
  assert_false(arr->items[2].integer);
  assert_string_equal(arr->items[2].str, "1.50"); /* exact text kept */
  assert_false(arr->items[3].integer);
  assert_string_equal(arr->items[4].str, "123456789012345678901234567890");
  const desert_json *b = desert_json_get(j, "b");
  assert_string_equal(b->str, "\xf0\x9f\x98\x80\xc3\xa9");
  assert_false(b->lone);
  /* Compact reprint: members in input order, numbers as their exact text,
   * strings re-escaped (é and the emoji are plain UTF-8). */
  desert_json_buf out = {NULL, 0, 0, false};
  desert_json_print(&out, j);
  static const char want[] = "{\"a\":[1,-0,1.50,2e3,123456789012345678901234567890],"
                             "\"b\":\"\xf0\x9f\x98\x80\xc3\xa9\"}";
  assert_false(out.failed);
  assert_int_equal(out.len, strlen(want));
  assert_memory_equal(out.data, want, out.len);
  desert_json_buf_free(&out);
  j = parse(a, "\"\\ud800x\"");
  assert_non_null(j);
  assert_true(j->lone);
  /* Syntax errors. */
  static const char *const bad[] = {
      "NaN", "[Infinity]", "{\"a\":1,\"a\":2}", "[1,]",       "{\"a\" 1}", "01",
      "1.",  "-",          "\"\x01\"",          "\"\xff\"",   "[1] x",     "",
      "tru", "{\"a\":1,}", "\"\\x\"",           "[\"\\u12\"]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (parse(a, bad[i])) fail_msg("parsed: %s", bad[i]);
  }
  /* Duplicate keys among many members (the sorted check). */
  char big[4096];
  size_t n = 0;
  n += (size_t)snprintf(big + n, sizeof big - n, "{");
  for (int i = 0; i < 100; i++) n += (size_t)snprintf(big + n, sizeof big - n, "\"k%d\":1,", i);
  snprintf(big + n, sizeof big - n, "\"k42\":2}");
  assert_null(parse(a, big));
  /* Nesting beyond the bound is refused, not a crash. */
  char *deep = malloc(20001);
  memset(deep, '[', 10000);
  memset(deep + 10000, ']', 10000);
  deep[20000] = '\0';
  assert_null(parse(a, deep));
  free(deep);
  desert_value_arena_free(a);
}

/* ---- floats (docs/schema.md §11.4) ---------------------------------------------------------- */

static void check_float(double v, bool f32, const char *want) {
  char out[32];
  desert_json_format_float(v, f32, out);
  if (strcmp(out, want) != 0)
    fail_msg("%.17g (%s): got %s, want %s", v, f32 ? "f32" : "f64", out, want);
}

static void test_float_text(void **state) {
  (void)state;
  check_float(0.1, false, "0.1");
  check_float((double)0.1f, true, "0.1");
  check_float(16777218.0, true, "16777218.0");
  check_float((double)3.4028234663852886e38, true, "3.4028235e+38");
  check_float(1e22, false, "1e+22");
  check_float(4.9406564584124654e-324, false, "5e-324");
  check_float(100.0, false, "100.0");
  check_float(0.0001, false, "0.0001");
  check_float(1.5e-05, false, "1.5e-05");
  check_float(1e16, false, "1e+16");
  check_float(1e15, false, "1000000000000000.0");
  check_float(-2.670429315021183e+18, false, "-2.670429315021183e+18");
  check_float(-1099511627776.0, false, "-1099511627776.0");
  check_float(1.234e-11, false, "1.234e-11");
  check_float((double)3.14f, true, "3.14");
  check_float(123.456, false, "123.456");
  check_float(1.0, false, "1.0");
}

/* ---- schemas (docs/schema.md §9) ---------------------------------------------------------- */

static void expect_schema(const char *doc, bool ok) {
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json *j = parse(a, doc);
  if (!j) fail_msg("test schema is not JSON: %s", doc);
  desert_schema *s = NULL;
  desert_json_error err;
  desert_status st = desert_schema_load(j, NULL, &s, &err);
  if (ok && st) fail_msg("rejected: %s\n  %s", doc, err.message);
  if (!ok && !st) fail_msg("accepted: %s", doc);
  if (!ok) assert_int_equal(err.kind, DESERT_JSON_ERR_BAD_SCHEMA);
  desert_schema_free(s);
  desert_value_arena_free(a);
}

#define S(root)        "{\"desert_schema\":1,\"root\":" root "}"
#define SD(defs, root) "{\"desert_schema\":1,\"definitions\":{" defs "},\"root\":" root "}"
#define REC(fields)    "{\"type\":\"record\",\"fields\":[" fields "]}"
#define RECE(fields, steps) \
  "{\"type\":\"record\",\"fields\":[" fields "],\"evolution\":[" steps "]}"

static void test_schema_rules(void **state) {
  (void)state;
  static const char *const good[] = {
      S("\"i32\""),
      S("{\"type\":\"i32\"}"),
      S("{\"type\":\"bytes\",\"non_empty\":true,\"length\":4}"),
      S("{\"type\":\"compressed\",\"flavour\":\"zlib\",\"level\":9}"),
      S("{\"type\":\"list\",\"element\":\"i32\",\"form\":\"unknown\",\"non_empty\":false,"
        "\"length\":0}"),
      S("{\"type\":\"map\",\"key\":\"string\",\"value\":\"i32\",\"form\":\"known\"}"),
      S("{\"type\":\"tuple\",\"elements\":[\"i32\"]}"),
      S("{\"type\":\"either\",\"left\":\"i32\",\"right\":\"unit\"}"),
      S("{\"type\":\"try\",\"success\":\"i32\",\"failure\":\"string\"}"),
      S("{\"type\":\"transparent\",\"inner\":\"i32\",\"name\":\"Id\"}"),
      S(REC("{\"name\":\"a\",\"type\":{\"type\":\"option\",\"inner\":\"i32\"},\"optional\":true}")),
      S(REC("{\"name\":\"a\",\"type\":\"i32\",\"transient\":true,\"default\":5}")),
      S(RECE("{\"name\":\"a\",\"type\":\"i32\"}",
             "{\"step\":\"FieldAdded\",\"field\":\"a\",\"default\":1},"
             "{\"step\":\"FieldAdded\",\"field\":\"gone\",\"default\":\"anything\"},"
             "{\"step\":\"FieldRemoved\",\"field\":\"z\"}")),
      S("{\"type\":\"enum\",\"order\":\"sorted\",\"constructors\":[{\"name\":\"A\"},"
        "{\"name\":\"B\",\"type\":\"i32\"},{\"name\":\"C\",\"transient\":true,\"type\":\"x\"}]}"),
      SD("\"T\":" REC("{\"name\":\"c\",\"type\":\"T\",\"optional\":true}"), "\"T\""),
      SD("\"A\":\"B\",\"B\":\"i32\",\"ref\":\"i32\"", "\"A\""),
      "{\"desert_schema\":1,\"options\":{\"scala_chars\":true,\"compression\":\"zlib\","
      "\"removed_optional_style\":\"scala\",\"strict_tags\":false,\"strict_varint\":false,"
      "\"legacy_header_strings\":false},\"root\":\"char\"}",
  };
  static const char *const bad[] = {
      "[]",
      "{\"root\":\"i32\"}",
      "{\"desert_schema\":1}",
      "{\"desert_schema\":2,\"root\":\"i32\"}",
      "{\"desert_schema\":1.0,\"root\":\"i32\"}",
      "{\"desert_schema\":\"1\",\"root\":\"i32\"}",
      "{\"desert_schema\":1,\"root\":\"i32\",\"extra\":1}",
      "{\"desert_schema\":1,\"options\":[],\"root\":\"i32\"}",
      "{\"desert_schema\":1,\"options\":{\"nope\":true},\"root\":\"i32\"}",
      "{\"desert_schema\":1,\"options\":{\"scala_chars\":\"yes\"},\"root\":\"i32\"}",
      "{\"desert_schema\":1,\"options\":{\"compression\":\"gzip\"},\"root\":\"i32\"}",
      "{\"desert_schema\":1,\"definitions\":[],\"root\":\"i32\"}",
      SD("\"\":\"i32\"", "\"i32\""),
      SD("\"i32\":\"i64\"", "\"i32\""),
      SD("\"list\":\"i64\"", "\"i32\""),
      S("5"),
      S("null"),
      S("\"Nope\""),
      S("\"list\""),
      S("{\"type\":\"Nope\"}"),
      S("{\"element\":\"i32\"}"),
      S("{\"type\":\"i32\",\"x\":1}"),
      SD("\"A\":\"i32\"", "{\"type\":\"A\"}"),
      S("{\"type\":\"list\"}"),
      S("{\"type\":\"list\",\"element\":\"i32\",\"form\":\"weird\"}"),
      S("{\"type\":\"list\",\"element\":\"i32\",\"non_empty\":1}"),
      S("{\"type\":\"list\",\"element\":\"i32\",\"length\":-1}"),
      S("{\"type\":\"list\",\"element\":\"i32\",\"length\":2147483648}"),
      S("{\"type\":\"list\",\"element\":\"i32\",\"length\":1.5}"),
      S("{\"type\":\"set\",\"element\":\"i32\",\"length\":1}"),
      S("{\"type\":\"map\",\"key\":\"i32\"}"),
      S("{\"type\":\"option\"}"),
      S("{\"type\":\"either\",\"left\":\"i32\"}"),
      S("{\"type\":\"try\",\"success\":\"i32\"}"),
      S("{\"type\":\"tuple\",\"elements\":[]}"),
      S("{\"type\":\"tuple\",\"elements\":\"i32\"}"),
      S("{\"type\":\"transparent\"}"),
      S("{\"type\":\"bytes\",\"length\":\"3\"}"),
      S("{\"type\":\"compressed\",\"flavour\":\"gzip\"}"),
      S("{\"type\":\"compressed\",\"level\":10}"),
      S("{\"type\":\"string\",\"non_empty\":true}"),
      S("{\"type\":\"record\"}"),
      S("{\"type\":\"record\",\"fields\":{}}"),
      S(REC("{\"type\":\"i32\"}")),
      S(REC("{\"name\":\"a\"}")),
      S(REC("{\"name\":\"\",\"type\":\"i32\"}")),
      S(REC("{\"name\":\"$a\",\"type\":\"i32\"}")),
      S(REC("{\"name\":\"a\",\"type\":\"i32\"},{\"name\":\"a\",\"type\":\"i64\"}")),
      S(REC("{\"name\":\"a\",\"type\":\"i32\",\"transient\":true}")),
      S(REC("{\"name\":\"a\",\"type\":\"i32\",\"default\":1}")),
      S(REC("{\"name\":\"a\",\"type\":{\"type\":\"option\",\"inner\":\"i32\"}}")),
      S(REC("{\"name\":\"a\",\"type\":\"i32\",\"extra\":1}")),
      S(REC("{\"name\":\"a\",\"type\":\"i32\",\"transient\":true,\"default\":\"x\"}")),
      S("{\"type\":\"record\",\"fields\":[],\"evolution\":{}}"),
      S(RECE("", "{\"step\":\"FieldGone\",\"field\":\"a\"}")),
      S(RECE("", "{\"step\":\"FieldRemoved\"}")),
      S(RECE("", "{\"step\":\"FieldRemoved\",\"field\":\"\"}")),
      S(RECE("", "{\"step\":\"FieldRemoved\",\"field\":\"a\",\"default\":1}")),
      S(RECE("{\"name\":\"a\",\"type\":\"i32\"}",
             "{\"step\":\"FieldAdded\",\"field\":\"a\",\"default\":\"t\"}")),
      S("{\"type\":\"enum\",\"constructors\":[]}"),
      S("{\"type\":\"enum\"}"),
      S("{\"type\":\"enum\",\"constructors\":[{\"name\":\"A\"},{\"name\":\"A\"}]}"),
      S("{\"type\":\"enum\",\"constructors\":[{\"name\":\"A\",\"type\":\"i32\",\"fields\":[]}]}"),
      S("{\"type\":\"enum\",\"order\":\"random\",\"constructors\":[{\"name\":\"A\"}]}"),
      SD("\"A\":{\"type\":\"transparent\",\"inner\":\"A\"}", "\"A\""),
      SD("\"A\":\"B\",\"B\":\"A\"", "\"i32\""),
      S(REC("{\"name\":\"\\ud800\",\"type\":\"i32\"}")),
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) expect_schema(good[i], true);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) expect_schema(bad[i], false);
  /* More than 127 steps. */
  char *doc = malloc(16384);
  size_t n = (size_t)snprintf(
      doc, 16384,
      "{\"desert_schema\":1,\"root\":{\"type\":\"record\",\"fields\":[],\"evolution\":[");
  for (int i = 0; i < 128; i++)
    n += (size_t)snprintf(doc + n, 16384 - n, "%s{\"step\":\"FieldRemoved\",\"field\":\"f%d\"}",
                          i ? "," : "", i);
  snprintf(doc + n, 16384 - n, "]}}");
  expect_schema(doc, false);
  free(doc);
}

/* ---- the testee (values in and out, docs/schema.md §11 and §14) ------------------------------ */

/* Sends one request line; compares the response line. */
static void exchange(desert_json_testee *t, const char *req, const char *want) {
  desert_json_buf out = {0};
  assert_true(desert_json_testee_line(t, req, strlen(req), &out));
  assert_non_null(out.data);
  assert_true(out.len > 0 && out.data[out.len - 1] == '\n');
  out.data[out.len - 1] = '\0';
  if (strcmp(out.data, want) != 0)
    fail_msg("request %s\n  got  %s\n  want %s", req, out.data, want);
  desert_json_buf_free(&out);
}

/* Only the error kind is compared (messages are free text). */
static void exchange_kind(desert_json_testee *t, const char *req, const char *kind) {
  desert_json_buf out = {0};
  assert_true(desert_json_testee_line(t, req, strlen(req), &out));
  char pat[96];
  snprintf(pat, sizeof pat, "\"kind\":\"%s\"", kind);
  if (!strstr(out.data, pat)) fail_msg("request %s\n  got %s\n  want kind %s", req, out.data, kind);
  /* Whatever the message holds, the line is valid JSON in UTF-8. */
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  assert_non_null(parse(a, out.data));
  desert_value_arena_free(a);
  desert_json_buf_free(&out);
}

#define ROOT(r) "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":" r "},"

static void test_testee_values(void **state) {
  (void)state;
  desert_json_testee *t;
  assert_int_equal(desert_json_testee_create(&t), DESERT_OK);
  desert_json_buf out = {0};
  assert_false(desert_json_testee_line(t, "  \t\r", 4, &out));
  assert_int_equal(out.len, 0);
  exchange_kind(t, "not json", "BadRequest");
  exchange_kind(t, "{\"id\":1.5,\"schema\":{},\"encode\":1}", "BadRequest");
  exchange_kind(t, "{\"id\":9223372036854775808,\"schema\":{},\"encode\":1}", "BadRequest");
  exchange(t,
           "{\"id\":-9223372036854775808,\"schema\":{\"desert_schema\":1,\"root\":\"unit\"},"
           "\"encode\":null}",
           "{\"id\":-9223372036854775808,\"bytes\":\"\"}");
  exchange(t, "{\"id\":\"s\",\"schema\":{},\"decode\":\"0\"}",
           "{\"id\":\"s\",\"error\":{\"kind\":\"BadRequest\",\"message\":\"\\\"decode\\\" must be "
           "a hex string\"}}");
  exchange_kind(t, "{\"id\":1,\"schema\":{},\"encode\":1,\"x\":1}", "BadRequest");
  exchange_kind(t, "{\"id\":1,\"schema\":{},\"encode\":1,\"options\":{\"x\":1}}", "BadRequest");
  exchange_kind(t, "{\"id\":1,\"schema\":[],\"encode\":1}", "BadSchema");
  /* Integers: any size in input, range-checked. */
  exchange(t, ROOT("\"u64\"") "\"encode\":18446744073709551615}",
           "{\"id\":1,\"bytes\":\"ffffffffffffffff\"}");
  exchange_kind(t, ROOT("\"u64\"") "\"encode\":18446744073709551616}", "BadValue");
  exchange_kind(t, ROOT("\"i8\"") "\"encode\":1.0}", "BadValue");
  exchange(t, ROOT("\"i8\"") "\"encode\":-0}", "{\"id\":1,\"bytes\":\"00\"}");
  /* Floats from their text, NaN strings, bit patterns; canonical output. */
  exchange(t, ROOT("\"f32\"") "\"encode\":0.1}", "{\"id\":1,\"bytes\":\"3dcccccd\"}");
  exchange(t, ROOT("\"f32\"") "\"encode\":16777217}", "{\"id\":1,\"bytes\":\"4b800000\"}");
  exchange(t, ROOT("\"f64\"") "\"encode\":-0.0}", "{\"id\":1,\"bytes\":\"8000000000000000\"}");
  exchange(t, ROOT("\"f64\"") "\"encode\":\"NaN\"}", "{\"id\":1,\"bytes\":\"7ff8000000000000\"}");
  exchange_kind(t, ROOT("\"f32\"") "\"encode\":1e39}", "BadValue");
  exchange(t, ROOT("\"f32\"") "\"encode\":1e-50}", "{\"id\":1,\"bytes\":\"00000000\"}");
  exchange_kind(t, ROOT("\"f64\"") "\"encode\":{\"f32_bits\":\"00000000\"}}", "BadValue");
  exchange(t, ROOT("\"f32\"") "\"decode\":\"ffc00001\"}",
           "{\"id\":1,\"value\":{\"f32_bits\":\"ffc00001\"},\"consumed\":4}");
  exchange(t, ROOT("\"f32\"") "\"decode\":\"7f7fffff\"}",
           "{\"id\":1,\"value\":3.4028235e+38,\"consumed\":4}");
  /* Strings: escapes of docs/schema.md §11.5, lone surrogates refused. */
  exchange(t, ROOT("\"string\"") "\"decode\":\"14225c0a0d09080c017f2f\"}",
           "{\"id\":1,\"value\":\"\\\"\\\\\\n\\r\\t\\b\\f\\u0001\x7f/\",\"consumed\":11}");
  exchange_kind(t, ROOT("\"string\"") "\"encode\":\"\\udc00\"}", "BadValue");
  exchange_kind(t, ROOT("\"char\"") "\"encode\":\"ab\"}", "BadValue");
  exchange(t, ROOT("\"char\"") "\"encode\":\"\\ud83d\\ude00\"}", "{\"id\":1,\"bytes\":\"80ec07\"}");
  exchange_kind(t, ROOT("\"char16\"") "\"encode\":\"\\ud83d\\ude00\"}", "UnsupportedCharacter");
  /* Bytes, UUIDs, big numbers. */
  exchange(t, ROOT("\"bytes\"") "\"encode\":\"0A0b\"}", "{\"id\":1,\"bytes\":\"020a0b\"}");
  exchange_kind(t, ROOT("\"bytes\"") "\"encode\":\"0g\"}", "BadValue");
  exchange(t, ROOT("\"uuid\"") "\"encode\":\"D90C4285-544D-424D-885C-3940FE00883D\"}",
           "{\"id\":1,\"bytes\":\"d90c4285544d424d885c3940fe00883d\"}");
  exchange(t, ROOT("\"bigint\"") "\"encode\":\"-129\"}", "{\"id\":1,\"bytes\":\"02ff7f\"}");
  exchange(t, ROOT("\"bigint\"") "\"encode\":1234567890}", "{\"id\":1,\"bytes\":\"04499602d2\"}");
  exchange_kind(t, ROOT("\"bigint\"") "\"encode\":\"-0\"}", "BadValue");
  exchange_kind(t, ROOT("\"bigint\"") "\"encode\":\"01\"}", "BadValue");
  exchange(t, ROOT("\"bigint\"") "\"decode\":\"00\"}", "{\"id\":1,\"value\":\"0\",\"consumed\":1}");
  exchange_kind(t, ROOT("\"bigdecimal\"") "\"encode\":\"1e\"}", "BadValue");
  exchange(t, ROOT("\"bigdecimal\"") "\"encode\":\"-.5E+3\"}",
           "{\"id\":1,\"bytes\":\"0c2d2e35452b33\"}");
  /* Dates: ranges and the canonical key order. */
  exchange_kind(t, ROOT("\"local_date\"") "\"encode\":{\"year\":2023,\"month\":2,\"day\":29}}",
                "BadValue");
  exchange(t, ROOT("\"month_day\"") "\"encode\":{\"day\":29,\"month\":2}}",
           "{\"id\":1,\"bytes\":\"021d\"}");
  exchange(t, ROOT("\"zoned_date_time\"") "\"decode\":\"e80f0616091e057d0000a038\"}",
           "{\"id\":1,\"value\":{\"year\":2024,\"month\":6,\"day\":22,\"hour\":9,\"minute\":30,"
           "\"second\":5,\"nano\":125,\"offset\":0,\"zone\":{\"offset\":3600}},\"consumed\":12}");
  exchange_kind(t, ROOT("\"zone_offset\"") "\"encode\":64801}", "BadValue");
  /* Options, either, records, enums. */
  exchange(t, ROOT("{\"type\":\"option\",\"inner\":\"unit\"}") "\"encode\":{\"some\":null}}",
           "{\"id\":1,\"bytes\":\"01\"}");
  exchange_kind(
      t,
      ROOT("{\"type\":\"either\",\"left\":\"i8\",\"right\":\"i8\"}") "\"encode\":{\"left\":1,"
                                                                     "\"right\":2}}",
      "BadValue");
  exchange_kind(t, ROOT(REC("{\"name\":\"a\",\"type\":\"i8\"}")) "\"encode\":{\"a\":1,\"b\":2}}",
                "BadValue");
  exchange_kind(t, ROOT(REC("{\"name\":\"a\",\"type\":\"i8\"}")) "\"encode\":{}}", "BadValue");
  /* A message that cuts a long non-ASCII key still gives valid UTF-8. */
  exchange_kind(t, ROOT(REC("{\"name\":\"a\",\"type\":\"i8\"}")) "\"encode\":{\"a\":1,\""
                "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                "x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\":2}}",
                "BadValue");
  exchange(t, ROOT(REC("{\"name\":\"a\",\"type\":\"i8\",\"optional\":true}")) "\"encode\":{}}",
           "{\"id\":1,\"bytes\":\"0000\"}");
  exchange_kind(t,
                ROOT("{\"type\":\"enum\",\"constructors\":[{\"name\":\"A\"}]}") "\"encode\":{\"$"
                                                                                "case\":\"B\"}}",
                "InvalidConstructorName");
  exchange_kind(
      t,
      ROOT(
          "{\"type\":\"enum\",\"constructors\":[{\"name\":\"A\",\"type\":\"unit\"}]}") "\"encode\":"
                                                                                       "{\"$case\":"
                                                                                       "\"A\"}}",
      "BadValue");
  exchange(
      t,
      ROOT(
          "{\"type\":\"enum\",\"constructors\":[{\"name\":\"A\",\"type\":\"unit\"}]}") "\"decode\":"
                                                                                       "\"0000\"}",
      "{\"id\":1,\"value\":{\"$case\":\"A\",\"value\":null},\"consumed\":2}");
  /* Decode errors carry offsets; limits are DeserializationFailure. */
  exchange(t, ROOT("{\"type\":\"list\",\"element\":\"unit\"}") "\"decode\":\"05\"}",
           "{\"id\":1,\"error\":{\"kind\":\"DeserializationFailure\",\"message\":\"negative length "
           "or count\",\"offset\":0}}");
  exchange_kind(t, ROOT("{\"type\":\"list\",\"element\":\"unit\"}") "\"decode\":\"feffffff0f\"}",
                "DeserializationFailure");
  desert_json_testee_free(t);
}

/* ---- golden dataset through the schema language ------------------------------------------- */

static void test_golden(void **state) {
  (void)state;
  size_t bin_len, json_len, schema_len;
  char *bin = desert_test_read_file(DESERT_GOLDEN_DIR "/dataset1.bin", &bin_len);
  char *json = desert_test_read_file(DESERT_GOLDEN_DIR "/dataset1.json", &json_len);
  char *schema =
      desert_test_read_file(DESERT_GOLDEN_DIR "/dataset1.schema.json", &schema_len);
  if (!bin || !json || !schema) {
    const char *req = getenv("DESERT_REQUIRE_GOLDEN");
    free(bin);
    free(json);
    free(schema);
    if (req && strcmp(req, "1") == 0) fail_msg("golden files missing in %s", DESERT_GOLDEN_DIR);
    fprintf(stderr, "SKIP: golden files missing in %s\n", DESERT_GOLDEN_DIR);
    skip();
  }
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json *doc = NULL, *value = NULL;
  char msg[200];
  assert_int_equal(desert_json_parse(schema, schema_len, a, &doc, msg, sizeof msg), DESERT_OK);
  desert_schema *s = NULL;
  desert_json_error err;
  assert_int_equal(desert_schema_load(doc, NULL, &s, &err), DESERT_OK);

  /* Decoding prints exactly dataset1.json (which ends with a newline). */
  desert_reader *r;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  desert_json_buf out = {0};
  size_t consumed = 0;
  assert_int_equal(desert_json_decode(s, r, bin, bin_len, a, &out, &consumed, &err), DESERT_OK);
  assert_int_equal(consumed, bin_len);
  desert_json_buf_put(&out, "\n", 1);
  desert_assert_bytes_equal(json, json_len, out.data, out.len);

  /* Re-encoding: legacy scoping gives the file back, the modern writer the pinned form. */
  assert_int_equal(desert_json_parse(json, json_len, a, &value, msg, sizeof msg), DESERT_OK);
  desert_options o;
  desert_options_init(&o);
  o.flags = DESERT_OPT_LEGACY_HEADER_STRINGS;
  desert_writer *w;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_json_encode(s, value, w, a, &err), DESERT_OK);
  size_t n;
  const uint8_t *bytes = desert_writer_data(w, &n);
  desert_assert_bytes_equal(bin, bin_len, bytes, n);
  desert_writer_free(w);
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_json_encode(s, value, w, a, &err), DESERT_OK);
  bytes = desert_writer_data(w, &n);
  assert_int_equal(n, 242534);
  char hex[65];
  desert_test_sha256_hex(bytes, n, hex);
  assert_string_equal(hex, "035c37a27b526accc933f271327f54db22695fa8e6a100058f1257db922ad079");
  desert_writer_free(w);

  desert_json_buf_free(&out);
  desert_reader_free(r);
  desert_schema_free(s);
  desert_value_arena_free(a);
  free(bin);
  free(json);
  free(schema);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parser),       cmocka_unit_test(test_float_text),
      cmocka_unit_test(test_schema_rules), cmocka_unit_test(test_testee_values),
      cmocka_unit_test(test_golden),
  };
  return cmocka_run_group_tests_name("types_json", tests, NULL, NULL);
}
