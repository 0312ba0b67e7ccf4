/* tools/cli_suggest.c — "did you mean ...?" for a mistyped subcommand or
 * option: the closest of a list of known words by edit distance (an
 * insertion, deletion, substitution or swap of two neighbours costs 1),
 * offered only when it is close enough to be the likely intent.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Words longer than this are not compared (no known word is near it). */
#define SUGGEST_MAX_LEN 48

/* Optimal string alignment distance between a and b, both at most
 * SUGGEST_MAX_LEN long; three rows of the usual table. */
static size_t distance(const char *a, size_t n, const char *b, size_t m) {
  size_t rows[3][SUGGEST_MAX_LEN + 1];
  size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++) prev[j] = j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t d = prev[j - 1] + cost;
      if (prev[j] + 1 < d) d = prev[j] + 1;
      if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
        d = prev2[j - 2] + 1;
      cur[j] = d;
    }
    size_t *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

const char *cli_suggest(const char *word, const char *const *known, size_t count) {
  size_t n = word ? strlen(word) : 0;
  if (n == 0 || n > SUGGEST_MAX_LEN) return NULL;
  /* One edit in a short word, two from six characters on: more would
   * offer unrelated words. */
  size_t best_d = n >= 6 ? 3 : 2;
  const char *best = NULL;
  for (size_t i = 0; i < count; i++) {
    size_t m = strlen(known[i]);
    if (m > SUGGEST_MAX_LEN || (m > n ? m - n : n - m) >= best_d) continue;
    size_t d = distance(word, n, known[i], m);
    if (d < best_d) {
      best_d = d;
      best = known[i];
    }
  }
  return best;
}

void cli_unknown(const char *cmd, const char *what, const char *word, const char *const *known,
                 size_t count) {
  const char *near = cli_suggest(word, known, count);
  char help[64];
  snprintf(help, sizeof help, "%s%s%s --help", cli_progname, cmd ? " " : "", cmd ? cmd : "");
  if (near)
    cli_error(cmd, "unknown %s '%s' (did you mean '%s'? see '%s')", what, word, near, help);
  else
    cli_error(cmd, "unknown %s '%s' (see '%s')", what, word, help);
}
