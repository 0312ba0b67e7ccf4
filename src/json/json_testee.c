/* src/json/json_testee.c — the conformance testee protocol of
 * docs/schema.md §14 over the whole operations of json_decode.c: request
 * checks in the order of §14.4, one
 * response line per request, error kinds and decode offsets of §14.5, a fresh
 * context per request and bounded resources for hostile input.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_internal.h"

/* Resource bounds of one request (docs/schema.md §14.6), the testee's own:
 * the public whole operations default to bounds that scale with the input
 * (desert_json_limits). Collection counts are not
 * limited up front: a count larger than the input can hold must fail where
 * sequential reading runs out of input (docs/schema.md §14.5); the node budget bounds the
 * work for elements that take no bytes. */
#define TESTEE_MAX_VALUES       ((size_t)1 << 21)
#define TESTEE_MAX_DECOMPRESSED ((size_t)32 << 20)
#define TESTEE_MAX_DEPTH        200u
#define TESTEE_MAX_BIGINT       ((size_t)64 << 10)

/* ---- the testee -------------------------------------------------------------------------- */

struct desert_json_testee {
  desert_value_arena *a; /* the request's JSON and values */
  desert_json_buf value; /* a decoded value's text */
};

desert_status desert_json_testee_create(desert_json_testee **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_json_testee *t = calloc(1, sizeof *t);
  if (!t) return DESERT_E_NOMEM;
  if (desert_value_arena_create(NULL, &t->a)) {
    free(t);
    return DESERT_E_NOMEM;
  }
  *out = t;
  return DESERT_OK;
}

void desert_json_testee_free(desert_json_testee *t) {
  if (!t) return;
  desert_value_arena_free(t->a);
  desert_json_buf_free(&t->value);
  free(t);
}

static void put(desert_json_buf *b, const char *s) { desert_json_buf_put(b, s, strlen(s)); }

/* Writes the id: null, an integer (normalised) or a string. */
static void put_id(desert_json_buf *b, const desert_json *id) {
  if (!id) {
    put(b, "null");
  } else if (id->kind == DESERT_JSON_STRING) {
    desert_json_buf_string(b, id->str, id->len);
  } else {
    char tmp[32];
    long long v = strtoll(id->str, NULL, 10);
    snprintf(tmp, sizeof tmp, "%lld", v);
    put(b, tmp);
  }
}

static void respond_error(desert_json_buf *out, const desert_json *id, const char *kind,
                          const char *message, bool has_offset, size_t offset) {
  put(out, "{\"id\":");
  put_id(out, id);
  put(out, ",\"error\":{\"kind\":");
  desert_json_buf_string(out, kind, strlen(kind));
  put(out, ",\"message\":");
  desert_json_buf_string(out, message, strlen(message));
  if (has_offset) {
    char tmp[32];
    snprintf(tmp, sizeof tmp, ",\"offset\":%zu", offset);
    put(out, tmp);
  }
  put(out, "}}\n");
}

/* A valid id: an integer in the signed 64-bit range, or a string. */
static bool valid_id(const desert_json *id) {
  if (id->kind == DESERT_JSON_STRING) return true;
  if (id->kind != DESERT_JSON_NUMBER || !id->integer) return false;
  const char *s = id->str;
  bool neg = *s == '-';
  if (neg) s++;
  size_t n = strlen(s);
  const char *lim = neg ? "9223372036854775808" : "9223372036854775807";
  if (n != 19) return n < 19;
  return strcmp(s, lim) <= 0;
}

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void put_hex(desert_json_buf *b, const uint8_t *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  char tmp[256];
  size_t k = 0;
  put(b, "\"");
  for (size_t i = 0; i < n; i++) {
    tmp[k++] = hex[p[i] >> 4];
    tmp[k++] = hex[p[i] & 15];
    if (k == sizeof tmp) {
      desert_json_buf_put(b, tmp, k);
      k = 0;
    }
  }
  desert_json_buf_put(b, tmp, k);
  put(b, "\"");
}

static bool all_space(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') return false;
  return true;
}

static void handle(desert_json_testee *t, const char *line, size_t len, desert_json_buf *out) {
  desert_json *req;
  char msg[300], full[400];
  if (desert_json_parse(line, len, t->a, &req, msg, sizeof msg)) {
    snprintf(full, sizeof full, "not a JSON request line: %s", msg);
    respond_error(out, NULL, "BadRequest", full, false, 0);
    return;
  }
  if (req->kind != DESERT_JSON_OBJECT) {
    respond_error(out, NULL, "BadRequest", "a request is a JSON object", false, 0);
    return;
  }
  const desert_json *id = desert_json_get(req, "id");
  if (!id || !valid_id(id)) {
    respond_error(out, NULL, "BadRequest",
                  "missing or invalid \"id\" (a 64-bit integer or a string)", false, 0);
    return;
  }
  for (size_t i = 0; i < req->count; i++) {
    const desert_json *k = &req->members[i].key;
    static const char *const keys[] = {"id", "schema", "encode", "decode", "options"};
    bool ok = false;
    for (size_t j = 0; j < 5 && !ok; j++)
      ok = k->len == strlen(keys[j]) && memcmp(k->str, keys[j], k->len) == 0;
    if (!ok) {
      snprintf(full, sizeof full, "unknown request key '%.64s'", k->str);
      respond_error(out, id, "BadRequest", full, false, 0);
      return;
    }
  }
  const desert_json *schema = desert_json_get(req, "schema");
  const desert_json *enc = desert_json_get(req, "encode");
  const desert_json *dec = desert_json_get(req, "decode");
  const desert_json *opts = desert_json_get(req, "options");
  if (!schema) {
    respond_error(out, id, "BadRequest", "missing \"schema\"", false, 0);
    return;
  }
  if ((enc != NULL) == (dec != NULL)) {
    respond_error(out, id, "BadRequest", "a request has exactly one of \"encode\" and \"decode\"",
                  false, 0);
    return;
  }
  desert_schema_options ropt;
  if (opts && !desert_schema_options_parse(opts, &ropt, msg, sizeof msg)) {
    respond_error(out, id, "BadRequest", msg, false, 0);
    return;
  }
  uint8_t *input = NULL;
  size_t input_len = 0;
  if (dec) {
    bool ok = dec->kind == DESERT_JSON_STRING && dec->len % 2 == 0;
    if (ok) {
      input_len = dec->len / 2;
      input = desert_value_arena_alloc(t->a, input_len ? input_len : 1, 1);
      ok = input != NULL;
      for (size_t i = 0; ok && i < input_len; i++) {
        int h = hexv(dec->str[2 * i]), l = hexv(dec->str[2 * i + 1]);
        if (h < 0 || l < 0)
          ok = false;
        else
          input[i] = (uint8_t)(h << 4 | l);
      }
    }
    if (!ok) {
      respond_error(out, id, "BadRequest", "\"decode\" must be a hex string", false, 0);
      return;
    }
  }
  desert_json_error err;
  desert_schema *s = NULL;
  if (desert_schema_load(schema, NULL, &s, &err)) {
    respond_error(out, id, err.kind == DESERT_JSON_ERR_BAD_SCHEMA ? "BadSchema" : "BadSchema",
                  err.message, false, 0);
    return;
  }
  desert_options o;
  desert_schema_options_apply(&s->options, opts ? &ropt : NULL, &o);
  o.max_decompressed = TESTEE_MAX_DECOMPRESSED;
  o.max_depth = TESTEE_MAX_DEPTH;
  desert_json_limits lim = {TESTEE_MAX_VALUES, TESTEE_MAX_DEPTH, TESTEE_MAX_BIGINT};
  if (enc) {
    desert_writer *w = NULL;
    desert_status st = desert_writer_create(&o, &w);
    if (st) {
      respond_error(out, id, "BadValue", desert_status_message(st), false, 0);
    } else if (desert_json_encode_ex(s, enc, w, t->a, &lim, &err)) {
      respond_error(out, id, desert_json_error_kind_name(&err), err.message, false, 0);
    } else {
      size_t n = 0;
      const uint8_t *bytes = desert_writer_data(w, &n);
      put(out, "{\"id\":");
      put_id(out, id);
      put(out, ",\"bytes\":");
      put_hex(out, bytes, n);
      put(out, "}\n");
    }
    desert_writer_free(w);
  } else {
    desert_reader *r = NULL;
    desert_status st = desert_reader_create(&o, &r);
    size_t consumed = 0;
    t->value.len = 0;
    t->value.failed = false;
    if (st) {
      respond_error(out, id, "DeserializationFailure", desert_status_message(st), true, 0);
    } else if (desert_json_decode_ex(s, r, input, input_len, t->a, &lim, &t->value, &consumed,
                                     &err)) {
      respond_error(out, id, desert_json_error_kind_name(&err), err.message, err.has_offset,
                    err.offset);
    } else {
      char tmp[48];
      put(out, "{\"id\":");
      put_id(out, id);
      put(out, ",\"value\":");
      desert_json_buf_put(out, t->value.data, t->value.len);
      snprintf(tmp, sizeof tmp, ",\"consumed\":%zu}\n", consumed);
      put(out, tmp);
    }
    desert_reader_free(r);
  }
  desert_schema_free(s);
}

bool desert_json_testee_line(desert_json_testee *t, const char *line, size_t len,
                             desert_json_buf *out) {
  if (!t || !out) return false;
  if (len && line[len - 1] == '\r') len--;
  if (all_space(line, len)) return false;
  desert_value_arena_reset(t->a);
  size_t start = out->len;
  handle(t, line, len, out);
  if (out->failed) {
    /* Out of memory while answering: answer something small instead. */
    out->failed = false;
    out->len = start;
    respond_error(out, NULL, "BadRequest", "out of memory", false, 0);
  }
  return true;
}
