/* test/fuzz/fuzz_refs.c — libFuzzer harness: object references (docs/format.md
 * §17) forming arbitrary graphs, cycles included.
 * SPDX-License-Identifier: MIT
 *
 * Wire shape of a node (a user codec of a graph): ref (var_u32: 0 = a new
 * node follows, k = node number k); a new node is registered before its
 * contents, then: i32 label, var_u32 child count (at most 8), the children.
 * The reader must hand back exactly the node registered under id k (the
 * harness decodes the id itself). A graph that decodes is written again
 * with desert_write_ref over the same nodes; reading that must give the
 * same shape (the second write is byte-identical to the first). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

#define MAX_NODES 4096
#define MAX_KIDS 8

typedef struct node {
  int32_t label;
  uint32_t nkids;
  struct node *kids[MAX_KIDS];
  uint32_t number; /* registration order, from 1 */
} node;

typedef struct graph {
  node *nodes; /* MAX_NODES */
  size_t count;
  const uint8_t *data;
  size_t len;
  unsigned budget;
} graph;

static bool peek_var(const graph *g, size_t at, uint32_t *v) {
  uint32_t x = 0;
  for (unsigned k = 0; k < 5; k++) {
    if (at + k >= g->len) return false;
    uint8_t b = g->data[at + k];
    x |= (uint32_t)(b & 0x7fu) << (7 * k);
    if (!(b & 0x80u)) {
      *v = x;
      return true;
    }
  }
  return false;
}

static node *read_node(desert_reader *r, graph *g) {
  if (g->budget == 0) return NULL;
  g->budget--;
  size_t at = desert_reader_offset(r);
  void *obj = (void *)1;
  if (desert_read_ref(r, &obj)) {
    if (desert_reader_status(r) == DESERT_E_INVALID_REF_ID) {
      uint32_t id;
      FZ_CHECK(peek_var(g, at, &id) && id > g->count);
      FZ_CHECK(desert_reader_error_offset(r) == at);
    }
    return NULL;
  }
  if (obj) {
    uint32_t id;
    FZ_CHECK(peek_var(g, at, &id) && id >= 1 && id <= g->count);
    FZ_CHECK_MSG(obj == &g->nodes[id - 1], "ref id %u resolved to another object", id);
    return obj;
  }
  if (g->count == MAX_NODES) {
    desert_reader_fail(r, DESERT_E_LIMIT, at); /* the harness's own limit */
    return NULL;
  }
  node *n = &g->nodes[g->count++];
  memset(n, 0, sizeof *n);
  n->number = (uint32_t)g->count;
  if (desert_reader_register_ref(r, n)) return NULL;
  if (desert_reader_enter(r)) return NULL;
  uint32_t kids = 0;
  if (!desert_read_i32(r, &n->label) && !desert_read_var_u32(r, &kids)) {
    if (kids > MAX_KIDS) {
      desert_reader_fail(r, DESERT_E_INVALID_VALUE, desert_reader_offset(r));
    } else {
      for (uint32_t i = 0; i < kids; i++) {
        node *k = read_node(r, g);
        if (!k) break;
        n->kids[n->nkids++] = k;
      }
    }
  }
  desert_reader_leave(r);
  return desert_reader_status(r) ? NULL : n;
}

static void write_node(desert_writer *w, const node *n) {
  bool is_new = false;
  FZ_CHECK(desert_write_ref(w, n, &is_new) == DESERT_OK);
  if (!is_new) return;
  desert_write_i32(w, n->label);
  desert_write_var_u32(w, n->nkids);
  for (uint32_t i = 0; i < n->nkids; i++) write_node(w, n->kids[i]);
}

FZ_TARGET(refs) {
  static node pool_a[MAX_NODES], pool_b[MAX_NODES];
  desert_options o;
  fz_options(&o, 0);
  desert_reader *r = fz_reader_new(&o);
  graph g = {pool_a, 0, data, size, 20000};
  fz_decode_begin(r, data, size);
  /* Several roots in one session: later roots may refer to earlier nodes. */
  node *roots[16];
  size_t nroots = 0;
  while (nroots < 16 && desert_reader_remaining(r) > 0) {
    node *n = read_node(r, &g);
    if (!n) break;
    roots[nroots++] = n;
  }
  desert_status st = fz_decode_end(r);
  if (st == DESERT_E_DEPTH) FZ_CHECK(desert_reader_error_offset(r) <= size);

  if (nroots) {
    desert_writer *w = NULL;
    FZ_CHECK(desert_writer_create(NULL, &w) == DESERT_OK);
    for (size_t i = 0; i < nroots; i++) write_node(w, roots[i]);
    FZ_CHECK(desert_writer_status(w) == DESERT_OK);
    size_t n1;
    const uint8_t *p = desert_writer_data(w, &n1);
    uint8_t *b1 = malloc(n1);
    FZ_CHECK(b1 != NULL);
    memcpy(b1, p, n1);

    graph g2 = {pool_b, 0, b1, n1, 20000};
    fz_decode_begin(r, b1, n1);
    node *roots2[16];
    for (size_t i = 0; i < nroots; i++) {
      roots2[i] = read_node(r, &g2);
      FZ_CHECK_MSG(roots2[i] != NULL, "own output does not decode: %s",
                   desert_status_name(desert_reader_status(r)));
    }
    FZ_CHECK(desert_reader_offset(r) == n1);
    fz_decode_end(r);
    desert_writer_reset(w);
    for (size_t i = 0; i < nroots; i++) write_node(w, roots2[i]);
    size_t n2;
    const uint8_t *b2 = desert_writer_data(w, &n2);
    FZ_CHECK_MSG(n1 == n2 && memcmp(b1, b2, n1) == 0, "graph changed through write + read");
    FZ_CHECK(g2.count <= g.count);
    free(b1);
    desert_writer_free(w);
  }
  fz_reader_free(r);
  return 0;
}
