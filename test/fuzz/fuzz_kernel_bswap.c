/* test/fuzz/fuzz_kernel_bswap.c — differential libFuzzer harness: the
 * byte-swap kernels (big-endian arrays) of every runnable table against
 * scalar and the oracle, out of place and in place, plus the public
 * desert_load_be* / desert_store_be* wrappers.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 selects the lane width (2, 4, 8) and a start misalignment
 * (0..7 bytes into the input); the rest is the lanes. */
#include "fuzz_kernel.h"

typedef void (*bswap_fn)(void *, const void *, size_t);

static bswap_fn slot(const desert_kernels *k, size_t width) {
  return width == 2 ? k->bswap16 : width == 4 ? k->bswap32 : k->bswap64;
}

FZ_TARGET(kernel_bswap) {
  if (size < 1) return 0;
  static const size_t widths[3] = {2, 4, 8};
  size_t width = widths[data[0] % 3u];
  size_t skip = (size_t)(data[0] >> 2) % 8u;
  if (size - 1 < skip) skip = size - 1;
  const uint8_t *in = data + 1 + skip;
  size_t len = size - 1 - skip, n = len / width, bytes = n * width;

  const desert_kernels *t[FZ_MAX_TABLES];
  size_t nt = fz_tables(t);
  uint8_t *src = fz_dup(in, bytes);
  uint8_t *want = fz_out(bytes);
  desert_oracle_bswap(want, src, n, width);
  for (size_t i = 0; i < nt; i++) {
    uint8_t *dst = fz_out(bytes);
    slot(t[i], width)(dst, src, n);
    FZ_CHECK_MSG(!bytes || memcmp(dst, want, bytes) == 0, "%s bswap%zu differs", t[i]->name,
                 width * 8);
    uint8_t *inplace = fz_dup(src, bytes);
    slot(t[i], width)(inplace, inplace, n);
    FZ_CHECK_MSG(!bytes || memcmp(inplace, want, bytes) == 0, "%s bswap%zu in place differs",
                 t[i]->name, width * 8);
    free(inplace);
    free(dst);
  }
  /* Public wrappers (process default table): load = big-endian -> host. */
  void *host = fz_out(bytes);
  if (width == 2) desert_load_be16(host, src, n);
  else if (width == 4) desert_load_be32(host, src, n);
  else desert_load_be64(host, src, n);
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 0, h = 0;
    for (size_t k = 0; k < width; k++) v = v << 8 | src[i * width + k];
    if (width == 2) { uint16_t x; memcpy(&x, (uint8_t *)host + i * 2, 2); h = x; }
    else if (width == 4) { uint32_t x; memcpy(&x, (uint8_t *)host + i * 4, 4); h = x; }
    else memcpy(&h, (uint8_t *)host + i * 8, 8);
    FZ_CHECK_MSG(h == v, "desert_load_be%zu lane %zu", width * 8, i);
  }
  uint8_t *back = fz_out(bytes);
  if (width == 2) desert_store_be16(back, host, n);
  else if (width == 4) desert_store_be32(back, host, n);
  else desert_store_be64(back, host, n);
  FZ_CHECK(!bytes || memcmp(back, src, bytes) == 0);
  free(back);
  free(host);
  free(want);
  free(src);
  return 0;
}
