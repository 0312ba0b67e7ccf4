/* src/base/copy_stream.c — desert_copy_stream: a copy whose stores go
 * around the caches (non-temporal), for blocks written into an output that
 * has outgrown them (base/internal.h says when), and the threshold that
 * switches it on (desert_copy_stream_after, set by the CPU detection in
 * src/dispatch for the classes where it was measured faster). SSE2 stores
 * of 16 bytes: every x86-64 has them, and the write-combining buffers
 * merge them into whole lines, so wider ones gain nothing here.
 * SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>

#include "base/internal.h"

_Atomic size_t desert_copy_stream_after = 0;

#if defined(__SSE2__)
#include <emmintrin.h>

void desert_copy_stream(uint8_t *dst, const uint8_t *src, size_t n) {
  /* Ordinary stores up to a 16-byte boundary of dst (the streaming store
   * needs it), then 64 bytes per step, then the tail. */
  size_t head = (16u - ((uintptr_t)dst & 15u)) & 15u;
  if (head > n) head = n;
  memcpy(dst, src, head);
  dst += head;
  src += head;
  n -= head;
  for (; n >= 64; dst += 64, src += 64, n -= 64) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src);
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + 32));
    const __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + 48));
    _mm_stream_si128((__m128i *)(void *)dst, a);
    _mm_stream_si128((__m128i *)(void *)(dst + 16), b);
    _mm_stream_si128((__m128i *)(void *)(dst + 32), c);
    _mm_stream_si128((__m128i *)(void *)(dst + 48), d);
  }
  /* Streaming stores are weakly ordered: fence them before anything
   * later (the tail, the caller's commit, a hand-over to a thread). */
  _mm_sfence();
  if (n) memcpy(dst, src, n);
}
#else
void desert_copy_stream(uint8_t *dst, const uint8_t *src, size_t n) {
  if (n) memcpy(dst, src, n);
}
#endif
