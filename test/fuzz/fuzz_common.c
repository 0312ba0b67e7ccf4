/* test/fuzz/fuzz_common.c — shared helpers of the libFuzzer harnesses (see
 * fuzz_common.h): input cursor, aborting checks, the counting allocator
 * behind every harness reader and the memory bound it enforces.
 * SPDX-License-Identifier: MIT */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reader_internal.h" /* inflated, zlib_padding: the d of the memory bound */

/* ---- checks ------------------------------------------------------------------ */

void fz_fail(const char *file, int line, const char *what, const char *fmt, ...) {
  fprintf(stderr, "fuzz check failed: %s:%d: %s", file, line, what);
  if (fmt && *fmt) {
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (buf[0]) fprintf(stderr, " -- %s", buf);
  }
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

/* ---- input cursor --------------------------------------------------------------- */

uint8_t fz_u8(fz_in *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}

uint16_t fz_u16(fz_in *in) {
  uint16_t hi = fz_u8(in);
  return (uint16_t)((unsigned)hi << 8 | fz_u8(in));
}

uint32_t fz_u32(fz_in *in) {
  uint32_t hi = fz_u16(in);
  return hi << 16 | fz_u16(in);
}

uint64_t fz_u64(fz_in *in) {
  uint64_t hi = fz_u32(in);
  return hi << 32 | fz_u32(in);
}

const uint8_t *fz_bytes(fz_in *in, size_t n, size_t *got) {
  if (n > in->n) n = in->n;
  const uint8_t *p = in->p;
  in->p += n;
  in->n -= n;
  *got = n;
  return p;
}

/* ---- counting allocator ------------------------------------------------------------
 * Each block has a 16-byte header holding its size and a tag, so a free with
 * a wrong size or a foreign pointer is caught. Every counted reader has its
 * own counter (the allocator's opaque pointer). */

#define FZ_HDR ((size_t)16)
#define FZ_TAG UINT64_C(0x6465736572746675) /* "desertfu" */
#define FZ_SLOTS 8

typedef struct fz_counter {
  size_t live, blocks, peak, len;
} fz_counter;

static struct {
  desert_reader *r;
  fz_counter c;
} slots[FZ_SLOTS];
static size_t last_peak;
fz_mem_stats fz_stats;
int fz_enforce_bound = 1;

static void *count_alloc(void *opaque, size_t size) {
  fz_counter *c = opaque;
  if (size > SIZE_MAX - FZ_HDR) return NULL;
  uint8_t *p = malloc(size + FZ_HDR);
  if (!p) return NULL;
  uint64_t tag = FZ_TAG;
  memcpy(p, &size, sizeof size);
  memcpy(p + 8, &tag, sizeof tag);
  c->live += size;
  c->blocks++;
  if (c->live > c->peak) c->peak = c->live;
  return p + FZ_HDR;
}

static void count_free(void *opaque, void *ptr, size_t size) {
  fz_counter *c = opaque;
  if (!ptr) return;
  uint8_t *p = (uint8_t *)ptr - FZ_HDR;
  size_t had;
  uint64_t tag;
  memcpy(&had, p, sizeof had);
  memcpy(&tag, p + 8, sizeof tag);
  FZ_CHECK_MSG(tag == FZ_TAG, "free of a block the allocator did not hand out");
  FZ_CHECK_MSG(had == size, "free with size %zu of a block of %zu bytes", size, had);
  FZ_CHECK(c->blocks > 0 && c->live >= size);
  c->live -= size;
  c->blocks--;
  memset(p + 8, 0, 8);
  free(p);
}

unsigned fz_flags_from(uint8_t b) {
  unsigned f = 0;
  if (b & 1u) f |= DESERT_OPT_SCALA_CHARS;
  if (b & 2u) f |= DESERT_OPT_LENIENT_UTF8;
  if (b & 4u) f |= DESERT_OPT_LENIENT_TAGS;
  if (b & 8u) f |= DESERT_OPT_LENIENT_VARINT;
  return f;
}

void fz_options(desert_options *o, unsigned flags) {
  desert_options_init(o);
  o->allocator.alloc = count_alloc;
  o->allocator.free = count_free;
  o->allocator.opaque = NULL; /* set per reader by fz_reader_new */
  o->flags = flags;
}

static fz_counter *counter_of(const desert_reader *r) {
  for (size_t i = 0; i < FZ_SLOTS; i++)
    if (slots[i].r == r) return &slots[i].c;
  fz_fail(__FILE__, __LINE__, "counted reader", "reader not made by fz_reader_new");
}

desert_reader *fz_reader_new(const desert_options *o) {
  size_t i;
  for (i = 0; i < FZ_SLOTS; i++)
    if (!slots[i].r) break;
  FZ_CHECK_MSG(i < FZ_SLOTS, "too many counted readers alive");
  memset(&slots[i].c, 0, sizeof slots[i].c);
  desert_options oo = *o;
  oo.allocator.alloc = count_alloc;
  oo.allocator.free = count_free;
  oo.allocator.opaque = &slots[i].c;
  desert_reader *r = NULL;
  desert_status st = desert_reader_create(&oo, &r);
  FZ_CHECK_MSG(st == DESERT_OK && r, "desert_reader_create: %s", desert_status_name(st));
  slots[i].r = r;
  return r;
}

void fz_decode_begin(desert_reader *r, const void *data, size_t len) {
  fz_counter *c = counter_of(r);
  FZ_CHECK(desert_reader_begin(r, data, len) == DESERT_OK);
  FZ_CHECK(desert_reader_status(r) == DESERT_OK);
  FZ_CHECK(desert_reader_offset(r) == 0);
  FZ_CHECK(desert_reader_remaining(r) == len);
  c->len = len;
  c->peak = c->live; /* what the reader kept from earlier messages counts too */
}

size_t fz_bound(size_t n, size_t d) {
  size_t b = FZ_BOUND_CONST;
  b += n > SIZE_MAX / FZ_BOUND_PER_BYTE / 4 ? SIZE_MAX / 4 : n * FZ_BOUND_PER_BYTE;
  b += d > SIZE_MAX / FZ_BOUND_PER_PLAIN / 4 ? SIZE_MAX / 4 : d * FZ_BOUND_PER_PLAIN;
  return b;
}

size_t fz_last_peak(void) { return last_peak; }

desert_status fz_decode_end(desert_reader *r) {
  fz_counter *c = counter_of(r);
  size_t cur_len = c->len;
  desert_status st = desert_reader_status(r);
  size_t eo = desert_reader_error_offset(r);
  size_t pos = desert_reader_offset(r);
  FZ_CHECK_MSG((unsigned)st < (unsigned)DESERT_STATUS_COUNT_, "status %d", (int)st);
  /* Hostile input may only produce format, limit or memory errors. */
  FZ_CHECK_MSG(st != DESERT_E_ARGUMENT && st != DESERT_E_STATE && st != DESERT_E_DST_TOO_SMALL &&
                   st != DESERT_E_ISA_UNAVAILABLE,
               "API error %s from input data (offset %zu)", desert_status_name(st), eo);
  FZ_CHECK_MSG(pos <= cur_len, "position %zu past the input (%zu bytes)", pos, cur_len);
  if (st != DESERT_OK)
    FZ_CHECK_MSG(eo <= cur_len, "%s at offset %zu past the input (%zu bytes)",
                 desert_status_name(st), eo, cur_len);
  FZ_CHECK(strcmp(desert_status_name(st), "DESERT_E_UNKNOWN") != 0);

  /* d: the reader's own count of what its blocks inflated to, without the
   * zlib zero padding (which the bound's other terms must cover). */
  FZ_CHECK_MSG(r->inflated >= r->zlib_padding, "%zu bytes inflated, %zu of them padding",
               r->inflated, r->zlib_padding);
  size_t peak = c->peak, plain = r->inflated - r->zlib_padding;
  last_peak = peak;
  fz_stats.decodes++;
  size_t bound = fz_bound(cur_len, plain);
  if (peak > fz_stats.worst_peak) {
    fz_stats.worst_peak = peak;
    fz_stats.worst_peak_n = cur_len;
  }
  size_t fixed = FZ_BOUND_CONST + plain * FZ_BOUND_PER_PLAIN;
  if (cur_len && peak > fixed) {
    double ratio = (double)(peak - fixed) / (double)cur_len;
    if (ratio > fz_stats.worst_ratio) {
      fz_stats.worst_ratio = ratio;
      fz_stats.worst_ratio_n = cur_len;
    }
  }
  static int no_bound = -1;
  if (no_bound < 0) {
    const char *e = getenv("DESERT_FUZZ_NO_BOUND");
    no_bound = e && strcmp(e, "1") == 0;
  }
  if (peak > bound) {
    if (peak - bound > fz_stats.worst_excess) fz_stats.worst_excess = peak - bound;
    if (fz_enforce_bound && !no_bound)
      fz_fail(__FILE__, __LINE__, "peak <= bound",
              "decoding %zu bytes (%zu decompressed) allocated a peak of %zu bytes, bound %zu "
              "(status %s)",
              cur_len, plain, peak, bound, desert_status_name(st));
  }
  return st;
}

void fz_reader_free(desert_reader *r) {
  fz_counter *c = counter_of(r);
  desert_reader_free(r);
  FZ_CHECK_MSG(c->blocks == 0 && c->live == 0, "reader leaked %zu blocks (%zu bytes)", c->blocks,
               c->live);
  for (size_t i = 0; i < FZ_SLOTS; i++)
    if (slots[i].r == r) slots[i].r = NULL;
}

/* ---- misc ------------------------------------------------------------------------ */

bool fz_utf8_ok(const uint8_t *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    uint8_t b = s[i];
    size_t need;
    uint32_t cp, min;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1, cp = b & 0x1fu, min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2, cp = b & 0x0fu, min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3, cp = b & 0x07u, min = 0x10000;
    } else {
      return false;
    }
    if (len - i - 1 < need) return false;
    for (size_t k = 1; k <= need; k++) {
      uint8_t c = s[i + k];
      if ((c & 0xc0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

bool fz_inside(const void *p, size_t len, const void *base, size_t n) {
  uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
  if (len == 0) return true;
  return a >= b && a - b <= n && n - (a - b) >= len;
}
