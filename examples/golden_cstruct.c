/* examples/golden_cstruct.c — `golden_cstruct [IN]`: the golden TestModel1
 * run through C-struct descriptors only (golden_cstruct_model.h: static
 * const data, no codec code). Decodes desert-scala's dataset1.bin (IN, by
 * default DESERT_GOLDEN_DIR/dataset1.bin of the build) into C structs,
 * prints a few fields, re-encodes it in the legacy form (must be the file
 * byte for byte) and in the modern form (must be what the hand-written
 * codec of golden_model.c writes: 242,534 bytes).
 * Exit status: 0 all identical, 1 a failure (status name and offset on
 * stderr), 77 the dataset is missing (printed "SKIP: ...").
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert_build_config.h"
#include "golden_cstruct_model.h"
#include "golden_model.h"

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 1 << 16;
      unsigned char *nb = realloc(buf, ncap);
      if (!nb) break;
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* Encodes m with the options' flags; the bytes stay in *w. */
static int encode(unsigned flags, const gcs_model *m, desert_writer **w, const uint8_t **d,
                  size_t *n) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  if (desert_writer_create(&o, w)) return 1;
  desert_status st = desert_cstruct_encode(*w, &gcs_model_desc, m);
  if (st) {
    fprintf(stderr, "golden_cstruct: encode failed: %s\n", desert_status_name(st));
    return 1;
  }
  *d = desert_writer_data(*w, n);
  return 0;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : DESERT_GOLDEN_DIR "/dataset1.bin";
  size_t len = 0;
  unsigned char *in = read_file(path, &len);
  if (!in) {
    /* CI sets DESERT_REQUIRE_GOLDEN=1: there a missing dataset fails. */
    const char *req = getenv("DESERT_REQUIRE_GOLDEN");
    if (req && strcmp(req, "1") == 0) {
      fprintf(stderr, "golden_cstruct: dataset not found at %s (DESERT_REQUIRE_GOLDEN=1)\n", path);
      return 1;
    }
    printf("SKIP: golden dataset not found at %s\n", path);
    return 77;
  }
  int rc = 1;
  desert_reader *r = NULL;
  desert_writer *lw = NULL, *mw = NULL, *hw = NULL;
  if (desert_cstruct_check(&gcs_model_desc)) {
    fprintf(stderr, "golden_cstruct: the descriptors do not check\n");
    goto out;
  }
  if (desert_reader_create(NULL, &r)) goto out;
  desert_reader_begin(r, in, len);
  gcs_model m;
  desert_status st = desert_cstruct_decode(r, &gcs_model_desc, &m);
  if (st) {
    fprintf(stderr, "golden_cstruct: decode failed: %s at offset %zu\n", desert_status_name(st),
            desert_reader_error_offset(r));
    goto out;
  }
  const int64_t *arr = m.array.items;
  const gcs_element1 *list = m.list.items;
  printf("golden_cstruct: read %zu of %zu bytes: int %d, string \"%.*s\", array[%zu] (last %lld), "
         "list[%zu] (last \"%.*s\"), tried %s, option %s with %zu entries\n",
         desert_reader_offset(r), len, (int)m.int_, (int)m.string.len, m.string.ptr, m.array.count,
         m.array.count ? (long long)arr[m.array.count - 1] : 0LL, m.list.count,
         m.list.count ? (int)list[m.list.count - 1].id.len : 0,
         m.list.count ? list[m.list.count - 1].id.ptr : "", m.tried_success ? "Success" : "Failure",
         m.has_option ? "Some" : "None", m.option.count);
  if (desert_reader_offset(r) != len) {
    fprintf(stderr, "golden_cstruct: %zu bytes left over\n", len - desert_reader_offset(r));
    goto out;
  }

  const uint8_t *ld, *md;
  size_t ln, mn;
  if (encode(DESERT_OPT_LEGACY_HEADER_STRINGS, &m, &lw, &ld, &ln)) goto out;
  if (ln != len || memcmp(ld, in, len)) {
    fprintf(stderr, "golden_cstruct: legacy re-encoding (%zu bytes) differs from the input\n", ln);
    goto out;
  }
  if (encode(0, &m, &mw, &md, &mn)) goto out;

  /* The modern form of the hand-written codec, from the same input. */
  golden_model hm;
  desert_reader_begin(r, in, len);
  if (golden_model_read(r, &hm) || desert_writer_create(NULL, &hw) || golden_model_write(hw, &hm))
    goto out;
  size_t hn;
  const uint8_t *hd = desert_writer_data(hw, &hn);
  if (mn != 242534 || mn != hn || memcmp(md, hd, mn)) {
    fprintf(stderr,
            "golden_cstruct: modern encoding (%zu bytes) differs from the hand-written one\n", mn);
    goto out;
  }
  printf("golden_cstruct: legacy %zu bytes identical to the input, modern %zu bytes identical to "
         "the hand-written codec\n",
         ln, mn);
  rc = 0;
out:
  desert_writer_free(hw);
  desert_writer_free(mw);
  desert_writer_free(lw);
  desert_reader_free(r);
  free(in);
  return rc;
}
