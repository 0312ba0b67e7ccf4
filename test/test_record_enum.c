/* test/test_record_enum.c — enums (docs/format.md §11): constructor ids in
 * declaration and sorted order with transient cases skipped, enums read
 * across versions (added constructors, inserted transient constructors),
 * the enum examples of docs/format.md §11.1–§11.3 and the refused write of a
 * transient constructor (docs/schema.md §6.3), Scala's enum-level evolution
 * layout on read (docs/format.md §11.5), and the type registry framing
 * helpers (§12).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "record_testlib.h"
#include "test_util.h"

/* Event { Started, Message { text }, Cached (transient), Moved { x, y },
 * Raw(String) (a Rust transparent variant: payload = the string) } */
static const desert_case_desc event_cases[] = {
    {"Started", 0}, {"Message", 0}, {"Cached", DESERT_CASE_TRANSIENT}, {"Moved", 0}, {"Raw", 0}};
static const desert_enum_desc event = DESERT_ENUM_DESC("Event", event_cases, false);
enum { STARTED, MESSAGE, CACHED, MOVED, RAW };

static const desert_record_desc empty_d = {"Started", NULL, 0, NULL, 0};
static const desert_field_desc msg_f[] = {{"text", 0}};
static const desert_record_desc msg_d = DESERT_RECORD_DESC_V0("Message", msg_f);
static const desert_field_desc moved_f[] = {{"x", 0}, {"y", 0}};
static const desert_record_desc moved_d = DESERT_RECORD_DESC_V0("Moved", moved_f);
static const rt_type t_s[] = {RT_STR};
static const rt_type t_ii[] = {RT_I32, RT_I32};

typedef struct ev {
  size_t kind;
  char text[64];
  int32_t x, y;
} ev;

static desert_status write_event(desert_writer *w, const ev *e) {
  if (desert_enum_write_begin(w, &event, e->kind)) return desert_writer_status(w);
  rt_val v[2];
  memset(v, 0, sizeof v);
  switch (e->kind) {
  case STARTED: {
    const rt_rec rec = {&empty_d, NULL};
    return rt_write(w, &rec, v);
  }
  case MESSAGE: {
    const rt_rec rec = {&msg_d, t_s};
    snprintf(v[0].s, sizeof v[0].s, "%s", e->text);
    return rt_write(w, &rec, v);
  }
  case MOVED: {
    const rt_rec rec = {&moved_d, t_ii};
    v[0].i = e->x;
    v[1].i = e->y;
    return rt_write(w, &rec, v);
  }
  default:
    return desert_write_cstring(w, e->text);
  }
}

static desert_status read_event(desert_reader *r, ev *e) {
  memset(e, 0, sizeof *e);
  if (desert_enum_read_begin(r, &event, &e->kind)) return desert_reader_status(r);
  rt_val v[2];
  desert_str s;
  switch (e->kind) {
  case STARTED: {
    const rt_rec rec = {&empty_d, NULL};
    rt_read(r, &rec, v);
    break;
  }
  case MESSAGE: {
    const rt_rec rec = {&msg_d, t_s};
    if (rt_read(r, &rec, v) == DESERT_OK) snprintf(e->text, sizeof e->text, "%s", v[0].s);
    break;
  }
  case MOVED: {
    const rt_rec rec = {&moved_d, t_ii};
    if (rt_read(r, &rec, v) == DESERT_OK) {
      e->x = v[0].i;
      e->y = v[1].i;
    }
    break;
  }
  default:
    if (desert_read_string(r, &s) == DESERT_OK)
      snprintf(e->text, sizeof e->text, "%.*s", (int)s.len, s.ptr);
  }
  return desert_enum_read_end(r, &event);
}

static void test_e11_declaration_order(void **state) {
  (void)state;
  uint32_t id;
  assert_int_equal(desert_enum_case_id(&event, STARTED, &id), DESERT_OK);
  assert_int_equal(id, 0);
  assert_int_equal(desert_enum_case_id(&event, MOVED, &id), DESERT_OK);
  assert_int_equal(id, 2); /* Cached is transient: Moved does not shift */
  assert_int_equal(desert_enum_case_id(&event, RAW, &id), DESERT_OK);
  assert_int_equal(id, 3);
  assert_int_equal(desert_enum_case_id(&event, CACHED, &id), DESERT_E_SERIALIZING_TRANSIENT);
  assert_int_equal(desert_enum_case_id(&event, 5, &id), DESERT_E_ARGUMENT);

  desert_writer *w = rt_writer(0);
  const ev in[4] = {
      {MESSAGE, "hi", 0, 0}, {STARTED, "", 0, 0}, {MOVED, "", 1, 2}, {RAW, "z", 0, 0}};
  assert_int_equal(desert_write_count(w, 4), DESERT_OK);
  for (int i = 0; i < 4; i++) assert_int_equal(write_event(w, &in[i]), DESERT_OK);
  rt_expect_out(
      w, "08 | 00 01 00 04 68 69 | 00 00 00 | 00 02 00 00 00 00 01 00 00 00 02 | 00 03 02 7a");

  desert_reader *r = rt_reader(0);
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  uint8_t buf[64];
  memcpy(buf, out, n);
  desert_reader_begin(r, buf, n);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  for (int i = 0; i < 4; i++) {
    assert_true(desert_read_seq_next(r, &seq));
    ev e;
    assert_int_equal(read_event(r, &e), DESERT_OK);
    assert_int_equal(e.kind, in[i].kind);
    assert_string_equal(e.text, in[i].text);
    assert_int_equal(e.x, in[i].x);
    assert_int_equal(e.y, in[i].y);
  }
  assert_int_equal(desert_reader_offset(r), n);

  /* E28: a transient constructor cannot be written */
  desert_writer_reset(w);
  ev cached = {CACHED, "", 0, 0};
  assert_int_equal(write_event(w, &cached), DESERT_E_SERIALIZING_TRANSIENT);
  assert_int_equal(desert_writer_size(w), 0);
  /* E13: an id no constructor has, at the id's offset */
  uint8_t e13[] = {0x00, 0x07, 0x00};
  desert_reader_begin(r, e13, sizeof e13);
  ev e;
  assert_int_equal(read_event(r, &e), DESERT_E_INVALID_CONSTRUCTOR_ID);
  assert_int_equal(desert_reader_error_offset(r), 1);
  /* a long id varint, still reported where it starts */
  uint8_t big[] = {0x00, 0x80, 0x80, 0x01};
  desert_reader_begin(r, big, sizeof big);
  assert_int_equal(read_event(r, &e), DESERT_E_INVALID_CONSTRUCTOR_ID);
  assert_int_equal(desert_reader_error_offset(r), 1);
  /* cut before the id */
  desert_reader_begin(r, e13, 1);
  assert_int_equal(read_event(r, &e), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 1);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* E12: sorted ids (Circle 0, None 1, Square 2; Blob transient). None is a
 * transparent unit variant: the id and nothing else. */
static void test_e12_sorted(void **state) {
  (void)state;
  static const desert_case_desc cases[] = {
      {"Square", 0}, {"Circle", 0}, {"Blob", DESERT_CASE_TRANSIENT}, {"None", 0}};
  static const desert_enum_desc shape = DESERT_ENUM_DESC("Shape", cases, true);
  uint32_t id;
  size_t index;
  const uint32_t want[] = {2, 0, UINT32_MAX, 1};
  for (size_t i = 0; i < 4; i++) {
    if (want[i] == UINT32_MAX) {
      assert_int_equal(desert_enum_case_id(&shape, i, &id), DESERT_E_SERIALIZING_TRANSIENT);
      continue;
    }
    assert_int_equal(desert_enum_case_id(&shape, i, &id), DESERT_OK);
    assert_int_equal(id, want[i]);
    assert_int_equal(desert_enum_case_index(&shape, id, &index), DESERT_OK);
    assert_int_equal(index, i);
  }
  assert_int_equal(desert_enum_case_index(&shape, 3, &index), DESERT_E_INVALID_CONSTRUCTOR_ID);

  desert_writer *w = rt_writer(0);
  desert_write_count(w, 2);
  desert_enum_write_begin(w, &shape, 0);
  desert_write_f64(w, 2.5);
  desert_enum_write_begin(w, &shape, 3);
  rt_expect_out(w, "04 | 00 02 40 04 00 00 00 00 00 00 | 00 01");
  desert_writer_free(w);
}

/* Declaration vs sorted order over a larger enum with transient cases
 * interleaved: ids are a bijection onto 0..k-1 and case_index inverts. */
static void test_order_bijection(void **state) {
  (void)state;
  static const desert_case_desc cases[] = {{"kiwi", 0},
                                           {"apple", 0},
                                           {"zebra", DESERT_CASE_TRANSIENT},
                                           {"mango", 0},
                                           {"Zulu", 0},
                                           {"banana", 0},
                                           {"cherry", DESERT_CASE_TRANSIENT},
                                           {"\xc3\xa9"
                                            "clair",
                                            0},
                                           {"apricot", 0}};
  for (int sorted = 0; sorted < 2; sorted++) {
    const desert_enum_desc d = {"Fruit", cases, 9, sorted != 0};
    bool seen[9] = {false};
    for (size_t i = 0; i < 9; i++) {
      uint32_t id;
      desert_status st = desert_enum_case_id(&d, i, &id);
      if (cases[i].flags & DESERT_CASE_TRANSIENT) {
        assert_int_equal(st, DESERT_E_SERIALIZING_TRANSIENT);
        continue;
      }
      assert_int_equal(st, DESERT_OK);
      assert_true(id < 7);
      assert_false(seen[id]);
      seen[id] = true;
      size_t back;
      assert_int_equal(desert_enum_case_index(&d, id, &back), DESERT_OK);
      assert_int_equal(back, i);
    }
    size_t back;
    assert_int_equal(desert_enum_case_index(&d, 7, &back), DESERT_E_INVALID_CONSTRUCTOR_ID);
  }
  /* sorted: byte-wise: "Zulu" < "apple" < "apricot" < "banana" < "kiwi" <
   * "mango" < "éclair" (0xc3 sorts after ASCII) */
  const desert_enum_desc d = {"Fruit", cases, 9, true};
  const size_t order[] = {4, 1, 8, 5, 0, 3, 7};
  for (uint32_t id = 0; id < 7; id++) {
    size_t idx;
    assert_int_equal(desert_enum_case_index(&d, id, &idx), DESERT_OK);
    assert_int_equal(idx, order[id]);
  }
}

/* desert-rust's Coprod1 / Coprod2: inserting a transient constructor keeps
 * the ids of the others, so each reads the other's data. */
static void test_transient_constructor_compat(void **state) {
  (void)state;
  static const desert_case_desc c1[] = {{"Case11", 0}, {"Case21", 0}};
  static const desert_case_desc c2[] = {
      {"Case12", 0}, {"TransientCons", DESERT_CASE_TRANSIENT}, {"Case22", 0}};
  static const desert_enum_desc e1 = DESERT_ENUM_DESC("Coprod1", c1, false);
  static const desert_enum_desc e2 = DESERT_ENUM_DESC("Coprod2", c2, false);
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  /* Case21 { x } written by Coprod1 */
  desert_enum_write_begin(w, &e1, 1);
  const rt_rec rec = {&msg_d, t_s};
  rt_val v[1];
  memset(v, 0, sizeof v);
  snprintf(v[0].s, sizeof v[0].s, "hello");
  rt_write(w, &rec, v);
  rt_expect_out(w, "00 01 00 0a 68 65 6c 6c 6f");
  /* written by Coprod2 as Case22: identical bytes */
  desert_writer_reset(w);
  desert_enum_write_begin(w, &e2, 2);
  rt_write(w, &rec, v);
  rt_expect_out(w, "00 01 00 0a 68 65 6c 6c 6f");
  size_t n;
  const uint8_t *out = desert_writer_data(w, &n);
  uint8_t buf[32];
  memcpy(buf, out, n);
  size_t idx;
  desert_reader_begin(r, buf, n);
  assert_int_equal(desert_enum_read_begin(r, &e1, &idx), DESERT_OK);
  assert_int_equal(idx, 1);
  assert_int_equal(rt_read(r, &rec, v), DESERT_OK);
  assert_int_equal(desert_enum_read_end(r, &e1), DESERT_OK);
  desert_reader_begin(r, buf, n);
  assert_int_equal(desert_enum_read_begin(r, &e2, &idx), DESERT_OK);
  assert_int_equal(idx, 2);
  assert_int_equal(rt_read(r, &rec, v), DESERT_OK);
  assert_int_equal(desert_enum_read_end(r, &e2), DESERT_OK);
  assert_string_equal(v[0].s, "hello");
  desert_writer_free(w);
  desert_reader_free(r);
}

/* EventV1 { Started, Message } vs EventV2 + Stopped: the old reader reads
 * old ids and fails only on the new one, at the id. */
static void test_added_constructor(void **state) {
  (void)state;
  static const desert_case_desc c1[] = {{"Started", 0}, {"Message", 0}};
  static const desert_case_desc c2[] = {{"Started", 0}, {"Message", 0}, {"Stopped", 0}};
  static const desert_enum_desc v1 = DESERT_ENUM_DESC("EventV1", c1, false);
  static const desert_enum_desc v2 = DESERT_ENUM_DESC("EventV2", c2, false);
  desert_writer *w = rt_writer(0);
  desert_reader *r = rt_reader(0);
  desert_enum_write_begin(w, &v2, 2);
  desert_write_u8(w, 0); /* Stopped: the empty record */
  desert_enum_write_begin(w, &v2, 0);
  desert_write_u8(w, 0);
  rt_expect_out(w, "00 02 00 00 00 00");
  uint8_t buf[6];
  memcpy(buf, desert_writer_data(w, NULL), 6);
  size_t idx;
  desert_reader_begin(r, buf, 6);
  assert_int_equal(desert_enum_read_begin(r, &v1, &idx), DESERT_E_INVALID_CONSTRUCTOR_ID);
  assert_int_equal(desert_reader_error_offset(r), 1);
  desert_reader_begin(r, buf + 3, 3); /* Started: fine for v1 */
  assert_int_equal(desert_enum_read_begin(r, &v1, &idx), DESERT_OK);
  assert_int_equal(idx, 0);
  uint8_t b;
  assert_int_equal(desert_read_u8(r, &b), DESERT_OK);
  assert_int_equal(desert_enum_read_end(r, &v1), DESERT_OK);
  /* and v2 reads v1's data */
  desert_reader_begin(r, buf, 6);
  assert_int_equal(desert_enum_read_begin(r, &v2, &idx), DESERT_OK);
  assert_int_equal(idx, 2);
  desert_read_u8(r, &b);
  assert_int_equal(desert_enum_read_end(r, &v2), DESERT_OK);
  desert_writer_free(w);
  desert_reader_free(r);
}

/* Scala enum-level evolution (docs/format.md §11.5): version byte, header, and chunk 0
 * holding the id and the payload. Here Event v1 with one FieldAdded step:
 * 01 | chunk 0 = 5 bytes | chunk 1 empty | 01 (Message) 00 04 "hi". */
static void test_scala_enum_evolution(void **state) {
  (void)state;
  desert_reader *r = rt_reader(0);
  uint8_t in[64];
  /* then Moved(1, 2) the same way: chunk 0 = id 02, record 00, 8 bytes */
  size_t n = rt_hex("01 0a 00 | 01 00 04 68 69 | 01 14 00 | 02 00 00 00 00 01 00 00 00 02 | ee", in,
                    sizeof in);
  desert_reader_begin(r, in, n);
  ev e;
  assert_int_equal(read_event(r, &e), DESERT_OK);
  assert_int_equal(e.kind, MESSAGE);
  assert_string_equal(e.text, "hi");
  assert_int_equal(desert_reader_offset(r), 8);
  assert_int_equal(read_event(r, &e), DESERT_OK);
  assert_int_equal(e.kind, MOVED);
  assert_int_equal(e.x, 1);
  assert_int_equal(e.y, 2);
  assert_int_equal(desert_reader_offset(r), n - 1);
  assert_int_equal(desert_reader_remaining(r), 1);

  /* unread bytes at the end of chunk 0 are skipped; chunk 1 data too */
  n = rt_hex("02 0c 02 00 | 01 00 04 68 69 ff | aa | ee", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(read_event(r, &e), DESERT_OK);
  assert_string_equal(e.text, "hi");
  assert_int_equal(desert_reader_offset(r), n - 1);

  /* inside a list: nesting with plain enums and records around */
  n = rt_hex("04 | 01 0a 00 01 00 04 68 69 | 00 00 00", in, sizeof in);
  desert_reader_begin(r, in, n);
  desert_seq seq;
  desert_read_seq_begin(r, &seq);
  assert_true(desert_read_seq_next(r, &seq));
  assert_int_equal(read_event(r, &e), DESERT_OK);
  assert_int_equal(e.kind, MESSAGE);
  assert_true(desert_read_seq_next(r, &seq));
  assert_int_equal(read_event(r, &e), DESERT_OK);
  assert_int_equal(e.kind, STARTED);
  assert_false(desert_read_seq_next(r, &seq));
  assert_int_equal(desert_reader_status(r), DESERT_OK);
  assert_int_equal(desert_reader_offset(r), n);

  /* errors: bad id inside chunk 0 (at the id), chunk past the input (at the
   * chunk), payload running past chunk 0 (at the item), code below -2 */
  n = rt_hex("01 0a 00 | 09 00 04 68 69", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(read_event(r, &e), DESERT_E_INVALID_CONSTRUCTOR_ID);
  assert_int_equal(desert_reader_error_offset(r), 3);
  n = rt_hex("01 0c 00 | 01 00 04 68 69", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(read_event(r, &e), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 3);
  n = rt_hex("01 04 00 | 01 00 04 68 69", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(read_event(r, &e), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 5);
  n = rt_hex("01 0a 07 | 01 00 04 68 69", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(read_event(r, &e), DESERT_E_UNKNOWN_EVOLUTION_STEP);
  assert_int_equal(desert_reader_error_offset(r), 2);
  /* chunk 0 empty (entry 0 is 00): the id is cut, at the walk position */
  n = rt_hex("01 00 0a | 01 00 04 68 69", in, sizeof in);
  desert_reader_begin(r, in, n);
  assert_int_equal(read_event(r, &e), DESERT_E_INPUT_ENDED);
  assert_int_equal(desert_reader_error_offset(r), 3);

  /* An evolved enum abandoned mid-way (no end) leaves a frame behind; the
   * next message's plain enum at the same depth must not pick it up. */
  n = rt_hex("01 0a 00 | 01 00 04 68 69", in, sizeof in);
  desert_reader_begin(r, in, n);
  size_t idx;
  assert_int_equal(desert_enum_read_begin(r, &event, &idx), DESERT_OK);
  uint8_t plain[] = {0x00, 0x00, 0x00, 0xee};
  desert_reader_begin(r, plain, sizeof plain);
  assert_int_equal(read_event(r, &e), DESERT_OK);
  assert_int_equal(e.kind, STARTED);
  assert_int_equal(desert_reader_offset(r), 3);
  assert_int_equal(desert_reader_remaining(r), 1);
  desert_reader_free(r);
}

static void test_registry(void **state) {
  (void)state;
  const uint32_t ids[] = {1, 2, 5, 300};
  desert_writer *w = rt_writer(0);
  assert_int_equal(desert_registry_write_type(w, ids, 4, 2), DESERT_OK);
  assert_int_equal(desert_write_i32(w, 7), DESERT_OK);
  assert_int_equal(desert_registry_write_type(w, ids, 4, 3), DESERT_OK);
  rt_expect_out(w, "05 00 00 00 07 ac 02");
  assert_int_equal(desert_registry_write_type(w, ids, 4, 4), DESERT_E_TYPE_NOT_REGISTERED);
  assert_int_equal(desert_writer_status(w), DESERT_E_TYPE_NOT_REGISTERED);
  desert_writer_free(w);

  desert_reader *r = rt_reader(0);
  uint8_t in[] = {0x05, 0xac, 0x02, 0x03};
  desert_reader_begin(r, in, sizeof in);
  size_t idx;
  assert_int_equal(desert_registry_read_type(r, ids, 4, &idx), DESERT_OK);
  assert_int_equal(idx, 2);
  assert_int_equal(desert_registry_read_type(r, ids, 4, &idx), DESERT_OK);
  assert_int_equal(idx, 3);
  assert_int_equal(desert_registry_read_type(r, ids, 4, &idx), DESERT_E_INVALID_TYPE_ID);
  assert_int_equal(desert_reader_error_offset(r), 3);
  desert_reader_begin(r, in, 0);
  assert_int_equal(desert_registry_read_type(r, ids, 4, &idx), DESERT_E_INPUT_ENDED);
  desert_reader_free(r);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_e11_declaration_order),
      cmocka_unit_test(test_e12_sorted),
      cmocka_unit_test(test_order_bijection),
      cmocka_unit_test(test_transient_constructor_compat),
      cmocka_unit_test(test_added_constructor),
      cmocka_unit_test(test_scala_enum_evolution),
      cmocka_unit_test(test_registry),
  };
  return rt_run_both_modes("record_enum", tests, sizeof tests / sizeof tests[0]);
}
