/* include/desert/reader.h — the deserialization context: a bounds-checked
 * cursor over caller memory and every primitive value of docs/format.md §2–§8, §13–§17.
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
 * (docs/schema.md §14.5): e.g. the start of a string's bytes when they are cut
 * short or invalid, the length varint when it is negative, the tag byte when
 * it is not 00/01.
 *
 * Zero-copy: strings and byte blocks come out as views into the input (the
 * caller keeps the input alive and unchanged while it uses them); decoded
 * data that cannot be a view (lenient UTF-8 replacements, decompressed
 * blocks, arrays the caller asks the reader to allocate) lives in the
 * reader's arena until the next desert_reader_begin/reset/free -- or, with
 * an output arena (desert_reader_set_output_arena, below), in memory the
 * caller owns and frees at once, however many messages it holds.
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
  unsigned depth;       /* levels entered now (records, tuples, enums) */
  unsigned depth_max;   /* options.max_depth */
  unsigned frame_depth; /* depth of the innermost header frame (a versioned
                         * record's or an evolved enum's) the reader keeps,
                         * 0 for none: the inline enum calls of record.h
                         * run only where no frame can be at the level they
                         * open or close */
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

/* Iteration state of a generic collection in either form (docs/format.md §6.2). */
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
 * lives until the next begin/reset/free, as for a heap reader (or in an
 * output arena, desert_reader_set_output_arena). The storage
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

/* Arena allocation that lives until the next begin/reset/free (with an
 * output arena: in that arena, until its reset/free). align must be a
 * power of two <= 64. Returns NULL (and sets DESERT_E_NOMEM or
 * DESERT_E_LIMIT) on failure. size 0 returns a valid unique pointer. */
DESERT_API void *desert_reader_alloc(desert_reader *r, size_t size, size_t align);

/* ---- output arena: decoded data the caller owns ---------------------------------
 * A desert_decode_arena is a bump allocator the caller owns. Attached to a
 * reader, it receives every arena allocation the reader makes for the
 * caller, so the decoded values of many messages stay valid together and
 * are released at once, with one reader and one arena:
 *
 *   desert_decode_arena *a;
 *   desert_decode_arena_create(NULL, &a);
 *   desert_reader_set_output_arena(r, a);
 *   for each message i: desert_reader_begin(r, in[i], len[i]); read into out[i];
 *   ... use every out[i] ...
 *   desert_decode_arena_free(a);   // or _reset(a) to decode the next batch
 *
 * What goes there: everything documented as living in the reader's arena --
 * desert_reader_alloc (and so the arrays, nested structs and list buffers
 * of generated decoders and of desert/types.h's C-struct reads),
 * decompressed blocks (desert_read_compressed, desert_read_compressed_zstd
 * and the types built on them), lenient UTF-8 replacement copies (also
 * when a DeduplicatedString's first occurrence was one). desert_reader_begin,
 * desert_reader_reset, desert_reader_mark and desert_reader_free never
 * reclaim it; only desert_decode_arena_reset/free do.
 * What does not: views. Strings, byte blocks and raw reads that are valid
 * as they stand still point into the input buffer, which must outlive
 * them (a DeduplicatedString back-reference is a view of its first
 * occurrence, on a streaming reader of the reader's own copy of it, valid
 * until the next begin/reset); on a streaming reader (desert/stream.h) views point into
 * the window and die at the next desert_reader_mark as before -- copy
 * them if they must live on. Scratch the reader needs only while a message
 * is read stays its own: the record header stack, the session tables
 * (DeduplicatedString ids, object references; on a streaming reader the
 * copied DeduplicatedString keys), temporary decompression buffers and
 * the decompressor states (from options.allocator, as before).
 * Limits: options.max_length, max_collection, max_decompressed and the
 * zlib-padding budget bound each item and each message exactly as with
 * the reader's own arena (they are counted per message by the reader,
 * whatever arena holds the result). The arena's total is the sum over
 * the messages decoded into it and is the caller's to bound: check
 * desert_decode_arena_bytes between messages, or create the arena with an
 * allocator that refuses past a budget (the decode then fails with
 * DESERT_E_NOMEM). Besides the values themselves the arena may hold
 * bytes that no value points to: what a failed message allocated before
 * its error, superseded growth buffers of unknown-size collections, and
 * the first-guess buffer of a compressed block larger than the guess
 * (at most 4 bytes per compressed byte plus 4 KiB), all released by the
 * arena's reset.
 * Threads: an arena is not synchronised. One thread at a time may use it
 * together with the reader(s) attached to it (several readers on one
 * thread may share it); attach it to one reader at a time otherwise.
 * Lifetime: detach the arena (set NULL) or free the reader before freeing
 * the arena; a reader keeps only a pointer to it. Caller-storage readers
 * (desert_reader_init) and the inline functions of desert/reader_inline.h
 * work unchanged: the arena's blocks come from its own allocator, never
 * from the reader's storage, and desert_reader_begin_inline keeps its
 * fast path (an allocation into the output arena counts like one into
 * the reader's arena: the next begin is then the exported one, which
 * clears the reader's per-message state and leaves the output arena
 * alone). desert_decode has no output arena: use a reader of your own. */
typedef struct desert_decode_arena desert_decode_arena;

/* Creates an empty arena (no block is allocated before the first
 * allocation). alloc NULL or all fields NULL: malloc/free; otherwise both
 * alloc and free must be set, and are copied (alloc itself need not
 * outlive the call). Statuses: DESERT_E_ARGUMENT (out NULL, alloc with
 * only one of alloc/free), DESERT_E_NOMEM. *out is NULL on failure. */
DESERT_API desert_status desert_decode_arena_create(const desert_allocator *alloc,
                                                    desert_decode_arena **out);
/* size bytes aligned to align (a power of two <= 64), valid until the
 * arena's reset or free; size 0 gives a valid unique pointer. NULL when a
 * is NULL, align is invalid, size overflows or the allocator fails. For
 * the caller's own data next to the decoded values. */
DESERT_API void *desert_decode_arena_alloc(desert_decode_arena *a, size_t size, size_t align);
/* Releases every allocation at once, keeping the blocks for reuse (a warm
 * arena allocates nothing). Every pointer into the arena becomes invalid.
 * NULL is fine. */
DESERT_API void desert_decode_arena_reset(desert_decode_arena *a);
/* Frees the arena and its blocks. NULL is fine. No reader may still have
 * it attached (see above). */
DESERT_API void desert_decode_arena_free(desert_decode_arena *a);
/* Bytes of block capacity the arena holds (used or not): what it took from
 * its allocator, less block headers. 0 for NULL. Reset does not lower it. */
DESERT_API size_t desert_decode_arena_bytes(const desert_decode_arena *a);

/* Sends r's arena allocations (see above) to a from the next allocation
 * on, until changed again; a NULL returns to the reader's own arena. Data
 * allocated before the call stays where it was. May be called at any
 * time, also between reads of one message, and does not change the
 * reader's status. Never allocates. Statuses: DESERT_E_ARGUMENT (r NULL). */
DESERT_API desert_status desert_reader_set_output_arena(desert_reader *r, desert_decode_arena *a);

/* Nesting guard for recursive codecs: enter fails with DESERT_E_DEPTH past
 * options.max_depth (error offset = current position). Pair every
 * successful enter with a leave. */
DESERT_API desert_status desert_reader_enter(desert_reader *r);
DESERT_API void desert_reader_leave(desert_reader *r);

/* ---- fixed-width primitives (docs/format.md §2) ---- */
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

/* ---- variable-length integers (docs/format.md §3) ----
 * DESERT_E_VARINT_TOO_LONG for a continuation bit on the 5th byte unless
 * DESERT_OPT_LENIENT_VARINT. */
DESERT_API desert_status desert_read_var_u32(desert_reader *r, uint32_t *out);
DESERT_API desert_status desert_read_var_i32(desert_reader *r, int32_t *out);

/* ---- characters (docs/format.md §4) ----
 * desert_read_char: session form (var_u32 by default: a surrogate or a value
 * above U+10FFFF is DESERT_E_INVALID_CHAR; 2 bytes with
 * DESERT_OPT_SCALA_CHARS: a surrogate unit is DESERT_E_INVALID_CHAR).
 * desert_read_char16: 2 bytes; any unit accepted (Java char). */
DESERT_API desert_status desert_read_char(desert_reader *r, uint32_t *code_point);
DESERT_API desert_status desert_read_char16(desert_reader *r, uint16_t *unit);

/* ---- strings (docs/format.md §5) ----
 * A negative length is DESERT_E_NEGATIVE_LENGTH (offset: the length); bytes
 * cut short are DESERT_E_INPUT_ENDED (offset: the first string byte);
 * invalid UTF-8 is DESERT_E_INVALID_UTF8 (offset: the first string byte) or,
 * with DESERT_OPT_LENIENT_UTF8, replaced by U+FFFD into an arena copy
 * (the reader's, or its output arena). */
DESERT_API desert_status desert_read_string(desert_reader *r, desert_str *out);
/* DeduplicatedString: a back-reference to an unknown id is
 * DESERT_E_INVALID_STRING_ID (offset: the id varint). */
DESERT_API desert_status desert_read_dedup_string(desert_reader *r, desert_str *out);

/* ---- byte blocks (docs/format.md §6.1) ---- */
DESERT_API desert_status desert_read_bytes(desert_reader *r, desert_bytes *out);

/* ---- collections (docs/format.md §6.2) ----
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

/* ---- option / either / try tags (docs/format.md §7) ----
 * 00 -> false, 01 -> true; another byte is DESERT_E_INVALID_TAG unless
 * DESERT_OPT_LENIENT_TAGS (then true). */
DESERT_API desert_status desert_read_option(desert_reader *r, bool *some);
DESERT_API desert_status desert_read_either(desert_reader *r, bool *right);
DESERT_API desert_status desert_read_try(desert_reader *r, bool *success);

/* ---- UUID (docs/format.md §13.1) ---- */
DESERT_API desert_status desert_read_uuid(desert_reader *r, uint8_t out[16]);

/* ---- compressed blocks (docs/format.md §16) ----
 * The flavour must be known (the bytes do not tell). The inflated bytes live
 * in the reader's arena (or its output arena). RAW: the block must hold one complete raw DEFLATE
 * stream, else DESERT_E_DECOMPRESSION; the output has the stream's length.
 * ZLIB: read as desert-scala reads it (java.util.zip.Inflater, docs/schema.md
 * §12): the output always has the announced length -- what the stream
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

/* ---- object references (docs/format.md §17) ----
 * Reads var_u32: 0 means a new object follows inline: *obj = NULL, and the
 * caller reads it and calls desert_reader_register_ref() at the point that
 * matches the writer's registration (before reading its children, so cycles
 * resolve). Non-zero: *obj = the registered object, or
 * DESERT_E_INVALID_REF_ID. */
DESERT_API desert_status desert_read_ref(desert_reader *r, void **obj);
DESERT_API desert_status desert_reader_register_ref(desert_reader *r, void *obj);

/* ---- type registry framing (docs/format.md §12) ---- */
DESERT_API desert_status desert_read_type_id(desert_reader *r, uint32_t *type_id);

#ifdef __cplusplus
}
#endif

#include "desert/reader_inline.h"

#endif /* DESERT_READER_H */
