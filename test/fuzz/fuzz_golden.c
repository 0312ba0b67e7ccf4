/* test/fuzz/fuzz_golden.c — libFuzzer harness: desert-scala's golden
 * TestModel1 through the hand-written record codecs of
 * examples/golden_model.c (records with evolution, a sorted enum with a
 * transient constructor, nested throwables, collections in both forms).
 * SPDX-License-Identifier: MIT
 *
 * The input is one message, exactly like ../shared/golden/dataset1.bin (the
 * replay test runs that file and mutations of it). It is decoded as a
 * TestModel1, as a PersistedThrowable and as a ListElement2. A model that
 * decodes is written again (legacy header scoping and the default writer);
 * that output must decode, and writing the second decode must give the
 * same bytes (write(read(write(m))) == write(m)). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "golden_model.h"

static uint8_t *dup(const uint8_t *p, size_t n) {
  uint8_t *c = malloc(n ? n : 1);
  FZ_CHECK(c != NULL);
  if (n) memcpy(c, p, n);
  return c;
}

static void roundtrip(const golden_model *m, unsigned wflags) {
  desert_options o;
  desert_options_init(&o);
  o.flags = wflags;
  desert_writer *w = NULL;
  FZ_CHECK(desert_writer_create(&o, &w) == DESERT_OK);
  desert_status ws = golden_model_write(w, m);
  FZ_CHECK_MSG(ws == DESERT_OK, "a decoded model cannot be written: %s", desert_status_name(ws));
  size_t n1 = 0;
  const uint8_t *out = desert_writer_data(w, &n1);
  uint8_t *b1 = dup(out, n1);

  desert_options ro;
  fz_options(&ro, 0);
  desert_reader *r = fz_reader_new(&ro);
  golden_model m2;
  fz_decode_begin(r, b1, n1);
  desert_status st = golden_model_read(r, &m2);
  FZ_CHECK_MSG(st == DESERT_OK, "written model does not decode: %s at %zu",
               desert_status_name(st), desert_reader_error_offset(r));
  FZ_CHECK(desert_reader_offset(r) == n1);
  fz_decode_end(r);

  desert_writer_reset(w);
  FZ_CHECK(golden_model_write(w, &m2) == DESERT_OK);
  size_t n2;
  const uint8_t *b2 = desert_writer_data(w, &n2);
  FZ_CHECK_MSG(n1 == n2 && memcmp(b1, b2, n1) == 0, "write(read(write(m))) != write(m)");
  fz_reader_free(r);
  desert_writer_free(w);
  free(b1);
}

FZ_TARGET(golden) {
  desert_options o;
  fz_options(&o, 0);
  desert_reader *r = fz_reader_new(&o);

  golden_model m;
  fz_decode_begin(r, data, size);
  desert_status st = golden_model_read(r, &m);
  FZ_CHECK(st == desert_reader_status(r));
  fz_decode_end(r);
  if (st == DESERT_OK) {
    FZ_CHECK(m.tried_success ? m.tried_value.kind != GOLDEN_THIRD : true);
    for (size_t i = 0; i < m.option_len; i++) FZ_CHECK(m.option[i].value.kind != GOLDEN_THIRD);
    /* The views live in `data` or the reader's arena: copy nothing, write
     * now (before the reader is reused). */
    roundtrip(&m, DESERT_OPT_LEGACY_HEADER_STRINGS);
    roundtrip(&m, 0);
  }

  golden_throwable t;
  fz_decode_begin(r, data, size);
  st = golden_throwable_read(r, &t);
  fz_decode_end(r);
  if (st == DESERT_OK) {
    size_t depth = 0;
    for (const golden_throwable *c = t.cause; c; c = c->cause) depth++;
    FZ_CHECK(depth <= DESERT_DEFAULT_MAX_DEPTH);
  }

  golden_element2 e;
  fz_decode_begin(r, data, size);
  st = golden_element2_read(r, &e);
  fz_decode_end(r);
  if (st == DESERT_OK) FZ_CHECK(e.kind == GOLDEN_FIRST || e.kind == GOLDEN_SECOND);

  fz_reader_free(r);
  return 0;
}
