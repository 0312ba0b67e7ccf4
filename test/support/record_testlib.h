/* test/support/record_testlib.h — helpers for the records-layer suites
 * (test_record_*.c): a generic codec that writes and reads any record
 * description whose fields are i32 / string / bool / dedup string / unit,
 * and byte-exact output checks.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_RECORD_TESTLIB_H
#define DESERT_TEST_RECORD_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desert/reader.h"
#include "desert/record.h"
#include "desert/writer.h"

typedef enum rt_type { RT_I32 = 0, RT_STR, RT_BOOL, RT_DSTR, RT_UNIT } rt_type;

/* One field's value. Writing: `some` selects Some/None for optional fields.
 * Reading: `action` is what the reader said; `some` is true when a value
 * was read (action READ). */
typedef struct rt_val {
  bool some;
  int32_t i;
  bool b;
  char s[64];
  desert_field_action action;
} rt_val;

/* A record description with the C types of its fields. */
typedef struct rt_rec {
  const desert_record_desc *desc;
  const rt_type *types; /* one per field */
} rt_rec;

/* When true, rt_write and rt_read go through a prepared plan of the
 * description (desert_record_plan_create) instead of the description-based
 * calls, whenever desert_record_desc_check accepts it: the suites run once
 * in each mode and expect the same bytes, statuses and offsets. */
extern bool rt_plan_mode;
struct CMUnitTest;
/* Runs a suite's tests twice, the second time in plan mode ("<name>_plan"). */
int rt_run_both_modes(const char *name, const struct CMUnitTest *tests, size_t count);

desert_writer *rt_writer(unsigned flags);
desert_reader *rt_reader(unsigned flags);

/* Writes the record: every non-transient field; optional ones as Option. */
desert_status rt_write(desert_writer *w, const rt_rec *rec, const rt_val *vals);
/* Reads the record into vals[field_count]; returns the reader's status. */
desert_status rt_read(desert_reader *r, const rt_rec *rec, rt_val *vals);

/* Hex with optional '|' and spaces as separators; fails the test on bad hex. */
size_t rt_hex(const char *hex, uint8_t *out, size_t cap);
/* The writer's output must be exactly `hex`. */
void rt_expect_out_at(desert_writer *w, const char *hex, const char *file, int line);
#define rt_expect_out(w, hex) rt_expect_out_at((w), (hex), __FILE__, __LINE__)

/* Reads `hex` with rec: expects status st; for DESERT_OK the consumed byte
 * count, else the error offset, must equal `at`. */
void rt_expect_read_at(desert_reader *r, const rt_rec *rec, const char *hex, rt_val *vals,
                       desert_status st, size_t at, const char *file, int line);
#define rt_expect_read(r, rec, hex, vals, st, at) \
  rt_expect_read_at((r), (rec), (hex), (vals), (st), (at), __FILE__, __LINE__)

#endif
