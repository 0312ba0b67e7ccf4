/* src/core/reader.c — the reader context (bounds-checked cursor, sticky errors
 * with the failing item's offset, session tables, arena) and the primitive
 * values of docs/format.md §2–§8, §12, §13.1 and §17. Every length is checked
 * against the remaining input before anything is allocated or copied.
 * Compressed blocks live in src/values/compressed.c, the values of docs/format.md §13–§14
 * in src/values.
 * SPDX-License-Identifier: MIT */
#include "core/compress_state.h"
#include "core/reader_internal.h"
#include "scalar/scalar.h"

/* ---- lifecycle ------------------------------------------------------------ */

/* base is never NULL, so views of zero bytes are valid pointers and no
 * NULL + 0 arithmetic happens (undefined behaviour in C). */
static const uint8_t desert_no_input[1] = {0};

#define FAST_OFFSET(m)                                                                     \
  _Static_assert(offsetof(struct desert_reader, m) ==                                     \
                     offsetof(struct desert_reader, fast) + offsetof(desert_reader_fast, m), \
                 "reader head: " #m)
/* The public head and the private layout must agree (reader_inline.h reads
 * the reader through desert_reader_fast). */
_Static_assert(offsetof(struct desert_reader, fast) == 0, "reader head first");
FAST_OFFSET(status);
FAST_OFFSET(len);
FAST_OFFSET(busy);
FAST_OFFSET(pos);
FAST_OFFSET(end);
FAST_OFFSET(base);
FAST_OFFSET(str_max);
FAST_OFFSET(depth);
FAST_OFFSET(depth_max);
FAST_OFFSET(frame_depth);
#undef FAST_OFFSET
/* A default storage holds the context, a versioned record's header stack
 * (1 KiB) and a first arena block. */
_Static_assert(sizeof(struct desert_reader) + 1536 <= DESERT_READER_STORAGE_SIZE,
               "desert_reader_storage too small for the context and its lazy state");

/* First arena block of a storage reader: small enough to leave the storage
 * room for a record stack, big enough for the arrays of a small message. */
#define DESERT_STORAGE_ARENA_FIRST ((size_t)256)

/* Sets up a reader in r's memory whose r->opt holds the resolved options:
 * everything else starts zeroed. */
static void reader_setup(desert_reader *r, const desert_kernels *k) {
  /* not memset: see desert_zero */
  desert_zero(r, offsetof(desert_reader, opt));
  desert_zero((uint8_t *)r + offsetof(desert_reader, opt) + sizeof r->opt,
              sizeof *r - offsetof(desert_reader, opt) - sizeof r->opt);
  r->k = k;
  r->base = desert_no_input;
  r->str_max = r->opt.max_length < 63 ? r->opt.max_length : 63;
  r->depth_max = r->opt.max_depth;
  desert_strtab_init(&r->strings, &r->opt.allocator, false);
  desert_reftab_init(&r->refs, &r->opt.allocator);
  desert_arena_init(&r->arena, &r->opt.allocator);
  r->arena.busy = &r->busy;
}

desert_status desert_reader_create(const desert_options *opt, desert_reader **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_options o;
  const desert_kernels *k;
  desert_status st = desert_options_resolve(opt, &o, &k);
  if (st) return st;
  desert_reader *r = desert_mem_alloc(&o.allocator, sizeof *r);
  if (!r) return DESERT_E_NOMEM;
  r->opt = o;
  reader_setup(r, k);
  *out = r;
  return DESERT_OK;
}

size_t desert_reader_storage_min(void) { return desert_spare_round(sizeof(desert_reader)); }

desert_status desert_reader_init(void *storage, size_t size, const desert_options *opt,
                                 desert_reader **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  const desert_kernels *k;
  desert_status st =
      desert_spare_prepare(storage, size, sizeof(desert_reader), offsetof(desert_reader, opt), opt, &k);
  if (st) return st;
  desert_reader *r = storage;
  reader_setup(r, k);
  /* Every later allocation of the reader and the layers above goes through
   * r->opt.allocator, now served by the storage first. */
  desert_spare_init(&r->spare, storage, size, sizeof *r, opt ? &opt->allocator : NULL,
                    &r->opt.allocator);
  desert_arena_set_first_block(&r->arena, DESERT_STORAGE_ARENA_FIRST);
  *out = r;
  return DESERT_OK;
}

void desert_reader_free(desert_reader *r) {
  if (!r) return;
  if (r->stream_free) r->stream_free(r); /* streaming */
  if (r->records_free) r->records_free(r);
  desert_reader_free_decompressors(r);
  desert_strtab_free(&r->strings);
  desert_reftab_free(&r->refs);
  desert_arena_free(&r->arena);
  if (r->spare.begin) return; /* caller storage: the caller's to release */
  desert_allocator a = r->opt.allocator;
  desert_mem_free(&a, r, sizeof *r);
}

/* Forgets the previous message. Each table is tested inline so that a
 * message that used none of them (most small ones) costs no calls: this
 * runs once per message in desert_reader_begin. */
static inline void reader_clear(desert_reader *r) {
  r->status = DESERT_OK;
  r->err_offset = 0;
  r->pos = 0;
  r->depth = 0;
  r->zlib_padding = 0;
  r->inflated = 0;
  if (r->strings.dirty) desert_strtab_clear(&r->strings);
  if (r->refs.count) desert_reftab_clear(&r->refs);
  desert_arena_reset_if_used(&r->arena);
  r->busy = 0; /* desert_reader_begin_inline may do the next one */
}

void desert_reader_reset(desert_reader *r) {
  if (!r) return;
  if (r->stream_free) r->stream_free(r); /* streaming: ends the stream */
  reader_clear(r);
  r->base = desert_no_input;
  r->end = r->len = 0;
}

desert_status desert_reader_begin(desert_reader *r, const void *data, size_t len) {
  if (!r || (!data && len)) return DESERT_E_ARGUMENT;
  DESERT_R_ASSERT_HEAD(r);
  if (DESERT_UNLIKELY(r->stream_free != NULL)) r->stream_free(r); /* streaming */
  reader_clear(r);
  r->base = len ? data : desert_no_input;
  r->len = r->end = len;
  return DESERT_OK;
}

desert_status desert_reader_status(const desert_reader *r) {
  return r ? r->status : DESERT_E_ARGUMENT;
}
/* err_offset is meaningful only while status holds an error: the inline
 * begin clears an error by storing status alone (reader_inline.h). */
size_t desert_reader_error_offset(const desert_reader *r) {
  return r && r->status ? r->err_offset : 0;
}
size_t desert_reader_offset(const desert_reader *r) { return r ? r->pos : 0; }
size_t desert_reader_remaining(const desert_reader *r) { return r ? r->end - r->pos : 0; }
desert_isa desert_reader_isa(const desert_reader *r) { return r ? r->k->isa : DESERT_ISA_AUTO; }
const desert_options *desert_reader_options(const desert_reader *r) {
  /* The cast: see desert_writer_options. */
  return r ? desert_spare_options(&((desert_reader *)(uintptr_t)r)->spare, &r->opt) : NULL;
}

desert_status desert_reader_fail(desert_reader *r, desert_status st, size_t offset) {
  if (!r) return DESERT_E_ARGUMENT;
  if (st == DESERT_OK) st = DESERT_E_ARGUMENT;
  return desert_r_fail(r, st, offset);
}

void *desert_reader_alloc(desert_reader *r, size_t size, size_t align) {
  if (!r || r->status) return NULL;
  void *p = desert_arena_alloc(&r->arena, size, align);
  if (!p) desert_r_fail(r, DESERT_E_NOMEM, r->pos);
  return p;
}

desert_status desert_reader_enter(desert_reader *r) { return desert_r_enter(r); }

void desert_reader_leave(desert_reader *r) { desert_r_leave(r); }

/* ---- fixed-width primitives ------------------------------------------------ */

/* A fixed-width read: the bytes in view are read in place; anything else
 * (a refill, the end of input) tail-calls a cold twin, so the common path
 * needs no stack frame. */
#define DESERT_R_FIXED(name, type, n, get)                                           \
  static DESERT_COLD desert_status read_##name##_slow(desert_reader *r, type *out) { \
    const uint8_t *p = desert_r_take_slow(r, n);                                     \
    if (!p) return r->status;                                                        \
    *out = get;                                                                      \
    return DESERT_OK;                                                                \
  }                                                                                  \
  desert_status desert_read_##name(desert_reader *r, type *out) {                    \
    if (DESERT_UNLIKELY(r->status)) return r->status;                                \
    if (DESERT_UNLIKELY(r->end - r->pos < (size_t)(n))) return read_##name##_slow(r, out); \
    const uint8_t *p = r->base + r->pos;                                             \
    r->pos += (n);                                                                   \
    *out = get;                                                                      \
    return DESERT_OK;                                                                \
  }

/* Signed and float bit patterns: reader_inline.h's desert_fast_as_*_
 * helpers, shared so both forms convert alike. */
static inline desert_u128 as_u128(const uint8_t *p) {
  desert_u128 v = {desert_get_be64(p), desert_get_be64(p + 8)};
  return v;
}

DESERT_R_FIXED(u8, uint8_t, 1, p[0])
DESERT_R_FIXED(i8, int8_t, 1, desert_fast_as_i8_(p[0]))
DESERT_R_FIXED(u16, uint16_t, 2, desert_get_be16(p))
DESERT_R_FIXED(i16, int16_t, 2, desert_fast_as_i16_(desert_get_be16(p)))
DESERT_R_FIXED(u32, uint32_t, 4, desert_get_be32(p))
DESERT_R_FIXED(i32, int32_t, 4, desert_fast_as_i32_(desert_get_be32(p)))
DESERT_R_FIXED(u64, uint64_t, 8, desert_get_be64(p))
DESERT_R_FIXED(i64, int64_t, 8, desert_fast_as_i64_(desert_get_be64(p)))
DESERT_R_FIXED(u128, desert_u128, 16, as_u128(p))
DESERT_R_FIXED(f32, float, 4, desert_fast_as_f32_(desert_get_be32(p)))
DESERT_R_FIXED(f64, double, 8, desert_fast_as_f64_(desert_get_be64(p)))
DESERT_R_FIXED(f32_bits, uint32_t, 4, desert_get_be32(p))
DESERT_R_FIXED(f64_bits, uint64_t, 8, desert_get_be64(p))
DESERT_R_FIXED(bool, bool, 1, p[0] != 0)

desert_status desert_read_raw(desert_reader *r, size_t n, const uint8_t **out) {
  const uint8_t *p = desert_r_take(r, n);
  if (!p) return r->status;
  *out = p;
  return DESERT_OK;
}

/* ---- variable-length integers ------------------------------------------------ */

const uint8_t *desert_r_take_slow(desert_reader *r, size_t n) {
  if (!desert_r_want(r, n)) {
    desert_r_fail(r, DESERT_E_INPUT_ENDED, r->pos);
    return NULL;
  }
  const uint8_t *p = r->base + r->pos;
  r->pos += n;
  return p;
}

desert_status desert_r_var_u32_slow(desert_reader *r, uint32_t *out) {
  if (r->status) return r->status;
  size_t start = r->pos;
  uint32_t v = 0;
  for (unsigned k = 0; k < 5; k++) {
    if (r->pos >= r->end && !desert_r_want(r, 1)) /* streaming: refill */
      return desert_r_fail(r, DESERT_E_INPUT_ENDED, start);
    uint8_t b = r->base[r->pos++];
    /* Bits past bit 31 (5th byte, bits 4-6) are dropped, as in both readers. */
    v |= (uint32_t)(b & 0x7Fu) << (7 * k);
    if (!(b & 0x80u)) {
      *out = v;
      return DESERT_OK;
    }
  }
  if (r->opt.flags & DESERT_OPT_LENIENT_VARINT) {
    *out = v; /* Scala stops after the 5th byte whatever its top bit. */
    return DESERT_OK;
  }
  r->pos = start;
  return desert_r_fail(r, DESERT_E_VARINT_TOO_LONG, start);
}

desert_status desert_read_var_u32(desert_reader *r, uint32_t *out) {
  return desert_r_var_u32(r, out);
}

desert_status desert_r_var_i32(desert_reader *r, int32_t *out) {
  uint32_t u;
  desert_status st = desert_r_var_u32(r, &u);
  if (st) return st;
  *out = desert_unzigzag32(u);
  return DESERT_OK;
}

/* The exported single-value reads below handle the common case (the item
 * in view, one-byte prefix, nothing to report) in place and tail-call a
 * cold twin holding the full logic for everything else, so the common
 * path needs no stack frame (as DESERT_R_FIXED). The twin reads the item
 * again from its start: the fast path changes nothing before it commits. */

static DESERT_COLD desert_status read_var_i32_slow(desert_reader *r, int32_t *out) {
  return desert_r_var_i32(r, out);
}

desert_status desert_read_var_i32(desert_reader *r, int32_t *out) {
  if (DESERT_LIKELY(!r->status && r->pos < r->end && r->base[r->pos] < 0x80u)) {
    *out = desert_unzigzag32(r->base[r->pos++]);
    return DESERT_OK;
  }
  return read_var_i32_slow(r, out);
}

/* ---- characters ------------------------------------------------------------- */

desert_status desert_read_char(desert_reader *r, uint32_t *cp) {
  if (r->status) return r->status;
  size_t start = r->pos;
  uint32_t v;
  if (r->opt.flags & DESERT_OPT_SCALA_CHARS) {
    uint16_t u;
    if (desert_read_u16(r, &u)) return r->status;
    v = u;
  } else if (desert_r_var_u32(r, &v)) {
    return r->status;
  }
  if ((v >= 0xD800u && v <= 0xDFFFu) || v > 0x10FFFFu)
    return desert_r_fail(r, DESERT_E_INVALID_CHAR, start);
  *cp = v;
  return DESERT_OK;
}

desert_status desert_read_char16(desert_reader *r, uint16_t *unit) {
  return desert_read_u16(r, unit);
}

/* ---- strings ------------------------------------------------------------------ */

/* Lenient decoding reproduces what Scala gets from Java's
 * new String(bytes, UTF_8), re-encoded as UTF-8: valid sequences are copied
 * and each malformed unit becomes U+FFFD (ef bf bd). Java's units, which
 * differ from Unicode's "maximal subpart" practice in two places:
 *  - a 3-byte encoded surrogate (ED A0..BF xx) is ONE malformed unit;
 *  - a sequence cut by the end of the input is one unit covering the rest.
 * Other malformed leads or bad continuation bytes cost one unit per byte
 * Java skips (1 or 2 for 3-byte leads, 1..3 for 4-byte leads). Output is at
 * most 3 bytes per input byte. */
static inline bool is_cont(uint8_t b) { return (b & 0xC0u) == 0x80u; }

static size_t utf8_replace_like_java(const uint8_t *s, size_t n, uint8_t *d) {
  size_t i = 0, o = 0;
#define REPL() (d[o++] = 0xEF, d[o++] = 0xBF, d[o++] = 0xBD)
  while (i < n) {
    uint8_t b1 = s[i];
    size_t rest = n - i - 1; /* bytes after the lead */
    if (b1 < 0x80u) {
      d[o++] = b1;
      i++;
    } else if (b1 >= 0xC2u && b1 <= 0xDFu) {
      if (rest >= 1 && is_cont(s[i + 1])) {
        d[o++] = b1;
        d[o++] = s[i + 1];
        i += 2;
      } else {
        REPL();
        i = rest == 0 ? n : i + 1;
      }
    } else if (b1 >= 0xE0u && b1 <= 0xEFu) {
      bool bad2 = rest >= 1 && ((b1 == 0xE0u && (s[i + 1] & 0xE0u) == 0x80u) || !is_cont(s[i + 1]));
      if (rest < 2) {
        REPL();
        i = bad2 ? i + 1 : n; /* a plausible prefix cut by the end: one unit */
      } else if (bad2) {
        REPL();
        i += 1;
      } else if (!is_cont(s[i + 2])) {
        REPL();
        i += 2;
      } else {
        uint32_t cp = ((uint32_t)(b1 & 0x0Fu) << 12) | ((uint32_t)(s[i + 1] & 0x3Fu) << 6);
        if (cp >= 0xD800u && cp <= 0xDFFFu) {
          REPL();
        } else {
          memcpy(d + o, s + i, 3);
          o += 3;
        }
        i += 3;
      }
    } else if (b1 >= 0xF0u && b1 <= 0xF7u) {
      uint8_t b2 = rest >= 1 ? s[i + 1] : 0;
      bool bad2 =
          b1 > 0xF4u || (rest >= 1 && ((b1 == 0xF0u && (b2 < 0x90u || b2 > 0xBFu)) ||
                                       (b1 == 0xF4u && (b2 & 0xF0u) != 0x80u) || !is_cont(b2)));
      if (bad2) {
        REPL();
        i += 1;
      } else if (rest < 3) {
        /* Plausible prefix cut by the end: Java drops the lead and b2, then
         * goes on only if the next byte cannot belong to the sequence. */
        REPL();
        i = i + 2 <= n ? i + 2 : n;
        if (i < n && is_cont(s[i])) i = n;
      } else if (!is_cont(s[i + 2])) {
        REPL();
        i += 2;
      } else if (!is_cont(s[i + 3])) {
        REPL();
        i += 3;
      } else {
        memcpy(d + o, s + i, 4);
        o += 4;
        i += 4;
      }
    } else {
      REPL(); /* stray continuation byte, C0, C1, F8..FF */
      i++;
    }
  }
#undef REPL
  return o;
}

desert_status desert_r_string_body(desert_reader *r, size_t len, desert_str *out) {
  size_t start = r->pos;
  const uint8_t *p = desert_r_take(r, len);
  if (!p) return r->status;
  size_t bad;
  desert_status st =
      len < DESERT_BULK_THRESHOLD
          ? (desert_is_ascii_short(p, len) ? DESERT_OK : desert_scalar_utf8_validate(p, len, &bad))
          : r->k->utf8_validate(p, len, &bad);
  if (DESERT_LIKELY(st == DESERT_OK)) {
    out->ptr = (const char *)p;
    out->len = len;
    return DESERT_OK;
  }
  if (!(r->opt.flags & DESERT_OPT_LENIENT_UTF8))
    return desert_r_fail(r, DESERT_E_INVALID_UTF8, start);
  if (len > SIZE_MAX / 3) return desert_r_fail(r, DESERT_E_LIMIT, start);
  uint8_t *copy = desert_arena_alloc(&r->arena, 3 * len, 1);
  if (!copy) return desert_r_fail(r, DESERT_E_NOMEM, start);
  out->len = utf8_replace_like_java(p, len, copy);
  out->ptr = (const char *)copy;
  /* The copy rarely needs the worst case: give the rest back, or an output
   * arena holding many messages (desert_reader_set_output_arena) would
   * keep up to twice each string's size unused. */
  desert_arena_shrink_last(&r->arena, copy, 3 * len, out->len);
  return DESERT_OK;
}

/* Reads a var_i32 length, rejecting negatives and over-limit values at the
 * varint's offset. */
static desert_status read_length(desert_reader *r, size_t *len) {
  size_t at = r->pos;
  int32_t n;
  if (desert_r_var_i32(r, &n)) return r->status;
  if (n < 0) return desert_r_fail(r, DESERT_E_NEGATIVE_LENGTH, at);
  if ((size_t)n > r->opt.max_length) return desert_r_fail(r, DESERT_E_LIMIT, at);
  *len = (size_t)n;
  return DESERT_OK;
}

static DESERT_COLD desert_status read_string_slow(desert_reader *r, desert_str *out) {
  size_t len = 0;
  if (read_length(r, &len)) return r->status;
  return desert_r_string_body(r, len, out);
}

desert_status desert_read_string(desert_reader *r, desert_str *out) {
  /* short ASCII in view: reader_inline.h's case, valid UTF-8 as it is */
  if (desert_rfast_string_(r, out)) return DESERT_OK;
  return read_string_slow(r, out);
}

desert_status desert_read_dedup_string(desert_reader *r, desert_str *out) {
  if (r->status) return r->status;
  size_t at = r->pos;
  int32_t n;
  if (desert_r_var_i32(r, &n)) return r->status;
  if (n < 0) {
    /* -n in 64 bits: -(-2^31) does not fit in int32_t (docs/format.md §5.2). */
    int64_t id = -(int64_t)n;
    const desert_strtab_entry *e = desert_strtab_get(&r->strings, (uint64_t)id);
    if (!e) return desert_r_fail(r, DESERT_E_INVALID_STRING_ID, at);
    out->ptr = e->ptr;
    out->len = e->len;
    return DESERT_OK;
  }
  if ((size_t)n > r->opt.max_length) return desert_r_fail(r, DESERT_E_LIMIT, at);
  desert_str s;
  if (desert_r_string_body(r, (size_t)n, &s)) return r->status;
  uint32_t id;
  bool added;
  r->busy = 1; /* the table needs the exported begin */
  desert_status st = desert_strtab_add(&r->strings, s.ptr, s.len, &id, &added);
  if (st) return desert_r_fail(r, st, at);
  *out = s;
  return DESERT_OK;
}

/* ---- byte blocks and collections ------------------------------------------- */

static DESERT_COLD desert_status read_bytes_slow(desert_reader *r, desert_bytes *out) {
  size_t at = r->pos;
  uint32_t n;
  if (desert_r_var_u32(r, &n)) return r->status;
  if ((size_t)n > r->opt.max_length) return desert_r_fail(r, DESERT_E_LIMIT, at);
  const uint8_t *p = desert_r_take(r, n);
  if (!p) return r->status;
  out->ptr = p;
  out->len = n;
  return DESERT_OK;
}

desert_status desert_read_bytes(desert_reader *r, desert_bytes *out) {
  /* a length prefix of up to 3 bytes, the block within the view and the limit */
  if (DESERT_LIKELY(!r->status)) {
    const size_t avail = r->end - r->pos;
    uint32_t n;
    const size_t h = desert_r_peek_var21(r->base + r->pos, avail, &n);
    if (DESERT_LIKELY(h != 0 && n <= r->opt.max_length && avail - h >= n)) {
      out->ptr = r->base + r->pos + h;
      out->len = n;
      r->pos += h + n;
      return DESERT_OK;
    }
  }
  return read_bytes_slow(r, out);
}

static DESERT_COLD desert_status read_seq_begin_slow(desert_reader *r, desert_seq *seq) {
  if (r->status) return r->status;
  size_t at = r->pos;
  int32_t n;
  if (desert_r_var_i32(r, &n)) return r->status;
  if (n < -1) return desert_r_fail(r, DESERT_E_NEGATIVE_LENGTH, at);
  if (n >= 0 && (size_t)n > r->opt.max_collection) return desert_r_fail(r, DESERT_E_LIMIT, at);
  seq->known = n >= 0;
  seq->count = n >= 0 ? (size_t)n : 0;
  seq->index = 0;
  seq->offset = at;
  return DESERT_OK;
}

desert_status desert_read_seq_begin(desert_reader *r, desert_seq *seq) {
  /* a count of up to 3 bytes (-1 .. 2^20-1) within the limit */
  uint32_t u;
  size_t h;
  if (DESERT_LIKELY(!r->status &&
                    (h = desert_r_peek_var21(r->base + r->pos, r->end - r->pos, &u)) != 0)) {
    int32_t n = desert_unzigzag32(u);
    if (DESERT_LIKELY(n >= -1 && (n < 0 || (size_t)n <= r->opt.max_collection))) {
      seq->known = n >= 0;
      seq->count = n >= 0 ? (size_t)n : 0;
      seq->index = 0;
      seq->offset = r->pos;
      r->pos += h;
      return DESERT_OK;
    }
  }
  return read_seq_begin_slow(r, seq);
}

bool desert_read_seq_next(desert_reader *r, desert_seq *seq) {
  if (r->status) return false;
  if (seq->known) {
    if (seq->index >= seq->count) return false;
    seq->index++;
    return true;
  }
  bool more = false;
  if (desert_r_tag(r, &more)) return false;
  if (!more) {
    seq->count = seq->index;
    return false;
  }
  if (seq->index >= r->opt.max_collection) {
    desert_r_fail(r, DESERT_E_LIMIT, r->pos - 1);
    return false;
  }
  seq->index++;
  return true;
}

/* Fixed-width runs. When the input is too short, the error is reported at
 * the first element that does not fit, as element-by-element reading
 * would (docs/schema.md §14.5). */
#define DESERT_R_ARRAY(name, type, width, kernel, get)                                     \
  desert_status desert_read_##name##_array(desert_reader *r, type *dst, size_t n) {        \
    if (r->status) return r->status;                                                       \
    if (!dst && n) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);                     \
    if (n == 0) return DESERT_OK;                                                          \
    desert_r_want(r, n > SIZE_MAX / (width) ? SIZE_MAX : n * (width)); /* streaming */     \
    size_t avail = desert_r_avail(r);                                                      \
    if (n > avail / (width))                                                               \
      return desert_r_fail(r, DESERT_E_INPUT_ENDED, r->pos + (avail / (width)) * (width)); \
    const uint8_t *p = r->base + r->pos;                                                   \
    if (n >= DESERT_BULK_THRESHOLD) {                                                      \
      r->k->kernel(dst, p, n);                                                             \
    } else {                                                                               \
      for (size_t i = 0; i < n; i++) dst[i] = get;                                         \
    }                                                                                      \
    r->pos += n * (width);                                                                 \
    return DESERT_OK;                                                                      \
  }

DESERT_R_ARRAY(u16, uint16_t, 2, bswap16, desert_get_be16(p + 2 * i))
DESERT_R_ARRAY(i16, int16_t, 2, bswap16, desert_fast_as_i16_(desert_get_be16(p + 2 * i)))
DESERT_R_ARRAY(u32, uint32_t, 4, bswap32, desert_get_be32(p + 4 * i))
DESERT_R_ARRAY(i32, int32_t, 4, bswap32, desert_fast_as_i32_(desert_get_be32(p + 4 * i)))
DESERT_R_ARRAY(u64, uint64_t, 8, bswap64, desert_get_be64(p + 8 * i))
DESERT_R_ARRAY(i64, int64_t, 8, bswap64, desert_fast_as_i64_(desert_get_be64(p + 8 * i)))
DESERT_R_ARRAY(f32, float, 4, bswap32, desert_fast_as_f32_(desert_get_be32(p + 4 * i)))
DESERT_R_ARRAY(f64, double, 8, bswap64, desert_fast_as_f64_(desert_get_be64(p + 8 * i)))

desert_status desert_read_var_u32_array(desert_reader *r, uint32_t *dst, size_t n) {
  if (r->status) return r->status;
  if (!dst && n) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  if (n == 0) return DESERT_OK;
  /* streaming: a run the window may not hold goes one by one */
  if ((r->opt.flags & DESERT_OPT_LENIENT_VARINT) || (r->stream && desert_r_avail(r) / 5 < n)) {
    for (size_t i = 0; i < n; i++)
      if (desert_r_var_u32(r, &dst[i])) return r->status;
    return DESERT_OK;
  }
  size_t used;
  desert_status st = r->k->var_u32_decode(r->base + r->pos, desert_r_avail(r), dst, n, &used);
  if (st) return desert_r_fail(r, st, r->pos + used);
  r->pos += used;
  return DESERT_OK;
}

desert_status desert_read_var_i32_array(desert_reader *r, int32_t *dst, size_t n) {
  if (r->status) return r->status;
  if (!dst && n) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  if (n == 0) return DESERT_OK;
  if ((r->opt.flags & DESERT_OPT_LENIENT_VARINT) || (r->stream && desert_r_avail(r) / 5 < n)) {
    for (size_t i = 0; i < n; i++)
      if (desert_r_var_i32(r, &dst[i])) return r->status;
    return DESERT_OK;
  }
  size_t used;
  desert_status st = r->k->var_i32_decode(r->base + r->pos, desert_r_avail(r), dst, n, &used);
  if (st) return desert_r_fail(r, st, r->pos + used);
  r->pos += used;
  return DESERT_OK;
}

/* ---- tags, UUID, references, registry ------------------------------------------ */

desert_status desert_r_tag(desert_reader *r, bool *one) {
  const uint8_t *p = desert_r_take(r, 1);
  if (!p) return r->status;
  if (*p > 1u && !(r->opt.flags & DESERT_OPT_LENIENT_TAGS)) {
    r->pos--;
    return desert_r_fail(r, DESERT_E_INVALID_TAG, r->pos);
  }
  *one = *p != 0;
  return DESERT_OK;
}

static DESERT_COLD desert_status read_tag_slow(desert_reader *r, bool *one) { return desert_r_tag(r, one); }

/* 00 / 01 in view (reader_inline.h's case); anything else (an error, or
 * true when lenient) is the twin's. */
#define DESERT_R_TAG(name)                                        \
  desert_status desert_read_##name(desert_reader *r, bool *one) { \
    if (desert_rfast_tag_(r, one)) return DESERT_OK;              \
    return read_tag_slow(r, one);                                 \
  }
DESERT_R_TAG(option)
DESERT_R_TAG(either)
DESERT_R_TAG(try)
#undef DESERT_R_TAG

desert_status desert_read_uuid(desert_reader *r, uint8_t out[16]) {
  const uint8_t *p = desert_r_take(r, 16);
  if (!p) return r->status;
  memcpy(out, p, 16);
  return DESERT_OK;
}

desert_status desert_read_ref(desert_reader *r, void **obj) {
  if (r->status) return r->status;
  size_t at = r->pos;
  uint32_t id;
  if (desert_r_var_u32(r, &id)) return r->status;
  if (id == 0) {
    *obj = NULL;
    return DESERT_OK;
  }
  bool found;
  void *o = desert_reftab_get(&r->refs, id, &found);
  if (!found) return desert_r_fail(r, DESERT_E_INVALID_REF_ID, at);
  *obj = o;
  return DESERT_OK;
}

desert_status desert_reader_register_ref(desert_reader *r, void *obj) {
  if (r->status) return r->status;
  uint32_t id;
  r->busy = 1; /* the table needs the exported begin */
  desert_status st = desert_reftab_add(&r->refs, obj, false, &id);
  if (st) return desert_r_fail(r, st, r->pos);
  return DESERT_OK;
}

desert_status desert_read_type_id(desert_reader *r, uint32_t *type_id) {
  return desert_r_var_u32(r, type_id);
}
