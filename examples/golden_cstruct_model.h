/* examples/golden_cstruct_model.h — desert-scala's golden TestModel1
 * (../shared/golden/README.md) described entirely by C-struct descriptors
 * (desert_cstruct, include/desert/types.h): the structs a user would
 * declare and the static const data that maps them to the wire. No codec
 * code: desert_cstruct_encode / _decode run it. Header-only (the
 * descriptors are static data) so the golden_cstruct example, the tests and
 * the bench share one definition; examples/golden_model.{h,c} is the same
 * model written by hand.
 * SPDX-License-Identifier: MIT
 *
 * Differences from the hand-written model: StackTraceElement's hand-written
 * layout (a 00 byte, three Option[String], var_u32) is described as what it
 * is byte for byte, a version-0 record of three optional strings and a
 * var_u32 (the 00 is the version byte); where Scala ignores that byte, a
 * record reader takes a non-zero value as the version of an evolved record
 * and reads an evolution header after it (Scala always writes 00). The `list`
 * field is always written in the unknown-size form, as Scala writes a List
 * (the hand-written model remembers the form it read). */
#ifndef DESERT_EXAMPLES_GOLDEN_CSTRUCT_MODEL_H
#define DESERT_EXAMPLES_GOLDEN_CSTRUCT_MODEL_H

#include <desert/types.h>

/* ---- C structs -------------------------------------------------------------------- */

typedef struct gcs_frame { /* java.lang.StackTraceElement */
  bool has_class_name, has_method_name, has_file_name;
  desert_str class_name, method_name, file_name;
  uint32_t line_number;
} gcs_frame;

typedef struct gcs_throwable { /* PersistedThrowable */
  desert_str class_name;
  desert_str message;
  desert_clist stack_trace;    /* of gcs_frame */
  struct gcs_throwable *cause; /* NULL: None (arena-allocated on decode) */
} gcs_throwable;

typedef struct gcs_element1 {
  desert_str id;
} gcs_element1;

typedef struct gcs_first {
  gcs_element1 elem;
} gcs_first;

typedef struct gcs_second {
  uint8_t uuid[16];
  bool has_desc, has_cached;
  desert_str desc;
  desert_str cached; /* transient: never written, None when read */
} gcs_second;

typedef enum gcs_element2_case { GCS_FIRST = 0, GCS_SECOND = 1, GCS_THIRD = 2 } gcs_element2_case;

typedef struct gcs_element2 { /* ListElement2: sorted enum, Third transient */
  gcs_element2_case kind;     /* declaration index of the case (a 4-byte C enum) */
  union {
    gcs_first first;
    gcs_second second;
  } u;
} gcs_element2;

typedef struct gcs_entry { /* Map[String, ListElement2] entry: a 2-tuple */
  desert_str key;
  gcs_element2 value;
} gcs_entry;

typedef struct gcs_model { /* TestModel1 */
  int8_t byte_;
  int16_t short_;
  int32_t int_;
  int64_t long_;
  float float_;
  double double_;
  bool boolean_;
  desert_str string; /* FieldAdded, default "default string" */
  uint8_t uuid[16];
  gcs_throwable exception;
  desert_clist list;   /* of gcs_element1, unknown-size form */
  desert_clist array;  /* of int64_t */
  desert_clist vector; /* of gcs_element1 */
  desert_clist set;    /* of desert_str, wire order; FieldAdded, default empty */
  bool either_right;   /* Either[String, Boolean] */
  bool either_right_value;
  desert_str either_left;
  bool tried_success; /* Try[ListElement2] */
  gcs_element2 tried_value;
  gcs_throwable tried_failure;
  bool has_option;     /* Option[Map[String, ListElement2]], an optional field */
  desert_clist option; /* of gcs_entry, wire order */
} gcs_model;

/* ---- descriptors ---------------------------------------------------------------- */

static const desert_field_desc gcs_frame_fields[] = {{"className", DESERT_FIELD_OPTIONAL},
                                                     {"methodName", DESERT_FIELD_OPTIONAL},
                                                     {"fileName", DESERT_FIELD_OPTIONAL},
                                                     {"lineNumber", 0}};
static const desert_cfield gcs_frame_c[] = {
    DESERT_CFIELD_OPT(gcs_frame, class_name, DESERT_C_STRING, has_class_name),
    DESERT_CFIELD_OPT(gcs_frame, method_name, DESERT_C_STRING, has_method_name),
    DESERT_CFIELD_OPT(gcs_frame, file_name, DESERT_C_STRING, has_file_name),
    DESERT_CFIELD(gcs_frame, line_number, DESERT_C_VAR_U32)};
static const desert_cstruct gcs_frame_desc =
    DESERT_CSTRUCT_V0(gcs_frame, "StackTraceElement", gcs_frame_fields, gcs_frame_c, NULL);

/* cause: an optional field holding a pointer to the same descriptor — the
 * recursion (NULL is None, no flag needed). */
static const desert_field_desc gcs_throwable_fields[] = {
    {"className", 0}, {"message", 0}, {"stackTrace", 0}, {"cause", DESERT_FIELD_OPTIONAL}};
static const desert_cstruct gcs_throwable_desc;
static const desert_cfield gcs_throwable_c[] = {
    DESERT_CFIELD(gcs_throwable, class_name, DESERT_C_STRING),
    DESERT_CFIELD(gcs_throwable, message, DESERT_C_STRING),
    DESERT_CFIELD_LIST(gcs_throwable, stack_trace, DESERT_C_RECORD, &gcs_frame_desc),
    DESERT_CFIELD_PTR(gcs_throwable, cause, &gcs_throwable_desc)};
static const desert_cstruct gcs_throwable_desc = DESERT_CSTRUCT_V0(
    gcs_throwable, "PersistedThrowable", gcs_throwable_fields, gcs_throwable_c, NULL);

static const desert_field_desc gcs_element1_fields[] = {{"id", 0}};
static const desert_cfield gcs_element1_c[] = {DESERT_CFIELD(gcs_element1, id, DESERT_C_STRING)};
static const desert_cstruct gcs_element1_desc =
    DESERT_CSTRUCT_V0(gcs_element1, "ListElement1", gcs_element1_fields, gcs_element1_c, NULL);

static const desert_field_desc gcs_first_fields[] = {{"elem", 0}};
static const desert_cfield gcs_first_c[] = {
    DESERT_CFIELD_RECORD(gcs_first, elem, &gcs_element1_desc)};
static const desert_cstruct gcs_first_desc =
    DESERT_CSTRUCT_V0(gcs_first, "First", gcs_first_fields, gcs_first_c, NULL);

static const desert_field_desc gcs_second_fields[] = {
    {"uuid", 0},
    {"desc", DESERT_FIELD_OPTIONAL},
    {"cached", DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step gcs_second_steps[] = {
    {DESERT_STEP_FIELD_MADE_TRANSIENT, "cached", false}};
static const desert_cfield gcs_second_c[] = {
    DESERT_CFIELD(gcs_second, uuid, DESERT_C_UUID),
    DESERT_CFIELD_OPT(gcs_second, desc, DESERT_C_STRING, has_desc),
    DESERT_CFIELD_OPT(gcs_second, cached, DESERT_C_STRING, has_cached)};
static const desert_cstruct gcs_second_desc =
    DESERT_CSTRUCT(gcs_second, "Second", gcs_second_fields, gcs_second_steps, gcs_second_c, NULL);

/* Scala shapeless order: ids by sorted names; Third is a transient
 * constructor (no id, no payload stored). */
static const desert_case_desc gcs_element2_cases[] = {
    {"First", 0}, {"Second", 0}, {"Third", DESERT_CASE_TRANSIENT}};
static const desert_ccase gcs_element2_ccases[] = {
    DESERT_CCASE(gcs_element2, u.first, &gcs_first_desc),
    DESERT_CCASE(gcs_element2, u.second, &gcs_second_desc), DESERT_CCASE_NONE};
static const desert_cenum gcs_element2_enum =
    DESERT_CENUM(gcs_element2, kind, "ListElement2", gcs_element2_cases, true, gcs_element2_ccases);

static const desert_cfield gcs_entry_c[] = {
    DESERT_CFIELD(gcs_entry, key, DESERT_C_STRING),
    DESERT_CFIELD_ENUM(gcs_entry, value, &gcs_element2_enum)};
static const desert_cstruct gcs_entry_desc = DESERT_CSTRUCT_TUPLE(gcs_entry, gcs_entry_c);

static const desert_field_desc gcs_model_fields[] = {
    {"byte", 0},    {"short", 0},     {"int", 0},
    {"long", 0},    {"float", 0},     {"double", 0},
    {"boolean", 0}, {"unit", 0},      {"string", 0},
    {"uuid", 0},    {"exception", 0}, {"list", 0},
    {"array", 0},   {"vector", 0},    {"set", 0},
    {"either", 0},  {"tried", 0},     {"option", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step gcs_model_steps[] = {
    {DESERT_STEP_FIELD_MADE_OPTIONAL, "option", false},
    {DESERT_STEP_FIELD_ADDED, "string", true},
    {DESERT_STEP_FIELD_ADDED, "set", true}};
static const desert_cfield gcs_model_c[] = {
    DESERT_CFIELD(gcs_model, byte_, DESERT_C_I8), DESERT_CFIELD(gcs_model, short_, DESERT_C_I16),
    DESERT_CFIELD(gcs_model, int_, DESERT_C_I32), DESERT_CFIELD(gcs_model, long_, DESERT_C_I64),
    DESERT_CFIELD(gcs_model, float_, DESERT_C_F32), DESERT_CFIELD(gcs_model, double_, DESERT_C_F64),
    DESERT_CFIELD(gcs_model, boolean_, DESERT_C_BOOL), DESERT_CFIELD_UNIT,
    DESERT_CFIELD(gcs_model, string, DESERT_C_STRING),
    DESERT_CFIELD(gcs_model, uuid, DESERT_C_UUID),
    DESERT_CFIELD_RECORD(gcs_model, exception, &gcs_throwable_desc),
    DESERT_CFIELD_LIST_STREAM(gcs_model, list, DESERT_C_RECORD, &gcs_element1_desc),
    DESERT_CFIELD_LIST(gcs_model, array, DESERT_C_I64, NULL),
    DESERT_CFIELD_LIST(gcs_model, vector, DESERT_C_RECORD, &gcs_element1_desc),
    DESERT_CFIELD_LIST(gcs_model, set, DESERT_C_STRING, NULL),
    DESERT_CFIELD_EITHER(gcs_model, either_right,
                         DESERT_CFIELD(gcs_model, either_left, DESERT_C_STRING),
                         DESERT_CFIELD(gcs_model, either_right_value, DESERT_C_BOOL)),
    DESERT_CFIELD_TRY(gcs_model, tried_success,
                      DESERT_CFIELD_RECORD(gcs_model, tried_failure, &gcs_throwable_desc),
                      DESERT_CFIELD_ENUM(gcs_model, tried_value, &gcs_element2_enum)),
    /* a Map: a list of 2-tuple records, in an optional field */
    DESERT_CFIELD_LIST_OPT(gcs_model, option, DESERT_C_RECORD, &gcs_entry_desc, has_option)};

/* Fills the FieldAdded default of `string` when the data predates it (the
 * set's default, empty, is the zeroed list). */
static void gcs_model_defaults(void *obj, size_t index) {
  gcs_model *m = obj;
  if (index == 8) {
    m->string.ptr = "default string";
    m->string.len = 14;
  }
}

static const desert_cstruct gcs_model_desc = DESERT_CSTRUCT(
    gcs_model, "TestModel1", gcs_model_fields, gcs_model_steps, gcs_model_c, gcs_model_defaults);

#endif /* DESERT_EXAMPLES_GOLDEN_CSTRUCT_MODEL_H */
