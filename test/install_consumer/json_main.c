/* test/install_consumer/json_main.c — uses the installed JSON layer
 * (desert::json, <desert/json.h>) the documented way: load a schema
 * document, encode a JSON value, decode the bytes back to canonical JSON.
 * Built through find_package(desert) and pkg-config desert_json, shared
 * and static (run.sh). Exit 0 when every
 * check holds. SPDX-License-Identifier: MIT */
#include <desert.h>
#include <desert/json.h>

#include <stdio.h>
#include <string.h>

static const char schema_text[] =
    "{\"desert_schema\":1,\"root\":{\"type\":\"record\",\"name\":\"Point\","
    "\"fields\":[{\"name\":\"x\",\"type\":\"i32\"},{\"name\":\"y\",\"type\":\"i32\"}]}}";
static const char value_text[] = "{\"x\":10,\"y\":20}";
/* The version-0 record of docs/format.md §9.3: 00 0000000a 00000014 */
static const unsigned char expected[] = {0x00, 0, 0, 0, 0x0a, 0, 0, 0, 0x14};

int main(void) {
  int rc = 1;
  desert_value_arena *a = NULL;
  desert_schema *s = NULL;
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  desert_json_buf out = {NULL, 0, 0, false};
  desert_json_error err;
  memset(&err, 0, sizeof err);
  desert_json *doc = NULL, *value = NULL;
  char msg[256] = "";
  if (desert_value_arena_create(NULL, &a) != DESERT_OK) goto done;
  if (desert_json_parse(schema_text, strlen(schema_text), a, &doc, msg, sizeof msg) != DESERT_OK) goto done;
  if (desert_schema_load(doc, NULL, &s, &err) != DESERT_OK) goto done;
  if (desert_json_parse(value_text, strlen(value_text), a, &value, msg, sizeof msg) != DESERT_OK) goto done;
  if (desert_writer_create(NULL, &w) != DESERT_OK || desert_reader_create(NULL, &r) != DESERT_OK)
    goto done;
  if (desert_json_encode(s, value, w, a, &err) != DESERT_OK) goto done;
  size_t len = 0;
  const uint8_t *bytes = desert_writer_data(w, &len);
  if (!bytes || len != sizeof expected || memcmp(bytes, expected, len) != 0) {
    fprintf(stderr, "consumer_json: unexpected bytes (%zu)\n", len);
    goto done;
  }
  size_t used = 0;
  if (desert_json_decode(s, r, bytes, len, a, &out, &used, &err) != DESERT_OK) goto done;
  if (used != len || out.failed || out.len != strlen(value_text) ||
      memcmp(out.data, value_text, out.len) != 0) {
    fprintf(stderr, "consumer_json: decoded JSON differs\n");
    goto done;
  }
  printf("consumer_json: Point encoded to %zu bytes and decoded back\n", len);
  rc = 0;
done:
  if (rc) fprintf(stderr, "consumer_json: failed: %s %s\n", msg, err.message);
  desert_json_buf_free(&out);
  desert_reader_free(r);
  desert_writer_free(w);
  desert_schema_free(s);
  desert_value_arena_free(a);
  return rc;
}
