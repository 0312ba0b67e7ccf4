/* src/core/strtab.c — DeduplicatedString table (see strtab.h): entries indexed
 * by id, plus an open-addressing hash index from content to id, with the
 * last id seen checked before hashing.
 * SPDX-License-Identifier: MIT */
#include "core/strtab.h"

/* Field by field rather than memset: a struct-sized memset becomes
 * `rep stosq` (see desert_zero), and this runs at every context create. */
void desert_strtab_init(desert_strtab *t, const desert_allocator *alloc, bool copy_keys) {
  t->alloc = alloc;
  t->copy_keys = copy_keys;
  t->dirty = false;
  t->entries = NULL;
  t->count = t->entries_cap = 0;
  t->slots = NULL;
  t->slots_cap = 0;
  t->last = 0;
  desert_arena_init(&t->text, alloc);
}

void desert_strtab_clear(desert_strtab *t) {
  /* Most messages never touch the table: keep their reset free. */
  if (!t->dirty) return;
  t->dirty = false;
  t->count = 0;
  t->last = 0;
  if (t->slots) memset(t->slots, 0, t->slots_cap * sizeof *t->slots);
  desert_arena_reset(&t->text);
}

void desert_strtab_free(desert_strtab *t) {
  desert_mem_free(t->alloc, t->entries, t->entries_cap * sizeof *t->entries);
  desert_mem_free(t->alloc, t->slots, t->slots_cap * sizeof *t->slots);
  desert_arena_free(&t->text);
  t->entries = NULL;
  t->slots = NULL;
  t->count = t->entries_cap = t->slots_cap = 0;
  t->last = 0;
}

static inline uint64_t load64(const char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}
static inline uint32_t load32(const char *p) {
  uint32_t w;
  memcpy(&w, p, 4);
  return w;
}

/* Multiplicative hash; strings are trusted in the writer and the reader's
 * table size is bounded by its input, so no keyed hash. Every load has a
 * fixed size (overlapping at the ends): a variable-length memcpy would be
 * a library call on the dedup hot path. Strings of at most 16 bytes (most
 * deduplicated strings: names, tags, enum-like values) take two loads and
 * one mixing round; longer ones a round per 8 bytes. */
static uint64_t hash_bytes(const char *s, size_t len) {
  const uint64_t m = 0x9E3779B97F4A7C15ull;
  uint64_t a, b;
  if (len <= 16) {
    if (len >= 8) {
      a = load64(s);
      b = load64(s + len - 8);
    } else if (len >= 4) {
      a = load32(s);
      b = load32(s + len - 4);
    } else if (len) {
      a = (uint64_t)(uint8_t)s[0] << 16 | (uint64_t)(uint8_t)s[len / 2] << 8 | (uint8_t)s[len - 1];
      b = 0;
    } else {
      a = b = 0;
    }
    uint64_t h = (a ^ (uint64_t)len * m) * m ^ (b + 0x2545F4914F6CDD1Dull);
    h *= m;
    return h ^ (h >> 32);
  }
  uint64_t h = (uint64_t)len * m ^ 0x2545F4914F6CDD1Dull;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    h = (h ^ load64(s + i)) * m;
    h ^= h >> 29;
  }
  if (i < len) { /* the last 8 bytes, overlapping the loop's */
    h = (h ^ load64(s + len - 8)) * m;
    h ^= h >> 29;
  }
  h *= m;
  return h ^ (h >> 32);
}

/* Whether the len bytes at x and y are equal. Dedup strings are mostly
 * short (names, tags, keys), and a memcmp call for them cost more than the
 * rest of a lookup (perf: 39 % of serializing a 28-byte string 100 times):
 * up to 32 bytes are compared as overlapping words. */
static inline bool same_bytes(const char *x, const char *y, size_t len) {
  if (len > 16 && len <= 32)
    return load64(x) == load64(y) && load64(x + 8) == load64(y + 8) &&
           load64(x + len - 16) == load64(y + len - 16) && load64(x + len - 8) == load64(y + len - 8);
  if (len >= 8 && len <= 16)
    return load64(x) == load64(y) && load64(x + len - 8) == load64(y + len - 8);
  if (len >= 4 && len < 8)
    return load32(x) == load32(y) && load32(x + len - 4) == load32(y + len - 4);
  if (len < 4) {
    for (size_t i = 0; i < len; i++)
      if (x[i] != y[i]) return false;
    return true;
  }
  return memcmp(x, y, len) == 0;
}

static bool entry_is(const desert_strtab_entry *e, const char *s, size_t len, uint64_t h) {
  return e->hash == h && e->len == len && same_bytes(e->ptr, s, len);
}

/* Probe of the hash index; 0 when absent. */
static uint32_t lookup(const desert_strtab *t, const char *s, size_t len, uint64_t h) {
  size_t mask = t->slots_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    uint32_t id = t->slots[i];
    if (id == 0) return 0;
    if (entry_is(&t->entries[id - 1], s, len, h)) return id;
  }
}

/* The last-seen entry, if it holds the text. */
static inline bool is_last(const desert_strtab *t, const char *s, size_t len) {
  if (!t->last) return false;
  const desert_strtab_entry *e = &t->entries[t->last - 1];
  return e->len == len && same_bytes(e->ptr, s, len);
}

uint32_t desert_strtab_find(desert_strtab *t, const char *s, size_t len) {
  if (t->count == 0) return 0;
  if (is_last(t, s, len)) return t->last;
  uint32_t id = lookup(t, s, len, hash_bytes(s, len));
  if (id) t->last = id;
  return id;
}

static void index_entry(desert_strtab *t, uint32_t id) {
  size_t mask = t->slots_cap - 1;
  size_t i = (size_t)t->entries[id - 1].hash & mask;
  while (t->slots[i] != 0) i = (i + 1) & mask;
  t->slots[i] = id;
}

static desert_status grow_slots(desert_strtab *t) {
  size_t ncap = t->slots_cap ? t->slots_cap * 2 : 64;
  uint32_t *ns = desert_mem_alloc(t->alloc, ncap * sizeof *ns);
  if (!ns) return DESERT_E_NOMEM;
  memset(ns, 0, ncap * sizeof *ns);
  desert_mem_free(t->alloc, t->slots, t->slots_cap * sizeof *t->slots);
  t->slots = ns;
  t->slots_cap = ncap;
  for (size_t id = 1; id <= t->count; id++) index_entry(t, (uint32_t)id);
  return DESERT_OK;
}

static desert_status grow_entries(desert_strtab *t) {
  size_t ncap = t->entries_cap ? t->entries_cap * 2 : 32;
  desert_strtab_entry *ne = desert_mem_alloc(t->alloc, ncap * sizeof *ne);
  if (!ne) return DESERT_E_NOMEM;
  if (t->count) memcpy(ne, t->entries, t->count * sizeof *ne);
  desert_mem_free(t->alloc, t->entries, t->entries_cap * sizeof *t->entries);
  t->entries = ne;
  t->entries_cap = ncap;
  return DESERT_OK;
}

desert_status desert_strtab_add(desert_strtab *t, const char *s, size_t len, uint32_t *id,
                                bool *added) {
  if (is_last(t, s, len)) {
    *id = t->last;
    *added = false;
    return DESERT_OK;
  }
  const uint64_t h = hash_bytes(s, len);
  uint32_t found = t->count ? lookup(t, s, len, h) : 0;
  if (found) {
    t->last = found;
    *id = found;
    *added = false;
    return DESERT_OK;
  }
  if (t->count >= INT32_MAX) return DESERT_E_LIMIT;
  desert_status st;
  if (t->count == t->entries_cap && (st = grow_entries(t)) != DESERT_OK) return st;
  /* Keep the load factor at or below 1/2. */
  if ((t->count + 1) * 2 > t->slots_cap && (st = grow_slots(t)) != DESERT_OK) return st;
  const char *key = s;
  if (t->copy_keys && len > 0) {
    char *copy = desert_arena_alloc(&t->text, len, 1);
    if (!copy) return DESERT_E_NOMEM;
    memcpy(copy, s, len);
    key = copy;
  }
  desert_strtab_entry *e = &t->entries[t->count];
  e->ptr = key;
  e->len = len;
  e->hash = h;
  t->count++;
  t->dirty = true;
  index_entry(t, (uint32_t)t->count);
  t->last = (uint32_t)t->count;
  *id = (uint32_t)t->count;
  *added = true;
  return DESERT_OK;
}

const desert_strtab_entry *desert_strtab_get(const desert_strtab *t, uint64_t id) {
  if (id == 0 || id > t->count) return NULL;
  return &t->entries[id - 1];
}

void desert_strtab_truncate(desert_strtab *t, size_t n) {
  if (n >= t->count) return;
  t->count = n;
  if (t->last > n) t->last = 0;
  /* Rebuild the index: only the legacy writer does this, once per record
   * that registers header strings, on small tables. (The copied text of the
   * dropped entries stays in the arena until the next message.) */
  memset(t->slots, 0, t->slots_cap * sizeof *t->slots);
  for (size_t id = 1; id <= t->count; id++) index_entry(t, (uint32_t)id);
}
