/* src/types_struct_internal.h — what the C-struct descriptor files
 * (src/types_struct*.c) share: the storage size of each desert_ctype and the
 * nesting bound of values between two records. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TYPES_STRUCT_INTERNAL_H
#define DESERT_TYPES_STRUCT_INTERNAL_H

#include "desert/types.h"
#include "internal.h"

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
  default:
    return SIZE_MAX;
  }
}

#endif
