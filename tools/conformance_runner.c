/* tools/conformance_runner.c — `desert-conformance-runner`: plays conformance
 * cases against a testee process and judges the responses per docs/schema.md
 * §14.7: ids exactly, bytes as exact lowercase hex (or, for requests with a
 * `compressed` type marked "compare": "roundtrip", by decoding the testee's
 * bytes with the same schema in process and comparing with expect_value and
 * the full length), values by strict JSON equality (integer vs float, key
 * order, float text), errors by kind (and offset when asked), no extra keys,
 * every request answered, exit status 0 at the end of the input.
 *
 *   desert-conformance-runner [--max-failures N] [--timeout SEC] CASES TESTEE [ARGS...]
 *   desert-conformance-runner --examples SPEC.md TESTEE [ARGS...]
 *
 * CASES is a JSON-lines file of cases (conformance/README.md). With
 * --examples the worked examples of a Markdown file are played instead: the
 * ```jsonl blocks hold request/response line pairs, judged with offsets.
 * Prints the first failures and a last line `conformance: P passed, F
 * failed`; exits 0 when nothing failed.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "desert/json.h"

/* ---- the testee process ------------------------------------------------------------ */

typedef struct testee {
  pid_t pid;
  int to, from; /* pipe ends: requests in, responses out */
  char *buf;    /* pending response bytes */
  size_t len, cap;
  bool dead;
  int timeout_ms;
} testee;

static bool spawn(testee *t, char **argv) {
  int in[2], out[2];
  if (pipe(in) || pipe(out)) return false;
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  t->pid = pid;
  t->to = in[1];
  t->from = out[0];
  t->buf = NULL;
  t->len = t->cap = 0;
  t->dead = false;
  return true;
}

static bool send_line(testee *t, const char *s, size_t n) {
  if (t->dead) return false;
  while (n) {
    ssize_t k = write(t->to, s, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      t->dead = true;
      return false;
    }
    s += k;
    n -= (size_t)k;
  }
  if (write(t->to, "\n", 1) != 1) {
    t->dead = true;
    return false;
  }
  return true;
}

/* Reads one response line into *line (malloc'ed, NUL-terminated). */
static bool recv_line(testee *t, char **line) {
  *line = NULL;
  for (;;) {
    char *nl = t->len ? memchr(t->buf, '\n', t->len) : NULL;
    if (nl) {
      size_t n = (size_t)(nl - t->buf);
      *line = malloc(n + 1);
      if (!*line) return false;
      memcpy(*line, t->buf, n);
      (*line)[n] = '\0';
      memmove(t->buf, nl + 1, t->len - n - 1);
      t->len -= n + 1;
      return true;
    }
    if (t->dead) return false;
    struct pollfd p = {t->from, POLLIN, 0};
    int r = poll(&p, 1, t->timeout_ms);
    if (r == 0) {
      fprintf(stderr, "runner: the testee did not answer within %d ms; killing it\n",
              t->timeout_ms);
      kill(t->pid, SIGKILL);
      t->dead = true;
      return false;
    }
    if (r < 0) {
      if (errno == EINTR) continue;
      t->dead = true;
      return false;
    }
    if (t->cap - t->len < 65536) {
      size_t ncap = t->cap ? t->cap * 2 : 1 << 20;
      char *nb = realloc(t->buf, ncap);
      if (!nb) return false;
      t->buf = nb;
      t->cap = ncap;
    }
    ssize_t k = read(t->from, t->buf + t->len, t->cap - t->len);
    if (k <= 0) {
      if (k < 0 && errno == EINTR) continue;
      t->dead = true;
      continue; /* deliver what is buffered */
    }
    t->len += (size_t)k;
  }
}

/* Closes the input and returns the exit status (-1: killed or abnormal). */
static int finish(testee *t) {
  close(t->to);
  /* Anything more on stdout is an extra response. */
  int status = 0;
  for (int waited = 0;; waited += 50) {
    pid_t r = waitpid(t->pid, &status, WNOHANG);
    if (r == t->pid) break;
    if (waited > t->timeout_ms) {
      kill(t->pid, SIGKILL);
      waitpid(t->pid, &status, 0);
      break;
    }
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  char tmp[4096];
  ssize_t k;
  size_t extra = t->len;
  while ((k = read(t->from, tmp, sizeof tmp)) > 0) extra += (size_t)k;
  close(t->from);
  free(t->buf);
  if (extra) fprintf(stderr, "runner: %zu unexpected bytes on the testee's output\n", extra);
  if (!WIFEXITED(status)) return -1;
  return extra ? -2 : WEXITSTATUS(status);
}

/* ---- strict JSON equality (docs/schema.md §14.7) -------------------------------------------- */

static bool num_eq(const desert_json *a, const desert_json *b) {
  if (a->integer != b->integer) return false;
  if (a->integer) {
    /* Integers by value: compare the texts without a "-0" sign. */
    const char *x = a->str, *y = b->str;
    if (strcmp(x, "-0") == 0) x = "0";
    if (strcmp(y, "-0") == 0) y = "0";
    return strcmp(x, y) == 0;
  }
  return strcmp(a->str, b->str) == 0;
}

static bool json_eq(const desert_json *a, const desert_json *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case DESERT_JSON_NULL:
    return true;
  case DESERT_JSON_BOOL:
    return a->b == b->b;
  case DESERT_JSON_NUMBER:
    return num_eq(a, b);
  case DESERT_JSON_STRING:
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
  case DESERT_JSON_ARRAY:
    if (a->count != b->count) return false;
    for (size_t i = 0; i < a->count; i++)
      if (!json_eq(&a->items[i], &b->items[i])) return false;
    return true;
  case DESERT_JSON_OBJECT:
    if (a->count != b->count) return false;
    for (size_t i = 0; i < a->count; i++)
      if (!json_eq(&a->members[i].key, &b->members[i].key) ||
          !json_eq(&a->members[i].value, &b->members[i].value))
        return false;
    return true;
  }
  return false;
}

/* Whether the schema of a request uses a `compressed` type anywhere. */
static bool mentions_compressed(const desert_json *j) {
  if (j->kind == DESERT_JSON_STRING) return strcmp(j->str, "compressed") == 0;
  if (j->kind == DESERT_JSON_ARRAY) {
    for (size_t i = 0; i < j->count; i++)
      if (mentions_compressed(&j->items[i])) return true;
  } else if (j->kind == DESERT_JSON_OBJECT) {
    for (size_t i = 0; i < j->count; i++)
      if (mentions_compressed(&j->members[i].value)) return true;
  }
  return false;
}

/* ---- judging one exchange ------------------------------------------------------------------- */

typedef struct judge {
  char why[512];
} judge;

static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* Decodes the testee's bytes with the request's schema in process. */
static bool roundtrip_ok(const desert_json *req, const char *hex, size_t hex_len,
                         const desert_json *expect_value, judge *jd) {
  const desert_json *schema = desert_json_get(req, "schema");
  const desert_json *opts = desert_json_get(req, "options");
  desert_schema *s = NULL;
  desert_json_error err;
  if (!schema || desert_schema_load(schema, NULL, &s, &err)) {
    snprintf(jd->why, sizeof jd->why, "roundtrip: the schema does not load: %.300s", err.message);
    return false;
  }
  desert_schema_options ro;
  char msg[200];
  if (opts && !desert_schema_options_parse(opts, &ro, msg, sizeof msg)) {
    desert_schema_free(s);
    snprintf(jd->why, sizeof jd->why, "roundtrip: bad options");
    return false;
  }
  desert_options o;
  desert_schema_options_apply(&s->options, opts ? &ro : NULL, &o);
  size_t n = hex_len / 2;
  unsigned char *bytes = malloc(n ? n : 1);
  bool ok = bytes != NULL && hex_len % 2 == 0;
  for (size_t i = 0; ok && i < n; i++) {
    int h = hexv(hex[2 * i]), l = hexv(hex[2 * i + 1]);
    if (h < 0 || l < 0)
      ok = false;
    else
      bytes[i] = (unsigned char)(h << 4 | l);
  }
  desert_reader *r = NULL;
  desert_value_arena *a = NULL;
  desert_json_buf out = {0};
  size_t consumed = 0;
  if (ok && (desert_reader_create(&o, &r) || desert_value_arena_create(NULL, &a))) ok = false;
  if (ok && desert_json_decode(s, r, bytes, n, a, &out, &consumed, &err)) {
    snprintf(jd->why, sizeof jd->why, "roundtrip: the bytes do not decode: %s: %.300s",
             desert_json_error_kind_name(&err), err.message);
    ok = false;
  } else if (ok) {
    desert_json *got = NULL;
    if (desert_json_parse(out.data, out.len, a, &got, msg, sizeof msg) ||
        !json_eq(got, expect_value)) {
      snprintf(jd->why, sizeof jd->why, "roundtrip: decoded value differs: %.300s",
               out.data ? out.data : "");
      ok = false;
    } else if (consumed != n) {
      snprintf(jd->why, sizeof jd->why, "roundtrip: %zu of %zu bytes used", consumed, n);
      ok = false;
    }
  }
  desert_json_buf_free(&out);
  desert_value_arena_free(a);
  desert_reader_free(r);
  free(bytes);
  desert_schema_free(s);
  return ok;
}

static bool judge_exchange(const desert_json *req, const desert_json *expect,
                           const desert_json *got, bool compare_offset, bool roundtrip,
                           const desert_json *expect_value, judge *jd) {
  if (got->kind != DESERT_JSON_OBJECT) {
    snprintf(jd->why, sizeof jd->why, "the response is not an object");
    return false;
  }
  const desert_json *eid = desert_json_get(expect, "id"), *gid = desert_json_get(got, "id");
  if (!gid || !eid || !json_eq(eid, gid)) {
    snprintf(jd->why, sizeof jd->why, "wrong id");
    return false;
  }
  /* Same keys, no extra ones. */
  if (got->count != expect->count) {
    snprintf(jd->why, sizeof jd->why, "the response has other keys than expected");
    return false;
  }
  for (size_t i = 0; i < expect->count; i++) {
    if (!desert_json_get(got, expect->members[i].key.str)) {
      snprintf(jd->why, sizeof jd->why, "the response lacks \"%s\"", expect->members[i].key.str);
      return false;
    }
  }
  const desert_json *eerr = desert_json_get(expect, "error");
  if (eerr) {
    const desert_json *gerr = desert_json_get(got, "error");
    if (gerr->kind != DESERT_JSON_OBJECT) {
      snprintf(jd->why, sizeof jd->why, "error is not an object");
      return false;
    }
    const desert_json *ek = desert_json_get(eerr, "kind"), *gk = desert_json_get(gerr, "kind");
    if (!gk || !json_eq(ek, gk)) {
      snprintf(jd->why, sizeof jd->why, "wrong error kind");
      return false;
    }
    const desert_json *gm = desert_json_get(gerr, "message");
    if (!gm || gm->kind != DESERT_JSON_STRING) {
      snprintf(jd->why, sizeof jd->why, "error without a message");
      return false;
    }
    const desert_json *eo = desert_json_get(eerr, "offset"), *go = desert_json_get(gerr, "offset");
    size_t keys = 2 + (go != NULL);
    if (gerr->count != keys) {
      snprintf(jd->why, sizeof jd->why, "extra keys in the error");
      return false;
    }
    if ((eo != NULL) != (go != NULL)) {
      snprintf(jd->why, sizeof jd->why, "offset %s", eo ? "missing" : "not expected");
      return false;
    }
    if (eo && compare_offset && !json_eq(eo, go)) {
      snprintf(jd->why, sizeof jd->why, "wrong offset");
      return false;
    }
    return true;
  }
  const desert_json *eb = desert_json_get(expect, "bytes");
  if (eb) {
    const desert_json *gb = desert_json_get(got, "bytes");
    if (gb->kind != DESERT_JSON_STRING) {
      snprintf(jd->why, sizeof jd->why, "bytes is not a string");
      return false;
    }
    if (roundtrip && expect_value) return roundtrip_ok(req, gb->str, gb->len, expect_value, jd);
    if (!json_eq(eb, gb)) {
      snprintf(jd->why, sizeof jd->why, "different bytes");
      return false;
    }
    return true;
  }
  const desert_json *ev = desert_json_get(expect, "value");
  if (ev) {
    if (!json_eq(ev, desert_json_get(got, "value"))) {
      snprintf(jd->why, sizeof jd->why, "different value");
      return false;
    }
    if (!json_eq(desert_json_get(expect, "consumed"), desert_json_get(got, "consumed"))) {
      snprintf(jd->why, sizeof jd->why, "different consumed");
      return false;
    }
    return true;
  }
  snprintf(jd->why, sizeof jd->why, "unexpected expectation");
  return false;
}

/* ---- driver -------------------------------------------------------------------------------- */

typedef struct stats {
  size_t passed, failed, shown, max_show;
} stats;

static void show(stats *st, const char *name, const char *req, size_t req_len, const char *expect,
                 const char *got, const char *why) {
  if (st->shown++ >= st->max_show) return;
  fprintf(stdout, "FAIL %s: %s\n  request:  %.*s%s\n  expected: %.600s\n  got:      %.600s\n", name,
          why, (int)(req_len > 600 ? 600 : req_len), req, req_len > 600 ? "..." : "", expect,
          got ? got : "(nothing)");
}

/* Plays one exchange; returns whether it passed. */
static bool play(testee *t, desert_value_arena *a, const char *req_text, size_t req_len,
                 const desert_json *req, const desert_json *expect, const char *expect_text,
                 bool compare_offset, bool roundtrip, const desert_json *expect_value,
                 const char *name, stats *st) {
  char *line = NULL;
  judge jd;
  bool ok = send_line(t, req_text, req_len) && recv_line(t, &line);
  if (!ok) {
    show(st, name, req_text, req_len, expect_text, NULL, "no response");
    free(line);
    return false;
  }
  desert_json *got = NULL;
  char msg[200];
  if (desert_json_parse(line, strlen(line), a, &got, msg, sizeof msg)) {
    snprintf(jd.why, sizeof jd.why, "the response is not JSON: %s", msg);
    ok = false;
  } else {
    ok = judge_exchange(req, expect, got, compare_offset, roundtrip, expect_value, &jd);
  }
  if (!ok) show(st, name, req_text, req_len, expect_text, line, jd.why);
  free(line);
  return ok;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 20, n = 0;
  char *d = malloc(cap);
  size_t k;
  while (d && (k = fread(d + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      char *nd = realloc(d, cap * 2);
      if (!nd) {
        free(d);
        d = NULL;
        break;
      }
      d = nd;
      cap *= 2;
    }
  }
  fclose(f);
  if (d) {
    char *nd = realloc(d, n + 1);
    if (nd) d = nd;
    d[n] = '\0';
  }
  *len = n;
  return d;
}

static void run_cases(testee *t, char *text, size_t len, stats *st) {
  desert_value_arena *a = NULL;
  if (desert_value_arena_create(NULL, &a)) return;
  desert_json_buf req = {0}, exp = {0};
  char *p = text, *end = text + len;
  size_t lineno = 0;
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    lineno++;
    desert_value_arena_reset(a);
    desert_json *c = NULL;
    char msg[200];
    if (n && !desert_json_parse(p, n, a, &c, msg, sizeof msg) && c->kind == DESERT_JSON_OBJECT) {
      const desert_json *name = desert_json_get(c, "case");
      const desert_json *ex = desert_json_get(c, "exchanges");
      char nm[96];
      snprintf(nm, sizeof nm, "%s", name && name->kind == DESERT_JSON_STRING ? name->str : "?");
      bool ok = ex && ex->kind == DESERT_JSON_ARRAY;
      for (size_t i = 0; ok && i < ex->count; i++) {
        const desert_json *e = &ex->items[i];
        const desert_json *rq = desert_json_get(e, "request");
        const desert_json *xp = desert_json_get(e, "expect");
        const desert_json *co = desert_json_get(e, "compare_offset");
        const desert_json *cmp = desert_json_get(e, "compare");
        const desert_json *xv = desert_json_get(e, "expect_value");
        if (!rq || !xp) {
          ok = false;
          break;
        }
        req.len = 0;
        exp.len = 0;
        if (rq->kind == DESERT_JSON_STRING)
          desert_json_buf_put(&req, rq->str, rq->len);
        else
          desert_json_print(&req, rq);
        desert_json_print(&exp, xp);
        ok = play(t, a, req.data, req.len, rq, xp, exp.data,
                  co && co->kind == DESERT_JSON_BOOL && co->b,
                  cmp && cmp->kind == DESERT_JSON_STRING && strcmp(cmp->str, "roundtrip") == 0 &&
                      rq->kind == DESERT_JSON_OBJECT &&
                      mentions_compressed(desert_json_get(rq, "schema")),
                  xv, nm, st);
      }
      if (ok)
        st->passed++;
      else
        st->failed++;
    } else if (n) {
      fprintf(stderr, "runner: line %zu of the cases file is not a case\n", lineno);
      st->failed++;
    }
    p = nl ? nl + 1 : end;
  }
  desert_json_buf_free(&req);
  desert_json_buf_free(&exp);
  desert_value_arena_free(a);
}

/* Worked examples: ```jsonl blocks of request/response line pairs. */
static void run_examples(testee *t, char *text, size_t len, stats *st) {
  desert_value_arena *a = NULL;
  if (desert_value_arena_create(NULL, &a)) return;
  char *p = text, *end = text + len;
  bool in_block = false;
  char *pending = NULL;
  size_t pending_len = 0;
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n >= 3 && memcmp(p, "```", 3) == 0) {
      in_block = !in_block && n >= 8 && memcmp(p, "```jsonl", 8) == 0;
      pending = NULL;
    } else if (in_block && n) {
      if (!pending) {
        pending = p;
        pending_len = n;
      } else {
        desert_value_arena_reset(a);
        desert_json *rq = NULL, *xp = NULL;
        char msg[200], nm[64];
        bool parsed = !desert_json_parse(pending, pending_len, a, &rq, msg, sizeof msg) &&
                      !desert_json_parse(p, n, a, &xp, msg, sizeof msg);
        const desert_json *id = parsed ? desert_json_get(rq, "id") : NULL;
        snprintf(nm, sizeof nm, "example %s", id && id->kind == DESERT_JSON_NUMBER ? id->str : "?");
        char *ex = malloc(n + 1);
        if (ex) {
          memcpy(ex, p, n);
          ex[n] = '\0';
        }
        bool ok =
            parsed && ex && play(t, a, pending, pending_len, rq, xp, ex, true, false, NULL, nm, st);
        free(ex);
        if (ok)
          st->passed++;
        else
          st->failed++;
        pending = NULL;
      }
    }
    p = nl ? nl + 1 : end;
  }
  desert_value_arena_free(a);
}

int main(int argc, char **argv) {
  stats st = {0, 0, 0, 10};
  int timeout = 20;
  bool examples = false;
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
    if (strcmp(argv[i], "--examples") == 0) {
      examples = true;
    } else if (strcmp(argv[i], "--max-failures") == 0 && i + 1 < argc) {
      st.max_show = (size_t)strtoul(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
      timeout = atoi(argv[++i]);
    } else {
      fprintf(stderr, "runner: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (argc - i < 2) {
    fprintf(stderr,
            "usage: desert-conformance-runner [--examples] [--max-failures N] [--timeout SEC] "
            "CASES TESTEE [ARGS...]\n");
    return 2;
  }
  size_t len;
  char *text = read_file(argv[i], &len);
  if (!text) {
    fprintf(stderr, "runner: cannot read %s\n", argv[i]);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  testee t;
  memset(&t, 0, sizeof t);
  t.timeout_ms = timeout * 1000;
  if (!spawn(&t, argv + i + 1)) {
    fprintf(stderr, "runner: cannot start %s\n", argv[i + 1]);
    free(text);
    return 2;
  }
  if (examples)
    run_examples(&t, text, len, &st);
  else
    run_cases(&t, text, len, &st);
  int rc = finish(&t);
  free(text);
  if (rc != 0) {
    fprintf(stdout, "FAIL the testee ended with status %d (expected 0)\n", rc);
  }
  fprintf(stdout, "conformance: %zu passed, %zu failed\n", st.passed, st.failed);
  return st.failed == 0 && rc == 0 ? 0 : 1;
}
