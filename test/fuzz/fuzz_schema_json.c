/* test/fuzz/fuzz_schema_json.c — libFuzzer harness of the JSON layer
 * (src/json): the strict JSON parser, the schema document loader (docs/schema.md
 * §2 with the BadSchema rules of §9) and JSON value <-> value tree
 * conversion with the canonical text of §11.5.
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 chooses the mode.
 *  - bit 0 clear (schema mode): the rest up to the first NUL byte is a
 *    schema document; after the NUL come the bytes to decode under it (no
 *    NUL: three fixed short inputs). Byte 0 bits 1..7 pick the options as in
 *    fzs_options (bit 7 of that value from bit 7 of byte 0).
 *    Checks: the parser's compact re-print parses to the same text; a
 *    rejected document is BadSchema with a message; a loaded one has a root,
 *    is freed completely, and decodes the bytes under fzs_decode_check (the
 *    reader invariants, memory bound and round trips of fuzz_types).
 *  - bit 0 set (value mode): byte 1 picks one of the fixed schemas, the
 *    rest is JSON value text converted under it (fzs_value_check): a failure
 *    is BadValue / InvalidConstructorName / SerializingTransientConstructor
 *    with a "$..." path; a value re-prints to canonical JSON that parses and
 *    converts back to the same text, encodes, and decodes to the same text;
 *    and the text encodes through desert_json_encode_text (the JSON text
 *    walk) to the same bytes or error as through the whole-value path.
 * Every allocation of the layer goes through a checked allocator that must
 * be empty after each input (no leak, every free with the right size). */
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_schema_util.h"

static void check_parser(const desert_json *j) {
  desert_json_buf t1 = {0}, t2 = {0};
  desert_json_print(&t1, j);
  FZ_CHECK(!t1.failed);
  desert_value_arena *a = NULL;
  FZ_CHECK(desert_value_arena_create(fzs_aux(), &a) == DESERT_OK);
  desert_json *k = NULL;
  char msg[256];
  desert_status st = desert_json_parse(t1.data ? t1.data : "", t1.len, a, &k, msg, sizeof msg);
  FZ_CHECK_MSG(st == DESERT_OK, "compact re-print does not parse: %s", msg);
  desert_json_print(&t2, k);
  FZ_CHECK(t1.len == t2.len && (t1.len == 0 || memcmp(t1.data, t2.data, t1.len) == 0));
  desert_json_buf_free(&t1);
  desert_json_buf_free(&t2);
  desert_value_arena_free(a);
}

static void schema_mode(uint8_t mode, const uint8_t *p, size_t n) {
  if (!n) p = (const uint8_t *)"";
  const uint8_t *nul = memchr(p, 0, n);
  size_t tlen = nul ? (size_t)(nul - p) : n;
  desert_value_arena *a = NULL;
  FZ_CHECK(desert_value_arena_create(fzs_aux(), &a) == DESERT_OK);
  desert_json *doc = NULL;
  char msg[256];
  msg[0] = '\0';
  desert_status st = desert_json_parse((const char *)p, tlen, a, &doc, msg, sizeof msg);
  if (st != DESERT_OK) {
    FZ_CHECK_MSG(st == DESERT_E_ARGUMENT, "parse failed with %s", desert_status_name(st));
    FZ_CHECK(msg[0] != '\0');
    desert_value_arena_free(a);
    return;
  }
  check_parser(doc);
  desert_schema *s = NULL;
  desert_json_error err;
  st = desert_schema_load(doc, fzs_aux(), &s, &err);
  if (st != DESERT_OK) {
    FZ_CHECK_MSG(st == DESERT_E_ARGUMENT && err.kind == DESERT_JSON_ERR_BAD_SCHEMA,
                 "schema load failed with %s kind %d", desert_status_name(st), (int)err.kind);
    FZ_CHECK(s == NULL);
    FZ_CHECK(err.message[0] != '\0');
  } else {
    FZ_CHECK(s != NULL && s->root != NULL && s->set != NULL);
    desert_options o;
    fzs_options(s, (uint8_t)((mode >> 1) | (mode & 0x80u)), &o);
    if (nul) {
      fzs_decode_check(s, &o, nul + 1, n - tlen - 1, (mode & 2u) != 0);
    } else {
      static const uint8_t fixed[] = {0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
      fzs_decode_check(s, &o, fixed, 0, false);
      fzs_decode_check(s, &o, fixed, 1, false);
      fzs_decode_check(s, &o, fixed + 1, 8, true);
    }
    desert_schema_free(s);
  }
  desert_value_arena_free(a);
}

FZ_TARGET(schema_json) {
  fz_in in = {data, size};
  uint8_t mode = fz_u8(&in);
  if (!(mode & 1u)) {
    schema_mode(mode, in.p, in.n);
  } else {
    uint8_t pick = fz_u8(&in);
    const desert_schema *s = fzs_schema(pick);
    desert_options o;
    fzs_options(s, (uint8_t)((mode >> 1) | (mode & 0x80u)), &o);
    fzs_value_check(s, &o, (const char *)in.p, in.n);
  }
  fzs_aux_check_empty();
  return 0;
}
