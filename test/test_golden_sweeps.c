/* test/test_golden_sweeps.c — hostile-input sweeps over desert-scala's
 * golden dataset (../shared/golden/dataset1.bin) through the golden model
 * codec of examples/golden_model.c: every proper prefix, and at least
 * 200,000 seeded random byte mutations (bit flip, byte insert, byte delete)
 * must decode or fail cleanly — a known status that is not an API error,
 * error offset and position inside the input — without leaks, bad frees or
 * allocations past the documented bound (test/fuzz/README.md).
 * SPDX-License-Identifier: MIT
 *
 * Every mutation is a pure function of (seed, index): the seed is printed
 * and DESERT_TEST_SEED=<seed> replays the run; a failure names the index,
 * kind and position, and DESERT_GOLDEN_MUTATION=<index> runs that one
 * mutation alone, DESERT_GOLDEN_MUTATIONS=<n> changes the count (ctest's
 * per-ISA reruns take 25,000). Mutations are split over DESERT_TEST_THREADS workers
 * (default 2), each reusing one reader. Positions favour the structured
 * bytes: 30,000 of the file's i64 array elements (240,000 bytes) are plain
 * numbers whose mutation decodes the same way, so 10 of 16 mutations hit
 * the bytes before the array (header, scalars, the exception, the lists),
 * 4 of 16 the bytes after it, 2 of 16 the whole file uniformly.
 *
 * Proper prefixes: under AddressSanitizer the bytes past the prefix are
 * poisoned (so reading one byte too far is reported at once); without it,
 * a subset of prefixes is copied to the end of a guard-page buffer.
 *
 * The file is read from DESERT_GOLDEN_DIR (never copied into the repo); if
 * it is missing the suite prints a loud SKIP and passes, unless
 * DESERT_REQUIRE_GOLDEN=1 (CI), where it fails. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/reader.h"
#include "desert_build_config.h"
#include "golden_model.h"
#include "guarded.h"
#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__)
#define SWEEP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SWEEP_ASAN 1
#endif
#endif
#ifdef SWEEP_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define GOLDEN_LEN 242540u
#define MUTATIONS 200000u
/* Documented decoder bound (test/fuzz/README.md, fuzz_common.h). */
#define BOUND_PER_BYTE ((size_t)64)
#define BOUND_CONST ((size_t)512 * 1024)

static uint8_t *golden;
static size_t golden_len;
static size_t array_start, array_end; /* the i64 array's bytes in the file */

/* ---- loading ------------------------------------------------------------------ */

static int load_golden(void **state) {
  (void)state;
  const char *path = DESERT_GOLDEN_DIR "/dataset1.bin";
  FILE *f = fopen(path, "rb");
  const char *req = getenv("DESERT_REQUIRE_GOLDEN");
  bool required = req && strcmp(req, "1") == 0;
  if (!f) {
    fprintf(stderr,
            "\n*** SKIP: golden dataset not found: %s ***\n"
            "*** test_golden_sweeps did not run%s ***\n\n",
            path, required ? " and DESERT_REQUIRE_GOLDEN=1: FAILING" : "");
    return required ? -1 : 0;
  }
  golden = malloc(GOLDEN_LEN + 1);
  if (!golden) {
    fclose(f);
    return -1;
  }
  golden_len = fread(golden, 1, GOLDEN_LEN + 1, f);
  fclose(f);
  if (golden_len != GOLDEN_LEN) {
    fprintf(stderr, "golden dataset has %zu bytes, want %u\n", golden_len, GOLDEN_LEN);
    return -1;
  }
  return 0;
}

static int free_golden(void **state) {
  (void)state;
  free(golden);
  golden = NULL;
  return 0;
}

#define NEED_GOLDEN()                                         \
  do {                                                        \
    if (!golden) {                                            \
      fprintf(stderr, "SKIP: golden dataset not found\n");    \
      skip();                                                 \
    }                                                         \
  } while (0)

static desert_reader *new_reader(desert_counting_allocator *ca) {
  desert_options o;
  desert_options_init(&o);
  o.allocator = ca->allocator;
  desert_reader *r = NULL;
  if (desert_reader_create(&o, &r) != DESERT_OK) return NULL;
  return r;
}

/* ---- one checked decode --------------------------------------------------------- */

/* Decodes data[0..len) as TestModel1; returns NULL when it decoded or
 * failed cleanly, else a static description of what is wrong. */
static const char *decode_clean(desert_reader *r, const uint8_t *data, size_t len,
                                desert_status *out) {
  golden_model m;
  if (desert_reader_begin(r, data, len) != DESERT_OK) return "desert_reader_begin failed";
  desert_status st = golden_model_read(r, &m);
  *out = st;
  if (st != desert_reader_status(r)) return "returned status differs from the reader's";
  if ((unsigned)st >= (unsigned)DESERT_STATUS_COUNT_) return "unknown status";
  if (st == DESERT_E_ARGUMENT || st == DESERT_E_STATE || st == DESERT_E_DST_TOO_SMALL ||
      st == DESERT_E_ISA_UNAVAILABLE || st == DESERT_E_NOMEM)
    return "API/resource error from input data";
  if (desert_reader_offset(r) > len) return "position past the input";
  if (st != DESERT_OK && desert_reader_error_offset(r) > len) return "error offset past the input";
  return NULL;
}

/* ---- proper prefixes ---------------------------------------------------------------- */

static void test_every_proper_prefix(void **state) {
  (void)state;
  NEED_GOLDEN();
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_reader *r = new_reader(&ca);
  assert_non_null(r);
  size_t decoded = 0, failed = 0;
#ifdef SWEEP_ASAN
  /* One exact-size copy; walking k downwards poisons one more byte each
   * step, so the bytes past every prefix are unreadable. */
  uint8_t *copy = malloc(golden_len);
  assert_non_null(copy);
  memcpy(copy, golden, golden_len);
  for (size_t k = golden_len; k-- > 0;) {
    __asan_poison_memory_region(copy + k, golden_len - k);
    desert_status st;
    const char *bad = decode_clean(r, copy, k, &st);
    if (bad)
      fail_msg("prefix %zu: %s (%s at %zu)", k, bad, desert_status_name(st),
               desert_reader_error_offset(r));
    if (st == DESERT_OK) decoded++;
    else failed++;
  }
  __asan_unpoison_memory_region(copy, golden_len);
  free(copy);
  fprintf(stderr, "[golden_sweeps] %zu proper prefixes (ASan-poisoned tails): %zu failed, %zu decoded\n",
          golden_len, failed, decoded);
#else
  desert_guarded g;
  assert_int_equal(desert_guarded_init(&g, golden_len, DESERT_GUARD_AFTER), 0);
  size_t copied = 0;
  for (size_t k = 0; k < golden_len; k++) {
    /* Guarded copies for the first and last 4096 prefixes and every 61st
     * in between; the rest reads the shared buffer (bounds are still
     * checked through the reported offsets). */
    bool guard = k < 4096 || golden_len - k <= 4096 || k % 61 == 0;
    const uint8_t *p = golden;
    if (guard) {
      p = desert_guarded_place_copy(&g, golden, k);
      copied++;
    }
    desert_status st;
    const char *bad = decode_clean(r, p, k, &st);
    if (bad)
      fail_msg("prefix %zu: %s (%s at %zu)", k, bad, desert_status_name(st),
               desert_reader_error_offset(r));
    if (st == DESERT_OK) decoded++;
    else failed++;
  }
  desert_guarded_free(&g);
  fprintf(stderr,
          "[golden_sweeps] %zu proper prefixes (%zu behind a guard page): %zu failed, %zu decoded\n",
          golden_len, copied, failed, decoded);
#endif
  assert_int_equal(decoded, 0); /* a record cut short cannot be complete */
  desert_reader_free(r);
  assert_int_equal(ca.live_blocks, 0);
  assert_int_equal(ca.bad_frees, 0);
  assert_true(ca.peak_bytes <= BOUND_PER_BYTE * golden_len + BOUND_CONST);
}

/* ---- mutations ------------------------------------------------------------------------ */

typedef enum { MUT_FLIP = 0, MUT_INSERT = 1, MUT_DELETE = 2 } mut_kind;
static const char *const mut_names[3] = {"flip", "insert", "delete"};

typedef struct mutation {
  mut_kind kind;
  size_t at;
  uint8_t arg; /* flip: bit index; insert: the byte */
} mutation;

static uint64_t sweep_seed;

static mutation mutation_of(uint64_t index) {
  desert_rng rng;
  desert_rng_init(&rng, sweep_seed ^ (index * UINT64_C(0x9e3779b97f4a7c15)));
  mutation m;
  m.kind = (mut_kind)desert_rng_below(&rng, 3);
  uint32_t region = desert_rng_below(&rng, 16);
  size_t lo = 0, hi = golden_len - 1;
  if (region < 10) hi = array_start + 16 < golden_len ? array_start + 16 : golden_len - 1;
  else if (region < 14) lo = array_end >= 16 ? array_end - 16 : 0;
  m.at = desert_rng_range(&rng, lo, hi);
  m.arg = (uint8_t)desert_rng_next(&rng);
  if (m.kind == MUT_FLIP) m.arg &= 7u;
  return m;
}

typedef struct worker {
  uint64_t first, step, end; /* indexes first, first+step, ... < end */
  pthread_t thread;
  size_t done, ok, failed;
  size_t status_count[DESERT_STATUS_COUNT_];
  size_t live_blocks, bad_frees, peak;
  char error[256]; /* first failure */
} worker;

static void *run_mutations(void *arg) {
  worker *wk = arg;
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_reader *r = new_reader(&ca);
  uint8_t *buf = malloc(golden_len + 1);
  if (!r || !buf) {
    snprintf(wk->error, sizeof wk->error, "setup failed");
    free(buf);
    desert_reader_free(r);
    return NULL;
  }
  /* The data always ends at the end of buf (ASan sees a read one byte too
   * far): the file sits at buf + 1; an insertion moves the bytes before the
   * position one to the left (data at buf), a deletion moves them one to the
   * right (data at buf + 2). Both cost O(position), mostly small. */
  memcpy(buf + 1, golden, golden_len);
  for (uint64_t i = wk->first; i < wk->end; i += wk->step) {
    mutation m = mutation_of(i);
    const uint8_t *data = buf + 1;
    size_t len = golden_len;
    uint8_t saved = buf[1 + m.at];
    if (m.kind == MUT_FLIP) {
      buf[1 + m.at] ^= (uint8_t)(1u << m.arg);
    } else if (m.kind == MUT_INSERT) {
      memmove(buf, buf + 1, m.at);
      buf[m.at] = m.arg;
      data = buf;
      len = golden_len + 1;
    } else {
      memmove(buf + 2, buf + 1, m.at);
      data = buf + 2;
      len = golden_len - 1;
    }
    desert_status st = DESERT_OK;
    const char *bad = decode_clean(r, data, len, &st);
    if (bad && !wk->error[0])
      snprintf(wk->error, sizeof wk->error,
               "mutation %llu (%s at %zu, arg %u): %s (%s at %zu); replay with "
               "DESERT_TEST_SEED=%llu DESERT_GOLDEN_MUTATION=%llu",
               (unsigned long long)i, mut_names[m.kind], m.at, m.arg, bad, desert_status_name(st),
               desert_reader_error_offset(r), (unsigned long long)sweep_seed,
               (unsigned long long)i);
    wk->status_count[(unsigned)st < (unsigned)DESERT_STATUS_COUNT_ ? st : 0]++;
    if (st == DESERT_OK) wk->ok++;
    else wk->failed++;
    wk->done++;
    /* Undo. */
    if (m.kind == MUT_FLIP) {
      buf[1 + m.at] = saved;
    } else if (m.kind == MUT_INSERT) {
      memmove(buf + 1, buf, m.at);
      buf[1 + m.at] = saved;
    } else {
      memmove(buf + 1, buf + 2, m.at);
      buf[1 + m.at] = saved;
    }
    if (wk->error[0]) break;
  }
  desert_reader_free(r);
  free(buf);
  wk->live_blocks = ca.live_blocks;
  wk->bad_frees = ca.bad_frees;
  wk->peak = ca.peak_bytes;
  return NULL;
}

/* Finds the i64 array's bytes: decode once and search for its first
 * elements in big-endian form. */
static void locate_array(void) {
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, golden, golden_len), DESERT_OK);
  golden_model m;
  assert_int_equal(golden_model_read(r, &m), DESERT_OK);
  assert_true(m.array_len >= 4);
  uint8_t pat[32];
  for (size_t i = 0; i < 4; i++)
    for (size_t b = 0; b < 8; b++) pat[i * 8 + b] = (uint8_t)((uint64_t)m.array[i] >> (56 - 8 * b));
  array_start = array_end = 0;
  for (size_t p = 0; p + sizeof pat <= golden_len; p++)
    if (memcmp(golden + p, pat, sizeof pat) == 0) {
      array_start = p;
      array_end = p + 8 * m.array_len;
      break;
    }
  assert_true(array_end > array_start && array_end <= golden_len);
  desert_reader_free(r);
}

static void test_random_mutations(void **state) {
  (void)state;
  NEED_GOLDEN();
  sweep_seed = desert_test_seed();
  locate_array();
  uint64_t first = 0, end = MUTATIONS;
  /* The per-ISA reruns of ctest (DESERT_TEST_EXPECT_ISA set) repeat the
   * decoding on another kernel table; under ASan the emulated NEON table
   * costs ~6x the CPU of the default run, so they take a 25,000-mutation
   * slice. The full 200,000 run is the default-ISA test. */
  const char *isa_rerun = getenv("DESERT_TEST_EXPECT_ISA");
  if (isa_rerun && *isa_rerun) end = MUTATIONS / 8;
  const char *count = getenv("DESERT_GOLDEN_MUTATIONS");
  if (count && *count) end = strtoull(count, NULL, 0);
  const char *one = getenv("DESERT_GOLDEN_MUTATION");
  if (one && *one) {
    first = strtoull(one, NULL, 0);
    end = first + 1;
  }
  const char *tenv = getenv("DESERT_TEST_THREADS");
  size_t threads = tenv && *tenv ? (size_t)strtoul(tenv, NULL, 0) : 2;
  if (threads < 1) threads = 1;
  if (threads > 16) threads = 16;
  if (end - first < threads) threads = 1;
  worker *wk = calloc(threads, sizeof *wk);
  assert_non_null(wk);
  for (size_t t = 0; t < threads; t++) {
    wk[t].first = first + t;
    wk[t].step = threads;
    wk[t].end = end;
    assert_int_equal(pthread_create(&wk[t].thread, NULL, run_mutations, &wk[t]), 0);
  }
  size_t done = 0, ok = 0, failed = 0, counts[DESERT_STATUS_COUNT_] = {0};
  for (size_t t = 0; t < threads; t++) pthread_join(wk[t].thread, NULL);
  for (size_t t = 0; t < threads; t++) {
    if (wk[t].error[0]) fail_msg("%s", wk[t].error);
    if (wk[t].live_blocks) fail_msg("worker %zu leaked %zu blocks", t, wk[t].live_blocks);
    if (wk[t].bad_frees) fail_msg("worker %zu: %zu bad frees", t, wk[t].bad_frees);
    if (wk[t].peak > BOUND_PER_BYTE * (golden_len + 1) + BOUND_CONST)
      fail_msg("worker %zu: peak %zu bytes above the bound", t, wk[t].peak);
    done += wk[t].done;
    ok += wk[t].ok;
    failed += wk[t].failed;
    for (size_t s = 0; s < DESERT_STATUS_COUNT_; s++) counts[s] += wk[t].status_count[s];
  }
  free(wk);
  assert_int_equal(done, end - first);
  fprintf(stderr,
          "[golden_sweeps] %zu mutations (seed %llu, %zu threads; array bytes [%zu, %zu)): "
          "%zu decoded, %zu failed cleanly\n",
          done, (unsigned long long)sweep_seed, threads, array_start, array_end, ok, failed);
  for (size_t s = 1; s < DESERT_STATUS_COUNT_; s++)
    if (counts[s])
      fprintf(stderr, "[golden_sweeps]   %-36s %zu\n", desert_status_name((desert_status)s),
              counts[s]);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_proper_prefix),
      cmocka_unit_test(test_random_mutations),
  };
  return cmocka_run_group_tests_name("golden_sweeps", tests, load_golden, free_golden);
}
