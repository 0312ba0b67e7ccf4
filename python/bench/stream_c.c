/* python/bench/stream_c.c — the C baseline of stream_1gb.py: iterates the
 * elements of a desert stream file (a list root) with libdesert's streaming
 * reader, decoding each element into a desert_value tree (desert_type_decode,
 * the library's generic decoder) and marking after it, as Schema.iter_decode
 * does minus the Python objects. Prints "<elements> <seconds> <peak RSS KiB>" (VmHWM).
 *   stream_c SCHEMA.json FILE.bin */
#define _POSIX_C_SOURCE 200809L
#include <desert.h>
#include <desert/json.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: stream_c SCHEMA.json FILE.bin\n");
    return 2;
  }
  size_t tlen;
  char *text = slurp(argv[1], &tlen);
  desert_value_arena *doc_arena = NULL, *arena = NULL;
  desert_json *doc = NULL;
  desert_schema *schema = NULL;
  desert_json_error jerr;
  if (!text || desert_value_arena_create(NULL, &doc_arena) ||
      desert_json_parse_ex(text, tlen, doc_arena, &doc, &jerr) ||
      desert_schema_load(doc, NULL, &schema, &jerr)) {
    fprintf(stderr, "stream_c: cannot load the schema %s\n", argv[1]);
    return 1;
  }
  const desert_type *root = desert_type_resolve(schema->root);
  if (!root || (root->kind != DESERT_TYPE_LIST && root->kind != DESERT_TYPE_SET)) {
    fprintf(stderr, "stream_c: the root is not a list or a set\n");
    return 1;
  }
  desert_options opt;
  desert_options_init(&opt);
  desert_schema_options_apply(&schema->options, NULL, &opt);
  FILE *f = fopen(argv[2], "rb");
  desert_reader *r = NULL;
  if (!f || desert_reader_create(&opt, &r) || desert_value_arena_create(NULL, &arena)) {
    fprintf(stderr, "stream_c: cannot open %s\n", argv[2]);
    return 1;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  desert_seq seq;
  desert_status st = desert_reader_begin_stream(r, desert_source_file(f), 0);
  if (!st) st = desert_read_seq_begin(r, &seq);
  size_t n = 0;
  while (!st && desert_read_seq_next(r, &seq)) {
    desert_value *v;
    desert_type_error terr;
    desert_value_arena_reset(arena);
    st = desert_type_decode(r, root->u.coll.element, arena, NULL, &v, &terr);
    if (!st) st = desert_reader_mark(r);
    n++;
  }
  if (!st) st = desert_reader_status(r);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (st) {
    fprintf(stderr, "stream_c: %s at offset %zu\n", desert_status_name(st),
            desert_reader_error_offset(r));
    return 1;
  }
  /* VmHWM: the peak of this program's own image (ru_maxrss keeps the peak of
   * the process that forked it across exec); ru_maxrss where there is none. */
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long peak = ru.ru_maxrss;
  FILE *st_f = fopen("/proc/self/status", "r");
  char line[256];
  while (st_f && fgets(line, sizeof line, st_f))
    if (sscanf(line, "VmHWM: %ld", &peak) == 1) break;
  if (st_f) fclose(st_f);
  printf("%zu %.6f %ld\n", n,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, peak);
  desert_reader_free(r);
  desert_value_arena_free(arena);
  desert_value_arena_free(doc_arena);
  desert_schema_free(schema);
  fclose(f);
  free(text);
  return 0;
}
