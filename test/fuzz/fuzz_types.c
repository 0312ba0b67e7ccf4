/* test/fuzz/fuzz_types.c — libFuzzer harness of the generic type codec
 * (desert_type_decode / desert_type_encode of include/desert/types.h):
 * fuzzer bytes decoded under fixed schemas (fuzz_schema_util.c: evolved
 * records, enums with transient constructors, both collection forms,
 * options, either/try, tuples, maps, recursion, dates and times, big
 * numbers, compressed blocks, deduplicated strings, Scala options).
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 picks the schema (mod the count), byte 1 the options
 * (fzs_options: bit 7 = override the document's options with bits 0..5;
 * bit 6 = decode through the traced decoder), the rest is the data.
 * Checks (fzs_decode_check): reader invariants and the memory bound of
 * fuzz_common, an error has a status kind and an offset inside the input
 * equal to the reader's, the value arena stays within the node budget, and
 * a decoded value prints canonical JSON, re-encodes, decodes again to the
 * same text consuming every byte, encodes to identical bytes a second time,
 * and its canonical text converts back to the same value and bytes. */
#include "fuzz_common.h"
#include "fuzz_schema_util.h"

FZ_TARGET(types) {
  fz_in in = {data, size};
  uint8_t pick = fz_u8(&in);
  uint8_t sel = fz_u8(&in);
  const desert_schema *s = fzs_schema(pick);
  desert_options o;
  fzs_options(s, sel, &o);
  fzs_decode_check(s, &o, in.p, in.n, (sel & 0x40u) != 0);
  return 0;
}
