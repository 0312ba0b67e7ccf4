/* test/fuzz/fuzz_compressed.c — libFuzzer harness: compressed byte blocks
 * (docs/format.md §16, docs/schema.md §12): raw DEFLATE (desert-rust), zlib-wrapped
 * (desert-scala) and the libdesert zstd extension.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0: bits 0-1 flavour (0 raw, 1 zlib, 2 zstd, 3 each block's
 * flavour from the low bits of its first byte... i.e. cycling), bit 2 a
 * small max_decompressed (4096); then blocks until the input ends or a
 * read fails. Every block that decodes is checked against an independent
 * decode with libdeflate / zstd, and written again at a level from the
 * input and read back to the same bytes. zlib-flavour blocks are judged by
 * the Inflater model of test/support/inflater_model.c (docs/schema.md §12):
 * the reader must inflate exactly what the model inflates, zero-padded,
 * and fail with DESERT_E_ZLIB_BLOCK at the stream exactly when the model
 * calls the stream corrupt (other failures: limits, input ended).
 * Memory: fuzz_common's bound, with the returned plain bytes as the
 * decompressed allowance. */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fuzz_common.h"
#include "inflater_model.h"

/* Independent parse of a block header: var_u32 at p[*at]. */
static bool var_u32(const uint8_t *p, size_t len, size_t *at, uint32_t *v) {
  uint32_t x = 0;
  for (unsigned k = 0; k < 5; k++) {
    if (*at >= len) return false;
    uint8_t b = p[(*at)++];
    x |= (uint32_t)(b & 0x7fu) << (7 * k);
    if (!(b & 0x80u)) {
      *v = x;
      return true;
    }
  }
  return false;
}

static struct libdeflate_decompressor *dd;

static void check_block(int flavour, const uint8_t *blk, size_t blen, desert_bytes out) {
  size_t at = 0;
  uint32_t plain, csize = 0;
  FZ_CHECK(var_u32(blk, blen, &at, &plain));
  if (flavour == 1 && plain == 0) {
    FZ_CHECK(out.len == 0 && at == blen);
    return;
  }
  FZ_CHECK(var_u32(blk, blen, &at, &csize));
  FZ_CHECK_MSG(at + csize == blen, "block is %zu bytes, header says %zu", blen, at + (size_t)csize);
  const uint8_t *c = blk + at;
  size_t cap = out.len + 1;
  uint8_t *buf = malloc(cap);
  FZ_CHECK(buf != NULL);
  size_t got = 0;
  if (flavour == 2) {
    got = ZSTD_decompress(buf, cap, c, csize);
    FZ_CHECK(!ZSTD_isError(got));
    FZ_CHECK(got == out.len && got == plain);
    FZ_CHECK(!got || memcmp(buf, out.ptr, got) == 0);
  } else if (flavour == 0) {
    enum libdeflate_result lr = libdeflate_deflate_decompress_ex(dd, c, csize, buf, cap, NULL, &got);
    FZ_CHECK_MSG(lr == LIBDEFLATE_SUCCESS, "reader accepted a raw block libdeflate refuses (%d)",
                 (int)lr);
    FZ_CHECK(got == out.len && (!got || memcmp(buf, out.ptr, got) == 0));
  } else {
    FZ_CHECK(out.len == plain);
    free(buf);
    buf = malloc(plain);
    FZ_CHECK(buf != NULL);
    model_verdict v = model_java_inflate(c, csize, buf, plain);
    FZ_CHECK_MSG(v == MODEL_OK, "reader inflated a zlib block the Inflater model calls %s",
                 v == MODEL_CORRUPT ? "corrupt" : "out of memory");
    FZ_CHECK_MSG(memcmp(buf, out.ptr, plain) == 0, "zlib block differs from the Inflater model");
  }
  free(buf);
}

/* The reader called the zlib block at blk corrupt, at offset `at` of it:
 * that must be its first stream byte, and the model must agree. */
static void check_zlib_corrupt(const uint8_t *blk, size_t avail, size_t at) {
  size_t p = 0;
  uint32_t plain, csize;
  FZ_CHECK(var_u32(blk, avail, &p, &plain) && plain > 0);
  FZ_CHECK(var_u32(blk, avail, &p, &csize) && p + csize <= avail);
  FZ_CHECK_MSG(at == p, "corrupt zlib block reported at %zu, stream at %zu", at, p);
  /* The model's room: a lying plain length may be large, but DEFLATE
   * cannot make more than 1032 bytes per input byte (plus a little), so
   * room beyond that is never reached and the verdict is the same. */
  size_t room = (size_t)csize * 1032 + 1024;
  if (room > plain) room = plain;
  uint8_t *buf = malloc(room);
  FZ_CHECK(buf != NULL);
  model_verdict v = model_java_inflate(blk + p, csize, buf, room);
  FZ_CHECK_MSG(v == MODEL_CORRUPT, "reader calls a zlib block corrupt, the Inflater model %s",
               v == MODEL_OK ? "inflates it" : "ran out of memory");
  free(buf);
}

FZ_TARGET(compressed) {
  if (size < 1) return 0;
  if (!dd) dd = libdeflate_alloc_decompressor();
  FZ_CHECK(dd != NULL);
  uint8_t mode = data[0];
  desert_options o;
  fz_options(&o, 0);
  if (mode & 4u) o.max_decompressed = 4096;
  desert_reader *r = fz_reader_new(&o);
  desert_reader *r2 = fz_reader_new(&o);
  desert_writer *w = NULL;
  FZ_CHECK(desert_writer_create(NULL, &w) == DESERT_OK);

  const uint8_t *in = data + 1;
  size_t n = size - 1;
  fz_decode_begin(r, in, n);
  for (unsigned i = 0; i < 256 && desert_reader_remaining(r) > 0; i++) {
    int flavour = (mode & 3u) == 3u ? (int)(i % 3u) : (int)(mode & 3u);
    size_t before = desert_reader_offset(r);
    desert_bytes out = {NULL, 0};
    desert_status st = flavour == 2 ? desert_read_compressed_zstd(r, &out)
                                    : desert_read_compressed(r, (desert_compression)flavour, &out);
    if (st) {
      size_t eo = desert_reader_error_offset(r);
      FZ_CHECK_MSG(eo >= before && eo <= n, "%s at %zu, block at %zu", desert_status_name(st), eo,
                   before);
      if (flavour == 0) FZ_CHECK(st != DESERT_E_ZLIB_BLOCK);
      if (flavour == 1) {
        FZ_CHECK(st != DESERT_E_DECOMPRESSION);
        if (st == DESERT_E_ZLIB_BLOCK) check_zlib_corrupt(in + before, n - before, eo - before);
      }
      break;
    }
    FZ_CHECK(out.len <= (o.max_decompressed ? o.max_decompressed : DESERT_DEFAULT_MAX_DECOMPRESSED));
    check_block(flavour, in + before, desert_reader_offset(r) - before, out);

    /* Write the plain bytes again and read them back. */
    int level = flavour == 2 ? (int)(in[before] % 6u) : (int)(in[before] % 13u);
    desert_writer_reset(w);
    desert_status ws = flavour == 2 ? desert_write_compressed_zstd(w, level, out.ptr, out.len)
                                    : desert_write_compressed(w, (desert_compression)flavour,
                                                              level, out.ptr, out.len);
    FZ_CHECK_MSG(ws == DESERT_OK, "writing %zu decoded bytes failed: %s", out.len,
                 desert_status_name(ws));
    size_t wn;
    const uint8_t *wp = desert_writer_data(w, &wn);
    uint8_t *copy = malloc(wn);
    FZ_CHECK(copy != NULL);
    memcpy(copy, wp, wn);
    desert_bytes back = {NULL, 0};
    fz_decode_begin(r2, copy, wn);
    st = flavour == 2 ? desert_read_compressed_zstd(r2, &back)
                      : desert_read_compressed(r2, (desert_compression)flavour, &back);
    FZ_CHECK_MSG(st == DESERT_OK, "own block does not decode: %s", desert_status_name(st));
    FZ_CHECK(desert_reader_offset(r2) == wn);
    FZ_CHECK(back.len == out.len && (!out.len || memcmp(back.ptr, out.ptr, out.len) == 0));
    fz_decode_end(r2);
    free(copy);
  }
  fz_decode_end(r);
  desert_writer_free(w);
  fz_reader_free(r2);
  fz_reader_free(r);
  return 0;
}
