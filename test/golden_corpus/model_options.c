/* test/golden_corpus/model_options.c — golden/options_rust.bin and
 * golden/options_scala.bin through one hand-written codec: the same value
 * written with the Rust defaults and with the Scala options
 * (DESERT_OPT_SCALA_CHARS, DESERT_OPT_LEGACY_HEADER_STRINGS,
 * DESERT_OPT_SCALA_REMOVED_OPTIONAL, zlib blocks), as the two schema
 * documents' options say.
 * SPDX-License-Identifier: MIT */
#include "corpus_models.h"

typedef struct options_model {
  size_t char_count;
  uint32_t chars[4];
  int32_t x, y;          /* PointV4 */
  size_t entry_count;
  desert_str keys[2];    /* Entry.key; Entry.cached is transient */
  desert_str tag;        /* a DeduplicatedString */
  desert_bytes packed;   /* compressed, level 0 */
  desert_bytes empty;    /* compressed, default level */
} options_model;

static const desert_field_desc point_fields[] = {{"x", 0}, {"y", 0}};
static const desert_evolution_step point_steps[] = {
    {DESERT_STEP_FIELD_ADDED, "label", true},
    {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false},
    {DESERT_STEP_FIELD_REMOVED, "label", false}};
static const desert_record_desc point_desc = DESERT_RECORD_DESC("PointV4", point_fields, point_steps);
static const desert_field_desc entry_fields[] = {
    {"key", 0}, {"cached", DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step entry_steps[] = {
    {DESERT_STEP_FIELD_MADE_TRANSIENT, "cached", false}};
static const desert_record_desc entry_desc = DESERT_RECORD_DESC("Entry", entry_fields, entry_steps);
static const desert_field_desc root_fields[] = {{"chars", 0}, {"point", 0},  {"entries", 0},
                                                {"tag", 0},   {"packed", 0}, {"empty_packed", 0}};
static const desert_record_desc root_desc = DESERT_RECORD_DESC_V0("OptionsModel", root_fields);

static desert_status write_model(desert_writer *w, const options_model *m, desert_compression fl) {
  desert_record_writer rw, pw, ew;
  desert_status st = desert_record_write_begin(w, &root_desc, &rw);
  if (st) return st;
  desert_record_write_field(&rw, 0);
  desert_write_count(w, m->char_count);
  for (size_t i = 0; i < m->char_count; i++) desert_write_char(w, m->chars[i]);
  desert_record_write_field(&rw, 1);
  if (!desert_record_write_begin(w, &point_desc, &pw)) {
    desert_record_write_field(&pw, 0);
    desert_write_i32(w, m->x);
    desert_record_write_field(&pw, 1);
    desert_write_i32(w, m->y);
    desert_record_write_end(&pw);
  }
  desert_record_write_field(&rw, 2);
  desert_write_count(w, m->entry_count);
  for (size_t i = 0; i < m->entry_count; i++) {
    if (desert_record_write_begin(w, &entry_desc, &ew)) break;
    desert_record_write_field(&ew, 0);
    desert_write_string(w, m->keys[i].ptr, m->keys[i].len);
    desert_record_write_end(&ew);
  }
  desert_record_write_field(&rw, 3);
  desert_write_dedup_string(w, m->tag.ptr, m->tag.len);
  desert_record_write_field(&rw, 4);
  desert_write_compressed(w, fl, 0, m->packed.ptr, m->packed.len);
  desert_record_write_field(&rw, 5);
  desert_write_compressed(w, fl, -1, m->empty.ptr, m->empty.len);
  return desert_record_write_end(&rw);
}

static desert_status read_model(desert_reader *r, options_model *m, desert_compression fl) {
  desert_record_reader rr, pr, er;
  desert_field_action a;
  desert_seq seq;
  desert_status st = desert_record_read_begin(r, &root_desc, &rr);
  if (st) return st;
  if (!desert_record_read_field(&rr, 0, &a) && !desert_read_seq_begin(r, &seq))
    while (m->char_count < 4 && desert_read_seq_next(r, &seq))
      desert_read_char(r, &m->chars[m->char_count++]);
  if (!desert_record_read_field(&rr, 1, &a) && !desert_record_read_begin(r, &point_desc, &pr)) {
    if (!desert_record_read_field(&pr, 0, &a)) desert_read_i32(r, &m->x);
    if (!desert_record_read_field(&pr, 1, &a)) desert_read_i32(r, &m->y);
    desert_record_read_end(&pr);
  }
  if (!desert_record_read_field(&rr, 2, &a) && !desert_read_seq_begin(r, &seq))
    while (m->entry_count < 2 && desert_read_seq_next(r, &seq)) {
      if (desert_record_read_begin(r, &entry_desc, &er)) break;
      if (!desert_record_read_field(&er, 0, &a)) desert_read_string(r, &m->keys[m->entry_count++]);
      /* the transient field: its default None, nothing to read */
      if (!desert_record_read_field(&er, 1, &a) && a != DESERT_FIELD_TRANSIENT_DEFAULT)
        desert_reader_fail(r, DESERT_E_STATE, desert_reader_offset(r));
      desert_record_read_end(&er);
    }
  if (!desert_record_read_field(&rr, 3, &a)) desert_read_dedup_string(r, &m->tag);
  if (!desert_record_read_field(&rr, 4, &a)) desert_read_compressed(r, fl, &m->packed);
  if (!desert_record_read_field(&rr, 5, &a)) desert_read_compressed(r, fl, &m->empty);
  return desert_record_read_end(&rr);
}

static bool model_equal(const void *a, const void *b) {
  const options_model *x = a, *y = b;
  if (x->char_count != y->char_count || x->entry_count != y->entry_count || x->x != y->x ||
      x->y != y->y || !golden_str_eq(x->tag, y->tag) || !golden_bytes_eq(x->packed, y->packed) ||
      !golden_bytes_eq(x->empty, y->empty))
    return false;
  for (size_t i = 0; i < x->char_count; i++)
    if (x->chars[i] != y->chars[i]) return false;
  for (size_t i = 0; i < x->entry_count; i++)
    if (!golden_str_eq(x->keys[i], y->keys[i])) return false;
  return true;
}

static desert_status rust_write(desert_writer *w, const void *m) {
  return write_model(w, m, DESERT_COMPRESSION_RAW);
}
static desert_status rust_read(desert_reader *r, void *m) {
  return read_model(r, m, DESERT_COMPRESSION_RAW);
}
static desert_status scala_write(desert_writer *w, const void *m) {
  return write_model(w, m, DESERT_COMPRESSION_ZLIB);
}
static desert_status scala_read(desert_reader *r, void *m) {
  return read_model(r, m, DESERT_COMPRESSION_ZLIB);
}

/* options_rust.json = options_scala.json */
static const options_model value = {3,         {'A', 0xe9, 0x20ac, 0},
                                    10,        20,
                                    2,         {GSTR("a"), GSTR("b")},
                                    GSTR("cached"), GBYTES("abc"),
                                    {(const uint8_t *)"", 0}};

#define SCALA_FLAGS \
  (DESERT_OPT_SCALA_CHARS | DESERT_OPT_LEGACY_HEADER_STRINGS | DESERT_OPT_SCALA_REMOVED_OPTIONAL)

const golden_codec golden_option_codecs[] = {
    {"options_rust", "Rust options", 0, sizeof(options_model), &value, NULL, rust_write, rust_read,
     model_equal, 0, false},
    {"options_scala", "Scala options", SCALA_FLAGS, sizeof(options_model), &value, NULL,
     scala_write, scala_read, model_equal, 0, false},
};
const size_t golden_option_codec_count = sizeof golden_option_codecs / sizeof *golden_option_codecs;
