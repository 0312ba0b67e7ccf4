/* test/test_json_encode_text.c — desert_json_encode_text (src/json/
 * json_encode_text.c) against the whole-value path it stands in for
 * (desert_json_parse_depth + desert_json_encode_ex): for every input the two
 * give the same status, error kind, message and bytes, and whenever the
 * text walk alone takes an input its bytes equal the whole path's. Inputs:
 * every encode request of the public conformance cases, each printed three
 * ways (compact, spaced over lines, every object's keys reversed), the
 * golden/ samples of this repository, and hand-made cases that say which
 * forms the walk must take (so that a walk that always gave up would fail
 * here) and which it must leave to the whole path; nesting around a small
 * max_depth; and every prefix of a valid text (each a syntax error).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/json.h"
#include "desert_build_config.h"
#include "json/json_internal.h"
#include "test_util.h"

/* ---- the two paths -----------------------------------------------------------------------------
 */

typedef struct outcome {
  desert_status st;
  desert_json_error err;
  uint8_t *bytes;
  size_t n;
} outcome;

static void take_bytes(desert_writer *w, outcome *o) {
  size_t n = 0;
  const uint8_t *b = desert_writer_data(w, &n);
  o->bytes = malloc(n ? n : 1);
  assert_non_null(o->bytes);
  if (n) memcpy(o->bytes, b, n);
  o->n = n;
}

/* An arena and a writer for one encode. */
static void open_pair(const desert_options *opt, desert_value_arena **a, desert_writer **w) {
  assert_int_equal(desert_value_arena_create(NULL, a), DESERT_OK);
  assert_int_equal(desert_writer_create(opt, w), DESERT_OK);
}

static void close_pair(desert_value_arena *a, desert_writer *w) {
  desert_writer_free(w);
  desert_value_arena_free(a);
}

static void whole_path(const desert_schema *s, const desert_options *opt, const char *text,
                       size_t len, const desert_json_limits *lim, outcome *o) {
  memset(o, 0, sizeof *o);
  desert_value_arena *a = NULL;
  desert_writer *w = NULL;
  open_pair(opt, &a, &w);
  desert_codec_limits cl;
  desert_json_limits_resolve(lim, 0, &cl);
  desert_json *j = NULL;
  o->st = desert_json_parse_depth(text, len, a, cl.max_depth, &j, &o->err);
  if (!o->st) o->st = desert_json_encode_ex(s, j, w, a, lim, &o->err);
  if (!o->st) take_bytes(w, o);
  close_pair(a, w);
}

static void text_path(const desert_schema *s, const desert_options *opt, const char *text,
                      size_t len, const desert_json_limits *lim, outcome *o) {
  memset(o, 0, sizeof *o);
  desert_value_arena *a = NULL;
  desert_writer *w = NULL;
  open_pair(opt, &a, &w);
  o->st = desert_json_encode_text(s, text, len, w, a, lim, &o->err);
  if (!o->st) take_bytes(w, o);
  close_pair(a, w);
}

/* The walk alone: 1 when it took the text (bytes in *o), else 0. */
static int walk_path(const desert_schema *s, const desert_options *opt, const char *text,
                     size_t len, const desert_json_limits *lim, outcome *o) {
  memset(o, 0, sizeof *o);
  desert_value_arena *a = NULL;
  desert_writer *w = NULL;
  open_pair(opt, &a, &w);
  int took = desert_json_encode_text_walk(s, text, len, w, a, lim);
  if (took) take_bytes(w, o);
  close_pair(a, w);
  return took;
}

typedef struct tally {
  size_t inputs, ok, walked;
} tally;

/* Runs all three paths on one text and checks they agree; returns whether
 * the walk took it. */
static int agree(const desert_schema *s, const desert_options *opt, const char *text, size_t len,
                 const desert_json_limits *lim, tally *t) {
  outcome ref, got, walk;
  whole_path(s, opt, text, len, lim, &ref);
  text_path(s, opt, text, len, lim, &got);
  int took = walk_path(s, opt, text, len, lim, &walk);
  if (ref.st != got.st || ref.err.kind != got.err.kind ||
      strcmp(ref.err.message, got.err.message) != 0)
    fail_msg("desert_json_encode_text differs from the whole path on %.200s: %d/%d '%s' vs %d/%d "
             "'%s'",
             text, (int)ref.st, (int)ref.err.kind, ref.err.message, (int)got.st, (int)got.err.kind,
             got.err.message);
  if (!ref.st && (ref.n != got.n || memcmp(ref.bytes, got.bytes, ref.n) != 0))
    fprintf(stderr, "bytes differ for %.300s\n", text);
  if (!ref.st) desert_assert_bytes_equal(ref.bytes, ref.n, got.bytes, got.n);
  if (took) {
    if (ref.st)
      fail_msg("the walk took %.200s, which the whole path refuses: %s", text, ref.err.message);
    desert_assert_bytes_equal(ref.bytes, ref.n, walk.bytes, walk.n);
  }
  if (t) {
    t->inputs++;
    t->ok += ref.st == DESERT_OK;
    t->walked += (size_t)took;
  }
  free(ref.bytes);
  free(got.bytes);
  free(walk.bytes);
  return took;
}

/* ---- printing a parsed value three ways ---------------------------------------------------------
 */

enum { PRINT_COMPACT, PRINT_SPACED, PRINT_REVERSED };

static void print_as(desert_json_buf *b, const desert_json *j, int style, unsigned depth) {
  const char *sep = style == PRINT_SPACED ? " ,\n  " : ",";
  const char *colon = style == PRINT_SPACED ? " :\t" : ":";
  if (j->kind == DESERT_JSON_ARRAY) {
    desert_json_buf_put(b, style == PRINT_SPACED ? "[ " : "[", style == PRINT_SPACED ? 2 : 1);
    for (size_t i = 0; i < j->count; i++) {
      if (i) desert_json_buf_put(b, sep, strlen(sep));
      print_as(b, &j->items[i], style, depth + 1);
    }
    desert_json_buf_put(b, style == PRINT_SPACED ? "\n]" : "]", style == PRINT_SPACED ? 2 : 1);
  } else if (j->kind == DESERT_JSON_OBJECT) {
    desert_json_buf_put(b, "{", 1);
    for (size_t k = 0; k < j->count; k++) {
      size_t i = style == PRINT_REVERSED ? j->count - 1 - k : k;
      if (k) desert_json_buf_put(b, sep, strlen(sep));
      desert_json_print(b, &j->members[i].key);
      desert_json_buf_put(b, colon, strlen(colon));
      print_as(b, &j->members[i].value, style, depth + 1);
    }
    desert_json_buf_put(b, style == PRINT_SPACED ? " }" : "}", style == PRINT_SPACED ? 2 : 1);
  } else {
    desert_json_print(b, j);
  }
}

/* ---- inputs ------------------------------------------------------------------------------------
 */

static desert_schema *load(const char *doc, size_t len) {
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json *j = NULL;
  desert_json_error err;
  desert_schema *s = NULL;
  if (desert_json_parse_ex(doc, len, a, &j, &err) || desert_schema_load(j, NULL, &s, &err)) {
    if (getenv("TEST_VERBOSE")) fprintf(stderr, "schema refused: %s\n", err.message);
    s = NULL;
  }
  desert_value_arena_free(a);
  return s;
}

static void run_three_ways(const desert_schema *s, const desert_options *opt, const desert_json *v,
                           tally *t) {
  for (int style = PRINT_COMPACT; style <= PRINT_REVERSED; style++) {
    desert_json_buf b = {0};
    print_as(&b, v, style, 0);
    assert_false(b.failed);
    agree(s, opt, b.data ? b.data : "", b.len, NULL, t);
    desert_json_buf_free(&b);
  }
}

static void test_conformance_encodes(void **state) {
  (void)state;
  size_t len = 0;
  char *all =
      desert_test_read_file(DESERT_SHARED_DIR "/conformance/public-cases.jsonl", &len);
  if (!all) {
    if (getenv("DESERT_REQUIRE_GOLDEN")) fail_msg("no conformance cases under DESERT_SHARED_DIR");
    skip();
  }
  tally t = {0};
  desert_value_arena *a = NULL;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  for (char *line = all; *line;) {
    char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    desert_json *c = NULL;
    desert_json_error err;
    assert_int_equal(desert_json_parse_ex(line, n, a, &c, &err), DESERT_OK);
    const desert_json *ex = desert_json_get(c, "exchanges");
    for (size_t i = 0; ex && i < ex->count; i++) {
      const desert_json *req = desert_json_get(&ex->items[i], "request");
      const desert_json *enc = desert_json_get(req, "encode");
      const desert_json *doc = desert_json_get(req, "schema");
      if (!enc || !doc) continue;
      desert_json_buf db = {0};
      desert_json_print(&db, doc);
      desert_schema *s = load(db.data, db.len);
      desert_json_buf_free(&db);
      if (!s) continue; /* a BadSchema case */
      const desert_json *ropt = desert_json_get(req, "options");
      desert_schema_options ro;
      char msg[200];
      bool have = ropt && desert_schema_options_parse(ropt, &ro, msg, sizeof msg);
      desert_options o;
      desert_schema_options_apply(&s->options, have ? &ro : NULL, &o);
      run_three_ways(s, &o, enc, &t);
      desert_schema_free(s);
    }
    desert_value_arena_reset(a);
    line = nl ? nl + 1 : line + n;
  }
  desert_value_arena_free(a);
  free(all);
  printf("conformance encodes: %zu texts, %zu encode, the walk took %zu\n", t.inputs, t.ok,
         t.walked);
  /* Most encodable values are plain: escaped keys, nullable Some and limit
   * cases are the exceptions, far fewer than half. */
  assert_true(t.inputs > 600);
  assert_true(t.walked * 2 > t.ok);
}

static void test_golden_samples(void **state) {
  (void)state;
  static const char *const names[] = {
      "collections",   "compressed",       "enums",           "evolution",
      "options_scala", "primitives",       "strings",         "time",
      "oplog_list",    "golem_oplog_list", "evolution_stress"};
  tally t = {0};
  for (size_t i = 0; i < DESERT_TEST_COUNT(names); i++) {
    char path[1024];
    size_t dl = 0, vl = 0;
    snprintf(path, sizeof path, "%s/golden/%s.schema.json", DESERT_REPO_DIR, names[i]);
    char *doc = desert_test_read_file(path, &dl);
    snprintf(path, sizeof path, "%s/golden/%s.json", DESERT_REPO_DIR, names[i]);
    char *val = desert_test_read_file(path, &vl);
    if (!doc || !val) fail_msg("missing golden sample %s", names[i]);
    desert_schema *s = load(doc, dl);
    assert_non_null(s);
    desert_options o;
    desert_schema_options_apply(&s->options, NULL, &o);
    /* the file as it is, then reprinted */
    int took = agree(s, &o, val, vl, NULL, &t);
    if (!took) fail_msg("the walk did not take golden/%s.json", names[i]);
    desert_value_arena *a = NULL;
    assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
    desert_json *j = NULL;
    desert_json_error err;
    assert_int_equal(desert_json_parse_ex(val, vl, a, &j, &err), DESERT_OK);
    run_three_ways(s, &o, j, &t);
    desert_value_arena_free(a);
    desert_schema_free(s);
    free(doc);
    free(val);
  }
  assert_int_equal(t.ok, t.inputs);
}

/* ---- hand-made cases ---------------------------------------------------------------------------
 */

static const char *const person_doc =
    "{\"desert_schema\":1,\"definitions\":{"
    "\"Inner\":{\"type\":\"record\",\"fields\":[{\"name\":\"x\",\"type\":\"i32\"},"
    "{\"name\":\"y\",\"type\":\"i32\",\"optional\":true},"
    "{\"name\":\"z\",\"type\":{\"type\":\"option\",\"inner\":\"i32\"},"
    "\"optional\":true}]},"
    "\"Shape\":{\"type\":\"enum\",\"order\":\"sorted\",\"constructors\":["
    "{\"name\":\"Circle\",\"fields\":[{\"name\":\"r\",\"type\":\"f64\"}]},"
    "{\"name\":\"Label\",\"type\":\"string\"},{\"name\":\"Gone\",\"transient\":true},"
    "{\"name\":\"None\"}]}},"
    "\"root\":{\"type\":\"record\",\"name\":\"Person\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"i64\"},{\"name\":\"name\",\"type\":\"string\"},"
    "{\"name\":\"nick\",\"type\":\"string\",\"optional\":true},"
    "{\"name\":\"cache\",\"type\":\"string\",\"optional\":true,\"transient\":true,"
    "\"default\":null},"
    "{\"name\":\"tags\",\"type\":{\"type\":\"list\",\"element\":\"string\"}},"
    "{\"name\":\"inner\",\"type\":\"Inner\"},"
    "{\"name\":\"shapes\",\"type\":{\"type\":\"list\",\"element\":\"Shape\"}},"
    "{\"name\":\"scores\",\"type\":{\"type\":\"map\",\"key\":\"string\",\"value\":\"i32\"}},"
    "{\"name\":\"pair\",\"type\":{\"type\":\"tuple\",\"elements\":[\"i32\",\"string\"]}}],"
    "\"evolution\":[{\"step\":\"FieldAdded\",\"field\":\"tags\",\"default\":[]}]}}";

typedef struct hand_case {
  const char *text;
  int walks; /* 1: the walk must take it; 0: it must leave it to the whole path */
} hand_case;

static const hand_case hand_cases[] = {
    /* plain forms, keys in any order */
    {"{\"id\":1,\"name\":\"a\",\"tags\":[\"x\",\"y\"],\"inner\":{\"x\":1,\"y\":null},"
     "\"shapes\":[],\"scores\":[],\"pair\":[1,\"p\"]}",
     1},
    {" {\"pair\" : [ 7 , \"q\" ] , \"scores\":[[\"a\",1],[\"b\",2]],\"shapes\":[{\"$case\":"
     "\"Circle\",\"r\":1.5},{\"r\":2,\"$case\":\"Circle\"},{\"$case\":\"Label\",\"value\":"
     "\"hi\"},{\"value\":\"yo\",\"$case\":\"Label\"},{\"$case\":\"None\"}],\"inner\":{\"y\":3,"
     "\"x\":-2},\"tags\":[],\"nick\":\"n\",\"name\":\"\\u00e9\\n\",\"id\":-9} \n",
     1},
    {"{\"id\":1,\"name\":\"a\",\"nick\":null,\"cache\":\"dropped\",\"tags\":[],\"inner\":{\"x\":"
     "1,\"y\":null},\"shapes\":[],\"scores\":[],\"pair\":[1,\"p\"]}",
     1},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"z\":{\"some\":null}},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]}",
     1},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"z\":{\"some\":4},\"x\":1},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]}",
     1},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"z\":null,\"y\":2},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]}",
     1},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"z\":4},\"shapes\":[],\"scores\":[],"
     "\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"z\":{\"some\":4,\"some\":4}},"
     "\"shapes\":[],\"scores\":[],\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"z\":{}},\"shapes\":[],\"scores\":[]"
     ",\"pair\":[1,\"p\"]}",
     0},
    /* left to the whole path: it accepts these */
    {"{\"\\u0069d\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]}",
     0},
    /* left to the whole path: it reports these */
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"],\"id\":2}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1},\"shapes\":[],\"scores\":[],"
     "\"pair\":[1,\"p\"],}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]} x",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"],\"extra\":0}",
     0},
    {"{\"id\":1,\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],\"scores\":[],"
     "\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[{\"$case\":"
     "\"Gone\"}],\"scores\":[],\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[{\"$case\":"
     "\"Square\"}],\"scores\":[],\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[1],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[[\"a\"]],\"pair\":[1,\"p\"]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\",2]}",
     0},
    {"{\"id\":1,\"name\":\"a\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"],\"cache\":[}",
     0},
    {"{\"id\":1,\"name\":\"a\xff\",\"tags\":[],\"inner\":{\"x\":1,\"y\":null},\"shapes\":[],"
     "\"scores\":[],\"pair\":[1,\"p\"]}",
     0},
    {"", 0},
    {"   ", 0},
    {"null", 0},
    {"[]", 0},
    {"{", 0},
};

static void test_hand_cases(void **state) {
  (void)state;
  desert_schema *s = load(person_doc, strlen(person_doc));
  assert_non_null(s);
  desert_options o;
  desert_schema_options_apply(&s->options, NULL, &o);
  for (size_t i = 0; i < DESERT_TEST_COUNT(hand_cases); i++) {
    const char *text = hand_cases[i].text;
    int took = agree(s, &o, text, strlen(text), NULL, NULL);
    if (took != hand_cases[i].walks)
      fail_msg("case %zu: the walk %s %s", i, took ? "took" : "left", text);
    /* every proper prefix of a case is broken JSON: both paths refuse it alike */
    for (size_t n = 0; n < strlen(text); n++) agree(s, &o, text, n, NULL, NULL);
  }
  desert_schema_free(s);
}

/* Option<Option<i32>>: Some of a nullable type is {"some": v}. */
static void test_nullable_option(void **state) {
  (void)state;
  static const char *const doc = "{\"desert_schema\":1,\"root\":{\"type\":\"option\",\"inner\":"
                                 "{\"type\":\"option\",\"inner\":\"i32\"}}}";
  static const hand_case cases[] = {
      {"null", 1},
      {" null ", 1},
      {"{\"some\":null}", 1},
      {"{ \"some\" : 5 }", 1},
      {"5", 0},
      {"{\"some\":{\"some\":5}}", 0},
      {"nul", 0},
  };
  desert_schema *s = load(doc, strlen(doc));
  assert_non_null(s);
  desert_options o;
  desert_schema_options_apply(&s->options, NULL, &o);
  size_t ok = 0;
  for (size_t i = 0; i < DESERT_TEST_COUNT(cases); i++) {
    outcome ref;
    whole_path(s, &o, cases[i].text, strlen(cases[i].text), NULL, &ref);
    ok += ref.st == DESERT_OK;
    free(ref.bytes);
    if (agree(s, &o, cases[i].text, strlen(cases[i].text), NULL, NULL) != cases[i].walks)
      fail_msg("nullable case %zu: %s", i, cases[i].text);
  }
  assert_int_equal(ok, 4); /* null twice, {"some":null}, {"some":5} */
  desert_schema_free(s);
}

/* Lists nested d deep around a small max_depth: the walk stops short of the
 * limit and the whole path decides, with the same result. */
static void test_depth_limits(void **state) {
  (void)state;
  static const char *const doc =
      "{\"desert_schema\":1,\"definitions\":{\"T\":{\"type\":\"record\",\"fields\":["
      "{\"name\":\"k\",\"type\":{\"type\":\"list\",\"element\":\"T\"}},"
      "{\"name\":\"o\",\"type\":\"T\",\"optional\":true}]}},\"root\":\"T\"}";
  desert_schema *s = load(doc, strlen(doc));
  assert_non_null(s);
  desert_options o;
  desert_schema_options_apply(&s->options, NULL, &o);
  char text[4096];
  size_t walked = 0, refused = 0;
  for (unsigned limit = 4; limit <= 24; limit += 5) {
    desert_json_limits lim = {0, limit, 0};
    for (unsigned d = 0; d < 2 * limit; d++) {
      for (int viaopt = 0; viaopt < 2; viaopt++) {
        size_t n = 0;
        for (unsigned i = 0; i < d; i++)
          n += (size_t)snprintf(text + n, sizeof text - n,
                                viaopt ? "{\"k\":[],\"o\":" : "{\"o\":null,\"k\":[");
        n += (size_t)snprintf(text + n, sizeof text - n, "{\"k\":[],\"o\":null}");
        for (unsigned i = 0; i < d; i++)
          n += (size_t)snprintf(text + n, sizeof text - n, viaopt ? "}" : "]}");
        outcome ref;
        whole_path(s, &o, text, n, &lim, &ref);
        refused += ref.st != DESERT_OK;
        free(ref.bytes);
        walked += (size_t)agree(s, &o, text, n, &lim, NULL);
      }
    }
  }
  /* both outcomes occur, and the walk takes the shallow ones */
  assert_true(walked > 20);
  assert_true(refused > 20);
  desert_schema_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_cases),          cmocka_unit_test(test_nullable_option),
      cmocka_unit_test(test_depth_limits),        cmocka_unit_test(test_golden_samples),
      cmocka_unit_test(test_conformance_encodes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
