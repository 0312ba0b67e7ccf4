/* test/support/cstruct_testlib.c — see cstruct_testlib.h.
 * SPDX-License-Identifier: MIT */
#include "cstruct_testlib.h"

#include <stdarg.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "test_util.h"

void desert_test_cstruct_hostile(const desert_cstruct *d, const uint8_t *bytes, size_t n,
                                 void *obj) {
  desert_counting_allocator ca;
  desert_counting_allocator_init(&ca);
  desert_options o;
  desert_options_init(&o);
  o.allocator = ca.allocator;
  for (size_t cut = 0; cut < n; cut++) {
    desert_reader *r = NULL;
    assert_int_equal(desert_reader_create(&o, &r), DESERT_OK);
    uint8_t *in = malloc(cut ? cut : 1);
    assert_non_null(in);
    memcpy(in, bytes, cut);
    assert_int_equal(desert_reader_begin(r, in, cut), DESERT_OK);
    desert_status st = desert_cstruct_decode(r, d, obj);
    if (st == DESERT_OK) fail_msg("prefix of %zu of %zu bytes decoded", cut, n);
    assert_int_equal(desert_reader_status(r), st);
    assert_true(desert_reader_error_offset(r) <= cut);
    desert_reader_free(r);
    free(in);
    assert_int_equal(ca.live_blocks, 0);
    assert_int_equal(ca.bad_frees, 0);
  }
  for (size_t k = 0;; k++) {
    assert_true(k < 1000);
    desert_reader *r = NULL;
    desert_counting_allocator_fail_after(&ca, k);
    if (desert_reader_create(&o, &r)) {
      assert_int_equal(ca.live_blocks, 0);
      continue;
    }
    assert_int_equal(desert_reader_begin(r, bytes, n), DESERT_OK);
    desert_status st = desert_cstruct_decode(r, d, obj);
    if (st == DESERT_OK) {
      assert_int_equal(desert_reader_offset(r), n);
      desert_counting_allocator_fail_after(&ca, SIZE_MAX);
      desert_writer *w = NULL;
      assert_int_equal(desert_writer_create(NULL, &w), DESERT_OK);
      assert_int_equal(desert_cstruct_encode(w, d, obj), DESERT_OK);
      size_t wn = 0;
      const uint8_t *out = desert_writer_data(w, &wn);
      desert_assert_bytes_equal(bytes, n, out, wn);
      desert_writer_free(w);
      desert_reader_free(r);
      assert_int_equal(ca.live_blocks, 0);
      assert_int_equal(ca.bad_frees, 0);
      return;
    }
    assert_int_equal(st, DESERT_E_NOMEM);
    desert_reader_free(r);
    assert_int_equal(ca.live_blocks, 0);
  }
}
