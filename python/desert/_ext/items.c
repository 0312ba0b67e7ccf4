/* python/desert/_ext/items.c — the out-of-line part of items.h: the
 * cache of short str objects, large strings made without the GIL, and runs
 * of fixed-width numbers made into a list in one loop per kind. */
#include "items.h"

dz_str_slot dz_str_cache[DZ_STR_CACHE];

/* Code points and the largest lead byte of UTF-8 the reader validated. */
void dz_utf8_measure(const uint8_t *p, size_t n, size_t *chars, unsigned *maxlead) {
  size_t k = 0;
  unsigned m = 0;
  for (size_t i = 0; i < n; i++) {
    k += (p[i] & 0xC0u) != 0x80u;
    if (p[i] > m) m = p[i];
  }
  *chars = k;
  *maxlead = m;
}

/* Validated UTF-8 into a str's buffer of the given kind. */
static void utf8_fill(const uint8_t *p, size_t n, int kind, void *data) {
  size_t j = 0;
  for (size_t i = 0; i < n; j++) {
    uint32_t cp = p[i];
    if (cp < 0x80u) {
      i += 1;
    } else if (cp < 0xE0u) {
      cp = (cp & 0x1Fu) << 6 | (p[i + 1] & 0x3Fu);
      i += 2;
    } else if (cp < 0xF0u) {
      cp = (cp & 0x0Fu) << 12 | (uint32_t)(p[i + 1] & 0x3Fu) << 6 | (p[i + 2] & 0x3Fu);
      i += 3;
    } else {
      cp = (cp & 0x07u) << 18 | (uint32_t)(p[i + 1] & 0x3Fu) << 12 |
           (uint32_t)(p[i + 2] & 0x3Fu) << 6 | (p[i + 3] & 0x3Fu);
      i += 4;
    }
    if (kind == PyUnicode_1BYTE_KIND) ((Py_UCS1 *)data)[j] = (Py_UCS1)cp;
    else if (kind == PyUnicode_2BYTE_KIND) ((Py_UCS2 *)data)[j] = (Py_UCS2)cp;
    else ((Py_UCS4 *)data)[j] = cp;
  }
}

/* A str of validated UTF-8 of at least DZ_NOGIL_BYTES: measured without
 * the GIL, made with it, filled without it (the str is not shared before
 * it is returned). The lead bytes give the exact kind CPython requires:
 * below 0x80 ASCII, C2/C3 Latin-1, up to EF two bytes, F0 and above four. */
PyObject *dz_big_str_measured(const char *p, size_t n, size_t chars, unsigned lead,
                                  int release) {
  Py_UCS4 maxc = lead < 0x80u ? 0x7F : lead < 0xC4u ? 0xFF : lead < 0xF0u ? 0xFFFF : 0x10FFFF;
  PyObject *o = PyUnicode_New((Py_ssize_t)chars, maxc);
  if (!o) return NULL;
  int kind = PyUnicode_KIND(o);
  void *data = PyUnicode_DATA(o);
  if (!release) {
    if (lead < 0x80u) memcpy(data, p, n);
    else utf8_fill((const uint8_t *)p, n, kind, data);
    return o;
  }
  DZ_BEGIN_NOGIL
  if (lead < 0x80u) memcpy(data, p, n);
  else utf8_fill((const uint8_t *)p, n, kind, data);
  DZ_END_NOGIL
  return o;
}

/* release: 0 in a stream, whose window must not be read while another
 * thread may use the iterator. */
PyObject *dz_big_str(const char *p, size_t n, int release) {
  size_t chars = 0;
  unsigned lead = 0;
  if (!release) {
    dz_utf8_measure((const uint8_t *)p, n, &chars, &lead);
    return dz_big_str_measured(p, n, chars, lead, 0);
  }
  DZ_BEGIN_NOGIL
  dz_utf8_measure((const uint8_t *)p, n, &chars, &lead);
  DZ_END_NOGIL
  return dz_big_str_measured(p, n, chars, lead, 1);
}

/* Bytes per element of a list of fixed-width numbers (read in one view by
 * dec_list), 0 for any other element type. (The library's own table of
 * widths is internal; the extension uses the public API only.) */
size_t dz_bulk_width(const desert_type *et) {
  switch (et->kind) {
  case DESERT_TYPE_I16:
  case DESERT_TYPE_U16:
    return 2;
  case DESERT_TYPE_I32:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_F32:
    return 4;
  case DESERT_TYPE_I64:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_F64:
    return 8;
  default:
    return 0;
  }
}

/* Fills list[0..n) with the Python values of the n big-endian elements of
 * kind k at p, as dec_fast / dec_r make them; one loop per kind, so the
 * kind is not tested per element. -1 (an exception set) at the first
 * object that cannot be made, with *bad its index. */
int dz_bulk_fill(PyObject *list, desert_type_kind k, const uint8_t *p, size_t n, size_t *bad) {
#define BULK_LOOP(MAKE)                                           \
  for (size_t i = 0; i < n; i++) {                                \
    PyObject *x = MAKE;                                           \
    if (!x) {                                                     \
      *bad = i;                                                   \
      return -1;                                                  \
    }                                                             \
    PyList_SET_ITEM(list, (Py_ssize_t)i, x);                      \
  }                                                               \
  return 0;
  switch (k) {
  case DESERT_TYPE_I16:
    BULK_LOOP(PyLong_FromLong((int16_t)dz_be16(p + 2 * i)))
  case DESERT_TYPE_U16:
    BULK_LOOP(PyLong_FromLong((long)dz_be16(p + 2 * i)))
  case DESERT_TYPE_I32:
    BULK_LOOP(PyLong_FromLong((int32_t)dz_be32(p + 4 * i)))
  case DESERT_TYPE_U32:
    BULK_LOOP(PyLong_FromUnsignedLong((unsigned long)dz_be32(p + 4 * i)))
  case DESERT_TYPE_F32:
    BULK_LOOP(dz_float_to_python(1, dz_be32(p + 4 * i)))
  case DESERT_TYPE_I64:
    BULK_LOOP(PyLong_FromLongLong((long long)(int64_t)dz_be64(p + 8 * i)))
  case DESERT_TYPE_U64:
    BULK_LOOP(PyLong_FromUnsignedLongLong(dz_be64(p + 8 * i)))
  default: /* F64 */
    BULK_LOOP(dz_f64_item(dz_be64(p + 8 * i)))
  }
#undef BULK_LOOP
}
