/* test/install_consumer/gen_main.c — a consumer of code that
 * desert_generate_c() generated from point.schema.json (the evolved record
 * of docs/format.md §9.9 (a), PointV2 with a FieldAdded step): encodes a
 * point, compares the bytes with that worked example, decodes them back and
 * prints the value as JSON. */
#include <stdio.h>
#include <string.h>

#include "point.h"

int main(void) {
  /* docs/format.md §9.9 (a): {"x":10,"label":"origin","y":20} under PointV2. */
  static const unsigned char want[] = {0x01, 0x10, 0x0e, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
                                       0x00, 0x14, 0x0c, 0x6f, 0x72, 0x69, 0x67, 0x69, 0x6e};
  point_PointV2 p = {10, {"origin", 6}, 20};
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  desert_json_buf json = {0};
  int rc = 1;
  if (desert_writer_create(NULL, &w) || desert_reader_create(NULL, &r)) goto done;
  if (point_encode_PointV2(w, &p)) goto done;
  size_t n = 0;
  const uint8_t *bytes = desert_writer_data(w, &n);
  if (n != sizeof want || memcmp(bytes, want, n) != 0) {
    fprintf(stderr, "gen_consumer: encoded bytes differ from docs/format.md §9.9 (a)\n");
    goto done;
  }
  point_root back;
  if (desert_reader_begin(r, bytes, n) || point_decode_root(r, &back)) goto done;
  if (back.x != 10 || back.y != 20 || back.label.len != 6 ||
      memcmp(back.label.ptr, "origin", 6) != 0)
    goto done;
  if (point_root_to_json(&back, &json) || json.failed) goto done;
  printf("gen_consumer: %.*s\n", (int)json.len, json.data);
  static const char want_json[] = "{\"x\":10,\"label\":\"origin\",\"y\":20}";
  rc = json.len == sizeof want_json - 1 && memcmp(json.data, want_json, json.len) == 0 ? 0 : 1;
done:
  desert_json_buf_free(&json);
  desert_reader_free(r);
  desert_writer_free(w);
  point_cleanup();
  if (rc) fprintf(stderr, "gen_consumer: failed\n");
  return rc;
}
