/* examples/quickstart.c — the README's API quick start, compiled and run by
 * ctest: write a few values and an evolving record with a writer in caller
 * storage and the inline fast paths, read them back the same way, encode and
 * decode one value with the one-shot helpers, and show how a decode error
 * reports its status and input offset.
 * SPDX-License-Identifier: MIT */
#include <desert.h>
#include <stdio.h>
#include <string.h>

/* A record described once: Person { name: String, age: i32, email: Option<String> }
 * where `email` was added in version 1 (readers of older data get None). */
static const desert_field_desc person_fields[] = {
    {"name", 0}, {"age", 0}, {"email", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step person_steps[] = {{DESERT_STEP_FIELD_ADDED, "email", true}};
static const desert_record_desc person = DESERT_RECORD_DESC("Person", person_fields, person_steps);

/* One value for the one-shot helpers: a point written as two i32. */
typedef struct point {
  int32_t x, y;
} point;
static desert_status point_write(desert_writer *w, const void *value) {
  const point *p = value;
  desert_write_i32_inline(w, p->x);
  return desert_write_i32_inline(w, p->y);
}
static desert_status point_read(desert_reader *r, void *out) {
  point *p = out;
  desert_read_i32_inline(r, &p->x);
  return desert_read_i32_inline(r, &p->y);
}

static int fail(const char *what, desert_status st) {
  fprintf(stderr, "quickstart: %s: %s\n", what, desert_status_name(st));
  return 1;
}

int main(void) {
  /* ---- write: the writer lives in `ws` (no allocation for small messages) ---- */
  desert_writer_storage ws;
  desert_writer *w;
  desert_status st = desert_writer_init(&ws, sizeof ws, NULL, &w); /* NULL: default options */
  if (st) return fail("writer", st);
  desert_write_i32_inline(w, 42); /* = desert_write_i32, without the call when there is room */
  desert_write_string_inline(w, "hello", 5);
  desert_record_writer rw;
  desert_record_write_begin(w, &person, &rw);
  desert_record_write_field(&rw, 0);
  desert_write_string_inline(w, "Ada", 3);
  desert_record_write_field(&rw, 1);
  desert_write_i32_inline(w, 36);
  desert_record_write_field(&rw, 2);
  desert_write_option_inline(w, true); /* Some(...) */
  desert_write_string_inline(w, "ada@example.org", 15);
  st = desert_record_write_end(&rw); /* errors are sticky: one check at the end */
  if (st) return fail("write", st);
  size_t len;
  const uint8_t *bytes = desert_writer_data(w, &len);

  /* ---- read: the reader lives in `rs` ---- */
  desert_reader_storage rs;
  desert_reader *r;
  if ((st = desert_reader_init(&rs, sizeof rs, NULL, &r))) return fail("reader", st);
  desert_reader_begin(r, bytes, len);
  int32_t answer = 0, age = 0;
  desert_str greeting = {0}, name = {0}, email = {0};
  desert_read_i32_inline(r, &answer);
  desert_read_string_inline(r, &greeting); /* a validated view into `bytes` */
  desert_record_reader rr;
  desert_field_action act;
  desert_record_read_begin(r, &person, &rr);
  desert_record_read_field(&rr, 0, &act);
  desert_read_string_inline(r, &name);
  desert_record_read_field(&rr, 1, &act);
  desert_read_i32_inline(r, &age);
  desert_record_read_field(&rr, 2, &act);
  if (act == DESERT_FIELD_READ) desert_read_string_inline(r, &email); /* else None */
  if ((st = desert_record_read_end(&rr))) return fail("read", st);
  printf("quickstart: %d %.*s; %.*s, %d, %.*s (%zu bytes)\n", answer, (int)greeting.len,
         greeting.ptr, (int)name.len, name.ptr, age, (int)email.len, email.ptr, len);

  /* ---- one shot: a value into a fixed buffer and back ---- */
  point pt = {3, -4}, back = {0, 0};
  uint8_t buf[8];
  size_t n = 0, used = 0;
  desert_status enc = desert_encode(NULL, point_write, &pt, buf, sizeof buf, &n);
  desert_status dec = desert_decode(NULL, point_read, &back, buf, n, &used);
  desert_status small = desert_encode(NULL, point_write, &pt, buf, 6, NULL); /* 8 bytes needed */
  printf("quickstart: point (%d, %d) in %zu bytes; into 6 bytes -> %s\n", back.x, back.y, n,
         desert_status_name(small));

  /* ---- a hostile input: the string claims 100 bytes, 3 are there ---- */
  static const uint8_t bad[] = {0xc8, 0x01, 'a', 'b', 'c'};
  desert_reader_begin(r, bad, sizeof bad);
  desert_str s;
  st = desert_read_string_inline(r, &s);
  printf("quickstart: bad input -> %s at offset %zu\n", desert_status_name(st),
         desert_reader_error_offset(r));
  int ok = answer == 42 && age == 36 && email.len == 15 && st == DESERT_E_INPUT_ENDED &&
           desert_reader_error_offset(r) == 2 && enc == DESERT_OK && dec == DESERT_OK && n == 8 &&
           used == 8 && back.x == 3 && back.y == -4 && small == DESERT_E_DST_TOO_SMALL;
  desert_reader_free(r); /* gives back heap memory if a message needed any */
  desert_writer_free(w);
  return ok ? 0 : 1;
}
