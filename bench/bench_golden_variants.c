/* bench/bench_golden_variants.c — the K rotated inputs of case 16 shared by
 * the golden rows of the type descriptors, the C-struct descriptors
 * (bench_golden_types.c) and `desert gen-c` output (bench_golden_gen.c):
 * variant k is dataset1.bin with the 30000 longs shifted by k * 10^6 and
 * `int` + k, written in legacy form by the hand-written codec of
 * examples/golden_model.c (variant 0 is the file byte for byte).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_golden_variants.h"
#include "desert.h"
#include "desert_build_config.h"
#include "golden_model.h"

int codec_golden_variants(desert_isa isa, uint8_t *var[CODEC_K], size_t var_len[CODEC_K],
                          codec_info *info) {
  char path[1024];
  const char *dir = getenv("DESERT_GOLDEN_DIR");
  snprintf(path, sizeof path, "%s/dataset1.bin", dir && *dir ? dir : DESERT_GOLDEN_DIR);
  size_t len = 0;
  uint8_t *file = codec_read_file(path, &len);
  memset(var, 0, CODEC_K * sizeof var[0]);
  if (!file) {
    snprintf(info->skip, sizeof info->skip,
             "golden dataset not found at %.120s (set DESERT_GOLDEN_DIR)", path);
    return 1;
  }
  desert_options opt, legacy;
  codec_options(&opt, isa, 0);
  codec_options(&legacy, isa, DESERT_OPT_LEGACY_HEADER_STRINGS);
  desert_reader *hr = NULL;
  desert_writer *lw = NULL;
  int64_t *arr = NULL;
  int bad = 1;
  golden_model m0;
  if (desert_reader_create(&opt, &hr) || desert_writer_create(&legacy, &lw)) {
    snprintf(info->fail, sizeof info->fail, "golden: cannot create contexts for ISA %s",
             desert_isa_name(isa));
    goto done;
  }
  desert_reader_begin(hr, file, len);
  if (golden_model_read(hr, &m0)) {
    snprintf(info->fail, sizeof info->fail, "golden: the file does not decode");
    goto done;
  }
  arr = malloc(m0.array_len * sizeof(int64_t) + 8);
  if (!arr) goto done;
  for (unsigned k = 0; k < CODEC_K; k++) {
    golden_model mk = m0;
    for (size_t j = 0; j < m0.array_len; j++) arr[j] = m0.array[j] + (int64_t)k * 1000000;
    mk.array = arr;
    mk.int_ = m0.int_ + (int32_t)k;
    desert_writer_reset(lw);
    size_t vlen = 0;
    const uint8_t *d = NULL;
    if (!golden_model_write(lw, &mk)) d = desert_writer_data(lw, &vlen);
    var[k] = d ? malloc(vlen) : NULL;
    if (!var[k]) {
      snprintf(info->fail, sizeof info->fail, "golden: variant %u: encode failure", k);
      goto done;
    }
    memcpy(var[k], d, vlen);
    var_len[k] = vlen;
  }
  bad = 0;
  info->bytes_per_op = len;
done:
  if (bad)
    for (unsigned k = 0; k < CODEC_K; k++) {
      free(var[k]);
      var[k] = NULL;
    }
  free(arr);
  free(file);
  desert_reader_free(hr);
  desert_writer_free(lw);
  return bad;
}
