/* include/desert/reader_inline.h — inline fast paths of the reader: the
 * single values an application reads most (fixed-width numbers, varints,
 * option/either/try tags, short ASCII strings) read straight from the
 * input when the current limit leaves room, else handed to the exported
 * function of the same name without `_inline`. Included by
 * desert/reader.h.
 * SPDX-License-Identifier: MIT
 *
 * Contract: desert_read_X_inline(r, out) has exactly the behaviour of
 * desert_read_X(r, out): same value, same status, same error offset, same
 * position afterwards, output untouched on error, same sticky error. The
 * inline code only handles input it can accept without any check that
 * could fail: no error yet, the whole item inside the current limit (end
 * of input or of the record chunk being read), a varint that ends within
 * 5 bytes, a tag byte 00 or 01, a string of at most 63 ASCII bytes within
 * options.max_length. Everything else — and so every error — is decided
 * by the exported function, which reads the item again from its start.
 * Mixing the two forms on one reader is fine. desert_reader_begin_inline
 * (below) follows the same contract for desert_reader_begin.
 *
 * Defining DESERT_DEBUG (see desert/writer_inline.h) turns the invariant
 * desert_reader_begin_inline builds on into a check that aborts. */
#ifndef DESERT_READER_INLINE_H
#define DESERT_READER_INLINE_H

#include "desert/writer_inline.h" /* DESERT_FAST_LIKELY_, desert_fast_ascii_ */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- helpers (not API) ------------------------------------------------------ */

/* The next n bytes, advancing, or NULL (nothing changed) when the exported
 * function must handle the read. */
static inline const uint8_t *desert_rfast_take_(desert_reader *r, size_t n) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->end - f->pos >= n)) {
    const uint8_t *p = f->base + f->pos;
    f->pos += n;
    return p;
  }
  return NULL;
}
/* Big-endian loads, written portably (one load and one byte swap). */
static inline uint16_t desert_fast_get16_(const uint8_t *p) {
  return (uint16_t)((unsigned)p[0] << 8 | (unsigned)p[1]);
}
static inline uint32_t desert_fast_get32_(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint64_t desert_fast_get64_(const uint8_t *p) {
  return (uint64_t)desert_fast_get32_(p) << 32 | desert_fast_get32_(p + 4);
}
/* Bit-pattern conversions without implementation-defined casts. */
#define DESERT_FAST_AS_(name, from, to)            \
  static inline to desert_fast_##name##_(from v) { \
    to r;                                          \
    memcpy(&r, &v, sizeof r);                      \
    return r;                                      \
  }
DESERT_FAST_AS_(as_i8, uint8_t, int8_t)
DESERT_FAST_AS_(as_i16, uint16_t, int16_t)
DESERT_FAST_AS_(as_i32, uint32_t, int32_t)
DESERT_FAST_AS_(as_i64, uint64_t, int64_t)
DESERT_FAST_AS_(as_f32, uint32_t, float)
DESERT_FAST_AS_(as_f64, uint64_t, double)
#undef DESERT_FAST_AS_

/* ---- message boundary ------------------------------------------------------------
 * desert_reader_begin_inline(r, data, len): exactly desert_reader_begin(r,
 * data, len), same status and same state afterwards. When the previous
 * message left nothing to clear (no session table entry, arena
 * allocation, nesting, stream or error since the last begin, reset or
 * init) and data is not NULL, starting a message is four stores, done
 * here; anything else (r NULL, data NULL, state to clear, an error to
 * forget) runs the exported function. An empty input (len 0) may stay
 * here; the one difference from the exported begin is then the pointer a
 * zero-byte desert_read_raw returns: data itself rather than a non-NULL
 * library constant (both point at zero readable bytes). data is borrowed
 * as for desert_reader_begin. Same thread rules (one thread at a time per
 * reader). */
static inline desert_status desert_reader_begin_inline(desert_reader *r, const void *data,
                                                       size_t len) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f != NULL && data != NULL && f->busy == 0)) {
    /* busy 0: the library keeps busy nonzero while an error is recorded.
     * Knowing the status (or storing it, without the assumption) lets the
     * compiler drop the status test of the inline read that follows; with
     * DESERT_DEBUG it is checked. */
#ifdef DESERT_FAST_KNOWN_
    DESERT_FAST_KNOWN_(f->status == DESERT_OK);
#else
    f->status = DESERT_OK;
#endif
    f->pos = 0;
    f->end = len;
    f->len = len;
    f->base = (const uint8_t *)data;
    return DESERT_OK;
  }
  return desert_reader_begin(r, data, len);
}

/* ---- fixed-width values (docs/format.md §2) and bool ------------------------------ */

#define DESERT_FAST_R_(name, type, n, get)                                                 \
  static inline desert_status desert_read_##name##_inline(desert_reader * r, type * out) { \
    const uint8_t *p = desert_rfast_take_(r, n);                                           \
    if (!p) return desert_read_##name(r, out);                                             \
    *out = get;                                                                            \
    return DESERT_OK;                                                                      \
  }

DESERT_FAST_R_(u8, uint8_t, 1, p[0])
DESERT_FAST_R_(i8, int8_t, 1, desert_fast_as_i8_(p[0]))
DESERT_FAST_R_(u16, uint16_t, 2, desert_fast_get16_(p))
DESERT_FAST_R_(i16, int16_t, 2, desert_fast_as_i16_(desert_fast_get16_(p)))
DESERT_FAST_R_(u32, uint32_t, 4, desert_fast_get32_(p))
DESERT_FAST_R_(i32, int32_t, 4, desert_fast_as_i32_(desert_fast_get32_(p)))
DESERT_FAST_R_(u64, uint64_t, 8, desert_fast_get64_(p))
DESERT_FAST_R_(i64, int64_t, 8, desert_fast_as_i64_(desert_fast_get64_(p)))
DESERT_FAST_R_(f32, float, 4, desert_fast_as_f32_(desert_fast_get32_(p)))
DESERT_FAST_R_(f64, double, 8, desert_fast_as_f64_(desert_fast_get64_(p)))
DESERT_FAST_R_(bool, bool, 1, p[0] != 0)
#undef DESERT_FAST_R_

/* ---- option / either / try tags (docs/format.md §7) -------------------------------
 * 00 and 01 inline; any other byte (an error, or true under
 * DESERT_OPT_LENIENT_TAGS) is the exported function's. */
static inline bool desert_rfast_tag_(desert_reader *r, bool *out) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->pos < f->end)) {
    uint8_t b = f->base[f->pos];
    if (DESERT_FAST_LIKELY_(b <= 1u)) {
      f->pos++;
      *out = b != 0;
      return true;
    }
  }
  return false;
}
#define DESERT_FAST_TAG_(name)                                                            \
  static inline desert_status desert_read_##name##_inline(desert_reader * r, bool *out) { \
    if (desert_rfast_tag_(r, out)) return DESERT_OK;                                      \
    return desert_read_##name(r, out);                                                    \
  }
DESERT_FAST_TAG_(option)
DESERT_FAST_TAG_(either)
DESERT_FAST_TAG_(try)
#undef DESERT_FAST_TAG_

/* ---- varints (docs/format.md §3) ----------------------------------------------------
 * A one-byte varint needs one byte of input; a longer one is decoded
 * inline when 5 bytes are left and it ends by its 5th byte (bits past bit
 * 31 of the 5th byte are dropped, as desert_read_var_u32 does). */
static inline bool desert_rfast_var_(desert_reader *r, uint32_t *out) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (!DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->pos < f->end)) return false;
  const uint8_t *p = f->base + f->pos;
  uint32_t v = p[0];
  if (DESERT_FAST_LIKELY_(v < 0x80u)) {
    f->pos++;
    *out = v;
    return true;
  }
  if (f->end - f->pos < 5) return false;
  v &= 0x7fu;
  for (unsigned i = 1; i < 5; i++) {
    v |= (uint32_t)(p[i] & 0x7fu) << (7 * i);
    if (p[i] < 0x80u) {
      f->pos += i + 1;
      *out = v;
      return true;
    }
  }
  return false; /* continuation bit on the 5th byte: an error or lenient */
}

static inline desert_status desert_read_var_u32_inline(desert_reader *r, uint32_t *out) {
  if (desert_rfast_var_(r, out)) return DESERT_OK;
  return desert_read_var_u32(r, out);
}

static inline desert_status desert_read_var_i32_inline(desert_reader *r, int32_t *out) {
  uint32_t u;
  if (!desert_rfast_var_(r, &u)) return desert_read_var_i32(r, out);
  *out = desert_fast_as_i32_((u >> 1) ^ (0u - (u & 1u)));
  return DESERT_OK;
}

/* ---- strings (docs/format.md §5) ----------------------------------------------------
 * A view into the input, as desert_read_string gives. */
static inline bool desert_rfast_string_(desert_reader *r, desert_str *out) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->pos < f->end)) {
    const uint8_t *p = f->base + f->pos;
    size_t n = (size_t)(p[0] >> 1);
    /* An even byte below 0x80 is a one-byte, non-negative length. */
    if (DESERT_FAST_LIKELY_((p[0] & 0x81u) == 0 && n <= f->str_max && f->end - f->pos - 1 >= n &&
                            desert_fast_ascii_(p + 1, n))) {
      out->ptr = (const char *)(p + 1);
      out->len = n;
      f->pos += n + 1;
      return true;
    }
  }
  return false;
}
static inline desert_status desert_read_string_inline(desert_reader *r, desert_str *out) {
  if (desert_rfast_string_(r, out)) return DESERT_OK;
  return desert_read_string(r, out);
}

/* ---- collections (docs/format.md §6.2) ------------------------------------------------
 * desert_read_seq_next_inline: the next element of a known-size collection
 * inline (a count test); the unknown-size form's markers, and any reader
 * with an error, are the exported function's. */
static inline bool desert_read_seq_next_inline(desert_reader *r, desert_seq *seq) {
  const desert_reader_fast *f = (const desert_reader_fast *)(const void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && seq->known)) {
    if (seq->index >= seq->count) return false;
    seq->index++;
    return true;
  }
  return desert_read_seq_next(r, seq);
}

#ifdef __cplusplus
}
#endif
#endif /* DESERT_READER_INLINE_H */
