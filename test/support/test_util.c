/* test/support/test_util.c — seeded RNG, hex helpers, per-ISA runner, ISA
 * expectation checks and the counting allocator shared by the test suites.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- RNG ---------------------------------------------------------------------- */

static uint64_t desert_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static uint64_t desert_rotl(uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }

void desert_rng_init(desert_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = desert_splitmix64(&x);
}

uint64_t desert_rng_next(desert_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = desert_rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = desert_rotl(s[3], 45);
  return result;
}

uint32_t desert_rng_below(desert_rng *r, uint32_t bound) {
  /* Lemire's multiply-shift; the tiny bias is irrelevant for tests. */
  return (uint32_t)(((desert_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}

size_t desert_rng_range(desert_rng *r, size_t lo, size_t hi) {
  const uint64_t span = (uint64_t)(hi - lo) + 1;
  if (span == 0) return (size_t)desert_rng_next(r); /* the whole 64-bit range */
  return lo + (size_t)(desert_rng_next(r) % span);
}

void desert_rng_fill(desert_rng *r, void *buf, size_t len) {
  uint8_t *p = (uint8_t *)buf;
  while (len > 0) {
    uint64_t v = desert_rng_next(r);
    const size_t n = len < 8 ? len : 8;
    memcpy(p, &v, n);
    p += n;
    len -= n;
  }
}

static int desert_seed_ready;
static uint64_t desert_seed_value;

uint64_t desert_test_seed(void) {
  if (desert_seed_ready) return desert_seed_value;
  const char *env = getenv("DESERT_TEST_SEED");
  if (env != NULL && env[0] != '\0') {
    desert_seed_value = (uint64_t)strtoull(env, NULL, 0);
    fprintf(stderr, "[desert-test] seed = %llu (from DESERT_TEST_SEED)\n",
            (unsigned long long)desert_seed_value);
  } else {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&ts;
    desert_seed_value = desert_splitmix64(&x);
    fprintf(stderr, "[desert-test] seed = %llu (replay with DESERT_TEST_SEED=%llu)\n",
            (unsigned long long)desert_seed_value, (unsigned long long)desert_seed_value);
  }
  desert_seed_ready = 1;
  return desert_seed_value;
}

void desert_rng_init_test(desert_rng *r, uint64_t stream) {
  uint64_t x = stream;
  desert_rng_init(r, desert_test_seed() ^ desert_splitmix64(&x));
}

/* ---- hex ------------------------------------------------------------------------ */

static int desert_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t desert_hex_decode(const char *hex, uint8_t *out, size_t cap) {
  size_t n = 0;
  int hi = -1;
  for (const char *p = hex; *p != '\0'; p++) {
    if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') continue;
    const int d = desert_hex_digit(*p);
    if (d < 0) return SIZE_MAX;
    if (hi < 0) {
      hi = d;
      continue;
    }
    if (n == cap) return SIZE_MAX;
    out[n++] = (uint8_t)(hi * 16 + d);
    hi = -1;
  }
  return hi < 0 ? n : SIZE_MAX;
}

char *desert_hex_encode(const void *data, size_t len, char *out, size_t cap) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *b = (const uint8_t *)data;
  if (cap == 0) return out;
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    const size_t need = (i > 0 ? 1u : 0u) + 2u;
    if (o + need + 1 > cap) {
      /* Mark the truncation if there is room for it. */
      if (cap >= 4) {
        o = o + 4 <= cap ? o : cap - 4;
        memcpy(out + o, "...", 3);
        o += 3;
      }
      break;
    }
    if (i > 0) out[o++] = ' ';
    out[o++] = digits[b[i] >> 4];
    out[o++] = digits[b[i] & 15];
  }
  out[o] = '\0';
  return out;
}

void desert_assert_bytes_equal_at(const void *expected, size_t expected_len, const void *actual,
                                  size_t actual_len, const char *what, const char *file, int line) {
  const uint8_t *e = (const uint8_t *)expected;
  const uint8_t *a = (const uint8_t *)actual;
  const size_t common = expected_len < actual_len ? expected_len : actual_len;
  size_t diff = 0;
  while (diff < common && e[diff] == a[diff]) diff++;
  if (diff == common && expected_len == actual_len) return;
  /* A window of 16 bytes before and after the first difference. */
  const size_t from = diff > 16 ? diff - 16 : 0;
  char eh[3 * 33 + 1], ah[3 * 33 + 1];
  const size_t en = expected_len > from ? expected_len - from : 0;
  const size_t an = actual_len > from ? actual_len - from : 0;
  desert_hex_encode(e + from, en < 33 ? en : 33, eh, sizeof eh);
  desert_hex_encode(a + from, an < 33 ? an : 33, ah, sizeof ah);
  print_error("%s: bytes differ (expected %zu bytes, got %zu); first difference at offset %zu\n"
              "  expected[%zu..]: %s\n  actual  [%zu..]: %s\n",
              what, expected_len, actual_len, diff, from, eh, from, ah);
  _fail(file, line);
}

/* ---- ISA iteration ------------------------------------------------------------------ */

typedef struct desert_test_isa_slot {
  const desert_kernels *k;
} desert_test_isa_slot;

const desert_kernels *desert_test_kernels(void **state) {
  const desert_test_isa_slot *slot = (const desert_test_isa_slot *)*state;
  return slot->k;
}

/* DESERT_TEST_EXHAUSTIVE: '1' forces full domains, '0' reduced ones;
 * otherwise -1 (decide from the build and the table). */
static int desert_exhaustive_env(void) {
  const char *env = getenv("DESERT_TEST_EXHAUSTIVE");
  if (env != NULL && (env[0] == '0' || env[0] == '1')) return env[0] - '0';
  return -1;
}

int desert_test_full_domain(const desert_kernels *k) {
  const int forced = desert_exhaustive_env();
  if (forced >= 0) return forced;
  if (k->isa == DESERT_ISA_SCALAR) return 1;
#if defined(__OPTIMIZE__)
  return !k->emulated;
#else
  return 0;
#endif
}

size_t desert_test_stride(const desert_kernels *k) {
  if (desert_test_full_domain(k)) return 1;
  return k->emulated ? 3 : 2;
}

int desert_test_sweep_pos(const desert_kernels *k, size_t p, size_t sl, size_t len) {
  const int forced = desert_exhaustive_env();
  if (forced == 1) return 1;
#if defined(__OPTIMIZE__)
  if (forced < 0 && !k->emulated) return 1;
#endif
  if (len <= 40 || p < 4 || p + sl + 4 > len) return 1;
  const size_t m = p % 16;
  if (k->emulated) return m == 0 || m == 15;
  return m <= 1 || m == 7 || m == 8 || m >= 13;
}

size_t desert_test_isas(const desert_kernels **out, size_t max) {
  return desert_kernels_runnable(out, max);
}

/* ASCII case-insensitive comparison of s[0..n) with the NUL-terminated b. */
static int desert_name_eq(const char *s, size_t n, const char *b) {
  size_t i = 0;
  for (; i < n && b[i] != '\0'; i++) {
    char x = s[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
    if (x != y) return 0;
  }
  return i == n && b[i] == '\0';
}

/* ---- required ISAs ---------------------------------------------------------------------
 * DESERT_TEST_REQUIRE_ISAS when set; otherwise every table this machine can
 * run, computed here without the library's own CPU detection (the compiler
 * runtime's __builtin_cpu_supports, which also checks the OS state in
 * XCR0) plus the emulated tables of this build. So a detection bug, or a
 * suite that skipped a table, fails on the machine that should have run
 * it: an AVX-512 host requires avx512, every AVX2 host avx512emu. */

static void desert_list_add(char *buf, size_t cap, const char *name) {
  const size_t used = strlen(buf);
  snprintf(buf + used, cap - used, "%s%s", used ? "," : "", name);
}

const char *desert_test_required_isas(void) {
  const char *env = getenv("DESERT_TEST_REQUIRE_ISAS");
  if (env != NULL) return env;
  static char def[96];
  if (def[0] != '\0') return def;
  desert_list_add(def, sizeof def, "scalar");
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
                   __builtin_cpu_supports("popcnt");
  const int avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                     __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                     __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2");
  if (DESERT_HAVE_AVX2 && avx2) desert_list_add(def, sizeof def, "avx2");
  if (DESERT_HAVE_AVX512 && avx512) desert_list_add(def, sizeof def, "avx512");
  if (DESERT_HAVE_AVX512EMU && avx2) desert_list_add(def, sizeof def, "avx512emu"); /* AVX2 tails */
#endif
#if defined(__aarch64__)
  if (DESERT_HAVE_NEON) desert_list_add(def, sizeof def, "neon");
#else
  if (DESERT_HAVE_NEON && DESERT_NEON_EMULATED) desert_list_add(def, sizeof def, "neon");
#endif
  return def;
}

/* Is the table or ISA called `name` in the required list? */
static int desert_name_required(const char *name) {
  const char *p = desert_test_required_isas();
  while (*p != '\0') {
    while (*p == ',' || *p == ' ') p++;
    const char *start = p;
    while (*p != '\0' && *p != ',' && *p != ' ') p++;
    if (p > start && desert_name_eq(start, (size_t)(p - start), name)) return 1;
  }
  return 0;
}

/* The ISA of a table name s[0..n) ("avx512emu" is an AVX-512 table),
 * DESERT_ISA_COUNT_ if unknown. */
static desert_isa desert_isa_of_name(const char *s, size_t n) {
  if (desert_name_eq(s, n, "avx512emu")) return DESERT_ISA_AVX512;
  for (unsigned i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++)
    if (desert_name_eq(s, n, desert_isa_name((desert_isa)i))) return (desert_isa)i;
  return DESERT_ISA_COUNT_;
}

/* Whether the table called s[0..n) is compiled in (runnable here or not). */
static int desert_table_name_compiled(const char *s, size_t n) {
  if (desert_name_eq(s, n, "avx512emu")) return DESERT_HAVE_AVX512EMU;
  const desert_isa isa = desert_isa_of_name(s, n);
  return isa != DESERT_ISA_COUNT_ && desert_isa_compiled(isa);
}

int desert_test_check_required_isas(void) {
  const char *list = desert_test_required_isas();
  const desert_kernels *tables[DESERT_TEST_MAX_TABLES];
  const size_t nt = desert_test_isas(tables, DESERT_TEST_MAX_TABLES);
  int missing = 0;
  const char *p = list;
  while (*p != '\0') {
    while (*p == ',' || *p == ' ') p++;
    const char *start = p;
    while (*p != '\0' && *p != ',' && *p != ' ') p++;
    if (p == start) continue;
    const size_t n = (size_t)(p - start);
    int ran = 0;
    for (size_t t = 0; t < nt && t < DESERT_TEST_MAX_TABLES; t++)
      ran |= desert_name_eq(start, n, tables[t]->name);
    if (ran) continue;
    if (desert_isa_of_name(start, n) == DESERT_ISA_COUNT_)
      fprintf(stderr, "[desert-test] FAIL: required ISA list names unknown ISA '%.*s'\n", (int)n,
              start);
    else
      fprintf(stderr, "[desert-test] FAIL: required ISA %.*s is %s (required list: %s%s)\n",
              (int)n, start,
              desert_table_name_compiled(start, n) ? "not runnable on this CPU"
                                                    : "not compiled in",
              list, getenv("DESERT_TEST_REQUIRE_ISAS") ? "" : ", the default for this machine");
    missing++;
  }
  return missing;
}

void desert_test_check_expected_isa(void) {
  const char *want = getenv("DESERT_TEST_EXPECT_ISA");
  if (want == NULL || want[0] == '\0') return;
  const desert_isa isa = desert_isa_from_name(want);
  desert_dispatch_info info;
  desert_dispatch_info_get(&info);
  if (isa == DESERT_ISA_COUNT_ || isa == DESERT_ISA_AUTO) {
    fprintf(stderr, "[desert-test] FAIL: DESERT_TEST_EXPECT_ISA=%s is not an ISA name\n", want);
    exit(1);
  }
  if (desert_isa_compiled(isa) && !desert_isa_runnable(isa) &&
      !desert_name_required(desert_isa_name(isa))) {
    fprintf(stderr, "[desert-test] SKIP: expected ISA %s is compiled in but not runnable here\n",
            desert_isa_name(isa));
    exit(77);
  }
  if (info.active != isa || info.outcome != DESERT_OVERRIDE_APPLIED) {
    fprintf(stderr,
            "[desert-test] FAIL: expected ISA %s applied through DESERT_FORCE_ISA, but the "
            "active ISA is %s (DESERT_FORCE_ISA='%s', outcome %d)\n",
            desert_isa_name(isa), desert_isa_name(info.active), info.override_value,
            (int)info.outcome);
    exit(1);
  }
  fprintf(stderr, "[desert-test] running with ISA %s%s\n", desert_isa_name(isa),
          info.active_emulated ? " (emulated)" : "");
}

int desert_test_run_per_isa(const char *suite, const struct CMUnitTest *tests, size_t count) {
  desert_test_check_expected_isa();
  const char *filter = getenv("DESERT_TEST_FILTER");
  if (filter != NULL && filter[0] != '\0') cmocka_set_test_filter(filter);
  const desert_kernels *tables[DESERT_TEST_MAX_TABLES];
  const size_t n = desert_test_isas(tables, DESERT_TEST_MAX_TABLES);
  static desert_test_isa_slot slots[DESERT_TEST_MAX_TABLES];
  struct CMUnitTest *copy = (struct CMUnitTest *)malloc(count * sizeof *copy);
  if (copy == NULL) return 1;
  int failures = 0;
  for (size_t t = 0; t < n && t < DESERT_TEST_MAX_TABLES; t++) {
    char name[96];
    snprintf(name, sizeof name, "%s[%s%s]", suite, tables[t]->name,
             tables[t]->emulated ? ",emulated" : "");
    slots[t].k = tables[t];
    for (size_t i = 0; i < count; i++) {
      copy[i] = tests[i];
      copy[i].initial_state = &slots[t];
    }
    failures += _cmocka_run_group_tests(name, copy, count, NULL, NULL);
  }
  free(copy);
  for (unsigned i = DESERT_ISA_SCALAR; i < DESERT_ISA_COUNT_; i++) {
    const desert_isa isa = (desert_isa)i;
    if (desert_isa_runnable(isa)) continue;
    fprintf(stderr, "[desert-test] %s[%s]: SKIPPED (%s)\n", suite, desert_isa_name(isa),
            desert_isa_compiled(isa) ? "not runnable on this CPU" : "not compiled in");
  }
  failures += desert_test_check_required_isas();
  return failures;
}

/* ---- counting allocator ----------------------------------------------------------- */

#define DESERT_COUNTING_MAGIC 0x64657365727421u /* "desert!" */

/* Header in front of every block, padded so the user pointer keeps the
 * alignment malloc gives. */
typedef union desert_counting_header {
  struct {
    size_t size;
    uint64_t magic;
  } h;
  max_align_t align;
} desert_counting_header;

static void *desert_counting_alloc(void *opaque, size_t size) {
  desert_counting_allocator *a = (desert_counting_allocator *)opaque;
  if (a->remaining_ok != SIZE_MAX) {
    if (a->remaining_ok == 0) {
      a->failed++;
      return NULL;
    }
    a->remaining_ok--;
  }
  if (size > SIZE_MAX - sizeof(desert_counting_header)) return NULL;
  desert_counting_header *hdr =
      (desert_counting_header *)malloc(sizeof(desert_counting_header) + size);
  if (hdr == NULL) return NULL;
  hdr->h.size = size;
  hdr->h.magic = DESERT_COUNTING_MAGIC;
  a->allocs++;
  a->live_blocks++;
  a->live_bytes += size;
  a->total_bytes += size;
  if (a->live_bytes > a->peak_bytes) a->peak_bytes = a->live_bytes;
  return hdr + 1;
}

static void desert_counting_free(void *opaque, void *ptr, size_t size) {
  desert_counting_allocator *a = (desert_counting_allocator *)opaque;
  if (ptr == NULL) return;
  desert_counting_header *hdr = (desert_counting_header *)ptr - 1;
  if (hdr->h.magic != DESERT_COUNTING_MAGIC) {
    a->bad_frees++;
    return;
  }
  if (hdr->h.size != size) a->bad_frees++;
  hdr->h.magic = 0;
  a->frees++;
  a->live_blocks--;
  a->live_bytes -= hdr->h.size;
  free(hdr);
}

void desert_counting_allocator_init(desert_counting_allocator *a) {
  memset(a, 0, sizeof *a);
  a->allocator.alloc = desert_counting_alloc;
  a->allocator.free = desert_counting_free;
  a->allocator.opaque = a;
  a->remaining_ok = SIZE_MAX;
}

void desert_counting_allocator_fail_after(desert_counting_allocator *a, size_t n) {
  a->remaining_ok = n;
}

char *desert_test_read_file(const char *path, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0, got;
  char *buf = malloc(cap + 1);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *bigger = realloc(buf, 2 * cap + 1);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (!buf) return NULL;
  buf[n] = '\0';
  *len = n;
  return buf;
}
