/* test/test_values_numbers.c — durations, instants, big integers and big
 * decimals (docs/format.md §13.2–§13.4, docs/schema.md §12): exact bytes of every
 * example, the nanosecond carry and its overflow, minimal two's complement
 * writing, exact decimal conversion of arbitrary sizes (checked against
 * Python's int), the BigDecimal grammar, truncation at every byte.
 * SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/values.h"
#include "codec_testlib.h"
#include "test_util.h"

/* Decimal text and minimal two's complement bytes of the same integers,
 * computed with Python (int.to_bytes(..., signed=True)); includes the
 * BigInt values of conformance case s1000-0209. */
static const struct {
  const char *dec;
  const char *hex;
} big_table[] = {
    {"0", "00"},
    {"127", "7f"},
    {"128", "0080"},
    {"-128", "80"},
    {"-129", "ff7f"},
    {"1234567890", "499602d2"},
    {"-1", "ff"},
    {"255", "00ff"},
    {"256", "0100"},
    {"-256", "ff00"},
    {"-32768", "8000"},
    {"32768", "008000"},
    {"9223372036854775807", "7fffffffffffffff"},
    {"-9223372036854775808", "8000000000000000"},
    {"9223372036854775808", "008000000000000000"},
    {"-9223372036854775809", "ff7fffffffffffffff"},
    {"10000000000000000000000000000000000000000", "1d6329f1c35ca4bfabb9f5610000000000"},
    {"-10000000000000000000000000000000000000000", "e29cd60e3ca35b4054460a9f0000000000"},
    {"-18446744073709551616", "ff0000000000000000"},
    {"18446744073709551616", "010000000000000000"},
    {"1000000000000000000", "0de0b6b3a7640000"},
    {"10000000000000000000", "008ac7230489e80000"},
    {"-10000000000000000000", "ff7538dcfb76180000"},
    {"999999999", "3b9ac9ff"},
    {"1000000000", "3b9aca00"},
    {"-1000000000", "c4653600"},
    {"4294967296", "0100000000"},
    {"-4294967296", "ff00000000"},
    {"2147483648", "0080000000"},
    {"-2147483648", "80000000"},
    {"811668384243565482088076002129857328538340561429040208153306",
     "00814e6555b4293b7d75879e53eec2898f46e11d436629420ada"},
    {"14398986826012422356", "00c7d37a3aa9fff0d4"},
    {"-1365064428165570609054931416406817980776992408317307736596454",
     "ff26885e616599ead66015aa9b30751bad6d2deb49a0b837601a"},
    {"10228317604660516704098480665396620739050875433016746485796582748042494233782530983835"
     "04632739938574586749061841502160063941822079560091329657596340325010895677552753218888"
     "72661595559134234123319327958716365638410695822198249355111246815123455062960456172726"
     "8100420434285770519972365028810684127481943",
     "186fe182633e2c8f2543c28c5139b46936c0b1dbe6db5d455820963b75fefda3a2f0e971fae5c98ae345d6"
     "c9570ec844640a62d9c46e71aa83ca60c91346b8e86194fa845f0d3cf9b79f0fa607e0c0ae75771180584c"
     "f7a697f3d94343e6be04017bc2574c9a87379d2c0d62f264bd064589c088af500dd689893b9057"},
    {"-1873927703884793988675401992035812342430846903099278155796690998321191096315776367872"
     "61201544690308568077305879718599103790690876931190510851395662173706350833849436138680"
     "29545256897117998608156843699465093293765833141309526696357142600866935689483770877815"
     "014461194837692223879905132000",
     "81fb11c71b2e2074134499d753bdc07edc1ed523a22a64ecec8c67abe34309421cc3b7946e230d230640ac"
     "7e85eb2b8c302238151defa93c36ce37bc7b51c34fe2b464598b099e84fcc3fe1789a2a60bbaf89186bbc2"
     "c97db529e1231170267c06fd094d1def7fdbd8022b063441dcb4b7b1d421024220"},
    {"-1797693134862315907729305190789024733617976978942306572734300811577326758055009631327"
     "08477322407536021120113879871393357658789768814416622492847430639474124377767893424865"
     "48527630221960124609411945308295208500576883815068234246288147391311054082723716335051"
     "0684586298239947245938479716304835356329624224137216",
     "ff000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {"17976931348623159077293051907890247336179769789423065727343008115773267580550096313270"
     "84773224075360211201138798713933576587897688144166224928474306394741243777678934248654"
     "85276302219601246094119453082952085005768838150682342462881473913110540827237163350510"
     "684586298239947245938479716304835356329624224137215",
     "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
     "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"},
};

/* ---- Duration / Instant ------------------------------------------------------------------- */

typedef struct dur_case {
  bool instant;
  desert_duration v;
} dur_case;

static desert_status w_dur(desert_writer *w, const void *arg) {
  const dur_case *c = arg;
  return c->instant ? desert_write_instant(w, c->v) : desert_write_duration(w, c->v);
}
static desert_status r_dur(desert_reader *r, const void *arg) {
  const dur_case *c = arg;
  desert_duration got = {123, 456};
  desert_status st = c->instant ? desert_read_instant(r, &got) : desert_read_duration(r, &got);
  if (st == DESERT_OK) {
    assert_int_equal(got.seconds, c->v.seconds);
    assert_int_equal(got.nanos, c->v.nanos);
  } else {
    assert_int_equal(got.seconds, 123); /* untouched */
    assert_int_equal(got.nanos, 456);
  }
  return st;
}

static void test_duration_examples(void **state) {
  (void)state;
  static const size_t starts[] = {0, 8};
  for (int inst = 0; inst < 2; inst++) {
    /* docs/format.md §13.2: 3 s + 7 ns. */
    dur_case c = {inst != 0, {3, 7}};
    ct_run_example("3s+7ns", "00 00 00 00 00 00 00 03 00 00 00 07", w_dur, r_dur, &c, starts, 2);
    c.v = (desert_duration){-1, 999999999};
    ct_run_example("-1s+999999999ns", "ff ff ff ff ff ff ff ff 3b 9a c9 ff", w_dur, r_dur, &c,
                   starts, 2);
    c.v = (desert_duration){INT64_MIN, 0};
    ct_run_example("min", "80 00 00 00 00 00 00 00 00 00 00 00", w_dur, r_dur, &c, starts, 2);
    c.v = (desert_duration){INT64_MAX, 999999999};
    ct_run_example("max", "7f ff ff ff ff ff ff ff 3b 9a c9 ff", w_dur, r_dur, &c, starts, 2);
  }
}

static void test_duration_carry(void **state) {
  (void)state;
  static const size_t starts[] = {0, 8};
  for (int inst = 0; inst < 2; inst++) {
    /* Nanoseconds >= 10^9 carry into the seconds (read only). */
    dur_case c = {inst != 0, {6, 0}};
    ct_run_example("carry 1e9", "00 00 00 00 00 00 00 05 3b 9a ca 00", NULL, r_dur, &c, starts, 2);
    c.v = (desert_duration){4 + 4, 294967295};
    ct_run_example("carry max", "00 00 00 00 00 00 00 04 ff ff ff ff", NULL, r_dur, &c, starts, 2);
    c.v = (desert_duration){-1 + 4, 294967295};
    ct_run_example("carry neg", "ff ff ff ff ff ff ff ff ff ff ff ff", NULL, r_dur, &c, starts, 2);
    c.v = (desert_duration){INT64_MAX, 294967295};
    ct_run_example("carry to max", "7f ff ff ff ff ff ff fb ff ff ff ff", NULL, r_dur, &c, starts,
                   2);
    /* A carry past INT64_MAX: invalid, at the value's first byte. */
    ct_run_bad_read("aa 7f ff ff ff ff ff ff ff 3b 9a ca 00", 1, r_dur, &c, DESERT_E_INVALID_VALUE,
                    1);
    ct_run_bad_read("aa bb 7f ff ff ff ff ff ff fc ff ff ff ff", 2, r_dur, &c,
                    DESERT_E_INVALID_VALUE, 2);
    /* Writers need nanos < 10^9. */
    c.v = (desert_duration){0, 1000000000};
    ct_run_bad_write(w_dur, &c, DESERT_E_ARGUMENT);
    c.v = (desert_duration){0, UINT32_MAX};
    ct_run_bad_write(w_dur, &c, DESERT_E_ARGUMENT);
  }
}

/* ---- BigInt ---------------------------------------------------------------------------------- */

static desert_status w_bigint(desert_writer *w, const void *arg) {
  size_t n;
  uint8_t *b = ct_dup_hex(arg, &n);
  desert_status st = desert_write_bigint(w, b, n);
  free(b);
  return st;
}
/* arg: hex of the expected block body. */
static desert_status r_bigint(desert_reader *r, const void *arg) {
  desert_bytes got = {NULL, 77};
  desert_status st = desert_read_bigint(r, &got);
  if (st == DESERT_OK) {
    size_t n;
    uint8_t *b = ct_dup_hex(arg, &n);
    desert_assert_bytes_equal(b, n, got.ptr, got.len);
    free(b);
  } else {
    assert_int_equal(got.len, 77);
  }
  return st;
}
static desert_status w_bigint_i64(desert_writer *w, const void *arg) {
  return desert_write_bigint_i64(w, *(const int64_t *)arg);
}
static desert_status r_bigint_i64(desert_reader *r, const void *arg) {
  int64_t got = 0x5a5a;
  desert_status st = desert_read_bigint_i64(r, &got);
  if (st == DESERT_OK)
    assert_int_equal(got, *(const int64_t *)arg);
  else
    assert_int_equal(got, 0x5a5a);
  return st;
}

static void test_bigint_format_table(void **state) {
  (void)state;
  /* docs/format.md §13.3. */
  static const struct {
    int64_t v;
    const char *hex;
    const char *body;
  } t[] = {
      {0, "01 00", "00"},
      {127, "01 7f", "7f"},
      {128, "02 00 80", "00 80"},
      {-128, "01 80", "80"},
      {-129, "02 ff 7f", "ff 7f"},
      {1234567890, "04 49 96 02 d2", "49 96 02 d2"},
      {INT64_MIN, "08 80 00 00 00 00 00 00 00", "80 00 00 00 00 00 00 00"},
      {INT64_MAX, "08 7f ff ff ff ff ff ff ff", "7f ff ff ff ff ff ff ff"},
      {-1, "01 ff", "ff"},
      {256, "02 01 00", "01 00"},
  };
  static const size_t starts[] = {0, 1};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    ct_run_example(t[i].hex, t[i].hex, w_bigint, r_bigint, t[i].body, starts, 2);
    ct_run_example(t[i].hex, t[i].hex, w_bigint_i64, r_bigint_i64, &t[i].v, starts, 2);
  }
}

static void test_bigint_minimal_writer(void **state) {
  (void)state;
  /* Any two's complement input is written in minimal form. */
  static const struct {
    const char *in;
    const char *out;
  } t[] = {
      {"00 00 7f", "01 7f"},    {"ff ff 80", "01 80"},    {"00", "01 00"},
      {"00 00 00", "01 00"},    {"ff", "01 ff"},          {"ff ff ff", "01 ff"},
      {"00 80", "02 00 80"},    {"00 00 80", "02 00 80"}, {"ff 7f", "02 ff 7f"},
      {"ff ff 7f", "02 ff 7f"}, {"ff 80 00", "02 80 00"}, {"00 ff", "02 00 ff"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(w_bigint(w, t[i].in), DESERT_OK);
    size_t n, wn;
    uint8_t *want = ct_dup_hex(t[i].out, &wn);
    const uint8_t *d = desert_writer_data(w, &n);
    desert_assert_bytes_equal(want, wn, d, n);
    free(want);
    desert_writer_free(w);
  }
  /* n = 0 and NULL are argument errors. */
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_bigint(w, (const uint8_t *)"", 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_reset(w);
  assert_int_equal(desert_write_bigint(w, NULL, 1), DESERT_E_ARGUMENT);
  desert_writer_free(w);
}

static void test_bigint_reader(void **state) {
  (void)state;
  /* An empty block is 0 (Rust). */
  static const size_t starts[] = {0, 1};
  ct_run_example("empty", "00", NULL, r_bigint, "", starts, 1);
  static const int64_t zero = 0, five = 5, min = INT64_MIN, m1 = -1;
  ct_run_example("empty i64", "00", NULL, r_bigint_i64, &zero, starts, 1);
  /* Non-minimal forms are accepted as they are. */
  ct_run_example("non-minimal", "03 00 00 05", NULL, r_bigint, "00 00 05", starts, 2);
  ct_run_example("non-minimal i64", "0a 00 00 00 00 00 00 00 00 00 05", NULL, r_bigint_i64, &five,
                 starts, 2);
  ct_run_example("non-minimal min", "09 ff 80 00 00 00 00 00 00 00", NULL, r_bigint_i64, &min,
                 starts, 2);
  ct_run_example("non-minimal -1", "0c ff ff ff ff ff ff ff ff ff ff ff ff", NULL, r_bigint_i64,
                 &m1, starts, 2);
  /* Values beyond int64_t: invalid at the block's length. */
  ct_run_bad_read("aa 09 00 80 00 00 00 00 00 00 00", 1, r_bigint_i64, &zero,
                  DESERT_E_INVALID_VALUE, 1);
  ct_run_bad_read("aa 09 ff 7f ff ff ff ff ff ff ff", 1, r_bigint_i64, &zero,
                  DESERT_E_INVALID_VALUE, 1);
  ct_run_bad_read("aa 09 01 00 00 00 00 00 00 00 00", 1, r_bigint_i64, &zero,
                  DESERT_E_INVALID_VALUE, 1);
  /* Byte-block errors. */
  ct_run_bad_read("aa 05 01 02", 1, r_bigint, "", DESERT_E_INPUT_ENDED, 2);
  ct_run_bad_read("aa 80 80 80 80 80", 1, r_bigint, "", DESERT_E_VARINT_TOO_LONG, 1);
}

static void test_bigint_conversions(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof big_table / sizeof big_table[0]; i++) {
    const char *dec = big_table[i].dec;
    size_t dl = strlen(dec);
    size_t hn;
    uint8_t *want = ct_dup_hex(big_table[i].hex, &hn);
    /* decimal -> bytes, with exactly the bound as capacity. */
    size_t cap = desert_bigint_bytes_bound(dl);
    uint8_t *out = malloc(cap);
    assert_non_null(out);
    size_t n = 0;
    assert_int_equal(desert_bigint_from_decimal(dec, dl, out, cap, &n), DESERT_OK);
    desert_assert_bytes_equal(want, hn, out, n);
    free(out);
    /* bytes -> decimal. */
    size_t tcap = desert_bigint_text_bound(hn);
    char *text = malloc(tcap);
    assert_non_null(text);
    size_t tl = 0;
    assert_int_equal(desert_bigint_to_decimal(want, hn, text, tcap, &tl), DESERT_OK);
    assert_int_equal(tl, dl);
    assert_memory_equal(text, dec, dl);
    free(text);
    /* Through a writer and a reader. */
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(desert_write_bigint(w, want, hn), DESERT_OK);
    size_t wn;
    const uint8_t *d = desert_writer_data(w, &wn);
    desert_reader *r = NULL;
    assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
    assert_int_equal(desert_reader_begin(r, d, wn), DESERT_OK);
    desert_bytes b;
    assert_int_equal(desert_read_bigint(r, &b), DESERT_OK);
    desert_assert_bytes_equal(want, hn, b.ptr, b.len);
    desert_reader_free(r);
    desert_writer_free(w);
    free(want);
  }
  /* Non-minimal and empty inputs to the text conversion. */
  char text[64];
  size_t tl;
  assert_int_equal(desert_bigint_to_decimal(NULL, 0, text, sizeof text, &tl), DESERT_OK);
  assert_int_equal(tl, 1);
  assert_memory_equal(text, "0", 1);
  assert_int_equal(desert_bigint_to_decimal((const uint8_t *)"\0\0\0", 3, text, sizeof text, &tl),
                   DESERT_OK);
  assert_memory_equal(text, "0", tl);
  assert_int_equal(
      desert_bigint_to_decimal((const uint8_t *)"\xff\xff\x80", 3, text, sizeof text, &tl),
      DESERT_OK);
  assert_int_equal(tl, 4);
  assert_memory_equal(text, "-128", 4);
}

static void test_bigint_conversion_errors(void **state) {
  (void)state;
  static const char *const bad[] = {"",   "-",   "-0", "01",  "+1",   "1a",  " 1", "1 ",
                                    "00", "-01", "1-", "--1", "0x10", "1.0", "1e3"};
  uint8_t out[64];
  size_t n = 99;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(desert_bigint_from_decimal(bad[i], strlen(bad[i]), out, sizeof out, &n),
                     DESERT_E_ARGUMENT);
    assert_int_equal(n, 99);
  }
  assert_int_equal(desert_bigint_from_decimal(NULL, 0, out, sizeof out, &n), DESERT_E_ARGUMENT);
  assert_int_equal(desert_bigint_from_decimal("1", 1, NULL, 8, &n), DESERT_E_ARGUMENT);
  assert_int_equal(desert_bigint_from_decimal("1", 1, out, 8, NULL), DESERT_E_ARGUMENT);
  /* Capacity below the bound. */
  assert_int_equal(
      desert_bigint_from_decimal("12345", 5, out, desert_bigint_bytes_bound(5) - 1, &n),
      DESERT_E_DST_TOO_SMALL);
  char text[8];
  assert_int_equal(desert_bigint_to_decimal((const uint8_t *)"\x7f", 1, text,
                                            desert_bigint_text_bound(1) - 1, &n),
                   DESERT_E_DST_TOO_SMALL);
  assert_int_equal(desert_bigint_to_decimal(NULL, 1, text, sizeof text, &n), DESERT_E_ARGUMENT);
  assert_int_equal(desert_bigint_to_decimal((const uint8_t *)"\x7f", 1, NULL, 8, &n),
                   DESERT_E_ARGUMENT);
  /* Bounds grow without overflowing. */
  assert_true(desert_bigint_bytes_bound(SIZE_MAX) > 0);
  assert_int_equal(desert_bigint_text_bound(SIZE_MAX), SIZE_MAX);
  assert_int_equal(desert_bigint_text_bound(0), 1);
}

/* Minimal form of a two's complement number (at least one byte). */
static size_t minimal(const uint8_t *b, size_t n) {
  size_t i = 0;
  while (i + 1 < n && ((b[i] == 0 && b[i + 1] < 0x80) || (b[i] == 0xff && b[i + 1] >= 0x80))) i++;
  return i;
}

static void test_bigint_random(void **state) {
  (void)state;
  desert_rng rng;
  desert_rng_init_test(&rng, 0xb1);
  for (int iter = 0; iter < 4000; iter++) {
    size_t n = desert_rng_range(&rng, 1, iter < 3000 ? 12 : 200);
    uint8_t in[200];
    desert_rng_fill(&rng, in, n);
    /* Sometimes sign-extension runs to exercise minimisation. */
    if (desert_rng_below(&rng, 4) == 0) memset(in, in[0] & 0x80 ? 0xff : 0x00, n / 2);
    char text[4 * 200 + 8]; /* desert_bigint_text_bound(200) */
    size_t tl;
    assert_true(desert_bigint_text_bound(n) <= sizeof text);
    assert_int_equal(desert_bigint_to_decimal(in, n, text, desert_bigint_text_bound(n), &tl),
                     DESERT_OK);
    if (n <= 8) {
      /* Independent check through int64 arithmetic. */
      uint64_t u = (in[0] & 0x80) ? UINT64_MAX : 0;
      for (size_t i = 0; i < n; i++) u = (u << 8) | in[i];
      int64_t v;
      memcpy(&v, &u, sizeof v);
      char ref[32];
      int rl = snprintf(ref, sizeof ref, "%" PRId64, v);
      assert_int_equal(tl, (size_t)rl);
      assert_memory_equal(text, ref, tl);
    }
    uint8_t back[4 * 200 + 2];
    size_t bn;
    assert_true(desert_bigint_bytes_bound(tl) <= sizeof back);
    assert_int_equal(desert_bigint_from_decimal(text, tl, back, sizeof back, &bn), DESERT_OK);
    size_t s = minimal(in, n);
    desert_assert_bytes_equal(in + s, n - s, back, bn);
  }
}

/* ---- BigDecimal ------------------------------------------------------------------------------ */

static desert_status w_bigdec(desert_writer *w, const void *arg) {
  return desert_write_bigdecimal(w, arg, strlen(arg));
}
static desert_status r_bigdec(desert_reader *r, const void *arg) {
  desert_str got = {NULL, CT_UNTOUCHED_LEN};
  return ct_check_text_read(desert_read_bigdecimal(r, &got), &got, arg);
}

static void test_bigdecimal_text(void **state) {
  (void)state;
  static const size_t starts[] = {0, 1};
  /* Java's exponent form (docs/format.md §13.4) and conformance s1000-0385. */
  ct_run_example("1E+3", "08 31 45 2b 33", w_bigdec, r_bigdec, "1E+3", starts, 2);
  ct_run_example("conformance", "28 35 34 38 34 34 37 34 39 39 37 31 36 39 2e 37 37 45 2b 33 32",
                 w_bigdec, r_bigdec, "5484474997169.77E+32", starts, 2);
  static const char *const good[] = {
      "0",   "-1.5", "+.5",        "1.",  "1e10", "1E-10",  ".5e+3",
      "123", "-0",   "00012.3400", "9e0", "+0.0", "-.0E-0", "12345678901234567890.1"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(w_bigdec(w, good[i]), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    desert_reader *r = NULL;
    assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
    assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
    assert_int_equal(r_bigdec(r, good[i]), DESERT_OK);
    desert_reader_free(r);
    desert_writer_free(w);
  }
  static const char *const bad[] = {"",         ".",   "+",   "-",   "e5",    "1e",      "1e+",
                                    "1.2.3",    "1x",  " 1",  "1 ",  "NaN",   "--1",     "1e5.0",
                                    "Infinity", "1,5", "+-1", ".e1", "1e--1", "\xc3\xa9"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ct_run_bad_write(w_bigdec, bad[i], DESERT_E_ARGUMENT);
    /* Stored as a plain string, it is rejected at the length varint. */
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(desert_write_u8(w, 0xaa), DESERT_OK);
    assert_int_equal(desert_write_cstring(w, bad[i]), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    char hex[256];
    desert_hex_encode(d, n, hex, sizeof hex);
    ct_run_bad_read(hex, 1, r_bigdec, bad[i], DESERT_E_INVALID_VALUE, 1);
    desert_writer_free(w);
  }
  /* String-level errors keep their own kinds and offsets. */
  ct_run_bad_read("aa 01", 1, r_bigdec, "", DESERT_E_NEGATIVE_LENGTH, 1);
  ct_run_bad_read("aa 04 31 ff", 1, r_bigdec, "", DESERT_E_INVALID_UTF8, 2);
  ct_run_bad_read("aa 06 31 32", 1, r_bigdec, "", DESERT_E_INPUT_ENDED, 2);
}

typedef struct bdb_case {
  int64_t scale;
  const char *unscaled_hex; /* minimal body */
} bdb_case;

static desert_status w_bdb(desert_writer *w, const void *arg) {
  const bdb_case *c = arg;
  size_t n;
  uint8_t *b = ct_dup_hex(c->unscaled_hex, &n);
  desert_status st = desert_write_bigdecimal_binary(w, c->scale, b, n);
  free(b);
  return st;
}
static desert_status r_bdb(desert_reader *r, const void *arg) {
  const bdb_case *c = arg;
  int64_t scale = 77;
  desert_bytes u = {NULL, 77};
  desert_status st = desert_read_bigdecimal_binary(r, &scale, &u);
  if (st == DESERT_OK) {
    assert_int_equal(scale, c->scale);
    size_t n;
    uint8_t *b = ct_dup_hex(c->unscaled_hex, &n);
    desert_assert_bytes_equal(b, n, u.ptr, u.len);
    free(b);
  } else {
    assert_int_equal(scale, 77);
    assert_int_equal(u.len, 77);
  }
  return st;
}

static void test_bigdecimal_binary(void **state) {
  (void)state;
  static const size_t starts[] = {0, 8, 9};
  /* 123.45 = 12345 x 10^-2. */
  bdb_case c = {2, "30 39"};
  ct_run_example("123.45", "00 00 00 00 00 00 00 02 02 30 39", w_bdb, r_bdb, &c, starts, 3);
  c = (bdb_case){-3, "ff"};
  ct_run_example("-1E+3", "ff ff ff ff ff ff ff fd 01 ff", w_bdb, r_bdb, &c, starts, 3);
  c = (bdb_case){0, "00"};
  ct_run_example("0", "00 00 00 00 00 00 00 00 01 00", w_bdb, r_bdb, &c, starts, 3);
  /* Non-minimal unscaled input is minimised. */
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_bigdecimal_binary(w, 1, (const uint8_t *)"\xff\xff\xfe", 3),
                   DESERT_OK);
  size_t n;
  const uint8_t *d = desert_writer_data(w, &n);
  desert_assert_bytes_equal("\0\0\0\0\0\0\0\x01\x01\xfe", 10, d, n);
  desert_writer_reset(w);
  assert_int_equal(desert_write_bigdecimal_binary(w, 1, NULL, 0), DESERT_E_ARGUMENT);
  assert_int_equal(desert_writer_size(w), 0);
  desert_writer_free(w);
}

static void test_null_arguments(void **state) {
  (void)state;
  desert_reader *r = NULL;
  assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
  assert_int_equal(desert_reader_begin(r, "\x01\x00", 2), DESERT_OK);
  assert_int_equal(desert_read_bigint(r, NULL), DESERT_E_ARGUMENT);
  assert_int_equal(desert_read_duration(NULL, NULL), DESERT_E_ARGUMENT);
  desert_reader_free(r);
  assert_int_equal(desert_write_duration(NULL, (desert_duration){0, 0}), DESERT_E_ARGUMENT);
  assert_int_equal(desert_write_bigdecimal(NULL, "1", 1), DESERT_E_ARGUMENT);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_duration_examples),
      cmocka_unit_test(test_duration_carry),
      cmocka_unit_test(test_bigint_format_table),
      cmocka_unit_test(test_bigint_minimal_writer),
      cmocka_unit_test(test_bigint_reader),
      cmocka_unit_test(test_bigint_conversions),
      cmocka_unit_test(test_bigint_conversion_errors),
      cmocka_unit_test(test_bigint_random),
      cmocka_unit_test(test_bigdecimal_text),
      cmocka_unit_test(test_bigdecimal_binary),
      cmocka_unit_test(test_null_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
