/* tools/gen_c/gen_c_testee.c — emits P_testee.c of `desert gen-c --testee`:
 * a conformance testee (docs/schema.md §14) that answers requests whose
 * schema is one of the generated documents (compared as canonical JSON)
 * through the generated functions only (P_<root>_from_json, P_encode_root,
 * P_decode_root, P_root_to_json); any other schema is a BadRequest. The
 * request checks, their order, the resource bounds and the response shapes
 * are those of the library's testee (src/json/json_testee.c).
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "gen_c_emit.h"

/* Pieces below 4095 characters each (ISO C's minimum literal length). */
static const char part_head[] =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    "/* Resource bounds of one request, as desert-conformance (docs/schema.md §14.6). */\n"
    "#define GT_MAX_VALUES ((size_t)1 << 21)\n"
    "#define GT_MAX_DECOMPRESSED ((size_t)32 << 20)\n"
    "#define GT_MAX_DEPTH 200u\n"
    "#define GT_MAX_BIGINT ((size_t)64 << 10)\n"
    "#define GT_MAX_LINE ((size_t)256 << 20)\n\n"
    "typedef struct gt_schema {\n"
    "  const char *(*canonical)(void);\n"
    "  const desert_schema *(*schema)(void);\n"
    "  desert_status (*encode)(const desert_json *value, desert_value_arena *a, desert_writer *w,\n"
    "                          desert_json_error *err, desert_type_error *terr);\n"
    "  desert_status (*decode)(desert_reader *r, desert_json_buf *out, desert_type_error *terr);\n"
    "} gt_schema;\n\n"
    "static const desert_codec_limits gt_enc_limits_ = {GT_MAX_DEPTH, 0, 0};\n"
    "static const desert_codec_limits gt_dec_limits_ = {GT_MAX_DEPTH, GT_MAX_VALUES, "
    "GT_MAX_BIGINT};\n"
    "/* With DESERT_GEN_C_NO_LIMITS set (not empty, not 0) the generated functions\n"
    " * get no codec limits, so records and tuples take their C-struct fast path. */\n"
    "static const desert_codec_limits *gt_enc_limits = &gt_enc_limits_;\n"
    "static const desert_codec_limits *gt_dec_limits = &gt_dec_limits_;\n";

static const char part_canon[] =
    "\n/* Canonical JSON: compact, members sorted by key bytes, numbers verbatim. */\n"
    "static int gt_member_cmp(const void *a, const void *b) {\n"
    "  const desert_json_member *x = *(const desert_json_member *const *)a;\n"
    "  const desert_json_member *y = *(const desert_json_member *const *)b;\n"
    "  size_t n = x->key.len < y->key.len ? x->key.len : y->key.len;\n"
    "  int c = memcmp(x->key.str, y->key.str, n);\n"
    "  if (c) return c;\n"
    "  return x->key.len < y->key.len ? -1 : x->key.len > y->key.len;\n}\n\n"
    "static void gt_canonical(desert_json_buf *out, const desert_json *j) {\n"
    "  if (j->kind == DESERT_JSON_ARRAY) {\n"
    "    desert_json_buf_put(out, \"[\", 1);\n"
    "    for (size_t i = 0; i < j->count; i++) {\n"
    "      if (i) desert_json_buf_put(out, \",\", 1);\n"
    "      gt_canonical(out, &j->items[i]);\n    }\n"
    "    desert_json_buf_put(out, \"]\", 1);\n"
    "  } else if (j->kind == DESERT_JSON_OBJECT) {\n"
    "    const desert_json_member **ms =\n"
    "        (const desert_json_member **)malloc((j->count ? j->count : 1) * sizeof *ms);\n"
    "    if (!ms) {\n      out->failed = true;\n      return;\n    }\n"
    "    for (size_t i = 0; i < j->count; i++) ms[i] = &j->members[i];\n"
    "    qsort(ms, j->count, sizeof *ms, gt_member_cmp);\n"
    "    desert_json_buf_put(out, \"{\", 1);\n"
    "    for (size_t i = 0; i < j->count; i++) {\n"
    "      if (i) desert_json_buf_put(out, \",\", 1);\n"
    "      desert_json_print(out, &ms[i]->key);\n"
    "      desert_json_buf_put(out, \":\", 1);\n"
    "      gt_canonical(out, &ms[i]->value);\n    }\n"
    "    desert_json_buf_put(out, \"}\", 1);\n"
    "    free(ms);\n"
    "  } else {\n"
    "    desert_json_print(out, j);\n  }\n}\n";

static const char part_util[] =
    "\nstatic void gt_put(desert_json_buf *b, const char *s) { desert_json_buf_put(b, s, strlen(s)); }\n\n"
    "static void gt_put_id(desert_json_buf *b, const desert_json *id) {\n"
    "  if (!id) {\n    gt_put(b, \"null\");\n"
    "  } else if (id->kind == DESERT_JSON_STRING) {\n"
    "    desert_json_buf_string(b, id->str, id->len);\n"
    "  } else {\n    char tmp[32];\n"
    "    snprintf(tmp, sizeof tmp, \"%lld\", strtoll(id->str, NULL, 10));\n"
    "    gt_put(b, tmp);\n  }\n}\n\n"
    "static void gt_error(desert_json_buf *out, const desert_json *id, const char *kind,\n"
    "                     const char *message, bool has_offset, size_t offset) {\n"
    "  gt_put(out, \"{\\\"id\\\":\");\n  gt_put_id(out, id);\n"
    "  gt_put(out, \",\\\"error\\\":{\\\"kind\\\":\");\n"
    "  desert_json_buf_string(out, kind, strlen(kind));\n"
    "  gt_put(out, \",\\\"message\\\":\");\n"
    "  desert_json_buf_string(out, message, strlen(message));\n"
    "  if (has_offset) {\n    char tmp[40];\n"
    "    snprintf(tmp, sizeof tmp, \",\\\"offset\\\":%zu\", offset);\n    gt_put(out, tmp);\n  }\n"
    "  gt_put(out, \"}}\\n\");\n}\n\n"
    "static bool gt_valid_id(const desert_json *id) {\n"
    "  if (id->kind == DESERT_JSON_STRING) return true;\n"
    "  if (id->kind != DESERT_JSON_NUMBER || !id->integer) return false;\n"
    "  const char *s = id->str;\n  bool neg = *s == '-';\n  if (neg) s++;\n"
    "  size_t n = strlen(s);\n"
    "  if (n != 19) return n < 19;\n"
    "  return strcmp(s, neg ? \"9223372036854775808\" : \"9223372036854775807\") <= 0;\n}\n\n"
    "static int gt_hexv(char c) {\n"
    "  if (c >= '0' && c <= '9') return c - '0';\n"
    "  if (c >= 'a' && c <= 'f') return c - 'a' + 10;\n"
    "  if (c >= 'A' && c <= 'F') return c - 'A' + 10;\n  return -1;\n}\n";

static const char part_handle1[] =
    "\nstatic void gt_handle(desert_value_arena *a, const char *line, size_t len,\n"
    "                      desert_json_buf *out, desert_json_buf *val) {\n"
    "  desert_json *req;\n  char msg[300], full[400];\n"
    "  if (desert_json_parse(line, len, a, &req, msg, sizeof msg)) {\n"
    "    snprintf(full, sizeof full, \"not a JSON request line: %s\", msg);\n"
    "    gt_error(out, NULL, \"BadRequest\", full, false, 0);\n    return;\n  }\n"
    "  if (req->kind != DESERT_JSON_OBJECT) {\n"
    "    gt_error(out, NULL, \"BadRequest\", \"a request is a JSON object\", false, 0);\n"
    "    return;\n  }\n"
    "  const desert_json *id = desert_json_get(req, \"id\");\n"
    "  if (!id || !gt_valid_id(id)) {\n"
    "    gt_error(out, NULL, \"BadRequest\",\n"
    "             \"missing or invalid \\\"id\\\" (a 64-bit integer or a string)\", false, 0);\n"
    "    return;\n  }\n"
    "  for (size_t i = 0; i < req->count; i++) {\n"
    "    static const char *const keys[] = {\"id\", \"schema\", \"encode\", \"decode\", \"options\"};\n"
    "    const desert_json *k = &req->members[i].key;\n    bool ok = false;\n"
    "    for (size_t j = 0; j < 5 && !ok; j++)\n"
    "      ok = k->len == strlen(keys[j]) && memcmp(k->str, keys[j], k->len) == 0;\n"
    "    if (!ok) {\n"
    "      snprintf(full, sizeof full, \"unknown request key '%.64s'\", k->str);\n"
    "      gt_error(out, id, \"BadRequest\", full, false, 0);\n      return;\n    }\n  }\n"
    "  const desert_json *schema = desert_json_get(req, \"schema\");\n"
    "  const desert_json *enc = desert_json_get(req, \"encode\");\n"
    "  const desert_json *dec = desert_json_get(req, \"decode\");\n"
    "  const desert_json *opts = desert_json_get(req, \"options\");\n"
    "  if (!schema) {\n"
    "    gt_error(out, id, \"BadRequest\", \"missing \\\"schema\\\"\", false, 0);\n    return;\n  }\n"
    "  if ((enc != NULL) == (dec != NULL)) {\n"
    "    gt_error(out, id, \"BadRequest\",\n"
    "             \"a request has exactly one of \\\"encode\\\" and \\\"decode\\\"\", false, 0);\n"
    "    return;\n  }\n"
    "  desert_schema_options ropt;\n"
    "  if (opts && !desert_schema_options_parse(opts, &ropt, msg, sizeof msg)) {\n"
    "    gt_error(out, id, \"BadRequest\", msg, false, 0);\n    return;\n  }\n";

static const char part_handle2[] =
    "  uint8_t *input = NULL;\n  size_t input_len = 0;\n"
    "  if (dec) {\n"
    "    bool ok = dec->kind == DESERT_JSON_STRING && dec->len % 2 == 0;\n"
    "    if (ok) {\n"
    "      input_len = dec->len / 2;\n"
    "      input = (uint8_t *)desert_value_arena_alloc(a, input_len ? input_len : 1, 1);\n"
    "      ok = input != NULL;\n"
    "      for (size_t i = 0; ok && i < input_len; i++) {\n"
    "        int h = gt_hexv(dec->str[2 * i]), l = gt_hexv(dec->str[2 * i + 1]);\n"
    "        ok = h >= 0 && l >= 0;\n"
    "        if (ok) input[i] = (uint8_t)(h << 4 | l);\n      }\n    }\n"
    "    if (!ok) {\n"
    "      gt_error(out, id, \"BadRequest\", \"\\\"decode\\\" must be a hex string\", false, 0);\n"
    "      return;\n    }\n  }\n"
    "  /* Which generated schema: canonical JSON equality. */\n"
    "  desert_json_buf canon = {0};\n"
    "  gt_canonical(&canon, schema);\n"
    "  const gt_schema *gs = NULL;\n"
    "  for (size_t i = 0; !canon.failed && i < sizeof gt_schemas / sizeof gt_schemas[0]; i++) {\n"
    "    const char *c = gt_schemas[i].canonical();\n"
    "    if (c && strlen(c) == canon.len && memcmp(c, canon.data, canon.len) == 0)\n"
    "      gs = &gt_schemas[i];\n  }\n"
    "  desert_json_buf_free(&canon);\n"
    "  if (!gs) {\n"
    "    gt_error(out, id, \"BadRequest\", \"the schema is not one this testee was generated for\",\n"
    "             false, 0);\n    return;\n  }\n"
    "  desert_options o;\n"
    "  desert_schema_options_apply(&gs->schema()->options, opts ? &ropt : NULL, &o);\n"
    "  o.max_decompressed = GT_MAX_DECOMPRESSED;\n  o.max_depth = GT_MAX_DEPTH;\n"
    "  desert_json_error err;\n  desert_type_error terr;\n"
    "  memset(&err, 0, sizeof err);\n  memset(&terr, 0, sizeof terr);\n";

static const char part_handle3[] =
    "  if (enc) {\n"
    "    desert_writer *w = NULL;\n"
    "    desert_status st = desert_writer_create(&o, &w);\n"
    "    if (st) {\n"
    "      gt_error(out, id, \"BadValue\", desert_status_message(st), false, 0);\n"
    "    } else if ((st = gs->encode(enc, a, w, &err, &terr)) != DESERT_OK) {\n"
    "      if (err.kind == DESERT_JSON_ERR_NONE) {\n"
    "        err.kind = st == DESERT_E_ARGUMENT ? DESERT_JSON_ERR_BAD_VALUE : DESERT_JSON_ERR_STATUS;\n"
    "        err.status = st;\n"
    "        snprintf(err.message, sizeof err.message, \"%s\",\n"
    "                 terr.message[0] ? terr.message : desert_status_message(st));\n      }\n"
    "      gt_error(out, id, desert_json_error_kind_name(&err), err.message, false, 0);\n"
    "    } else {\n"
    "      static const char hex[] = \"0123456789abcdef\";\n"
    "      size_t n = 0;\n"
    "      const uint8_t *bytes = desert_writer_data(w, &n);\n"
    "      gt_put(out, \"{\\\"id\\\":\");\n      gt_put_id(out, id);\n"
    "      gt_put(out, \",\\\"bytes\\\":\\\"\");\n"
    "      for (size_t i = 0; i < n; i++) {\n"
    "        char two[2] = {hex[bytes[i] >> 4], hex[bytes[i] & 15]};\n"
    "        desert_json_buf_put(out, two, 2);\n      }\n"
    "      gt_put(out, \"\\\"}\\n\");\n    }\n"
    "    desert_writer_free(w);\n"
    "  } else {\n"
    "    desert_reader *r = NULL;\n"
    "    desert_status st = desert_reader_create(&o, &r);\n"
    "    val->len = 0;\n    val->failed = false;\n"
    "    if (st || (st = desert_reader_begin(r, input, input_len)) != DESERT_OK) {\n"
    "      gt_error(out, id, \"DeserializationFailure\", desert_status_message(st), true, 0);\n"
    "    } else if ((st = gs->decode(r, val, &terr)) != DESERT_OK) {\n"
    "      err.kind = DESERT_JSON_ERR_STATUS;\n      err.status = st;\n"
    "      size_t off = terr.has_offset ? terr.offset : desert_reader_error_offset(r);\n"
    "      snprintf(err.message, sizeof err.message, \"%s%s%s\", terr.path,\n"
    "               terr.path[0] ? \": \" : \"\", terr.message[0] ? terr.message : "
    "desert_status_message(st));\n"
    "      gt_error(out, id, desert_json_error_kind_name(&err), err.message, true, off);\n"
    "    } else {\n"
    "      char tmp[48];\n"
    "      gt_put(out, \"{\\\"id\\\":\");\n      gt_put_id(out, id);\n"
    "      gt_put(out, \",\\\"value\\\":\");\n"
    "      desert_json_buf_put(out, val->data, val->len);\n"
    "      snprintf(tmp, sizeof tmp, \",\\\"consumed\\\":%zu}\\n\", desert_reader_offset(r));\n"
    "      gt_put(out, tmp);\n    }\n"
    "    desert_reader_free(r);\n  }\n}\n";

static const char part_main[] =
    "\nint main(void) {\n"
    "  if (getenv(\"DESERT_GEN_C_LIST_FAST\")) return gt_list_fast();\n"
    "  desert_value_arena *a = NULL;\n"
    "  size_t cap = 1 << 16, len = 0;\n"
    "  char *line = (char *)malloc(cap);\n"
    "  desert_json_buf out = {0}, val = {0};\n"
    "  const char *no_limits = getenv(\"DESERT_GEN_C_NO_LIMITS\");\n"
    "  if (no_limits && *no_limits && strcmp(no_limits, \"0\") != 0) {\n"
    "    gt_enc_limits = NULL;\n    gt_dec_limits = NULL;\n  }\n"
    "  if (!line || desert_value_arena_create(NULL, &a)) {\n"
    "    fprintf(stderr, \"testee: out of memory\\n\");\n    free(line);\n    return 1;\n  }\n"
    "  int c = 0;\n"
    "  while (c != EOF) {\n"
    "    len = 0;\n    bool too_long = false;\n"
    "    while ((c = getchar()) != EOF && c != '\\n') {\n"
    "      if (too_long) continue;\n"
    "      if (len + 1 >= cap) {\n"
    "        char *n = cap * 2 <= GT_MAX_LINE ? (char *)realloc(line, cap * 2) : NULL;\n"
    "        if (!n) {\n          too_long = true;\n          continue;\n        }\n"
    "        line = n;\n        cap *= 2;\n      }\n"
    "      line[len++] = (char)c;\n    }\n"
    "    if (c == EOF && len == 0 && !too_long) break;\n"
    "    if (!too_long && len && line[len - 1] == '\\r') len--;\n"
    "    bool blank = true;\n"
    "    for (size_t i = 0; i < len && blank; i++)\n"
    "      blank = line[i] == ' ' || line[i] == '\\t' || line[i] == '\\r';\n"
    "    if (blank && !too_long) continue;\n"
    "    out.len = 0;\n    out.failed = false;\n"
    "    desert_value_arena_reset(a);\n"
    "    if (too_long)\n"
    "      gt_error(&out, NULL, \"BadRequest\", \"request line too long\", false, 0);\n"
    "    else\n      gt_handle(a, line, len, &out, &val);\n"
    "    if (out.failed) {\n      out.len = 0;\n      out.failed = false;\n"
    "      gt_error(&out, NULL, \"BadRequest\", \"out of memory\", false, 0);\n    }\n"
    "    if (out.len) fwrite(out.data, 1, out.len, stdout);\n"
    "    if (fflush(stdout) != 0) break;\n  }\n"
    "  free(line);\n  desert_json_buf_free(&out);\n  desert_json_buf_free(&val);\n"
    "  desert_value_arena_free(a);\n";

bool gc_emit_testee(gc_model *const *models, size_t n, gc_buf *b) {
  gc_printf(b, "/* Conformance testee (docs/schema.md §14) generated by `desert gen-c --testee`\n"
               " * for the schema documents below. Do not edit. Requests whose schema is not\n"
               " * one of them (as canonical JSON) are answered with BadRequest. */\n");
  for (size_t i = 0; i < n; i++)
    gc_printf(b, "#include \"%s.h\" /* %s */\n", models[i]->prefix, models[i]->file);
  gc_put(b, part_head, sizeof part_head - 1);
  for (size_t i = 0; i < n; i++) {
    const gc_model *m = models[i];
    const gc_node *root = m->publics[m->npublic - 1];
    const char *P = m->prefix, *s = gc_public_suffix(m, root), *N = root->name;
    gc_printf(b,
              "\nstatic desert_status gt_encode_%s(const desert_json *j, desert_value_arena *a,\n"
              "    desert_writer *w, desert_json_error *err, desert_type_error *terr) {\n"
              "  %s v;\n"
              "  desert_status st = %s_%s_from_json(j, a, &v, err);\n"
              "  if (st) return st;\n"
              "  return %s_encode_%s_ex(w, &v, gt_enc_limits, terr);\n}\n"
              "static desert_status gt_decode_%s(desert_reader *r, desert_json_buf *out,\n"
              "                                  desert_type_error *terr) {\n"
              "  %s v;\n"
              "  desert_status st = %s_decode_%s_ex(r, &v, gt_dec_limits, terr);\n"
              "  if (st) return st;\n"
              "  return %s_%s_to_json(&v, out);\n}\n",
              P, N, P, s, P, s, P, N, P, s, P, s);
  }
  /* DESERT_GEN_C_LIST_FAST set: main lists whether each public type of
   * each document runs the fast path (P_T_fast) and exits; a ctest
   * (test/gen_c.cmake, gen_c_all_fast) requires every one to. */
  gc_printf(b, "\nstatic const struct {\n  const char *name, *why;\n  bool (*fast)(void);\n} gt_fast[] = {\n");
  for (size_t i = 0; i < n; i++) {
    const gc_model *m = models[i];
    gc_cstruct_analyse(m);
    gc_direct_analyse(m);
    for (size_t k = 0; k < m->npublic; k++) {
      const char *sfx = gc_public_suffix(m, m->publics[k]);
      const char *why = gc_direct_why(m, m->publics[k]);
      gc_printf(b, "    {\"%s_%s\", \"%s\", %s_%s_fast},\n", m->prefix, sfx, why ? why : "",
                m->prefix, sfx);
    }
  }
  gc_printf(b, "};\n\nstatic int gt_list_fast(void) {\n"
               "  for (size_t i = 0; i < sizeof gt_fast / sizeof gt_fast[0]; i++)\n"
               "    printf(\"%%s %%s%%s%%s\\n\", gt_fast[i].name, gt_fast[i].fast() ? \"fast\" : \"slow\",\n"
               "           gt_fast[i].why[0] ? \": \" : \"\", gt_fast[i].why);\n"
               "  return fflush(stdout) != 0;\n}\n");
  gc_printf(b, "\nstatic const gt_schema gt_schemas[] = {\n");
  for (size_t i = 0; i < n; i++) {
    const char *P = models[i]->prefix;
    gc_printf(b, "    {%s_schema_json, %s_schema, gt_encode_%s, gt_decode_%s},\n", P, P, P, P);
  }
  gc_printf(b, "};\n");
  gc_put(b, part_canon, sizeof part_canon - 1);
  gc_put(b, part_util, sizeof part_util - 1);
  gc_put(b, part_handle1, sizeof part_handle1 - 1);
  gc_put(b, part_handle2, sizeof part_handle2 - 1);
  gc_put(b, part_handle3, sizeof part_handle3 - 1);
  gc_put(b, part_main, sizeof part_main - 1);
  for (size_t i = 0; i < n; i++) gc_printf(b, "  %s_cleanup();\n", models[i]->prefix);
  gc_printf(b, "  return 0;\n}\n");
  return !b->failed;
}
