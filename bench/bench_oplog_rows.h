/* bench/bench_oplog_rows.h — what bench_main.cc needs of the oplog rows
 * (desert-rust's benchmark: 10,000 oplog entries at payload sizes 16, 256
 * and 1024, see bench_oplog_model.h): their case tables and the host class
 * the report uses to decide whether desert-rust's own figures apply.
 * Kept free of the generated types so the C++ file needs none of them.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_BENCH_OPLOG_ROWS_H
#define DESERT_BENCH_OPLOG_ROWS_H

#include "bench_codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the oplog case tables (desert rows, then the peers compiled in)
 * to out[0..max) and returns how many it wrote. */
size_t bench_oplog_tables(codec_table *out, size_t max);

/* "sapphire-rapids" on an x86 host of CPU family 6 with AVX512-FP16 (the
 * class of host desert-rust's oplog figures were measured on), else
 * "other". The report shows those figures only for the first. */
const char *bench_oplog_host_class(void);

/* Writes the messages the oplog rows time to dir/oplog_p16.bin,
 * oplog_p256.bin and oplog_p1024.bin, for a side-by-side run of another
 * implementation on the very same bytes (desert-rust: bench/README.md,
 * "Side by side with desert-rust"). Each file: the message count, then per
 * message its length and its bytes; counts and lengths as 4-byte
 * little-endian integers. Prints one line per file; 0 on success, else -1
 * with the reason on stderr. */
int bench_oplog_dump(const char *dir);

#ifdef __cplusplus
}
#endif
#endif
