/* tools/cli_annotate.c — `desert decode --annotate`: a hex dump in which
 * every byte range is labelled with the path of the value it belongs to
 * (structure bytes — version bytes, headers, counts, tags — with the path
 * of the enclosing value and its kind). The input goes through a streaming
 * reader and a source that keeps only the bytes not yet printed. Lists,
 * sets and plain records (no evolution steps, version 0 on the wire) are
 * walked part by part — a collection element by element, marking after
 * each, a record field by field — wherever they sit, so a record holding
 * large collections streams as a root collection does and memory does not
 * grow with the input. Any other value is one unit, decoded with a trace
 * (its labels are known only when it is complete).
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_schema.h"
#include "desert/stream.h"

/* ---- a source that keeps the bytes not printed yet ------------------------------------ */

typedef struct tee {
  FILE *f; /* the input file, or NULL: mem[0..mem_len) */
  const uint8_t *mem;
  size_t mem_len, mem_pos;
  uint8_t *buf; /* stream bytes [base, base + len) */
  size_t base, len, cap;
  bool nomem, io_failed;
  int err; /* errno of a failed read */
} tee;

static ptrdiff_t tee_read(void *ctx, void *out, size_t cap) {
  tee *t = ctx;
  size_t got;
  if (t->f) {
    errno = 0;
    got = fread(out, 1, cap, t->f);
    if (!got && ferror(t->f)) {
      t->err = errno;
      t->io_failed = true;
      return -1;
    }
  } else {
    got = t->mem_len - t->mem_pos < cap ? t->mem_len - t->mem_pos : cap;
    memcpy(out, t->mem + t->mem_pos, got);
    t->mem_pos += got;
  }
  if (!got) return 0;
  if (t->cap - t->len < got) {
    size_t ncap = t->cap ? t->cap : 1 << 16;
    while (ncap - t->len < got) ncap *= 2;
    uint8_t *nb = realloc(t->buf, ncap);
    if (!nb) {
      t->nomem = true;
      return -1;
    }
    t->buf = nb;
    t->cap = ncap;
  }
  memcpy(t->buf + t->len, out, got);
  t->len += got;
  return (ptrdiff_t)got;
}

/* Forgets the bytes before stream offset `upto` (all printed). Moves the
 * rest only when at least half is dead: one copy per byte at most. */
static void tee_drop(tee *t, size_t upto) {
  size_t dead = upto - t->base;
  if (dead == 0 || dead < t->len / 2) return;
  memmove(t->buf, t->buf + dead, t->len - dead);
  t->len -= dead;
  t->base = upto;
}

/* The input's length: the bytes delivered so far plus the rest. */
static size_t tee_total(tee *t) {
  size_t n = t->base + t->len;
  if (t->f) {
    char tmp[1 << 14];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, t->f)) > 0) n += k;
  } else {
    n += t->mem_len - t->mem_pos;
  }
  return n;
}

/* ---- labelled spans of one unit --------------------------------------------------------- */

typedef struct span {
  size_t start, end;
  size_t label; /* offset in the unit's label pool */
} span;

typedef struct unit {
  span *v;
  size_t n, cap;
  char *pool;
  size_t pool_len, pool_cap;
  size_t element;     /* root element of the unit, SIZE_MAX: the whole value */
  const char *prefix; /* or (not NULL) the unit's path from the root, without "$" */
  size_t *owner;
  size_t owner_cap;
  bool failed;
} unit;

/* A path below prefix ("users[3]" and "tags[0]" make "users[3].tags[0]"),
 * both without the leading "$". */
static void join_path(char *out, size_t cap, const char *prefix, const char *path) {
  const char *sep = !prefix[0] || !path[0] || path[0] == '[' ? "" : ".";
  /* a path too long for out is cut (labels and messages only) */
  if (snprintf(out, cap, "%s%s%s", prefix, sep, path) < 0 && cap) out[0] = '\0';
}

/* Adds "PATH (kind)" for a leaf, "PATH [kind structure]" otherwise. */
static size_t pool_add(unit *u, bool leaf, const char *path, const char *kind) {
  size_t need = strlen(path) + strlen(kind) + 32;
  if (u->pool_cap - u->pool_len < need) {
    size_t ncap = u->pool_cap ? u->pool_cap * 2 : 4096;
    while (ncap - u->pool_len < need) ncap *= 2;
    char *np = realloc(u->pool, ncap);
    if (!np) {
      u->failed = true;
      return SIZE_MAX;
    }
    u->pool = np;
    u->pool_cap = ncap;
  }
  size_t at = u->pool_len;
  int k = leaf ? snprintf(u->pool + at, need, "%s (%s)", path, kind)
               : snprintf(u->pool + at, need, "%s [%s structure]", path, kind);
  u->pool_len += (size_t)k + 1;
  return at;
}

static void on_value(void *ctx, size_t start, size_t end, const char *path, desert_type_kind kind,
                     bool leaf) {
  unit *u = ctx;
  if (u->failed || end <= start) return;
  if (u->n == u->cap) {
    size_t ncap = u->cap ? u->cap * 2 : 256;
    span *nv = realloc(u->v, ncap * sizeof *nv);
    if (!nv) {
      u->failed = true;
      return;
    }
    u->v = nv;
    u->cap = ncap;
  }
  char jp[512];
  if (u->prefix) {
    char rel[512];
    join_path(rel, sizeof rel, u->prefix, path);
    cli_value_path(jp, sizeof jp, SIZE_MAX, rel);
  } else {
    cli_value_path(jp, sizeof jp, u->element, path);
  }
  size_t at = pool_add(u, leaf, jp, desert_type_kind_name(kind));
  if (at == SIZE_MAX) return;
  u->v[u->n].start = start;
  u->v[u->n].end = end;
  u->v[u->n].label = at;
  u->n++;
}

/* Lines of "%08zx  %-48s %s\n": offset, up to 16 bytes in hex, and the
 * label on the run's first line ("  ..." after it). Formatted by hand:
 * a dump has a line per value, and printf dominated its time. */
static void print_run(const tee *t, size_t from, size_t to, const char *label) {
  static const char digits[] = "0123456789abcdef";
  size_t label_len = strlen(label);
  for (size_t line = from; line < to; line += 16) {
    size_t stop = line + 16 < to ? line + 16 : to;
    char head[8 + 2 + 48 + 1 + 1];
    char off[32];
    int ol = snprintf(off, sizeof off, "%08zx", line);
    size_t k = 0;
    if (ol == 8) {
      memcpy(head, off, 8);
      k = 8;
    } else {
      fputs(off, stdout); /* offsets past 4 GiB: more digits */
    }
    head[k++] = ' ';
    head[k++] = ' ';
    size_t hex_at = k;
    for (size_t i = line; i < stop; i++) {
      uint8_t b = t->buf[i - t->base];
      head[k++] = digits[b >> 4];
      head[k++] = digits[b & 15];
      head[k++] = ' ';
    }
    while (k < hex_at + 48) head[k++] = ' ';
    head[k++] = ' ';
    fwrite(head, 1, k, stdout);
    if (line == from)
      fwrite(label, 1, label_len, stdout);
    else
      fputs("  ...", stdout);
    putchar('\n');
  }
}

/* Prints stream bytes [from, to) of a unit: each byte belongs to the
 * innermost value containing it (values finish inner-first, so the first
 * span in completion order that contains a byte is its owner); bytes of no
 * span are the enclosing value's structure, `outer`. */
static bool print_unit(unit *u, const tee *t, size_t from, size_t to, const char *outer) {
  size_t n = to - from;
  if (n == 0) return true;
  if (u->owner_cap < n) {
    size_t *no = realloc(u->owner, n * sizeof *no);
    if (!no) return false;
    u->owner = no;
    u->owner_cap = n;
  }
  size_t *owner = u->owner;
  for (size_t i = 0; i < n; i++) owner[i] = SIZE_MAX;
  for (size_t k = 0; k < u->n; k++)
    for (size_t i = u->v[k].start; i < u->v[k].end && i < to; i++)
      if (i >= from && owner[i - from] == SIZE_MAX) owner[i - from] = k;
  size_t i = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && owner[j] == owner[i]) j++;
    print_run(t, from + i, from + j, owner[i] == SIZE_MAX ? outer : u->pool + u->v[owner[i]].label);
    i = j;
  }
  return true;
}

static void unit_clear(unit *u, size_t element) {
  u->n = 0;
  u->pool_len = 0;
  u->element = element;
  u->prefix = NULL;
}

/* ---- the dump ----------------------------------------------------------------------------- */

typedef struct annot {
  const cli_schema_args *a;
  const char *file;
  desert_reader *r;
  tee t;
  unit u;
  size_t printed; /* stream bytes before this are printed */
  desert_codec_limits lim;
  const desert_options *o;
  const desert_type *root; /* the schema's root type */
} annot;

/* The error line of the dump and the message on standard error. */
static int fail_at(annot *an, const desert_type *root, size_t element,
                   const desert_type_error *terr, desert_status st) {
  char path[300], why[300];
  cli_value_path(path, sizeof path, element, terr->path);
  cli_limit_why(why, sizeof why, st, terr, &an->lim, an->o);
  printf("%08zx  error: %s at %s: %s\n", terr->offset, desert_status_kind(st), path, why);
  if (st == DESERT_E_READ_INPUT) {
    cli_io_error("decode", an->t.err, "cannot read '%s'", an->file);
    return CLI_EXIT_IO;
  }
  if (st == DESERT_E_NOMEM || an->t.nomem) {
    cli_error("decode", "out of memory annotating '%s'", an->file);
    return CLI_EXIT_NOMEM;
  }
  cli_report_decode_error(an->file, root, element, terr, st, tee_total(&an->t), &an->lim, an->o);
  return CLI_EXIT_FAILURE;
}

/* The failure of a value at path prefix: its path from the root. */
static int fail_below(annot *an, const char *prefix, const desert_type_error *terr,
                      desert_status st) {
  desert_type_error full = *terr;
  join_path(full.path, sizeof full.path, prefix, terr->path);
  return fail_at(an, an->root, SIZE_MAX, &full, st);
}

/* Decodes one value of type t at path prefix as one unit and prints it. */
static int annotate_unit(annot *an, const desert_type *t, const char *prefix,
                         desert_value_arena *va) {
  desert_type_error terr;
  memset(&terr, 0, sizeof terr);
  desert_value *v = NULL;
  size_t from = desert_reader_offset(an->r);
  unit_clear(&an->u, SIZE_MAX);
  an->u.prefix = prefix;
  desert_status st = desert_type_decode_traced(an->r, t, va, &an->lim, on_value, &an->u, &v, &terr);
  size_t to = st ? terr.offset : desert_reader_offset(an->r);
  if (to < from) to = from;
  if (an->u.failed || !print_unit(&an->u, &an->t, from, to, "(structure)")) {
    cli_error("decode", "out of memory annotating '%s'", an->file);
    return CLI_EXIT_NOMEM;
  }
  an->printed = to;
  desert_value_arena_reset(va);
  if (st) return fail_below(an, prefix, &terr, st);
  return CLI_EXIT_OK;
}

/* Prints the bytes read since the last print as structure of the value
 * labelled outer. */
static void print_structure(annot *an, const char *outer) {
  size_t at = desert_reader_offset(an->r);
  unit_clear(&an->u, SIZE_MAX);
  print_unit(&an->u, &an->t, an->printed, at, outer);
  an->printed = at;
}

/* "$.a.b [kind structure]" for the value at path prefix. */
static void structure_label(char *out, size_t cap, const char *prefix, desert_type_kind kind) {
  char path[512];
  cli_value_path(path, sizeof path, SIZE_MAX, prefix);
  snprintf(out, cap, "%s [%s structure]", path, desert_type_kind_name(kind));
}

/* Levels of records and collections walked part by part; deeper values
 * are units. */
#define ANNOTATE_WALK_DEPTH 32u

static int annotate_node(annot *an, const desert_type *type, const char *prefix, unsigned depth,
                         desert_value_arena *va);

/* A reader failure outside any part (a collection's count or markers, a
 * record's version byte, an option tag): the bytes before it, then the
 * error at the value's path. */
static int part_failure(annot *an, const char *prefix, const char *outer) {
  desert_type_error terr;
  memset(&terr, 0, sizeof terr);
  desert_status st = desert_reader_status(an->r);
  terr.offset = desert_reader_error_offset(an->r);
  terr.has_offset = true;
  if (terr.offset > an->printed) {
    unit_clear(&an->u, SIZE_MAX);
    print_unit(&an->u, &an->t, an->printed, terr.offset, outer);
    an->printed = terr.offset;
  }
  return fail_below(an, prefix, &terr, st);
}

/* A list or set element by element: each element is printed, its memory
 * released (desert_reader_mark: no record is open, since records are
 * walked by their bytes, never entered) and the window let go of it, so
 * memory does not grow with the collection. */
static int annotate_collection(annot *an, const desert_type *t, const char *prefix, unsigned depth,
                               desert_value_arena *va) {
  char outer[600];
  structure_label(outer, sizeof outer, prefix, t->kind);
  desert_seq seq = {false, 0, 0, 0};
  if (desert_read_seq_begin(an->r, &seq)) return part_failure(an, prefix, outer);
  char ep[512];
  while (desert_read_seq_next(an->r, &seq)) {
    /* Every element is at least one value node: the values limit bounds
     * the elements too (the count itself was checked by the reader). */
    if (seq.index > an->lim.max_values) {
      desert_type_error terr;
      memset(&terr, 0, sizeof terr);
      terr.offset = desert_reader_offset(an->r);
      snprintf(terr.message, sizeof terr.message, "more than the allowed number of values");
      return fail_below(an, prefix, &terr, DESERT_E_LIMIT);
    }
    /* The collection's structure before the element (count, item marker). */
    print_structure(an, outer);
    snprintf(ep, sizeof ep, "%s[%zu]", prefix, seq.index - 1);
    int rc = annotate_node(an, t->u.coll.element, ep, depth + 1, va);
    if (rc) return rc;
    desert_reader_mark(an->r);
    tee_drop(&an->t, an->printed);
  }
  if (desert_reader_status(an->r)) return part_failure(an, prefix, outer);
  if (seq.index == 0 && t->u.coll.non_empty) {
    desert_type_error terr;
    memset(&terr, 0, sizeof terr);
    snprintf(terr.message, sizeof terr.message,
             "the collection is non-empty by its schema but has no element");
    terr.offset = an->printed;
    return fail_below(an, prefix, &terr, DESERT_E_DESERIALIZATION);
  }
  print_structure(an, outer);
  return CLI_EXIT_OK;
}

/* A record of version 0 on the wire (docs/format.md §9: the version byte,
 * then each field that is not transient in declaration order, an optional
 * one as its option tag and value), field by field. */
static int annotate_record(annot *an, const desert_type *t, const char *prefix, unsigned depth,
                           desert_value_arena *va) {
  char outer[600], fp[512];
  structure_label(outer, sizeof outer, prefix, t->kind);
  uint8_t version;
  if (desert_read_u8(an->r, &version)) return part_failure(an, prefix, outer);
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if (f->flags & DESERT_FIELD_TRANSIENT) continue;
    print_structure(an, outer);
    join_path(fp, sizeof fp, prefix, f->name);
    if (f->flags & DESERT_FIELD_OPTIONAL) {
      /* the tag is the record's structure, as in a record decoded whole */
      bool some = false;
      if (desert_read_option(an->r, &some)) return part_failure(an, fp, outer);
      print_structure(an, outer);
      if (!some) continue;
    }
    int rc = annotate_node(an, f->type, fp, depth + 1, va);
    if (rc) return rc;
  }
  print_structure(an, outer);
  return CLI_EXIT_OK;
}

/* The value of type t at path prefix: collections and plain records (no
 * evolution steps, version 0 on the wire) part by part, anything else as
 * one unit. */
static int annotate_node(annot *an, const desert_type *type, const char *prefix, unsigned depth,
                         desert_value_arena *va) {
  const desert_type *t = desert_type_resolve(type);
  if (t && depth < ANNOTATE_WALK_DEPTH && depth < an->lim.max_depth) {
    if (t->kind == DESERT_TYPE_SET || (t->kind == DESERT_TYPE_LIST && !t->u.coll.has_length))
      return annotate_collection(an, t, prefix, depth, va);
    /* The version byte is looked at in the tee's copy, not read: any other
     * version leaves the record to the unit path. */
    if (t->kind == DESERT_TYPE_RECORD && t->u.record.step_count == 0 &&
        desert_reader_ensure(an->r, 1) && an->t.buf[desert_reader_offset(an->r) - an->t.base] == 0)
      return annotate_record(an, t, prefix, depth, va);
  }
  return annotate_unit(an, type, prefix, va);
}

int cli_annotate(const cli_schema_args *a, const desert_schema *s, const desert_options *o,
                 const uint8_t *data, size_t len) {
  annot an;
  memset(&an, 0, sizeof an);
  an.a = a;
  an.o = o;
  an.file = strcmp(a->input, "-") == 0 ? "standard input" : a->input;
  if (data) {
    an.t.mem = data;
    an.t.mem_len = len;
  } else if (strcmp(a->input, "-") == 0) {
    an.t.f = stdin;
  } else {
    errno = 0;
    an.t.f = fopen(a->input, "rb");
    if (!an.t.f) {
      cli_io_error("decode", errno, "cannot open '%s'", a->input);
      return CLI_EXIT_IO;
    }
  }
  int rc = cli_schema_redirect_stdout("decode", a->output);
  desert_value_arena *va = NULL;
  if (!rc && (desert_reader_create(o, &an.r) || desert_value_arena_create(NULL, &va)))
    rc = CLI_EXIT_NOMEM;
  desert_source src = {tee_read, &an.t};
  if (!rc && desert_reader_begin_stream(an.r, src, 0)) rc = CLI_EXIT_NOMEM;
  /* A value that is not a root element is held whole: no high-water mark
   * beyond the reader's own limits. */
  if (!rc) desert_reader_set_max_window(an.r, SIZE_MAX);
  /* The values limit counts the whole input, as a whole-value decode does;
   * a file's size is known up front, standard input's is not. */
  size_t in_len = len;
  if (!data && an.t.f != stdin && fseek(an.t.f, 0, SEEK_END) == 0) {
    long n = ftell(an.t.f);
    in_len = n > 0 ? (size_t)n : 0;
    rewind(an.t.f);
  } else if (!data) {
    in_len = SIZE_MAX / 32;
  }
  cli_schema_limits(a, in_len, &an.lim);
  an.root = s->root;
  if (!rc) rc = annotate_node(&an, s->root, "", 0, va);
  if (!rc && !desert_reader_at_end(an.r)) {
    if (desert_reader_status(an.r) == DESERT_E_READ_INPUT) {
      cli_io_error("decode", an.t.err, "cannot read '%s'", an.file);
      rc = CLI_EXIT_IO;
    } else {
      size_t total = tee_total(&an.t);
      printf("%08zx  %zu trailing bytes not used by the value\n", an.printed, total - an.printed);
      rc = cli_check_trailing(an.file, an.printed, total, a->allow_trailing);
    }
  }
  if (an.t.f && an.t.f != stdin) fclose(an.t.f);
  desert_reader_free(an.r);
  desert_value_arena_free(va);
  free(an.t.buf);
  free(an.u.v);
  free(an.u.pool);
  free(an.u.owner);
  return rc;
}
