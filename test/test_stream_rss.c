/* test/test_stream_rss.c — bounded memory (issue 15): >= 1 GiB of desert
 * data generated on the fly goes through a streaming writer into a pipe
 * buffer that a streaming reader's source drains, element by element, and
 * the process's peak RSS (getrusage) must stay <= 64 MiB. Every element is
 * checked against its generator, and the element count and byte count at
 * the end.
 *
 * Under sanitizers (ASan's shadow memory and quarantine dominate RSS) the
 * stream is 64 MiB and the RSS bound is not asserted; the output says so.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "desert/stream.h"
#include "test_util.h"

#ifdef DESERT_RSS_SANITIZED
#define STREAM_BYTES ((uint64_t)64 << 20)
#else
#define STREAM_BYTES ((uint64_t)1 << 30)
#endif
#define RSS_LIMIT_KIB (64u * 1024u)
#define BATCH 256u

static const char *const names[4] = {"north", "south", "east", "west"};
static char text[1024]; /* element strings are slices of this */

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/* Element i: (var_i32 i, dedup name, string of 100..611 bytes, u64). */
static void elem_text(uint32_t i, size_t *off, size_t *len) {
  uint64_t h = mix(i);
  *off = (size_t)(h % 400);
  *len = 100 + (size_t)((h >> 16) % 512);
}

typedef struct pipe {
  uint8_t *data;
  size_t len, pos, cap;
  desert_writer *w;
  uint32_t next; /* next element to generate */
  uint64_t written;
  int done;
} pipe;

static int pipe_sink(void *ctx, const void *buf, size_t n) {
  pipe *p = ctx;
  if (p->len + n > p->cap) {
    /* Only unread bytes are kept: compact first, then grow if needed. */
    if (p->pos) {
      memmove(p->data, p->data + p->pos, p->len - p->pos);
      p->len -= p->pos;
      p->pos = 0;
    }
    if (p->len + n > p->cap) {
      size_t nc = p->cap ? p->cap : 1 << 16;
      while (nc < p->len + n) nc *= 2;
      uint8_t *nd = realloc(p->data, nc);
      if (!nd) return -1;
      p->data = nd;
      p->cap = nc;
    }
  }
  memcpy(p->data + p->len, buf, n);
  p->len += n;
  return 0;
}

/* Generates the next batch through the streaming writer when the pipe is
 * empty; the collection ends once STREAM_BYTES were written. */
static void generate(pipe *p) {
  desert_writer *w = p->w;
  if (p->next == 0) desert_write_stream_begin(w);
  for (unsigned k = 0; k < BATCH; k++) {
    uint32_t i = p->next++;
    size_t off, len;
    elem_text(i, &off, &len);
    desert_write_stream_item(w);
    desert_write_var_i32(w, (int32_t)i);
    desert_write_dedup_string(w, names[i % 4], strlen(names[i % 4]));
    desert_write_string(w, text + off, len);
    desert_write_u64(w, mix(i + 1));
  }
  if (desert_writer_stream_offset(w) >= STREAM_BYTES) {
    desert_write_stream_end(w);
    p->done = 1;
  }
  desert_writer_flush(w);
  p->written = desert_writer_stream_offset(w);
}

static ptrdiff_t pipe_read(void *ctx, void *buf, size_t cap) {
  pipe *p = ctx;
  while (p->pos == p->len) {
    if (p->done) return 0;
    generate(p);
    if (desert_writer_status(p->w)) return -1;
  }
  size_t n = p->len - p->pos < cap ? p->len - p->pos : cap;
  memcpy(buf, p->data + p->pos, n);
  p->pos += n;
  return (ptrdiff_t)n;
}

static void test_stream_1gib_bounded(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof text; k++) text[k] = (char)(' ' + (k * 7 + k / 13) % 95);
  pipe p;
  memset(&p, 0, sizeof p);
  assert_int_equal(desert_writer_create(NULL, &p.w), DESERT_OK);
  desert_sink sink = {pipe_sink, &p};
  assert_int_equal(desert_writer_begin_stream(p.w, sink, 0), DESERT_OK);
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  desert_source src = {pipe_read, &p};
  assert_int_equal(desert_reader_begin_stream(r, src, 0), DESERT_OK);
  desert_seq seq;
  assert_int_equal(desert_read_seq_begin(r, &seq), DESERT_OK);
  assert_false(seq.known);
  uint32_t i = 0;
  uint64_t sum = 0, want_sum = 0;
  while (desert_read_seq_next(r, &seq)) {
    int32_t id;
    desert_str name, s;
    uint64_t v;
    desert_read_var_i32(r, &id);
    desert_read_dedup_string(r, &name);
    desert_read_string(r, &s);
    if (desert_read_u64(r, &v)) break;
    size_t off, len;
    elem_text(i, &off, &len);
    if (id != (int32_t)i || name.len != strlen(names[i % 4]) ||
        memcmp(name.ptr, names[i % 4], name.len) != 0 || s.len != len ||
        memcmp(s.ptr, text + off, len) != 0)
      fail_msg("element %u differs", i);
    sum += v;
    want_sum += mix(i + 1);
    i++;
    desert_reader_mark(r);
  }
  if (desert_reader_status(r))
    fail_msg("%s at %zu", desert_status_name(desert_reader_status(r)),
             desert_reader_error_offset(r));
  assert_int_equal(i, p.next);
  assert_true(sum == want_sum);
  assert_true(desert_reader_at_end(r));
  assert_true((uint64_t)desert_reader_offset(r) == p.written);
  assert_true(p.written >= STREAM_BYTES);
  struct rusage ru;
  assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
  fprintf(stderr, "streamed %llu bytes, %u elements; peak RSS %ld KiB\n",
          (unsigned long long)p.written, i, ru.ru_maxrss);
#ifdef DESERT_RSS_SANITIZED
  fprintf(stderr, "sanitizer build: 64 MiB stream, RSS bound NOT asserted\n");
#else
  if (ru.ru_maxrss > (long)RSS_LIMIT_KIB)
    fail_msg("peak RSS %ld KiB above %u KiB", ru.ru_maxrss, RSS_LIMIT_KIB);
#endif
  desert_reader_free(r);
  desert_writer_free(p.w);
  free(p.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_stream_1gib_bounded)};
  return cmocka_run_group_tests_name("stream_rss", tests, NULL, NULL);
}
