/* src/json/json_error.c — the error kinds of the JSON layer's reports
 * (docs/schema.md §14.5): which conformance kind a desert_json_error names. Its
 * own file because both the schema loader (json_schema.c) and the testee
 * (json_testee.c) report errors, and the testee is built on the loader: the
 * name table sits below both so neither calls the other's way.
 * SPDX-License-Identifier: MIT */
#include "json_internal.h"

const char *desert_json_error_kind_name(const desert_json_error *e) {
  if (!e) return "Unknown";
  switch (e->kind) {
  case DESERT_JSON_ERR_NONE:
    return "Ok";
  case DESERT_JSON_ERR_BAD_REQUEST:
    return "BadRequest";
  case DESERT_JSON_ERR_BAD_SCHEMA:
    return "BadSchema";
  case DESERT_JSON_ERR_BAD_VALUE:
    return "BadValue";
  default:
    break;
  }
  switch (e->status) {
  case DESERT_E_ARGUMENT:
    return "BadValue";
  case DESERT_E_NOMEM:
  case DESERT_E_STATE:
  case DESERT_E_LIMIT:
  case DESERT_E_DEPTH:
    /* Limits: a decode fails with DeserializationFailure, an encode with
     * BadValue (docs/schema.md §14.6); callers set has_offset for decodes. */
    return e->has_offset ? "DeserializationFailure" : "BadValue";
  default:
    return desert_status_kind(e->status);
  }
}
