/* include/desert/kernels.h — run-time ISA dispatch information and the
 * stateless bulk primitives (big-endian arrays, varint runs, UTF-8
 * validation and transcoding) that run on the SIMD kernel chosen at run time.
 * SPDX-License-Identifier: MIT
 *
 * Every function here is thread-safe and allocation-free. Every output
 * function takes a capacity and fails with DESERT_E_DST_TOO_SMALL rather than
 * writing past it. Inputs and outputs must not overlap unless stated. */
#ifndef DESERT_KERNELS_H
#define DESERT_KERNELS_H

#include "desert/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dispatch ------------------------------------------------------------ */

/* How DESERT_FORCE_ISA was handled (read once, on first use). */
typedef enum desert_override_outcome {
  DESERT_OVERRIDE_NONE = 0,        /* variable unset, empty or "auto" */
  DESERT_OVERRIDE_APPLIED = 1,     /* the named ISA is active */
  DESERT_OVERRIDE_UNKNOWN_NAME = 2,/* not an ISA name: automatic choice used */
  DESERT_OVERRIDE_UNAVAILABLE = 3  /* not compiled in or not runnable here: automatic choice used */
} desert_override_outcome;

typedef struct desert_dispatch_info {
  desert_isa active;                /* ISA of the process default table */
  uint32_t cpu_features;            /* detected feature bits (see desert_cpu_feature_names) */
  uint32_t compiled_isas;           /* bit (1u << isa) for every table built into the library */
  uint32_t runnable_isas;           /* bit (1u << isa) for every table this CPU can run */
  unsigned active_emulated;         /* 1 when the active table is NEON through SIMDe */
  desert_override_outcome outcome;  /* what happened to DESERT_FORCE_ISA */
  char override_value[32];          /* the variable's value (truncated), "" if unset */
} desert_dispatch_info;

/* Fills *info (resolving the default table if not yet done). */
DESERT_API void desert_dispatch_info_get(desert_dispatch_info *info);
/* ISA of the process default table. */
DESERT_API desert_isa desert_active_isa(void);
/* "auto", "scalar", "avx2", "avx512", "neon"; "unknown" otherwise. */
DESERT_API const char *desert_isa_name(desert_isa isa);
/* Parses a DESERT_FORCE_ISA spelling (case-insensitive); DESERT_ISA_COUNT_ if unknown. */
DESERT_API desert_isa desert_isa_from_name(const char *name);
/* 1 if a table for isa is compiled in and this CPU can run it. */
DESERT_API int desert_isa_runnable(desert_isa isa);
/* 1 if a table for isa is compiled in (runnable or not). */
DESERT_API int desert_isa_compiled(desert_isa isa);
/* The CPU class the kernel policy chose the automatic table's slots for
 * ("intel-spr", "intel-icl", "amd-zen5", "amd-zen4", "amd-other",
 * "intel-other", "unknown"): a static string. On a CPU without the AVX-512
 * table the class is still named but every slot is the best runnable ISA's. */
DESERT_API const char *desert_cpu_class_name(void);
/* Writes the names of the detected CPU feature bits, space separated, into
 * buf (always NUL-terminated when cap > 0). Returns the length needed. */
DESERT_API size_t desert_cpu_feature_names(uint32_t features, char *buf, size_t cap);

/* ---- kernel slots -----------------------------------------------------------
 * A kernel table has one slot per bulk operation (byte swaps, varint runs,
 * UTF-8 validation and transcoding). A table may hold, in a slot, the
 * kernel of a narrower ISA where its own was not measured faster: the
 * AVX-512 table keeps the AVX2 kernel in several slots. These functions
 * tell which; they never fail, allocate nothing and are thread-safe. */

/* Number of slots (the same for every table). */
DESERT_API size_t desert_kernel_slot_count(void);
/* Name of slot i ("bswap16", "var_u32_decode", "utf8_validate", ...), a
 * static string; NULL when i >= desert_kernel_slot_count(). */
DESERT_API const char *desert_kernel_slot_name(size_t i);
/* The ISA whose kernel fills slot i of isa's table: isa itself, or the
 * narrower ISA (scalar, avx2) whose kernel the table reuses there. The
 * table need only be compiled in, not runnable here; DESERT_ISA_AUTO means
 * the process default table. DESERT_ISA_COUNT_ when that table is not
 * compiled in or i is out of range. */
DESERT_API desert_isa desert_kernel_slot_isa(desert_isa isa, size_t i);

/* ---- big-endian fixed-width arrays ---------------------------------------
 * store: host values -> big-endian bytes (dst holds n*width bytes).
 * load:  big-endian bytes -> host values. No overlap. Never fail. */
DESERT_API void desert_store_be16(void *dst, const uint16_t *src, size_t n);
DESERT_API void desert_store_be32(void *dst, const uint32_t *src, size_t n);
DESERT_API void desert_store_be64(void *dst, const uint64_t *src, size_t n);
DESERT_API void desert_load_be16(uint16_t *dst, const void *src, size_t n);
DESERT_API void desert_load_be32(uint32_t *dst, const void *src, size_t n);
DESERT_API void desert_load_be64(uint64_t *dst, const void *src, size_t n);

/* ---- varint runs (docs/format.md §3) ------------------------------------------ */
#define DESERT_VAR32_MAX_BYTES 5 /* worst case: 5 * n bytes */

/* Exact encoded size of n values. */
DESERT_API size_t desert_var_u32_size(const uint32_t *src, size_t n);
DESERT_API size_t desert_var_i32_size(const int32_t *src, size_t n);
/* Encode n values into dst[0..dst_cap); *written = bytes written.
 * DESERT_E_DST_TOO_SMALL (nothing meaningful written) if the exact size does
 * not fit. DESERT_E_ARGUMENT for NULL pointers with n > 0. */
DESERT_API desert_status desert_var_u32_encode(void *dst, size_t dst_cap, const uint32_t *src,
                                               size_t n, size_t *written);
DESERT_API desert_status desert_var_i32_encode(void *dst, size_t dst_cap, const int32_t *src,
                                               size_t n, size_t *written);
/* Decode exactly n values (strict rule). On success *consumed = bytes used;
 * on error (DESERT_E_INPUT_ENDED, DESERT_E_VARINT_TOO_LONG) *consumed = the
 * offset of the failing value. */
DESERT_API desert_status desert_var_u32_decode(const void *src, size_t src_len, uint32_t *dst,
                                               size_t n, size_t *consumed);
DESERT_API desert_status desert_var_i32_decode(const void *src, size_t src_len, int32_t *dst,
                                               size_t n, size_t *consumed);

/* ---- text ------------------------------------------------------------------
 * UTF-16 is in host byte order. On error *pos (or *error_offset) is the
 * offset, in input units, of the first invalid sequence's first unit. */
DESERT_API desert_status desert_utf8_validate(const void *s, size_t len, size_t *error_offset);
DESERT_API desert_status desert_utf16_len_from_utf8(const void *s, size_t len, size_t *out_len);
DESERT_API desert_status desert_utf8_to_utf16(const void *s, size_t len, uint16_t *dst,
                                              size_t dst_cap, size_t *written, size_t *pos);
DESERT_API desert_status desert_utf8_len_from_utf16(const uint16_t *s, size_t len,
                                                    size_t *out_len);
DESERT_API desert_status desert_utf16_to_utf8(const uint16_t *s, size_t len, void *dst,
                                              size_t dst_cap, size_t *written, size_t *pos);
DESERT_API size_t desert_utf8_len_from_latin1(const uint8_t *s, size_t len);
DESERT_API desert_status desert_latin1_to_utf8(const uint8_t *s, size_t len, void *dst,
                                               size_t dst_cap, size_t *written);
DESERT_API desert_status desert_utf8_to_latin1(const void *s, size_t len, uint8_t *dst,
                                               size_t dst_cap, size_t *written, size_t *pos);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_KERNELS_H */
