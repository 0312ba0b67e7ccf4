/* python/desert/_ext/items.h — Python objects made from bytes a decoder
 * has already checked, shared by the two decoders of the extension (the
 * reader-driven one, direct.c, and the raw-byte one for the common shapes,
 * flat.c): short strings through a cache of recent str objects, large ones
 * measured and filled without the GIL, floats that keep a NaN's payload,
 * runs of fixed-width numbers. Nothing here validates: UTF-8 handed in is
 * valid, lengths are in bounds. */
#ifndef DESERT_PY_ITEMS_H
#define DESERT_PY_ITEMS_H

#include "ext.h"

#include <math.h>
#include <string.h>

/* The extension's own, as in ext.h. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* The per-item helpers of the record and list loops are inlined into them
 * (a call frame per field costs as much as reading the field). */
#if defined(__GNUC__) || defined(__clang__)
#define DZ_INLINE static inline __attribute__((always_inline))
#else
#define DZ_INLINE static inline
#endif

/* Short ASCII strings recur (tags, enum-like names, keys of maps): the
 * last str made for each of a thousand hash slots is handed out again
 * instead of a new one (str is immutable; only its identity differs).
 * A slot's key is the string's length and bytes packed in two words, so a
 * hit needs no byte comparison. Touched with the GIL held only. */
#define DZ_STR_CACHE 1024u
#define DZ_STR_CACHE_MAX 16u
typedef struct dz_str_slot {
  uint64_t a, b;
  size_t n;
  PyObject *s;
} dz_str_slot;
extern dz_str_slot dz_str_cache[DZ_STR_CACHE];

DZ_INLINE PyObject *dz_new_ascii(const char *p, size_t n) {
  PyObject *o = PyUnicode_New((Py_ssize_t)n, 127);
  if (o) memcpy(PyUnicode_1BYTE_DATA(o), p, n);
  return o;
}

/* The same for n <= 16 whose bytes are the words a and b as
 * dz_str_short loads them: stored as loaded (gcc makes a memcpy of a
 * short unknown length `rep movsb`, slow to start). */
DZ_INLINE PyObject *dz_new_ascii_words(const char *p, size_t n, uint64_t a, uint64_t b) {
  PyObject *o = PyUnicode_New((Py_ssize_t)n, 127);
  if (!o) return NULL;
  Py_UCS1 *d = PyUnicode_1BYTE_DATA(o);
  if (n >= 8) {
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    memcpy(d, &x, 4);
    memcpy(d + n - 4, &y, 4);
  } else if (n) {
    d[0] = (Py_UCS1)p[0];
    d[n / 2] = (Py_UCS1)p[n / 2];
    d[n - 1] = (Py_UCS1)p[n - 1];
  }
  return o;
}

/* Probes per verdict of a string site, the fewest hits among them that keep
 * the cache on, and how many strings a site that missed skips it for. */
#define DZ_SITE_WINDOW 64u
#define DZ_SITE_MIN_HITS 8u
#define DZ_SITE_SKIP 4096u

/* A str of the n <= DZ_STR_CACHE_MAX bytes at p, through the cache when
 * they are ASCII. Other bytes: with validate 0 they are valid UTF-8 (the
 * reader checked them); with validate 1 they are checked here, and invalid
 * ones give NULL without a Python error (flat.c then declines). */
DZ_INLINE PyObject *dz_str_short(const char *p, size_t n, dz_strsite *site, int validate) {
  const unsigned char *u = (const unsigned char *)p;
  /* Two words that hold every byte (overlapping when n < 16). */
  uint64_t a = 0, b = 0;
  if (n >= 8) {
    memcpy(&a, p, 8);
    memcpy(&b, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t x, y;
    memcpy(&x, p, 4);
    memcpy(&y, p + n - 4, 4);
    a = x, b = y;
  } else if (n) {
    a = (uint64_t)u[0] | (uint64_t)u[n / 2] << 8 | (uint64_t)u[n - 1] << 16;
  }
  if (((a | b) & 0x8080808080808080ull) != 0) {
    size_t bad;
    if (validate && desert_utf8_validate(p, n, &bad)) return NULL;
    return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, NULL);
  }
  if (site->skip) {
    site->skip--;
    return dz_new_ascii_words(p, n, a, b);
  }
  uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n;
  size_t i = (size_t)(h >> 40) & (DZ_STR_CACHE - 1);
  if (++site->tries == DZ_SITE_WINDOW) {
    if (site->hits < DZ_SITE_MIN_HITS) site->skip = DZ_SITE_SKIP;
    site->tries = site->hits = 0;
  }
  if (dz_str_cache[i].s && dz_str_cache[i].a == a && dz_str_cache[i].b == b && dz_str_cache[i].n == n) {
    site->hits++;
    return Py_NewRef(dz_str_cache[i].s);
  }
  PyObject *o = dz_new_ascii_words(p, n, a, b);
  if (!o) return NULL;
  dz_str_cache[i].a = a, dz_str_cache[i].b = b, dz_str_cache[i].n = n;
  Py_XSETREF(dz_str_cache[i].s, Py_NewRef(o));
  return o;
}

/* Whether the n bytes at p are ASCII (eight at a time). */
static inline int dz_is_ascii(const uint8_t *p, size_t n) {
  uint64_t acc = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    acc |= w;
  }
  for (; i < n; i++) acc |= p[i];
  return (acc & 0x8080808080808080ull) == 0;
}

/* A str from UTF-8 the reader validated (ASCII without a second look). */
DZ_INLINE PyObject *dz_str_of(const char *p, size_t n, dz_strsite *site) {
  if (n <= DZ_STR_CACHE_MAX) return dz_str_short(p, n, site, 0);
  if (dz_is_ascii((const uint8_t *)p, n)) return dz_new_ascii(p, n);
  return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, NULL);
}

/* The capacity the tree codec ends a collection of n items with (its
 * charge): from min(n, 64) (known count) or 16, doubled until it holds n. */
DZ_INLINE size_t dz_tree_cap(int known, size_t count, size_t n) {
  size_t cap = known ? (count < 64 ? count : 64) : 16;
  while (cap < n) cap = cap > SIZE_MAX / 2 ? n : cap * 2;
  return cap;
}

/* A Python float from f64 bits; a NaN goes through dz_float_to_python,
 * which keeps its payload. */
DZ_INLINE PyObject *dz_f64_item(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return isnan(d) ? dz_float_to_python(0, u) : PyFloat_FromDouble(d);
}

/* Big-endian loads (gcc and clang make each one load and one byte swap). */
DZ_INLINE uint16_t dz_be16(const uint8_t *p) { return (uint16_t)((unsigned)p[0] << 8 | p[1]); }
DZ_INLINE uint32_t dz_be32(const uint8_t *p) { return (uint32_t)dz_be16(p) << 16 | dz_be16(p + 2); }
DZ_INLINE uint64_t dz_be64(const uint8_t *p) { return (uint64_t)dz_be32(p) << 32 | dz_be32(p + 4); }

/* Code points and the largest lead byte of valid UTF-8. */
void dz_utf8_measure(const uint8_t *p, size_t n, size_t *chars, unsigned *maxlead);
/* A str of valid UTF-8 of n bytes whose code points and largest lead byte
 * dz_utf8_measure gave; release: fill it without the GIL (n is large and p
 * stays valid meanwhile). */
PyObject *dz_big_str_measured(const char *p, size_t n, size_t chars, unsigned lead, int release);
/* The same, measured here (without the GIL when release is 1). release: 0
 * in a stream, whose window must not be read while another thread may use
 * the iterator. */
PyObject *dz_big_str(const char *p, size_t n, int release);
/* Bytes per element of a list of fixed-width numbers decoded in one run,
 * 0 for any other element type. (The library's own table of widths is
 * internal; the extension uses the public API only.) */
size_t dz_bulk_width(const desert_type *et);
/* Fills list[0..n) with the Python values of the n big-endian elements of
 * kind k at p; -1 (an exception set) at the first object that cannot be
 * made, with *bad its index. */
int dz_bulk_fill(PyObject *list, desert_type_kind k, const uint8_t *p, size_t n, size_t *bad);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* DESERT_PY_ITEMS_H */
