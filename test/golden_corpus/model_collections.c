/* test/golden_corpus/model_collections.c — golden/collections.bin through
 * C-struct descriptors: lists in both forms, lists of lists, options,
 * Either and Try elements (LISTOF slots), maps as lists of 2-tuples, a
 * tuple, a recursive tree through an unknown-size list, and the
 * PersistedThrowable descriptors of examples/golden_cstruct_model.h.
 * SPDX-License-Identifier: MIT */
#include "corpus_models.h"
#include "golden_cstruct_model.h" /* gcs_frame, gcs_throwable and their descriptors */

typedef struct opt_i32 {
  bool has;
  int32_t v;
} opt_i32;
typedef struct opt_opt_i32 {
  bool has, has_inner;
  int32_t v;
} opt_opt_i32;
typedef struct opt_unit {
  bool has;
} opt_unit;
typedef struct either_slot {
  bool right;
  desert_str left;
  int32_t value;
} either_slot;
typedef struct try_slot {
  bool success;
  int32_t value;
  gcs_throwable failure;
} try_slot;
typedef struct str_i32 { /* (String, Int) */
  desert_str key;
  int32_t value;
} str_i32;
typedef struct i32_strs { /* (Int, List[String]) */
  int32_t key;
  desert_clist value; /* desert_str */
} i32_strs;
typedef struct triple {
  int32_t a;
  desert_str b;
  bool c;
} triple;
typedef struct tree {
  desert_str label;
  desert_clist children; /* tree */
} tree;

typedef struct collections {
  desert_clist known, unknown, empty_known, empty_unknown; /* int32_t */
  desert_clist byte_array;                                 /* int8_t */
  desert_clist non_empty;                                  /* desert_str */
  desert_clist fixed_length;                               /* uint16_t */
  desert_clist nested;                                     /* desert_clist of bool */
  desert_clist set;                                        /* desert_str */
  desert_clist map;                                        /* str_i32 */
  desert_clist map_unknown;                                /* i32_strs */
  desert_clist options;                                    /* opt_i32 */
  desert_clist nested_options;                             /* opt_opt_i32 */
  desert_clist option_unit;                                /* opt_unit */
  desert_clist eithers;                                    /* either_slot */
  desert_clist tries;                                      /* try_slot */
  triple tuple;
  uint64_t user; /* transparent UserId(u64) */
  tree root;
  bool has_optional, has_absent;
  int32_t optional;
  desert_str absent;
} collections;

static const desert_cfield str_i32_c[] = {DESERT_CFIELD(str_i32, key, DESERT_C_STRING),
                                          DESERT_CFIELD(str_i32, value, DESERT_C_I32)};
static const desert_cstruct str_i32_desc = DESERT_CSTRUCT_TUPLE(str_i32, str_i32_c);
static const desert_cfield i32_strs_c[] = {
    DESERT_CFIELD(i32_strs, key, DESERT_C_I32),
    DESERT_CFIELD_LIST(i32_strs, value, DESERT_C_STRING, NULL)};
static const desert_cstruct i32_strs_desc = DESERT_CSTRUCT_TUPLE(i32_strs, i32_strs_c);
static const desert_cfield triple_c[] = {DESERT_CFIELD(triple, a, DESERT_C_I32),
                                         DESERT_CFIELD(triple, b, DESERT_C_STRING),
                                         DESERT_CFIELD(triple, c, DESERT_C_BOOL)};
static const desert_cstruct triple_desc = DESERT_CSTRUCT_TUPLE(triple, triple_c);

static const desert_field_desc tree_fields[] = {{"label", 0}, {"children", 0}};
static const desert_cstruct tree_desc;
static const desert_cfield tree_c[] = {
    DESERT_CFIELD(tree, label, DESERT_C_STRING),
    DESERT_CFIELD_LIST_STREAM(tree, children, DESERT_C_RECORD, &tree_desc)};
static const desert_cstruct tree_desc = DESERT_CSTRUCT_V0(tree, "Tree", tree_fields, tree_c, NULL);

static const desert_field_desc coll_fields[] = {
    {"known", 0},          {"unknown", 0},     {"empty_known", 0},
    {"empty_unknown", 0},  {"scala_byte_array", 0}, {"non_empty", 0},
    {"fixed_length", 0},   {"nested", 0},      {"set", 0},
    {"map", 0},            {"map_unknown", 0}, {"options", 0},
    {"nested_options", 0}, {"option_unit", 0}, {"eithers", 0},
    {"tries", 0},          {"tuple", 0},       {"user", 0},
    {"tree", 0},           {"optional_field", DESERT_FIELD_OPTIONAL},
    {"absent_field", DESERT_FIELD_OPTIONAL}};
static const desert_cfield coll_c[] = {
    DESERT_CFIELD_LIST(collections, known, DESERT_C_I32, NULL),
    DESERT_CFIELD_LIST_STREAM(collections, unknown, DESERT_C_I32, NULL),
    DESERT_CFIELD_LIST(collections, empty_known, DESERT_C_I32, NULL),
    DESERT_CFIELD_LIST_STREAM(collections, empty_unknown, DESERT_C_I32, NULL),
    DESERT_CFIELD_LIST(collections, byte_array, DESERT_C_I8, NULL),
    DESERT_CFIELD_LIST(collections, non_empty, DESERT_C_STRING, NULL),
    DESERT_CFIELD_LIST(collections, fixed_length, DESERT_C_U16, NULL),
    DESERT_CFIELD_LISTOF(collections, nested, desert_clist, DESERT_CELEM_LIST(DESERT_C_BOOL, NULL)),
    DESERT_CFIELD_LIST(collections, set, DESERT_C_STRING, NULL),
    DESERT_CFIELD_LIST(collections, map, DESERT_C_RECORD, &str_i32_desc),
    DESERT_CFIELD_LIST_STREAM(collections, map_unknown, DESERT_C_RECORD, &i32_strs_desc),
    DESERT_CFIELD_LISTOF(collections, options, opt_i32,
                         DESERT_CFIELD_OPTION(opt_i32, has, DESERT_CFIELD(opt_i32, v, DESERT_C_I32))),
    DESERT_CFIELD_LISTOF(collections, nested_options, opt_opt_i32,
                         DESERT_CFIELD_OPTION(opt_opt_i32, has,
                                              DESERT_CFIELD_OPTION(opt_opt_i32, has_inner,
                                                                   DESERT_CFIELD(opt_opt_i32, v,
                                                                                 DESERT_C_I32)))),
    DESERT_CFIELD_LISTOF(collections, option_unit, opt_unit,
                         DESERT_CFIELD_OPTION(opt_unit, has, DESERT_CFIELD_UNIT)),
    DESERT_CFIELD_LISTOF(collections, eithers, either_slot,
                         DESERT_CFIELD_EITHER(either_slot, right,
                                              DESERT_CFIELD(either_slot, left, DESERT_C_STRING),
                                              DESERT_CFIELD(either_slot, value, DESERT_C_I32))),
    DESERT_CFIELD_LISTOF(collections, tries, try_slot,
                         DESERT_CFIELD_TRY(try_slot, success,
                                           DESERT_CFIELD_RECORD(try_slot, failure,
                                                                &gcs_throwable_desc),
                                           DESERT_CFIELD(try_slot, value, DESERT_C_I32))),
    DESERT_CFIELD_RECORD(collections, tuple, &triple_desc),
    DESERT_CFIELD(collections, user, DESERT_C_U64),
    DESERT_CFIELD_RECORD(collections, root, &tree_desc),
    DESERT_CFIELD_OPT(collections, optional, DESERT_C_I32, has_optional),
    DESERT_CFIELD_OPT(collections, absent, DESERT_C_STRING, has_absent)};
static const desert_cstruct coll_desc =
    DESERT_CSTRUCT_V0(collections, "Collections", coll_fields, coll_c, NULL);

/* ---- equality ---- */

#define SCALAR_EQ(name, T) \
  static bool name(const void *a, const void *b) { return *(const T *)a == *(const T *)b; }
SCALAR_EQ(i32_eq, int32_t)
SCALAR_EQ(i8_eq, int8_t)
SCALAR_EQ(u16_eq, uint16_t)
SCALAR_EQ(bool_eq, bool)
static bool bools_eq(const void *a, const void *b) {
  return golden_list_eq(*(const desert_clist *)a, *(const desert_clist *)b, sizeof(bool), bool_eq);
}
static bool str_i32_eq(const void *pa, const void *pb) {
  const str_i32 *a = pa, *b = pb;
  return golden_str_eq(a->key, b->key) && a->value == b->value;
}
static bool i32_strs_eq(const void *pa, const void *pb) {
  const i32_strs *a = pa, *b = pb;
  return a->key == b->key && golden_str_list_eq(a->value, b->value);
}
static bool opt_i32_eq(const void *pa, const void *pb) {
  const opt_i32 *a = pa, *b = pb;
  return a->has == b->has && (!a->has || a->v == b->v);
}
static bool opt_opt_i32_eq(const void *pa, const void *pb) {
  const opt_opt_i32 *a = pa, *b = pb;
  return a->has == b->has && (!a->has || (a->has_inner == b->has_inner &&
                                          (!a->has_inner || a->v == b->v)));
}
static bool opt_unit_eq(const void *a, const void *b) {
  return ((const opt_unit *)a)->has == ((const opt_unit *)b)->has;
}
static bool either_eq(const void *pa, const void *pb) {
  const either_slot *a = pa, *b = pb;
  return a->right == b->right &&
         (a->right ? a->value == b->value : golden_str_eq(a->left, b->left));
}
static bool frame_eq(const void *pa, const void *pb) {
  const gcs_frame *a = pa, *b = pb;
  return a->has_class_name == b->has_class_name && a->has_method_name == b->has_method_name &&
         a->has_file_name == b->has_file_name && golden_str_eq(a->class_name, b->class_name) &&
         golden_str_eq(a->method_name, b->method_name) &&
         golden_str_eq(a->file_name, b->file_name) && a->line_number == b->line_number;
}
static bool throwable_eq(const gcs_throwable *a, const gcs_throwable *b) {
  for (; a && b; a = a->cause, b = b->cause)
    if (!golden_str_eq(a->class_name, b->class_name) || !golden_str_eq(a->message, b->message) ||
        !golden_list_eq(a->stack_trace, b->stack_trace, sizeof(gcs_frame), frame_eq))
      return false;
  return a == NULL && b == NULL;
}
static bool try_eq(const void *pa, const void *pb) {
  const try_slot *a = pa, *b = pb;
  return a->success == b->success &&
         (a->success ? a->value == b->value : throwable_eq(&a->failure, &b->failure));
}
static bool tree_eq(const void *pa, const void *pb) {
  const tree *a = pa, *b = pb;
  return golden_str_eq(a->label, b->label) &&
         golden_list_eq(a->children, b->children, sizeof(tree), tree_eq);
}

static bool coll_equal(const void *pa, const void *pb) {
  const collections *a = pa, *b = pb;
  return golden_list_eq(a->known, b->known, 4, i32_eq) && golden_list_eq(a->unknown, b->unknown, 4, i32_eq) &&
         golden_list_eq(a->empty_known, b->empty_known, 4, i32_eq) &&
         golden_list_eq(a->empty_unknown, b->empty_unknown, 4, i32_eq) &&
         golden_list_eq(a->byte_array, b->byte_array, 1, i8_eq) &&
         golden_str_list_eq(a->non_empty, b->non_empty) &&
         golden_list_eq(a->fixed_length, b->fixed_length, 2, u16_eq) &&
         golden_list_eq(a->nested, b->nested, sizeof(desert_clist), bools_eq) &&
         golden_str_list_eq(a->set, b->set) &&
         golden_list_eq(a->map, b->map, sizeof(str_i32), str_i32_eq) &&
         golden_list_eq(a->map_unknown, b->map_unknown, sizeof(i32_strs), i32_strs_eq) &&
         golden_list_eq(a->options, b->options, sizeof(opt_i32), opt_i32_eq) &&
         golden_list_eq(a->nested_options, b->nested_options, sizeof(opt_opt_i32), opt_opt_i32_eq) &&
         golden_list_eq(a->option_unit, b->option_unit, sizeof(opt_unit), opt_unit_eq) &&
         golden_list_eq(a->eithers, b->eithers, sizeof(either_slot), either_eq) &&
         golden_list_eq(a->tries, b->tries, sizeof(try_slot), try_eq) && a->tuple.a == b->tuple.a &&
         golden_str_eq(a->tuple.b, b->tuple.b) && a->tuple.c == b->tuple.c && a->user == b->user &&
         tree_eq(&a->root, &b->root) && a->has_optional == b->has_optional &&
         (!a->has_optional || a->optional == b->optional) && a->has_absent == b->has_absent;
}

/* ---- collections.json, written out again in C ---- */


static int32_t one_two[] = {1, 2};
static int8_t bytes3[] = {1, 2, 3};
static desert_str x1[] = {GSTR("x")};
static uint16_t fixed3[] = {1, 256, 65535};
static bool b_true[] = {true}, b_false_true[] = {false, true};
static desert_clist nested[] = {GCLIST(b_true), GNOLIST, GCLIST(b_false_true)};
static desert_str set_ba[] = {GSTR("b"), GSTR("a")};
static str_i32 map3[] = {{GSTR("b"), 2}, {GSTR("a"), 1}, {GSTR("b"), 3}};
static desert_str seven[] = {GSTR("seven")};
static i32_strs map_unknown[] = {{7, GCLIST(seven)}, {-1, GNOLIST}};
static opt_i32 options2[] = {{false, 0}, {true, 5}};
static opt_opt_i32 nested_opts[] = {{false, false, 0}, {true, false, 0}, {true, true, 5}};
static opt_unit option_unit[] = {{false}, {true}};
static either_slot eithers[] = {{false, GSTR("no"), 0}, {true, {NULL, 0}, 42}};
/* -2 (a native method) as the var_u32 4294967294 */
static gcs_frame frames[] = {{true, true, true, GSTR("Main"), GSTR("run"), GSTR("Main.scala"), 12},
                             {false, false, false, {NULL, 0}, {NULL, 0}, {NULL, 0}, 4294967294u}};
static gcs_throwable cause = {GSTR("E"), GSTR("m"), GNOLIST, NULL};
static try_slot tries[] = {
    {true, 1, {{NULL, 0}, {NULL, 0}, GNOLIST, NULL}},
    {false, 0,
     {GSTR("java.lang.IllegalStateException"), GSTR("boom"), GCLIST(frames), &cause}}};
static tree leaf[] = {{GSTR("leaf"), GNOLIST}};

static const collections coll_value = {
    GCLIST(one_two), GCLIST(one_two), GNOLIST, GNOLIST, GCLIST(bytes3), GCLIST(x1), GCLIST(fixed3),
    GCLIST(nested), GCLIST(set_ba), GCLIST(map3), GCLIST(map_unknown), GCLIST(options2),
    GCLIST(nested_opts), GCLIST(option_unit), GCLIST(eithers), GCLIST(tries),
    {1, GSTR("x"), true}, UINT64_MAX, {GSTR("root"), GCLIST(leaf)},
    true, false, 9, {NULL, 0}};

const golden_codec golden_collection_codecs[] = {
    {"collections", "Collections (C structs)", 0, sizeof(collections), &coll_value, &coll_desc,
     NULL, NULL, coll_equal, 0, false},
};
const size_t golden_collection_codec_count =
    sizeof golden_collection_codecs / sizeof *golden_collection_codecs;
