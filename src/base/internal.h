/* src/base/internal.h — helpers shared by the layers above the kernels: branch
 * hints, assertions (base/assert.h), big-endian load/store of single
 * values, allocator calls, overflow checks. No ISA code, no exported
 * symbols.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_INTERNAL_H
#define DESERT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <string.h>

#include "desert/common.h"
#include "desert/kernels.h"
#include "base/kernels.h"
#include "base/assert.h"

#define DESERT_LIKELY(x)   __builtin_expect(!!(x), 1)
#define DESERT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DESERT_INLINE      static inline __attribute__((always_inline))
/* Slow paths kept out of line so the fast path around them saves no
 * registers and needs no frame; COLD also moves them to the cold section. */
#define DESERT_NOINLINE    __attribute__((noinline))
#define DESERT_COLD        __attribute__((noinline, cold))

/* Single-value big-endian access (arrays go through the bswap kernels). */
DESERT_INLINE uint16_t desert_get_be16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return __builtin_bswap16(v);
}
DESERT_INLINE uint32_t desert_get_be32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
DESERT_INLINE uint64_t desert_get_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}
DESERT_INLINE void desert_put_be16(uint8_t *p, uint16_t v) {
  v = __builtin_bswap16(v);
  memcpy(p, &v, 2);
}
DESERT_INLINE void desert_put_be32(uint8_t *p, uint32_t v) {
  v = __builtin_bswap32(v);
  memcpy(p, &v, 4);
}
DESERT_INLINE void desert_put_be64(uint8_t *p, uint64_t v) {
  v = __builtin_bswap64(v);
  memcpy(p, &v, 8);
}

/* Zig-zag mapping of docs/format.md §3.3, in unsigned arithmetic (no UB). */
DESERT_INLINE uint32_t desert_zigzag32(int32_t n) {
  return ((uint32_t)n << 1) ^ (uint32_t)(0u - ((uint32_t)n >> 31));
}
DESERT_INLINE int32_t desert_unzigzag32(uint32_t u) {
  uint32_t v = (u >> 1) ^ (0u - (u & 1u));
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* Shortest var_u32 encoding into p (>= 5 bytes); returns its length. */
DESERT_INLINE size_t desert_put_var_u32(uint8_t *p, uint32_t v) {
  size_t i = 0;
  while (v >= 0x80u) {
    p[i++] = (uint8_t)(v | 0x80u);
    v >>= 7;
  }
  p[i++] = (uint8_t)v;
  return i;
}
/* Shortest var_u32 encoding of v at p without data-dependent branches,
 * for runs whose lengths vary from value to value (posting lists, counts,
 * string lengths), where the loop above mispredicts its exit: the 7-bit
 * groups are spread over a 64-bit word and the continuation bits set by
 * length. Stores 8 bytes, so p needs 8 bytes of room; the bytes after the
 * encoding are scratch. Returns the length (1..5). */
DESERT_INLINE size_t desert_put_var_u32_wide(uint8_t *p, uint32_t v) {
  /* One-byte values (ids, short lengths, small counts) are the common
   * case and usually come in runs, where this branch predicts well and
   * the single store beats the spreading below. */
  if (v < 0x80u) {
    p[0] = (uint8_t)v;
    return 1;
  }
  const size_t len = 1u + (size_t)(v >= (1u << 7)) + (size_t)(v >= (1u << 14)) +
                     (size_t)(v >= (1u << 21)) + (size_t)(v >= (1u << 28));
  const uint64_t x = v;
  uint64_t g = (x & 0x7Fu) | ((x & 0x3F80u) << 1) | ((x & 0x1FC000u) << 2) |
               ((x & 0xFE00000u) << 3) | ((x & 0xF0000000u) << 4);
  g |= 0x8080808080ull & ((1ull << (8 * (len - 1))) - 1u);
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (unsigned i = 0; i < 8; i++) p[i] = (uint8_t)(g >> (8 * i));
#else
  memcpy(p, &g, 8); /* little-endian: the first group lands first */
#endif
  return len;
}
DESERT_INLINE size_t desert_var_u32_len(uint32_t v) {
  return v < (1u << 7) ? 1 : v < (1u << 14) ? 2 : v < (1u << 21) ? 3 : v < (1u << 28) ? 4 : 5;
}

/* Copies of the bytes of a block. glibc's memcpy switches to `rep movsb`
 * above a few KiB, and how that runs depends on the CPU class: on some it
 * is far slower when source and destination differ in alignment, which
 * output written after a varint nearly always does; on others misaligned
 * `rep movsb` is as fast as aligned and the fastest copy for data
 * streaming from L3, yet slower than glibc's vector loop from 2 to 8 KiB
 * (data in L2). So blocks of 2-8 KiB always go in equal pieces of at most
 * 2 KiB, larger ones in one call only where desert_copy_large_whole says
 * the CPU class was measured fast for it (set by the CPU detection,
 * src/dispatch, before any context exists; 0, the safe pieces, until
 * then). The piece size is hidden from the compiler: gcc compiles a memcpy
 * of a known or bounded size of 2 KiB to an inline `rep movsq`, the
 * slowest copy measured. The measurements:
 * bench/results/notes-from-code-comments.md. */
#define DESERT_COPY_PIECE 2048u
#define DESERT_COPY_SPLIT_MAX 8192u
extern _Atomic unsigned char desert_copy_large_whole;
DESERT_INLINE void desert_copy(uint8_t *dst, const uint8_t *src, size_t n) {
  if (n > DESERT_COPY_PIECE &&
      (n <= DESERT_COPY_SPLIT_MAX ||
       !atomic_load_explicit(&desert_copy_large_whole, memory_order_relaxed))) {
    const size_t k = (n + DESERT_COPY_PIECE - 1) / DESERT_COPY_PIECE;
    size_t piece = n / k;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(piece)); /* an unknown size: a call, never inline string code */
#endif
    for (size_t i = 1; i < k; i++) {
      memcpy(dst, src, piece);
      dst += piece;
      src += piece;
      n -= piece;
    }
  }
  memcpy(dst, src, n);
}

/* Streaming copies of large outputs. A block of at least
 * DESERT_COPY_STREAM_MIN bytes written when the output already holds
 * desert_copy_stream_after bytes (0: never) goes around the caches with
 * non-temporal stores: an output that large has left the core's L2
 * anyway, and streaming stores skip reading every line they are about to
 * fill, a third of the memory traffic of a copy. src/dispatch sets the
 * threshold for a CPU class only where it was measured faster
 * (docs/kernel-policy.md); elsewhere it stays 0 and copies are as before.
 * desert_copy_stream (copy_stream.c) is SSE2, which every x86-64 has; it
 * ends with an sfence, so the bytes are ordered like ordinary stores for
 * whoever the output is handed to. Elsewhere it is a memcpy. */
#define DESERT_COPY_STREAM_MIN 4096u
extern _Atomic size_t desert_copy_stream_after;
void desert_copy_stream(uint8_t *dst, const uint8_t *src, size_t n);
DESERT_INLINE bool desert_copy_streams(size_t out_len, size_t n) {
  const size_t after = atomic_load_explicit(&desert_copy_stream_after, memory_order_relaxed);
  return after && n >= DESERT_COPY_STREAM_MIN && out_len >= after;
}

/* True when the n (< 16 in practice) bytes are all ASCII: short strings
 * skip the call to the validation kernel. */
DESERT_INLINE bool desert_is_ascii_short(const uint8_t *p, size_t n) {
  uint64_t acc = 0, w;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, p + i, 8);
    acc |= w;
  }
  for (; i < n; i++) acc |= p[i];
  return (acc & 0x8080808080808080ull) == 0;
}

/* Zeroes n bytes (n a compile-time constant in practice) with 32-byte
 * stores. For a constant size above 64 bytes gcc emits `rep stosq`, whose
 * start-up cost dominated creating a context where it was measured
 * (bench/results/notes-from-code-comments.md); these stores take a few
 * cycles. */
DESERT_INLINE void desert_zero(void *p, size_t n) {
  unsigned char *q = (unsigned char *)p;
  while (n >= 32) {
    memset(q, 0, 32);
    q += 32;
    n -= 32;
  }
  memset(q, 0, n);
}

/* ---- allocation through the context allocator ---- */
void *desert_mem_alloc(const desert_allocator *a, size_t n);
void desert_mem_free(const desert_allocator *a, void *p, size_t n);
/* Moves an allocated block p of cap bytes, whose first len bytes matter,
 * to one of ncap > cap bytes: realloc for the default allocator (glibc
 * can extend the block in place, or remap a large one, without copying),
 * alloc + copy + free through a custom one (desert_allocator has no
 * realloc). NULL when the allocator fails: p is then untouched and still
 * owned by the caller. */
void *desert_mem_grow(const desert_allocator *a, void *p, size_t len, size_t cap, size_t ncap);

/* Validates a caller's options (NULL = defaults) into *out with limits
 * resolved, and picks the kernel table. DESERT_E_ARGUMENT for a bad
 * struct_size, unknown flag bits, a bad enum or level;
 * DESERT_E_ISA_UNAVAILABLE when opt->isa cannot run here. */
desert_status desert_options_resolve(const desert_options *opt, desert_options *out,
                                     const desert_kernels **kernels);
/* The two halves of desert_options_resolve for contexts that defer the
 * copy (desert_writer_init): _check validates a non-NULL opt and picks
 * the table without writing anything but *kernels (same statuses);
 * _fill_limits turns a checked copy's zero limits into the defaults;
 * _set_defaults stores what opt NULL resolves to. */
desert_status desert_options_check(const desert_options *opt, const desert_kernels **kernels);
void desert_options_fill_limits(desert_options *o);
void desert_options_set_defaults(desert_options *o);

/* Element count above which bulk writes/reads call the SIMD kernels rather
 * than inline scalar code (measured in the benchmark suite). */
#define DESERT_BULK_THRESHOLD 16u

#endif /* DESERT_INTERNAL_H */
