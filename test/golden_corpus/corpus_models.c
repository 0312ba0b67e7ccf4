/* test/golden_corpus/corpus_models.c — comparison helpers shared by the
 * theme modules of corpus_models.h.
 * SPDX-License-Identifier: MIT */
#include "corpus_models.h"

bool golden_list_eq(desert_clist a, desert_clist b, size_t size,
                    bool (*eq)(const void *, const void *)) {
  if (a.count != b.count) return false;
  for (size_t i = 0; i < a.count; i++)
    if (!eq((const char *)a.items + i * size, (const char *)b.items + i * size)) return false;
  return true;
}

static bool str_item_eq(const void *a, const void *b) {
  return golden_str_eq(*(const desert_str *)a, *(const desert_str *)b);
}

bool golden_str_list_eq(desert_clist a, desert_clist b) {
  return golden_list_eq(a, b, sizeof(desert_str), str_item_eq);
}
