/* include/desert/reader.h — the deserialization context: a bounds-checked
 * cursor over caller memory and every primitive value of FORMAT.md §1–§12.
 * SPDX-License-Identifier: MIT
 *
 * Contexts live on the heap (desert_reader_create) or in caller storage
 * (desert_reader_init); the inline fast paths of desert/reader_inline.h
 * (desert_read_*_inline) work on both, with the same results.
 *
 * Input is hostile: every read is bounds-checked; a length prefix is checked
 * against the remaining input (and options.max_length) before anything is
 * allocated; nesting is bounded by options.max_depth.
 *
 * Errors are sticky: each desert_read_* returns the reader's status; after
 * the first error nothing more is read, outputs are left untouched, and every
 * call returns that first error. desert_reader_error_offset() is the
 * absolute input offset of the first byte of the ITEM whose reading failed
 * (SCHEMA.md §3.5): e.g. the start of a string's bytes when they are cut
 * short or invalid, the length varint when it is negative, the tag byte when
 * it is not 00/01.
 *
 * Zero-copy: strings and byte blocks come out as views into the input (the
 * caller keeps the input alive and unchanged while it uses them); decoded
 * data that cannot be a view (lenient UTF-8 replacements, decompressed
 * blocks, arrays the caller asks the reader to allocate) lives in the
 * reader's arena until the next desert_reader_begin/reset/free.
 *
 * Streaming input (a source callback instead of one buffer): desert/stream.h.
 * There views and arena data live until the next desert_reader_mark, and
 * desert_reader_remaining counts only the bytes already in the window.
 *
 * Thread safety: a reader is used by one thread at a time; different readers
 * may be used concurrently. */
#ifndef DESERT_READER_H
#define DESERT_READER_H

#include <stdbool.h>

#include "desert/common.h"
#include "desert/writer.h" /* desert_u128 */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct desert_reader desert_reader;

/* ---- the visible head of a reader -------------------------------------------
 * Only for the inline functions of desert/reader_inline.h: a reader starts
 * with this struct, whose layout the library keeps fixed. Application code
 * reads nothing here and writes nothing: use the functions. */
typedef struct desert_reader_fast {
  desert_status status; /* the first error, DESERT_OK while none */
  size_t pos;           /* absolute offset of the next byte */
  size_t end;           /* current limit: end of input or of a record chunk */
  const uint8_t *base;  /* the input (never NULL) */
  size_t str_max;       /* longest string the inline path may return:
                         * min(options.max_length, 63) */
  size_t len;           /* length of the whole input */
  unsigned busy;        /* 0 while desert_reader_begin has nothing to do
                         * but set the input and clear the position: no
                         * session table entry, arena allocation, nesting,
                         * stream or error since the last begin, reset or
                         * init; then status is DESERT_OK
                         * (desert_reader_begin_inline relies on it) */
} desert_reader_fast;

/* A validated UTF-8 view (not NUL-terminated). */
typedef struct desert_str {
  const char *ptr;
  size_t len;
} desert_str;

/* A byte view. */
typedef struct desert_bytes {
  const uint8_t *ptr;
  size_t len;
} desert_bytes;

/* Iteration state of a generic collection in either form (FORMAT.md §5.2). */
typedef struct desert_seq {
  bool known;       /* true: known-size form, count is valid */
  size_t count;     /* element count (known-size form) */
  size_t index;     /* elements started so far */
  size_t offset;    /* input offset of the count varint (for whole-value errors) */
} desert_seq;

/* Creates a reader. opt NULL = defaults. Statuses as desert_writer_create. */
DESERT_API desert_status desert_reader_create(const desert_options *opt, desert_reader **out);
/* Frees the reader and everything it owns. NULL is fine. For a reader made
 * by desert_reader_init: gives back the memory it took from the allocator
 * and leaves the storage itself to the caller. */
DESERT_API void desert_reader_free(desert_reader *r);

/* ---- caller storage ---------------------------------------------------------
 * A reader that lives in the caller's memory instead of the heap:
 *
 *   desert_reader_storage rs;          // DESERT_READER_STORAGE_SIZE bytes
 *   desert_reader *r;
 *   desert_reader_init(&rs, sizeof rs, NULL, &r);
 *   desert_reader_begin(r, bytes, len);
 *   int32_t v;
 *   desert_read_i32_inline(r, &v);     // reader_inline.h
 *   ... desert_reader_status(r) ...
 *   desert_reader_free(r);             // storage stays the caller's
 *
 * Size and alignment contract: aligned like malloc's memory
 * (alignof(max_align_t); desert_reader_storage is), at least
 * desert_reader_storage_min() bytes. The part after the context serves,
 * without the allocator, what the reader would otherwise allocate lazily:
 * the record header stack, the first arena block, session tables; what
 * does not fit comes from options.allocator. With DESERT_READER_STORAGE_SIZE
 * bytes a message of primitives, strings, byte blocks or small records
 * (a versioned one with a few arena arrays) decodes with no allocation.
 * Arena memory (desert_reader_alloc and the data documented to live there)
 * lives until the next begin/reset/free, as for a heap reader. The storage
 * must stay in place and untouched until desert_reader_free, which is
 * needed only if the reader may have taken heap memory but is always cheap
 * and correct to call. */
#define DESERT_READER_STORAGE_SIZE 3072u
typedef union desert_reader_storage {
  unsigned char bytes[DESERT_READER_STORAGE_SIZE];
  max_align_t align_; /* the alignment contract */
} desert_reader_storage;

/* The smallest storage desert_reader_init accepts in this build. */
DESERT_API size_t desert_reader_storage_min(void);
/* Builds a reader inside storage[0..size), without input (call
 * desert_reader_begin). opt NULL = defaults. Statuses: DESERT_E_ARGUMENT
 * (storage or out NULL, misaligned, too small, bad options),
 * DESERT_E_ISA_UNAVAILABLE. Never allocates. *out is NULL on failure. */
DESERT_API desert_status desert_reader_init(void *storage, size_t size, const desert_options *opt,
                                            desert_reader **out);

/* One-shot decoding: read(r, out) on a reader in caller storage over
 * data[0..len). Returns the reader's first error or else read's own return
 * value. *offset (may be NULL) = the reader's error offset
 * (desert_reader_error_offset) when the reader failed, else the bytes
 * consumed (compare with len to reject trailing bytes; also when read()
 * alone returned an error). read NULL is DESERT_E_ARGUMENT. Views into
 * data that read() stored stay valid as long as data; everything read()
 * got from the reader's arena (desert_reader_alloc, decompressed blocks,
 * lenient UTF-8 copies) is released before desert_decode returns: copy it
 * inside read(), or use a reader of your own. opt NULL = defaults. No
 * allocation for small messages (see desert_reader_init). Thread-safe for
 * distinct outputs. */
typedef desert_status (*desert_decode_fn)(desert_reader *r, void *out);
DESERT_API desert_status desert_decode(const desert_options *opt, desert_decode_fn read, void *out,
                                       const void *data, size_t len, size_t *offset);

/* Starts reading a new top-level message: data[0..len) is borrowed (may be
 * NULL when len is 0). Clears the error, position, string and reference
 * tables and the arena, keeping their memory. Never allocates. */
DESERT_API desert_status desert_reader_begin(desert_reader *r, const void *data, size_t len);
/* Forgets the input and the session; keeps memory. */
DESERT_API void desert_reader_reset(desert_reader *r);

DESERT_API desert_status desert_reader_status(const desert_reader *r);
/* Absolute offset of the failing item after an error (0 if none). */
DESERT_API size_t desert_reader_error_offset(const desert_reader *r);
/* Absolute offset of the next byte to read (bytes consumed so far at top level). */
DESERT_API size_t desert_reader_offset(const desert_reader *r);
/* Bytes left before the current limit (end of input or of the current record chunk). */
DESERT_API size_t desert_reader_remaining(const desert_reader *r);
DESERT_API desert_isa desert_reader_isa(const desert_reader *r);
DESERT_API const desert_options *desert_reader_options(const desert_reader *r);

/* Records a caller-detected error (e.g. a value outside the caller's domain)
 * with the given absolute offset, if no error is set yet. Returns the
 * reader's status. status must not be DESERT_OK. */
DESERT_API desert_status desert_reader_fail(desert_reader *r, desert_status status, size_t offset);

/* Arena allocation that lives until the next begin/reset/free. align must
 * be a power of two <= 64. Returns NULL (and sets DESERT_E_NOMEM or
 * DESERT_E_LIMIT) on failure. size 0 returns a valid unique pointer. */
DESERT_API void *desert_reader_alloc(desert_reader *r, size_t size, size_t align);

/* Nesting guard for recursive codecs: enter fails with DESERT_E_DEPTH past
 * options.max_depth (error offset = current position). Pair every
 * successful enter with a leave. */
DESERT_API desert_status desert_reader_enter(desert_reader *r);
DESERT_API void desert_reader_leave(desert_reader *r);

/* ---- fixed-width primitives (FORMAT.md §1) ---- */
DESERT_API desert_status desert_read_u8(desert_reader *r, uint8_t *out);
DESERT_API desert_status desert_read_i8(desert_reader *r, int8_t *out);
DESERT_API desert_status desert_read_u16(desert_reader *r, uint16_t *out);
DESERT_API desert_status desert_read_i16(desert_reader *r, int16_t *out);
DESERT_API desert_status desert_read_u32(desert_reader *r, uint32_t *out);
DESERT_API desert_status desert_read_i32(desert_reader *r, int32_t *out);
DESERT_API desert_status desert_read_u64(desert_reader *r, uint64_t *out);
DESERT_API desert_status desert_read_i64(desert_reader *r, int64_t *out);
DESERT_API desert_status desert_read_u128(desert_reader *r, desert_u128 *out);
DESERT_API desert_status desert_read_f32(desert_reader *r, float *out);
DESERT_API desert_status desert_read_f64(desert_reader *r, double *out);
DESERT_API desert_status desert_read_f32_bits(desert_reader *r, uint32_t *out);
DESERT_API desert_status desert_read_f64_bits(desert_reader *r, uint64_t *out);
/* 00 is false, any other byte true (both reference implementations). */
DESERT_API desert_status desert_read_bool(desert_reader *r, bool *out);
/* View of the next n raw bytes. */
DESERT_API desert_status desert_read_raw(desert_reader *r, size_t n, const uint8_t **out);

/* ---- variable-length integers (FORMAT.md §2) ----
 * DESERT_E_VARINT_TOO_LONG for a continuation bit on the 5th byte unless
 * DESERT_OPT_LENIENT_VARINT. */
DESERT_API desert_status desert_read_var_u32(desert_reader *r, uint32_t *out);
DESERT_API desert_status desert_read_var_i32(desert_reader *r, int32_t *out);

/* ---- characters (FORMAT.md §3) ----
 * desert_read_char: session form (var_u32 by default: a surrogate or a value
 * above U+10FFFF is DESERT_E_INVALID_CHAR; 2 bytes with
 * DESERT_OPT_SCALA_CHARS: a surrogate unit is DESERT_E_INVALID_CHAR).
 * desert_read_char16: 2 bytes; any unit accepted (Java char). */
DESERT_API desert_status desert_read_char(desert_reader *r, uint32_t *code_point);
DESERT_API desert_status desert_read_char16(desert_reader *r, uint16_t *unit);

/* ---- strings (FORMAT.md §4) ----
 * A negative length is DESERT_E_NEGATIVE_LENGTH (offset: the length); bytes
 * cut short are DESERT_E_INPUT_ENDED (offset: the first string byte);
 * invalid UTF-8 is DESERT_E_INVALID_UTF8 (offset: the first string byte) or,
 * with DESERT_OPT_LENIENT_UTF8, replaced by U+FFFD into an arena copy. */
DESERT_API desert_status desert_read_string(desert_reader *r, desert_str *out);
/* DeduplicatedString: a back-reference to an unknown id is
 * DESERT_E_INVALID_STRING_ID (offset: the id varint). */
DESERT_API desert_status desert_read_dedup_string(desert_reader *r, desert_str *out);

/* ---- byte blocks (FORMAT.md §5.1) ---- */
DESERT_API desert_status desert_read_bytes(desert_reader *r, desert_bytes *out);

/* ---- collections (FORMAT.md §5.2) ----
 * desert_read_seq_begin reads the count: >= 0 known-size form; -1 the
 * unknown-size form; below -1 DESERT_E_NEGATIVE_LENGTH; a count above
 * options.max_collection DESERT_E_LIMIT. desert_read_seq_next returns true
 * when another element follows (reading the 01/00 marker in the unknown-size
 * form) and false at the end or on error (check the status). */
DESERT_API desert_status desert_read_seq_begin(desert_reader *r, desert_seq *seq);
DESERT_API bool desert_read_seq_next(desert_reader *r, desert_seq *seq);

/* Fixed-width element runs (no prefix) into caller memory dst[0..n). If the
 * input is too short the error offset is the first element that does not
 * fit, as sequential reading would report. */
DESERT_API desert_status desert_read_u16_array(desert_reader *r, uint16_t *dst, size_t n);
DESERT_API desert_status desert_read_i16_array(desert_reader *r, int16_t *dst, size_t n);
DESERT_API desert_status desert_read_u32_array(desert_reader *r, uint32_t *dst, size_t n);
DESERT_API desert_status desert_read_i32_array(desert_reader *r, int32_t *dst, size_t n);
DESERT_API desert_status desert_read_u64_array(desert_reader *r, uint64_t *dst, size_t n);
DESERT_API desert_status desert_read_i64_array(desert_reader *r, int64_t *dst, size_t n);
DESERT_API desert_status desert_read_f32_array(desert_reader *r, float *dst, size_t n);
DESERT_API desert_status desert_read_f64_array(desert_reader *r, double *dst, size_t n);
DESERT_API desert_status desert_read_var_u32_array(desert_reader *r, uint32_t *dst, size_t n);
DESERT_API desert_status desert_read_var_i32_array(desert_reader *r, int32_t *dst, size_t n);

/* ---- option / either / try tags (FORMAT.md §6) ----
 * 00 -> false, 01 -> true; another byte is DESERT_E_INVALID_TAG unless
 * DESERT_OPT_LENIENT_TAGS (then true). */
DESERT_API desert_status desert_read_option(desert_reader *r, bool *some);
DESERT_API desert_status desert_read_either(desert_reader *r, bool *right);
DESERT_API desert_status desert_read_try(desert_reader *r, bool *success);

/* ---- UUID (FORMAT.md §8.1) ---- */
DESERT_API desert_status desert_read_uuid(desert_reader *r, uint8_t out[16]);

/* ---- compressed blocks (FORMAT.md §11) ----
 * The flavour must be known (the bytes do not tell). The inflated bytes live
 * in the reader's arena. RAW: the block must hold one complete raw DEFLATE
 * stream, else DESERT_E_DECOMPRESSION; the output has the stream's length.
 * ZLIB: read as desert-scala reads it (java.util.zip.Inflater, SCHEMA.md
 * §2.8): the output always has the announced length -- what the stream
 * gave, cut there or padded with zero bytes -- and a stream that merely
 * ends early (even inside its header or Adler-32 trailer, or empty) is not
 * an error; only a corrupt one is, DESERT_E_ZLIB_BLOCK (Scala reports a
 * DeserializationFailure). Both: the error offset is the first compressed
 * byte; a declared or actual size above options.max_decompressed is
 * DESERT_E_LIMIT, as is zlib-flavour padding above 64 KiB + 8 bytes per
 * input byte (all blocks of one message together: the zero padding of
 * lying headers is bounded by the input, whatever the number of blocks;
 * at the plain-length varint of the block that would pass it). */
DESERT_API desert_status desert_read_compressed(desert_reader *r, desert_compression flavour,
                                                desert_bytes *out);
/* libdesert extension: the zstd block of desert_write_compressed_zstd. */
DESERT_API desert_status desert_read_compressed_zstd(desert_reader *r, desert_bytes *out);

/* ---- object references (FORMAT.md §12) ----
 * Reads var_u32: 0 means a new object follows inline: *obj = NULL, and the
 * caller reads it and calls desert_reader_register_ref() at the point that
 * matches the writer's registration (before reading its children, so cycles
 * resolve). Non-zero: *obj = the registered object, or
 * DESERT_E_INVALID_REF_ID. */
DESERT_API desert_status desert_read_ref(desert_reader *r, void **obj);
DESERT_API desert_status desert_reader_register_ref(desert_reader *r, void *obj);

/* ---- type registry framing (FORMAT.md §16) ---- */
DESERT_API desert_status desert_read_type_id(desert_reader *r, uint32_t *type_id);

#ifdef __cplusplus
}
#endif

#include "desert/reader_inline.h"

#endif /* DESERT_READER_H */
