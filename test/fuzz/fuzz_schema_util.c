/* test/fuzz/fuzz_schema_util.c — shared part of the schema-layer harnesses
 * (see fuzz_schema_util.h): the fixed schema documents with a sample value
 * each, the checked allocator, and the decode / value round-trip checks.
 * SPDX-License-Identifier: MIT */
#include "fuzz_schema_util.h"
#include "json/json_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fixed schemas ----------------------------------------------------------- */

/* Together they cover records with every evolution step (FieldAdded with and
 * without default, FieldMadeOptional, FieldRemoved, FieldMadeTransient,
 * transient fields), enums in declaration and sorted order with transient
 * constructors and every payload form, both collection forms and their
 * constraints, options of nullable types, either/try, tuples, maps,
 * recursive definitions and transparent wrappers, every date/time and big
 * number type, compressed blocks of both flavours and deduplicated strings,
 * and the Scala options. */
const fzs_schema_src fzs_schemas[] = {
    {"point",
     "{\"desert_schema\":1,\"definitions\":{\"P1\":{\"type\":\"record\",\"fields\":["
     "{\"name\":\"a\",\"type\":\"i32\"},{\"name\":\"more\",\"type\":\"P1\","
     "\"optional\":true}],\"evolution\":[{\"step\":\"FieldAdded\",\"field\":\"more\","
     "\"default\":null}]},\"Point\":{\"type\":\"record\",\"name\":\"PointV3\","
     "\"fields\":[{\"name\":\"x\",\"type\":\"i32\"},"
     "{\"name\":\"label\",\"type\":\"string\",\"optional\":true},"
     "{\"name\":\"cache\",\"type\":\"bytes\",\"transient\":true,\"default\":\"ab\"},"
     "{\"name\":\"y\",\"type\":\"var_i32\"},"
     "{\"name\":\"next\",\"type\":\"P1\",\"optional\":true},"
     "{\"name\":\"tags\",\"type\":{\"type\":\"set\",\"element\":\"string\"}}],"
     "\"evolution\":[{\"step\":\"FieldAdded\",\"field\":\"label\",\"default\":\"origin\"},"
     "{\"step\":\"FieldMadeOptional\",\"field\":\"label\"},"
     "{\"step\":\"FieldRemoved\",\"field\":\"z\"},"
     "{\"step\":\"FieldMadeTransient\",\"field\":\"cache\"},"
     "{\"step\":\"FieldAdded\",\"field\":\"tags\",\"default\":[\"t\"]},"
     "{\"step\":\"FieldAdded\",\"field\":\"next\"},"
     "{\"step\":\"FieldMadeOptional\",\"field\":\"next\"}]}},"
     "\"root\":{\"type\":\"list\",\"element\":\"Point\"}}",
     "[{\"x\":1,\"label\":\"a\",\"y\":-2,\"next\":{\"a\":3,\"more\":{\"a\":4,\"more\":null}},"
     "\"tags\":[\"t\",\"u\",\"t\"]},{\"x\":-7,\"y\":0,\"tags\":[]}]"},
    {"throwable",
     "{\"desert_schema\":1,\"options\":{\"legacy_header_strings\":true},\"definitions\":{"
     "\"StackTraceElement\":{\"type\":\"record\",\"fields\":["
     "{\"name\":\"className\",\"type\":\"string\",\"optional\":true},"
     "{\"name\":\"methodName\",\"type\":\"string\",\"optional\":true},"
     "{\"name\":\"fileName\",\"type\":\"string\",\"optional\":true},"
     "{\"name\":\"lineNumber\",\"type\":\"var_u32\"}]},"
     "\"Throwable\":{\"type\":\"record\",\"fields\":[{\"name\":\"className\",\"type\":\"string\"},"
     "{\"name\":\"message\",\"type\":\"string\"},"
     "{\"name\":\"stackTrace\",\"type\":{\"type\":\"list\",\"element\":\"StackTraceElement\"}},"
     "{\"name\":\"cause\",\"type\":\"Throwable\",\"optional\":true}]},"
     "\"ListElement1\":{\"type\":\"record\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]},"
     "\"ListElement2\":{\"type\":\"enum\",\"order\":\"sorted\",\"constructors\":["
     "{\"name\":\"First\",\"fields\":[{\"name\":\"elem\",\"type\":\"ListElement1\"}]},"
     "{\"name\":\"Second\",\"fields\":[{\"name\":\"uuid\",\"type\":\"uuid\"},"
     "{\"name\":\"desc\",\"type\":\"string\",\"optional\":true},"
     "{\"name\":\"cached\",\"type\":\"string\",\"optional\":true,\"transient\":true,"
     "\"default\":null}],"
     "\"evolution\":[{\"step\":\"FieldMadeTransient\",\"field\":\"cached\"}]},"
     "{\"name\":\"Third\",\"transient\":true}]}},"
     "\"root\":{\"type\":\"tuple\",\"elements\":["
     "{\"type\":\"try\",\"success\":\"ListElement2\",\"failure\":\"Throwable\"},"
     "{\"type\":\"map\",\"key\":\"string\",\"value\":\"ListElement2\"},"
     "{\"type\":\"list\",\"element\":\"ListElement1\",\"form\":\"unknown\"},"
     "{\"type\":\"either\",\"left\":\"string\",\"right\":\"bool\"}]}}",
     "[{\"failure\":{\"className\":\"E\",\"message\":\"m\",\"stackTrace\":[{\"className\":\"C\","
     "\"methodName\":null,\"fileName\":\"F.scala\",\"lineNumber\":7}],\"cause\":{\"className\":"
     "\"C\",\"message\":\"n\",\"stackTrace\":[],\"cause\":null}}},"
     "[[\"k\",{\"$case\":\"Second\",\"uuid\":\"01234567-89ab-cdef-0123-456789abcdef\","
     "\"desc\":\"d\",\"cached\":null}],[\"j\",{\"$case\":\"First\",\"elem\":{\"id\":\"x\"}}]],"
     "[{\"id\":\"a\"},{\"id\":\"b\"}],{\"right\":true}]"},
    {"events",
     "{\"desert_schema\":1,\"definitions\":{\"P\":{\"type\":\"record\",\"fields\":["
     "{\"name\":\"a\",\"type\":\"i16\"},{\"name\":\"b\",\"type\":\"string\",\"optional\":true}],"
     "\"evolution\":[{\"step\":\"FieldAdded\",\"field\":\"b\",\"default\":null}]},"
     "\"Event\":{\"type\":\"enum\",\"name\":\"Event\",\"constructors\":["
     "{\"name\":\"Started\"},"
     "{\"name\":\"Message\",\"fields\":[{\"name\":\"text\",\"type\":\"string\"}]},"
     "{\"name\":\"Cached\",\"transient\":true},"
     "{\"name\":\"Moved\",\"fields\":[{\"name\":\"x\",\"type\":\"i32\"},"
     "{\"name\":\"y\",\"type\":\"i32\"},{\"name\":\"z\",\"type\":\"u8\"}],"
     "\"evolution\":[{\"step\":\"FieldAdded\",\"field\":\"z\",\"default\":0}]},"
     "{\"name\":\"Raw\",\"type\":\"string\"},"
     "{\"name\":\"Nothing\",\"type\":\"unit\"},"
     "{\"name\":\"Pt\",\"type\":\"P\"},"
     "{\"name\":\"Wrapped\",\"type\":{\"type\":\"transparent\",\"name\":\"W\",\"inner\":\"P\"}},"
     "{\"name\":\"Gone\",\"transient\":true,\"type\":\"i32\"}]},"
     "\"Shape\":{\"type\":\"enum\",\"order\":\"sorted\",\"constructors\":["
     "{\"name\":\"Square\",\"type\":\"f64\"},{\"name\":\"Circle\",\"type\":\"f32\"},"
     "{\"name\":\"Blob\",\"transient\":true},{\"name\":\"None\",\"type\":\"unit\"},"
     "{\"name\":\"Maybe\",\"type\":{\"type\":\"option\",\"inner\":\"Shape\"}}]}},"
     "\"root\":{\"type\":\"tuple\",\"elements\":[{\"type\":\"list\",\"element\":\"Event\"},"
     "{\"type\":\"list\",\"element\":\"Shape\",\"form\":\"unknown\"}]}}",
     "[[{\"$case\":\"Message\",\"text\":\"hi\"},{\"$case\":\"Started\"},"
     "{\"$case\":\"Moved\",\"x\":1,\"y\":2,\"z\":3},{\"$case\":\"Raw\",\"value\":\"z\"},"
     "{\"$case\":\"Nothing\",\"value\":null},{\"$case\":\"Pt\",\"a\":5,\"b\":\"q\"},"
     "{\"$case\":\"Wrapped\",\"a\":-1,\"b\":null}],"
     "[{\"$case\":\"Square\",\"value\":2.5},{\"$case\":\"None\",\"value\":null},"
     "{\"$case\":\"Maybe\",\"value\":{\"$case\":\"Circle\",\"value\":0.1}},"
     "{\"$case\":\"Maybe\",\"value\":null}]]"},
    {"temporal",
     "{\"desert_schema\":1,\"root\":{\"type\":\"list\",\"element\":{\"type\":\"enum\","
     "\"name\":\"T\",\"constructors\":["
     "{\"name\":\"a\",\"type\":\"duration\"},{\"name\":\"b\",\"type\":\"instant\"},"
     "{\"name\":\"c\",\"type\":\"bigint\"},{\"name\":\"d\",\"type\":\"bigdecimal\"},"
     "{\"name\":\"e\",\"type\":\"bigdecimal_binary\"},{\"name\":\"f\",\"type\":\"day_of_week\"},"
     "{\"name\":\"g\",\"type\":\"month\"},{\"name\":\"h\",\"type\":\"year\"},"
     "{\"name\":\"i\",\"type\":\"month_day\"},{\"name\":\"j\",\"type\":\"year_month\"},"
     "{\"name\":\"k\",\"type\":\"period\"},{\"name\":\"l\",\"type\":\"zone_offset\"},"
     "{\"name\":\"m\",\"type\":\"zone_id\"},{\"name\":\"n\",\"type\":\"local_date\"},"
     "{\"name\":\"o\",\"type\":\"local_time\"},{\"name\":\"p\",\"type\":\"local_date_time\"},"
     "{\"name\":\"q\",\"type\":\"offset_time\"},{\"name\":\"r\",\"type\":\"offset_date_time\"},"
     "{\"name\":\"s\",\"type\":\"zoned_date_time\"},"
     "{\"name\":\"t\",\"type\":\"rust_datetime_fixed_offset\"},"
     "{\"name\":\"u\",\"type\":\"rust_datetime_tz\"},{\"name\":\"v\",\"type\":\"uuid\"}]}}}",
     "[{\"$case\":\"a\",\"value\":{\"seconds\":-5,\"nanos\":7}},"
     "{\"$case\":\"b\",\"value\":{\"seconds\":1700000000,\"nanos\":999999999}},"
     "{\"$case\":\"c\",\"value\":\"-123456789012345678901234567890\"},"
     "{\"$case\":\"d\",\"value\":\"-1.50e+3\"},"
     "{\"$case\":\"e\",\"value\":{\"unscaled\":\"12345\",\"scale\":-2}},"
     "{\"$case\":\"f\",\"value\":7},{\"$case\":\"g\",\"value\":2},"
     "{\"$case\":\"h\",\"value\":-44},{\"$case\":\"i\",\"value\":{\"month\":2,\"day\":29}},"
     "{\"$case\":\"j\",\"value\":{\"year\":2024,\"month\":12}},"
     "{\"$case\":\"k\",\"value\":{\"years\":-1,\"months\":13,\"days\":400}},"
     "{\"$case\":\"l\",\"value\":-64800},{\"$case\":\"m\",\"value\":{\"region\":\"Europe/Paris\"}},"
     "{\"$case\":\"m\",\"value\":{\"offset\":3600}},"
     "{\"$case\":\"n\",\"value\":{\"year\":2000,\"month\":2,\"day\":29}},"
     "{\"$case\":\"o\",\"value\":{\"hour\":23,\"minute\":59,\"second\":59,\"nano\":1}},"
     "{\"$case\":\"p\",\"value\":{\"year\":1,\"month\":1,\"day\":1,\"hour\":0,\"minute\":0,"
     "\"second\":0,\"nano\":0}},"
     "{\"$case\":\"q\",\"value\":{\"hour\":1,\"minute\":2,\"second\":3,\"nano\":4,\"offset\":-60}},"
     "{\"$case\":\"r\",\"value\":{\"year\":2023,\"month\":6,\"day\":30,\"hour\":1,\"minute\":2,"
     "\"second\":3,\"nano\":4,\"offset\":7200}},"
     "{\"$case\":\"s\",\"value\":{\"year\":2023,\"month\":6,\"day\":30,\"hour\":1,\"minute\":2,"
     "\"second\":3,\"nano\":4,\"offset\":7200,\"zone\":{\"region\":\"Europe/Berlin\"}}},"
     "{\"$case\":\"t\",\"value\":{\"year\":2023,\"month\":6,\"day\":30,\"hour\":1,\"minute\":2,"
     "\"second\":3,\"nano\":4,\"offset\":-86399}},"
     "{\"$case\":\"u\",\"value\":{\"year\":2023,\"month\":6,\"day\":30,\"hour\":1,\"minute\":2,"
     "\"second\":3,\"nano\":4,\"zone\":\"UTC\"}},"
     "{\"$case\":\"v\",\"value\":\"00112233-4455-6677-8899-aabbccddeeff\"}]"},
    {"scalars",
     "{\"desert_schema\":1,\"root\":{\"type\":\"list\",\"element\":{\"type\":\"enum\","
     "\"name\":\"S\",\"constructors\":["
     "{\"name\":\"a\",\"type\":\"bool\"},{\"name\":\"b\",\"type\":\"i8\"},"
     "{\"name\":\"c\",\"type\":\"i16\"},{\"name\":\"d\",\"type\":\"i32\"},"
     "{\"name\":\"e\",\"type\":\"i64\"},{\"name\":\"f\",\"type\":\"u8\"},"
     "{\"name\":\"g\",\"type\":\"u16\"},{\"name\":\"h\",\"type\":\"u32\"},"
     "{\"name\":\"i\",\"type\":\"u64\"},{\"name\":\"j\",\"type\":\"f32\"},"
     "{\"name\":\"k\",\"type\":\"f64\"},{\"name\":\"l\",\"type\":\"unit\"},"
     "{\"name\":\"m\",\"type\":\"char\"},{\"name\":\"n\",\"type\":\"char16\"},"
     "{\"name\":\"o\",\"type\":\"string\"},{\"name\":\"p\",\"type\":\"dedup_string\"},"
     "{\"name\":\"q\",\"type\":\"var_u32\"},{\"name\":\"r\",\"type\":\"var_i32\"},"
     "{\"name\":\"s\",\"type\":\"bytes\"},{\"name\":\"t\",\"type\":{\"type\":\"bytes\","
     "\"non_empty\":true}},{\"name\":\"u\",\"type\":{\"type\":\"bytes\",\"length\":4}},"
     "{\"name\":\"v\",\"type\":\"compressed\"},"
     "{\"name\":\"w\",\"type\":{\"type\":\"compressed\",\"flavour\":\"zlib\",\"level\":9}},"
     "{\"name\":\"x\",\"type\":{\"type\":\"compressed\",\"flavour\":\"raw\",\"level\":0}},"
     "{\"name\":\"y\",\"type\":{\"type\":\"option\",\"inner\":\"dedup_string\"}}]}}}",
     "[{\"$case\":\"a\",\"value\":true},{\"$case\":\"b\",\"value\":-128},"
     "{\"$case\":\"c\",\"value\":300},{\"$case\":\"d\",\"value\":-2147483648},"
     "{\"$case\":\"e\",\"value\":9223372036854775807},{\"$case\":\"f\",\"value\":255},"
     "{\"$case\":\"g\",\"value\":65535},{\"$case\":\"h\",\"value\":4294967295},"
     "{\"$case\":\"i\",\"value\":18446744073709551615},{\"$case\":\"j\",\"value\":0.1},"
     "{\"$case\":\"k\",\"value\":{\"f64_bits\":\"7ff0000000000001\"}},"
     "{\"$case\":\"l\",\"value\":null},{\"$case\":\"m\",\"value\":\"\\u00e9\"},"
     "{\"$case\":\"n\",\"value\":\"z\"},{\"$case\":\"o\",\"value\":\"h\\u00e9llo\\n\"},"
     "{\"$case\":\"p\",\"value\":\"same\"},{\"$case\":\"p\",\"value\":\"same\"},"
     "{\"$case\":\"q\",\"value\":300},{\"$case\":\"r\",\"value\":-65},"
     "{\"$case\":\"s\",\"value\":\"00ff\"},{\"$case\":\"t\",\"value\":\"01\"},"
     "{\"$case\":\"u\",\"value\":\"deadbeef\"},{\"$case\":\"v\",\"value\":\"61616161616161\"},"
     "{\"$case\":\"w\",\"value\":\"6262626262\"},{\"$case\":\"w\",\"value\":\"\"},"
     "{\"$case\":\"x\",\"value\":\"63\"},{\"$case\":\"y\",\"value\":\"same\"},"
     "{\"$case\":\"y\",\"value\":null}]"},
    {"collections",
     "{\"desert_schema\":1,\"definitions\":{\"W\":{\"type\":\"transparent\",\"inner\":\"u32\"}},"
     "\"root\":{\"type\":\"tuple\",\"elements\":["
     "{\"type\":\"list\",\"element\":\"i32\"},"
     "{\"type\":\"list\",\"element\":\"f64\",\"form\":\"unknown\"},"
     "{\"type\":\"list\",\"element\":\"u16\",\"length\":3},"
     "{\"type\":\"set\",\"element\":\"u8\",\"non_empty\":true},"
     "{\"type\":\"map\",\"key\":\"dedup_string\",\"value\":{\"type\":\"list\",\"element\":\"i64\"}},"
     "{\"type\":\"list\",\"element\":\"i8\"},"
     "{\"type\":\"option\",\"inner\":{\"type\":\"option\",\"inner\":\"i32\"}},"
     "{\"type\":\"option\",\"inner\":\"unit\"},"
     "{\"type\":\"list\",\"element\":\"unit\"},"
     "{\"type\":\"list\",\"element\":{\"type\":\"option\",\"inner\":\"unit\"},\"form\":\"unknown\"},"
     "{\"type\":\"either\",\"left\":\"unit\",\"right\":\"i16\"},"
     "{\"type\":\"try\",\"success\":\"u64\",\"failure\":\"string\"},"
     "{\"type\":\"list\",\"element\":{\"type\":\"tuple\",\"elements\":[\"bool\",\"char\"]}},"
     "\"W\","
     "{\"type\":\"map\",\"key\":\"i32\",\"value\":\"string\",\"form\":\"unknown\",\"non_empty\":true},"
     "{\"type\":\"list\",\"element\":\"u64\"},"
     "{\"type\":\"set\",\"element\":\"f32\"}]}}",
     "[[1,-2,3],[0.5,\"NaN\"],[1,2,3],[7],[[\"k\",[1,2]],[\"k\",[]]],[-1,0,1],{\"some\":null},"
     "{\"some\":null},[null,null],[null,{\"some\":null}],{\"left\":null},{\"failure\":\"boom\"},"
     "[[true,\"x\"],[false,\"\\u00ff\"]],42,[[1,\"a\"],[1,\"a\"]],[0,18446744073709551615],"
     "[1.5,-0.0]]"},
    {"tree",
     "{\"desert_schema\":1,\"definitions\":{"
     "\"Tree\":{\"type\":\"record\",\"fields\":[{\"name\":\"label\",\"type\":\"dedup_string\"},"
     "{\"name\":\"kids\",\"type\":{\"type\":\"list\",\"element\":\"Tree\",\"form\":\"unknown\"}},"
     "{\"name\":\"alt\",\"type\":\"Leaf\",\"optional\":true}]},"
     "\"Leaf\":{\"type\":\"enum\",\"constructors\":[{\"name\":\"L\",\"type\":\"i32\"},"
     "{\"name\":\"N\",\"type\":\"Wrap\"},{\"name\":\"E\",\"type\":{\"type\":\"either\","
     "\"left\":\"Tree\",\"right\":\"Alias\"}}]},"
     "\"Alias\":\"Wrap\","
     "\"Wrap\":{\"type\":\"transparent\",\"name\":\"Wrap\",\"inner\":\"Tree\"}},"
     "\"root\":{\"type\":\"map\",\"key\":\"Wrap\",\"value\":{\"type\":\"option\","
     "\"inner\":\"Alias\"}}}",
     "[[{\"label\":\"r\",\"kids\":[{\"label\":\"a\",\"kids\":[],\"alt\":{\"$case\":\"L\","
     "\"value\":1}}],\"alt\":{\"$case\":\"E\",\"value\":{\"right\":{\"label\":\"r\","
     "\"kids\":[],\"alt\":null}}}},{\"label\":\"v\",\"kids\":[],\"alt\":{\"$case\":\"N\","
     "\"label\":\"w\",\"kids\":[],\"alt\":null}}],"
     "[{\"label\":\"k\",\"kids\":[],\"alt\":null},null]]"},
    {"scala",
     "{\"desert_schema\":1,\"options\":{\"scala_chars\":true,\"compression\":\"zlib\","
     "\"strict_tags\":false,\"strict_varint\":false,\"legacy_header_strings\":true,"
     "\"removed_optional_style\":\"scala\"},"
     "\"definitions\":{\"R\":{\"type\":\"record\",\"fields\":["
     "{\"name\":\"a\",\"type\":\"i32\"},{\"name\":\"b\",\"type\":\"string\",\"optional\":true},"
     "{\"name\":\"c\",\"type\":\"char\"},{\"name\":\"d\",\"type\":\"compressed\"},"
     "{\"name\":\"e\",\"type\":\"string\",\"transient\":true,\"default\":\"e\"},"
     "{\"name\":\"f\",\"type\":\"char16\",\"optional\":true}],"
     "\"evolution\":[{\"step\":\"FieldAdded\",\"field\":\"b\",\"default\":\"x\"},"
     "{\"step\":\"FieldMadeOptional\",\"field\":\"g\"},"
     "{\"step\":\"FieldRemoved\",\"field\":\"g\"},"
     "{\"step\":\"FieldMadeOptional\",\"field\":\"b\"},"
     "{\"step\":\"FieldMadeTransient\",\"field\":\"e\"},"
     "{\"step\":\"FieldMadeOptional\",\"field\":\"e\"},"
     "{\"step\":\"FieldAdded\",\"field\":\"f\",\"default\":null}]}},"
     "\"root\":{\"type\":\"list\",\"element\":{\"type\":\"either\",\"left\":\"R\","
     "\"right\":{\"type\":\"option\",\"inner\":\"R\"}},\"form\":\"unknown\"}}",
     "[{\"left\":{\"a\":1,\"b\":\"q\",\"c\":\"\\u00e9\",\"d\":\"00000000\",\"f\":\"z\"}},"
     "{\"right\":null},{\"right\":{\"a\":2,\"b\":null,\"c\":\"c\",\"d\":\"\",\"f\":null}}]"},
};
const size_t fzs_schema_count = sizeof fzs_schemas / sizeof fzs_schemas[0];

#define FZS_COUNT (sizeof fzs_schemas / sizeof fzs_schemas[0])
static desert_schema *loaded[FZS_COUNT];

const desert_schema *fzs_schema(size_t i) {
  i %= FZS_COUNT;
  if (loaded[i]) return loaded[i];
  desert_value_arena *a = NULL;
  FZ_CHECK(desert_value_arena_create(NULL, &a) == DESERT_OK);
  desert_json *doc = NULL;
  char msg[256];
  const char *text = fzs_schemas[i].doc;
  desert_status st = desert_json_parse(text, strlen(text), a, &doc, msg, sizeof msg);
  FZ_CHECK_MSG(st == DESERT_OK, "built-in schema %s: %s", fzs_schemas[i].name, msg);
  desert_json_error err;
  st = desert_schema_load(doc, NULL, &loaded[i], &err);
  FZ_CHECK_MSG(st == DESERT_OK, "built-in schema %s: %s", fzs_schemas[i].name, err.message);
  desert_value_arena_free(a);
  return loaded[i];
}

/* ---- the checked allocator --------------------------------------------------------- */

#define FZS_HDR ((size_t)16)
#define FZS_TAG UINT64_C(0x736368656d616675) /* "schemafu" */

static struct {
  size_t live, blocks;
} aux;

static void *aux_alloc(void *opaque, size_t size) {
  (void)opaque;
  if (size > SIZE_MAX - FZS_HDR) return NULL;
  uint8_t *p = malloc(size + FZS_HDR);
  if (!p) return NULL;
  uint64_t tag = FZS_TAG;
  memcpy(p, &size, sizeof size);
  memcpy(p + 8, &tag, sizeof tag);
  aux.live += size;
  aux.blocks++;
  return p + FZS_HDR;
}

static void aux_free(void *opaque, void *ptr, size_t size) {
  (void)opaque;
  if (!ptr) return;
  uint8_t *p = (uint8_t *)ptr - FZS_HDR;
  size_t had;
  uint64_t tag;
  memcpy(&had, p, sizeof had);
  memcpy(&tag, p + 8, sizeof tag);
  FZ_CHECK_MSG(tag == FZS_TAG, "free of a block the aux allocator did not hand out");
  FZ_CHECK_MSG(had == size, "free with size %zu of a block of %zu bytes", size, had);
  FZ_CHECK(aux.blocks > 0 && aux.live >= size);
  aux.live -= size;
  aux.blocks--;
  memset(p + 8, 0, 8);
  free(p);
}

static const desert_allocator aux_allocator = {aux_alloc, aux_free, NULL};

const desert_allocator *fzs_aux(void) { return &aux_allocator; }

void fzs_aux_check_empty(void) {
  FZ_CHECK_MSG(aux.live == 0 && aux.blocks == 0, "%zu blocks (%zu bytes) not given back",
               aux.blocks, aux.live);
}

/* Aborts unless the aux allocator holds exactly `blocks` blocks again. */
static void aux_check_back_to(size_t blocks, size_t live) {
  FZ_CHECK_MSG(aux.live == live && aux.blocks == blocks,
               "%zu blocks (%zu bytes) live, %zu (%zu) before", aux.blocks, aux.live, blocks, live);
}

/* ---- options ------------------------------------------------------------------------ */

void fzs_options(const desert_schema *s, uint8_t sel, desert_options *o) {
  desert_schema_options req = {-1, -1, -1, -1, -1, -1};
  if (sel & 0x80u) {
    req.scala_chars = sel & 1u ? 1 : 0;
    req.legacy_header_strings = sel & 2u ? 1 : 0;
    req.scala_removed_optional = sel & 4u ? 1 : 0;
    req.zlib_compression = sel & 8u ? 1 : 0;
    req.strict_tags = sel & 16u ? 0 : 1;
    req.strict_varint = sel & 32u ? 0 : 1;
  }
  desert_schema_options_apply(&s->options, &req, o);
  o->max_depth = FZS_MAX_DEPTH;
  o->max_decompressed = (size_t)1 << 20;
}

/* ---- exactness ------------------------------------------------------------------------
 * docs/format.md §9.8: writers register the DeduplicatedStrings of a record's
 * fields before its header names (removed, transient and made-optional field
 * names), readers after them, and the legacy header scoping discards header
 * registrations. A type graph that holds dedup strings and records with
 * steps that can put names in a header (anything but FieldAdded) therefore
 * does not round-trip exactly by the format's definition; nor does a
 * record with a step that names a field it still writes (below). The
 * harnesses then only check that the value encodes and that its bytes
 * decode cleanly or fail with a proper error. */

typedef struct walk {
  const desert_type **seen;
  size_t n, cap;
  bool dedup, header_names;
} walk;

static void walk_type(walk *w, const desert_type *t) {
  if (!t) return;
  for (size_t i = 0; i < w->n; i++)
    if (w->seen[i] == t) return;
  if (w->n == w->cap) {
    size_t ncap = w->cap ? w->cap * 2 : 64;
    const desert_type **ns = realloc(w->seen, ncap * sizeof *ns);
    FZ_CHECK(ns != NULL);
    w->seen = ns;
    w->cap = ncap;
  }
  w->seen[w->n++] = t;
  switch (t->kind) {
  case DESERT_TYPE_DEDUP_STRING:
    w->dedup = true;
    break;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    walk_type(w, t->u.coll.element);
    break;
  case DESERT_TYPE_MAP:
    walk_type(w, t->u.coll.element);
    walk_type(w, t->u.coll.value);
    break;
  case DESERT_TYPE_OPTION:
  case DESERT_TYPE_TRANSPARENT:
  case DESERT_TYPE_REF:
    walk_type(w, t->u.inner);
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    walk_type(w, t->u.alt.left);
    walk_type(w, t->u.alt.right);
    break;
  case DESERT_TYPE_TUPLE:
    for (size_t i = 0; i < t->u.tuple.count; i++) walk_type(w, t->u.tuple.elements[i]);
    break;
  case DESERT_TYPE_RECORD:
    for (size_t i = 0; i < t->u.record.step_count; i++)
      if (t->u.record.steps[i].kind != DESERT_STEP_FIELD_ADDED) w->header_names = true;
    for (size_t i = 0; i < t->u.record.field_count; i++) walk_type(w, t->u.record.fields[i].type);
    break;
  case DESERT_TYPE_ENUM:
    for (size_t i = 0; i < t->u.enumeration.count; i++)
      walk_type(w, t->u.enumeration.ctors[i].payload);
    break;
  default:
    break;
  }
}

static bool has_header_names(const desert_type *t) {
  for (size_t i = 0; i < t->u.record.step_count; i++)
    if (t->u.record.steps[i].kind != DESERT_STEP_FIELD_ADDED) return true;
  return false;
}

/* Steps are data (docs/schema.md §5): a step may name a field the record still
 * writes, and two such cases do not round-trip by the format's definition
 * (docs/format.md §9.5/§9.6), the same in both libraries:
 * - FieldMadeOptional naming a written field that the schema does not make
 *   optional puts a made-optional entry at that field's position while the
 *   value stays a plain T, and a reader with the same schema then reads a
 *   tag byte first, as the old reader of docs/format.md §9.9 (b) does (the fuzzer
 *   found one: a plain compressed field whose empty block, 00, read as
 *   None);
 * - FieldRemoved or FieldMadeTransient naming a written (non-transient)
 *   field puts its name in the header's removed set while the field is
 *   still written, and a reader with the same schema then takes the field
 *   as removed (rule 2): None for an optional field, whatever the bytes
 *   held, and FieldRemovedInSerializedVersion for a required one (the
 *   fuzzer found the first: an optional char16 whose Some('\0') from older
 *   data came back None). */
static bool step_names_written_field(const desert_type *t) {
  for (size_t i = 0; i < t->u.record.step_count; i++) {
    const desert_type_step *st = &t->u.record.steps[i];
    if (!st->field) continue;
    unsigned ignore; /* field flags under which the step is harmless */
    if (st->kind == DESERT_STEP_FIELD_MADE_OPTIONAL)
      ignore = DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT;
    else if (st->kind == DESERT_STEP_FIELD_REMOVED || st->kind == DESERT_STEP_FIELD_MADE_TRANSIENT)
      ignore = DESERT_FIELD_TRANSIENT;
    else
      continue;
    for (size_t f = 0; f < t->u.record.field_count; f++) {
      const desert_type_field *fd = &t->u.record.fields[f];
      if (strcmp(fd->name, st->field) == 0 && !(fd->flags & ignore)) return true;
    }
  }
  return false;
}

static bool exact_round_trip(const desert_schema *s) {
  walk w = {NULL, 0, 0, false, false};
  walk_type(&w, s->root);
  bool exact = !(w.dedup && w.header_names);
  for (size_t i = 0; exact && i < w.n; i++)
    if (w.seen[i]->kind == DESERT_TYPE_RECORD && step_names_written_field(w.seen[i]))
      exact = false;
  /* A record with header names whose field values can register strings
   * (a nested record with header names) before its own header. */
  for (size_t i = 0; exact && i < w.n; i++) {
    const desert_type *t = w.seen[i];
    if (t->kind != DESERT_TYPE_RECORD || !has_header_names(t)) continue;
    walk sub = {NULL, 0, 0, false, false};
    for (size_t f = 0; f < t->u.record.field_count; f++) walk_type(&sub, t->u.record.fields[f].type);
    exact = !sub.header_names && !sub.dedup;
    free(sub.seen);
  }
  free(w.seen);
  return exact;
}

/* ---- the checks ------------------------------------------------------------------------ */

static const desert_codec_limits limits = {FZS_MAX_DEPTH, FZS_MAX_VALUES, FZS_MAX_BIGINT};

typedef struct trace_ctx {
  size_t len, calls;
} trace_ctx;

static void on_trace(void *ctx, size_t start, size_t end, const char *path, desert_type_kind kind,
                     bool leaf) {
  trace_ctx *t = ctx;
  (void)leaf;
  FZ_CHECK_MSG(start <= end && end <= t->len, "trace span [%zu, %zu) of %s outside %zu bytes",
               start, end, path, t->len);
  FZ_CHECK(path != NULL);
  FZ_CHECK(kind > 0 && kind < DESERT_TYPE_KIND_COUNT_);
  t->calls++;
}

/* Decodes data through a fresh counted reader; checks the error invariants.
 * On success *out is the value and *used the bytes it took. */
static desert_status decode_one(const desert_schema *s, const desert_options *o,
                                desert_value_arena *a, const uint8_t *data, size_t len,
                                bool trace, desert_value **out, size_t *used,
                                desert_type_error *err) {
  desert_reader *r = fz_reader_new(o);
  fz_decode_begin(r, data, len);
  trace_ctx tc = {len, 0};
  desert_status st =
      trace ? desert_type_decode_traced(r, s->root, a, &limits, on_trace, &tc, out, err)
            : desert_type_decode(r, s->root, a, &limits, out, err);
  *used = desert_reader_offset(r);
  desert_status rs = fz_decode_end(r);
  FZ_CHECK_MSG(err->status == st, "error status %s, returned %s", desert_status_name(err->status),
               desert_status_name(st));
  if (st != DESERT_OK) {
    FZ_CHECK_MSG(rs == st, "reader status %s, decode returned %s", desert_status_name(rs),
                 desert_status_name(st));
    const char *kind = desert_status_kind(st);
    FZ_CHECK(kind && *kind && strcmp(kind, "Ok") != 0);
    FZ_CHECK_MSG(err->has_offset, "%s without an offset", desert_status_name(st));
    FZ_CHECK_MSG(err->offset <= len, "%s at offset %zu past %zu bytes", desert_status_name(st),
                 err->offset, len);
    FZ_CHECK_MSG(err->offset == desert_reader_error_offset(r),
                 "%s: error offset %zu, reader says %zu", desert_status_name(st), err->offset,
                 desert_reader_error_offset(r));
    FZ_CHECK(memchr(err->path, '\0', sizeof err->path) != NULL);
    FZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
  } else {
    FZ_CHECK_MSG(rs == DESERT_OK, "decode succeeded, reader status %s", desert_status_name(rs));
    FZ_CHECK(*out != NULL);
    FZ_CHECK(*used <= len);
  }
  fz_reader_free(r);
  return st;
}

/* Canonical JSON of v; must succeed and be valid JSON. */
static void canonical(const desert_type *t, const desert_value *v, desert_json_buf *b) {
  desert_status st = desert_json_write_value(b, t, v);
  FZ_CHECK_MSG(st == DESERT_OK && !b->failed, "desert_json_write_value: %s",
               desert_status_name(st));
  FZ_CHECK(fz_utf8_ok((const uint8_t *)b->data, b->len));
  for (size_t i = 0; i < b->len; i++)
    FZ_CHECK_MSG((unsigned char)b->data[i] >= 0x20, "control byte in canonical JSON");
}

/* Encodes v; the only failure allowed is one that no value of the type
 * avoids: UnknownFieldReferenceInEvolutionStep, a FieldMadeOptional step of
 * a field that is neither written nor removed under the session's
 * removed_optional_style (docs/format.md §9.5: Rust style fails for a field made
 * optional and later transient). Returns false after such a failure. */
static bool encode_one(const desert_type *t, const desert_value *v, desert_writer *w,
                       const char *what) {
  desert_writer_reset(w);
  desert_type_error terr;
  desert_status st = desert_type_encode(w, t, v, &limits, &terr);
  if (st == DESERT_E_UNKNOWN_FIELD_REFERENCE) return false;
  FZ_CHECK_MSG(st == DESERT_OK, "%s does not encode: %s at %s: %s", what, desert_status_name(st),
               terr.path, terr.message);
  FZ_CHECK(desert_writer_status(w) == DESERT_OK);
  return true;
}

static bool same(const char *a, size_t an, const char *b, size_t bn) {
  return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* v (canonical text j1) encodes to b1; b1 decodes to j1, consuming all of
 * it; j1 converts back to a value that prints as j1 and encodes to b1. */
static void round_trip(const desert_schema *s, const desert_options *o, desert_value_arena *a,
                       const desert_value *v, const desert_json_buf *j1) {
  const desert_type *root = s->root;
  desert_options wo = *o;
  wo.allocator.alloc = NULL;
  wo.allocator.free = NULL;
  wo.allocator.opaque = NULL;
  desert_writer *w = NULL;
  FZ_CHECK(desert_writer_create(&wo, &w) == DESERT_OK);
  if (!encode_one(root, v, w, "a decoded value")) {
    desert_writer_free(w);
    return;
  }
  size_t n1 = 0;
  const uint8_t *p1 = desert_writer_data(w, &n1);
  uint8_t *b1 = malloc(n1 ? n1 : 1);
  FZ_CHECK(b1 != NULL);
  if (n1) memcpy(b1, p1, n1);

  /* b1 decodes to the same canonical text and is consumed completely. */
  desert_value *v2 = NULL;
  size_t used = 0;
  desert_type_error err;
  desert_status st = decode_one(s, o, a, b1, n1, false, &v2, &used, &err);
  if (!exact_round_trip(s)) { /* see "exactness" above */
    desert_writer_free(w);
    free(b1);
    return;
  }
  FZ_CHECK_MSG(st == DESERT_OK, "re-encoded bytes do not decode: %s at %zu (%s: %s)",
               desert_status_name(st), err.offset, err.path, err.message);
  FZ_CHECK_MSG(used == n1, "re-encoded value of %zu bytes decoded from %zu", n1, used);
  desert_json_buf j2 = {0};
  canonical(root, v2, &j2);
  FZ_CHECK_MSG(same(j1->data, j1->len, j2.data, j2.len), "round trip changed the value: %.*s -> %.*s",
               (int)(j1->len < 200 ? j1->len : 200), j1->data, (int)(j2.len < 200 ? j2.len : 200),
               j2.data);
  desert_json_buf_free(&j2);

  /* ... and encodes to the same bytes again. */
  FZ_CHECK(encode_one(root, v2, w, "a re-decoded value"));
  size_t n2 = 0;
  const uint8_t *p2 = desert_writer_data(w, &n2);
  FZ_CHECK_MSG(same((const char *)b1, n1, (const char *)p2, n2),
               "second encoding differs (%zu vs %zu bytes)", n1, n2);

  /* The canonical text is an input of the same value (docs/schema.md §11). */
  desert_json *j = NULL;
  char msg[256];
  st = desert_json_parse(j1->data, j1->len, a, &j, msg, sizeof msg);
  FZ_CHECK_MSG(st == DESERT_OK, "canonical text does not parse: %s", msg);
  desert_value *v3 = NULL;
  desert_json_error jerr;
  st = desert_json_to_value(root, j, a, &v3, &jerr);
  FZ_CHECK_MSG(st == DESERT_OK, "canonical text is not a value of its type: %s (%s)",
               desert_status_name(st), jerr.message);
  desert_json_buf j3 = {0};
  canonical(root, v3, &j3);
  FZ_CHECK_MSG(same(j1->data, j1->len, j3.data, j3.len), "JSON round trip changed the text");
  desert_json_buf_free(&j3);
  FZ_CHECK(encode_one(root, v3, w, "a value converted from canonical text"));
  size_t n3 = 0;
  const uint8_t *p3 = desert_writer_data(w, &n3);
  FZ_CHECK_MSG(same((const char *)b1, n1, (const char *)p3, n3),
               "value from canonical text encodes differently (%zu vs %zu bytes)", n1, n3);
  desert_writer_free(w);
  free(b1);
}

bool fzs_decode_check(const desert_schema *s, const desert_options *o, const uint8_t *data,
                      size_t len, bool trace) {
  size_t blocks0 = aux.blocks, live0 = aux.live;
  desert_value_arena *a = NULL;
  FZ_CHECK(desert_value_arena_create(fzs_aux(), &a) == DESERT_OK);
  desert_value *v = NULL;
  size_t used = 0;
  desert_type_error err;
  desert_status st = decode_one(s, o, a, data, len, trace, &v, &used, &err);
  size_t asz = desert_value_arena_size(a);
  FZ_CHECK_MSG(asz <= FZS_ARENA_BOUND(len), "value arena of %zu bytes for %zu input bytes", asz,
               len);
  if (st == DESERT_OK) {
    desert_json_buf j1 = {0};
    canonical(s->root, v, &j1);
    round_trip(s, o, a, v, &j1);
    desert_json_buf_free(&j1);
  }
  desert_value_arena_free(a);
  aux_check_back_to(blocks0, live0);
  return st == DESERT_OK;
}

/* The whole-value encode of a JSON text (parse, then desert_json_encode_ex)
 * against desert_json_encode_text and its text walk alone: the same status,
 * error and bytes, and whatever the walk takes encodes as the whole path
 * does. */
static void text_encode_check(const desert_schema *s, const desert_options *o, const char *text,
                              size_t len) {
  desert_options wo = *o;
  wo.allocator.alloc = NULL;
  wo.allocator.free = NULL;
  wo.allocator.opaque = NULL;
  desert_value_arena *a = NULL;
  desert_writer *w1 = NULL, *w2 = NULL;
  FZ_CHECK(desert_value_arena_create(fzs_aux(), &a) == DESERT_OK);
  FZ_CHECK(desert_writer_create(&wo, &w1) == DESERT_OK);
  FZ_CHECK(desert_writer_create(&wo, &w2) == DESERT_OK);
  desert_json *j = NULL;
  desert_json_error e1, e2;
  desert_status s1 = desert_json_parse_depth(text, len, a, 0, &j, &e1);
  if (!s1) s1 = desert_json_encode_ex(s, j, w1, a, NULL, &e1);
  desert_value_arena_reset(a);
  desert_status s2 = desert_json_encode_text(s, text, len, w2, a, NULL, &e2);
  FZ_CHECK_MSG(s1 == s2 && e1.kind == e2.kind && strcmp(e1.message, e2.message) == 0,
               "encode_text %s '%s', whole path %s '%s'", desert_status_name(s2), e2.message,
               desert_status_name(s1), e1.message);
  size_t n1 = 0, n2 = 0;
  const uint8_t *b1 = desert_writer_data(w1, &n1);
  if (!s1) {
    const uint8_t *b2 = desert_writer_data(w2, &n2);
    FZ_CHECK_MSG(n1 == n2 && (n1 == 0 || memcmp(b1, b2, n1) == 0),
                 "encode_text wrote other bytes than the whole path");
  }
  if (desert_json_encode_text_walk(s, text, len, w2, a, NULL)) {
    FZ_CHECK_MSG(s1 == DESERT_OK, "the text walk took a value the whole path refuses: %s",
                 e1.message);
    const uint8_t *b2 = desert_writer_data(w2, &n2);
    FZ_CHECK_MSG(n1 == n2 && (n1 == 0 || memcmp(b1, b2, n1) == 0),
                 "the text walk wrote other bytes than the whole path");
  }
  desert_writer_free(w1);
  desert_writer_free(w2);
  desert_value_arena_free(a);
}

void fzs_value_check(const desert_schema *s, const desert_options *o, const char *text,
                     size_t len) {
  size_t blocks0 = aux.blocks, live0 = aux.live;
  text_encode_check(s, o, text, len);
  desert_value_arena *a = NULL;
  FZ_CHECK(desert_value_arena_create(fzs_aux(), &a) == DESERT_OK);
  desert_json *j = NULL;
  char msg[256];
  msg[0] = '\0';
  desert_status st = desert_json_parse(text, len, a, &j, msg, sizeof msg);
  if (st != DESERT_OK) {
    FZ_CHECK_MSG(st == DESERT_E_ARGUMENT, "parse failed with %s", desert_status_name(st));
    FZ_CHECK(msg[0] != '\0');
  } else {
    desert_value *v = NULL;
    desert_json_error err;
    st = desert_json_to_value(s->root, j, a, &v, &err);
    if (st != DESERT_OK) {
      FZ_CHECK_MSG(err.kind == DESERT_JSON_ERR_BAD_VALUE ||
                       (err.kind == DESERT_JSON_ERR_STATUS &&
                        (err.status == DESERT_E_INVALID_CONSTRUCTOR_NAME ||
                         err.status == DESERT_E_SERIALIZING_TRANSIENT)),
                   "conversion failed with kind %d status %s: %s", (int)err.kind,
                   desert_status_name(err.status), err.message);
      FZ_CHECK_MSG(err.message[0] == '$', "message without a JSON path: %s", err.message);
    } else {
      desert_json_buf j1 = {0};
      canonical(s->root, v, &j1);
      round_trip(s, o, a, v, &j1);
      desert_json_buf_free(&j1);
    }
  }
  desert_value_arena_free(a);
  aux_check_back_to(blocks0, live0);
}
