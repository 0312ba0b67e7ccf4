/* test/test_types_fuzz.c — robustness of the conformance testee's request
 * handling (desert_json_testee_line) on hostile lines: the requests of the
 * public conformance cases with random byte edits (flips, insertions,
 * deletions, cuts), with random input bytes under their schemas, and with
 * absurd numbers and nesting. Every line must get exactly one response line
 * that is a JSON object with an id and exactly one of bytes, value or error;
 * run under ASan+UBSan this also checks memory safety and leaks. Seeded
 * (DESERT_TEST_SEED replays); DESERT_TYPES_FUZZ_ROUNDS sets the count.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert_build_config.h"
#include "desert/json.h"
#include "test_util.h"

typedef struct corpus {
  char **req; /* request lines */
  size_t *len;
  bool *decode; /* the request decodes */
  size_t n, cap;
} corpus;

static void corpus_add(corpus *c, const char *s, size_t n, bool decode) {
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 256;
    c->req = realloc(c->req, c->cap * sizeof *c->req);
    c->len = realloc(c->len, c->cap * sizeof *c->len);
    c->decode = realloc(c->decode, c->cap * sizeof *c->decode);
    assert_non_null(c->req);
    assert_non_null(c->len);
    assert_non_null(c->decode);
  }
  c->req[c->n] = malloc(n + 1);
  assert_non_null(c->req[c->n]);
  memcpy(c->req[c->n], s, n);
  c->req[c->n][n] = '\0';
  c->len[c->n] = n;
  c->decode[c->n] = decode;
  c->n++;
}

static bool load_corpus(corpus *c) {
  FILE *f = fopen(DESERT_SHARED_DIR "/conformance/public-cases.jsonl", "rb");
  if (!f) return false;
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json_buf b = {0};
  size_t cap = 1 << 20;
  char *line = malloc(cap);
  assert_non_null(line);
  while (fgets(line, (int)cap, f)) {
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n') n--;
    desert_json *cs;
    char msg[100];
    desert_value_arena_reset(a);
    if (desert_json_parse(line, n, a, &cs, msg, sizeof msg)) continue;
    const desert_json *ex = desert_json_get(cs, "exchanges");
    for (size_t i = 0; ex && i < ex->count; i++) {
      const desert_json *rq = desert_json_get(&ex->items[i], "request");
      if (!rq) continue;
      b.len = 0;
      if (rq->kind == DESERT_JSON_STRING)
        desert_json_buf_put(&b, rq->str, rq->len);
      else
        desert_json_print(&b, rq);
      corpus_add(c, b.data, b.len, rq->kind == DESERT_JSON_OBJECT && desert_json_get(rq, "decode"));
    }
  }
  free(line);
  fclose(f);
  desert_json_buf_free(&b);
  desert_value_arena_free(a);
  return c->n > 0;
}

/* The response must be one JSON object line with an id and exactly one
 * outcome. */
static void check_response(desert_value_arena *a, const desert_json_buf *out, const char *req,
                           size_t req_len) {
  if (out->len == 0 || out->data[out->len - 1] != '\n' || memchr(out->data, '\n', out->len - 1))
    fail_msg("not exactly one response line for: %.300s", req);
  desert_json *r;
  char msg[100];
  if (desert_json_parse(out->data, out->len - 1, a, &r, msg, sizeof msg) ||
      r->kind != DESERT_JSON_OBJECT)
    fail_msg("response is not a JSON object (%s): %.300s", msg, out->data);
  int outcomes = (desert_json_get(r, "bytes") != NULL) + (desert_json_get(r, "value") != NULL) +
                 (desert_json_get(r, "error") != NULL);
  if (!desert_json_get(r, "id") || outcomes != 1)
    fail_msg("bad response %.300s\n  to %.*s", out->data, (int)(req_len > 300 ? 300 : req_len),
             req);
}

static void mutate(desert_rng *g, char *buf, size_t *len, size_t cap) {
  unsigned edits = 1 + desert_rng_below(g, 4);
  for (unsigned e = 0; e < edits && *len; e++) {
    size_t at = desert_rng_below(g, (uint32_t)*len);
    switch (desert_rng_below(g, 5)) {
    case 0:
      buf[at] = (char)desert_rng_below(g, 256);
      break;
    case 1:
      buf[at] ^= (char)(1u << desert_rng_below(g, 8));
      break;
    case 2: /* delete */
      memmove(buf + at, buf + at + 1, *len - at - 1);
      (*len)--;
      break;
    case 3: /* insert a JSON-ish token */
      if (*len + 8 < cap) {
        static const char *const toks[] = {"[", "]", "{",   "}",    ",",   "\"",
                                           "9", "-", "0e9", "null", "\\u", "\\ud800"};
        const char *t = toks[desert_rng_below(g, sizeof toks / sizeof toks[0])];
        size_t tl = strlen(t);
        memmove(buf + at + tl, buf + at, *len - at);
        memcpy(buf + at, t, tl);
        *len += tl;
      }
      break;
    default:
      *len = at;
      break; /* cut */
    }
  }
  for (size_t i = 0; i < *len; i++)
    if (buf[i] == '\n') buf[i] = ' ';
}

/* Replaces the hex of "decode":"..." with random hex of a random length. */
static size_t random_decode(desert_rng *g, const char *req, size_t len, char *out, size_t cap) {
  const char *k = strstr(req, "\"decode\":\"");
  if (!k) return 0;
  const char *start = k + 10, *end = memchr(start, '"', len - (size_t)(start - req));
  if (!end) return 0;
  size_t head = (size_t)(start - req), tail = len - (size_t)(end - req);
  size_t orig = (size_t)(end - start) / 2;
  size_t n = desert_rng_below(g, 3) == 0 ? desert_rng_below(g, 64) : orig;
  if (head + 2 * n + tail >= cap) return 0;
  memcpy(out, req, head);
  /* Keep a prefix of the real bytes and randomise the rest, or flip a few. */
  memcpy(out + head, start, 2 * (n < orig ? n : orig));
  static const char hexd[] = "0123456789abcdef";
  for (size_t i = orig; i < n; i++) {
    out[head + 2 * i] = hexd[desert_rng_below(g, 16)];
    out[head + 2 * i + 1] = hexd[desert_rng_below(g, 16)];
  }
  unsigned flips = 1 + desert_rng_below(g, 3);
  for (unsigned f = 0; f < flips && n; f++)
    out[head + desert_rng_below(g, (uint32_t)(2 * n))] = hexd[desert_rng_below(g, 16)];
  memcpy(out + head + 2 * n, end, tail);
  return head + 2 * n + tail;
}

static void test_fuzz_requests(void **state) {
  (void)state;
  corpus c = {0};
  if (!load_corpus(&c)) {
    fprintf(stderr, "SKIP: no conformance cases in %s\n", DESERT_SHARED_DIR);
    skip();
  }
  const char *env = getenv("DESERT_TYPES_FUZZ_ROUNDS");
  size_t rounds = env ? (size_t)strtoul(env, NULL, 10) : 3000;
  desert_rng g;
  desert_rng_init_test(&g, 0x7e57ee);
  desert_json_testee *t;
  assert_int_equal(desert_json_testee_create(&t), DESERT_OK);
  desert_value_arena *a;
  assert_int_equal(desert_value_arena_create(NULL, &a), DESERT_OK);
  desert_json_buf out = {0};
  size_t cap = 1 << 21;
  char *buf = malloc(cap);
  assert_non_null(buf);
  for (size_t i = 0; i < rounds; i++) {
    size_t k = desert_rng_below(&g, (uint32_t)c.n);
    size_t len = c.len[k] < cap ? c.len[k] : cap - 1;
    unsigned mode = desert_rng_below(&g, 4);
    if (mode <= 1 && c.decode[k]) {
      len = random_decode(&g, c.req[k], c.len[k], buf, cap);
      if (!len) continue;
    } else {
      memcpy(buf, c.req[k], len);
      if (mode != 3) mutate(&g, buf, &len, cap);
    }
    out.len = 0;
    desert_value_arena_reset(a);
    if (!desert_json_testee_line(t, buf, len, &out)) {
      bool blank = true;
      for (size_t j = 0; j < len; j++)
        if (buf[j] != ' ' && buf[j] != '\t' && buf[j] != '\r') blank = false;
      if (!blank) fail_msg("no response for a non-blank line");
      continue;
    }
    check_response(a, &out, buf, len);
  }
  /* Absurd numbers and nesting. */
  static const char *const odd[] = {
      "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":\"f64\"},\"encode\":1e999999999999}",
      "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":\"i64\"},\"encode\":-"
      "99999999999999999999999999}",
      "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":{\"type\":\"list\",\"element\":\"unit\"}}"
      ",\"decode\":\"feffffff0f\"}",
      "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":{\"type\":\"list\",\"element\":{\"type\":"
      "\"list\",\"element\":\"unit\"}}},\"decode\":\"02feffffff0f\"}",
      "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":\"compressed\"},\"decode\":"
      "\"ffffffff0f0500\"}",
      "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":\"string\"},\"decode\":\"feffffff0f\"}",
  };
  for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
    out.len = 0;
    assert_true(desert_json_testee_line(t, odd[i], strlen(odd[i]), &out));
    check_response(a, &out, odd[i], strlen(odd[i]));
  }
  size_t depth = 100000;
  char *deep = malloc(2 * depth + 100);
  assert_non_null(deep);
  size_t n = (size_t)sprintf(
      deep, "{\"id\":1,\"schema\":{\"desert_schema\":1,\"root\":\"i32\"},\"encode\":");
  memset(deep + n, '[', depth);
  memset(deep + n + depth, ']', depth);
  n += 2 * depth;
  deep[n++] = '}';
  out.len = 0;
  assert_true(desert_json_testee_line(t, deep, n, &out));
  check_response(a, &out, deep, n);
  free(deep);
  free(buf);
  desert_json_buf_free(&out);
  desert_value_arena_free(a);
  desert_json_testee_free(t);
  for (size_t i = 0; i < c.n; i++) free(c.req[i]);
  free(c.req);
  free(c.len);
  free(c.decode);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_fuzz_requests)};
  return cmocka_run_group_tests_name("types_fuzz", tests, NULL, NULL);
}
