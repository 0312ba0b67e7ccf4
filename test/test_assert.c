/* test/test_assert.c — the invariant checks of builds with assertions
 * (CMake option DESERT_ENABLE_ASSERTS, which also defines DESERT_DEBUG):
 * a deliberately broken head invariant ("busy 0 => status OK", and for
 * writers "t == &main") must stop the next call that relies on it with an
 * abort and a message naming the condition, both in the library
 * (DESERT_ASSERT, src/base/assert.h) and in the inline headers
 * (DESERT_FAST_KNOWN_ under DESERT_DEBUG, writer_inline.h). Each broken
 * case runs in a forked child whose stderr is captured; the parent checks
 * SIGABRT and the text. A control case runs the same sequence without the
 * breakage and must exit normally with the expected state, so the harness
 * cannot pass by accident. Builds without assertions exit 77 (skipped):
 * there is nothing to check there.
 * SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "desert/reader.h"
#include "desert/writer.h"
#include "test_util.h"

#if defined(DESERT_ENABLE_ASSERTS) && defined(DESERT_DEBUG)

typedef void (*child_fn)(void);

typedef struct child_result {
  int exited;   /* exited normally */
  int code;     /* exit code when exited */
  int signaled; /* killed by a signal */
  int sig;
  char err[4096]; /* the child's stderr */
} child_result;

/* Runs fn in a child with stderr captured; the child exits 0 if fn returns. */
static void run_child(child_fn fn, child_result *res) {
  memset(res, 0, sizeof *res);
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    if (dup2(fds[1], 2) < 0) _exit(3);
    fn();
    _exit(0);
  }
  close(fds[1]);
  size_t used = 0;
  for (;;) {
    ssize_t got = read(fds[0], res->err + used, sizeof res->err - 1 - used);
    if (got <= 0) break;
    used += (size_t)got;
    if (used == sizeof res->err - 1) break;
  }
  res->err[used] = '\0';
  close(fds[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  res->exited = WIFEXITED(status);
  res->code = res->exited ? WEXITSTATUS(status) : -1;
  res->signaled = WIFSIGNALED(status);
  res->sig = res->signaled ? WTERMSIG(status) : 0;
}

static void expect_abort(child_fn fn, const char *kind, const char *condition) {
  child_result res;
  run_child(fn, &res);
  if (!res.signaled || res.sig != SIGABRT)
    fail_msg("expected SIGABRT, got exited=%d code=%d signaled=%d sig=%d, stderr: %s", res.exited,
             res.code, res.signaled, res.sig, res.err);
  if (!strstr(res.err, kind) || !strstr(res.err, condition))
    fail_msg("stderr lacks \"%s\" / \"%s\": %s", kind, condition, res.err);
}

static void expect_exit0(child_fn fn) {
  child_result res;
  run_child(fn, &res);
  if (!res.exited || res.code != 0)
    fail_msg("expected a normal exit, got exited=%d code=%d sig=%d, stderr: %s", res.exited,
             res.code, res.sig, res.err);
}

/* ---- writers ------------------------------------------------------------------- */

/* A heap writer in error state (busy set by desert_writer_fail); with
 * `flip`, busy is cleared through the documented head, breaking the
 * invariant as a library bug that forgot to set it would. */
static desert_writer *failed_writer(int flip) {
  desert_writer *w = NULL;
  if (desert_writer_create(NULL, &w) != DESERT_OK) _exit(4);
  if (desert_write_u32(w, 7) != DESERT_OK) _exit(5);
  if (desert_writer_fail(w, DESERT_E_STATE) != DESERT_E_STATE) _exit(6);
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  if (f->busy == 0 || f->status != DESERT_E_STATE) _exit(7); /* the invariant's premise */
  if (flip) f->busy = 0;
  return w;
}

static void writer_reset_exported_broken(void) { desert_writer_reset(failed_writer(1)); }
static void writer_reset_inline_broken(void) { desert_writer_reset_inline(failed_writer(1)); }

/* Control: the same writer, invariant intact; both resets clear the error
 * and the output, and a value written next is the only output. */
static void writer_reset_intact(void) {
  desert_writer *w = failed_writer(0);
  desert_writer_reset_inline(w);
  if (desert_writer_status(w) != DESERT_OK) _exit(10);
  desert_write_u8_inline(w, 0xab);
  desert_writer_reset(w);
  desert_write_u8_inline(w, 0xcd);
  size_t len = 0;
  const uint8_t *d = desert_writer_data(w, &len);
  if (len != 1 || !d || d[0] != 0xcd) _exit(11);
  desert_writer_free(w);
}

static void test_writer_invariant(void **state) {
  (void)state;
  expect_exit0(writer_reset_intact);
  expect_abort(writer_reset_exported_broken, "assertion failed", "busy != 0");
  expect_abort(writer_reset_inline_broken, "inline check failed", "f->status == DESERT_OK");
}

/* ---- readers ------------------------------------------------------------------- */

static const uint8_t k_input[] = {0x12, 0x34};

static desert_reader *failed_reader(int flip) {
  desert_reader *r = NULL;
  if (desert_reader_create(NULL, &r) != DESERT_OK) _exit(4);
  if (desert_reader_begin(r, k_input, sizeof k_input) != DESERT_OK) _exit(5);
  if (desert_reader_fail(r, DESERT_E_STATE, 1) != DESERT_E_STATE) _exit(6);
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (f->busy == 0 || f->status != DESERT_E_STATE) _exit(7);
  if (flip) f->busy = 0;
  return r;
}

static void reader_begin_exported_broken(void) {
  (void)desert_reader_begin(failed_reader(1), k_input, sizeof k_input);
}
static void reader_begin_inline_broken(void) {
  (void)desert_reader_begin_inline(failed_reader(1), k_input, sizeof k_input);
}

static void reader_begin_intact(void) {
  desert_reader *r = failed_reader(0);
  if (desert_reader_begin_inline(r, k_input, sizeof k_input) != DESERT_OK) _exit(10);
  uint16_t v = 0;
  if (desert_read_u16_inline(r, &v) != DESERT_OK || v != 0x1234) _exit(11);
  desert_reader_free(r);
}

static void test_reader_invariant(void **state) {
  (void)state;
  expect_exit0(reader_begin_intact);
  expect_abort(reader_begin_exported_broken, "assertion failed", "busy != 0");
  expect_abort(reader_begin_inline_broken, "inline check failed", "f->status == DESERT_OK");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writer_invariant),
      cmocka_unit_test(test_reader_invariant),
  };
  return cmocka_run_group_tests_name("assert", tests, NULL, NULL);
}

#else

int main(void) {
  printf("skipped: built without DESERT_ENABLE_ASSERTS / DESERT_DEBUG (no checks to test)\n");
  return 77;
}

#endif
