/* src/json/json_internal.h — what the JSON layer shares inside itself (and
 * with its tests): the keys
 * and component ranges of the fixed-layout objects of docs/schema.md §11.2/§11.8
 * (durations, big decimals, dates and times). Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_JSON_INTERNAL_H
#define DESERT_JSON_INTERNAL_H

#include "desert/json.h"

typedef enum desert_json_comp {
  DESERT_JSON_COMP_INT = 0, /* integer in [lo, hi] */
  DESERT_JSON_COMP_ZONE,    /* a zone_id value */
  DESERT_JSON_COMP_STRING,  /* any string */
  DESERT_JSON_COMP_BIGINT   /* bigint input (string or integer) */
} desert_json_comp;

#define DESERT_JSON_FIXED_MAX 9

typedef struct desert_json_fixed {
  size_t count;
  const char *keys[DESERT_JSON_FIXED_MAX];
  desert_json_comp comp[DESERT_JSON_FIXED_MAX];
  int64_t lo[DESERT_JSON_FIXED_MAX];
  int64_t hi[DESERT_JSON_FIXED_MAX];
  /* Which components form a date to check (indexes of year, month, day; -1 none).
   * year -1 with month/day set: a month-day (February has 29 days). */
  int year, month, day;
} desert_json_fixed;

/* The layout of a fixed-object kind, or NULL. */
const desert_json_fixed *desert_json_fixed_of(desert_type_kind kind);

/* Days in the month (1..12) of a proleptic Gregorian year; year_known false:
 * the maximum (February 29). */
int desert_json_days_in_month(int64_t year, int64_t month, bool year_known);

/* JSON value to value tree (desert_json_to_value) with the path prefix of
 * messages; optional: j is a value of Option<t> (record field defaults). */
desert_status desert_json_to_value_opt(const desert_type *t, bool optional, const desert_json *j,
                                       desert_value_arena *a, desert_value **out,
                                       desert_json_error *err, const char *path);

/* The walk of desert_json_encode_text alone: true when it encoded the whole
 * text into w; false (w reset) when the value needs the whole-tree path.
 * For tests, which check that the walk takes the plain forms and that what
 * it writes equals desert_json_encode_ex's bytes. */
bool desert_json_encode_text_walk(const desert_schema *s, const char *text, size_t len,
                                  desert_writer *w, desert_value_arena *scratch,
                                  const desert_json_limits *limits);

#endif
