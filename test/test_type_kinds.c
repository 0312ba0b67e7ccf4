/* test/test_type_kinds.c — every kind of DESERT_TYPE_KINDS (include/desert/types.h)
 * has its handlers: a schema whose root is that kind loads, a sample value in
 * canonical JSON (docs/schema.md §11) encodes, the bytes decode back through
 * the runtime types and through the JSON layer to the same JSON text, and the
 * kind's name and built-in node agree with the list. The samples come from a
 * switch without a default arm, compiled with -Wswitch-enum, so a kind added
 * to the list without a sample fails this file's build; one that has a
 * sample but lacks a handler fails here. With an output directory argument
 * it also writes one schema document per kind (kind_<name>.schema.json) for
 * test/scripts/type_kinds_gen_c.cmake, which runs `desert gen-c` on them and
 * compiles the result.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "desert.h"
#include "desert/json.h"

/* The sample of one kind: its schema type (JSON) and one value of it in
 * canonical JSON. */
typedef struct kind_sample {
  const char *type;
  const char *value;
} kind_sample;

#define DATE   "\"year\":2024,\"month\":2,\"day\":29"
#define TIME   "\"hour\":23,\"minute\":59,\"second\":58,\"nano\":123456789"
#define RECORD "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"i32\"}]}"

static kind_sample sample_of(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_BOOL: return (kind_sample){"\"bool\"", "true"};
  case DESERT_TYPE_I8: return (kind_sample){"\"i8\"", "-128"};
  case DESERT_TYPE_I16: return (kind_sample){"\"i16\"", "-32768"};
  case DESERT_TYPE_I32: return (kind_sample){"\"i32\"", "-2147483648"};
  case DESERT_TYPE_I64: return (kind_sample){"\"i64\"", "-9223372036854775808"};
  case DESERT_TYPE_U8: return (kind_sample){"\"u8\"", "255"};
  case DESERT_TYPE_U16: return (kind_sample){"\"u16\"", "65535"};
  case DESERT_TYPE_U32: return (kind_sample){"\"u32\"", "4294967295"};
  case DESERT_TYPE_U64: return (kind_sample){"\"u64\"", "18446744073709551615"};
  case DESERT_TYPE_F32: return (kind_sample){"\"f32\"", "1.5"};
  case DESERT_TYPE_F64: return (kind_sample){"\"f64\"", "-2.25"};
  case DESERT_TYPE_UNIT: return (kind_sample){"\"unit\"", "null"};
  case DESERT_TYPE_CHAR: return (kind_sample){"\"char\"", "\"\xc3\xa9\""};
  case DESERT_TYPE_CHAR16: return (kind_sample){"\"char16\"", "\"z\""};
  case DESERT_TYPE_STRING: return (kind_sample){"\"string\"", "\"desert\""};
  case DESERT_TYPE_DEDUP_STRING: return (kind_sample){"\"dedup_string\"", "\"dune\""};
  case DESERT_TYPE_VAR_U32: return (kind_sample){"\"var_u32\"", "300"};
  case DESERT_TYPE_VAR_I32: return (kind_sample){"\"var_i32\"", "-300"};
  case DESERT_TYPE_BYTES: return (kind_sample){"\"bytes\"", "\"00ff10\""};
  case DESERT_TYPE_UUID:
    return (kind_sample){"\"uuid\"", "\"123e4567-e89b-12d3-a456-426614174000\""};
  case DESERT_TYPE_DURATION:
    return (kind_sample){"\"duration\"", "{\"seconds\":-5,\"nanos\":7}"};
  case DESERT_TYPE_INSTANT:
    return (kind_sample){"\"instant\"", "{\"seconds\":1700000000,\"nanos\":999999999}"};
  case DESERT_TYPE_BIGINT:
    return (kind_sample){"\"bigint\"", "\"-123456789012345678901234567890\""};
  case DESERT_TYPE_BIGDECIMAL: return (kind_sample){"\"bigdecimal\"", "\"-12.5e3\""};
  case DESERT_TYPE_BIGDECIMAL_BINARY:
    return (kind_sample){"\"bigdecimal_binary\"", "{\"unscaled\":\"-125\",\"scale\":1}"};
  case DESERT_TYPE_COMPRESSED: return (kind_sample){"\"compressed\"", "\"6161616161616161\""};
  case DESERT_TYPE_DAY_OF_WEEK: return (kind_sample){"\"day_of_week\"", "7"};
  case DESERT_TYPE_MONTH: return (kind_sample){"\"month\"", "12"};
  case DESERT_TYPE_YEAR: return (kind_sample){"\"year\"", "-44"};
  case DESERT_TYPE_MONTH_DAY:
    return (kind_sample){"\"month_day\"", "{\"month\":2,\"day\":29}"};
  case DESERT_TYPE_YEAR_MONTH:
    return (kind_sample){"\"year_month\"", "{\"year\":1999,\"month\":12}"};
  case DESERT_TYPE_PERIOD:
    return (kind_sample){"\"period\"", "{\"years\":1,\"months\":-2,\"days\":3}"};
  case DESERT_TYPE_ZONE_OFFSET: return (kind_sample){"\"zone_offset\"", "-18000"};
  case DESERT_TYPE_ZONE_ID: return (kind_sample){"\"zone_id\"", "{\"region\":\"Europe/Paris\"}"};
  case DESERT_TYPE_LOCAL_DATE: return (kind_sample){"\"local_date\"", "{" DATE "}"};
  case DESERT_TYPE_LOCAL_TIME: return (kind_sample){"\"local_time\"", "{" TIME "}"};
  case DESERT_TYPE_LOCAL_DATE_TIME:
    return (kind_sample){"\"local_date_time\"", "{" DATE "," TIME "}"};
  case DESERT_TYPE_OFFSET_TIME:
    return (kind_sample){"\"offset_time\"", "{" TIME ",\"offset\":3600}"};
  case DESERT_TYPE_OFFSET_DATE_TIME:
    return (kind_sample){"\"offset_date_time\"", "{" DATE "," TIME ",\"offset\":-3600}"};
  case DESERT_TYPE_ZONED_DATE_TIME:
    return (kind_sample){"\"zoned_date_time\"", "{" DATE "," TIME ",\"offset\":3600,\"zone\":"
                                                "{\"region\":\"Europe/Paris\"}}"};
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
    return (kind_sample){"\"rust_datetime_fixed_offset\"", "{" DATE "," TIME ",\"offset\":86399}"};
  case DESERT_TYPE_RUST_DATETIME_TZ:
    return (kind_sample){"\"rust_datetime_tz\"", "{" DATE "," TIME ",\"zone\":\"Asia/Tokyo\"}"};
  case DESERT_TYPE_LIST:
    return (kind_sample){"{\"type\":\"list\",\"element\":\"i32\"}", "[1,-2,3]"};
  case DESERT_TYPE_SET:
    return (kind_sample){"{\"type\":\"set\",\"element\":\"string\"}", "[\"a\",\"b\"]"};
  case DESERT_TYPE_MAP:
    return (kind_sample){"{\"type\":\"map\",\"key\":\"string\",\"value\":\"i32\"}",
                         "[[\"a\",1],[\"b\",2]]"};
  case DESERT_TYPE_OPTION:
    return (kind_sample){"{\"type\":\"option\",\"inner\":\"i32\"}", "42"};
  case DESERT_TYPE_EITHER:
    return (kind_sample){"{\"type\":\"either\",\"left\":\"i32\",\"right\":\"string\"}",
                         "{\"right\":\"r\"}"};
  case DESERT_TYPE_TRY:
    return (kind_sample){"{\"type\":\"try\",\"failure\":\"string\",\"success\":\"i32\"}",
                         "{\"success\":9}"};
  case DESERT_TYPE_TUPLE:
    return (kind_sample){"{\"type\":\"tuple\",\"elements\":[\"i32\",\"string\"]}", "[5,\"x\"]"};
  case DESERT_TYPE_RECORD: return (kind_sample){RECORD, "{\"a\":-7}"};
  case DESERT_TYPE_ENUM:
    return (kind_sample){"{\"type\":\"enum\",\"name\":\"E\",\"constructors\":[{\"name\":\"A\"},"
                         "{\"name\":\"B\",\"fields\":[{\"name\":\"x\",\"type\":\"u8\"}]}]}",
                         "{\"$case\":\"B\",\"x\":200}"};
  case DESERT_TYPE_TRANSPARENT:
    return (kind_sample){"{\"type\":\"transparent\",\"name\":\"W\",\"inner\":\"u16\"}", "500"};
  case DESERT_TYPE_REF: return (kind_sample){"\"Target\"", "{\"a\":11}"};
  case DESERT_TYPE_KIND_COUNT_: break;
  }
  return (kind_sample){NULL, NULL};
}

/* The kinds in list order, with the list's numbers and names. */
typedef struct kind_entry {
  desert_type_kind kind;
  int value;
  const char *name;
  const char *group;
  size_t components;
} kind_entry;

#define ENTRY(kind, value, name, group, components) {kind, value, name, #group, components},
static const kind_entry kinds[] = {DESERT_TYPE_KINDS(ENTRY)};
#undef ENTRY
#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

/* The schema document whose root is the sample type of kind k (REF: a
 * reference to the definition Target, a record). */
static int schema_text(char *out, size_t cap, desert_type_kind k) {
  return snprintf(out, cap,
                  "{\"desert_schema\":1,\"definitions\":{\"Target\":" RECORD "},\"root\":%s}",
                  sample_of(k).type);
}

/* The list numbers its kinds 1..n in order, names each after its
 * enumerator, and desert_type_kind_name / desert_type_builtin /
 * desert_type_component_count answer from it. */
static void test_list_numbers_and_names(void **state) {
  (void)state;
  assert_int_equal(KIND_COUNT, DESERT_TYPE_KIND_COUNT_ - 1);
  for (size_t i = 0; i < KIND_COUNT; i++) {
    assert_int_equal(kinds[i].value, (int)i + 1);
    assert_int_equal((int)kinds[i].kind, kinds[i].value);
    assert_string_equal(desert_type_kind_name(kinds[i].kind), kinds[i].name);
    assert_int_equal(desert_type_component_count(kinds[i].kind), kinds[i].components);
    const desert_type *b = desert_type_builtin(kinds[i].kind);
    if (strcmp(kinds[i].group, "BUILTIN") == 0) {
      assert_non_null(b);
      assert_int_equal(b->kind, kinds[i].kind);
    } else {
      assert_null(b);
    }
  }
  assert_null(desert_type_kind_name((desert_type_kind)0));
  assert_null(desert_type_kind_name(DESERT_TYPE_KIND_COUNT_));
  assert_null(desert_type_builtin(DESERT_TYPE_KIND_COUNT_));
  /* values the format fixes (docs/schema.md §3 order, cmake/abi-layout.txt) */
  assert_int_equal(DESERT_TYPE_BOOL, 1);
  assert_int_equal(DESERT_TYPE_PERIOD, 32);
  assert_int_equal(DESERT_TYPE_LIST, 43);
  assert_int_equal(DESERT_TYPE_REF, 53);
  assert_int_equal(desert_type_component_count(DESERT_TYPE_ZONED_DATE_TIME), 9);
  assert_int_equal(desert_type_component_count(DESERT_TYPE_STRING), 0);
}

/* One kind: its sample JSON encodes, and the bytes decode to the same
 * canonical JSON, by the JSON layer and by the runtime types. */
static void round_trip(const kind_entry *e) {
  kind_sample smp = sample_of(e->kind);
  if (!smp.type) fail_msg("%s: no sample", e->name);
  char doc_text[1024];
  schema_text(doc_text, sizeof doc_text, e->kind);
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json *doc = NULL, *value = NULL;
  char msg[300];
  if (desert_json_parse(doc_text, strlen(doc_text), a, &doc, msg, sizeof msg))
    fail_msg("%s: schema text: %s", e->name, msg);
  desert_schema *s = NULL;
  desert_json_error err;
  if (desert_schema_load(doc, NULL, &s, &err)) fail_msg("%s: schema: %s", e->name, err.message);
  const desert_type *root = s->root;
  /* the root is a node of this kind (a reference stays a REF node) */
  assert_int_equal(root->kind, e->kind);

  desert_options o;
  desert_schema_options_apply(&s->options, NULL, &o);
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  assert_int_equal(desert_writer_create(&o, &w), DESERT_OK);
  assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
  if (desert_json_parse(smp.value, strlen(smp.value), a, &value, msg, sizeof msg))
    fail_msg("%s: value text: %s", e->name, msg);
  if (desert_json_encode(s, value, w, a, &err))
    fail_msg("%s: encode: %s: %s", e->name, desert_json_error_kind_name(&err), err.message);
  size_t n = 0;
  const uint8_t *bin = desert_writer_data(w, &n);
  if (e->kind != DESERT_TYPE_UNIT) assert_true(n > 0);
  uint8_t *copy = malloc(n ? n : 1);
  assert_non_null(copy);
  if (n) memcpy(copy, bin, n);

  /* the JSON layer's decode gives the sample back */
  desert_json_buf out = {0};
  size_t used = 0;
  if (desert_json_decode(s, r, copy, n, a, &out, &used, &err))
    fail_msg("%s: decode: %s: %s", e->name, desert_json_error_kind_name(&err), err.message);
  if (out.len != strlen(smp.value) || memcmp(out.data, smp.value, out.len) != 0)
    fail_msg("%s: JSON round trip:\n  got  %.*s\n  want %s", e->name, (int)out.len, out.data,
             smp.value);
  assert_int_equal(used, n);
  desert_json_buf_free(&out);

  /* the runtime types: decode, encode back to the same bytes, write JSON */
  assert_int_equal(desert_reader_begin(r, copy, n), DESERT_OK);
  desert_value *v = NULL;
  desert_type_error terr;
  if (desert_type_decode(r, root, a, NULL, &v, &terr))
    fail_msg("%s: type decode: %s (%s)", e->name, desert_status_name(terr.status), terr.path);
  desert_writer_reset(w);
  if (desert_type_encode(w, root, v, NULL, &terr))
    fail_msg("%s: type encode: %s (%s)", e->name, desert_status_name(terr.status), terr.path);
  size_t n2 = 0;
  const uint8_t *bin2 = desert_writer_data(w, &n2);
  assert_int_equal(n2, n);
  if (n) assert_memory_equal(bin2, copy, n);
  assert_int_equal(desert_json_write_value(&out, root, v), DESERT_OK);
  if (out.len != strlen(smp.value) || memcmp(out.data, smp.value, out.len) != 0)
    fail_msg("%s: value tree as JSON:\n  got  %.*s\n  want %s", e->name, (int)out.len, out.data,
             smp.value);
  desert_json_buf_free(&out);

  free(copy);
  desert_reader_free(r);
  desert_writer_free(w);
  desert_schema_free(s);
  desert_value_arena_free(a);
}

static void test_every_kind_round_trips(void **state) {
  (void)state;
  for (size_t i = 0; i < KIND_COUNT; i++) round_trip(&kinds[i]);
}

/* Writes kind_<name>.schema.json for every kind into dir. */
static int write_schemas(const char *dir) {
  for (size_t i = 0; i < KIND_COUNT; i++) {
    char path[4096], text[1024];
    snprintf(path, sizeof path, "%s/kind_%s.schema.json", dir, kinds[i].name);
    int len = schema_text(text, sizeof text, kinds[i].kind);
    FILE *f = fopen(path, "wb");
    if (!f || len < 0 || fwrite(text, 1, (size_t)len, f) != (size_t)len || fclose(f) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--write-schemas") == 0) return write_schemas(argv[2]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list_numbers_and_names),
      cmocka_unit_test(test_every_kind_round_trips),
  };
  return cmocka_run_group_tests_name("type_kinds", tests, NULL, NULL);
}
