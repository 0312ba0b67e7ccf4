/* src/json/json_decode.c — the JSON layer's whole operations: encode a JSON
 * value under a schema, decode bytes into canonical JSON, under the
 * caller's limits (desert_json_limits, include/desert/json.h). The
 * conformance testee (json_testee.c) passes its own, smaller ones. A limit
 * error names the limit, its value and the field that raises it, so that
 * a caller can tell a hostile input from a large valid one it may accept.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "json_internal.h"

static void clear_err(desert_json_error *e) {
  e->kind = DESERT_JSON_ERR_NONE;
  e->status = DESERT_OK;
  e->has_offset = false;
  e->offset = 0;
  e->message[0] = '\0';
}

void desert_json_limits_resolve(const desert_json_limits *l, size_t input_len,
                                desert_codec_limits *out) {
  if (!out) return;
  size_t values = l ? l->max_values : 0;
  if (!values) {
    /* Saturating: base + per-byte * input_len. */
    size_t per = DESERT_JSON_DEFAULT_VALUES_PER_BYTE;
    size_t scaled = input_len > (SIZE_MAX - DESERT_JSON_DEFAULT_MAX_VALUES) / per
                        ? SIZE_MAX - DESERT_JSON_DEFAULT_MAX_VALUES
                        : input_len * per;
    values = DESERT_JSON_DEFAULT_MAX_VALUES + scaled;
  }
  out->max_values = values;
  out->max_depth = l && l->max_depth ? l->max_depth : DESERT_JSON_DEFAULT_MAX_DEPTH;
  out->max_bigint = l && l->max_bigint ? l->max_bigint : DESERT_JSON_DEFAULT_MAX_BIGINT;
}

/* The message of a failed decode: the value path, then either the limit
 * that stopped it (named with its value and field) or the codec's words. */
static void decode_message(desert_json_error *err, desert_status st, const desert_type_error *terr,
                           const desert_codec_limits *lim, const desert_options *ro) {
  char why[300];
  const char *m = terr->message[0] ? terr->message : desert_status_message(st);
  if (st == DESERT_E_LIMIT && strstr(m, "number of values"))
    snprintf(why, sizeof why, "more than %zu values (limit desert_json_limits.max_values = %zu)",
             lim->max_values, lim->max_values);
  else if (st == DESERT_E_LIMIT && strstr(m, "big integer"))
    snprintf(why, sizeof why,
             "big integer of more than %zu bytes (limit desert_json_limits.max_bigint = %zu)",
             lim->max_bigint, lim->max_bigint);
  else if (st == DESERT_E_DEPTH) {
    unsigned d = ro && ro->max_depth && ro->max_depth < lim->max_depth ? ro->max_depth
                                                                        : lim->max_depth;
    snprintf(why, sizeof why, "nesting deeper than %u (limit desert_json_limits.max_depth and "
             "desert_options.max_depth = %u)", d, d);
  } else
    snprintf(why, sizeof why, "%s", m);
  /* The path first (at most 223 bytes), then as much of why as fits. */
  size_t n = (size_t)snprintf(err->message, sizeof err->message, "%s%s", terr->path,
                              terr->path[0] ? ": " : "");
  if (n < sizeof err->message) {
    size_t room = sizeof err->message - n;
    memcpy(err->message + n, why, strlen(why) + 1 < room ? strlen(why) + 1 : room);
    err->message[sizeof err->message - 1] = '\0';
  }
}

desert_status desert_json_encode_ex(const desert_schema *s, const desert_json *value,
                                    desert_writer *w, desert_value_arena *a,
                                    const desert_json_limits *limits, desert_json_error *err) {
  desert_json_error local;
  if (!err) err = &local;
  clear_err(err);
  if (!s || !value || !w || !a) return DESERT_E_ARGUMENT;
  desert_value *v;
  desert_status st = desert_json_to_value(s->root, value, a, &v, err);
  if (st) return st;
  desert_writer_reset(w);
  desert_type_error terr;
  desert_codec_limits lim;
  desert_json_limits_resolve(limits, 0, &lim);
  st = desert_type_encode(w, s->root, v, &lim, &terr);
  if (st) {
    char path[256];
    desert_type_error_json_path(&terr, path, sizeof path);
    err->kind = st == DESERT_E_ARGUMENT ? DESERT_JSON_ERR_BAD_VALUE : DESERT_JSON_ERR_STATUS;
    err->status = st;
    if (st == DESERT_E_DEPTH)
      snprintf(err->message, sizeof err->message,
               "%s: nesting deeper than %u (limit desert_json_limits.max_depth = %u)", path,
               lim.max_depth, lim.max_depth);
    else
      snprintf(err->message, sizeof err->message, "%s: %s", path,
               terr.message[0] ? terr.message : desert_status_message(st));
  }
  return st;
}

desert_status desert_json_encode(const desert_schema *s, const desert_json *value, desert_writer *w,
                                 desert_value_arena *a, desert_json_error *err) {
  return desert_json_encode_ex(s, value, w, a, NULL, err);
}

desert_status desert_json_decode_ex(const desert_schema *s, desert_reader *r, const void *data,
                                    size_t len, desert_value_arena *a,
                                    const desert_json_limits *limits, desert_json_buf *out,
                                    size_t *consumed, desert_json_error *err) {
  desert_json_error local;
  if (!err) err = &local;
  clear_err(err);
  if (!s || !r || !a || !out || (!data && len)) return DESERT_E_ARGUMENT;
  desert_status st = desert_reader_begin(r, data, len);
  if (st) return st;
  desert_value *v = NULL;
  desert_type_error terr;
  desert_codec_limits lim;
  desert_json_limits_resolve(limits, len, &lim);
  st = desert_type_decode(r, s->root, a, &lim, &v, &terr);
  if (st) {
    err->kind = DESERT_JSON_ERR_STATUS;
    err->status = st;
    err->has_offset = true;
    err->offset = terr.has_offset ? terr.offset : desert_reader_error_offset(r);
    decode_message(err, st, &terr, &lim, desert_reader_options(r));
    return st;
  }
  if (consumed) *consumed = desert_reader_offset(r);
  st = desert_json_write_value(out, s->root, v);
  if (st) {
    err->kind = DESERT_JSON_ERR_STATUS;
    err->status = st;
    snprintf(err->message, sizeof err->message, "cannot write the value as JSON");
  }
  return st;
}

desert_status desert_json_decode(const desert_schema *s, desert_reader *r, const void *data,
                                 size_t len, desert_value_arena *a, desert_json_buf *out,
                                 size_t *consumed, desert_json_error *err) {
  return desert_json_decode_ex(s, r, data, len, a, NULL, out, consumed, err);
}
