/* bench/bench_golden_gen.c — case 16 (golden dataset) through code that
 * `desert gen-c` generated from dataset1.schema.json at build time (prefix
 * bench_gen, bench/CMakeLists.txt): bench_gen_decode_root into the
 * generated C structs and bench_gen_encode_root back. The generated root
 * is a record the C-struct codec can run, so these rows time the fast path
 * (checked in setup: bench_gen_root_fast()): the generated direct functions
 * on prepared record plans (tools/gen_c/gen_c_direct.c). Same K rotated
 * inputs as the hand-written rows (bench_golden_variants.c).
 *
 * Rows: codec/c16_golden_decode_gen/desert/<isa> (reused reader; the
 * counterpart of c16_golden_decode and c16_golden_decode_cstruct) and
 * codec/c16_golden_encode_gen/desert/<isa> (modern form, 242,534 B, fresh
 * writer like c16_golden_encode; _reused: reused writer).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"
#include "bench_gen.h"
#include "bench_golden_gen.h"
#include "bench_golden_variants.h"
#include "desert.h"

#define K CODEC_K

typedef struct gg_state {
  int fresh;
  desert_options opt, legacy;
  uint8_t *var[K]; /* legacy bytes of variant k (var[0] = the file) */
  size_t var_len[K];
  desert_reader *r;     /* the decode rows' reader */
  desert_writer *w;     /* the reused-writer row's writer */
  desert_reader *cr[K]; /* the C structs the encode rows write (their memory) */
  bench_gen_root cm[K];
} gg_state;

static void gg_free(void *p) {
  gg_state *g = p;
  if (!g) return;
  for (unsigned k = 0; k < K; k++) {
    desert_reader_free(g->cr[k]);
    free(g->var[k]);
  }
  desert_reader_free(g->r);
  desert_writer_free(g->w);
  free(g);
}

static void *gg_setup(desert_isa isa, int fresh, codec_info *info) {
  gg_state *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->fresh = fresh;
  codec_options(&g->opt, isa, 0);
  codec_options(&g->legacy, isa, DESERT_OPT_LEGACY_HEADER_STRINGS);
  if (codec_golden_variants(isa, g->var, g->var_len, info)) goto fail;
  if (!bench_gen_root_fast()) {
    snprintf(info->fail, sizeof info->fail, "golden gen: the root does not take the C-struct path");
    goto fail;
  }
  if (desert_reader_create(&g->opt, &g->r) || desert_writer_create(&g->opt, &g->w)) {
    snprintf(info->fail, sizeof info->fail, "golden gen: cannot create contexts for ISA %s",
             desert_isa_name(isa));
    goto fail;
  }
  /* the C structs the encode rows write */
  for (unsigned k = 0; k < K; k++) {
    if (desert_reader_create(&g->opt, &g->cr[k])) goto fail;
    desert_reader_begin(g->cr[k], g->var[k], g->var_len[k]);
    if (bench_gen_decode_root(g->cr[k], &g->cm[k])) {
      snprintf(info->fail, sizeof info->fail,
               "golden gen: variant %u does not decode: %s at offset %zu", k,
               desert_status_name(desert_reader_status(g->cr[k])),
               desert_reader_error_offset(g->cr[k]));
      goto fail;
    }
  }
  return g;
fail:
  gg_free(g);
  return NULL;
}

static void *bench_golden_gen_setup_reused(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return gg_setup(isa, 0, info);
}
static void *bench_golden_gen_setup_fresh(desert_isa isa, size_t n, codec_info *info) {
  (void)n;
  return gg_setup(isa, 1, info);
}

static uint64_t bench_golden_gen_run_decode(void *p, size_t i) {
  gg_state *g = p;
  unsigned k = (unsigned)(i % K);
  bench_gen_root m;
  desert_reader_begin(g->r, g->var[k], g->var_len[k]);
  if (bench_gen_decode_root(g->r, &m)) return 0;
  return (uint64_t)m.array.items[m.array.count - 1] + m.vector.count + m.option.count;
}

static uint64_t bench_golden_gen_run_encode(void *p, size_t i) {
  gg_state *g = p;
  desert_writer *w = g->w;
  if (g->fresh) {
    if (desert_writer_create(&g->opt, &w)) return 0;
  } else {
    desert_writer_reset(w);
  }
  bench_gen_encode_root(w, &g->cm[i % K]);
  size_t len;
  const uint8_t *d = desert_writer_data(w, &len);
  uint64_t r = d && len ? (uint64_t)d[len - 1] + len : 0;
  if (g->fresh) desert_writer_free(w);
  return r;
}

/* Every variant: decodes fully, re-encodes byte for byte in legacy form, and
 * the modern form of the encode rows is 242,534 B and decodes back to it. */
static int bench_golden_gen_verify(void *p, char *msg, size_t cap) {
  gg_state *g = p;
  desert_writer *lw = NULL, *mw = NULL;
  desert_reader *chk = NULL;
  int bad = 0;
  if (desert_writer_create(&g->legacy, &lw) || desert_writer_create(&g->opt, &mw) ||
      desert_reader_create(&g->opt, &chk)) {
    bad = codec_fail(msg, cap, "golden gen: cannot create contexts");
    goto done;
  }
  for (unsigned k = 0; k < K && !bad; k++) {
    bench_gen_root m, m2;
    desert_reader_begin(g->r, g->var[k], g->var_len[k]);
    if (bench_gen_decode_root(g->r, &m) || desert_reader_offset(g->r) != g->var_len[k]) {
      bad = codec_fail(msg, cap, "golden gen variant %u: consumed %zu of %zu bytes", k,
                       desert_reader_offset(g->r), g->var_len[k]);
      break;
    }
    desert_writer_reset(lw);
    bench_gen_encode_root(lw, &m);
    size_t llen, mlen;
    const uint8_t *ld = desert_writer_data(lw, &llen);
    if ((bad = codec_check_bytes("golden gen legacy re-encoding", ld, llen, g->var[k],
                                 g->var_len[k], msg, cap)))
      break;
    (void)bench_golden_gen_run_encode(g, k);
    desert_writer_reset(mw);
    bench_gen_encode_root(mw, &g->cm[k]);
    const uint8_t *modern = desert_writer_data(mw, &mlen);
    if (desert_writer_status(mw) || mlen != 242534) {
      bad = codec_fail(msg, cap, "golden gen variant %u: modern encoding is %zu bytes", k, mlen);
      break;
    }
    desert_reader_begin(chk, modern, mlen);
    if (bench_gen_decode_root(chk, &m2) || desert_reader_offset(chk) != mlen) {
      bad = codec_fail(msg, cap, "golden gen variant %u: modern form does not decode fully", k);
      break;
    }
    desert_writer_reset(lw);
    bench_gen_encode_root(lw, &m2);
    ld = desert_writer_data(lw, &llen);
    bad = codec_check_bytes("golden gen modern -> legacy", ld, llen, g->var[k], g->var_len[k],
                            msg, cap);
  }
done:
  desert_writer_free(lw);
  desert_writer_free(mw);
  desert_reader_free(chk);
  return bad;
}

// clang-format off
CODEC_BATCH(bench_golden_gen_run_decode)
CODEC_BATCH(bench_golden_gen_run_encode)

const codec_case bench_golden_gen_cases[] = {
    {"c16_golden_decode_gen", "desert",
     "decode dataset1.bin (242,540 B) into C structs generated by desert gen-c", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_gen_setup_reused,
     bench_golden_gen_verify, bench_golden_gen_run_decode, gg_free, bench_golden_gen_run_decode_batch},
    {"c16_golden_encode_gen", "desert",
     "encode the desert gen-c golden structs (modern form, 242,534 B), fresh writer", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_gen_setup_fresh,
     bench_golden_gen_verify, bench_golden_gen_run_encode, gg_free, bench_golden_gen_run_encode_batch},
    {"c16_golden_encode_gen_reused", "desert",
     "encode the desert gen-c golden structs, reused writer", 16,
     CODEC_PER_ISA | CODEC_FAULTS, 0, 0, bench_golden_gen_setup_reused,
     bench_golden_gen_verify, bench_golden_gen_run_encode, gg_free, bench_golden_gen_run_encode_batch},
};
// clang-format on
const size_t bench_golden_gen_case_count =
    sizeof bench_golden_gen_cases / sizeof bench_golden_gen_cases[0];
