/* tools/desert_conformance.c — `desert-conformance`, the conformance testee
 * of docs/schema.md §14: reads JSON request lines on standard input, writes one
 * response line per request to standard output (flushed before the next
 * line is read), diagnostics on standard error, exit status 0 at the end of
 * the input. All protocol logic is desert_json_testee_line (src/json).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desert/json.h"

/* Lines longer than this are answered with BadRequest and skipped. */
#define MAX_LINE ((size_t)256 << 20)

int main(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    printf("usage: desert-conformance < requests.jsonl > responses.jsonl\n"
           "Answers desert conformance requests (docs/schema.md §14), one JSON line each.\n");
    return 0;
  }
  desert_json_testee *t = NULL;
  if (desert_json_testee_create(&t)) {
    fprintf(stderr, "desert-conformance: out of memory\n");
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  char *line = malloc(cap);
  desert_json_buf out = {0};
  if (!line) {
    fprintf(stderr, "desert-conformance: out of memory\n");
    desert_json_testee_free(t);
    return 1;
  }
  int c = 0;
  while (c != EOF) {
    len = 0;
    bool too_long = false;
    while ((c = getchar()) != EOF && c != '\n') {
      if (too_long) continue;
      if (len + 1 >= cap) {
        size_t ncap = cap * 2;
        char *n = ncap <= MAX_LINE ? realloc(line, ncap) : NULL;
        if (!n) {
          too_long = true;
          continue;
        }
        line = n;
        cap = ncap;
      }
      line[len++] = (char)c;
    }
    if (c == EOF && len == 0 && !too_long) break;
    out.len = 0;
    if (too_long) {
      static const char resp[] = "{\"id\":null,\"error\":{\"kind\":\"BadRequest\",\"message\":"
                                 "\"request line too long\"}}\n";
      desert_json_buf_put(&out, resp, sizeof resp - 1);
    } else if (!desert_json_testee_line(t, line, len, &out)) {
      continue; /* a blank line: no response */
    }
    if (out.len) fwrite(out.data, 1, out.len, stdout);
    if (fflush(stdout) != 0) {
      fprintf(stderr, "desert-conformance: cannot write to standard output\n");
      break;
    }
  }
  free(line);
  desert_json_buf_free(&out);
  desert_json_testee_free(t);
  return 0;
}
