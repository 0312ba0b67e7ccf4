/* src/core/reftab.c — object reference table (see reftab.h).
 * SPDX-License-Identifier: MIT */
#include "core/reftab.h"

void desert_reftab_init(desert_reftab *t, const desert_allocator *alloc) {
  t->alloc = alloc; /* field by field: see desert_strtab_init */
  t->objs = NULL;
  t->count = t->objs_cap = 0;
  t->slots = NULL;
  t->slots_cap = 0;
}

void desert_reftab_clear(desert_reftab *t) {
  if (t->count == 0) return;
  t->count = 0;
  if (t->slots) memset(t->slots, 0, t->slots_cap * sizeof *t->slots);
}

void desert_reftab_free(desert_reftab *t) {
  desert_mem_free(t->alloc, t->objs, t->objs_cap * sizeof *t->objs);
  desert_mem_free(t->alloc, t->slots, t->slots_cap * sizeof *t->slots);
  memset(t, 0, sizeof *t);
}

static size_t ptr_hash(const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 31));
}

uint32_t desert_reftab_find(const desert_reftab *t, const void *obj) {
  if (!t->slots_cap) return 0;
  size_t mask = t->slots_cap - 1;
  for (size_t i = ptr_hash(obj) & mask;; i = (i + 1) & mask) {
    uint32_t id = t->slots[i];
    if (id == 0) return 0;
    if (t->objs[id - 1] == obj) return id;
  }
}

static void index_obj(desert_reftab *t, uint32_t id) {
  size_t mask = t->slots_cap - 1;
  size_t i = ptr_hash(t->objs[id - 1]) & mask;
  while (t->slots[i] != 0) i = (i + 1) & mask;
  t->slots[i] = id;
}

desert_status desert_reftab_add(desert_reftab *t, void *obj, bool index_it, uint32_t *id) {
  if (t->count >= UINT32_MAX - 1) return DESERT_E_LIMIT;
  if (t->count == t->objs_cap) {
    size_t ncap = t->objs_cap ? t->objs_cap * 2 : 16;
    void **no = desert_mem_alloc(t->alloc, ncap * sizeof *no);
    if (!no) return DESERT_E_NOMEM;
    if (t->count) memcpy(no, t->objs, t->count * sizeof *no);
    desert_mem_free(t->alloc, t->objs, t->objs_cap * sizeof *t->objs);
    t->objs = no;
    t->objs_cap = ncap;
  }
  if (index_it && (t->count + 1) * 2 > t->slots_cap) {
    size_t ncap = t->slots_cap ? t->slots_cap * 2 : 32;
    uint32_t *ns = desert_mem_alloc(t->alloc, ncap * sizeof *ns);
    if (!ns) return DESERT_E_NOMEM;
    memset(ns, 0, ncap * sizeof *ns);
    desert_mem_free(t->alloc, t->slots, t->slots_cap * sizeof *t->slots);
    t->slots = ns;
    t->slots_cap = ncap;
    for (size_t i = 1; i <= t->count; i++) index_obj(t, (uint32_t)i);
  }
  t->objs[t->count++] = obj;
  *id = (uint32_t)t->count;
  if (index_it) index_obj(t, *id);
  return DESERT_OK;
}

void *desert_reftab_get(const desert_reftab *t, uint64_t id, bool *found) {
  if (id == 0 || id > t->count) {
    *found = false;
    return NULL;
  }
  *found = true;
  return t->objs[id - 1];
}
