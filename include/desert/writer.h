/* include/desert/writer.h — the serialization context: output buffer
 * management and every primitive value of docs/format.md §2–§8, §13–§17.
 * SPDX-License-Identifier: MIT
 *
 * Contexts live on the heap (desert_writer_create) or in caller storage
 * (desert_writer_init: no allocation for small messages); the inline fast
 * paths of desert/writer_inline.h (desert_write_*_inline) work on both.
 *
 * Output modes: a growable buffer owned by the writer (default), a fixed
 * caller-owned buffer (desert_writer_use_buffer; overflow fails with
 * DESERT_E_DST_TOO_SMALL), or size-only counting (desert_writer_count_only;
 * nothing is stored, desert_writer_size() gives the exact byte count).
 * A fourth mode pushes the output to a sink callback (desert/stream.h);
 * there desert_writer_size/_data cover only the bytes not yet flushed.
 *
 * Errors are sticky: every desert_write_* returns the writer's status; after
 * the first error no call writes anything and each returns that first error.
 * Output already written before the error stays in the buffer.
 *
 * Session: one writer context = one desert "context" (docs/format.md §1): the
 * DeduplicatedString table and the object reference table live in it until
 * desert_writer_reset(). Write several top-level values through one context
 * only if the reader does the same.
 *
 * Thread safety: a writer is used by one thread at a time; different writers
 * may be used concurrently. */
#ifndef DESERT_WRITER_H
#define DESERT_WRITER_H

#include <stdbool.h>

#include "desert/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct desert_writer desert_writer;

/* ---- the visible head of a writer ------------------------------------------
 * Only for the inline functions of desert/writer_inline.h: a writer starts
 * with a desert_writer_fast, and its `t` points at the target the next
 * bytes go to (the output, or a record chunk buffer). The library keeps the
 * layout of both structs fixed. Application code reads nothing here and
 * writes nothing: use the functions. */
typedef struct desert_wtarget {
  uint8_t *data; /* first byte of the target (NULL in size-only mode) */
  size_t len;    /* bytes written to it */
  size_t cap;    /* bytes it can hold before the library must act (0 in
                  * size-only mode, where len counts past it) */
  unsigned mode; /* private, but for one value: DESERT_WTARGET_COUNT_ in
                  * size-only mode, where the inline writes only count */
  uint8_t *inl;  /* private */
} desert_wtarget;
#define DESERT_WTARGET_COUNT_ 2u

typedef struct desert_writer_fast {
  desert_status status; /* the first error, DESERT_OK while none */
  unsigned busy;        /* 0 while desert_writer_reset has nothing to do
                         * but clear the output length: no session table
                         * entry, no record opened, no error since the last
                         * reset; then status is DESERT_OK and t is &main
                         * (desert_writer_reset_inline relies on it) */
  desert_wtarget *t;    /* where the next bytes go */
  desert_wtarget main;  /* the message output (data NULL in size-only
                         * mode; desert_writer_data_inline) */
  unsigned depth;       /* records entered now (desert_writer_enter) */
  unsigned depth_max;   /* options.max_depth (its default for 0) */
} desert_writer_fast;

/* Private to desert_writer_init_inline (writer_inline.h); the library keeps
 * these fixed and checks them against its layout: that writer's first
 * output buffer is the last DESERT_WFAST_INLINE_CAP_ bytes of its
 * desert_writer_storage; the busy bits of a writer whose context past the
 * head is not set up yet. */
#define DESERT_WFAST_INLINE_CAP_ 256u
#define DESERT_WFAST_PENDING_ 2u
#define DESERT_WFAST_DEFAULTS_ 4u
#define DESERT_WFAST_STD_SIZE_ 8u

/* 128-bit integers (Rust u128/i128), as two 64-bit halves. For i128 the
 * halves hold the two's complement bit pattern. */
typedef struct desert_u128 {
  uint64_t hi;
  uint64_t lo;
} desert_u128;

/* Creates a writer. opt NULL = defaults. Statuses: DESERT_E_ARGUMENT (out
 * NULL, opt->struct_size too small or unknown flags), DESERT_E_ISA_UNAVAILABLE
 * (opt->isa not runnable here), DESERT_E_NOMEM. *out is NULL on failure. */
DESERT_API desert_status desert_writer_create(const desert_options *opt, desert_writer **out);
/* Frees the writer and everything it owns (not a caller buffer). NULL is fine.
 * For a writer made by desert_writer_init: gives back the memory it took
 * from the allocator and leaves the storage itself to the caller. */
DESERT_API void desert_writer_free(desert_writer *w);

/* ---- caller storage ---------------------------------------------------------
 * A writer that lives in the caller's memory (a stack variable, a field of
 * the caller's struct, an arena block) instead of the heap:
 *
 *   desert_writer_storage ws;          // DESERT_WRITER_STORAGE_SIZE bytes
 *   desert_writer *w;
 *   desert_writer_init(&ws, sizeof ws, NULL, &w);
 *   desert_write_i32_inline(w, 42);    // writer_inline.h
 *   size_t len;
 *   const uint8_t *bytes = desert_writer_data(w, &len);
 *   ...use bytes...
 *   desert_writer_free(w);             // storage stays the caller's
 *
 * Size and alignment contract: the storage must be aligned like malloc's
 * memory (alignof(max_align_t); desert_writer_storage is) and hold at least
 * desert_writer_storage_min() bytes. The first part holds the context;
 * the rest serves, in order of need and without the allocator, everything
 * the writer would otherwise allocate lazily: a grown output buffer,
 * record chunk buffers, session tables. What does not fit comes from
 * options.allocator. The output starts in a 256-byte buffer inside the
 * context, so a message of up to 256 bytes (and records whose chunk
 * buffers fit the storage) needs no allocation at all; a bigger message
 * grows into the storage's free part, then onto the heap. To fail instead
 * of growing, write into a fixed buffer: desert_writer_use_buffer() after
 * init (overflow is DESERT_E_DST_TOO_SMALL, nothing is written past the
 * buffer), or desert_encode() below.
 *
 * The storage must stay in place and untouched (no copy, no move) until
 * desert_writer_free, which is needed only if the writer may have taken
 * heap memory but is always cheap and correct to call. Everything else is
 * the same as for a heap writer (modes, reset, sessions, thread safety).
 *
 * Cost: init checks its arguments and copies the options (their limits
 * are resolved later), and sets up only what the inline functions use; the
 * rest of the context is set up by the first exported call on the writer.
 * So a one-shot message written with the inline functions, read with
 * desert_writer_data(_inline) and freed costs a dozen stores besides its
 * bytes; with options NULL init does not even look at the kernel tables.
 * The options struct is read during init only, as before. */
#define DESERT_WRITER_STORAGE_SIZE 3072u
typedef union desert_writer_storage {
  unsigned char bytes[DESERT_WRITER_STORAGE_SIZE];
  max_align_t align_; /* the alignment contract */
} desert_writer_storage;

/* The smallest storage desert_writer_init accepts in this build of the
 * library (the context alone; nothing left over for lazy state). */
DESERT_API size_t desert_writer_storage_min(void);
/* Builds a writer inside storage[0..size). opt NULL = defaults.
 * Statuses: DESERT_E_ARGUMENT (storage or out NULL, storage misaligned,
 * size below desert_writer_storage_min(), bad options as for
 * desert_writer_create), DESERT_E_ISA_UNAVAILABLE. Never allocates.
 * *out (== storage) is NULL on failure. */
DESERT_API desert_status desert_writer_init(void *storage, size_t size, const desert_options *opt,
                                            desert_writer **out);

/* One-shot encoding: write(w, value) on a writer in caller storage that
 * writes into buf[0..cap), then *len = the bytes written. Returns the
 * writer's first error or else write's own return value. A message that
 * does not fit is DESERT_E_DST_TOO_SMALL, with *len = the bytes that fitted
 * and nothing written at buf[cap] or beyond. buf NULL (cap ignored):
 * size-only, *len = the exact size. opt NULL = defaults; len may be NULL.
 * No allocation unless the value needs session tables or record buffers
 * larger than DESERT_WRITER_STORAGE_SIZE allows. Each call is one session
 * (docs/format.md §1). Thread-safe for distinct buffers. */
typedef desert_status (*desert_encode_fn)(desert_writer *w, const void *value);
DESERT_API desert_status desert_encode(const desert_options *opt, desert_encode_fn write,
                                       const void *value, void *buf, size_t cap, size_t *len);
/* Starts a new top-level message: clears the output length, the error, the
 * string and reference tables; keeps all memory and the output mode. */
DESERT_API void desert_writer_reset(desert_writer *w);
/* Switches to a fixed caller buffer (cap bytes) and resets. buf may be NULL
 * only with cap 0. The buffer must outlive its use by the writer. */
DESERT_API desert_status desert_writer_use_buffer(desert_writer *w, void *buf, size_t cap);
/* Switches back to the writer's own growable buffer and resets. */
DESERT_API void desert_writer_use_growable(desert_writer *w);
/* Switches to size-only counting and resets. */
DESERT_API void desert_writer_count_only(desert_writer *w);

/* Bytes written so far (counted in size-only mode). */
DESERT_API size_t desert_writer_size(const desert_writer *w);
/* The bytes written so far (NULL in size-only mode); *len = their count if
 * len is not NULL. Valid until the next write, reset or free. */
DESERT_API const uint8_t *desert_writer_data(const desert_writer *w, size_t *len);
/* The first error, or DESERT_OK. */
DESERT_API desert_status desert_writer_status(const desert_writer *w);
/* A message taken out of a writer (desert_writer_detach): data[0..len) are
 * its bytes, in an allocation of cap bytes made with `allocator` (the
 * caller's allocator of the writer's options; when it is the default, as in
 * desert_options_init, the memory is malloc's and free() may release it).
 * Release it with desert_buffer_free. */
typedef struct desert_buffer {
  uint8_t *data;
  size_t len;
  size_t cap;
  desert_allocator allocator;
} desert_buffer;
/* Hands the finished message over to the caller, so that many messages can
 * be kept without a writer each: one writer makes them one after another
 * and each detach takes the bytes out. In the writer's own growable mode
 * (the default), with no record or enum open: a message in a buffer the
 * writer allocated is handed over as it is, with no copy (cap is then
 * that buffer's size); one still in the writer's inline buffer or in its
 * caller storage (desert_writer_init) is copied into an allocation of
 * exactly len bytes (1 for an empty message). Then the writer is reset
 * (desert_writer_reset) for the next message, with its inline buffer as its
 * own again. DESERT_E_STATE in a fixed-buffer, size-only or streaming
 * writer or inside an open record; the writer's sticky error if it failed
 * (the message is not one); DESERT_E_NOMEM if the copy cannot be made (the
 * writer keeps its message). On these failures *out is zeroed and the
 * writer unchanged; w or out NULL is DESERT_E_ARGUMENT, nothing written. */
DESERT_API desert_status desert_writer_detach(desert_writer *w, desert_buffer *out);
/* Releases a detached message and zeroes *b; NULL or a zeroed buffer is a
 * no-op. */
DESERT_API void desert_buffer_free(desert_buffer *b);

/* Records a caller-detected error (a value the caller cannot encode, a
 * nesting bound of its own) as the writer's sticky error, if none is set
 * yet, so that the partial output is never taken for a message. Returns the
 * writer's status. A status of DESERT_OK records DESERT_E_ARGUMENT. The
 * counterpart of desert_reader_fail. */
DESERT_API desert_status desert_writer_fail(desert_writer *w, desert_status status);
/* Nesting guard for code that writes records itself (generated code, the
 * inline calls of record.h): enter fails with DESERT_E_DEPTH when
 * options.max_depth records are open already (the record writer's own
 * check), else counts one more level; leave counts one less. Pair every
 * successful enter with a leave. The counterpart of desert_reader_enter.
 * Statuses: the writer's earlier error, DESERT_E_DEPTH, DESERT_E_ARGUMENT
 * (w NULL). */
DESERT_API desert_status desert_writer_enter(desert_writer *w);
DESERT_API void desert_writer_leave(desert_writer *w);
/* ISA of the kernels this writer uses. */
DESERT_API desert_isa desert_writer_isa(const desert_writer *w);
/* The options this writer was created with. */
DESERT_API const desert_options *desert_writer_options(const desert_writer *w);

/* ---- fixed-width primitives (docs/format.md §2): big-endian ---- */
DESERT_API desert_status desert_write_u8(desert_writer *w, uint8_t v);
DESERT_API desert_status desert_write_i8(desert_writer *w, int8_t v);
DESERT_API desert_status desert_write_u16(desert_writer *w, uint16_t v);
DESERT_API desert_status desert_write_i16(desert_writer *w, int16_t v);
DESERT_API desert_status desert_write_u32(desert_writer *w, uint32_t v);
DESERT_API desert_status desert_write_i32(desert_writer *w, int32_t v);
DESERT_API desert_status desert_write_u64(desert_writer *w, uint64_t v);
DESERT_API desert_status desert_write_i64(desert_writer *w, int64_t v);
DESERT_API desert_status desert_write_u128(desert_writer *w, desert_u128 v);
/* Floats are written as their exact bit pattern (NaN payloads survive). */
DESERT_API desert_status desert_write_f32(desert_writer *w, float v);
DESERT_API desert_status desert_write_f64(desert_writer *w, double v);
DESERT_API desert_status desert_write_f32_bits(desert_writer *w, uint32_t bits);
DESERT_API desert_status desert_write_f64_bits(desert_writer *w, uint64_t bits);
/* 01 for true, 00 for false. */
DESERT_API desert_status desert_write_bool(desert_writer *w, bool v);
/* n raw bytes, no length prefix (UUID bodies, MAC addresses, custom codecs).
 * src may be NULL only when n is 0: NULL with n > 0 is DESERT_E_ARGUMENT,
 * recorded in the writer like every failure (generated code uses this to
 * record a C value its type cannot hold). */
DESERT_API desert_status desert_write_raw(desert_writer *w, const void *src, size_t n);

/* ---- variable-length integers (docs/format.md §3) ---- */
DESERT_API desert_status desert_write_var_u32(desert_writer *w, uint32_t v);
DESERT_API desert_status desert_write_var_i32(desert_writer *w, int32_t v);

/* ---- characters (docs/format.md §4) ----
 * desert_write_char: the session's char form — var_u32 scalar value by
 * default, one UTF-16 unit in 2 bytes with DESERT_OPT_SCALA_CHARS (a code
 * point above U+FFFF then fails with DESERT_E_UNSUPPORTED_CHAR). A surrogate
 * or a value above U+10FFFF is DESERT_E_INVALID_CHAR.
 * desert_write_char16: always 2 bytes (Scala Char); any 16-bit unit. */
DESERT_API desert_status desert_write_char(desert_writer *w, uint32_t code_point);
DESERT_API desert_status desert_write_char16(desert_writer *w, uint16_t unit);

/* ---- strings (docs/format.md §5) ----
 * var_i32(byte length) + UTF-8. Input in UTF-8 (validated: invalid input is
 * DESERT_E_INVALID_UTF8), UTF-16 (host order; an unpaired surrogate is
 * DESERT_E_INVALID_UTF16, or '?' with DESERT_OPT_LENIENT_UTF8 like Java) or
 * Latin-1. A UTF-8 length above 2^31-1 is DESERT_E_LENGTH_TOO_LARGE.
 * s may be NULL only when len is 0. */
DESERT_API desert_status desert_write_string(desert_writer *w, const char *s, size_t len);
DESERT_API desert_status desert_write_cstring(desert_writer *w, const char *s);
DESERT_API desert_status desert_write_string_utf16(desert_writer *w, const uint16_t *s,
                                                   size_t len);
DESERT_API desert_status desert_write_string_latin1(desert_writer *w, const uint8_t *s,
                                                    size_t len);
/* DeduplicatedString (docs/format.md §5.2): a string already in the session's
 * table is written as var_i32(-id); otherwise it is registered (next id,
 * from 1) and written in full. The text is copied into the writer. */
DESERT_API desert_status desert_write_dedup_string(desert_writer *w, const char *s, size_t len);

/* ---- byte blocks (docs/format.md §6.1): var_u32(length) + bytes ---- */
DESERT_API desert_status desert_write_bytes(desert_writer *w, const void *src, size_t n);

/* ---- collections (docs/format.md §6.2) ----
 * Known-size form: desert_write_count(n) then n elements (n > 2^31-1 is
 * DESERT_E_LENGTH_TOO_LARGE). Unknown-size form: desert_write_stream_begin,
 * then desert_write_stream_item before every element, then
 * desert_write_stream_end. Maps: entries are 2-tuples, i.e. write
 * desert_write_tuple_begin() before each key. */
DESERT_API desert_status desert_write_count(desert_writer *w, size_t n);
DESERT_API desert_status desert_write_stream_begin(desert_writer *w);
DESERT_API desert_status desert_write_stream_item(desert_writer *w);
DESERT_API desert_status desert_write_stream_end(desert_writer *w);

/* Fixed-width element runs, big-endian, no prefix (call desert_write_count
 * first for a collection). Runs above a measured threshold use the active
 * SIMD kernel. */
DESERT_API desert_status desert_write_u16_array(desert_writer *w, const uint16_t *v, size_t n);
DESERT_API desert_status desert_write_i16_array(desert_writer *w, const int16_t *v, size_t n);
DESERT_API desert_status desert_write_u32_array(desert_writer *w, const uint32_t *v, size_t n);
DESERT_API desert_status desert_write_i32_array(desert_writer *w, const int32_t *v, size_t n);
DESERT_API desert_status desert_write_u64_array(desert_writer *w, const uint64_t *v, size_t n);
DESERT_API desert_status desert_write_i64_array(desert_writer *w, const int64_t *v, size_t n);
DESERT_API desert_status desert_write_f32_array(desert_writer *w, const float *v, size_t n);
DESERT_API desert_status desert_write_f64_array(desert_writer *w, const double *v, size_t n);
/* Varint runs, no prefix. */
DESERT_API desert_status desert_write_var_u32_array(desert_writer *w, const uint32_t *v, size_t n);
DESERT_API desert_status desert_write_var_i32_array(desert_writer *w, const int32_t *v, size_t n);

/* ---- option / either / try tags (docs/format.md §7) ----
 * Option: 00 None, 01 Some (then the value). Either: 00 Left, 01 Right.
 * Rust Result<R, E>: Ok = 01, Err = 00. Try: 01 Success, 00 Failure. */
DESERT_API desert_status desert_write_option(desert_writer *w, bool some);
DESERT_API desert_status desert_write_either(desert_writer *w, bool right);
DESERT_API desert_status desert_write_try(desert_writer *w, bool success);

/* ---- tuples (docs/format.md §8): version byte 00, then the elements ---- */
DESERT_API desert_status desert_write_tuple_begin(desert_writer *w);

/* ---- UUID (docs/format.md §13.1): the 16 bytes in canonical order ---- */
DESERT_API desert_status desert_write_uuid(desert_writer *w, const uint8_t uuid[16]);

/* ---- compressed blocks (docs/format.md §16) ----
 * DEFLATE through libdeflate in the given flavour: RAW (desert-rust: var_u32
 * plain length, var_u32 compressed length, raw DEFLATE) or ZLIB
 * (desert-scala: empty input = the single byte 00, else both lengths and a
 * zlib stream). level -1 = flavour default (raw 6, zlib 1), else 0..12.
 * Failures: DESERT_E_COMPRESSION, DESERT_E_LENGTH_TOO_LARGE (input above
 * 2^32-1 bytes), DESERT_E_NOMEM. */
DESERT_API desert_status desert_write_compressed(desert_writer *w, desert_compression flavour,
                                                 int level, const void *src, size_t n);
/* libdesert EXTENSION, unreadable by desert-scala and desert-rust:
 * var_u32(plain length), var_u32(compressed length), one zstd frame.
 * level -1 = 3. */
DESERT_API desert_status desert_write_compressed_zstd(desert_writer *w, int level,
                                                      const void *src, size_t n);

/* ---- object references (docs/format.md §17) ----
 * If obj is already in the session's reference table, writes var_u32(id)
 * and sets *is_new = false. Otherwise registers it (next id, from 1),
 * writes var_u32(0) and sets *is_new = true: the caller then writes the
 * object itself. obj must not be NULL. */
DESERT_API desert_status desert_write_ref(desert_writer *w, const void *obj, bool *is_new);

/* ---- type registry framing (docs/format.md §12) ---- var_u32(type id) */
DESERT_API desert_status desert_write_type_id(desert_writer *w, uint32_t type_id);

#ifdef __cplusplus
}
#endif

#include "desert/writer_inline.h"

#endif /* DESERT_WRITER_H */
