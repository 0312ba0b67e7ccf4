/* src/dispatch/api_kernels.c — the public stateless bulk API of
 * include/desert/kernels.h: argument checks and exact-size checks around the
 * process default kernel table.
 * SPDX-License-Identifier: MIT
 *
 * Kernels trust their arguments (kernels.h); this layer makes the public
 * calls safe: NULL with a non-zero count is DESERT_E_ARGUMENT, outputs are
 * checked against their capacity before anything is written where the
 * kernel itself has no capacity (var encode, Latin-1 -> UTF-8), and an empty
 * range given as NULL is replaced by a real address so no kernel ever does
 * arithmetic on a null pointer.
 *
 * Optional outputs: `pos` / `error_offset` may be NULL. Required outputs
 * (`written`, `consumed`, `out_len`) may not (DESERT_E_ARGUMENT).
 *
 * Every kernel's postconditions (positions within the input, outputs
 * within their capacity, exact sizes where the size was computed first)
 * are asserted here, once for every ISA, in builds with assertions.
 */
#include <string.h>

#include "desert/kernels.h"
#include "base/kernels.h"
#include "base/assert.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DESERT_HOST_BIG_ENDIAN 1
#else
#define DESERT_HOST_BIG_ENDIAN 0
#endif

/* Stand-in address for empty ranges passed as NULL. Never written: an
 * output range of capacity 0 is never stored to. */
static uint8_t desert_empty_range[8];

static const uint8_t *desert_in(const void *p) {
  return p != NULL ? (const uint8_t *)p : desert_empty_range;
}

static uint8_t *desert_out(void *p) { return p != NULL ? (uint8_t *)p : desert_empty_range; }

/* ---- big-endian arrays ------------------------------------------------------ */

/* On a big-endian host the wire order is the host order: a copy. Void
 * functions cannot report a bad argument, so NULL with n > 0 does nothing. */
#define DESERT_BE_BODY(width, slot)                   \
  do {                                                \
    if (n == 0 || dst == NULL || src == NULL) return; \
    if (DESERT_HOST_BIG_ENDIAN)                       \
      memmove(dst, src, n *(width));                  \
    else                                              \
      desert_kernels_default()->slot(dst, src, n);    \
  } while (0)

void desert_store_be16(void *dst, const uint16_t *src, size_t n) { DESERT_BE_BODY(2, bswap16); }
void desert_store_be32(void *dst, const uint32_t *src, size_t n) { DESERT_BE_BODY(4, bswap32); }
void desert_store_be64(void *dst, const uint64_t *src, size_t n) { DESERT_BE_BODY(8, bswap64); }
void desert_load_be16(uint16_t *dst, const void *src, size_t n) { DESERT_BE_BODY(2, bswap16); }
void desert_load_be32(uint32_t *dst, const void *src, size_t n) { DESERT_BE_BODY(4, bswap32); }
void desert_load_be64(uint64_t *dst, const void *src, size_t n) { DESERT_BE_BODY(8, bswap64); }

/* ---- varints ----------------------------------------------------------------- */

static size_t desert_var_len(uint32_t v) {
  return 1u + (v >= (1u << 7)) + (v >= (1u << 14)) + (v >= (1u << 21)) + (v >= (1u << 28));
}

static uint32_t desert_zz(int32_t v) { return ((uint32_t)v << 1) ^ (v < 0 ? 0xffffffffu : 0u); }

size_t desert_var_u32_size(const uint32_t *src, size_t n) {
  size_t total = 0;
  if (src == NULL) return 0;
  for (size_t i = 0; i < n; i++) total += desert_var_len(src[i]);
  return total;
}

size_t desert_var_i32_size(const int32_t *src, size_t n) {
  size_t total = 0;
  if (src == NULL) return 0;
  for (size_t i = 0; i < n; i++) total += desert_var_len(desert_zz(src[i]));
  return total;
}

desert_status desert_var_u32_encode(void *dst, size_t dst_cap, const uint32_t *src, size_t n,
                                    size_t *written) {
  if (written == NULL) return DESERT_E_ARGUMENT;
  *written = 0;
  if (n == 0) return DESERT_OK;
  if (src == NULL || (dst == NULL && dst_cap > 0)) return DESERT_E_ARGUMENT;
  /* The kernel has no capacity: size exactly first (it writes exactly that). */
  const size_t need = desert_var_u32_size(src, n);
  if (need > dst_cap) return DESERT_E_DST_TOO_SMALL;
  *written = desert_kernels_default()->var_u32_encode(desert_out(dst), src, n);
  DESERT_ASSERT(*written == need);
  return DESERT_OK;
}

desert_status desert_var_i32_encode(void *dst, size_t dst_cap, const int32_t *src, size_t n,
                                    size_t *written) {
  if (written == NULL) return DESERT_E_ARGUMENT;
  *written = 0;
  if (n == 0) return DESERT_OK;
  if (src == NULL || (dst == NULL && dst_cap > 0)) return DESERT_E_ARGUMENT;
  const size_t need = desert_var_i32_size(src, n);
  if (need > dst_cap) return DESERT_E_DST_TOO_SMALL;
  *written = desert_kernels_default()->var_i32_encode(desert_out(dst), src, n);
  DESERT_ASSERT(*written == need);
  return DESERT_OK;
}

desert_status desert_var_u32_decode(const void *src, size_t src_len, uint32_t *dst, size_t n,
                                    size_t *consumed) {
  if (consumed == NULL) return DESERT_E_ARGUMENT;
  *consumed = 0;
  if (n == 0) return DESERT_OK;
  if (dst == NULL || (src == NULL && src_len > 0)) return DESERT_E_ARGUMENT;
  desert_status st =
      desert_kernels_default()->var_u32_decode(desert_in(src), src_len, dst, n, consumed);
  DESERT_ASSERT(*consumed <= src_len && (st != DESERT_OK || *consumed >= n));
  return st;
}

desert_status desert_var_i32_decode(const void *src, size_t src_len, int32_t *dst, size_t n,
                                    size_t *consumed) {
  if (consumed == NULL) return DESERT_E_ARGUMENT;
  *consumed = 0;
  if (n == 0) return DESERT_OK;
  if (dst == NULL || (src == NULL && src_len > 0)) return DESERT_E_ARGUMENT;
  desert_status st =
      desert_kernels_default()->var_i32_decode(desert_in(src), src_len, dst, n, consumed);
  DESERT_ASSERT(*consumed <= src_len && (st != DESERT_OK || *consumed >= n));
  return st;
}

/* ---- text ------------------------------------------------------------------------ */

desert_status desert_utf8_validate(const void *s, size_t len, size_t *error_offset) {
  size_t pos = 0;
  desert_status st = DESERT_E_ARGUMENT;
  if (s != NULL || len == 0) st = desert_kernels_default()->utf8_validate(desert_in(s), len, &pos);
  DESERT_ASSERT(pos <= len && (st != DESERT_OK || pos == len));
  if (error_offset != NULL) *error_offset = pos;
  return st;
}

desert_status desert_utf16_len_from_utf8(const void *s, size_t len, size_t *out_len) {
  if (out_len == NULL) return DESERT_E_ARGUMENT;
  *out_len = 0;
  if (s == NULL && len > 0) return DESERT_E_ARGUMENT;
  return desert_kernels_default()->utf16_len_from_utf8(desert_in(s), len, out_len);
}

desert_status desert_utf8_to_utf16(const void *s, size_t len, uint16_t *dst, size_t dst_cap,
                                   size_t *written, size_t *pos) {
  size_t p = 0;
  if (written == NULL) return DESERT_E_ARGUMENT;
  *written = 0;
  desert_status st = DESERT_E_ARGUMENT;
  if ((s != NULL || len == 0) && (dst != NULL || dst_cap == 0)) {
    /* A uint16_t stand-in for a NULL, zero-capacity output. */
    static uint16_t none[1];
    st = desert_kernels_default()->utf8_to_utf16(desert_in(s), len, dst != NULL ? dst : none,
                                                 dst_cap, written, &p);
  }
  DESERT_ASSERT(p <= len && *written <= dst_cap);
  if (pos != NULL) *pos = p;
  return st;
}

desert_status desert_utf8_len_from_utf16(const uint16_t *s, size_t len, size_t *out_len) {
  static const uint16_t none[1];
  if (out_len == NULL) return DESERT_E_ARGUMENT;
  *out_len = 0;
  if (s == NULL && len > 0) return DESERT_E_ARGUMENT;
  return desert_kernels_default()->utf8_len_from_utf16(s != NULL ? s : none, len, out_len);
}

desert_status desert_utf16_to_utf8(const uint16_t *s, size_t len, void *dst, size_t dst_cap,
                                   size_t *written, size_t *pos) {
  static const uint16_t none[1];
  size_t p = 0;
  if (written == NULL) return DESERT_E_ARGUMENT;
  *written = 0;
  desert_status st = DESERT_E_ARGUMENT;
  if ((s != NULL || len == 0) && (dst != NULL || dst_cap == 0))
    st = desert_kernels_default()->utf16_to_utf8(s != NULL ? s : none, len, desert_out(dst),
                                                 dst_cap, written, &p);
  DESERT_ASSERT(p <= len && *written <= dst_cap);
  if (pos != NULL) *pos = p;
  return st;
}

size_t desert_utf8_len_from_latin1(const uint8_t *s, size_t len) {
  if (s == NULL || len == 0) return 0;
  return desert_kernels_default()->utf8_len_from_latin1(s, len);
}

desert_status desert_latin1_to_utf8(const uint8_t *s, size_t len, void *dst, size_t dst_cap,
                                    size_t *written) {
  if (written == NULL) return DESERT_E_ARGUMENT;
  *written = 0;
  if (len == 0) return DESERT_OK;
  if (s == NULL || (dst == NULL && dst_cap > 0)) return DESERT_E_ARGUMENT;
  const desert_kernels *k = desert_kernels_default();
  /* All or nothing: the kernel has no capacity, and this call has no *pos
   * to say how much input a partial conversion used. */
  const size_t need = k->utf8_len_from_latin1(s, len);
  if (need > dst_cap) return DESERT_E_DST_TOO_SMALL;
  *written = k->latin1_to_utf8(s, len, desert_out(dst));
  DESERT_ASSERT(*written == need);
  return DESERT_OK;
}

desert_status desert_utf8_to_latin1(const void *s, size_t len, uint8_t *dst, size_t dst_cap,
                                    size_t *written, size_t *pos) {
  size_t p = 0;
  if (written == NULL) return DESERT_E_ARGUMENT;
  *written = 0;
  desert_status st = DESERT_E_ARGUMENT;
  if ((s != NULL || len == 0) && (dst != NULL || dst_cap == 0))
    st = desert_kernels_default()->utf8_to_latin1(desert_in(s), len, desert_out(dst), dst_cap,
                                                  written, &p);
  DESERT_ASSERT(p <= len && *written <= dst_cap);
  if (pos != NULL) *pos = p;
  return st;
}
