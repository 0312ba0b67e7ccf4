/* src/core/stream_io.c — ready-made sources and sinks for the streaming
 * reader and writer: FILE * through fread/fwrite and file
 * descriptors through read/write. The file stays the caller's.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "desert/stream.h"

static ptrdiff_t file_read(void *ctx, void *buf, size_t cap) {
  FILE *f = ctx;
  size_t got = fread(buf, 1, cap, f);
  if (got) return (ptrdiff_t)got;
  return ferror(f) ? -1 : 0;
}

static int file_write(void *ctx, const void *buf, size_t n) {
  return fwrite(buf, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

/* The descriptor travels in the context pointer itself. */
static int fd_of(void *ctx) { return (int)(intptr_t)ctx; }

static ptrdiff_t fd_read(void *ctx, void *buf, size_t cap) {
  if (cap > (size_t)PTRDIFF_MAX) cap = (size_t)PTRDIFF_MAX;
  for (;;) {
    ssize_t got = read(fd_of(ctx), buf, cap);
    if (got >= 0) return (ptrdiff_t)got;
    if (errno != EINTR) return -1;
  }
}

static int fd_write(void *ctx, const void *buf, size_t n) {
  const uint8_t *p = buf;
  while (n) {
    ssize_t put = write(fd_of(ctx), p, n);
    if (put < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (put == 0) return -1;
    p += (size_t)put;
    n -= (size_t)put;
  }
  return 0;
}

desert_source desert_source_file(FILE *f) {
  desert_source s = {file_read, f};
  return s;
}
desert_source desert_source_fd(int fd) {
  desert_source s = {fd_read, (void *)(intptr_t)fd};
  return s;
}
desert_sink desert_sink_file(FILE *f) {
  desert_sink s = {file_write, f};
  return s;
}
desert_sink desert_sink_fd(int fd) {
  desert_sink s = {fd_write, (void *)(intptr_t)fd};
  return s;
}
