/* src/types/types_internal.h — shared internals of the types layer (every file in src/types):
 * derived data that desert_type_set_seal attaches to composite nodes, the
 * value arena, and the codec context with its path stack. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TYPES_INTERNAL_H
#define DESERT_TYPES_INTERNAL_H

#include "core/arena.h"
#include "desert/record.h"
#include "desert/types.h"
#include "base/internal.h"

struct desert_value_arena {
  desert_allocator alloc;
  desert_arena arena;
};

/* Derived data of a RECORD or TUPLE node (and of the shared map entry). */
typedef struct desert_types_record_impl {
  desert_record_desc desc;
  /* Per field: the default of the last FieldAdded step naming it, or NULL. */
  const desert_value **added_default;
  /* The description's prepared plan (in the type set's memory), or NULL
   * when desert_record_desc_check refuses the description: such records
   * keep the description-based calls, which fail the way they always did. */
  const desert_record_plan *plan;
} desert_types_record_impl;

/* Derived data of an ENUM node. */
typedef struct desert_types_enum_impl {
  desert_enum_desc desc;
  uint32_t *ids;     /* per declaration index; UINT32_MAX for transient constructors */
  uint32_t *case_of; /* per constructor id: its declaration index (the inverse of ids) */
  uint32_t id_count; /* the non-transient constructors */
} desert_types_enum_impl;

/* The 2-tuple record that every map entry is (docs/format.md §6.4); its plan
 * is record.h's static desert_tuple_plan(2), found by desert_types_plan. */
extern const desert_types_record_impl desert_types_map_entry;

static inline const desert_record_plan *desert_types_plan(const desert_types_record_impl *im) {
  if (im->plan) return im->plan;
  return im == &desert_types_map_entry ? desert_tuple_plan(2) : NULL;
}
/* Record begin through the plan when there is one. */
static inline desert_status desert_types_write_begin(desert_writer *w,
                                                     const desert_types_record_impl *im,
                                                     desert_record_writer *rw) {
  const desert_record_plan *plan = desert_types_plan(im);
  return plan ? desert_record_write_begin_plan(w, plan, rw)
              : desert_record_write_begin(w, &im->desc, rw);
}
static inline desert_status desert_types_read_begin(desert_reader *r,
                                                    const desert_types_record_impl *im,
                                                    desert_record_reader *rr) {
  const desert_record_plan *plan = desert_types_plan(im);
  return plan ? desert_record_read_begin_plan(r, plan, rr)
              : desert_record_read_begin(r, &im->desc, rr);
}

#define DESERT_TYPES_PATH_MAX       160u
#define DESERT_TYPES_DEFAULT_DEPTH  256u
#define DESERT_TYPES_DEFAULT_VALUES ((size_t)1 << 26)

/* One step of a value path: a field/key name, or an index when name is NULL. */
typedef struct desert_types_seg {
  const char *name;
  size_t index;
} desert_types_seg;

/* State of one encode or decode call. */
typedef struct desert_types_ctx {
  desert_reader *r;
  desert_writer *w;
  desert_value_arena *a;
  desert_type_error *err;
  size_t budget; /* value nodes left (decode) */
  size_t max_bigint;
  unsigned depth, max_depth;
  unsigned nseg; /* path depth (may exceed the stored segments) */
  bool captured; /* err->path already holds the failure's path */
  desert_decode_trace trace;
  void *trace_ctx;
  desert_types_seg seg[DESERT_TYPES_PATH_MAX];
} desert_types_ctx;

void desert_types_ctx_init(desert_types_ctx *c, desert_type_error *err,
                           const desert_codec_limits *limits);

static inline void desert_types_push_name(desert_types_ctx *c, const char *name) {
  if (c->nseg < DESERT_TYPES_PATH_MAX) {
    c->seg[c->nseg].name = name;
    c->seg[c->nseg].index = 0;
  }
  c->nseg++;
}
static inline void desert_types_push_index(desert_types_ctx *c, size_t i) {
  if (c->nseg < DESERT_TYPES_PATH_MAX) {
    c->seg[c->nseg].name = NULL;
    c->seg[c->nseg].index = i;
  }
  c->nseg++;
}
static inline void desert_types_pop(desert_types_ctx *c) { c->nseg--; }

/* Records the current path into err (first failure only) with a message
 * (printf-style, may be NULL). Returns st. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
desert_status
desert_types_fail(desert_types_ctx *c, desert_status st, const char *fmt, ...);

/* Renders the current path ("" = root) into buf[0..cap). */
void desert_types_path_render(const desert_types_ctx *c, char *buf, size_t cap);
/* Width in bytes of a fixed-width number kind (i8...u64, f32, f64), 0 for
 * any other kind: the bulk array paths of the codec. */
size_t desert_types_fixed_width(desert_type_kind kind);

/* Keeps the path of a failure reported by a callee (reader/writer status). */
desert_status desert_types_note(desert_types_ctx *c, desert_status st);

#endif
