/* tools/gen_c/gen_c_names.c — C identifiers for schema names: the mangling
 * rule documented in `desert gen-c --help` and README (bytes outside
 * [A-Za-z0-9_] become _xHH, a leading digit gets '_', C and C++ keywords get
 * a trailing '_') and name scopes that resolve the remaining clashes by
 * appending _2, _3, ... in schema order, so names are stable for a document.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_c.h"

/* C11 and C++ keywords (the header is also compiled as C++), plus names the
 * generated code itself uses for members of every struct. */
static const char *const keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class", "co_await",
    "co_return", "co_yield", "compl", "concept", "const", "const_cast", "consteval",
    "constexpr", "constinit", "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
    "_Noreturn", "_Static_assert", "_Thread_local", "NULL"};

char *gc_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static bool is_ident_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char *gc_mangle(const char *name) {
  size_t n = strlen(name);
  char *out = malloc(4 * n + 3);
  if (!out) return NULL;
  size_t k = 0;
  if (name[0] >= '0' && name[0] <= '9') out[k++] = '_';
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    if (is_ident_byte(c)) {
      out[k++] = (char)c;
    } else {
      k += (size_t)snprintf(out + k, 5, "_x%02x", c); /* 4 bytes and the NUL: out has 4n + 3 */
    }
  }
  out[k] = '\0';
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
    if (strcmp(out, keywords[i]) == 0) {
      out[k++] = '_';
      out[k] = '\0';
      break;
    }
  }
  return out;
}

static bool taken(const gc_scope *s, const char *name) {
  for (size_t i = 0; i < s->count; i++)
    if (strcmp(s->names[i], name) == 0) return true;
  return false;
}

char *gc_scope_claim(gc_scope *s, const char *want) {
  size_t n = strlen(want);
  char *name = malloc(n + 24);
  if (!name) return NULL;
  memcpy(name, want, n + 1);
  /* "_<unsigned>" is at most 12 bytes with the NUL: name has n + 24 */
  for (unsigned k = 2; taken(s, name); k++) snprintf(name + n, 24, "_%u", k);
  if (s->count == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 32;
    char **nn = realloc(s->names, cap * sizeof *nn);
    if (!nn) {
      free(name);
      return NULL;
    }
    s->names = nn;
    s->cap = cap;
  }
  s->names[s->count] = gc_strdup(name);
  if (!s->names[s->count]) {
    free(name);
    return NULL;
  }
  s->count++;
  return name;
}

void gc_scope_free(gc_scope *s) {
  for (size_t i = 0; i < s->count; i++) free(s->names[i]);
  free(s->names);
  memset(s, 0, sizeof *s);
}
