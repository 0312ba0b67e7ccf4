/* test/golden_corpus/corpus_api.c — hand-written codecs and models of
 * golden/zstd.bin and golden/api_only.bin (see corpus_api.h).
 * SPDX-License-Identifier: MIT */
#include "corpus_api.h"

#include <string.h>

#include "desert/record.h"

#define STR(s) {(s), sizeof(s) - 1}

const char golden_para[] =
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, "
    "desert golden corpus: the same words again and again, ";

const golden_zstd golden_zstd_model = {
    {(const uint8_t *)"hello hello hello", 17}, {(const uint8_t *)"", 0},
    {(const uint8_t *)golden_para, GOLDEN_PARA_LEN}};

desert_status golden_zstd_write(desert_writer *w, const golden_zstd *m) {
  desert_write_compressed_zstd(w, 3, m->text.ptr, m->text.len);
  desert_write_compressed_zstd(w, 3, m->empty.ptr, m->empty.len);
  return desert_write_compressed_zstd(w, 19, m->para.ptr, m->para.len);
}

desert_status golden_zstd_read(desert_reader *r, golden_zstd *out) {
  desert_read_compressed_zstd(r, &out->text);
  desert_read_compressed_zstd(r, &out->empty);
  return desert_read_compressed_zstd(r, &out->para);
}

/* ---- api_only ---- */

static const golden_node node_a, node_b;
static const golden_node node_a = {STR("A"), &node_b};
static const golden_node node_b = {STR("B"), &node_a};

const uint32_t golden_registry_ids[3] = {1, 2, 5};

const golden_api_only golden_api_only_model = {
    {0x8000000000000000u, 1u},
    {UINT64_MAX, UINT64_MAX - 1u}, /* -2 */
    {false, {10, 1, 2, 3}},
    {true, {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
    {0x00, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e},
    STR("https://example.org/a?b=c"),
    {1, 2, 0},
    {5, -1, 0},
    {1, 3},
    {(const uint8_t *)"{\"a\":1}", 7},
    5,
    42,
    &node_a,
    &node_b};

/* A node through the reference table, then its Option[Node] `next`. The
 * recursion is as deep as the chain of new nodes (2 here). */
static desert_status write_node(desert_writer *w, const golden_node *n) {
  bool is_new = false;
  desert_status st = desert_write_ref(w, n, &is_new);
  if (st || !is_new) return st;
  desert_write_string(w, n->name.ptr, n->name.len);
  desert_write_option(w, n->next != NULL);
  return n->next ? write_node(w, n->next) : desert_writer_status(w);
}

desert_status golden_api_only_write(desert_writer *w, const golden_api_only *m) {
  desert_write_u128(w, m->u128);
  desert_write_u128(w, m->i128);
  desert_write_ip_addr(w, &m->ip4);
  desert_write_ip_addr(w, &m->ip6);
  desert_write_mac_address(w, m->mac);
  desert_write_url(w, m->url.ptr, m->url.len);
  for (size_t i = 0; i < 3; i++) {
    desert_write_u8(w, m->bound_tags[i]);
    if (m->bound_tags[i]) desert_write_i32(w, m->bounds[i]);
  }
  desert_write_i32(w, m->range[0]);
  desert_write_i32(w, m->range[1]);
  desert_write_bytes(w, m->json.ptr, m->json.len);
  size_t index = 0;
  while (index < 3 && golden_registry_ids[index] != m->type_id) index++;
  desert_registry_write_type(w, golden_registry_ids, 3, index);
  desert_write_i32(w, m->registered);
  write_node(w, m->graph);
  return write_node(w, m->again);
}

/* Registers a new node before reading its children, as the writer
 * registered it before writing them, so the cycle resolves. */
static desert_status read_node(desert_reader *r, const golden_node **out) {
  void *known = NULL;
  desert_status st = desert_read_ref(r, &known);
  if (st) return st;
  if (known) {
    *out = known;
    return DESERT_OK;
  }
  st = desert_reader_enter(r);
  if (st) return st;
  golden_node *n = desert_reader_alloc(r, sizeof *n, _Alignof(golden_node));
  if (!n) {
    desert_reader_leave(r);
    return desert_reader_status(r);
  }
  memset(n, 0, sizeof *n);
  desert_reader_register_ref(r, n);
  bool some = false;
  desert_read_string(r, &n->name);
  st = desert_read_option(r, &some);
  if (!st && some) st = read_node(r, &n->next);
  desert_reader_leave(r);
  *out = n;
  return st;
}

desert_status golden_api_only_read(desert_reader *r, golden_api_only *out) {
  memset(out, 0, sizeof *out);
  desert_read_u128(r, &out->u128);
  desert_read_u128(r, &out->i128);
  desert_read_ip_addr(r, &out->ip4);
  desert_read_ip_addr(r, &out->ip6);
  desert_read_mac_address(r, out->mac);
  desert_read_url(r, &out->url);
  for (size_t i = 0; i < 3; i++) {
    size_t at = desert_reader_offset(r);
    if (desert_read_u8(r, &out->bound_tags[i])) break;
    if (out->bound_tags[i] > 2) return desert_reader_fail(r, DESERT_E_INVALID_TAG, at);
    if (out->bound_tags[i]) desert_read_i32(r, &out->bounds[i]);
  }
  desert_read_i32(r, &out->range[0]);
  desert_read_i32(r, &out->range[1]);
  desert_read_bytes(r, &out->json);
  size_t index = 0;
  if (!desert_registry_read_type(r, golden_registry_ids, 3, &index))
    out->type_id = golden_registry_ids[index];
  desert_read_i32(r, &out->registered);
  desert_status st = read_node(r, &out->graph);
  return st ? st : read_node(r, &out->again);
}
