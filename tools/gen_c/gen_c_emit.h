/* tools/gen_c/gen_c_emit.h — helpers shared by the emitters of `desert
 * gen-c` (gen_c_header.c, gen_c_source.c, gen_c_testee.c).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_TOOLS_GEN_C_EMIT_H
#define DESERT_TOOLS_GEN_C_EMIT_H

#include "gen_c.h"

/* The <T> of P_encode_<T> for a public node: the name without "P_". */
const char *gc_public_suffix(const gc_model *m, const gc_node *n);
/* "T name" or "struct TAG *name" (a recursive member); owner NULL: by value. */
void gc_member_decl(const gc_model *m, gc_buf *b, const gc_node *owner, const desert_type *t,
                    const char *name);
/* The static helpers generated code uses, for the built-in kinds in `used`
 * (indexed by desert_type_kind). */
void gc_emit_runtime(gc_buf *b, const bool *used);

/* Marks (in gc_node.mark) the records, tuples, enums and map entries the
 * C-struct codec cannot run with the generated layout (gen_c_cstruct.c). */
void gc_cstruct_analyse(const gc_model *m);
/* After gc_cstruct_analyse: n is a record or tuple with a descriptor cs_<name>. */
bool gc_cstruct_has(const gc_model *m, const gc_node *n);
/* The descriptors of every representable node, the static storage of
 * their record plans and gc_prepare_plans(), which builds the plans into
 * the descriptors (called once by P_init). */
void gc_cstruct_emit(const gc_model *m, gc_buf *out);
/* Field `index` of the record n has a default that is not all-zero, which
 * its callback cs_d_<name> assigns (SIZE_MAX: any field, i.e. whether the
 * callback exists). */
bool gc_cstruct_has_default(const gc_node *n, size_t index);

/* The default of record field f (transient, or FieldAdded for older data)
 * is all-zero or a constant the generated defaults callback can assign. */
bool gc_cstruct_defaults_ok(const desert_type *rec, const desert_type_field *f);

/* Sets gc_node.direct on the records, tuples, map entries and enums that
 * get direct functions gw_<name> / gr_<name> (gen_c_direct.c). Runs before
 * gc_cstruct_emit, which emits the record descriptions they use. */
void gc_direct_analyse(const gc_model *m);
/* Public node n gets gpw_<i> / gpr_<i> (its whole value on the direct path). */
bool gc_direct_public(const gc_model *m, const gc_node *n);
/* Field i of the direct record n has a default the constant callback
 * cs_d_<T> cannot assign: the direct code converts the runtime's default
 * value (gd_d_<T>, emitted by gen_c_source.c). */
bool gc_direct_runtime_default(const gc_node *n, size_t i);
bool gc_direct_needs_runtime_defaults(const gc_node *n);
/* NULL when gc_direct_public(m, n), else why not (a static string). */
const char *gc_direct_why(const gc_model *m, const gc_node *n);
/* The direct functions (after the descriptors, which they use). */
void gc_direct_emit(const gc_model *m, gc_buf *out);

#endif
