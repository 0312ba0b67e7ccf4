/* examples/golden_model.h — C structs for desert-scala's golden TestModel1
 * (../shared/golden/README.md) and their hand-written codecs on the record
 * API: what a user of libdesert writes for a model of their own.
 * SPDX-License-Identifier: MIT
 *
 * Decoded strings are views into the input (keep it alive while the model
 * is used); arrays and nested throwables live in the reader's arena until
 * the next desert_reader_begin. Everything needed to re-encode the input
 * byte for byte is kept: the collection form of `list`, set and map entries
 * in wire order, float bit patterns, the leading byte of each stack trace
 * element. */
#ifndef DESERT_EXAMPLES_GOLDEN_MODEL_H
#define DESERT_EXAMPLES_GOLDEN_MODEL_H

#include <desert/record.h>

/* java.lang.StackTraceElement, hand-written layout (docs/format.md §15). */
typedef struct golden_stack_frame {
  uint8_t leading; /* the 00 byte Scala writes (and ignores on read) */
  bool has_class_name, has_method_name, has_file_name;
  desert_str class_name, method_name, file_name;
  uint32_t line_number; /* var_u32; Java's -1/-2 arrive as 0xffffffff/0xfffffffe */
} golden_stack_frame;

/* PersistedThrowable: record version 0; cause is an optional field. */
typedef struct golden_throwable {
  desert_str class_name;
  desert_str message;
  golden_stack_frame *stack_trace;
  size_t stack_trace_len;
  struct golden_throwable *cause; /* NULL: None */
} golden_throwable;

/* ListElement1(id: String): record version 0. */
typedef struct golden_element1 {
  desert_str id;
} golden_element1;

/* ListElement2: enum with cases sorted by name; Third is transient. */
typedef enum golden_element2_case {
  GOLDEN_FIRST = 0,  /* First(elem: ListElement1) */
  GOLDEN_SECOND = 1, /* Second(uuid, desc: Option[String], cached: Option[String] transient) */
  GOLDEN_THIRD = 2   /* Third(file): transient constructor, cannot be written */
} golden_element2_case;

typedef struct golden_element2 {
  golden_element2_case kind; /* declaration index of the case */
  golden_element1 first;     /* First */
  uint8_t uuid[16];          /* Second */
  bool has_desc;
  desert_str desc;
  bool has_cached; /* transient: never written, None when read */
  desert_str cached;
} golden_element2;

typedef struct golden_map_entry {
  desert_str key;
  golden_element2 value;
} golden_map_entry;

typedef struct golden_model {
  int8_t byte_;
  int16_t short_;
  int32_t int_;
  int64_t long_;
  float float_;
  double double_;
  bool boolean_;
  /* unit: no storage */
  desert_str string; /* chunk 2; FieldAdded default "default string" */
  uint8_t uuid[16];
  golden_throwable exception;
  golden_element1 *list;
  size_t list_len;
  bool list_known_size; /* form of `list` on the wire (Scala writes a List unknown-size) */
  int64_t *array;
  size_t array_len;
  golden_element1 *vector;
  size_t vector_len;
  desert_str *set; /* chunk 3, wire order; FieldAdded default: empty */
  size_t set_len;
  bool either_right; /* Either[String, Boolean] */
  desert_str either_left;
  bool either_right_value;
  bool tried_success; /* Try[ListElement2] */
  golden_element2 tried_value;
  golden_throwable tried_failure;
  bool has_option; /* Option[Map[String, ListElement2]], an optional field */
  golden_map_entry *option;
  size_t option_len;
} golden_model;

/* Reads one TestModel1 (the whole golden stream). On failure returns the
 * reader's status; desert_reader_error_offset() says where. */
desert_status golden_model_read(desert_reader *r, golden_model *m);
/* Writes one TestModel1. Pick the legacy header string scoping with the
 * writer's options (DESERT_OPT_LEGACY_HEADER_STRINGS) to reproduce
 * dataset1.bin byte for byte. */
desert_status golden_model_write(desert_writer *w, const golden_model *m);

/* Parts of the model on their own (used by the tests' truncation sweeps). */
desert_status golden_throwable_read(desert_reader *r, golden_throwable *t);
desert_status golden_throwable_write(desert_writer *w, const golden_throwable *t);
desert_status golden_element2_read(desert_reader *r, golden_element2 *e);
desert_status golden_element2_write(desert_writer *w, const golden_element2 *e);

/* Prepared record plans (record.h): golden_model_prepare builds the plans
 * of the model's records once, into static storage (call it at start-up,
 * before any thread reads or writes; returns DESERT_OK or the plan
 * builder's status). Afterwards every read and write above uses them —
 * the recommended way for a fixed schema; the bytes, statuses and offsets
 * are those of the description-based calls. golden_model_use_plans(false)
 * switches back to the descriptions (tests and benchmarks compare both). */
desert_status golden_model_prepare(void);
void golden_model_use_plans(bool on);

/* The descriptions, for tests that want to poke at them. */
extern const desert_record_desc golden_test_model1_desc;
extern const desert_record_desc golden_throwable_desc;
extern const desert_record_desc golden_element1_desc;
extern const desert_enum_desc golden_element2_desc;
extern const desert_record_desc golden_first_desc;
extern const desert_record_desc golden_second_desc;

#endif /* DESERT_EXAMPLES_GOLDEN_MODEL_H */
