/* src/types/types_struct_internal.h — what the C-struct descriptor files
 * (src/types/types_struct*.c) share: the storage size of each desert_ctype, the
 * nesting bound of values between two records, and the codec entry points
 * of the value ctypes (types_struct_values.c). Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TYPES_STRUCT_INTERNAL_H
#define DESERT_TYPES_STRUCT_INTERNAL_H

#include "desert/types.h"
#include "base/internal.h"

/* Values nested inside one record field without a record in between
 * (option of either of list of ...). A checked descriptor stays far below;
 * the codecs enforce it too so that an unchecked cyclic descriptor cannot
 * recurse without bound on hostile input. */
#define DESERT_CSTRUCT_VALUE_DEPTH 32u

/* Bytes a value of f's ctype occupies at its `offset`; 0 for kinds whose
 * parts live elsewhere in the base (unit, option, either, try); SIZE_MAX
 * for an unknown ctype. */
static inline size_t desert_cstruct_csize(const desert_cfield *f) {
  const desert_ctype t = f->ctype;
  switch (t) {
  case DESERT_C_BOOL:
    return sizeof(bool);
  case DESERT_C_I8:
  case DESERT_C_U8:
    return 1;
  case DESERT_C_I16:
  case DESERT_C_U16:
    return 2;
  case DESERT_C_I32:
  case DESERT_C_U32:
  case DESERT_C_F32:
  case DESERT_C_VAR_U32:
  case DESERT_C_VAR_I32:
  case DESERT_C_CHAR:
    return 4;
  case DESERT_C_ENUM:
    return f->cenum ? f->cenum->size : 0;
  case DESERT_C_I64:
  case DESERT_C_U64:
  case DESERT_C_F64:
    return 8;
  case DESERT_C_STRING:
  case DESERT_C_DEDUP_STRING:
    return sizeof(desert_str);
  case DESERT_C_BYTES:
    return sizeof(desert_bytes);
  case DESERT_C_UUID:
    return 16;
  case DESERT_C_UNIT:
  case DESERT_C_OPTION:
  case DESERT_C_EITHER:
  case DESERT_C_TRY:
    return 0;
  case DESERT_C_RECORD:
    return f->nested ? f->nested->size : 0;
  case DESERT_C_LIST:
    return sizeof(desert_clist);
  case DESERT_C_PTR:
    return sizeof(void *);
  case DESERT_C_CHAR16:
    return sizeof(uint16_t);
  case DESERT_C_DAY_OF_WEEK:
  case DESERT_C_MONTH:
    return sizeof(uint8_t);
  case DESERT_C_YEAR:
  case DESERT_C_ZONE_OFFSET:
    return sizeof(int32_t);
  case DESERT_C_BIGINT_I64:
    return sizeof(int64_t);
  case DESERT_C_DURATION:
  case DESERT_C_INSTANT:
    return sizeof(desert_duration);
  case DESERT_C_BIGINT:
  case DESERT_C_COMPRESSED:
    return sizeof(desert_bytes);
  case DESERT_C_BIGDECIMAL:
  case DESERT_C_URL:
    return sizeof(desert_str);
  case DESERT_C_BIGDECIMAL_BINARY:
    return sizeof(desert_cbigdecimal);
  case DESERT_C_MONTH_DAY:
    return sizeof(desert_month_day);
  case DESERT_C_YEAR_MONTH:
    return sizeof(desert_year_month);
  case DESERT_C_PERIOD:
    return sizeof(desert_period);
  case DESERT_C_ZONE_ID:
    return sizeof(desert_zone_id);
  case DESERT_C_LOCAL_DATE:
    return sizeof(desert_local_date);
  case DESERT_C_LOCAL_TIME:
    return sizeof(desert_local_time);
  case DESERT_C_LOCAL_DATE_TIME:
    return sizeof(desert_local_date_time);
  case DESERT_C_OFFSET_TIME:
    return sizeof(desert_offset_time);
  case DESERT_C_OFFSET_DATE_TIME:
  case DESERT_C_RUST_DATETIME_FIXED_OFFSET:
    return sizeof(desert_offset_date_time);
  case DESERT_C_ZONED_DATE_TIME:
    return sizeof(desert_zoned_date_time);
  case DESERT_C_RUST_DATETIME_TZ:
    return sizeof(desert_cdatetime_tz);
  case DESERT_C_IP_ADDR:
    return sizeof(desert_ip_addr);
  case DESERT_C_MAC_ADDRESS:
    return 6;
  default:
    return SIZE_MAX;
  }
}

/* The value ctypes (DESERT_C_CHAR16 .. DESERT_C_URL, types_struct_values.c):
 * leaves stored as one C value that a values.h writer/reader (or the
 * char16/compressed calls of writer.h/reader.h) handles whole. */
static inline bool desert_cstruct_is_value_ctype(desert_ctype t) {
  return t >= DESERT_C_CHAR16 && t <= DESERT_C_URL;
}

/* Writes the value ctype t stored at p (alignment-free: copied out with
 * memcpy). The status is the writer's (sticky). */
desert_status desert_cstruct_enc_value_type(desert_writer *w, desert_ctype t, const uint8_t *p);
/* Reads the value ctype t into p; p is written only on success. The status
 * and error offset are the reader's. */
desert_status desert_cstruct_dec_value_type(desert_reader *r, desert_ctype t, uint8_t *p);

#endif
