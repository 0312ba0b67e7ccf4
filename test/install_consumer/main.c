/* test/install_consumer/main.c — uses an installed libdesert through its
 * public umbrella header only; built through find_package(desert) and
 * through pkg-config, shared and static (run.sh). Exit 0 when every check holds.
 * The compressed round trip makes a static link pull in libdeflate and
 * libzstd, so a package that forgets them fails here.
 * SPDX-License-Identifier: MIT */
#include <desert.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "consumer: check failed at line %d: %s\n", __LINE__, #cond); \
      failures++;                                                                  \
    }                                                                              \
  } while (0)

static void check_compressed_round_trip(void) {
  static const char text[] = "desert desert desert desert desert desert desert desert";
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  CHECK(desert_writer_create(NULL, &w) == DESERT_OK);
  CHECK(desert_reader_create(NULL, &r) == DESERT_OK);
  if (w == NULL || r == NULL) {
    desert_writer_free(w);
    desert_reader_free(r);
    return;
  }
  CHECK(desert_write_compressed(w, DESERT_COMPRESSION_RAW, -1, text, sizeof text) == DESERT_OK);
  CHECK(desert_write_compressed_zstd(w, -1, text, sizeof text) == DESERT_OK);
  size_t len = 0;
  const uint8_t *data = desert_writer_data(w, &len);
  CHECK(data != NULL && len > 0);
  CHECK(desert_reader_begin(r, data, len) == DESERT_OK);
  desert_bytes deflated = {NULL, 0};
  desert_bytes zstd = {NULL, 0};
  CHECK(desert_read_compressed(r, DESERT_COMPRESSION_RAW, &deflated) == DESERT_OK);
  CHECK(desert_read_compressed_zstd(r, &zstd) == DESERT_OK);
  CHECK(deflated.len == sizeof text && memcmp(deflated.ptr, text, sizeof text) == 0);
  CHECK(zstd.len == sizeof text && memcmp(zstd.ptr, text, sizeof text) == 0);
  CHECK(desert_reader_remaining(r) == 0);
  desert_reader_free(r);
  desert_writer_free(w);
}

int main(void) {
  const char *version = desert_version_string();
  CHECK(version != NULL && strcmp(version, DESERT_VERSION_STRING) == 0);
  CHECK(desert_version_number() == DESERT_VERSION_NUMBER);
  CHECK(strcmp(desert_status_name(DESERT_E_INPUT_ENDED), "DESERT_E_INPUT_ENDED") == 0);

  /* "café € 🌵": 1-, 2-, 3- and 4-byte sequences. */
  static const char good[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\xb5";
  size_t offset = 12345;
  CHECK(desert_utf8_validate(good, sizeof good - 1, &offset) == DESERT_OK);
  /* A lead byte followed by a non-continuation byte at offset 3. */
  static const char bad[] = "abc\xc3(xyz";
  CHECK(desert_utf8_validate(bad, sizeof bad - 1, &offset) == DESERT_E_INVALID_UTF8);
  CHECK(offset == 3);

  check_compressed_round_trip();

  if (failures != 0) {
    fprintf(stderr, "consumer: %d check(s) failed\n", failures);
    return 1;
  }
  printf("consumer: ok (libdesert %s, active ISA %s)\n", version,
         desert_isa_name(desert_active_isa()));
  return 0;
}
