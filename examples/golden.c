/* examples/golden.c — `golden IN OUT [--modern]`: decodes desert-scala's
 * golden dataset (a TestModel1) into C structs, prints a one-line summary
 * and writes it back: in the legacy form of Scala 0.2.x (byte-identical to
 * dataset1.bin) or, with --modern, as Scala >= 0.3 and desert-rust write it.
 * Exit status: 0 done, 1 decode/encode/I/O failure (status name and offset
 * on stderr), 2 usage.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_model.h"

static int usage(void) {
  fprintf(stderr, "usage: golden IN OUT [--modern]\n");
  return 2;
}

/* Reads a whole file; NULL (and errno) on failure. */
static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

static size_t frames(const golden_throwable *t) {
  size_t n = 0;
  for (; t; t = t->cause) n += t->stack_trace_len;
  return n;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) return usage();
  bool modern = false;
  if (argc == 4) {
    if (strcmp(argv[3], "--modern") != 0) return usage();
    modern = true;
  }
  size_t len;
  unsigned char *in = read_file(argv[1], &len);
  if (!in) {
    fprintf(stderr, "golden: cannot read %s: %s\n", argv[1], strerror(errno));
    return 1;
  }

  desert_reader *r = NULL;
  desert_writer *w = NULL;
  desert_options opt;
  desert_options_init(&opt);
  if (!modern) opt.flags |= DESERT_OPT_LEGACY_HEADER_STRINGS;
  int rc = 1;
  if (desert_reader_create(NULL, &r) || desert_writer_create(&opt, &w)) {
    fprintf(stderr, "golden: out of memory\n");
    goto done;
  }

  golden_model m;
  desert_reader_begin(r, in, len);
  desert_status st = golden_model_read(r, &m);
  if (st) {
    fprintf(stderr, "golden: decode failed: %s at offset %zu\n", desert_status_name(st),
            desert_reader_error_offset(r));
    goto done;
  }
  size_t consumed = desert_reader_offset(r);

  st = golden_model_write(w, &m);
  if (st) {
    fprintf(stderr, "golden: encode failed: %s\n", desert_status_name(st));
    goto done;
  }
  size_t out_len;
  const uint8_t *out = desert_writer_data(w, &out_len);
  FILE *f = fopen(argv[2], "wb");
  bool ok = f && fwrite(out, 1, out_len, f) == out_len;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) {
    fprintf(stderr, "golden: cannot write %s: %s\n", argv[2], strerror(errno));
    goto done;
  }

  printf("golden: read %zu of %zu bytes: TestModel1 string=\"%.*s\" list=%zu (%s) "
         "array=%zu vector=%zu set=%zu map=%zu frames=%zu; wrote %zu bytes (%s)\n",
         consumed, len, (int)m.string.len, m.string.ptr, m.list_len,
         m.list_known_size ? "known size" : "unknown size", m.array_len, m.vector_len, m.set_len,
         m.option_len, frames(&m.exception), out_len, modern ? "modern" : "legacy");
  rc = 0;

done:
  desert_writer_free(w);
  desert_reader_free(r);
  free(in);
  return rc;
}
