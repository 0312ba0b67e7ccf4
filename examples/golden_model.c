/* examples/golden_model.c — hand-written codecs of the golden TestModel1
 * (../shared/golden/README.md) on libdesert's record API: one
 * desert_record_desc per case class, read and written field by field.
 * SPDX-License-Identifier: MIT */
#include "golden_model.h"

#include <string.h>

#include <desert/stream.h> /* desert_reader_ensure */

/* ---- descriptions --------------------------------------------------------- */

static const desert_field_desc tm1_fields[] = {
    {"byte", 0},    {"short", 0},     {"int", 0},
    {"long", 0},    {"float", 0},     {"double", 0},
    {"boolean", 0}, {"unit", 0},      {"string", 0},
    {"uuid", 0},    {"exception", 0}, {"list", 0},
    {"array", 0},   {"vector", 0},    {"set", 0},
    {"either", 0},  {"tried", 0},     {"option", DESERT_FIELD_OPTIONAL}};
/* InitialVersion is implicit: these are steps 1..3, so `string` lives in
 * chunk 2 and `set` in chunk 3 (the types in the golden dataset's README). */
static const desert_evolution_step tm1_steps[] = {
    {DESERT_STEP_FIELD_MADE_OPTIONAL, "option", false},
    {DESERT_STEP_FIELD_ADDED, "string", true},
    {DESERT_STEP_FIELD_ADDED, "set", true}};
const desert_record_desc golden_test_model1_desc =
    DESERT_RECORD_DESC("TestModel1", tm1_fields, tm1_steps);

enum {
  F_BYTE,
  F_SHORT,
  F_INT,
  F_LONG,
  F_FLOAT,
  F_DOUBLE,
  F_BOOLEAN,
  F_UNIT,
  F_STRING,
  F_UUID,
  F_EXCEPTION,
  F_LIST,
  F_ARRAY,
  F_VECTOR,
  F_SET,
  F_EITHER,
  F_TRIED,
  F_OPTION
};

static const desert_field_desc throwable_fields[] = {
    {"className", 0}, {"message", 0}, {"stackTrace", 0}, {"cause", DESERT_FIELD_OPTIONAL}};
const desert_record_desc golden_throwable_desc =
    DESERT_RECORD_DESC_V0("PersistedThrowable", throwable_fields);

static const desert_field_desc element1_fields[] = {{"id", 0}};
const desert_record_desc golden_element1_desc =
    DESERT_RECORD_DESC_V0("ListElement1", element1_fields);

static const desert_field_desc first_fields[] = {{"elem", 0}};
const desert_record_desc golden_first_desc = DESERT_RECORD_DESC_V0("First", first_fields);

static const desert_field_desc second_fields[] = {
    {"uuid", 0},
    {"desc", DESERT_FIELD_OPTIONAL},
    {"cached", DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step second_steps[] = {
    {DESERT_STEP_FIELD_MADE_TRANSIENT, "cached", false}};
const desert_record_desc golden_second_desc =
    DESERT_RECORD_DESC("Second", second_fields, second_steps);

/* Scala shapeless order: cases sorted by name; Third is a transient
 * constructor and gets no id. */
static const desert_case_desc element2_cases[] = {
    {"First", 0}, {"Second", 0}, {"Third", DESERT_CASE_TRANSIENT}};
const desert_enum_desc golden_element2_desc =
    DESERT_ENUM_DESC("ListElement2", element2_cases, true);

/* ---- reading helpers ---------------------------------------------------------
 * Every helper returns the reader's (sticky) status, so a chain of calls can
 * be checked once. */

#define TRY(expr)                     \
  do {                                \
    desert_status st_ = (expr);       \
    if (st_ != DESERT_OK) return st_; \
  } while (0)

/* Grows an arena array to hold one more element (doubling; the old block
 * stays in the arena until the next message). Sizes only ever grow with
 * elements actually read, so hostile counts cannot make it allocate. */
static desert_status grow(desert_reader *r, void **items, size_t len, size_t *cap, size_t elem) {
  if (len < *cap) return DESERT_OK;
  size_t ncap = *cap ? *cap * 2 : 8;
  if (ncap > SIZE_MAX / elem) return desert_reader_fail(r, DESERT_E_LIMIT, desert_reader_offset(r));
  void *n = desert_reader_alloc(r, ncap * elem, 16);
  if (!n) return desert_reader_status(r);
  if (len) memcpy(n, *items, len * elem);
  *items = n;
  *cap = ncap;
  return DESERT_OK;
}

/* ---- prepared plans ---------------------------------------------------------
 * One plan per record description, in static storage, built by
 * golden_model_prepare; map entries use the library's static tuple plan. */

enum { P_TM1, P_THROWABLE, P_ELEMENT1, P_FIRST, P_SECOND, P_COUNT };
static void *plan_mem[P_COUNT][DESERT_RECORD_PLAN_BYTES(18, 3) / sizeof(void *)];
static const desert_record_plan *plans[P_COUNT];
static bool plans_on;

desert_status golden_model_prepare(void) {
  const desert_record_desc *descs[P_COUNT] = {&golden_test_model1_desc, &golden_throwable_desc,
                                              &golden_element1_desc, &golden_first_desc,
                                              &golden_second_desc};
  for (int i = 0; i < P_COUNT; i++) {
    desert_status st = desert_record_plan_init(descs[i], plan_mem[i], sizeof plan_mem[i], &plans[i]);
    if (st) return st;
  }
  plans_on = true;
  return DESERT_OK;
}

void golden_model_use_plans(bool on) { plans_on = on && plans[P_COUNT - 1] != NULL; }

/* Record begin through plan `p` when plans are on. */
static desert_status rbegin(desert_reader *r, const desert_record_desc *d, int p,
                            desert_record_reader *rr) {
  if (plans_on)
    return desert_record_read_begin_plan(r, p < 0 ? desert_tuple_plan(2) : plans[p], rr);
  return desert_record_read_begin(r, d, rr);
}
static desert_status wbegin(desert_writer *w, const desert_record_desc *d, int p,
                            desert_record_writer *rw) {
  return plans_on ? desert_record_write_begin_plan(w, plans[p], rw)
                  : desert_record_write_begin(w, d, rw);
}

/* A required field of a description without defaults: the only action the
 * reader can give is READ (anything else is an error already recorded). */
static desert_status field(desert_record_reader *rr, size_t index) {
  desert_field_action a;
  TRY(desert_record_read_field(rr, index, &a));
  if (a != DESERT_FIELD_READ)
    return desert_reader_fail(rr->r, DESERT_E_STATE, desert_reader_offset(rr->r));
  return DESERT_OK;
}

static desert_status read_opt_string(desert_reader *r, bool *has, desert_str *s) {
  TRY(desert_read_option(r, has));
  if (*has) return desert_read_string(r, s);
  s->ptr = NULL;
  s->len = 0;
  return DESERT_OK;
}

static desert_status read_frame(desert_reader *r, golden_stack_frame *f) {
  TRY(desert_read_u8(r, &f->leading));
  TRY(read_opt_string(r, &f->has_class_name, &f->class_name));
  TRY(read_opt_string(r, &f->has_method_name, &f->method_name));
  TRY(read_opt_string(r, &f->has_file_name, &f->file_name));
  return desert_read_var_u32(r, &f->line_number);
}

desert_status golden_throwable_read(desert_reader *r, golden_throwable *t) {
  desert_record_reader rr;
  desert_field_action a;
  TRY(rbegin(r, &golden_throwable_desc, P_THROWABLE, &rr));
  TRY(field(&rr, 0));
  TRY(desert_read_string(r, &t->class_name));
  TRY(field(&rr, 1));
  TRY(desert_read_string(r, &t->message));
  TRY(field(&rr, 2));
  desert_seq seq;
  size_t cap = 0;
  void *items = NULL;
  t->stack_trace_len = 0;
  TRY(desert_read_seq_begin(r, &seq));
  while (desert_read_seq_next(r, &seq)) {
    TRY(grow(r, &items, t->stack_trace_len, &cap, sizeof(golden_stack_frame)));
    TRY(read_frame(r, (golden_stack_frame *)items + t->stack_trace_len));
    t->stack_trace_len++;
  }
  TRY(desert_reader_status(r));
  t->stack_trace = items;
  TRY(desert_record_read_field(&rr, 3, &a));
  t->cause = NULL;
  if (a == DESERT_FIELD_READ) {
    golden_throwable *c = desert_reader_alloc(r, sizeof *c, 16);
    if (!c) return desert_reader_status(r);
    TRY(golden_throwable_read(r, c)); /* depth bounded by the record nesting limit */
    t->cause = c;
  }
  return desert_record_read_end(&rr);
}

static desert_status read_element1(desert_reader *r, golden_element1 *e) {
  desert_record_reader rr;
  TRY(rbegin(r, &golden_element1_desc, P_ELEMENT1, &rr));
  TRY(field(&rr, 0));
  TRY(desert_read_string(r, &e->id));
  return desert_record_read_end(&rr);
}

static desert_status read_element1_seq(desert_reader *r, golden_element1 **out, size_t *len,
                                       bool *known) {
  desert_seq seq;
  size_t cap = 0;
  void *items = NULL;
  *len = 0;
  TRY(desert_read_seq_begin(r, &seq));
  if (known) *known = seq.known;
  while (desert_read_seq_next(r, &seq)) {
    TRY(grow(r, &items, *len, &cap, sizeof(golden_element1)));
    TRY(read_element1(r, (golden_element1 *)items + *len));
    (*len)++;
  }
  *out = items;
  return desert_reader_status(r);
}

desert_status golden_element2_read(desert_reader *r, golden_element2 *e) {
  size_t index;
  memset(e, 0, sizeof *e);
  TRY(desert_enum_read_begin(r, &golden_element2_desc, &index));
  e->kind = (golden_element2_case)index;
  desert_record_reader rr;
  desert_field_action a;
  if (index == GOLDEN_FIRST) {
    TRY(rbegin(r, &golden_first_desc, P_FIRST, &rr));
    TRY(field(&rr, 0));
    TRY(read_element1(r, &e->first));
    TRY(desert_record_read_end(&rr));
  } else { /* Second: the only other case with an id */
    TRY(rbegin(r, &golden_second_desc, P_SECOND, &rr));
    TRY(field(&rr, 0));
    TRY(desert_read_uuid(r, e->uuid));
    TRY(desert_record_read_field(&rr, 1, &a));
    e->has_desc = a == DESERT_FIELD_READ;
    if (e->has_desc) TRY(desert_read_string(r, &e->desc));
    TRY(desert_record_read_field(&rr, 2, &a)); /* transient: default None */
    e->has_cached = false;
    TRY(desert_record_read_end(&rr));
  }
  return desert_enum_read_end(r, &golden_element2_desc);
}

desert_status golden_model_read(desert_reader *r, golden_model *m) {
  memset(m, 0, sizeof *m);
  desert_record_reader rr;
  desert_field_action a;
  TRY(rbegin(r, &golden_test_model1_desc, P_TM1, &rr));
  TRY(field(&rr, F_BYTE));
  TRY(desert_read_i8(r, &m->byte_));
  TRY(field(&rr, F_SHORT));
  TRY(desert_read_i16(r, &m->short_));
  TRY(field(&rr, F_INT));
  TRY(desert_read_i32(r, &m->int_));
  TRY(field(&rr, F_LONG));
  TRY(desert_read_i64(r, &m->long_));
  TRY(field(&rr, F_FLOAT));
  TRY(desert_read_f32(r, &m->float_));
  TRY(field(&rr, F_DOUBLE));
  TRY(desert_read_f64(r, &m->double_));
  TRY(field(&rr, F_BOOLEAN));
  TRY(desert_read_bool(r, &m->boolean_));
  TRY(field(&rr, F_UNIT)); /* unit: nothing to read, but it takes a position */

  TRY(desert_record_read_field(&rr, F_STRING, &a));
  if (a == DESERT_FIELD_READ) {
    TRY(desert_read_string(r, &m->string));
  } else { /* data older than step 2: the FieldAdded default */
    static const char def[] = "default string";
    m->string.ptr = def;
    m->string.len = sizeof def - 1;
  }

  TRY(field(&rr, F_UUID));
  TRY(desert_read_uuid(r, m->uuid));
  TRY(field(&rr, F_EXCEPTION));
  TRY(golden_throwable_read(r, &m->exception));
  TRY(field(&rr, F_LIST));
  TRY(read_element1_seq(r, &m->list, &m->list_len, &m->list_known_size));

  TRY(field(&rr, F_ARRAY));
  desert_seq seq;
  TRY(desert_read_seq_begin(r, &seq));
  if (seq.known) {
    /* One bulk read. The count is checked against the input before the
     * arena is asked for count * 8 bytes (desert_reader_ensure first pulls
     * the bytes into a streaming reader's window); a short input reports
     * the first element that does not fit, as sequential reading would. */
    if (seq.count > SIZE_MAX / 8 || !desert_reader_ensure(r, seq.count * 8))
      return desert_reader_fail(r, DESERT_E_INPUT_ENDED,
                                desert_reader_offset(r) + desert_reader_remaining(r) / 8 * 8);
    m->array = desert_reader_alloc(r, seq.count * 8, 16);
    if (!m->array) return desert_reader_status(r);
    TRY(desert_read_i64_array(r, m->array, seq.count));
    m->array_len = seq.count;
  } else {
    size_t cap = 0;
    void *items = NULL;
    while (desert_read_seq_next(r, &seq)) {
      TRY(grow(r, &items, m->array_len, &cap, sizeof(int64_t)));
      TRY(desert_read_i64(r, (int64_t *)items + m->array_len));
      m->array_len++;
    }
    TRY(desert_reader_status(r));
    m->array = items;
  }

  TRY(field(&rr, F_VECTOR));
  TRY(read_element1_seq(r, &m->vector, &m->vector_len, NULL));

  TRY(desert_record_read_field(&rr, F_SET, &a));
  if (a == DESERT_FIELD_READ) { /* else the FieldAdded default: empty set */
    size_t cap = 0;
    void *items = NULL;
    TRY(desert_read_seq_begin(r, &seq));
    while (desert_read_seq_next(r, &seq)) {
      TRY(grow(r, &items, m->set_len, &cap, sizeof(desert_str)));
      TRY(desert_read_string(r, (desert_str *)items + m->set_len));
      m->set_len++;
    }
    TRY(desert_reader_status(r));
    m->set = items;
  }

  TRY(field(&rr, F_EITHER));
  TRY(desert_read_either(r, &m->either_right));
  if (m->either_right)
    TRY(desert_read_bool(r, &m->either_right_value));
  else
    TRY(desert_read_string(r, &m->either_left));

  TRY(field(&rr, F_TRIED));
  TRY(desert_read_try(r, &m->tried_success));
  if (m->tried_success)
    TRY(golden_element2_read(r, &m->tried_value));
  else
    TRY(golden_throwable_read(r, &m->tried_failure));

  TRY(desert_record_read_field(&rr, F_OPTION, &a));
  m->has_option = a == DESERT_FIELD_READ;
  if (m->has_option) {
    size_t cap = 0;
    void *items = NULL;
    TRY(desert_read_seq_begin(r, &seq));
    while (desert_read_seq_next(r, &seq)) {
      TRY(grow(r, &items, m->option_len, &cap, sizeof(golden_map_entry)));
      golden_map_entry *e = (golden_map_entry *)items + m->option_len;
      /* Map entries are 2-tuples, read as full records (docs/format.md §8). */
      desert_record_reader tr;
      TRY(rbegin(r, desert_tuple_desc(2), -1, &tr));
      TRY(field(&tr, 0));
      TRY(desert_read_string(r, &e->key));
      TRY(field(&tr, 1));
      TRY(golden_element2_read(r, &e->value));
      TRY(desert_record_read_end(&tr));
      m->option_len++;
    }
    TRY(desert_reader_status(r));
    m->option = items;
  }
  return desert_record_read_end(&rr);
}

/* ---- writing -------------------------------------------------------------------- */

static desert_status write_opt_string(desert_writer *w, bool has, desert_str s) {
  TRY(desert_write_option(w, has));
  return has ? desert_write_string(w, s.ptr, s.len) : DESERT_OK;
}

static desert_status write_frame(desert_writer *w, const golden_stack_frame *f) {
  TRY(desert_write_u8(w, f->leading));
  TRY(write_opt_string(w, f->has_class_name, f->class_name));
  TRY(write_opt_string(w, f->has_method_name, f->method_name));
  TRY(write_opt_string(w, f->has_file_name, f->file_name));
  return desert_write_var_u32(w, f->line_number);
}

desert_status golden_throwable_write(desert_writer *w, const golden_throwable *t) {
  desert_record_writer rw;
  TRY(wbegin(w, &golden_throwable_desc, P_THROWABLE, &rw));
  TRY(desert_record_write_field(&rw, 0));
  TRY(desert_write_string(w, t->class_name.ptr, t->class_name.len));
  TRY(desert_record_write_field(&rw, 1));
  TRY(desert_write_string(w, t->message.ptr, t->message.len));
  TRY(desert_record_write_field(&rw, 2));
  TRY(desert_write_count(w, t->stack_trace_len)); /* an Array: known size */
  for (size_t i = 0; i < t->stack_trace_len; i++) TRY(write_frame(w, &t->stack_trace[i]));
  TRY(desert_record_write_field_option(&rw, 3, t->cause != NULL));
  if (t->cause) TRY(golden_throwable_write(w, t->cause));
  return desert_record_write_end(&rw);
}

static desert_status write_element1(desert_writer *w, const golden_element1 *e) {
  desert_record_writer rw;
  TRY(wbegin(w, &golden_element1_desc, P_ELEMENT1, &rw));
  TRY(desert_record_write_field(&rw, 0));
  TRY(desert_write_string(w, e->id.ptr, e->id.len));
  return desert_record_write_end(&rw);
}

desert_status golden_element2_write(desert_writer *w, const golden_element2 *e) {
  TRY(desert_enum_write_begin(w, &golden_element2_desc, (size_t)e->kind));
  desert_record_writer rw;
  if (e->kind == GOLDEN_FIRST) {
    TRY(wbegin(w, &golden_first_desc, P_FIRST, &rw));
    TRY(desert_record_write_field(&rw, 0));
    TRY(write_element1(w, &e->first));
  } else {
    TRY(wbegin(w, &golden_second_desc, P_SECOND, &rw));
    TRY(desert_record_write_field(&rw, 0));
    TRY(desert_write_uuid(w, e->uuid));
    TRY(desert_record_write_field_option(&rw, 1, e->has_desc));
    if (e->has_desc) TRY(desert_write_string(w, e->desc.ptr, e->desc.len));
    /* `cached` is transient: never written. */
  }
  return desert_record_write_end(&rw);
}

desert_status golden_model_write(desert_writer *w, const golden_model *m) {
  desert_record_writer rw;
  TRY(wbegin(w, &golden_test_model1_desc, P_TM1, &rw));
  TRY(desert_record_write_field(&rw, F_BYTE));
  TRY(desert_write_i8(w, m->byte_));
  TRY(desert_record_write_field(&rw, F_SHORT));
  TRY(desert_write_i16(w, m->short_));
  TRY(desert_record_write_field(&rw, F_INT));
  TRY(desert_write_i32(w, m->int_));
  TRY(desert_record_write_field(&rw, F_LONG));
  TRY(desert_write_i64(w, m->long_));
  TRY(desert_record_write_field(&rw, F_FLOAT));
  TRY(desert_write_f32(w, m->float_)); /* exact bits */
  TRY(desert_record_write_field(&rw, F_DOUBLE));
  TRY(desert_write_f64(w, m->double_));
  TRY(desert_record_write_field(&rw, F_BOOLEAN));
  TRY(desert_write_bool(w, m->boolean_));
  TRY(desert_record_write_field(&rw, F_UNIT)); /* no bytes, still a position */
  TRY(desert_record_write_field(&rw, F_STRING));
  TRY(desert_write_string(w, m->string.ptr, m->string.len));
  TRY(desert_record_write_field(&rw, F_UUID));
  TRY(desert_write_uuid(w, m->uuid));
  TRY(desert_record_write_field(&rw, F_EXCEPTION));
  TRY(golden_throwable_write(w, &m->exception));

  TRY(desert_record_write_field(&rw, F_LIST));
  if (m->list_known_size) {
    TRY(desert_write_count(w, m->list_len));
    for (size_t i = 0; i < m->list_len; i++) TRY(write_element1(w, &m->list[i]));
  } else { /* Scala writes a non-empty List in the unknown-size form */
    TRY(desert_write_stream_begin(w));
    for (size_t i = 0; i < m->list_len; i++) {
      TRY(desert_write_stream_item(w));
      TRY(write_element1(w, &m->list[i]));
    }
    TRY(desert_write_stream_end(w));
  }

  TRY(desert_record_write_field(&rw, F_ARRAY));
  TRY(desert_write_count(w, m->array_len));
  TRY(desert_write_i64_array(w, m->array, m->array_len));
  TRY(desert_record_write_field(&rw, F_VECTOR));
  TRY(desert_write_count(w, m->vector_len));
  for (size_t i = 0; i < m->vector_len; i++) TRY(write_element1(w, &m->vector[i]));
  TRY(desert_record_write_field(&rw, F_SET));
  TRY(desert_write_count(w, m->set_len));
  for (size_t i = 0; i < m->set_len; i++) TRY(desert_write_string(w, m->set[i].ptr, m->set[i].len));

  TRY(desert_record_write_field(&rw, F_EITHER));
  TRY(desert_write_either(w, m->either_right));
  if (m->either_right)
    TRY(desert_write_bool(w, m->either_right_value));
  else
    TRY(desert_write_string(w, m->either_left.ptr, m->either_left.len));

  TRY(desert_record_write_field(&rw, F_TRIED));
  TRY(desert_write_try(w, m->tried_success));
  if (m->tried_success)
    TRY(golden_element2_write(w, &m->tried_value));
  else
    TRY(golden_throwable_write(w, &m->tried_failure));

  TRY(desert_record_write_field_option(&rw, F_OPTION, m->has_option));
  if (m->has_option) {
    TRY(desert_write_count(w, m->option_len));
    for (size_t i = 0; i < m->option_len; i++) {
      TRY(desert_write_tuple_begin(w));
      TRY(desert_write_string(w, m->option[i].key.ptr, m->option[i].key.len));
      TRY(golden_element2_write(w, &m->option[i].value));
    }
  }
  return desert_record_write_end(&rw);
}
