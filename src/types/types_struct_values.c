/* src/types/types_struct_values.c — the value ctypes of C-struct descriptors
 * (DESERT_C_CHAR16 .. DESERT_C_URL, include/desert/types.h): char16,
 * durations, big numbers, compressed blocks, java.time / chrono values, IP
 * and MAC addresses, URLs. Each is a leaf stored as one C value that a
 * single values.h (or writer.h/reader.h) call writes or reads whole, so
 * this file is only the mapping between the struct slot and that call:
 * one function for encoding and one for decoding, called from the main
 * switch of types_struct.c. No validation happens here on purpose: the
 * values.h writers and readers own the ranges (docs/schema.md §11.8, §12) and
 * their statuses and error offsets, and a second check here could only
 * drift from theirs. Slots are copied with memcpy (struct members need not
 * be aligned), and a decoded value is stored only once its read succeeded.
 * SPDX-License-Identifier: MIT */
#include "core/reader_internal.h"
#include "types/types_struct_internal.h"
#include "core/writer_internal.h"

/* The one-byte block of BigInt 0: a desert_bytes of length 0 (what the
 * reader returns for Rust's empty block) must re-encode, but the writers
 * take n >= 1 two's complement bytes. The runtime types do the same. */
static const uint8_t bigint_zero = 0;

#define LOAD(T, p) \
  T v;             \
  memcpy(&v, (p), sizeof v)

desert_status desert_cstruct_enc_value_type(desert_writer *w, desert_ctype t, const uint8_t *p) {
  switch (t) {
  case DESERT_C_CHAR16: {
    LOAD(uint16_t, p);
    return desert_write_char16(w, v);
  }
  case DESERT_C_DURATION:
  case DESERT_C_INSTANT: {
    LOAD(desert_duration, p);
    return t == DESERT_C_DURATION ? desert_write_duration(w, v) : desert_write_instant(w, v);
  }
  case DESERT_C_BIGINT: {
    LOAD(desert_bytes, p);
    if (v.len == 0) return desert_write_bigint(w, &bigint_zero, 1);
    return desert_write_bigint(w, v.ptr, v.len);
  }
  case DESERT_C_BIGINT_I64: {
    LOAD(int64_t, p);
    return desert_write_bigint_i64(w, v);
  }
  case DESERT_C_BIGDECIMAL:
  case DESERT_C_URL: {
    LOAD(desert_str, p);
    return t == DESERT_C_URL ? desert_write_url(w, v.ptr, v.len)
                             : desert_write_bigdecimal(w, v.ptr, v.len);
  }
  case DESERT_C_BIGDECIMAL_BINARY: {
    LOAD(desert_cbigdecimal, p);
    if (v.unscaled.len == 0) return desert_write_bigdecimal_binary(w, v.scale, &bigint_zero, 1);
    return desert_write_bigdecimal_binary(w, v.scale, v.unscaled.ptr, v.unscaled.len);
  }
  case DESERT_C_COMPRESSED: {
    /* As DESERT_TYPE_COMPRESSED with its defaults (flavour -1, level -1):
     * the context's flavour; the level falls back to the context's too. */
    LOAD(desert_bytes, p);
    return desert_write_compressed(w, desert_writer_options(w)->compression, -1, v.ptr, v.len);
  }
  case DESERT_C_DAY_OF_WEEK:
    return desert_write_day_of_week(w, p[0]);
  case DESERT_C_MONTH:
    return desert_write_month(w, p[0]);
  case DESERT_C_YEAR: {
    LOAD(int32_t, p);
    return desert_write_year(w, v);
  }
  case DESERT_C_ZONE_OFFSET: {
    LOAD(int32_t, p);
    return desert_write_zone_offset(w, v);
  }
  case DESERT_C_MONTH_DAY: {
    LOAD(desert_month_day, p);
    return desert_write_month_day(w, v);
  }
  case DESERT_C_YEAR_MONTH: {
    LOAD(desert_year_month, p);
    return desert_write_year_month(w, v);
  }
  case DESERT_C_PERIOD: {
    LOAD(desert_period, p);
    return desert_write_period(w, v);
  }
  case DESERT_C_ZONE_ID: {
    LOAD(desert_zone_id, p);
    return desert_write_zone_id(w, &v);
  }
  case DESERT_C_LOCAL_DATE: {
    LOAD(desert_local_date, p);
    return desert_write_local_date(w, v);
  }
  case DESERT_C_LOCAL_TIME: {
    LOAD(desert_local_time, p);
    return desert_write_local_time(w, v);
  }
  case DESERT_C_LOCAL_DATE_TIME: {
    LOAD(desert_local_date_time, p);
    return desert_write_local_date_time(w, v);
  }
  case DESERT_C_OFFSET_TIME: {
    LOAD(desert_offset_time, p);
    return desert_write_offset_time(w, v);
  }
  case DESERT_C_OFFSET_DATE_TIME:
  case DESERT_C_RUST_DATETIME_FIXED_OFFSET: {
    LOAD(desert_offset_date_time, p);
    return t == DESERT_C_OFFSET_DATE_TIME ? desert_write_offset_date_time(w, v)
                                          : desert_write_rust_datetime_fixed_offset(w, v);
  }
  case DESERT_C_ZONED_DATE_TIME: {
    LOAD(desert_zoned_date_time, p);
    return desert_write_zoned_date_time(w, &v);
  }
  case DESERT_C_RUST_DATETIME_TZ: {
    LOAD(desert_cdatetime_tz, p);
    return desert_write_rust_datetime_tz(w, v.utc, v.zone);
  }
  case DESERT_C_IP_ADDR: {
    LOAD(desert_ip_addr, p);
    return desert_write_ip_addr(w, &v);
  }
  case DESERT_C_MAC_ADDRESS:
    return desert_write_mac_address(w, p);
  default:
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  }
}

#undef LOAD

/* Reads into a local of type T with `call` (which names it v), then stores
 * it: the slot stays untouched on failure. The local starts zeroed so that
 * struct padding and members the reader leaves alone (a zone id's region
 * when it is an offset) are zero, as desert_cstruct_decode promises. */
#define READ_INTO(T, call)      \
  do {                          \
    T v;                        \
    memset(&v, 0, sizeof v);    \
    if (call) return r->status; \
    memcpy(p, &v, sizeof v);    \
    return DESERT_OK;           \
  } while (0)

desert_status desert_cstruct_dec_value_type(desert_reader *r, desert_ctype t, uint8_t *p) {
  switch (t) {
  case DESERT_C_CHAR16:
    READ_INTO(uint16_t, desert_read_char16(r, &v));
  case DESERT_C_DURATION:
    READ_INTO(desert_duration, desert_read_duration(r, &v));
  case DESERT_C_INSTANT:
    READ_INTO(desert_duration, desert_read_instant(r, &v));
  case DESERT_C_BIGINT:
    READ_INTO(desert_bytes, desert_read_bigint(r, &v));
  case DESERT_C_BIGINT_I64:
    READ_INTO(int64_t, desert_read_bigint_i64(r, &v));
  case DESERT_C_BIGDECIMAL:
    READ_INTO(desert_str, desert_read_bigdecimal(r, &v));
  case DESERT_C_URL:
    READ_INTO(desert_str, desert_read_url(r, &v));
  case DESERT_C_BIGDECIMAL_BINARY:
    READ_INTO(desert_cbigdecimal, desert_read_bigdecimal_binary(r, &v.scale, &v.unscaled));
  case DESERT_C_COMPRESSED:
    /* As DESERT_TYPE_COMPRESSED with its default flavour; the inflated
     * bytes stay in the reader's arena (no copy: the struct's lifetime
     * rules already tie decoded data to the reader). */
    READ_INTO(desert_bytes, desert_read_compressed(r, desert_reader_options(r)->compression, &v));
  case DESERT_C_DAY_OF_WEEK:
    READ_INTO(uint8_t, desert_read_day_of_week(r, &v));
  case DESERT_C_MONTH:
    READ_INTO(uint8_t, desert_read_month(r, &v));
  case DESERT_C_YEAR:
    READ_INTO(int32_t, desert_read_year(r, &v));
  case DESERT_C_ZONE_OFFSET:
    READ_INTO(int32_t, desert_read_zone_offset(r, &v));
  case DESERT_C_MONTH_DAY:
    READ_INTO(desert_month_day, desert_read_month_day(r, &v));
  case DESERT_C_YEAR_MONTH:
    READ_INTO(desert_year_month, desert_read_year_month(r, &v));
  case DESERT_C_PERIOD:
    READ_INTO(desert_period, desert_read_period(r, &v));
  case DESERT_C_ZONE_ID:
    READ_INTO(desert_zone_id, desert_read_zone_id(r, &v));
  case DESERT_C_LOCAL_DATE:
    READ_INTO(desert_local_date, desert_read_local_date(r, &v));
  case DESERT_C_LOCAL_TIME:
    READ_INTO(desert_local_time, desert_read_local_time(r, &v));
  case DESERT_C_LOCAL_DATE_TIME:
    READ_INTO(desert_local_date_time, desert_read_local_date_time(r, &v));
  case DESERT_C_OFFSET_TIME:
    READ_INTO(desert_offset_time, desert_read_offset_time(r, &v));
  case DESERT_C_OFFSET_DATE_TIME:
    READ_INTO(desert_offset_date_time, desert_read_offset_date_time(r, &v));
  case DESERT_C_RUST_DATETIME_FIXED_OFFSET:
    READ_INTO(desert_offset_date_time, desert_read_rust_datetime_fixed_offset(r, &v));
  case DESERT_C_ZONED_DATE_TIME:
    READ_INTO(desert_zoned_date_time, desert_read_zoned_date_time(r, &v));
  case DESERT_C_RUST_DATETIME_TZ:
    READ_INTO(desert_cdatetime_tz, desert_read_rust_datetime_tz(r, &v.utc, &v.zone));
  case DESERT_C_IP_ADDR:
    READ_INTO(desert_ip_addr, desert_read_ip_addr(r, &v));
  case DESERT_C_MAC_ADDRESS: {
    uint8_t v[6];
    if (desert_read_mac_address(r, v)) return r->status;
    memcpy(p, v, sizeof v);
    return DESERT_OK;
  }
  default:
    return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  }
}

#undef READ_INTO
