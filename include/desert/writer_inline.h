/* include/desert/writer_inline.h — inline fast paths of the writer: the
 * single values an application writes most (fixed-width numbers, varints,
 * counts, option/either/try tags, short ASCII strings) written straight at
 * the writer's cursor when the current target has room, else handed to the
 * exported function of the same name without `_inline`. Included by
 * desert/writer.h.
 * SPDX-License-Identifier: MIT
 *
 * Contract: desert_write_X_inline(w, ...) has exactly the behaviour of
 * desert_write_X(w, ...): same bytes, same status, same sticky error, same
 * modes (growable, fixed caller buffer, size-only), same thread rules. It
 * only skips the call when nothing can go wrong: no error yet and room in
 * the target (for varints and counts: room for 5 bytes; for strings: up
 * to 63 bytes of ASCII, whose one-byte length prefix needs no checks), or
 * no error yet and size-only mode, where the same values are only counted
 * (nothing is stored). Any other case — an error, a full buffer that must
 * grow or fail, a longer or non-ASCII string, a count above 2^31 - 1 —
 * calls the exported function, which decides. Mixing the two forms on one
 * writer is fine.
 *
 * The functions read and update only the documented head of the writer
 * (desert_writer_fast and the desert_wtarget it points at). The message
 * boundary functions desert_writer_reset_inline and
 * desert_writer_data_inline follow the same contract for
 * desert_writer_reset and desert_writer_data (see below). They are
 * ordinary C11 (and C++) without compiler extensions. */
#ifndef DESERT_WRITER_INLINE_H
#define DESERT_WRITER_INLINE_H

#include <stdbool.h>
#include <string.h>

#include "desert/common.h"

/* DESERT_DEBUG: define it (-DDESERT_DEBUG) before including a desert
 * header to have the inline functions check the library invariants they
 * build on (DESERT_FAST_KNOWN_ below). A broken one, which only a library
 * bug or a store into the writer's or reader's head from outside the
 * library can cause, then prints the header's file, line and condition to
 * stderr and aborts, where without DESERT_DEBUG it is undefined
 * behaviour. Without it the conditions are hints to the compiler and cost
 * nothing. It changes no layout or behaviour otherwise: code built with it
 * mixes with code and library builds without it. The library's own dev, ci
 * and asan builds define it (CMake option DESERT_ENABLE_ASSERTS). */
#if defined(__GNUC__) || defined(__clang__)
#define DESERT_FAST_LIKELY_(x) __builtin_expect(!!(x), 1)
#else
#define DESERT_FAST_LIKELY_(x) (x)
#endif
#if defined(DESERT_DEBUG)
#include <stdio.h>
#include <stdlib.h>
static inline void desert_fast_check_failed_(const char *cond, const char *file, int line) {
  fprintf(stderr, "desert: %s:%d: inline check failed: %s\n", file, line, cond);
  abort();
}
/* DESERT_DEBUG: c is checked. */
#define DESERT_FAST_KNOWN_(c)                                              \
  do {                                                                     \
    if (!(c)) desert_fast_check_failed_(#c, __FILE__, __LINE__);           \
  } while (0)
#elif defined(__GNUC__) || defined(__clang__)
/* Tells the compiler that c holds (the library guarantees it), so the
 * inline code after it can drop tests and loads it would otherwise repeat. */
#define DESERT_FAST_KNOWN_(c)          \
  do {                                 \
    if (!(c)) __builtin_unreachable(); \
  } while (0)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- helpers (not API) ------------------------------------------------------ */

/* The target n bytes can go to at its cursor (t->len), or NULL when the
 * exported function must handle the write (error set, no room, size-only
 * mode). Callers keep t->len in a local across their stores: a byte
 * store may alias it, and reloading it cost a load per value. */
static inline desert_wtarget *desert_wfast_room_(desert_writer *w, size_t n) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  desert_wtarget *t = f->t;
  /* len + n, not cap - len: in size-only mode len runs past cap (0). */
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && t->len + n <= t->cap)) return t;
  return NULL;
}
/* Size-only mode (the target's mode DESERT_WTARGET_COUNT_, no error yet):
 * counts n bytes without storing anything, as the exported function would
 * (it stores them in a scratch area nobody reads); false when the exported
 * function must handle the write. Only reached when desert_wfast_room_
 * found no room, so the paths that write bytes pay nothing for it. */
static inline bool desert_wfast_counted_(desert_writer *w, size_t n) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  if (f->status == DESERT_OK && f->t->mode == DESERT_WTARGET_COUNT_) {
    f->t->len += n;
    return true;
  }
  return false;
}
/* Big-endian stores, written portably; gcc and clang turn each into one
 * byte swap and one store. */
static inline void desert_fast_put16_(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void desert_fast_put32_(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
static inline void desert_fast_put64_(uint8_t *p, uint64_t v) {
  desert_fast_put32_(p, (uint32_t)(v >> 32));
  desert_fast_put32_(p + 4, (uint32_t)v);
}
static inline uint32_t desert_fast_f32_bits_(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static inline uint64_t desert_fast_f64_bits_(double f) {
  uint64_t b;
  memcpy(&b, &f, 8);
  return b;
}
/* docs/format.md §3: shortest var_u32 into p (5 bytes of room); its length. */
static inline size_t desert_fast_put_var_(uint8_t *p, uint32_t v) {
  size_t n = 0;
  while (v >= 0x80u) {
    p[n++] = (uint8_t)(v | 0x80u);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}
/* Bytes of the shortest var_u32 of v (1..5). */
static inline size_t desert_fast_var_len_(uint32_t v) {
  return 1u + (v >= 0x80u) + (v >= 0x4000u) + (v >= 0x200000u) + (v >= 0x10000000u);
}
static inline uint32_t desert_fast_zigzag_(int32_t v) {
  return ((uint32_t)v << 1) ^ (0u - ((uint32_t)v >> 31));
}
/* True when s[0..n) is all ASCII (n < 64 here). Whole words only, the
 * last one overlapping the one before: no byte loop for the tail. */
static inline bool desert_fast_ascii_(const uint8_t *s, size_t n) {
  uint64_t acc = 0, word;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&word, s + i, 8);
      acc |= word;
    }
    memcpy(&word, s + n - 8, 8);
    acc |= word;
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    acc = a | b;
  } else if (n) {
    acc = (uint64_t)(s[0] | s[n >> 1] | s[n - 1]);
  }
  return (acc & 0x8080808080808080ull) == 0;
}

/* ---- message boundaries --------------------------------------------------------
 * desert_writer_reset_inline(w): exactly desert_writer_reset(w) (w may be
 * NULL). When nothing but plain values went through w since the last
 * reset, init or create and none failed (no DeduplicatedString or
 * reference entered a session table, no record was opened, no error), a
 * reset only clears the output length, which is done here in one store;
 * otherwise the exported function runs.
 *
 * desert_writer_data_inline(w, len): exactly desert_writer_data(w, len):
 * the bytes written so far (NULL in size-only mode, where *len is still
 * the count), valid until the next write, reset or free. Never calls out
 * unless w is NULL.
 *
 * Both read and write only the writer's head; same thread rules as the
 * exported functions (one thread at a time per writer). */
static inline void desert_writer_reset_inline(desert_writer *w) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  if (!DESERT_FAST_LIKELY_(f != NULL && f->busy == 0)) {
    desert_writer_reset(w);
    if (f == NULL) return;
  }
  /* Both paths get here with busy 0, and the library keeps busy nonzero
   * while the status holds an error or the target is not the output
   * (desert_w_fail, the record writer). Saying so, rather than storing
   * both again, lets the writes that follow drop their status test and
   * cursor reloads; with DESERT_DEBUG it is checked. */
#ifdef DESERT_FAST_KNOWN_
  DESERT_FAST_KNOWN_(f->status == DESERT_OK && f->t == &f->main);
#else
  f->status = DESERT_OK;
  f->t = &f->main;
#endif
  f->main.len = 0;
}

/* desert_writer_init_inline(storage, size, opt, out): exactly
 * desert_writer_init (writer.h), same statuses, same writer. With options
 * NULL and a whole desert_writer_storage (size == DESERT_WRITER_STORAGE_SIZE,
 * aligned as that union is), it sets the writer's head here, ten stores,
 * and leaves the rest of the context to the first exported call, as
 * desert_writer_init does; anything else calls desert_writer_init.
 *
 * desert_writer_free_inline(w): exactly desert_writer_free(w); returns at
 * once for a writer on which no exported function but the boundary and
 * status queries was called (nothing to release), else calls it.
 *
 * Together with the inline writes and desert_writer_data_inline they make
 * a one-shot message in caller storage free of calls:
 *
 *   desert_writer_storage ws;
 *   desert_writer *w;
 *   desert_writer_init_inline(&ws, sizeof ws, NULL, &w);
 *   desert_write_i32_inline(w, 42);
 *   size_t len;
 *   const uint8_t *bytes = desert_writer_data_inline(w, &len);
 *   ...use bytes...
 *   desert_writer_free_inline(w); */
#ifdef __cplusplus
#define DESERT_FAST_ALIGNOF_(t) alignof(t)
#else
#define DESERT_FAST_ALIGNOF_(t) _Alignof(t)
#endif
static inline desert_status desert_writer_init_inline(void *storage, size_t size,
                                                      const desert_options *opt,
                                                      desert_writer **out) {
  if (DESERT_FAST_LIKELY_(opt == NULL && out != NULL && storage != NULL &&
                          size == DESERT_WRITER_STORAGE_SIZE &&
                          (uintptr_t)storage % DESERT_FAST_ALIGNOF_(desert_writer_storage) == 0)) {
    desert_writer_fast *f = (desert_writer_fast *)storage;
    /* the storage's last bytes: the library checks they lie past its context */
    uint8_t *buf = (uint8_t *)storage + (DESERT_WRITER_STORAGE_SIZE - DESERT_WFAST_INLINE_CAP_);
    f->status = DESERT_OK;
    f->busy = DESERT_WFAST_PENDING_ | DESERT_WFAST_DEFAULTS_ | DESERT_WFAST_STD_SIZE_;
    f->depth = 0;
    f->depth_max = DESERT_DEFAULT_MAX_DEPTH;
    f->t = &f->main;
    f->main.data = buf;
    f->main.len = 0;
    f->main.cap = DESERT_WFAST_INLINE_CAP_;
    f->main.mode = 0; /* growable */
    f->main.inl = buf;
    *out = (desert_writer *)storage;
    return DESERT_OK;
  }
  return desert_writer_init(storage, size, opt, out);
}

static inline void desert_writer_free_inline(desert_writer *w) {
  const desert_writer_fast *f = (const desert_writer_fast *)(const void *)w;
  if (f != NULL && (f->busy & DESERT_WFAST_PENDING_)) return;
  desert_writer_free(w);
}

static inline const uint8_t *desert_writer_data_inline(const desert_writer *w, size_t *len) {
  const desert_writer_fast *f = (const desert_writer_fast *)(const void *)w;
  if (!f) return desert_writer_data(w, len);
  if (len) *len = f->main.len;
  return f->main.data; /* NULL in size-only mode */
}

/* ---- direct stores ------------------------------------------------------------------ */

/* desert_writer_room_inline(w, &room): where the next bytes of w go, with
 * in *room how many fit there before the writer would have to grow, drain
 * or fail; NULL with *room 0 when it holds an error, is in size-only mode
 * or its buffer is full (then write with the ordinary calls, which grow,
 * count or fail as always). desert_writer_advance_inline(w, k) then counts
 * the k <= *room bytes the caller stored there as written; no other call
 * on w may come between the two. For runs of small values whose encoding
 * the caller knows byte for byte (`desert gen-c` stores a list of enum
 * values with fixed-width payloads this way: 00, the id, the payload);
 * anything stored must be exactly what the ordinary calls would write.
 */
static inline uint8_t *desert_writer_room_inline(desert_writer *w, size_t *room) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  desert_wtarget *t = f->t;
  /* len < cap, not cap - len: in size-only mode len runs past cap (0) */
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && t->len < t->cap)) {
    *room = t->cap - t->len;
    return t->data + t->len;
  }
  *room = 0;
  return NULL;
}
static inline void desert_writer_advance_inline(desert_writer *w, size_t k) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  f->t->len += k;
}

/* ---- fixed-width values (docs/format.md §2), bool and tags (§7) -------------------- */

#define DESERT_FAST_W_(name, type, n, put)                                              \
  static inline desert_status desert_write_##name##_inline(desert_writer * w, type v) { \
    desert_wtarget *t = desert_wfast_room_(w, n);                                       \
    if (!t) return desert_wfast_counted_(w, n) ? DESERT_OK : desert_write_##name(w, v); \
    size_t len = t->len;                                                                \
    uint8_t *p = t->data + len;                                                         \
    put;                                                                                \
    t->len = len + n;                                                                   \
    return DESERT_OK;                                                                   \
  }

DESERT_FAST_W_(u8, uint8_t, 1, p[0] = v)
DESERT_FAST_W_(i8, int8_t, 1, p[0] = (uint8_t)v)
DESERT_FAST_W_(u16, uint16_t, 2, desert_fast_put16_(p, v))
DESERT_FAST_W_(i16, int16_t, 2, desert_fast_put16_(p, (uint16_t)v))
DESERT_FAST_W_(u32, uint32_t, 4, desert_fast_put32_(p, v))
DESERT_FAST_W_(i32, int32_t, 4, desert_fast_put32_(p, (uint32_t)v))
DESERT_FAST_W_(u64, uint64_t, 8, desert_fast_put64_(p, v))
DESERT_FAST_W_(i64, int64_t, 8, desert_fast_put64_(p, (uint64_t)v))
DESERT_FAST_W_(f32, float, 4, desert_fast_put32_(p, desert_fast_f32_bits_(v)))
DESERT_FAST_W_(f64, double, 8, desert_fast_put64_(p, desert_fast_f64_bits_(v)))
DESERT_FAST_W_(bool, bool, 1, p[0] = (uint8_t)(v ? 1u : 0u))
DESERT_FAST_W_(option, bool, 1, p[0] = (uint8_t)(v ? 1u : 0u))
DESERT_FAST_W_(either, bool, 1, p[0] = (uint8_t)(v ? 1u : 0u))
DESERT_FAST_W_(try, bool, 1, p[0] = (uint8_t)(v ? 1u : 0u))
#undef DESERT_FAST_W_

/* ---- varints (docs/format.md §3) and collection counts (§6.2) ---------------------- */

/* Writes the shortest var_u32 of v at t's cursor (room for 5 checked). */
static inline void desert_wfast_var_(desert_wtarget *t, uint32_t v) {
  size_t len = t->len;
  t->len = len + desert_fast_put_var_(t->data + len, v);
}

static inline desert_status desert_write_var_u32_inline(desert_writer *w, uint32_t v) {
  desert_wtarget *t = desert_wfast_room_(w, 5);
  if (!t) {
    if (desert_wfast_counted_(w, desert_fast_var_len_(v))) return DESERT_OK;
    return desert_write_var_u32(w, v);
  }
  desert_wfast_var_(t, v);
  return DESERT_OK;
}

static inline desert_status desert_write_var_i32_inline(desert_writer *w, int32_t v) {
  desert_wtarget *t = desert_wfast_room_(w, 5);
  if (!t) {
    if (desert_wfast_counted_(w, desert_fast_var_len_(desert_fast_zigzag_(v)))) return DESERT_OK;
    return desert_write_var_i32(w, v);
  }
  desert_wfast_var_(t, desert_fast_zigzag_(v));
  return DESERT_OK;
}

static inline desert_status desert_write_count_inline(desert_writer *w, size_t n) {
  if (n > 0x7fffffffu) return desert_write_count(w, n);
  desert_wtarget *t = desert_wfast_room_(w, 5);
  if (!t) {
    if (desert_wfast_counted_(w, desert_fast_var_len_((uint32_t)n << 1))) return DESERT_OK;
    return desert_write_count(w, n);
  }
  desert_wfast_var_(t, (uint32_t)n << 1);
  return DESERT_OK;
}

/* ---- strings (docs/format.md §5) ----------------------------------------------------
 * The inline path takes ASCII text of up to 63 bytes: its length prefix is
 * one byte and ASCII needs no UTF-8 validation (in size-only mode it only
 * counts them). Anything else goes to desert_write_string, which validates
 * (also in size-only mode). */
static inline desert_status desert_write_string_inline(desert_writer *w, const char *s,
                                                       size_t len) {
  if (s && len < 64u) {
    desert_wtarget *t = desert_wfast_room_(w, len + 1);
    if (desert_fast_ascii_((const uint8_t *)s, len)) {
      if (t) {
        size_t at = t->len;
        uint8_t *p = t->data + at;
        p[0] = (uint8_t)(len << 1);
        memcpy(p + 1, s, len);
        t->len = at + len + 1;
        return DESERT_OK;
      }
      if (desert_wfast_counted_(w, len + 1)) return DESERT_OK;
    }
  }
  return desert_write_string(w, s, len);
}

#ifdef __cplusplus
}
#endif
#endif /* DESERT_WRITER_INLINE_H */
