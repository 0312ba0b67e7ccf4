/* src/values/compressed.c — compressed byte blocks (docs/format.md §16): raw
 * DEFLATE (desert-rust) and zlib-wrapped DEFLATE (desert-scala) through
 * libdeflate, with zlib's streaming inflate for the zlib-flavour blocks
 * libdeflate refuses, plus the libdesert zstd extension. The (de)compressor contexts
 * it caches in writers and readers are created here and released by
 * src/core/compress_state.c, which the contexts call when they are freed.
 * SPDX-License-Identifier: MIT
 *
 * Layout of every flavour: var_u32(plain length), var_u32(compressed
 * length), compressed bytes; the zlib flavour writes an empty input as the
 * single byte 00 (and reads a plain length 0 as "empty, nothing follows").
 *
 * Reading (docs/schema.md §12, §14.5): both lengths are read, the compressed
 * bytes are taken (InputEnded at their first byte if the input is short),
 * and only then the announced plain length is checked against
 * options.max_decompressed (DESERT_E_LIMIT at the plain-length varint) --
 * nothing is allocated before these checks. Decompression errors are
 * reported at the first compressed byte.
 *
 * The zlib flavour follows java.util.zip.Inflater (docs/schema.md §12): Scala
 * calls inflate() once, with the whole block as input and room for exactly
 * the announced length, and keeps whatever came out, zero-padded. So an
 * incomplete stream (cut anywhere, even inside the header or the Adler-32
 * trailer) is not an error, and a stream longer than announced is cut
 * where the room ends. libdeflate answers only "complete and valid" or
 * "refused" (it cannot tell incomplete from corrupt, nor return partial
 * output): its success is taken as is (the fast path), and every refusal
 * is decided again by zlib's inflate, the library Java itself wraps,
 * driven the way Inflater drives it (read_zlib_slow).
 *
 * libdeflate 1.14 is laxer than zlib on a few constructs no conforming
 * encoder writes: a dynamic header announcing more than 286 literal/length
 * or 30 distance codes, a code-length repeat running past the announced
 * count, an incomplete code (it decodes the unused codeword), and the
 * fixed-code symbols 286-287 (lengths) and 30-31 (distances). The repeat
 * overrun keeps the output, so one flipped bit in a zlib stream can make
 * libdeflate succeed where Java fails (found by a bit-flip search). So a
 * success is taken only when the first block's header is one zlib accepts
 * exactly as libdeflate does (first_header_lax); otherwise zlib decides.
 * Known residue: the headers of later blocks are not examined (that needs
 * a walk over every symbol, as costly as inflating), nor fixed-code
 * symbols 286-287/30-31, which change the output and so also need a forged
 * Adler-32: a multi-block stream with such a later header, or a forged
 * one, is accepted here where Java reports a corrupt block.
 *
 * Memory: libdeflate 1.14 has no per-context allocator (only the global
 * libdeflate_set_memory_allocator, which would race between contexts), so
 * its (de)compressors come from malloc; zstd contexts and every buffer go
 * through the context allocator. */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_customMem, ZSTD_create*_advanced */
#define ZLIB_CONST               /* z_stream.next_in is const */
#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "core/compress_state.h"
#include "core/reader_internal.h"
#include "core/writer_internal.h"

/* ---- writer ----------------------------------------------------------------- */

/* A scratch buffer of at least n bytes (its contents are not kept). */
static uint8_t *scratch(desert_writer *w, size_t n) {
  if (w->scratch_cap >= n && w->scratch) return w->scratch;
  size_t cap = w->scratch_cap ? w->scratch_cap : 4096;
  while (cap < n) {
    if (cap > SIZE_MAX / 2) {
      cap = n;
      break;
    }
    cap *= 2;
  }
  uint8_t *p = desert_mem_alloc(&w->opt.allocator, cap);
  if (!p) {
    desert_w_fail(w, DESERT_E_NOMEM);
    return NULL;
  }
  desert_mem_free(&w->opt.allocator, w->scratch, w->scratch_cap);
  w->scratch = p;
  w->scratch_cap = cap;
  return p;
}

/* Writes var_u32(plain), var_u32(csize), then csize bytes of data in one
 * reservation, so a fixed buffer that is too small receives nothing. */
static desert_status emit_block(desert_writer *w, size_t plain, const uint8_t *data, size_t csize) {
  if (csize > UINT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  uint8_t hdr[10];
  size_t h = desert_put_var_u32(hdr, (uint32_t)plain);
  h += desert_put_var_u32(hdr + h, (uint32_t)csize);
  uint8_t *p = NULL;
  desert_status st = desert_w_reserve_bulk(w, h + csize, &p);
  if (st) return st;
  if (p) {
    memcpy(p, hdr, h);
    if (csize) memcpy(p + h, data, csize);
  }
  desert_w_commit(w, h + csize);
  return DESERT_OK;
}

desert_status desert_write_compressed(desert_writer *w, desert_compression flavour, int level,
                                      const void *src, size_t n) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if ((!src && n) || (flavour != DESERT_COMPRESSION_RAW && flavour != DESERT_COMPRESSION_ZLIB) ||
      level < -1 || level > 12)
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (n > UINT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  bool zlib = flavour == DESERT_COMPRESSION_ZLIB;
  if (zlib && n == 0) return desert_w_byte(w, 0x00); /* Scala: empty = 00 */
  /* -1: the context's option, else the flavour's library default. */
  if (level < 0) level = w->opt.compression_level >= 0 ? (w->opt.compression_level > 12 ? 12 : w->opt.compression_level) : (zlib ? 1 : 6);
  if (n == 0) {
    /* libdeflate writes an empty stored block for empty input; zlib,
     * miniz_oxide (flate2) and Java write the 2-byte empty fixed-Huffman
     * block at every level but 0. Match them (docs/format.md §16.1: 00 02 03 00). */
    static const uint8_t fixed_empty[2] = {0x03, 0x00};
    static const uint8_t stored_empty[5] = {0x01, 0x00, 0x00, 0xff, 0xff};
    return level == 0 ? emit_block(w, 0, stored_empty, sizeof stored_empty)
                      : emit_block(w, 0, fixed_empty, sizeof fixed_empty);
  }
  desert_w_compressors(w);
  struct libdeflate_compressor *c = w->deflate_c[level];
  if (!c) {
    c = libdeflate_alloc_compressor(level);
    if (!c) return desert_w_fail(w, DESERT_E_NOMEM);
    w->deflate_c[level] = c;
  }
  size_t bound =
      zlib ? libdeflate_zlib_compress_bound(c, n) : libdeflate_deflate_compress_bound(c, n);
  uint8_t *out = scratch(w, bound);
  if (!out) return w->status;
  size_t csize = zlib ? libdeflate_zlib_compress(c, src, n, out, bound)
                      : libdeflate_deflate_compress(c, src, n, out, bound);
  if (csize == 0) return desert_w_fail(w, DESERT_E_COMPRESSION);
  return emit_block(w, n, out, csize);
}

desert_status desert_write_compressed_zstd(desert_writer *w, int level, const void *src, size_t n) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if ((!src && n) || level < -1 || level > ZSTD_maxCLevel())
    return desert_w_fail(w, DESERT_E_ARGUMENT);
  if (n > UINT32_MAX) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  if (level < 0) level = w->opt.compression_level >= 0 ? w->opt.compression_level : 3;
  desert_w_compressors(w);
  if (!w->zstd_c) {
    w->zstd_c = ZSTD_createCCtx_advanced(desert_zstd_mem(&w->opt.allocator));
    if (!w->zstd_c) return desert_w_fail(w, DESERT_E_NOMEM);
  }
  size_t bound = ZSTD_compressBound(n);
  if (ZSTD_isError(bound)) return desert_w_fail(w, DESERT_E_LENGTH_TOO_LARGE);
  uint8_t *out = scratch(w, bound);
  if (!out) return w->status;
  /* ZSTD_compressCCtx records the content size in the frame header, which
   * the reader checks against the announced length. */
  size_t csize = ZSTD_compressCCtx(w->zstd_c, out, bound, src ? src : out, n, level);
  if (ZSTD_isError(csize))
    return desert_w_fail(w, ZSTD_getErrorCode(csize) == ZSTD_error_memory_allocation
                                ? DESERT_E_NOMEM
                                : DESERT_E_COMPRESSION);
  return emit_block(w, n, out, csize);
}

/* ---- reader ----------------------------------------------------------------- */

/* The two lengths and a view of the compressed bytes, with the offsets
 * errors are reported at. */
typedef struct block_hdr {
  uint32_t plain;
  size_t plain_at; /* offset of the plain-length varint */
  const uint8_t *data;
  size_t csize;
  size_t data_at; /* offset of the first compressed byte */
} block_hdr;

/* Reads the compressed length and takes the bytes (the plain length has
 * been read into h->plain). */
static desert_status read_rest(desert_reader *r, block_hdr *h) {
  uint32_t c;
  if (desert_r_var_u32(r, &c)) return r->status;
  h->data_at = r->pos;
  h->data = desert_r_take(r, c); /* checked against the input: no allocation yet */
  if (!h->data) return r->status;
  h->csize = c;
  if ((size_t)h->plain > r->opt.max_decompressed)
    return desert_r_fail(r, DESERT_E_LIMIT, h->plain_at);
  return DESERT_OK;
}

/* Most bytes DEFLATE can expand csize bytes to: every symbol costs at least
 * one bit and a length/distance pair at least two bits for at most 258
 * bytes, i.e. <= 1032 bytes per input byte. Used to keep a lying plain
 * length from causing huge retries. It bounds valid streams only: on a
 * truncated one libdeflate (1.14, Debian 12) goes on decoding implicit zero
 * bits past the end, which can fill any buffer before it reports bad data
 * (test_compress's random garbage: 19 bytes still wanted more than 32 KiB). */
static size_t inflate_bound(size_t csize) {
  if (csize > (SIZE_MAX - 1024) / 1032) return SIZE_MAX;
  return csize * 1032 + 1024;
}

/* First output capacity: the announced size is trusted only up to a small
 * multiple of the compressed size; past that the output grows by doubling
 * as inflating proves it is needed (inflate_grow), so a lying header costs
 * O(csize) memory, not O(announced). */
static size_t first_capacity(size_t plain, size_t csize, size_t limit) {
  size_t guess = csize > (SIZE_MAX - 4096) / 4 ? SIZE_MAX : 4 * csize + 4096;
  size_t c = plain < guess ? plain : guess;
  return c < limit ? c : limit;
}

static struct libdeflate_decompressor *inflater(desert_reader *r, size_t at) {
  if (!r->inflater) {
    r->inflater = libdeflate_alloc_decompressor();
    if (!r->inflater) desert_r_fail(r, DESERT_E_NOMEM, at);
  }
  return r->inflater;
}

typedef enum libdeflate_result (*inflate_fn)(struct libdeflate_decompressor *, const void *, size_t,
                                             void *, size_t, size_t *, size_t *);

/* Inflates h's bytes into dst (first_cap bytes, may be NULL when 0); when
 * that is too small, retries into growing temporary buffers of at most
 * `limit` bytes and copies the first min(actual, keep) bytes of the result
 * into the arena (*res). *len = the inflated size. Returns the libdeflate
 * result (LIBDEFLATE_INSUFFICIENT_SPACE: more than `limit` bytes); NOMEM is
 * recorded in r and reported as LIBDEFLATE_BAD_DATA with r->status set. */
static enum libdeflate_result inflate_grow(desert_reader *r, inflate_fn fn, const block_hdr *h,
                                           uint8_t *dst, size_t first_cap, size_t limit,
                                           size_t keep, uint8_t **res, size_t *len) {
  struct libdeflate_decompressor *d = inflater(r, h->data_at);
  if (!d) return LIBDEFLATE_BAD_DATA;
  size_t actual = 0;
  enum libdeflate_result lr = fn(d, h->data, h->csize, dst, first_cap, NULL, &actual);
  if (lr != LIBDEFLATE_INSUFFICIENT_SPACE) {
    *res = dst;
    *len = actual;
    return lr;
  }
  const desert_allocator *a = &r->opt.allocator;
  size_t cap = first_cap;
  for (;;) {
    if (cap >= limit) return LIBDEFLATE_INSUFFICIENT_SPACE;
    cap = cap < 2048 ? 4096 : (cap > limit / 2 ? limit : cap * 2);
    if (cap > limit) cap = limit;
    uint8_t *tmp = desert_mem_alloc(a, cap);
    if (!tmp) {
      desert_r_fail(r, DESERT_E_NOMEM, h->data_at);
      return LIBDEFLATE_BAD_DATA;
    }
    lr = fn(d, h->data, h->csize, tmp, cap, NULL, &actual);
    if (lr == LIBDEFLATE_SUCCESS) {
      size_t n = actual < keep ? actual : keep;
      uint8_t *out = desert_arena_alloc(&r->arena, n, 1);
      if (out && n) memcpy(out, tmp, n);
      desert_mem_free(a, tmp, cap);
      if (!out) {
        desert_r_fail(r, DESERT_E_NOMEM, h->data_at);
        return LIBDEFLATE_BAD_DATA;
      }
      *res = out;
      *len = actual;
      return lr;
    }
    desert_mem_free(a, tmp, cap);
    if (lr != LIBDEFLATE_INSUFFICIENT_SPACE) return lr;
  }
}

static desert_status read_raw_block(desert_reader *r, desert_bytes *out) {
  block_hdr h;
  h.plain_at = r->pos;
  if (desert_r_var_u32(r, &h.plain)) return r->status;
  if (read_rest(r, &h)) return r->status;
  /* The plain length is only a capacity hint (docs/schema.md §12). */
  const size_t bound = inflate_bound(h.csize);
  const size_t limit = bound < r->opt.max_decompressed ? bound : r->opt.max_decompressed;
  size_t first = first_capacity(h.plain, h.csize, limit);
  uint8_t *dst = desert_arena_alloc(&r->arena, first, 1);
  if (!dst) return desert_r_fail(r, DESERT_E_NOMEM, h.data_at);
  uint8_t *res;
  size_t len;
  enum libdeflate_result lr = inflate_grow(r, libdeflate_deflate_decompress_ex, &h, dst, first,
                                           limit, SIZE_MAX, &res, &len);
  if (r->status) return r->status;
  /* Out of room: over max_decompressed is the limit's error; at
   * inflate_bound() no valid stream can want more, so the data is bad. */
  if (lr == LIBDEFLATE_INSUFFICIENT_SPACE)
    return desert_r_fail(r, limit < bound ? DESERT_E_LIMIT : DESERT_E_DECOMPRESSION, h.data_at);
  if (lr != LIBDEFLATE_SUCCESS) return desert_r_fail(r, DESERT_E_DECOMPRESSION, h.data_at);
  /* The plain length was only a hint: give the unused part of the first
   * capacity back, or a run of small blocks announcing large sizes would
   * keep ~4 KiB of arena per few input bytes (found by fuzz_compressed:
   * 1,585 bytes of input held 1 MiB). */
  if (res == dst) desert_arena_shrink_last(&r->arena, dst, first, len);
  out->ptr = res;
  out->len = len;
  return DESERT_OK;
}

/* ---- zlib flavour: java.util.zip.Inflater's result ------------------------- */

/* DEFLATE bits, least significant first, through a 64-bit buffer. */
typedef struct bit_reader {
  const uint8_t *p, *end;
  uint64_t buf;
  unsigned cnt; /* valid bits in buf */
} bit_reader;

static void refill(bit_reader *b) {
  while (b->cnt <= 56 && b->p < b->end) {
    b->buf |= (uint64_t)*b->p++ << b->cnt;
    b->cnt += 8;
  }
}

/* The next k (<= 16) bits, or -1 when the data ends first. */
static int32_t take_bits(bit_reader *b, unsigned k) {
  if (b->cnt < k) refill(b);
  if (b->cnt < k) return -1;
  uint32_t v = (uint32_t)(b->buf & ((1u << k) - 1u));
  b->buf >>= k;
  b->cnt -= k;
  return (int32_t)v;
}

/* The unused part of the code space of a canonical Huffman code (RFC 1951
 * §3.2.2) with these n lengths (0..15), in units of 2^-15: 0 complete,
 * > 0 incomplete or empty, < 0 over-full. */
static int32_t code_space_left(const uint8_t *lens, unsigned n, uint16_t count[16]) {
  memset(count, 0, 16 * sizeof count[0]);
  for (unsigned i = 0; i < n; i++) count[lens[i]]++;
  int32_t left = 1;
  for (unsigned len = 1; len < 16; len++) {
    left = 2 * left - count[len];
    if (left < 0) return left;
  }
  return left;
}

/* Whether the first block of zlib stream s (csize n) has a dynamic header
 * on which zlib may judge differently from libdeflate (see the top of the
 * file): more than 286/30 codes, a code-length code that is not complete,
 * a repeat with nothing to repeat or past the end, a literal/length or
 * distance code that is not complete, no end-of-block code. Stored and
 * fixed blocks have nothing to differ on here. Only called after
 * libdeflate accepted the stream; "true" just sends it to zlib. */
static bool first_header_lax(const uint8_t *s, size_t n) {
  static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  if (n < 3) return true;
  bit_reader b = {s + 2, s + n, 0, 0}; /* after CMF, FLG */
  int32_t type = take_bits(&b, 3);
  if (type < 0) return true;
  if ((type >> 1) != 2) return false;
  int32_t hlit = take_bits(&b, 5), hdist = take_bits(&b, 5), hclen = take_bits(&b, 4);
  if (hclen < 0 || hlit > 29 || hdist > 29) return true;
  unsigned nlen = 257u + (unsigned)hlit, total = nlen + 1u + (unsigned)hdist;
  uint8_t pre[19] = {0};
  for (int32_t i = 0; i < hclen + 4; i++) {
    int32_t v = take_bits(&b, 3);
    if (v < 0) return true;
    pre[order[i]] = (uint8_t)v;
  }
  uint16_t count[16];
  if (code_space_left(pre, 19, count) != 0) return true;
  /* The complete code-length code (lengths <= 7) as a table indexed by the
   * next 7 input bits: codes are assigned in canonical order and stored
   * bit-reversed, as DEFLATE sends them first bit first. */
  uint8_t sym_of[128], len_of[128];
  uint16_t next_code[8] = {0};
  for (unsigned len = 1; len < 8; len++)
    next_code[len] = (uint16_t)((next_code[len - 1] + count[len - 1] * (len > 1)) << 1);
  for (unsigned sym = 0; sym < 19; sym++) {
    unsigned len = pre[sym];
    if (!len) continue;
    unsigned code = next_code[len]++, rev = 0;
    for (unsigned k = 0; k < len; k++) rev |= ((code >> k) & 1u) << (len - 1 - k);
    for (unsigned e = rev; e < 128; e += 1u << len) {
      sym_of[e] = (uint8_t)sym;
      len_of[e] = (uint8_t)len;
    }
  }
  /* total >= 258, so the loop below sets every length it later reads; the
   * zeros only spare the analysers proving that. */
  uint8_t lens[286 + 30] = {0};
  for (unsigned i = 0; i < total;) {
    refill(&b);
    unsigned e = (unsigned)(b.buf & 127u);
    if (len_of[e] > b.cnt) return true;
    unsigned sym = sym_of[e];
    b.buf >>= len_of[e];
    b.cnt -= len_of[e];
    if (sym < 16) {
      lens[i++] = (uint8_t)sym;
      continue;
    }
    if (sym == 16 && i == 0) return true;
    uint8_t val = sym == 16 ? lens[i - 1] : 0;
    int32_t extra = take_bits(&b, sym == 16 ? 2 : (sym == 17 ? 3 : 7));
    if (extra < 0) return true;
    unsigned rep = (unsigned)extra + (sym == 18 ? 11u : 3u);
    if (rep > total - i) return true; /* zlib: "invalid bit length repeat" */
    memset(lens + i, val, rep);
    i += rep;
  }
  return lens[256] == 0 || code_space_left(lens, nlen, count) != 0 ||
         code_space_left(lens + nlen, total - nlen, count) != 0;
}

/* zlib allocates through the context allocator, reusing the size-carrying
 * callbacks made for zstd (zlib's free does not pass the size either). */
static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size) {
  const ZSTD_customMem *m = opaque;
  if (size && items > SIZE_MAX / size) return Z_NULL;
  return m->customAlloc(m->opaque, (size_t)items * size);
}

static void zlib_free(voidpf opaque, voidpf p) {
  const ZSTD_customMem *m = opaque;
  m->customFree(m->opaque, p);
}

/* The result Java returns: the len inflated bytes at src zero-padded to
 * the announced length. src is padded in place when it lies in the arena
 * with room for the announced length (in_place), else copied. Padding is
 * not data, so lying headers may not make memory out of nothing: at most
 * 64 KiB + 8 bytes per input byte of it in one message, all blocks
 * together. (A budget per block let 30,000 bytes of 6-byte blocks, each
 * announcing 64 KiB, take 377 MB.) */
static desert_status pad_result(desert_reader *r, const block_hdr *h, uint8_t *src, size_t len,
                                bool in_place, desert_bytes *out) {
  uint8_t *res = src;
  if (len < h->plain) {
    const size_t budget = (r->len > (SIZE_MAX - 65536) / 8) ? SIZE_MAX : 8 * r->len + 65536;
    const size_t pad = h->plain - len;
    if (r->zlib_padding > budget || pad > budget - r->zlib_padding)
      return desert_r_fail(r, DESERT_E_LIMIT, h->plain_at);
    if (!in_place) {
      res = desert_arena_alloc(&r->arena, h->plain, 1);
      if (!res) return desert_r_fail(r, DESERT_E_NOMEM, h->data_at);
      if (len) memcpy(res, src, len);
    }
    memset(res + len, 0, pad);
    r->zlib_padding += pad; /* (<= budget: no overflow) */
  } else if (!in_place) {
    res = desert_arena_alloc(&r->arena, h->plain, 1);
    if (!res) return desert_r_fail(r, DESERT_E_NOMEM, h->data_at);
    memcpy(res, src, h->plain);
  }
  out->ptr = res;
  out->len = h->plain;
  return DESERT_OK;
}

/* Replaces *buf (cap bytes, `used` of them filled) by a buffer of ncap
 * bytes from the context allocator holding the same first bytes. */
static bool grow_buffer(const desert_allocator *a, uint8_t **buf, size_t *cap, size_t used,
                        size_t ncap) {
  uint8_t *p = desert_mem_alloc(a, ncap);
  if (!p) return false;
  if (used) memcpy(p, *buf, used);
  desert_mem_free(a, *buf, *cap);
  *buf = p;
  *cap = ncap;
  return true;
}

/* The exact Inflater verdict for a block libdeflate refused. Java calls
 * zlib's inflate() once with all `csize` bytes and `plain` bytes of room;
 * here the room is handed over in growing pieces (first `cap` bytes, then
 * doubling up to `plain`), which zlib decodes identically -- it only ever
 * stops early to wait for room -- while memory follows the real output,
 * not the announced length. The flush mode only matters to zlib for
 * Z_BLOCK/Z_TREES/Z_FINISH, so Z_NO_FLUSH decodes as Java's
 * Z_PARTIAL_FLUSH does. Outcomes:
 *   Z_STREAM_END: complete (the rest of the block is ignored);
 *   Z_NEED_DICT: the header asks for a preset dictionary, which Scala never
 *     supplies: Inflater returns 0 bytes, so the result is all zeros;
 *   room left after a call: the input ran out (incomplete) -- keep what came;
 *   no room left at `plain` bytes: Java's buffer is full -- keep it;
 *   Z_DATA_ERROR: a corrupt stream (DataFormatException). */
static desert_status read_zlib_slow(desert_reader *r, const block_hdr *h, size_t cap,
                                    desert_bytes *out) {
  ZSTD_customMem mem = desert_zstd_mem(&r->opt.allocator);
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (mem.customAlloc) {
    zs.zalloc = zlib_alloc;
    zs.zfree = zlib_free;
    zs.opaque = &mem;
  }
  if (inflateInit(&zs) != Z_OK) return desert_r_fail(r, DESERT_E_NOMEM, h->data_at);
  const desert_allocator *a = &r->opt.allocator;
  uint8_t *buf = NULL;
  size_t bufcap = 0, got = 0;
  desert_status st = DESERT_OK;
  zs.next_in = h->data;
  zs.avail_in = (uInt)h->csize; /* csize came from a var_u32 */
  for (;;) {
    if (got == bufcap) {
      size_t ncap = !bufcap ? cap : (bufcap > h->plain / 2 ? h->plain : bufcap * 2);
      if (!grow_buffer(a, &buf, &bufcap, got, ncap)) {
        st = DESERT_E_NOMEM;
        break;
      }
    }
    zs.next_out = buf + got;
    zs.avail_out = (uInt)(bufcap - got); /* <= plain, a var_u32 */
    int zr = inflate(&zs, Z_NO_FLUSH);
    got = bufcap - zs.avail_out;
    if (zr == Z_STREAM_END || zr == Z_NEED_DICT) break;
    if (zr == Z_MEM_ERROR) {
      st = DESERT_E_NOMEM;
      break;
    }
    if (zr != Z_OK && zr != Z_BUF_ERROR) { /* Z_DATA_ERROR */
      st = DESERT_E_ZLIB_BLOCK;
      break;
    }
    if (zs.avail_out > 0 || got == h->plain) break;
  }
  inflateEnd(&zs);
  if (!st) st = pad_result(r, h, buf, got, false, out);
  else desert_r_fail(r, st, h->data_at);
  desert_mem_free(a, buf, bufcap);
  return st;
}

static desert_status read_zlib_block(desert_reader *r, desert_bytes *out) {
  block_hdr h;
  h.plain_at = r->pos;
  if (desert_r_var_u32(r, &h.plain)) return r->status;
  if (h.plain == 0) { /* Scala: empty array, nothing more is read */
    out->ptr = (const uint8_t *)"";
    out->len = 0;
    return DESERT_OK;
  }
  if (read_rest(r, &h)) return r->status;
  /* Fast path: libdeflate with room for at most the announced length (the
   * first piece trusted only up to a multiple of the block, see
   * first_capacity). Its success is a complete, valid stream no longer
   * than announced, whose output is exactly Java's before the padding. */
  size_t first = first_capacity(h.plain, h.csize, h.plain);
  uint8_t *dst = desert_arena_alloc(&r->arena, first, 1);
  if (!dst) return desert_r_fail(r, DESERT_E_NOMEM, h.data_at);
  uint8_t *res;
  size_t len;
  enum libdeflate_result lr =
      inflate_grow(r, libdeflate_zlib_decompress_ex, &h, dst, first, h.plain, h.plain, &res, &len);
  if (r->status) return r->status;
  if (lr == LIBDEFLATE_SUCCESS && !first_header_lax(h.data, h.csize))
    return pad_result(r, &h, res, len, res == dst && first >= h.plain, out);
  /* Refused (incomplete, corrupt, longer than announced, or a preset
   * dictionary) or accepted on a header zlib may refuse: the first piece
   * goes back and zlib decides. */
  desert_arena_shrink_last(&r->arena, dst, first, 0);
  return read_zlib_slow(r, &h, first, out);
}

/* Counts a block's output (reader_internal.h, `inflated`). */
static void note_inflated(desert_reader *r, size_t n) {
  r->inflated = r->inflated > SIZE_MAX - n ? SIZE_MAX : r->inflated + n;
}

desert_status desert_read_compressed(desert_reader *r, desert_compression flavour,
                                     desert_bytes *out) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!out || (flavour != DESERT_COMPRESSION_RAW && flavour != DESERT_COMPRESSION_ZLIB))
    return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  desert_status st =
      flavour == DESERT_COMPRESSION_ZLIB ? read_zlib_block(r, out) : read_raw_block(r, out);
  if (st == DESERT_OK) note_inflated(r, out->len);
  return st;
}

desert_status desert_read_compressed_zstd(desert_reader *r, desert_bytes *out) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!out) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  block_hdr h;
  h.plain_at = r->pos;
  if (desert_r_var_u32(r, &h.plain)) return r->status;
  if (read_rest(r, &h)) return r->status;
  /* Exactly one frame filling the block, announcing the plain length. */
  size_t fsize = ZSTD_findFrameCompressedSize(h.data, h.csize);
  if (ZSTD_isError(fsize) || fsize != h.csize ||
      ZSTD_getFrameContentSize(h.data, h.csize) != (unsigned long long)h.plain)
    return desert_r_fail(r, DESERT_E_DECOMPRESSION, h.data_at);
  if (!r->zstd_d) {
    r->zstd_d = ZSTD_createDCtx_advanced(desert_zstd_mem(&r->opt.allocator));
    if (!r->zstd_d) return desert_r_fail(r, DESERT_E_NOMEM, h.data_at);
  }
  /* The frame header's size is not trusted for the allocation: start at a
   * small multiple of the compressed size and double while zstd reports
   * dstSize_tooSmall (single-shot decoding allocates no window, and a
   * retry costs at most the work already done). Temporary buffers come
   * from the context allocator; the result is copied into the arena. */
  const desert_allocator *a = &r->opt.allocator;
  size_t cap = first_capacity(h.plain, h.csize, h.plain);
  uint8_t *buf = NULL;
  size_t got;
  for (;;) {
    buf = desert_mem_alloc(a, cap ? cap : 1);
    if (!buf) return desert_r_fail(r, DESERT_E_NOMEM, h.data_at);
    got = ZSTD_decompressDCtx(r->zstd_d, buf, cap, h.data, h.csize);
    if (!ZSTD_isError(got) || ZSTD_getErrorCode(got) != ZSTD_error_dstSize_tooSmall ||
        cap >= h.plain)
      break;
    desert_mem_free(a, buf, cap ? cap : 1);
    cap = cap > h.plain / 2 ? h.plain : cap * 2;
  }
  desert_status st = DESERT_OK;
  if (ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_memory_allocation)
    st = DESERT_E_NOMEM;
  else if (ZSTD_isError(got) || got != h.plain)
    st = DESERT_E_DECOMPRESSION;
  uint8_t *dst = NULL;
  if (!st) {
    dst = desert_arena_alloc(&r->arena, h.plain, 1);
    if (!dst) st = DESERT_E_NOMEM;
    else if (got) memcpy(dst, buf, got);
  }
  desert_mem_free(a, buf, cap ? cap : 1);
  if (st) return desert_r_fail(r, st, h.data_at);
  out->ptr = dst;
  out->len = got;
  note_inflated(r, got);
  return DESERT_OK;
}
