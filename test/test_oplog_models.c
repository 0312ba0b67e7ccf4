/* test/test_oplog_models.c — desert-rust's benchmark models in the golden/
 * corpus (golden/README.md: oplog, golem_oplog, evolution_stress), under
 * every runnable ISA in one process (and once per DESERT_FORCE_ISA through
 * test/golden_corpus.cmake):
 *  - every sample decodes to its JSON using every byte and re-encodes byte
 *    for byte, through the JSON layer and through the runtime types;
 *  - evolution_stress: both cross reads, and the one-way upgrades
 *    (*.v1.upgraded.json) with the bytes docs/format.md §9.6 leaves unread; the
 *    old readers fail on the one-way themes' current bytes with the status
 *    §9.6 names;
 *  - bytes derived by hand from docs/format.md and the Rust derive: one entry per
 *    OplogEntry constructor (sorted ids), Value and GolemOplogEntry
 *    (declaration ids), whole sample files;
 *  - golem_oplog's OplogPayload::External, which the schema language cannot
 *    express, fails loudly both ways instead of decoding to a wrong value.
 * The generic corpus suites (test_golden_corpus, _gen_c, golden_corpus_cli)
 * cover the same files; this suite adds what is specific to these models.
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

static desert_isa isas[DESERT_ISA_COUNT_];
static size_t isa_count;

/* ---- loading ------------------------------------------------------------------------ */

static uint8_t *must_read(const char *prefix, const char *suffix, size_t *len) {
  char path[1024];
  golden_corpus_path(path, sizeof path, NULL, prefix, suffix, NULL);
  uint8_t *d = golden_corpus_read(path, len);
  if (!d) fail_msg("cannot read %s", path);
  return d;
}

/* One canonical line ended by '\n'; returned without the newline. */
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

typedef struct ctx {
  desert_reader *r;
  desert_writer *w;
  desert_value_arena *a;
} ctx;

static ctx ctx_open(const desert_schema *s, desert_isa isa) {
  desert_options o;
  desert_schema_options_apply(&s->options, NULL, &o);
  o.isa = isa;
  ctx c = {NULL, NULL, NULL};
  assert_int_equal(desert_reader_create(&o, &c.r), DESERT_OK);
  assert_int_equal(desert_writer_create(&o, &c.w), DESERT_OK);
  assert_int_equal(desert_value_arena_create(NULL, &c.a), DESERT_OK);
  return c;
}

static void ctx_close(ctx *c) {
  desert_value_arena_free(c->a);
  desert_writer_free(c->w);
  desert_reader_free(c->r);
}

/* ---- the paths ------------------------------------------------------------------------ */

/* bin under s through the JSON layer gives exactly `want`, using `consumed` bytes. */
static void check_decode(const char *what, const desert_schema *s, desert_isa isa,
                         const uint8_t *bin, size_t len, const char *want, size_t consumed) {
  ctx c = ctx_open(s, isa);
  desert_json_buf out = {0};
  size_t used = 0;
  desert_json_error err;
  if (desert_json_decode(s, c.r, bin, len, c.a, &out, &used, &err))
    fail_msg("%s [%s]: %s at %zu: %s", what, desert_isa_name(isa),
             desert_json_error_kind_name(&err), err.offset, err.message);
  if (out.len != strlen(want) || memcmp(out.data, want, out.len) != 0)
    fail_msg("%s [%s]:\n  got  %.*s\n  want %s", what, desert_isa_name(isa), (int)out.len, out.data,
             want);
  if (used != consumed)
    fail_msg("%s [%s]: consumed %zu, want %zu", what, desert_isa_name(isa), used, consumed);
  desert_json_buf_free(&out);
  ctx_close(&c);
}

/* bin under s fails to decode with status st. */
static void check_decode_fails(const char *what, const desert_schema *s, desert_isa isa,
                               const uint8_t *bin, size_t len, desert_status st) {
  ctx c = ctx_open(s, isa);
  desert_json_buf out = {0};
  size_t used = 0;
  desert_json_error err;
  memset(&err, 0, sizeof err);
  desert_status got = desert_json_decode(s, c.r, bin, len, c.a, &out, &used, &err);
  if (got == DESERT_OK || err.status != st)
    fail_msg("%s [%s]: status %s (%s), want %s", what, desert_isa_name(isa),
             desert_status_name(got), desert_status_name(err.status), desert_status_name(st));
  desert_json_buf_free(&out);
  ctx_close(&c);
}

/* json under s through the JSON layer: exactly bin (st DESERT_OK), or failure st. */
static void check_encode(const char *what, const desert_schema *s, desert_isa isa, const char *json,
                         const uint8_t *bin, size_t len, desert_status st) {
  ctx c = ctx_open(s, isa);
  desert_json *value = NULL;
  char msg[300];
  if (desert_json_parse(json, strlen(json), c.a, &value, msg, sizeof msg))
    fail_msg("%s: %s", what, msg);
  desert_json_error err;
  memset(&err, 0, sizeof err);
  desert_status got = desert_json_encode(s, value, c.w, c.a, &err);
  if (st != DESERT_OK) {
    if (got == DESERT_OK || err.status != st)
      fail_msg("%s [%s]: encoding gave %s, want %s", what, desert_isa_name(isa),
               desert_status_name(err.status), desert_status_name(st));
  } else {
    if (got)
      fail_msg("%s [%s]: %s: %s", what, desert_isa_name(isa), desert_json_error_kind_name(&err),
               err.message);
    size_t n = 0;
    const uint8_t *out = desert_writer_data(c.w, &n);
    desert_assert_bytes_equal(bin, len, out, n);
  }
  ctx_close(&c);
}

/* The runtime types without the JSON layer: bin decodes to a value tree that
 * encodes back to bin and whose canonical JSON is want. */
static void check_types(const char *what, const desert_schema *s, desert_isa isa,
                        const uint8_t *bin, size_t len, const char *want) {
  ctx c = ctx_open(s, isa);
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

/* ---- the sample files ----------------------------------------------------------------- */

static const char *const samples[] = {
    "oplog",
    "oplog_list",
    "golem_oplog",
    "golem_oplog_list",
    "evolution_stress",
    "evolution_stress.v1",
    "evolution_stress_removed",
    "evolution_stress_removed.v1",
    "evolution_stress_transient",
    "evolution_stress_transient.v1",
    "evolution_stress_nested",
    "evolution_stress_nested.v1",
};

static void test_samples(void **state) {
  (void)state;
  for (size_t f = 0; f < sizeof samples / sizeof *samples; f++) {
    const char *prefix = samples[f];
    desert_value_arena *a = NULL;
    assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
    desert_schema *s = load_schema(prefix, a);
    size_t len = 0, jlen = 0;
    uint8_t *bin = must_read(prefix, ".bin", &len);
    char *json = must_read_json(prefix, ".json", &jlen);
    assert_true(len > 0 && len <= 4096);
    for (size_t i = 0; i < isa_count; i++) {
      check_decode(prefix, s, isas[i], bin, len, json, len);
      check_encode(prefix, s, isas[i], json, bin, len, DESERT_OK);
      check_types(prefix, s, isas[i], bin, len, json);
    }
    free(bin);
    free(json);
    desert_schema_free(s);
    desert_value_arena_free(a);
  }
}

/* ---- evolution_stress: older readers ------------------------------------------------- */

/* The current bytes under the v1 document give old_json (NULL: fail with
 * old_st); the v1 bytes under the current document give new_json from the
 * file <name><new_suffix>, using all but `unread` bytes. */
static void check_versions(const char *name, const char *old_suffix, desert_status old_st,
                           const char *new_suffix, size_t unread) {
  char old_prefix[256];
  snprintf(old_prefix, sizeof old_prefix, "%s.v1", name);
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *cur = load_schema(name, a);
  desert_schema *old = load_schema(old_prefix, a);
  size_t new_len = 0, old_len = 0, j1 = 0, j2 = 0;
  uint8_t *new_bin = must_read(name, ".bin", &new_len);
  uint8_t *old_bin = must_read(old_prefix, ".bin", &old_len);
  char *old_reads_new = old_suffix ? must_read_json(name, old_suffix, &j1) : NULL;
  char *new_reads_old = must_read_json(old_prefix, new_suffix, &j2);
  assert_true(unread < old_len);
  for (size_t k = 0; k < isa_count; k++) {
    if (old_reads_new)
      check_decode(old_suffix, old, isas[k], new_bin, new_len, old_reads_new, new_len);
    else
      check_decode_fails(name, old, isas[k], new_bin, new_len, old_st);
    check_decode(new_suffix, cur, isas[k], old_bin, old_len, new_reads_old, old_len - unread);
  }
  free(new_bin);
  free(old_bin);
  free(old_reads_new);
  free(new_reads_old);
  desert_schema_free(cur);
  desert_schema_free(old);
  desert_value_arena_free(a);
}

static void test_evolution_stress_versions(void **state) {
  (void)state;
  /* both ways, every byte used (versioned data skips unknown chunks; the
   * fast path of v1 data has nothing after the fields the reader knows) */
  check_versions("evolution_stress", ".read-by-v1.json", DESERT_OK, ".read-by-current.json", 0);
  /* One way. The old reader meets OptionalV2's None first: the made-optional
   * position is in the header, the tag 00 → NonOptionalFieldSerializedAsNone.
   * The upgrade leaves RemovedPayloadV1.payload `04 a5 a6 a7 a8` unread. */
  check_versions("evolution_stress_removed", NULL, DESERT_E_NONOPTIONAL_NONE, ".upgraded.json", 5);
  /* V1 requires cached, which the V2 header lists as removed (FieldMadeTransient
   * is written as FieldRemoved, docs/format.md §9.5); the upgrade leaves `03 5a 5b 5c`. */
  check_versions("evolution_stress_transient", NULL, DESERT_E_FIELD_REMOVED, ".upgraded.json", 4);
  /* Running V2 lists payload as removed; the upgrade of [Finished, Running]
   * leaves Running's payload `03 11 12 13` unread at the end. */
  check_versions("evolution_stress_nested", NULL, DESERT_E_FIELD_REMOVED, ".upgraded.json", 4);
}

/* ---- bytes derived by hand ------------------------------------------------------------ */

typedef struct hand_case {
  const char *schema; /* golden/<schema>.schema.json */
  const char *json;   /* canonical JSON of one root value */
  const char *hex;    /* its bytes, derived by hand */
} hand_case;

#define T1       "00 00 00 00 00 00 00 01" /* Timestamp / u64 1 */
#define UUID1    "00000000 00000000 00000000 00000001"
#define PROMISE1 "00 | 00 | 00 " UUID1 " | 00 | 00 00 00 01" /* PromiseId: 3 records, "", 1 */
#define PROMISE1_JSON                                                                    \
  "{\"worker_id\":{\"template_id\":{\"uuid\":\"00000000-0000-0000-0000-000000000001\"}," \
  "\"worker_name\":\"\"},\"oplog_idx\":1}"

/* Enum: 00, var_u32 id, payload; a constructor with fields: a version-0
 * record (00 + fields). OplogEntry ids in sorted order (docs/format.md §11.2, the Rust
 * derive's variants.sort_by_key(ident)): CompletePromise 0, CreatePromise 1,
 * Debug 2, Error 3, ExportedFunctionCompleted 4, ExportedFunctionInvoked 5,
 * ImportedFunctionInvoked 6, Suspend 7. WrappedFunctionType sorted:
 * ReadLocal 0, ReadRemote 1, WriteLocal 2, WriteRemote 3; CallingConvention:
 * Component 0, Stdio 1, StdioEventloop 2. Value in declaration order, its
 * transparent variants writing the id then the bare value. */
static const hand_case hand_cases[] = {
    {"oplog",
     "{\"$case\":\"CompletePromise\",\"timestamp\":1,\"promise_id\":" PROMISE1_JSON
     ",\"data\":\"\"}",
     "00 00 00 | " T1 " | " PROMISE1 " | 00"},
    {"oplog", "{\"$case\":\"CreatePromise\",\"timestamp\":1,\"promise_id\":" PROMISE1_JSON "}",
     "00 01 00 | " T1 " | " PROMISE1},
    {"oplog", "{\"$case\":\"Debug\",\"timestamp\":1,\"message\":\"m\"}",
     "00 02 00 | " T1 " | 02 6d"},
    {"oplog", "{\"$case\":\"Error\",\"timestamp\":1}", "00 03 00 | " T1},
    {"oplog",
     "{\"$case\":\"ExportedFunctionCompleted\",\"timestamp\":1,\"response\":[],"
     "\"consumed_fuel\":1}",
     "00 04 00 | " T1 " | 00 | 00 00 00 00 00 00 00 01"},
    /* invocation_key None; calling_convention Some(Stdio) = 01, then the enum */
    {"oplog",
     "{\"$case\":\"ExportedFunctionInvoked\",\"timestamp\":1,\"function_name\":\"\","
     "\"request\":[],\"invocation_key\":null,\"calling_convention\":{\"$case\":\"Stdio\"}}",
     "00 05 00 | " T1 " | 00 | 00 | 00 | 01 00 01 00"},
    {"oplog",
     "{\"$case\":\"ImportedFunctionInvoked\",\"timestamp\":1,\"function_name\":\"\","
     "\"response\":\"\",\"side_effect\":\"\",\"wrapped_function_type\":{\"$case\":"
     "\"WriteLocal\"}}",
     "00 06 00 | " T1 " | 00 | 00 | 00 | 00 02 00"},
    {"oplog", "{\"$case\":\"Suspend\",\"timestamp\":1}", "00 07 00 | " T1},
    /* Value: Handle 21 (a record), Char 11 (U+20AC as var_u32 ac 41),
     * Result 20 (Ok = either right: 01, then Option None 00), Variant 16 */
    {"oplog",
     "{\"$case\":\"ExportedFunctionCompleted\",\"timestamp\":1,\"response\":["
     "{\"$case\":\"Handle\",\"uri\":\"\",\"resource_id\":1},"
     "{\"$case\":\"Char\",\"value\":\"\xe2\x82\xac\"},"
     "{\"$case\":\"Result\",\"value\":{\"right\":null}},"
     "{\"$case\":\"Variant\",\"case_idx\":1,\"case_value\":null}],\"consumed_fuel\":-1}",
     "00 04 00 | " T1 " | 08 | 00 15 00 00 " T1 " | 00 0b ac 41 | 00 14 01 00"
     " | 00 10 00 00 00 00 01 00 | ff ff ff ff ff ff ff ff"},
    /* GolemOplogEntry, declaration order: Create 0, ImportedFunctionInvoked 1,
     * ExportedFunctionInvoked 2, ExportedFunctionCompleted 3, PendingUpdate 4,
     * Error 5, CompletePromise 6, NoOp 7. Timestamp is a record (00 + u64). */
    {"golem_oplog", "{\"$case\":\"NoOp\",\"timestamp\":{\"millis\":1}}", "00 07 00 | 00 " T1},
    /* OplogPayload SerializedInline: tag 00, then the byte block */
    {"golem_oplog",
     "{\"$case\":\"PendingUpdate\",\"timestamp\":{\"millis\":1},"
     "\"target_revision\":2,\"payload\":{\"left\":\"03\"},\"mime_type\":\"a\"}",
     "00 04 00 | 00 " T1 " | 00 00 00 00 00 00 00 02 | 00 01 03 | 02 61"},
    /* DurableFunctionType::WriteRemoteBatched(Some(5)) = id 4, record, 01 + u64 */
    {"golem_oplog",
     "{\"$case\":\"ImportedFunctionInvoked\",\"timestamp\":{\"millis\":1},"
     "\"function_name\":\"\",\"request\":{\"left\":\"\"},\"response\":{\"left\":"
     "\"\"},\"function_type\":{\"$case\":\"WriteRemoteBatched\",\"field0\":5}}",
     "00 01 00 | 00 " T1 " | 00 | 00 00 | 00 00 | 00 04 00 01 00 00 00 00 00 00 00 05"},
    {"golem_oplog",
     "{\"$case\":\"Error\",\"timestamp\":{\"millis\":1},\"error\":{\"$case\":"
     "\"Interrupted\"}}",
     "00 05 00 | 00 " T1 " | 00 03 00"},
    /* LocalSpan: span id, start, parent None, a map of one (key, value)
     * tuple (00 + key + value; docs/format.md §6.4), AttributeValue::Json id 3 whose
     * field0 is the JSON text as a byte block (04 "null") */
    {"golem_oplog",
     "{\"$case\":\"ExportedFunctionInvoked\",\"timestamp\":{\"millis\":1},\"idempotency_key\":"
     "\"\",\"method_name\":\"\",\"input\":{\"left\":\"\"},\"trace\":[{\"$case\":\"LocalSpan\","
     "\"span_id\":\"00000000-0000-0000-0000-000000000002\",\"start\":{\"millis\":1},"
     "\"parent_id\":null,\"attributes\":[[\"k\",{\"$case\":\"Json\",\"field0\":\"6e756c6c\"}]],"
     "\"inherited\":true}]}",
     "00 02 00 | 00 " T1 " | 00 | 00 | 00 00 | 02 | 00 00 00 | 00000000 00000000 00000000 00000002"
     " | 00 " T1 " | 00 | 02 00 02 6b 00 03 00 04 6e 75 6c 6c | 01"},
};

static void test_hand_entries(void **state) {
  (void)state;
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *oplog = load_schema("oplog", a);
  desert_schema *golem = load_schema("golem_oplog", a);
  for (size_t c = 0; c < sizeof hand_cases / sizeof *hand_cases; c++) {
    const hand_case *h = &hand_cases[c];
    const desert_schema *s = strcmp(h->schema, "oplog") == 0 ? oplog : golem;
    uint8_t bin[512];
    size_t n = rt_hex(h->hex, bin, sizeof bin);
    char what[64];
    snprintf(what, sizeof what, "hand case %zu (%s)", c, h->schema);
    for (size_t i = 0; i < isa_count; i++) {
      check_encode(what, s, isas[i], h->json, bin, n, DESERT_OK);
      check_decode(what, s, isas[i], bin, n, h->json, n);
      check_types(what, s, isas[i], bin, n, h->json);
    }
  }
  desert_schema_free(oplog);
  desert_schema_free(golem);
  desert_value_arena_free(a);
}

/* golden/<name>.bin is exactly hex (whole) or starts with it. */
static void assert_file_hex(const char *name, const char *hex, bool whole) {
  uint8_t want[1024];
  size_t n = rt_hex(hex, want, sizeof want), len = 0;
  uint8_t *bin = must_read(name, ".bin", &len);
  if (whole) {
    desert_assert_bytes_equal(want, n, bin, len);
  } else {
    if (n > len) fail_msg("%s.bin: %zu bytes, want at least %zu", name, len, n);
    desert_assert_bytes_equal(want, n, bin, n);
  }
  free(bin);
}

static void test_hand_files(void **state) {
  (void)state;
  /* ExportedFunctionInvoked (5) at 1700000000000 ms = 0x18bcfe56800, "run",
   * request [List [U8 1, U8 2]] (List id 13, U8 id 1: transparent),
   * Some(InvocationKey "k1"), Some(StdioEventloop = sorted id 2) */
  assert_file_hex("oplog",
                  "00 05 00 | 00 00 01 8b cf e5 68 00 | 06 72 75 6e"
                  "| 02 00 0d 04 00 01 01 00 01 02 | 01 00 04 6b 31 | 01 00 02 00",
                  true);
  /* a list of 14 entries, the first ImportedFunctionInvoked (6) with ReadLocal */
  assert_file_hex("oplog_list",
                  "1c | 00 06 00 | 00 00 01 8b cf e5 68 01 | 02 66 | 02 01 02 | 00"
                  "| 00 00 00",
                  false);
  /* Error (5) at 1700000000222 ms, ReadOnlyViolation (7): "GET" and a
   * 33-byte string (var_i32 66 = 42) */
  assert_file_hex("golem_oplog",
                  "00 05 00 | 00 00 00 01 8b cf e5 68 de | 00 07 00 | 06 47 45 54 | 42"
                  "77 61 73 69 3a 68 74 74 70 2f 6f 75 74 67 6f 69 6e 67 2d"
                  "68 61 6e 64 6c 65 72 2e 68 61 6e 64 6c 65",
                  true);
  /* 22 entries (var_i32 44 = 2c), the first Create (0): Timestamp record,
   * AgentId record with the uuid ...0064 */
  assert_file_hex("golem_oplog_list",
                  "2c | 00 00 00 | 00 00 00 01 8b cf e5 68 00 | 00 12 34 56 78"
                  "90 ab cd ef 00 00 00 00 00 00 00 64",
                  false);
  /* TransientV2 version 1: chunk 0 of 24 bytes (30), FieldMadeTransient as
   * FieldRemoved `03 0c "cached"`; id 300, "transient-cache" (var_i32 15 = 1e) */
  assert_file_hex("evolution_stress_transient",
                  "01 | 30 | 03 0c 63 61 63 68 65 64 | 00 00 00 00 00 00 01 2c"
                  "| 1e 74 72 61 6e 73 69 65 6e 74 2d 63 61 63 68 65",
                  true);
  assert_file_hex("evolution_stress_transient.v1",
                  "00 | 00 00 00 00 00 00 01 2c | 1e 74 72 61 6e 73 69 65 6e 74 2d 63 61 63 68 65"
                  "| 03 5a 5b 5c",
                  true);
  /* RemovedSample: OptionalV2 version 1 (chunk 0 of 9 bytes, label at
   * position 1 made optional: 01 ff; id 201, None); RemovedPayloadV2
   * version 2: chunk 0 of 25 bytes (32), FieldMadeOptional of the removed
   * payload written as FieldRemoved (Rust style, docs/format.md §9.5) with the name in
   * full, FieldRemoved with the string back-reference 01 */
  assert_file_hex("evolution_stress_removed",
                  "00 | 01 12 01 ff | 00 00 00 00 00 00 00 c9 00"
                  "| 02 32 03 0e 70 61 79 6c 6f 61 64 03 01 | 00 00 00 00 00 00 00 64",
                  false);
  /* EvolutionStressSample: AddedChunkV2 version 4, chunk sizes 23 (2e),
   * 39 (4e: the map's count and two (key, value) tuples with version byte),
   * 13 (1a), 4 (08), 1 (02) */
  assert_file_hex("evolution_stress", "00 | 04 2e 4e 1a 08 02", false);
  /* [Running, ...]: 3 elements (06); Running (0) version 3: chunk 0 of 13
   * bytes (1a), two FieldRemoved entries for payload, chunk 3 of 8 (10) */
  assert_file_hex("evolution_stress_nested",
                  "06 | 00 00 | 03 1a 03 0e 70 61 79 6c 6f 61 64 03 01 10", false);
}

/* OplogPayload::External (01, PayloadId, byte block) has no schema form:
 * the document's `right` is an enum with only a transient constructor. */
static void test_external_payload(void **state) {
  (void)state;
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_schema *golem = load_schema("golem_oplog", a);
  /* desert-rust's PendingUpdate with an External payload: uuid ...01, md5 "" */
  uint8_t bin[128];
  size_t n = rt_hex("00 04 00 | 00 " T1 " | 00 00 00 00 00 00 00 02 | 01 " UUID1 " 00 | 02 61", bin,
                    sizeof bin);
  for (size_t i = 0; i < isa_count; i++) {
    /* the uuid's first byte reads as the enum's version 00, the next as id 0,
     * which no constructor has */
    check_decode_fails("External payload", golem, isas[i], bin, n, DESERT_E_INVALID_CONSTRUCTOR_ID);
    /* and the only value `right` could hold is a transient constructor */
    check_encode("External payload", golem, isas[i],
                 "{\"$case\":\"PendingUpdate\",\"timestamp\":{\"millis\":1},"
                 "\"target_revision\":2,\"payload\":{\"right\":{\"$case\":\"External\"}},"
                 "\"mime_type\":\"a\"}",
                 NULL, 0, DESERT_E_SERIALIZING_TRANSIENT);
  }
  desert_schema_free(golem);
  desert_value_arena_free(a);
}

int main(void) {
  desert_test_check_expected_isa();
  for (int i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++)
    if (desert_isa_runnable((desert_isa)i)) isas[isa_count++] = (desert_isa)i;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_samples),          cmocka_unit_test(test_evolution_stress_versions),
      cmocka_unit_test(test_hand_entries),     cmocka_unit_test(test_hand_files),
      cmocka_unit_test(test_external_payload),
  };
  return cmocka_run_group_tests_name("oplog_models", tests, NULL, NULL);
}
