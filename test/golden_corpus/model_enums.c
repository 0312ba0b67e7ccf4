/* test/golden_corpus/model_enums.c — golden/enums*.bin through a
 * hand-written codec on record.h's enum and record calls: Event in
 * declaration order (a transient case, record payloads, Rust transparent
 * and transparent unit variants, and Renamed, whose payload evolves on its
 * own) and Shape in sorted order. The v0 codec is the same enum with
 * Renamed before its FieldAdded step; each reads the other's file.
 * SPDX-License-Identifier: MIT */
#include "corpus_models.h"

enum { EV_STARTED, EV_MESSAGE, EV_CACHED, EV_MOVED, EV_RAW, EV_TICK, EV_RENAMED };
enum { SH_SQUARE, SH_CIRCLE, SH_BLOB, SH_NONE, SH_TRIANGLE };

typedef struct event {
  size_t kind;     /* declaration index */
  desert_str text; /* Message.text, Raw */
  int32_t x, y;    /* Moved */
  desert_str from, to;
  bool has_reason; /* Renamed.reason (current version only) */
  desert_str reason;
} event;

typedef struct shape {
  size_t kind;
  double size; /* Square (transparent f64), Circle.radius */
  int32_t x, y; /* Triangle (a Point record) */
} shape;

typedef struct enums_model {
  size_t event_count, shape_count;
  event events[8];
  shape shapes[4];
} enums_model;

static const desert_case_desc event_cases[] = {
    {"Started", 0}, {"Message", 0}, {"Cached", DESERT_CASE_TRANSIENT}, {"Moved", 0},
    {"Raw", 0},     {"Tick", 0},    {"Renamed", 0}};
static const desert_enum_desc event_desc = DESERT_ENUM_DESC("Event", event_cases, false);
static const desert_case_desc shape_cases[] = {
    {"Square", 0}, {"Circle", 0}, {"Blob", DESERT_CASE_TRANSIENT}, {"None", 0}, {"Triangle", 0}};
static const desert_enum_desc shape_desc = DESERT_ENUM_DESC("Shape", shape_cases, true);

static const desert_record_desc empty_desc = {"Case", NULL, 0, NULL, 0};
static const desert_field_desc text_fields[] = {{"text", 0}};
static const desert_record_desc message_desc = DESERT_RECORD_DESC_V0("Message", text_fields);
static const desert_field_desc point_fields[] = {{"x", 0}, {"y", 0}};
static const desert_record_desc point_desc = DESERT_RECORD_DESC_V0("Point", point_fields);
static const desert_field_desc radius_fields[] = {{"radius", 0}};
static const desert_record_desc circle_desc = DESERT_RECORD_DESC_V0("Circle", radius_fields);
static const desert_field_desc renamed_fields[] = {
    {"from", 0}, {"to", 0}, {"reason", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step renamed_steps[] = {{DESERT_STEP_FIELD_ADDED, "reason", true}};
static const desert_record_desc renamed_desc =
    DESERT_RECORD_DESC("Renamed", renamed_fields, renamed_steps);
/* v0: the first two fields, no steps */
static const desert_record_desc renamed_v0_desc = {"Renamed", renamed_fields, 2, NULL, 0};
static const desert_field_desc root_fields[] = {{"events", 0}, {"shapes", 0}};
static const desert_record_desc root_desc = DESERT_RECORD_DESC_V0("Enums", root_fields);

/* ---- writing ---- */

static void write_point(desert_writer *w, int32_t x, int32_t y) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, &point_desc, &rw)) return;
  desert_record_write_field(&rw, 0);
  desert_write_i32(w, x);
  desert_record_write_field(&rw, 1);
  desert_write_i32(w, y);
  desert_record_write_end(&rw);
}

static void write_one_string(desert_writer *w, const desert_record_desc *d, desert_str s) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, d, &rw)) return;
  if (d->field_count) {
    desert_record_write_field(&rw, 0);
    desert_write_string(w, s.ptr, s.len);
  }
  desert_record_write_end(&rw);
}

static void write_renamed(desert_writer *w, const event *e, const desert_record_desc *d) {
  desert_record_writer rw;
  if (desert_record_write_begin(w, d, &rw)) return;
  desert_record_write_field(&rw, 0);
  desert_write_string(w, e->from.ptr, e->from.len);
  desert_record_write_field(&rw, 1);
  desert_write_string(w, e->to.ptr, e->to.len);
  if (d->field_count == 3 && !desert_record_write_field_option(&rw, 2, e->has_reason) &&
      e->has_reason)
    desert_write_string(w, e->reason.ptr, e->reason.len);
  desert_record_write_end(&rw);
}

static void write_event(desert_writer *w, const event *e, const desert_record_desc *renamed) {
  if (desert_enum_write_begin(w, &event_desc, e->kind)) return;
  switch (e->kind) {
  case EV_STARTED: write_one_string(w, &empty_desc, e->text); break;
  case EV_MESSAGE: write_one_string(w, &message_desc, e->text); break;
  case EV_MOVED: write_point(w, e->x, e->y); break;
  case EV_RAW: desert_write_string(w, e->text.ptr, e->text.len); break; /* transparent */
  case EV_TICK: break;                                               /* transparent unit */
  default: write_renamed(w, e, renamed); break;
  }
}

static void write_shape(desert_writer *w, const shape *s) {
  if (desert_enum_write_begin(w, &shape_desc, s->kind)) return;
  desert_record_writer rw;
  switch (s->kind) {
  case SH_SQUARE: desert_write_f64(w, s->size); break;
  case SH_CIRCLE:
    if (desert_record_write_begin(w, &circle_desc, &rw)) return;
    desert_record_write_field(&rw, 0);
    desert_write_f64(w, s->size);
    desert_record_write_end(&rw);
    break;
  case SH_NONE: write_one_string(w, &empty_desc, (desert_str){NULL, 0}); break;
  default: write_point(w, s->x, s->y); break;
  }
}

static desert_status write_enums(desert_writer *w, const enums_model *m,
                                 const desert_record_desc *renamed) {
  desert_record_writer rw;
  desert_status st = desert_record_write_begin(w, &root_desc, &rw);
  if (st) return st;
  desert_record_write_field(&rw, 0);
  desert_write_count(w, m->event_count);
  for (size_t i = 0; i < m->event_count; i++) write_event(w, &m->events[i], renamed);
  desert_record_write_field(&rw, 1);
  desert_write_count(w, m->shape_count);
  for (size_t i = 0; i < m->shape_count; i++) write_shape(w, &m->shapes[i]);
  return desert_record_write_end(&rw);
}

/* ---- reading ---- */

static void read_point(desert_reader *r, int32_t *x, int32_t *y) {
  desert_record_reader rr;
  desert_field_action a;
  if (desert_record_read_begin(r, &point_desc, &rr)) return;
  if (!desert_record_read_field(&rr, 0, &a)) desert_read_i32(r, x);
  if (!desert_record_read_field(&rr, 1, &a)) desert_read_i32(r, y);
  desert_record_read_end(&rr);
}

static void read_one(desert_reader *r, const desert_record_desc *d, desert_str *s, double *f) {
  desert_record_reader rr;
  desert_field_action a;
  if (desert_record_read_begin(r, d, &rr)) return;
  if (d->field_count && !desert_record_read_field(&rr, 0, &a)) {
    if (s) desert_read_string(r, s);
    if (f) desert_read_f64(r, f);
  }
  desert_record_read_end(&rr);
}

static void read_renamed(desert_reader *r, event *e, const desert_record_desc *d) {
  desert_record_reader rr;
  desert_field_action a;
  if (desert_record_read_begin(r, d, &rr)) return;
  if (!desert_record_read_field(&rr, 0, &a)) desert_read_string(r, &e->from);
  if (!desert_record_read_field(&rr, 1, &a)) desert_read_string(r, &e->to);
  /* the FieldAdded default is None: DEFAULT and NONE both leave it unset */
  if (d->field_count == 3 && !desert_record_read_field(&rr, 2, &a) && a == DESERT_FIELD_READ) {
    e->has_reason = true;
    desert_read_string(r, &e->reason);
  }
  desert_record_read_end(&rr);
}

static void read_event(desert_reader *r, event *e, const desert_record_desc *renamed) {
  if (desert_enum_read_begin(r, &event_desc, &e->kind)) return;
  switch (e->kind) {
  case EV_STARTED: read_one(r, &empty_desc, NULL, NULL); break;
  case EV_MESSAGE: read_one(r, &message_desc, &e->text, NULL); break;
  case EV_MOVED: read_point(r, &e->x, &e->y); break;
  case EV_RAW: desert_read_string(r, &e->text); break;
  case EV_TICK: break;
  default: read_renamed(r, e, renamed); break;
  }
  desert_enum_read_end(r, &event_desc);
}

static void read_shape(desert_reader *r, shape *s) {
  if (desert_enum_read_begin(r, &shape_desc, &s->kind)) return;
  switch (s->kind) {
  case SH_SQUARE: desert_read_f64(r, &s->size); break;
  case SH_CIRCLE: read_one(r, &circle_desc, NULL, &s->size); break;
  case SH_NONE: read_one(r, &empty_desc, NULL, NULL); break;
  default: read_point(r, &s->x, &s->y); break;
  }
  desert_enum_read_end(r, &shape_desc);
}

static desert_status read_enums(desert_reader *r, enums_model *m,
                                const desert_record_desc *renamed) {
  desert_record_reader rr;
  desert_field_action a;
  desert_seq seq;
  desert_status st = desert_record_read_begin(r, &root_desc, &rr);
  if (st) return st;
  if (!desert_record_read_field(&rr, 0, &a) && !desert_read_seq_begin(r, &seq))
    while (m->event_count < 8 && desert_read_seq_next(r, &seq))
      read_event(r, &m->events[m->event_count++], renamed);
  if (!desert_record_read_field(&rr, 1, &a) && !desert_read_seq_begin(r, &seq))
    while (m->shape_count < 4 && desert_read_seq_next(r, &seq)) read_shape(r, &m->shapes[m->shape_count++]);
  return desert_record_read_end(&rr);
}

static bool enums_equal(const void *a, const void *b) {
  const enums_model *x = a, *y = b;
  if (x->event_count != y->event_count || x->shape_count != y->shape_count) return false;
  for (size_t i = 0; i < x->event_count; i++) {
    const event *e = &x->events[i], *f = &y->events[i];
    if (e->kind != f->kind || !golden_str_eq(e->text, f->text) || e->x != f->x || e->y != f->y ||
        !golden_str_eq(e->from, f->from) || !golden_str_eq(e->to, f->to) ||
        e->has_reason != f->has_reason || !golden_str_eq(e->reason, f->reason))
      return false;
  }
  for (size_t i = 0; i < x->shape_count; i++) {
    const shape *s = &x->shapes[i], *t = &y->shapes[i];
    if (s->kind != t->kind || memcmp(&s->size, &t->size, sizeof s->size) != 0 || s->x != t->x ||
        s->y != t->y)
      return false;
  }
  return true;
}

static desert_status enums_write(desert_writer *w, const void *m) {
  return write_enums(w, m, &renamed_desc);
}
static desert_status enums_read(desert_reader *r, void *m) { return read_enums(r, m, &renamed_desc); }
static desert_status enums_v0_write(desert_writer *w, const void *m) {
  return write_enums(w, m, &renamed_v0_desc);
}
static desert_status enums_v0_read(desert_reader *r, void *m) {
  return read_enums(r, m, &renamed_v0_desc);
}

/* ---- the values (golden/enums*.json) ---- */

#define NOSTR {NULL, 0}
#define EVENT(...) {__VA_ARGS__}
#define SHAPES                                                                          \
  {{SH_SQUARE, 2.5, 0, 0}, {SH_CIRCLE, 1.0, 0, 0}, {SH_NONE, 0, 0, 0}, {SH_TRIANGLE, 0, 3, 4}}
/* The seven events of enums.json; has/reason: the first Renamed's reason
 * (the second one's is None). */
#define EVENTS(has, ...)                                                    \
  EVENT(EV_STARTED, NOSTR, 0, 0, NOSTR, NOSTR, false, NOSTR),                 \
      EVENT(EV_MESSAGE, GSTR("hi"), 0, 0, NOSTR, NOSTR, false, NOSTR),        \
      EVENT(EV_MOVED, NOSTR, 1, -1, NOSTR, NOSTR, false, NOSTR),              \
      EVENT(EV_RAW, GSTR("z"), 0, 0, NOSTR, NOSTR, false, NOSTR),             \
      EVENT(EV_TICK, NOSTR, 0, 0, NOSTR, NOSTR, false, NOSTR),                \
      EVENT(EV_RENAMED, NOSTR, 0, 0, GSTR("a"), GSTR("b"), has, __VA_ARGS__),      \
      EVENT(EV_RENAMED, NOSTR, 0, 0, GSTR("c"), GSTR("d"), false, NOSTR)

/* enums.json */
static const enums_model current = {7, 4, {EVENTS(true, GSTR("typo"))}, SHAPES};
/* enums.read-by-v0.json: the old reader does not see the reason */
static const enums_model current_by_v0 = {7, 4, {EVENTS(false, NOSTR)}, SHAPES};
/* enums.v0.json, and enums.v0.read-by-current.json (reason: the default None) */
static const enums_model v0 = {2,
                               1,
                               {EVENT(EV_STARTED, NOSTR, 0, 0, NOSTR, NOSTR, false, NOSTR),
                                EVENT(EV_RENAMED, NOSTR, 0, 0, GSTR("x"), GSTR("y"), false, NOSTR)},
                               {{SH_NONE, 0, 0, 0}}};

#define ENUMS(file, label, model, wr, rd, cross) \
  {file, label, 0, sizeof(enums_model), &model, NULL, wr, rd, enums_equal, 0, cross}

const golden_codec golden_enum_codecs[] = {
    ENUMS("enums", "Enums", current, enums_write, enums_read, false),
    ENUMS("enums.v0", "Enums v0", v0, enums_v0_write, enums_v0_read, false),
    ENUMS("enums", "current data, v0 reader", current_by_v0, enums_v0_write, enums_v0_read, true),
    ENUMS("enums.v0", "v0 data, current reader", v0, enums_write, enums_read, true),
};
const size_t golden_enum_codec_count = sizeof golden_enum_codecs / sizeof *golden_enum_codecs;
