/* include/desert/values.h — the composite value types of docs/format.md §13–§14
 * (durations, instants, java.time / chrono dates and times, big numbers,
 * IP/MAC addresses, URLs) written and read through a writer or reader.
 * SPDX-License-Identifier: MIT
 *
 * Readers validate every component right after reading it, as a whole
 * (docs/schema.md §12): out of range is DESERT_E_INVALID_VALUE (a
 * DeserializationFailure) at the component's first byte; a zone_id type
 * byte other than 00/01 is DESERT_E_INVALID_CONSTRUCTOR_ID. Writers reject
 * out-of-range input with DESERT_E_ARGUMENT and write nothing.
 * Ranges (docs/schema.md §11.8): year -999999999..999999999; month 1..12; day valid
 * for the month (proleptic Gregorian; month_day allows Feb 29); hour 0..23,
 * minute/second 0..59, nano 0..999999999; zone offset -64800..64800 seconds;
 * Rust FixedOffset -86399..86399. */
#ifndef DESERT_VALUES_H
#define DESERT_VALUES_H

#include "desert/reader.h"
#include "desert/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Duration / Instant (docs/format.md §13.2) ----
 * i64 seconds then 4-byte nanoseconds. Writers need 0 <= nanos < 10^9.
 * Readers read nanos as u32 and carry nanos >= 10^9 into the seconds; a carry
 * overflowing i64 is DESERT_E_INVALID_VALUE. */
typedef struct desert_duration {
  int64_t seconds;
  uint32_t nanos;
} desert_duration;
DESERT_API desert_status desert_write_duration(desert_writer *w, desert_duration v);
DESERT_API desert_status desert_read_duration(desert_reader *r, desert_duration *out);
/* Instant / chrono DateTime<Utc>: same layout as duration. */
DESERT_API desert_status desert_write_instant(desert_writer *w, desert_duration v);
DESERT_API desert_status desert_read_instant(desert_reader *r, desert_duration *out);

/* ---- dates and times (docs/format.md §14) ---- */
typedef struct desert_local_date {
  int32_t year;
  uint8_t month;
  uint8_t day;
} desert_local_date;
typedef struct desert_local_time {
  uint8_t hour;
  uint8_t minute;
  uint8_t second;
  uint32_t nano;
} desert_local_time;
typedef struct desert_local_date_time {
  desert_local_date date;
  desert_local_time time;
} desert_local_date_time;
/* ZoneId: a fixed offset (00 + var_i32 seconds) or a region (01 + String). */
typedef struct desert_zone_id {
  bool is_region;
  int32_t offset_seconds; /* when !is_region */
  desert_str region;      /* when is_region (writer: any UTF-8; reader: a view) */
} desert_zone_id;
typedef struct desert_month_day {
  uint8_t month;
  uint8_t day;
} desert_month_day;
typedef struct desert_year_month {
  int32_t year;
  uint8_t month;
} desert_year_month;
typedef struct desert_period {
  int32_t years;
  int32_t months;
  int32_t days;
} desert_period;
typedef struct desert_offset_time {
  desert_local_time time;
  int32_t offset_seconds;
} desert_offset_time;
typedef struct desert_offset_date_time {
  desert_local_date_time date_time;
  int32_t offset_seconds;
} desert_offset_date_time;
typedef struct desert_zoned_date_time {
  desert_local_date_time date_time; /* local */
  int32_t offset_seconds;
  desert_zone_id zone;
} desert_zoned_date_time;

/* 1 byte each: Monday = 1 .. Sunday = 7; January = 1 .. December = 12. */
DESERT_API desert_status desert_write_day_of_week(desert_writer *w, uint8_t dow);
DESERT_API desert_status desert_read_day_of_week(desert_reader *r, uint8_t *dow);
DESERT_API desert_status desert_write_month(desert_writer *w, uint8_t month);
DESERT_API desert_status desert_read_month(desert_reader *r, uint8_t *month);
/* var_u32 of the year's 32-bit pattern. */
DESERT_API desert_status desert_write_year(desert_writer *w, int32_t year);
DESERT_API desert_status desert_read_year(desert_reader *r, int32_t *year);
DESERT_API desert_status desert_write_month_day(desert_writer *w, desert_month_day v);
DESERT_API desert_status desert_read_month_day(desert_reader *r, desert_month_day *out);
DESERT_API desert_status desert_write_year_month(desert_writer *w, desert_year_month v);
DESERT_API desert_status desert_read_year_month(desert_reader *r, desert_year_month *out);
/* Three var_u32 of the 32-bit patterns; any values. */
DESERT_API desert_status desert_write_period(desert_writer *w, desert_period v);
DESERT_API desert_status desert_read_period(desert_reader *r, desert_period *out);
/* Scala ZoneOffset: var_i32 total seconds, no type byte. */
DESERT_API desert_status desert_write_zone_offset(desert_writer *w, int32_t seconds);
DESERT_API desert_status desert_read_zone_offset(desert_reader *r, int32_t *seconds);
DESERT_API desert_status desert_write_zone_id(desert_writer *w, const desert_zone_id *v);
DESERT_API desert_status desert_read_zone_id(desert_reader *r, desert_zone_id *out);
DESERT_API desert_status desert_write_local_date(desert_writer *w, desert_local_date v);
DESERT_API desert_status desert_read_local_date(desert_reader *r, desert_local_date *out);
DESERT_API desert_status desert_write_local_time(desert_writer *w, desert_local_time v);
DESERT_API desert_status desert_read_local_time(desert_reader *r, desert_local_time *out);
DESERT_API desert_status desert_write_local_date_time(desert_writer *w, desert_local_date_time v);
DESERT_API desert_status desert_read_local_date_time(desert_reader *r,
                                                     desert_local_date_time *out);
DESERT_API desert_status desert_write_offset_time(desert_writer *w, desert_offset_time v);
DESERT_API desert_status desert_read_offset_time(desert_reader *r, desert_offset_time *out);
DESERT_API desert_status desert_write_offset_date_time(desert_writer *w,
                                                       desert_offset_date_time v);
DESERT_API desert_status desert_read_offset_date_time(desert_reader *r,
                                                      desert_offset_date_time *out);
DESERT_API desert_status desert_write_zoned_date_time(desert_writer *w,
                                                      const desert_zoned_date_time *v);
DESERT_API desert_status desert_read_zoned_date_time(desert_reader *r,
                                                     desert_zoned_date_time *out);
/* Rust DateTime<FixedOffset>: local date-time then 00 + var_i32 offset
 * (-86399..86399). A type byte other than 00 is DESERT_E_INVALID_VALUE. */
DESERT_API desert_status desert_write_rust_datetime_fixed_offset(desert_writer *w,
                                                                 desert_offset_date_time v);
DESERT_API desert_status desert_read_rust_datetime_fixed_offset(desert_reader *r,
                                                                desert_offset_date_time *out);
/* Rust DateTime<Tz>: UTC date-time then 01 + String zone name. A type byte
 * other than 01 is DESERT_E_INVALID_VALUE. */
DESERT_API desert_status desert_write_rust_datetime_tz(desert_writer *w,
                                                       desert_local_date_time utc,
                                                       desert_str zone);
DESERT_API desert_status desert_read_rust_datetime_tz(desert_reader *r,
                                                      desert_local_date_time *utc,
                                                      desert_str *zone);

/* ---- big numbers (docs/format.md §13.3–§13.4) ----
 * BigInt: byte block of the minimal two's complement big-endian form. The
 * writer takes any two's complement big-endian bytes (n >= 1) and minimises
 * them; the reader returns a view (an empty block means 0). */
DESERT_API desert_status desert_write_bigint(desert_writer *w, const uint8_t *twos_be, size_t n);
DESERT_API desert_status desert_write_bigint_i64(desert_writer *w, int64_t v);
DESERT_API desert_status desert_read_bigint(desert_reader *r, desert_bytes *twos_be);
/* DESERT_E_INVALID_VALUE when the value does not fit in int64_t. */
DESERT_API desert_status desert_read_bigint_i64(desert_reader *r, int64_t *v);
/* Decimal text <-> two's complement conversion for big integers (used by the
 * JSON layer and tools). text: -?(0|[1-9][0-9]*), not "-0". out must hold
 * desert_bigint_bytes_bound(len) bytes; *n = bytes written (minimal form). */
DESERT_API size_t desert_bigint_bytes_bound(size_t text_len);
DESERT_API desert_status desert_bigint_from_decimal(const char *text, size_t len, uint8_t *out,
                                                    size_t cap, size_t *n);
/* Writes the decimal text of a two's complement value (n = 0 means 0); out
 * must hold desert_bigint_text_bound(n) bytes; *len = text length (no NUL). */
DESERT_API size_t desert_bigint_text_bound(size_t n);
DESERT_API desert_status desert_bigint_to_decimal(const uint8_t *twos_be, size_t n, char *out,
                                                  size_t cap, size_t *len);
/* BigDecimal text form: a String matching
 * [+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)? — writers reject other
 * text with DESERT_E_ARGUMENT, readers with DESERT_E_INVALID_VALUE at the
 * string's length varint. */
DESERT_API desert_status desert_write_bigdecimal(desert_writer *w, const char *text, size_t len);
DESERT_API desert_status desert_read_bigdecimal(desert_reader *r, desert_str *text);
/* BigDecimal Rust binary form: i64 scale then BigInt unscaled value. */
DESERT_API desert_status desert_write_bigdecimal_binary(desert_writer *w, int64_t scale,
                                                        const uint8_t *unscaled_twos_be,
                                                        size_t n);
DESERT_API desert_status desert_read_bigdecimal_binary(desert_reader *r, int64_t *scale,
                                                       desert_bytes *unscaled_twos_be);

/* ---- network values (docs/format.md §13.5–§13.6, Rust only) ---- */
typedef struct desert_ip_addr {
  bool is_v6;
  uint8_t bytes[16]; /* 4 used for IPv4 */
} desert_ip_addr;
/* 00 + 4 bytes, or 01 + 16 bytes; another first byte is
 * DESERT_E_INVALID_CONSTRUCTOR_ID. */
DESERT_API desert_status desert_write_ip_addr(desert_writer *w, const desert_ip_addr *v);
DESERT_API desert_status desert_read_ip_addr(desert_reader *r, desert_ip_addr *out);
/* 6 raw bytes. */
DESERT_API desert_status desert_write_mac_address(desert_writer *w, const uint8_t mac[6]);
DESERT_API desert_status desert_read_mac_address(desert_reader *r, uint8_t mac[6]);
/* URL text as a String; readers check it has a scheme ("alpha *(alnum / + / - / .) :"),
 * else DESERT_E_INVALID_VALUE. */
DESERT_API desert_status desert_write_url(desert_writer *w, const char *text, size_t len);
DESERT_API desert_status desert_read_url(desert_reader *r, desert_str *text);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_VALUES_H */
