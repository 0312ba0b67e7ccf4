/* examples/quickstart.c — the README's API quick start, compiled and run by
 * ctest: write a few values and an evolving record, read them back, and show
 * how a decode error reports its status and input offset.
 * SPDX-License-Identifier: MIT */
#include <desert.h>
#include <stdio.h>
#include <string.h>

/* A record described once: Person { name: String, age: i32, email: Option<String> }
 * where `email` was added in version 1 (readers of older data get None). */
static const desert_field_desc person_fields[] = {
    {"name", 0}, {"age", 0}, {"email", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step person_steps[] = {
    {DESERT_STEP_FIELD_ADDED, "email", true}};
static const desert_record_desc person = DESERT_RECORD_DESC("Person", person_fields, person_steps);

static int fail(const char *what, desert_status st) {
  fprintf(stderr, "quickstart: %s: %s\n", what, desert_status_name(st));
  return 1;
}

int main(void) {
  /* ---- write ---- */
  desert_writer *w;
  desert_status st = desert_writer_create(NULL, &w); /* NULL: default options */
  if (st) return fail("writer", st);
  desert_write_i32(w, 42);
  desert_write_cstring(w, "hello");
  desert_record_writer rw;
  desert_record_write_begin(w, &person, &rw);
  desert_record_write_field(&rw, 0);
  desert_write_cstring(w, "Ada");
  desert_record_write_field(&rw, 1);
  desert_write_i32(w, 36);
  desert_record_write_field(&rw, 2);
  desert_write_option(w, true); /* Some(...) */
  desert_write_cstring(w, "ada@example.org");
  st = desert_record_write_end(&rw); /* errors are sticky: one check at the end */
  if (st) return fail("write", st);
  size_t len;
  const uint8_t *bytes = desert_writer_data(w, &len);

  /* ---- read ---- */
  desert_reader *r;
  if ((st = desert_reader_create(NULL, &r))) return fail("reader", st);
  desert_reader_begin(r, bytes, len);
  int32_t answer = 0, age = 0;
  desert_str greeting = {0}, name = {0}, email = {0};
  desert_read_i32(r, &answer);
  desert_read_string(r, &greeting); /* a validated view into `bytes` */
  desert_record_reader rr;
  desert_field_action act;
  desert_record_read_begin(r, &person, &rr);
  desert_record_read_field(&rr, 0, &act);
  desert_read_string(r, &name);
  desert_record_read_field(&rr, 1, &act);
  desert_read_i32(r, &age);
  desert_record_read_field(&rr, 2, &act);
  if (act == DESERT_FIELD_READ) desert_read_string(r, &email); /* else None */
  if ((st = desert_record_read_end(&rr))) return fail("read", st);
  printf("quickstart: %d %.*s; %.*s, %d, %.*s (%zu bytes)\n", answer, (int)greeting.len,
         greeting.ptr, (int)name.len, name.ptr, age, (int)email.len, email.ptr, len);

  /* ---- a hostile input: the string claims 100 bytes, 3 are there ---- */
  static const uint8_t bad[] = {0xc8, 0x01, 'a', 'b', 'c'};
  desert_reader_begin(r, bad, sizeof bad);
  desert_str s;
  st = desert_read_string(r, &s);
  printf("quickstart: bad input -> %s at offset %zu\n", desert_status_name(st),
         desert_reader_error_offset(r));
  int ok = answer == 42 && age == 36 && email.len == 15 && st == DESERT_E_INPUT_ENDED &&
           desert_reader_error_offset(r) == 2;
  desert_reader_free(r);
  desert_writer_free(w);
  return ok ? 0 : 1;
}
