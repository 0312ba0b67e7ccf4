/* bench/bench_oplog_desert.c — desert-rust's headline benchmark through
 * libdesert: 10,000 oplog entries (bench_oplog_model.h) per op, through the
 * public API `desert gen-c` generated from golden/oplog.schema.json
 * (bench_oplog_encode_OplogEntry / bench_oplog_decode_OplogEntry), at
 * payload sizes 16, 256 and 1024.
 *
 * Rows codec/oplog_p<payload>_<op>/desert/<isa>, one op = one pass over all
 * entries, every message of the pass kept until the next op (desert-rust
 * keeps its Vec<u8>s and decoded values; what the pass allocated is
 * released inside the next op, as criterion drops the routine's output
 * inside its timed loop):
 *   serialize          per entry a writer built in row-owned storage
 *                      (desert_writer_init, the one-shot form), the bytes
 *                      copied into a malloc'd buffer of their exact size;
 *   serialize_detach   one writer in row-owned storage for the pass, each
 *                      message taken out with desert_writer_detach (copied
 *                      at its exact size while it fits the storage, its
 *                      grown buffer handed over once it does not);
 *   serialize_heap     per entry desert_writer_create, the writer kept: its
 *                      own buffer is the message (freed next op);
 *   serialize_reused   one writer reset per entry, the bytes copied into a
 *                      malloc'd buffer per entry;
 *   deserialize        one reader with an output arena
 *                      (desert_reader_set_output_arena), reset per op: the
 *                      decoded structs' arrays live in the arena, strings
 *                      and byte blocks are views into the kept input
 *                      messages, all 10,000 values alive together;
 *   deserialize_readers the same with one reader per entry (created in
 *                      setup, begun per op), each holding its entry's
 *                      arrays: the form before output arenas;
 *   deserialize_copy   one reader, each decoded entry deep-copied (arrays,
 *                      strings and bytes) into a row arena, rewound per op:
 *                      owned values independent of the input;
 *   stream_serialize   all entries through one streaming writer
 *                      (desert/stream.h) into a memory sink;
 *   stream_deserialize those bytes back through a streaming reader over a
 *                      memory source, desert_reader_mark after each entry,
 *                      each entry deep-copied into the row arena (views die
 *                      at the mark).
 * Verified before timing: every message decodes completely back to the
 * generated entry; the stream equals the concatenated messages.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_oplog_model.h"
#include "bench_oplog_rows.h"
#include "desert.h"
#include "desert/stream.h"

enum {
  OD_SER,
  OD_SER_DETACH,
  OD_SER_HEAP,
  OD_SER_REUSED,
  OD_DE,
  OD_DE_READERS,
  OD_DE_COPY,
  OD_STREAM_SER,
  OD_STREAM_DE
};

typedef struct od_mem {
  uint8_t *buf;
  size_t len, cap, pos;
} od_mem;

typedef struct od_state {
  int mode;
  oplog_data d;
  desert_options opt;
  size_t total;            /* bytes of the n messages */
  uint8_t **msg;           /* messages: the serialize rows' output, the deserialize rows' input */
  size_t *len;
  desert_writer **ws;      /* serialize_heap: the writers kept as messages */
  desert_writer *w;        /* serialize_reused, stream_serialize */
  desert_reader **rs;      /* deserialize_readers: one reader per entry */
  desert_reader *r;        /* deserialize, deserialize_copy, stream_deserialize */
  desert_decode_arena *da; /* deserialize: r's output arena */
  bench_oplog_OplogEntry *dec;
  oplog_arena out;         /* copies of the _copy and stream rows */
  od_mem stream;           /* the stream's bytes */
  desert_writer_storage wst; /* serialize: the per-entry writer's storage */
} od_state;

static void od_free_msgs(od_state *s) {
  if (s->msg)
    for (size_t i = 0; i < s->d.n; i++) {
      free(s->msg[i]);
      s->msg[i] = NULL;
    }
  if (s->ws)
    for (size_t i = 0; i < s->d.n; i++) {
      desert_writer_free(s->ws[i]);
      s->ws[i] = NULL;
    }
}

static void od_teardown(void *p) {
  od_state *s = p;
  if (!s) return;
  od_free_msgs(s);
  if (s->rs)
    for (size_t i = 0; i < s->d.n; i++) desert_reader_free(s->rs[i]);
  free(s->rs);
  free(s->ws);
  free(s->msg);
  free(s->len);
  free(s->dec);
  desert_writer_free(s->w);
  desert_reader_free(s->r); /* before its output arena */
  desert_decode_arena_free(s->da);
  oplog_arena_free(&s->out);
  free(s->stream.buf);
  oplog_data_free(&s->d);
  free(s);
}

static int od_sink(void *ctx, const void *buf, size_t n) {
  od_mem *m = ctx;
  if (m->cap - m->len < n) {
    size_t cap = m->cap ? m->cap : 1 << 16;
    while (cap - m->len < n) cap *= 2;
    uint8_t *b = realloc(m->buf, cap);
    if (!b) return 1;
    m->buf = b;
    m->cap = cap;
  }
  memcpy(m->buf + m->len, buf, n);
  m->len += n;
  return 0;
}

static ptrdiff_t od_source(void *ctx, void *buf, size_t cap) {
  od_mem *m = ctx;
  size_t k = m->len - m->pos;
  if (k > cap) k = cap;
  memcpy(buf, m->buf + m->pos, k);
  m->pos += k;
  return (ptrdiff_t)k;
}

/* Encodes every entry with one reused writer into malloc'd messages. */
static int od_encode_all(od_state *s, desert_writer *w) {
  s->total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    desert_writer_reset(w);
    if (bench_oplog_encode_OplogEntry(w, &s->d.entries[i])) return -1;
    size_t len;
    const uint8_t *data = desert_writer_data(w, &len);
    free(s->msg[i]);
    if (!(s->msg[i] = malloc(len ? len : 1))) return -1;
    memcpy(s->msg[i], data, len);
    s->len[i] = len;
    s->total += len;
  }
  return 0;
}

static void *od_setup(int mode, desert_isa isa, size_t payload, codec_info *info) {
  od_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->mode = mode;
  oplog_arena_init(&s->out);
  codec_options(&s->opt, isa, 0);
  if (oplog_data_generate(&s->d, payload)) goto fail;
  size_t n = s->d.n;
  s->msg = calloc(n, sizeof *s->msg);
  s->len = calloc(n, sizeof *s->len);
  s->dec = calloc(n, sizeof *s->dec);
  if (!s->msg || !s->len || !s->dec) goto fail;
  if (desert_writer_create(&s->opt, &s->w) || desert_reader_create(&s->opt, &s->r)) {
    snprintf(info->fail, sizeof info->fail, "oplog: cannot create contexts for ISA %s",
             desert_isa_name(isa));
    goto fail;
  }
  if (od_encode_all(s, s->w)) {
    snprintf(info->fail, sizeof info->fail, "oplog: the generated entries do not encode: %s",
             desert_status_name(desert_writer_status(s->w)));
    goto fail;
  }
  if (mode == OD_SER_HEAP && !(s->ws = calloc(n, sizeof *s->ws))) goto fail;
  if (mode == OD_SER || mode == OD_SER_DETACH || mode == OD_SER_HEAP)
    od_free_msgs(s); /* the op makes them */
  if (mode == OD_DE) {
    if (desert_decode_arena_create(NULL, &s->da) || desert_reader_set_output_arena(s->r, s->da))
      goto fail;
  }
  if (mode == OD_DE_READERS) {
    if (!(s->rs = calloc(n, sizeof *s->rs))) goto fail;
    for (size_t i = 0; i < n; i++)
      if (desert_reader_create(&s->opt, &s->rs[i])) goto fail;
  }
  if (mode == OD_STREAM_DE) {
    for (size_t i = 0; i < n; i++)
      if (od_sink(&s->stream, s->msg[i], s->len[i])) goto fail;
  }
  info->bytes_per_op = s->total;
  info->items_per_op = n;
  return s;
fail:
  od_teardown(s);
  return NULL;
}

/* ---- ops ---------------------------------------------------------------------------- */

static uint64_t od_ser(od_state *s) {
  od_free_msgs(s);
  size_t total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    desert_writer *w;
    if (desert_writer_init(&s->wst, sizeof s->wst, &s->opt, &w)) return 0;
    if (bench_oplog_encode_OplogEntry(w, &s->d.entries[i])) {
      desert_writer_free(w);
      return 0;
    }
    size_t len;
    const uint8_t *data = desert_writer_data(w, &len);
    uint8_t *m = malloc(len);
    if (m) memcpy(m, data, len);
    desert_writer_free(w);
    if (!m) return 0;
    s->msg[i] = m;
    s->len[i] = len;
    total += len;
  }
  return total;
}

/* One writer in row-owned storage for the pass, each message detached: a
 * message that fits the storage is copied out at its exact size, one that
 * outgrew it hands its own buffer over (no copy). */
static uint64_t od_ser_detach(od_state *s) {
  od_free_msgs(s);
  desert_writer *w;
  if (desert_writer_init(&s->wst, sizeof s->wst, &s->opt, &w)) return 0;
  size_t total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    desert_buffer b;
    if (bench_oplog_encode_OplogEntry(w, &s->d.entries[i]) || desert_writer_detach(w, &b)) {
      desert_writer_free(w);
      return 0;
    }
    s->msg[i] = b.data; /* the default allocator's memory: free() releases it */
    s->len[i] = b.len;
    total += b.len;
  }
  desert_writer_free(w);
  return total;
}

static uint64_t od_ser_heap(od_state *s) {
  od_free_msgs(s);
  size_t total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    desert_writer *w;
    if (desert_writer_create(&s->opt, &w)) return 0;
    s->ws[i] = w;
    if (bench_oplog_encode_OplogEntry(w, &s->d.entries[i])) return 0;
    total += desert_writer_size(w);
  }
  return total;
}

static uint64_t od_ser_reused(od_state *s) {
  od_free_msgs(s);
  desert_writer *w = s->w;
  size_t total = 0;
  for (size_t i = 0; i < s->d.n; i++) {
    desert_writer_reset(w);
    if (bench_oplog_encode_OplogEntry(w, &s->d.entries[i])) return 0;
    size_t len;
    const uint8_t *data = desert_writer_data(w, &len);
    uint8_t *m = malloc(len);
    if (!m) return 0;
    memcpy(m, data, len);
    s->msg[i] = m;
    s->len[i] = len;
    total += len;
  }
  return total;
}

static uint64_t od_de(od_state *s) {
  desert_reader *r = s->r;
  desert_decode_arena_reset(s->da);
  for (size_t i = 0; i < s->d.n; i++) {
    desert_reader_begin(r, s->msg[i], s->len[i]);
    if (bench_oplog_decode_OplogEntry(r, &s->dec[i])) return 0;
  }
  return oplog_entries_touch(s->dec, s->d.n);
}

static uint64_t od_de_readers(od_state *s) {
  for (size_t i = 0; i < s->d.n; i++) {
    desert_reader *r = s->rs[i];
    desert_reader_begin(r, s->msg[i], s->len[i]);
    if (bench_oplog_decode_OplogEntry(r, &s->dec[i])) return 0;
  }
  return oplog_entries_touch(s->dec, s->d.n);
}

static uint64_t od_de_copy(od_state *s) {
  desert_reader *r = s->r;
  oplog_arena_reset(&s->out);
  for (size_t i = 0; i < s->d.n; i++) {
    bench_oplog_OplogEntry tmp;
    desert_reader_begin(r, s->msg[i], s->len[i]);
    if (bench_oplog_decode_OplogEntry(r, &tmp) || oplog_entry_copy(&s->out, &s->dec[i], &tmp))
      return 0;
  }
  return oplog_entries_touch(s->dec, s->d.n);
}

static uint64_t od_stream_ser(od_state *s) {
  desert_writer *w = s->w;
  s->stream.len = 0;
  desert_sink sink = {od_sink, &s->stream};
  if (desert_writer_begin_stream(w, sink, 0)) return 0;
  for (size_t i = 0; i < s->d.n; i++)
    if (bench_oplog_encode_OplogEntry(w, &s->d.entries[i])) return 0;
  if (desert_writer_flush(w)) return 0;
  return s->stream.len;
}

static uint64_t od_stream_de(od_state *s) {
  desert_reader *r = s->r;
  oplog_arena_reset(&s->out);
  s->stream.pos = 0;
  desert_source src = {od_source, &s->stream};
  if (desert_reader_begin_stream(r, src, 0)) return 0;
  for (size_t i = 0; i < s->d.n; i++) {
    bench_oplog_OplogEntry tmp;
    if (bench_oplog_decode_OplogEntry(r, &tmp) || oplog_entry_copy(&s->out, &s->dec[i], &tmp) ||
        desert_reader_mark(r))
      return 0;
  }
  if (!desert_reader_at_end(r)) return 0;
  return oplog_entries_touch(s->dec, s->d.n);
}

static uint64_t od_run(void *p, size_t i) {
  (void)i;
  od_state *s = p;
  switch (s->mode) {
  case OD_SER: return od_ser(s);
  case OD_SER_DETACH: return od_ser_detach(s);
  case OD_SER_HEAP: return od_ser_heap(s);
  case OD_SER_REUSED: return od_ser_reused(s);
  case OD_DE: return od_de(s);
  case OD_DE_READERS: return od_de_readers(s);
  case OD_DE_COPY: return od_de_copy(s);
  case OD_STREAM_SER: return od_stream_ser(s);
  default: return od_stream_de(s);
  }
}

/* ---- verification ------------------------------------------------------------------- */

/* Every message i decodes completely (a fresh reader) to entry i. */
static int od_check_msgs(od_state *s, const char *what, char *msg, size_t cap) {
  desert_reader *r;
  if (desert_reader_create(&s->opt, &r)) return codec_fail(msg, cap, "%s: no reader", what);
  int bad = 0;
  size_t total = 0;
  for (size_t i = 0; i < s->d.n && !bad; i++) {
    const uint8_t *m = s->msg[i];
    size_t len = s->len[i];
    if (s->mode == OD_SER_HEAP) m = desert_writer_data(s->ws[i], &len);
    if (!m) {
      bad = codec_fail(msg, cap, "%s: message %zu missing", what, i);
      break;
    }
    bench_oplog_OplogEntry e;
    desert_reader_begin(r, m, len);
    desert_status st = bench_oplog_decode_OplogEntry(r, &e);
    if (st || desert_reader_offset(r) != len)
      bad = codec_fail(msg, cap, "%s: message %zu: %s, %zu of %zu bytes consumed", what, i,
                       desert_status_name(st), desert_reader_offset(r), len);
    else if (!oplog_entry_equal(&e, &s->d.entries[i]))
      bad = codec_fail(msg, cap, "%s: message %zu decodes to another entry", what, i);
    total += len;
  }
  if (!bad && total != s->total)
    bad = codec_fail(msg, cap, "%s: %zu bytes in all, the reference encoding has %zu", what, total,
                     s->total);
  desert_reader_free(r);
  return bad;
}

static int od_verify(void *p, char *msg, size_t cap) {
  od_state *s = p;
  /* the serialize rows' messages exist only after an op */
  if (s->mode != OD_SER && s->mode != OD_SER_DETACH && s->mode != OD_SER_HEAP &&
      od_check_msgs(s, "reference encoding", msg, cap))
    return 1;
  uint64_t r = od_run(s, 0);
  switch (s->mode) {
  case OD_SER:
  case OD_SER_DETACH:
  case OD_SER_HEAP:
  case OD_SER_REUSED:
    if (r != s->total) return codec_fail(msg, cap, "serialize op returned %llu", (unsigned long long)r);
    return od_check_msgs(s, "serialize op", msg, cap);
  case OD_STREAM_SER: {
    if (r != s->total) return codec_fail(msg, cap, "stream op wrote %llu bytes", (unsigned long long)r);
    size_t off = 0;
    for (size_t i = 0; i < s->d.n; i++) {
      if (memcmp(s->stream.buf + off, s->msg[i], s->len[i]) != 0)
        return codec_fail(msg, cap, "stream: entry %zu differs from its own message", i);
      off += s->len[i];
    }
    return 0;
  }
  default:
    if (r == 0) return codec_fail(msg, cap, "deserialize op failed");
    return oplog_entries_check("deserialize op", s->dec, s->d.entries, s->d.n, msg, cap);
  }
}

/* ---- --dump-oplog ------------------------------------------------------------------- */

static int put_u32le(FILE *f, size_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

/* The messages of one payload size, written as the serialize rows write
 * them (the generated encoder, one message per entry). */
static int dump_one(const char *dir, size_t payload) {
  char path[4096];
  int k = snprintf(path, sizeof path, "%s/oplog_p%zu.bin", dir, payload);
  if (k < 0 || (size_t)k >= sizeof path) {
    fprintf(stderr, "desert_bench: --dump-oplog: directory name too long\n");
    return -1;
  }
  oplog_data d;
  if (oplog_data_generate(&d, payload)) {
    fprintf(stderr, "desert_bench: --dump-oplog: out of memory\n");
    return -1;
  }
  desert_writer *w = NULL;
  FILE *f = fopen(path, "wb");
  int rc = f && !desert_writer_create(NULL, &w) && d.n <= UINT32_MAX ? put_u32le(f, d.n) : -1;
  size_t total = 0;
  for (size_t i = 0; !rc && i < d.n; i++) {
    desert_writer_reset(w);
    size_t len = 0;
    const uint8_t *m = NULL;
    if (bench_oplog_encode_OplogEntry(w, &d.entries[i]) == DESERT_OK)
      m = desert_writer_data(w, &len);
    rc = m && len <= UINT32_MAX && !put_u32le(f, len) && fwrite(m, 1, len, f) == len ? 0 : -1;
    total += len;
  }
  if (f && fclose(f)) rc = -1;
  if (rc)
    fprintf(stderr, "desert_bench: --dump-oplog: cannot write %s: %s\n", path,
            errno ? strerror(errno) : "encoding failed");
  else
    printf("%s: %zu messages, %zu bytes\n", path, d.n, total);
  desert_writer_free(w);
  oplog_data_free(&d);
  return rc;
}

int bench_oplog_dump(const char *dir) {
  static const size_t payloads[] = {16, 256, 1024};
  for (size_t i = 0; i < sizeof payloads / sizeof payloads[0]; i++) {
    errno = 0;
    if (dump_one(dir, payloads[i])) return -1;
  }
  return 0;
}

/* ---- table -------------------------------------------------------------------------- */

#define OD_SETUP(name, mode)                                                             \
  static void *od_setup_##name(desert_isa isa, size_t payload, codec_info *info) {     \
    return od_setup(mode, isa, payload, info);                                         \
  }
OD_SETUP(ser, OD_SER)
OD_SETUP(ser_detach, OD_SER_DETACH)
OD_SETUP(ser_heap, OD_SER_HEAP)
OD_SETUP(ser_reused, OD_SER_REUSED)
OD_SETUP(de, OD_DE)
OD_SETUP(de_readers, OD_DE_READERS)
OD_SETUP(de_copy, OD_DE_COPY)
OD_SETUP(stream_ser, OD_STREAM_SER)
OD_SETUP(stream_de, OD_STREAM_DE)

// clang-format off
#define OD_ROWS(P)                                                                                 \
  {"oplog_p" #P "_serialize", "desert",                                                            \
   "10,000 oplog entries, payload " #P ": writer in row storage per entry, bytes copied out",      \
   -1, CODEC_FAULTS, 0, P, od_setup_ser, od_verify, od_run, od_teardown, NULL},                    \
  {"oplog_p" #P "_serialize_detach", "desert",                                                     \
   "10,000 oplog entries, payload " #P ": one writer in row storage, each message detached",       \
   -1, CODEC_FAULTS, 0, P, od_setup_ser_detach, od_verify, od_run, od_teardown, NULL},             \
  {"oplog_p" #P "_serialize_heap", "desert",                                                       \
   "10,000 oplog entries, payload " #P ": desert_writer_create per entry, kept as the message",    \
   -1, CODEC_FAULTS, 0, P, od_setup_ser_heap, od_verify, od_run, od_teardown, NULL},               \
  {"oplog_p" #P "_serialize_reused", "desert",                                                     \
   "10,000 oplog entries, payload " #P ": one writer reset per entry, bytes copied out",           \
   -1, CODEC_FAULTS, 0, P, od_setup_ser_reused, od_verify, od_run, od_teardown, NULL},             \
  {"oplog_p" #P "_deserialize", "desert",                                                          \
   "10,000 oplog entries, payload " #P ": one reader, output arena, values kept (views + arena)",  \
   -1, CODEC_FAULTS, 0, P, od_setup_de, od_verify, od_run, od_teardown, NULL},                     \
  {"oplog_p" #P "_deserialize_readers", "desert",                                                  \
   "10,000 oplog entries, payload " #P ": one reader per entry, values kept (views + arenas)",     \
   -1, CODEC_FAULTS, 0, P, od_setup_de_readers, od_verify, od_run, od_teardown, NULL},             \
  {"oplog_p" #P "_deserialize_copy", "desert",                                                     \
   "10,000 oplog entries, payload " #P ": one reader, each entry deep-copied (owned)",             \
   -1, CODEC_FAULTS, 0, P, od_setup_de_copy, od_verify, od_run, od_teardown, NULL},                \
  {"oplog_p" #P "_stream_serialize", "desert",                                                     \
   "10,000 oplog entries, payload " #P ": one streaming writer into a memory sink",                \
   -1, CODEC_FAULTS, 0, P, od_setup_stream_ser, od_verify, od_run, od_teardown, NULL},             \
  {"oplog_p" #P "_stream_deserialize", "desert",                                                   \
   "10,000 oplog entries, payload " #P ": streaming reader, mark per entry, entries deep-copied",  \
   -1, CODEC_FAULTS, 0, P, od_setup_stream_de, od_verify, od_run, od_teardown, NULL}

static const codec_case bench_oplog_desert_cases[] = {OD_ROWS(16), OD_ROWS(256), OD_ROWS(1024)};
// clang-format on

extern const codec_case bench_oplog_peer_cases[];
extern const size_t bench_oplog_peer_case_count;

size_t bench_oplog_tables(codec_table *out, size_t max) {
  size_t n = 0;
  if (n < max)
    out[n++] = (codec_table){bench_oplog_desert_cases,
                             sizeof bench_oplog_desert_cases / sizeof bench_oplog_desert_cases[0]};
  if (n < max && bench_oplog_peer_case_count)
    out[n++] = (codec_table){bench_oplog_peer_cases, bench_oplog_peer_case_count};
  return n;
}
