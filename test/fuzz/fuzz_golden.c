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
 * same bytes (write(read(write(m))) == write(m)).
 *
 * The same input is also decoded as TestModel1 described by C-struct
 * descriptors (examples/golden_cstruct_model.h, desert_cstruct_decode). The
 * two readers legitimately differ on a StackTraceElement's leading byte
 * (Scala and the hand-written codec ignore it; the descriptor reads it as a
 * record version, so a non-zero byte starts an evolution header), so
 * neither may be required to accept what the other accepts; where both
 * decode, the fields before the first throwable must agree. The
 * descriptor path's own output must decode again and re-encode to the
 * same bytes, in both header scopings.
 *
 * The hand-written codecs run on the description-based record calls and
 * again on prepared plans (golden_model_prepare): both must give the same
 * status and offset on every input, and the same bytes when writing. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "golden_cstruct_model.h"
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
  /* the plans write the same bytes */
  golden_model_use_plans(true);
  desert_writer_reset(w);
  FZ_CHECK(golden_model_write(w, m) == DESERT_OK);
  golden_model_use_plans(false);
  size_t np;
  const uint8_t *bp = desert_writer_data(w, &np);
  FZ_CHECK_MSG(np == n1 && memcmp(bp, b1, n1) == 0, "plan-based write differs");

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

/* write(read(write(m))) == write(m) through the C-struct descriptors. */
static void cstruct_roundtrip(const gcs_model *m, unsigned wflags) {
  desert_options o;
  desert_options_init(&o);
  o.flags = wflags;
  desert_writer *w = NULL;
  FZ_CHECK(desert_writer_create(&o, &w) == DESERT_OK);
  desert_status ws = desert_cstruct_encode(w, &gcs_model_desc, m);
  FZ_CHECK_MSG(ws == DESERT_OK, "a decoded cstruct model cannot be written: %s",
               desert_status_name(ws));
  size_t n1 = 0;
  const uint8_t *out = desert_writer_data(w, &n1);
  uint8_t *b1 = dup(out, n1);

  desert_options ro;
  fz_options(&ro, 0);
  desert_reader *r = fz_reader_new(&ro);
  gcs_model m2;
  fz_decode_begin(r, b1, n1);
  desert_status st = desert_cstruct_decode(r, &gcs_model_desc, &m2);
  FZ_CHECK_MSG(st == DESERT_OK, "written cstruct model does not decode: %s at %zu",
               desert_status_name(st), desert_reader_error_offset(r));
  FZ_CHECK(desert_reader_offset(r) == n1);
  fz_decode_end(r);

  desert_writer_reset(w);
  FZ_CHECK(desert_cstruct_encode(w, &gcs_model_desc, &m2) == DESERT_OK);
  size_t n2;
  const uint8_t *b2 = desert_writer_data(w, &n2);
  FZ_CHECK_MSG(n1 == n2 && memcmp(b1, b2, n1) == 0, "cstruct: write(read(write(m))) != write(m)");
  fz_reader_free(r);
  desert_writer_free(w);
  free(b1);
}

FZ_TARGET(golden) {
  desert_options o;
  fz_options(&o, 0);
  desert_reader *r = fz_reader_new(&o);

  static bool prepared;
  if (!prepared) FZ_CHECK(golden_model_prepare() == DESERT_OK);
  prepared = true;
  golden_model m;
  /* the plans first: same status and offset as the descriptions */
  golden_model_use_plans(true);
  fz_decode_begin(r, data, size);
  desert_status pst = golden_model_read(r, &m);
  size_t pat = pst ? desert_reader_error_offset(r) : desert_reader_offset(r);
  fz_decode_end(r);
  golden_model_use_plans(false);
  fz_decode_begin(r, data, size);
  desert_status st = golden_model_read(r, &m);
  FZ_CHECK(st == desert_reader_status(r));
  FZ_CHECK_MSG(st == pst && pat == (st ? desert_reader_error_offset(r) : desert_reader_offset(r)),
               "plan-based read: %s at %zu, description-based: %s", desert_status_name(pst), pat,
               desert_status_name(st));
  fz_decode_end(r);
  if (st == DESERT_OK) {
    FZ_CHECK(m.tried_success ? m.tried_value.kind != GOLDEN_THIRD : true);
    for (size_t i = 0; i < m.option_len; i++) FZ_CHECK(m.option[i].value.kind != GOLDEN_THIRD);
    /* The views live in `data` or the reader's arena: copy nothing, write
     * now (before the reader is reused). */
    roundtrip(&m, DESERT_OPT_LEGACY_HEADER_STRINGS);
    roundtrip(&m, 0);
  }

  /* Decoded views and pointed-to structs live in `data` and the reader's
   * arena: compare and write before the reader is reused. */
  gcs_model cm;
  fz_decode_begin(r, data, size);
  desert_status cst = desert_cstruct_decode(r, &gcs_model_desc, &cm);
  FZ_CHECK(cst == desert_reader_status(r));
  fz_decode_end(r);
  if (cst == DESERT_OK) {
    if (st == DESERT_OK) {
      FZ_CHECK(cm.byte_ == m.byte_ && cm.short_ == m.short_ && cm.int_ == m.int_);
      FZ_CHECK(cm.long_ == m.long_ && cm.boolean_ == m.boolean_);
      FZ_CHECK(memcmp(&cm.float_, &m.float_, sizeof m.float_) == 0);
      FZ_CHECK(memcmp(&cm.double_, &m.double_, sizeof m.double_) == 0);
      FZ_CHECK(memcmp(cm.uuid, m.uuid, sizeof m.uuid) == 0);
    }
    FZ_CHECK(cm.tried_success ? cm.tried_value.kind != GCS_THIRD : true);
    cstruct_roundtrip(&cm, DESERT_OPT_LEGACY_HEADER_STRINGS);
    cstruct_roundtrip(&cm, 0);
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
