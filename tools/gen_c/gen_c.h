/* tools/gen_c/gen_c.h — internals of `desert gen-c` (tools/cli_gen_c.c): the
 * model of the C types one schema document becomes (gen_c_model.c), name
 * mangling (gen_c_names.c), canonical JSON text (gen_c_text.c) and the
 * emitters of P.h, P.c and P_testee.c (gen_c_header.c, gen_c_source.c with
 * gen_c_runtime.c, gen_c_cstruct.c and gen_c_direct.c, gen_c_testee.c).
 *
 * How generated code works. P.c embeds the schema document and loads it once
 * with the JSON layer (a desert_type graph, the same one `desert encode`,
 * `desert decode` and desert-conformance use). Each generated C type T gets
 * two conversion functions between a P_T struct and a desert_value tree;
 * P_encode_T builds the tree and runs desert_type_encode, P_decode_T runs
 * desert_type_decode and fills the struct: bytes, statuses, error offsets,
 * limits and every desert_options flag are the runtime path's, for every
 * type of docs/schema.md §2. Records and tuples that the generic C-struct
 * codec can run on the generated layout also get desert_cstruct tables with
 * prepared record plans (gen_c_cstruct.c) and, where their fields are plain
 * values, direct functions making the same reader/writer/record calls as
 * that codec (gen_c_direct.c); encode/decode take that faster path when no
 * codec limits are asked for (measured: bench rows c16_golden_*_gen against
 * the hand-written codec and the descriptor rows c16_golden_*_cstruct).
 * Every generated function is thread-safe (P_init loads once under an
 * atomic guard); P_cleanup must run alone.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TOOLS_GEN_C_H
#define DESERT_TOOLS_GEN_C_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "desert/json.h"

/* ---- growable text ---------------------------------------------------------------- */

/* Every emitter writes through one of these. A failed allocation or a
 * format vsnprintf refuses marks it failed (sticky: later writes are
 * dropped), so no text is ever cut short unnoticed: the emitters return
 * false and gen-c writes no file (tools/cli_gen_c.c). */
typedef struct gc_buf {
  char *data;
  size_t len, cap;
  bool failed;
  const char *why; /* the first failure: GC_FORMAT_FAILED, or NULL: out of memory */
} gc_buf;

#define GC_FORMAT_FAILED "a format of the generated text failed (vsnprintf)"

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void gc_printf(gc_buf *b, const char *fmt, ...);
/* gc_printf with a va_list (the caller's va_start/va_end). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
void gc_vprintf(gc_buf *b, const char *fmt, va_list ap);
void gc_put(gc_buf *b, const char *s, size_t n);
/* Appends src's text and its failure, if any (the sub-buffers of emitters). */
void gc_append(gc_buf *b, const gc_buf *src);
/* Marks b failed; why: a static message, or NULL for out of memory. */
void gc_buf_fail(gc_buf *b, const char *why);
/* A malloc'ed formatted string of exactly its length, for text emitted in
 * pieces (an lvalue, a call): on failure b is marked failed and the result
 * is a static empty string. Free with gc_fmt_free. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
char *gc_fmt(gc_buf *b, const char *fmt, ...);
void gc_fmt_free(char *s);
void gc_buf_free(gc_buf *b);
/* A malloc'ed NUL-terminated copy of the buffer's text (NULL on failure). */
char *gc_buf_take(gc_buf *b);

/* A malloc'ed copy of s (strdup is POSIX, not C11). */
char *gc_strdup(const char *s);

/* ---- names -------------------------------------------------------------------------- */

/* The mangled C identifier of a schema name (NUL-terminated UTF-8), malloc'ed:
 * bytes of [A-Za-z0-9_] are kept, any other byte becomes _xHH (its hex
 * value), a leading digit gets a '_' in front, and a C or C++ keyword gets a
 * '_' appended. NULL when out of memory. */
char *gc_mangle(const char *name);

/* A set of identifiers taken in one scope (file scope, or the members of one
 * struct). gc_scope_claim returns a malloc'ed name: `want` itself, or
 * want_2, want_3, ... when it is taken. */
typedef struct gc_scope {
  char **names;
  size_t count, cap;
} gc_scope;
char *gc_scope_claim(gc_scope *s, const char *want);
void gc_scope_free(gc_scope *s);

/* ---- the model ------------------------------------------------------------------------ */

typedef enum gc_node_kind {
  GC_STRUCT, /* a struct of its own: record, enum, tuple, list, set, map, option, either, try */
  GC_ENTRY,  /* the {key, value} struct of a map's entries (t = the map) */
  GC_ALIAS   /* a definition or the root that is another type: a typedef */
} gc_node_kind;

typedef struct gc_node gc_node;
struct gc_node {
  gc_node_kind kind;
  const desert_type *t;   /* STRUCT, ENTRY: the node; ALIAS: the type it names */
  char *name;             /* the C type name (P_...) */
  char *path;             /* JSON path of the type in the schema document */
  const char *def;        /* the definition's name, NULL when none */
  bool is_root;           /* the root type */
  gc_node *entry;         /* map: its entry node */
  /* Member names: record fields (and their has_ flags), enum cases (and
   * their tag constants), tuple elements _1, _2, ... */
  char **members;
  char **flags;
  char *tag_type;         /* enum: the tag enum's name */
  size_t scc;             /* strongly connected component (recursion) */
  int mark;               /* emission order bookkeeping */
  /* Tarjan's bookkeeping */
  size_t index, low;
  bool on_stack, visited;
  bool direct;            /* has direct functions gw_/gr_ (gen_c_direct.c) */
  const char *why;        /* when not direct: the first reason (a static string) */
};

typedef struct gc_model {
  char *prefix;
  const char *file;            /* the schema file, for messages and comments */
  char *canonical;             /* canonical JSON of the document */
  char *runtime_doc;           /* the document P.c embeds (root: a tuple of root + definitions) */
  desert_schema *schema;       /* the runtime document, loaded */
  desert_value_arena *arena;   /* JSON trees */
  gc_node **nodes;             /* every struct and alias node, in discovery order */
  size_t count, cap;
  gc_node **publics;           /* definitions (document order), then the root */
  size_t npublic;
  gc_scope global;             /* file-scope names */
  char error[600];             /* why the schema cannot be generated (messages cut
                                * at a stated precision, see fail() in gen_c_model.c) */
} gc_model;

/* Parses, checks and models one schema document. On failure returns false
 * with model->error set: "BadSchema: <message of the JSON layer>" for an
 * invalid document, else what cannot be generated and its schema path. */
bool gc_model_build(gc_model *m, const char *file, const char *text, size_t len,
                    const char *prefix);
void gc_model_free(gc_model *m);

/* The model node of a type: a STRUCT node, or the node of a definition
 * (REF), following transparent wrappers; NULL for built-ins. */
gc_node *gc_model_node_of(const gc_model *m, const desert_type *t);
/* The STRUCT node a type is, following REF, TRANSPARENT and alias
 * definitions; NULL for built-ins. */
gc_node *gc_model_struct_of(const gc_model *m, const desert_type *t);
/* True when a member of type t inside the node `owner` is held through a
 * pointer (the recursion would otherwise make the struct infinite). */
bool gc_model_is_pointer(const gc_model *m, const gc_node *owner, const desert_type *t);
/* The C type of a value of type t (a built-in's C type or a node's name). */
const char *gc_model_ctype(const gc_model *m, const desert_type *t);
/* C type of a built-in kind, NULL for composites. */
const char *gc_builtin_ctype(desert_type_kind k);
/* Skips anonymous TRANSPARENT wrappers. */
const desert_type *gc_skip_transparent(const desert_type *t);
/* True when an enum case has a member in the enum's union: not transient,
 * and a payload other than the empty record of a case without fields. */
bool gc_enum_case_has_member(const desert_type_ctor *c);
/* True for the kinds that become a struct of their own. */
bool gc_is_struct_kind(desert_type_kind k);

/* ---- text ---------------------------------------------------------------------------------- */

/* Canonical JSON of a parsed tree: compact, object members sorted by key
 * (bytewise), numbers as their exact text. */
void gc_canonical_json(gc_buf *b, const desert_json *j);
/* s[0..n) as the elements of a C array of string literals (each below 4095
 * characters), split into lines of at most ~76 columns. */
void gc_c_string(gc_buf *b, const char *s, size_t n, const char *indent);
/* The same as the elements of a C array of string literals, one per line
 * (for texts gc_join puts together again). */
void gc_c_string_array(gc_buf *b, const char *s, size_t n, const char *indent);

/* ---- emitters -------------------------------------------------------------------------------- */

bool gc_emit_header(const gc_model *m, gc_buf *out);
bool gc_emit_source(const gc_model *m, gc_buf *out);
/* P_testee.c for the models (one per schema); `name` is the file's prefix. */
bool gc_emit_testee(gc_model *const *models, size_t n, gc_buf *out);

#endif
