/* test/test_values_net.c — Rust-only network values (docs/format.md §13.5–§13.6):
 * IpAddr (00 + 4 / 01 + 16 bytes, another tag is InvalidConstructorId),
 * MacAddress (6 raw bytes) and Url (a String with a scheme); exact bytes,
 * truncation at every byte, error kinds and offsets, writer checks.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "desert/values.h"
#include "codec_testlib.h"
#include "test_util.h"

/* ---- IpAddr ---------------------------------------------------------------------------- */

static desert_status w_ip(desert_writer *w, const void *arg) {
  return desert_write_ip_addr(w, arg);
}
static desert_status r_ip(desert_reader *r, const void *arg) {
  const desert_ip_addr *want = arg;
  desert_ip_addr got;
  memset(&got, 0xee, sizeof got);
  desert_status st = desert_read_ip_addr(r, &got);
  if (st == DESERT_OK) {
    assert_int_equal(got.is_v6, want->is_v6);
    assert_memory_equal(got.bytes, want->bytes, want->is_v6 ? 16 : 4);
  } else {
    assert_int_equal(got.bytes[0], 0xee); /* untouched */
  }
  return st;
}

static void test_ip_addr(void **state) {
  (void)state;
  /* docs/format.md §13.5: 10.1.2.3 -> 00 0a 01 02 03. */
  desert_ip_addr v4 = {false, {10, 1, 2, 3}};
  static const size_t starts[] = {0, 1};
  ct_run_example("10.1.2.3", "00 0a 01 02 03", w_ip, r_ip, &v4, starts, 2);
  /* 2001:db8::1 */
  desert_ip_addr v6 = {true, {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}};
  ct_run_example("2001:db8::1", "01 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01", w_ip, r_ip,
                 &v6, starts, 2);
  /* Only the first 4 bytes of an IPv4 address are written. */
  desert_ip_addr v4junk = {false, {127, 0, 0, 1, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}};
  desert_ip_addr v4clean = {false, {127, 0, 0, 1}};
  ct_run_example("127.0.0.1", "00 7f 00 00 01", w_ip, r_ip, &v4junk, starts, 2);
  ct_run_example("127.0.0.1", "00 7f 00 00 01", w_ip, r_ip, &v4clean, starts, 2);
  /* Another tag: InvalidConstructorId at the tag byte. */
  ct_run_bad_read("aa 02 0a 01 02 03", 1, r_ip, &v4, DESERT_E_INVALID_CONSTRUCTOR_ID, 1);
  ct_run_bad_read("aa bb ff", 2, r_ip, &v4, DESERT_E_INVALID_CONSTRUCTOR_ID, 2);
  ct_run_bad_read("aa 01 00 00 00 00", 1, r_ip, &v6, DESERT_E_INPUT_ENDED, 2);
  ct_run_bad_write(w_ip, NULL, DESERT_E_ARGUMENT);
}

/* ---- MacAddress --------------------------------------------------------------------------- */

static desert_status w_mac(desert_writer *w, const void *arg) {
  return desert_write_mac_address(w, arg);
}
static desert_status r_mac(desert_reader *r, const void *arg) {
  uint8_t got[6] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
  desert_status st = desert_read_mac_address(r, got);
  if (st == DESERT_OK)
    assert_memory_equal(got, arg, 6);
  else
    assert_int_equal(got[0], 0xee);
  return st;
}

static void test_mac_address(void **state) {
  (void)state;
  static const uint8_t mac[6] = {0x00, 0x1b, 0x63, 0x84, 0x45, 0xe6};
  static const size_t starts[] = {0};
  ct_run_example("mac", "00 1b 63 84 45 e6", w_mac, r_mac, mac, starts, 1);
  ct_run_bad_write(w_mac, NULL, DESERT_E_ARGUMENT);
}

/* ---- Url ------------------------------------------------------------------------------------- */

static desert_status w_url(desert_writer *w, const void *arg) {
  return desert_write_url(w, arg, strlen(arg));
}
static desert_status r_url(desert_reader *r, const void *arg) {
  desert_str got = {NULL, CT_UNTOUCHED_LEN};
  return ct_check_text_read(desert_read_url(r, &got), &got, arg);
}

static void test_url(void **state) {
  (void)state;
  static const size_t starts[] = {0, 1};
  ct_run_example("url", "28 68 74 74 70 73 3a 2f 2f 65 78 61 6d 70 6c 65 2e 63 6f 6d 2f", w_url,
                 r_url, "https://example.com/", starts, 2);
  static const char *const good[] = {"http://a",    "mailto:x@y",    "urn:isbn:0451450523",
                                     "a:",          "A+b-c.d9:rest", "file:///tmp/%C3%A9",
                                     "data:,Hello", "h\xc3\xa9llo:"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    /* "h\xc3\xa9llo:" has a non-ASCII scheme char: rejected. */
    bool ok = i + 1 < sizeof good / sizeof good[0];
    if (!ok) {
      ct_run_bad_write(w_url, good[i], DESERT_E_ARGUMENT);
      continue;
    }
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(w_url(w, good[i]), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    desert_reader *r = NULL;
    assert_int_equal(desert_reader_create(NULL, &r), DESERT_OK);
    assert_int_equal(desert_reader_begin(r, d, n), DESERT_OK);
    assert_int_equal(r_url(r, good[i]), DESERT_OK);
    desert_reader_free(r);
    desert_writer_free(w);
  }
  static const char *const bad[] = {"",   "example.com", "//host/path", "1http://x", "ht tp://x",
                                    ":x", "http",        "-a:b",        "+a:"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ct_run_bad_write(w_url, bad[i], DESERT_E_ARGUMENT);
    desert_writer *w = NULL;
    assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
    assert_int_equal(desert_write_u8(w, 0xaa), DESERT_OK);
    assert_int_equal(desert_write_cstring(w, bad[i]), DESERT_OK);
    size_t n;
    const uint8_t *d = desert_writer_data(w, &n);
    char hex[128];
    desert_hex_encode(d, n, hex, sizeof hex);
    ct_run_bad_read(hex, 1, r_url, bad[i], DESERT_E_INVALID_VALUE, 1);
    desert_writer_free(w);
  }
  /* Invalid UTF-8 is a string error in both directions. */
  ct_run_bad_write(w_url, "http://\xff", DESERT_E_INVALID_UTF8);
  ct_run_bad_read("aa 10 68 74 74 70 3a 2f 2f ff", 1, r_url, "", DESERT_E_INVALID_UTF8, 2);
  ct_run_bad_read("aa 03", 1, r_url, "", DESERT_E_NEGATIVE_LENGTH, 1);
  ct_run_bad_read("aa 10 68 74", 1, r_url, "", DESERT_E_INPUT_ENDED, 2);
  ct_run_bad_write(w_url, "x", DESERT_E_ARGUMENT);
  desert_writer *w = NULL;
  assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
  assert_int_equal(desert_write_url(w, NULL, 0), DESERT_E_ARGUMENT);
  desert_writer_free(w);
}

int main(void) {
  desert_test_check_expected_isa();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ip_addr),
      cmocka_unit_test(test_mac_address),
      cmocka_unit_test(test_url),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
