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
/* The static descriptors of every representable node. */
void gc_cstruct_emit(const gc_model *m, gc_buf *out);

#endif
