/* test/support/guarded.c — guard-page buffers (mmap + a PROT_NONE page
 * adjacent to the usable range) for out-of-bounds tests.
 * SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS under -std=c11 */
#include "guarded.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t desert_page_size(void) {
  const long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096u;
}

int desert_guarded_init(desert_guarded *g, size_t capacity, desert_guard_side side) {
  memset(g, 0, sizeof *g);
  const size_t page = desert_page_size();
  const size_t data = (capacity + page - 1) / page * page + (capacity == 0 ? page : 0);
  const size_t total = data + page;
  void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return -1;
  uint8_t *base = (uint8_t *)m;
  uint8_t *guard = side == DESERT_GUARD_AFTER ? base + data : base;
  if (mprotect(guard, page, PROT_NONE) != 0) {
    munmap(m, total);
    return -1;
  }
  g->map = base;
  g->map_len = total;
  g->usable = side == DESERT_GUARD_AFTER ? base : base + page;
  g->capacity = data;
  g->side = side;
  return 0;
}

void desert_guarded_free(desert_guarded *g) {
  if (g->map != NULL) munmap(g->map, g->map_len);
  memset(g, 0, sizeof *g);
}

void *desert_guarded_place(const desert_guarded *g, size_t len) {
  if (g->map == NULL || len > g->capacity) return NULL;
  return g->side == DESERT_GUARD_AFTER ? g->usable + (g->capacity - len) : g->usable;
}

void *desert_guarded_place_copy(const desert_guarded *g, const void *src, size_t len) {
  void *p = desert_guarded_place(g, len);
  if (p != NULL && len > 0) memcpy(p, src, len);
  return p;
}

int desert_guarded_set_readonly(const desert_guarded *g, int ro) {
  if (g->map == NULL) return -1;
  return mprotect(g->usable, g->capacity, ro ? PROT_READ : PROT_READ | PROT_WRITE) == 0 ? 0 : -1;
}
