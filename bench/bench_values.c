/* bench/bench_values.c — the application values of the codec suite (see
 * bench_values.h). Deterministic: a splitmix64 stream per value and variant.
 * SPDX-License-Identifier: MIT */
#include "bench_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_codec.h"

int32_t bv_i32(unsigned k) { return (int32_t)(123456789 + 7919 * (int32_t)k); }
int32_t bv_var_i32(unsigned k) { return -123456789 - 31 * (int32_t)k; }
int32_t bv_opt_i32(unsigned k) { return 42 + (int32_t)k; }

static const char fox[] = "The quick brown fox jumps over the lazy dog";

void bv_fox(unsigned k, char *out) {
  size_t n = BV_FOX_LEN;
  for (size_t j = 0; j < n; j++) {
    char c = fox[(j + k) % n];
    if (k >= n && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) c ^= 0x20;
    out[j] = c;
  }
  out[n] = 0;
}

void bv_i32_array(unsigned k, size_t n, int32_t *out) {
  for (size_t j = 0; j < n; j++) out[j] = (int32_t)(j + k * n);
}

void bv_bytes(unsigned k, size_t n, uint8_t *out) {
  for (size_t j = 0; j < n; j++) out[j] = (uint8_t)((j + k) % 251);
}

static const char *const rec8_tags[4] = {"alpha", "beta", "gamma", "delta"};

void bv_record8(unsigned k, bv_rec8 *p) {
  memset(p, 0, sizeof *p);
  p->id = 42 + (int32_t)k;
  memcpy(p->name, "Alice Example", 13);
  p->name_len = 13;
  if (k) {
    p->name[11] = (char)('a' + k / 26);
    p->name[12] = (char)('a' + k % 26);
  }
  p->score = 98.625 + (double)k;
  p->active = k % 3 != 1;
  for (unsigned t = 0; t < 4; t++) {
    const char *tag = rec8_tags[(t + k) % 4];
    p->tag_len[t] = strlen(tag);
    memcpy(p->tag[t], tag, p->tag_len[t]);
    if (k >= 4) p->tag[t][0] = (char)('a' + (k / 4 + t) % 26);
  }
}

static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";

void bv_dedup(unsigned k, char *out) {
  memcpy(out, "desert-dedup-sample-string-x", BV_DEDUP_LEN + 1);
  if (k) {
    out[26] = alnum[k / 36];
    out[27] = alnum[k % 36];
  }
}

void bv_strlist_make(unsigned k, bv_strlist *l) {
  memset(l, 0, sizeof *l);
  for (unsigned j = 0; j < 100; j++) {
    snprintf(l->s[j], sizeof l->s[j], "item%u", j);
    if (k) {
      l->s[j][0] = (char)('a' + k % 26);
      l->s[j][1] = (char)('a' + k / 26);
    }
    l->len[j] = strlen(l->s[j]);
  }
}

void bv_strmap_make(unsigned k, bv_strmap *m) {
  memset(m, 0, sizeof *m);
  for (unsigned j = 0; j < 100; j++) {
    snprintf(m->key[j], sizeof m->key[j], "key%u", j);
    if (k) {
      m->key[j][1] = (char)('a' + k % 26);
      m->key[j][2] = (char)('a' + k / 26);
    }
    m->len[j] = strlen(m->key[j]);
    m->val[j] = (int32_t)(j + 100 * k);
  }
}

void bv_wide_make(unsigned k, size_t fields, bv_wide *w) {
  memset(w, 0, sizeof *w);
  w->fields = fields;
  uint64_t s = 0x57AD0000ull + k * 1000003ull + fields;
  for (size_t i = 0; i < fields / 4 + 1 && i < BV_WIDE_MAX / 4; i++) {
    w->i64[i] = (int64_t)codec_mix(&s);
    uint64_t a = codec_mix(&s), b = codec_mix(&s);
    memcpy(w->bin[i], &a, 8);
    memcpy(w->bin[i] + 8, &b, 8);
    w->b[i] = (codec_mix(&s) & 1) != 0;
    for (int j = 0; j < 3; j++) w->list[i][j] = (int64_t)(codec_mix(&s) >> (j * 20));
  }
}

int bv_terms_make(unsigned k, size_t n, bv_terms *d) {
  d->n = n;
  d->t = calloc(n ? n : 1, sizeof *d->t);
  d->text = malloc(n * 13 + 1);
  if (!d->t || !d->text) {
    bv_terms_free(d);
    return 1;
  }
  uint64_t s = 0x7E5A0000ull + k * 7777ull + n;
  char *p = d->text;
  for (size_t i = 0; i < n; i++) {
    bv_term *t = &d->t[i];
    size_t len = 4 + codec_mix(&s) % 9;
    for (size_t j = 0; j < len; j++) p[j] = (char)('a' + codec_mix(&s) % 26);
    p[len] = 0;
    t->s = p;
    t->len = len;
    p += len + 1;
    t->doc_freq = (int32_t)(1 + codec_mix(&s) % 20000);
    t->npost = 1 + codec_mix(&s) % BV_MAX_POSTINGS;
    uint32_t doc = (uint32_t)(codec_mix(&s) % 1000);
    for (size_t j = 0; j < t->npost; j++) {
      t->post[j] = doc;
      doc += 1 + (uint32_t)(codec_mix(&s) % 50000);
    }
  }
  return 0;
}

void bv_terms_free(bv_terms *d) {
  free(d->t);
  free(d->text);
  d->t = NULL;
  d->text = NULL;
}
