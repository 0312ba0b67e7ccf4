/* test/gen_c/test_gen_c_oneshot.c — the one-shot functions `desert gen-c`
 * generates (P_T_decode, P_T_encode, P_T_encode_alloc) and the P_T_INIT
 * macros, on desert-rust's oplog model (golden/oplog_list.schema.json, prefix
 * os): ownership is the caller's, so decoded values stay valid after the
 * call returns (ctest runs this under ASan with detect_stack_use_after_return
 * in the asan preset: a value pointing into the callee's stack storage
 * fails there), many messages decode into one arena and stay valid together,
 * and the encoders report sizes and too-small buffers exactly.
 * Checks are against golden/oplog_list.bin and .json (written independently
 * of this code path) and against the reader-based generated functions.
 *   test_gen_c_oneshot GOLDEN_DIR
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os.h"

#include "gen_c_check.h"

static uint8_t *read_file(const char *dir, const char *name, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (d && n > 0 && fread(d, 1, (size_t)n, f) != (size_t)n) {
    free(d);
    d = NULL;
  }
  fclose(f);
  *len = n > 0 ? (size_t)n : 0;
  return d;
}

/* Decodes through the one-shot function from a buffer this frame owns and
 * frees before returning: the value must still be complete afterwards
 * except for the views into that input (none are read here). */
static desert_status decode_in_frame(const uint8_t *bytes, size_t len, desert_decode_arena *a,
                                     os_root *out) {
  uint8_t scratch[64];
  memset(scratch, 0x5a, sizeof scratch); /* stack the callee may not keep */
  desert_status st = os_root_decode(bytes, len, a, out, NULL);
  return scratch[0] == 0x5a ? st : DESERT_E_STATE;
}

/* The value re-encodes to exactly `want` through both encoders. */
static void check_encodes(const os_root *v, const uint8_t *want, size_t want_len,
                          const char *what) {
  uint8_t *out = NULL;
  size_t len = 0;
  desert_status st = os_root_encode_alloc(v, &out, &len);
  CHECK(st == DESERT_OK && len == want_len && out && memcmp(out, want, len) == 0,
        "%s: encode_alloc gives %s, %zu bytes (want %zu)", what, desert_status_name(st), len,
        want_len);
  free(out);
  /* size query, too small, exact */
  st = os_root_encode(v, NULL, 0, &len);
  CHECK(st == DESERT_E_DST_TOO_SMALL && len == want_len, "%s: size query gives %s, %zu", what,
        desert_status_name(st), len);
  uint8_t *buf = malloc(want_len);
  if (!buf) return;
  st = os_root_encode(v, buf, want_len - 1, &len);
  CHECK(st == DESERT_E_DST_TOO_SMALL && len == want_len, "%s: one byte short gives %s, %zu", what,
        desert_status_name(st), len);
  st = os_root_encode(v, buf, want_len, &len);
  CHECK(st == DESERT_OK && len == want_len && memcmp(buf, want, len) == 0,
        "%s: exact buffer gives %s, %zu", what, desert_status_name(st), len);
  free(buf);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_gen_c_oneshot GOLDEN_DIR\n");
    return 2;
  }
  size_t len = 0, jlen = 0;
  uint8_t *bin = read_file(argv[1], "oplog_list.bin", &len);
  char *json = (char *)read_file(argv[1], "oplog_list.json", &jlen);
  if (!bin || !json || len < 2 || jlen < 2) {
    fprintf(stderr, "test_gen_c_oneshot: cannot read golden/oplog_list.*\n");
    return 1;
  }
  json[jlen - 1] = '\0'; /* the file's newline */
  CHECK(os_root_fast(), "the oplog list does not run the direct path");

  /* 1. one message into an arena, checked after the call returned */
  desert_decode_arena *a = NULL;
  CHECK(desert_decode_arena_create(NULL, &a) == DESERT_OK && a, "arena");
  if (!a) return 1;
  os_root v = os_root_INIT;
  desert_status st = decode_in_frame(bin, len, a, &v);
  CHECK(st == DESERT_OK, "decode: %s", desert_status_name(st));
  desert_json_buf jb = {0};
  CHECK(os_root_to_json(&v, &jb) == DESERT_OK && jb.len == strlen(json) &&
            memcmp(jb.data, json, jb.len) == 0,
        "decoded value is not oplog_list.json");
  check_encodes(&v, bin, len, "one message");

  /* 2. many messages into one arena, all valid together at the end */
  enum { N = 64 };
  os_root *many = calloc(N, sizeof *many);
  uint8_t **copies = calloc(N, sizeof *copies);
  if (!many || !copies) return 1;
  desert_decode_arena_reset(a);
  for (size_t i = 0; i < N; i++) {
    copies[i] = malloc(len);
    if (!copies[i]) return 1;
    memcpy(copies[i], bin, len);
    st = decode_in_frame(copies[i], len, a, &many[i]);
    CHECK(st == DESERT_OK, "message %zu: %s", i, desert_status_name(st));
  }
  for (size_t i = 0; i < N; i++) {
    jb.len = 0;
    CHECK(os_root_to_json(&many[i], &jb) == DESERT_OK && jb.len == strlen(json) &&
              memcmp(jb.data, json, jb.len) == 0,
          "message %zu changed after later decodes", i);
  }
  check_encodes(&many[N - 1], bin, len, "the last of many");

  /* 3. the same bytes through the reader-based function agree */
  desert_reader *r = NULL;
  if (desert_reader_create(NULL, &r) == DESERT_OK) {
    os_root w = os_root_INIT;
    CHECK(desert_reader_begin(r, bin, len) == DESERT_OK && os_decode_root(r, &w) == DESERT_OK,
          "reader-based decode");
    jb.len = 0;
    CHECK(os_root_to_json(&w, &jb) == DESERT_OK && jb.len == strlen(json) &&
              memcmp(jb.data, json, jb.len) == 0,
          "reader-based decode differs");
    desert_reader_free(r);
  }

  /* 4. trailing bytes, used, cut input, bad arguments */
  uint8_t *longer = malloc(len + 1);
  if (!longer) return 1;
  memcpy(longer, bin, len);
  longer[len] = 0;
  os_root t = os_root_INIT;
  st = os_root_decode(longer, len + 1, a, &t, NULL);
  CHECK(st == DESERT_E_DESERIALIZATION, "trailing byte without used: %s", desert_status_name(st));
  size_t used = 0;
  st = os_root_decode(longer, len + 1, a, &t, &used);
  CHECK(st == DESERT_OK && used == len, "trailing byte with used: %s, used %zu",
        desert_status_name(st), used);
  st = os_root_decode(bin, len - 1, a, &t, &used);
  CHECK(st == DESERT_E_INPUT_ENDED && used == 0, "cut input: %s", desert_status_name(st));
  CHECK(os_root_decode(bin, len, NULL, &t, NULL) == DESERT_E_ARGUMENT, "NULL arena");
  CHECK(os_root_decode(NULL, 1, a, &t, NULL) == DESERT_E_ARGUMENT, "NULL data with a length");
  CHECK(os_root_encode(&v, NULL, 4, &used) == DESERT_E_ARGUMENT, "NULL buffer with a capacity");
  uint8_t *o = (uint8_t *)1;
  CHECK(os_root_encode_alloc(NULL, &o, &used) == DESERT_E_ARGUMENT && o == NULL, "NULL value");

  free(longer);
  for (size_t i = 0; i < N; i++) free(copies[i]);
  free(copies);
  free(many);
  desert_json_buf_free(&jb);
  desert_decode_arena_free(a);
  free(bin);
  free(json);
  os_cleanup();
  if (failures) {
    fprintf(stderr, "test_gen_c_oneshot: %d of %zu checks failed\n", failures, checks);
    return 1;
  }
  printf("test_gen_c_oneshot: all %zu checks passed\n", checks);
  return 0;
}
