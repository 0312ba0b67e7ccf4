/* test/golden_corpus/corpus_models.h — the golden/ corpus seen through the
 * hand-written API: for each file, a C struct, the value it holds written
 * out by hand from the model (golden/README.md), and a codec made of
 * C-struct descriptors (desert_cstruct) or of hand-written desert_write_* /
 * desert_read_* calls. test/test_golden_corpus_api.c runs every entry:
 * the model encodes to the file, the file decodes to a struct equal to the
 * model and re-encodes to the file. Cross entries read another version's
 * file (older readers, both ways) and compare with what that reader must
 * see.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TEST_GOLDEN_CORPUS_MODELS_H
#define DESERT_TEST_GOLDEN_CORPUS_MODELS_H

#include <stdbool.h>
#include <string.h>

#include "desert/types.h"

typedef struct golden_codec {
  const char *file;  /* golden/<file>.bin */
  const char *label; /* what is read with what, for messages */
  unsigned flags;    /* desert_options.flags of the writer and reader */
  size_t size;       /* sizeof the C struct */
  const void *model; /* what the reader must produce, written out by hand */
  /* The codec: a C-struct descriptor, or (cstruct NULL) hand-written calls. */
  const desert_cstruct *cstruct;
  desert_status (*write)(desert_writer *w, const void *obj);
  desert_status (*read)(desert_reader *r, void *obj);
  bool (*equal)(const void *a, const void *b); /* field by field */
  size_t consumed;   /* bytes the read uses; 0: the whole file */
  bool cross;        /* reads another version's bytes: no re-encoding */
} golden_codec;

/* One table per theme module. */
extern const golden_codec golden_evolution_codecs[];
extern const size_t golden_evolution_codec_count;
extern const golden_codec golden_enum_codecs[];
extern const size_t golden_enum_codec_count;
extern const golden_codec golden_option_codecs[];
extern const size_t golden_option_codec_count;
extern const golden_codec golden_collection_codecs[];
extern const size_t golden_collection_codec_count;
extern const golden_codec golden_value_codecs[];
extern const size_t golden_value_codec_count;
/* Fills the float lists of the primitives model (bit patterns and the
 * compiler's conversions of the JSON texts); call once before using
 * golden_value_codecs. */
void golden_values_init(void);

/* ---- helpers of the modules ---- */
#define GSTR(s) {(s), sizeof(s) - 1}
#define GBYTES(s) {(const uint8_t *)(s), sizeof(s) - 1}

static inline bool golden_str_eq(desert_str a, desert_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}
static inline bool golden_bytes_eq(desert_bytes a, desert_bytes b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}
#define GCOUNTOF(a) (sizeof(a) / sizeof((a)[0]))
/* A desert_clist over a static array (not const: decoding fills lists). */
#define GCLIST(a) {(a), GCOUNTOF(a)}
#define GNOLIST {NULL, 0}

/* Lists of `size`-byte C values, element by element with eq. */
bool golden_list_eq(desert_clist a, desert_clist b, size_t size,
                    bool (*eq)(const void *, const void *));
/* Lists of desert_str. */
bool golden_str_list_eq(desert_clist a, desert_clist b);

#endif /* DESERT_TEST_GOLDEN_CORPUS_MODELS_H */
