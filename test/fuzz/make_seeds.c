/* test/fuzz/make_seeds.c — writes the seed inputs of test/fuzz/corpus/
 * (seed-* files) from the examples of docs/format.md / docs/schema.md and small
 * values written through the library, in each harness's input layout.
 * SPDX-License-Identifier: MIT
 *
 *   make_seeds <corpus dir>      (built as desert_fuzz_make_seeds)
 *
 * Run it again after changing a harness's input layout; it overwrites the
 * seed-* files and never touches regress-* files or fuzzer-found inputs.
 * Nothing here is derived from the golden dataset (that file is desert-
 * scala's and is never copied into the repository). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "desert.h"
#include "golden_model.h"

static const char *root;
static int failures;

static void save(const char *target, const char *name, const uint8_t *p, size_t n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, target);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/%s/seed-%s", root, target, name);
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
    fprintf(stderr, "make_seeds: cannot write %s: %s\n", path, strerror(errno));
    failures++;
  }
}

/* Hex with spaces and '|' allowed. */
static size_t hex(const char *h, uint8_t *out, size_t cap) {
  size_t n = 0;
  int hi = -1;
  for (; *h; h++) {
    int v;
    if (*h >= '0' && *h <= '9') v = *h - '0';
    else if (*h >= 'a' && *h <= 'f') v = *h - 'a' + 10;
    else if (*h >= 'A' && *h <= 'F') v = *h - 'A' + 10;
    else continue;
    if (hi < 0) {
      hi = v;
    } else {
      if (n == cap) abort();
      out[n++] = (uint8_t)(hi << 4 | v);
      hi = -1;
    }
  }
  return n;
}

static void save_hex(const char *target, const char *name, const char *h) {
  uint8_t b[4096];
  size_t n = hex(h, b, sizeof b);
  save(target, name, b, n);
}

/* A writer whose bytes are appended after a prefix. */
static desert_writer *wr(unsigned flags) {
  desert_options o;
  desert_options_init(&o);
  o.flags = flags;
  desert_writer *w = NULL;
  if (desert_writer_create(&o, &w)) abort();
  return w;
}

static void save_writer(const char *target, const char *name, const uint8_t *prefix, size_t pn,
                        desert_writer *w) {
  if (desert_writer_status(w)) {
    fprintf(stderr, "make_seeds: %s/%s: %s\n", target, name,
            desert_status_name(desert_writer_status(w)));
    failures++;
    return;
  }
  size_t n;
  const uint8_t *p = desert_writer_data(w, &n);
  uint8_t *b = malloc(pn + n + 1);
  if (!b) abort();
  if (pn) memcpy(b, prefix, pn);
  memcpy(b + pn, p, n);
  save(target, name, b, pn + n);
  free(b);
}

/* ---- fuzz_values: flags, program length, program, data ---------------------------- */

static void values_seed(const char *name, uint8_t flags, const char *prog_hex,
                        const char *data_hex) {
  uint8_t b[4096];
  size_t pl = hex(prog_hex, b + 2, 255);
  b[0] = flags;
  b[1] = (uint8_t)pl;
  size_t dl = hex(data_hex, b + 2 + pl, sizeof b - 2 - pl);
  save("values", name, b, 2 + pl + dl);
}

static void seeds_values(void) {
  /* Op numbers of fuzz_values.c: u8 00 .. alloc 2d. */
  values_seed("fixed", 0, "00 01 02 03 04 05 06 07 08 09 0a 0d",
              "ff 80 12 34 fe dc 00 00 00 2a ff ff ff fe 01 02 03 04 05 06 07 08"
              " 80 00 00 00 00 00 00 01 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"
              " 3d cc cc cd 3f b9 99 99 99 99 99 9a 01");
  values_seed("varint-edges", 0, "0f 0f 0f 0f 10 10", "00 7f 80 01 ff ff ff ff 0f 01 02");
  values_seed("varint-too-long", 0, "0f", "80 80 80 80 80 01");
  values_seed("varint-lenient", 8, "0f 0f", "ff ff ff ff ff 05");
  values_seed("string-hello", 0, "13 13 13", "0a 68 65 6c 6c 6f 00 04 c3 a9");
  values_seed("string-invalid-lenient", 2, "13", "06 ff c3 28");
  values_seed("dedup-spec", 0, "14 14 14 14",
              "08 73 61 6d 65 0a 6f 74 68 65 72 01 03"); /* docs/format.md §5.2 */
  values_seed("bytes", 0, "15 15", "03 01 02 03 00");
  values_seed("seq-known", 0, "16 01 00", "06 01 02 03");
  values_seed("seq-unknown", 0, "16 01 13", "01 01 02 68 69 01 00 00");
  values_seed("arrays", 0, "17 02 19 01 1b 01 1f 03", "00 01 00 02 00 00 00 03"
              " 00 00 00 00 00 00 00 04 01 80 01 ff ff ff ff 0f");
  values_seed("option-either-try", 0, "21 01 05 21 01 05 22 01 13 01 0d 23 01 00",
              "01 00 00 00 2a 00 00 0a 68 65 6c 6c 6f 01 07");
  values_seed("uuid", 0, "24", "d9 0c 42 85 54 4d 42 4d 88 5c 39 40 fe 00 88 3d");
  /* docs/format.md §16.1 */
  values_seed("compressed-raw", 0, "25", "11 09 cb 48 cd c9 c9 57 40 22 01");
  values_seed("compressed-raw-empty", 0, "25", "00 02 03 00");
  values_seed("compressed-zlib-empty", 0, "26", "00");
  values_seed("refs", 0, "28 01 00 28 01 00 28 01 00", "00 2a 01 00 07");
  values_seed("type-id-registry", 0, "29 2a 03 01 02 05", "05 02");
  values_seed("nest", 0x10, "2b 06 2b 04 2b 02 2b 00", "");
  values_seed("seq-bulk", 0, "2c", "04 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 02");
  values_seed("char", 0, "11 11 12", "41 ff ff 03 d8 3d");
  values_seed("char-scala", 1, "11 11", "00 41 d8 3d");
  values_seed("limits", 0x10, "13 16 00", "40 61");

  /* zlib and zstd blocks written by the library. */
  static const char text[] = "hello hello hello hello";
  uint8_t pre[4] = {0, 1, 0x26, 0};
  desert_writer *w = wr(0);
  desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, 1, text, sizeof text - 1);
  save_writer("values", "compressed-zlib", pre, 3, w);
  desert_writer_reset(w);
  pre[2] = 0x27;
  desert_write_compressed_zstd(w, 3, text, sizeof text - 1);
  save_writer("values", "compressed-zstd", pre, 3, w);
  desert_writer_free(w);
}

/* ---- fuzz_strings: flags, data, selector (last 1/8 of the input) -------------------- */

static void strings_seed(const char *name, uint8_t flags, const char *data_hex, uint8_t kind) {
  uint8_t b[512];
  size_t dl = hex(data_hex, b + 1, 400);
  size_t total = 1 + dl;
  /* Selector length = (size - 1) / 8 + 1 with size = total + sel. */
  size_t sel = 1;
  while ((total + sel - 1) / 8 + 1 != sel) sel++;
  b[0] = flags;
  memset(b + total, kind, sel);
  save("strings", name, b, total + sel);
}

static void seeds_strings(void) {
  strings_seed("plain", 0, "0a 68 65 6c 6c 6f 00 04 c3 a9", 0);
  strings_seed("dedup-spec", 0, "08 73 61 6d 65 0a 6f 74 68 65 72 01 03", 3);
  strings_seed("dedup-bad-id", 0, "08 73 61 6d 65 03", 3);
  strings_seed("dedup-min-id", 0, "ff ff ff ff 0f", 3);
  strings_seed("negative-length", 0, "01", 0);
  strings_seed("cut-short", 0, "0a 68 65", 0);
  strings_seed("invalid-utf8", 0, "08 ed a0 80 41", 0);
  strings_seed("lenient-utf8", 2, "0c f0 9f 98 ff c2 41", 3);
  strings_seed("chars", 0, "41 ff ff 03 80 80 c4 00", 6);
  strings_seed("char16", 0, "d8 3d de 00", 7);
  strings_seed("scala-chars", 1, "00 41 d8 00", 6);
  strings_seed("limit", 0x10, "40 61", 0);
}

/* ---- fuzz_temporal: flags, (kind, value)* ---------------------------------------- */

static void seeds_temporal(void) {
  save_hex("temporal", "spec-examples",
           "00"
           " 0a e8 0f 06 16"             /* local_date 2024-06-22 (docs/format.md §14) */
           " 0b 09 1e 05 7d"             /* local_time 09:30:05.000000125 */
           " 09 00 a0 38"                /* zone_id +01:00 */
           " 00 00 00 00 00 00 00 00 03 00 00 00 07" /* duration 3 s + 7 ns */
           " 12 04 49 96 02 d2"          /* bigint 1234567890 */
           " 12 02 ff 7f"                /* bigint -129 */
           " 16 00 0a 01 02 03"          /* ip 10.1.2.3 */
           " 02 07 03 0c");              /* day_of_week 7, month 12 */
  save_hex("temporal", "bad-values",
           "00 0a e8 0f 02 1e"); /* 2024-02-30 */
  save_hex("temporal", "carry-nanos", "00 00 7f ff ff ff ff ff ff ff 3b 9a ca 00");
  save_hex("temporal", "bigdecimal", "00 14 0a 31 2e 35 45 2b 33 14 02 2e");

  desert_writer *w = wr(0);
  desert_local_date_time ldt = {{2024, 2, 29}, {23, 59, 59, 999999999}};
  desert_write_u8(w, 12);
  desert_write_local_date_time(w, ldt);
  desert_zoned_date_time z = {ldt, 3600, {true, 0, {"Europe/Budapest", 15}}};
  desert_write_u8(w, 15);
  desert_write_zoned_date_time(w, &z);
  desert_offset_date_time odt = {ldt, -86399};
  desert_write_u8(w, 16);
  desert_write_rust_datetime_fixed_offset(w, odt);
  desert_write_u8(w, 17);
  desert_str tz = {"UTC", 3};
  desert_write_rust_datetime_tz(w, ldt, tz);
  desert_write_u8(w, 6);
  desert_year_month ym = {-5, 1};
  desert_write_year_month(w, ym);
  desert_write_u8(w, 7);
  desert_period per = {1, -2, 3};
  desert_write_period(w, per);
  desert_write_u8(w, 21);
  static const uint8_t unscaled[] = {0x30, 0x39};
  desert_write_bigdecimal_binary(w, 2, unscaled, 2);
  desert_write_u8(w, 24);
  desert_write_url(w, "https://example.com/", 20);
  desert_write_u8(w, 23);
  static const uint8_t mac[6] = {1, 2, 3, 4, 5, 6};
  desert_write_mac_address(w, mac);
  desert_write_u8(w, 5);
  desert_month_day md = {2, 29};
  desert_write_month_day(w, md);
  uint8_t flags = 0;
  save_writer("temporal", "written", &flags, 1, w);
  desert_writer_free(w);
}

/* ---- fuzz_golden: one message ----------------------------------------------------- */

static void seeds_golden(void) {
  golden_stack_frame frames[2] = {
      {0, true, true, true, {"A", 1}, {"run", 3}, {"A.scala", 7}, 10},
      {0, false, true, false, {NULL, 0}, {"x", 1}, {NULL, 0}, 0xffffffffu}};
  golden_throwable cause = {{"java.lang.Error", 15}, {"inner", 5}, NULL, 0, NULL};
  golden_throwable ex = {{"java.lang.RuntimeException", 26}, {"boom", 4}, frames, 2, &cause};
  golden_element1 l1[2] = {{{"a", 1}}, {{"b", 1}}};
  int64_t arr[3] = {1, -2, 3};
  desert_str set[2] = {{"x", 1}, {"y", 1}};
  golden_map_entry entries[2];
  memset(entries, 0, sizeof entries);
  entries[0].key = (desert_str){"k1", 2};
  entries[0].value.kind = GOLDEN_FIRST;
  entries[0].value.first.id = (desert_str){"f", 1};
  entries[1].key = (desert_str){"k2", 2};
  entries[1].value.kind = GOLDEN_SECOND;
  entries[1].value.has_desc = true;
  entries[1].value.desc = (desert_str){"desc", 4};
  memset(entries[1].value.uuid, 0x11, 16);

  golden_model m;
  memset(&m, 0, sizeof m);
  m.byte_ = -1;
  m.short_ = 300;
  m.int_ = 100000;
  m.long_ = -5;
  m.float_ = 1.5f;
  m.double_ = 0.1;
  m.boolean_ = true;
  m.string = (desert_str){"hello", 5};
  memset(m.uuid, 0xab, 16);
  m.exception = ex;
  m.list = l1;
  m.list_len = 2;
  m.array = arr;
  m.array_len = 3;
  m.vector = l1;
  m.vector_len = 1;
  m.set = set;
  m.set_len = 2;
  m.either_right = true;
  m.either_right_value = true;
  m.tried_success = true;
  m.tried_value = entries[1].value;
  m.has_option = true;
  m.option = entries;
  m.option_len = 2;

  desert_writer *w = wr(DESERT_OPT_LEGACY_HEADER_STRINGS);
  golden_model_write(w, &m);
  save_writer("golden", "model-legacy", NULL, 0, w);
  desert_writer_free(w);
  w = wr(0);
  golden_model_write(w, &m);
  save_writer("golden", "model-modern", NULL, 0, w);
  desert_writer_reset(w);
  m.list_known_size = true;
  m.either_right = false;
  m.either_left = (desert_str){"left", 4};
  m.tried_success = false;
  m.tried_failure = cause;
  m.has_option = false;
  golden_model_write(w, &m);
  save_writer("golden", "model-variants", NULL, 0, w);
  desert_writer_reset(w);
  golden_throwable_write(w, &ex);
  save_writer("golden", "throwable", NULL, 0, w);
  desert_writer_reset(w);
  golden_element2_write(w, &entries[0].value);
  save_writer("golden", "element2-first", NULL, 0, w);
  desert_writer_free(w);
  save_hex("golden", "empty", "");
  save_hex("golden", "version-only", "03");
}

/* ---- fuzz_evolution: one record message ---------------------------------------------- */

static void seeds_evolution(void) {
  /* V1 {id 42, name "lamp"}: version 0. */
  save_hex("evolution", "v1", "00 | 00 00 00 2a | 08 6c 61 6d 70");
  /* V2 {id, name, qty 3}: version 1, chunk 0 = id+name (9), chunk 1 = qty (4). */
  save_hex("evolution", "v2", "01 | 12 08 | 00 00 00 2a 08 6c 61 6d 70 | 00 00 00 03");
  /* V3, name Some: version 2, chunk 0 = id + 01 + name (10), chunk 1 = qty,
   * FieldMadeOptional(name) at chunk 0 position 1 = ff. */
  save_hex("evolution", "v3-some",
           "02 | 14 08 01 ff | 00 00 00 2a 01 08 6c 61 6d 70 | 00 00 00 03");
  save_hex("evolution", "v3-none", "02 | 0a 08 01 ff | 00 00 00 2a 00 | 00 00 00 03");
  /* V4: + tag (chunk 3) + sub (chunk 4), both None. */
  save_hex("evolution", "v4",
           "04 | 0a 08 01 ff 02 02 | 00 00 00 2a 00 | 00 00 00 03 | 00 | 00");
  /* V4 with a nested sub record (chunk 4 = 01 + a V4 record). */
  save_hex("evolution", "v4-nested",
           "04 | 0a 08 01 ff 02 26 | 00 00 00 2a 00 | 00 00 00 03 | 00 |"
           " 01 04 0a 08 01 ff 02 02 00 00 00 07 00 00 00 00 01 00 00");
  /* V5: name removed, qty transient (written as removed): 03 + dedup names. */
  save_hex("evolution", "v5",
           "06 | 08 00 01 80 02 02 03 08 6e 61 6d 65 03 06 71 74 79 | 00 00 00 2a | 00 | 00");
  save_hex("evolution", "bad-step", "01 05");
  save_hex("evolution", "chunk-too-long", "01 7e 00 00");
  save_hex("evolution", "removed-id-ref", "02 08 03 01 00 00 00 2a");
}

/* ---- fuzz_enum: selector byte, then (type id, Shape)* ---------------------------------- */

static void seeds_enum(void) {
  /* Declaration order ids: Circle 0, Blob 1, Empty 2, Raw 3. */
  save_hex("enum", "decl-all",
           "00 | 01 00 00 00 00 00 07 | 02 00 01 01 10 03 01 02 03 00 | 05 00 02 00 |"
           " 01 00 03 00 00 00 00 00 00 00 2a");
  /* Sorted ids: Blob 0, Circle 1, Empty 2, Raw 3. */
  save_hex("enum", "sorted-all", "01 | 01 00 01 00 00 00 00 07 | 02 00 00 01 10 03 01 02 03 00");
  save_hex("enum", "bad-id", "00 | 01 00 04");
  save_hex("enum", "bad-type", "00 | 03 00 00 00");
  /* Scala enum-level evolution: version 1 header (chunk 0 size), id + payload in it. */
  save_hex("enum", "evolved", "00 | 01 01 0c 00 00 00 00 00 07");
}

/* ---- fuzz_compressed: mode byte then blocks ----------------------------------------- */

static void seeds_compressed(void) {
  save_hex("compressed", "raw-spec", "00 11 09 cb 48 cd c9 c9 57 40 22 01");
  save_hex("compressed", "raw-empty", "00 00 02 03 00");
  save_hex("compressed", "zlib-empty", "01 00");
  save_hex("compressed", "raw-lying-length", "00 7f 09 cb 48 cd c9 c9 57 40 22 01");
  save_hex("compressed", "zlib-4gib", "01 ff ff ff ff 0f 04 78 9c 03 00");
  save_hex("compressed", "raw-corrupt", "00 05 03 ff ff ff");
  static const char text[] = "the quick brown fox jumps over the lazy dog, the quick brown fox";
  for (int flavour = 0; flavour < 3; flavour++) {
    desert_writer *w = wr(0);
    for (int i = 0; i < 2; i++) {
      if (flavour == 2) desert_write_compressed_zstd(w, 3, text, sizeof text - 1 - (size_t)i * 20);
      else
        desert_write_compressed(w, (desert_compression)flavour, 6, text,
                                sizeof text - 1 - (size_t)i * 20);
    }
    uint8_t mode = (uint8_t)flavour;
    static const char *const names[3] = {"raw-written", "zlib-written", "zstd-written"};
    save_writer("compressed", names[flavour], &mode, 1, w);
    desert_writer_free(w);
  }
  desert_writer *w = wr(0);
  desert_write_compressed(w, DESERT_COMPRESSION_RAW, 1, text, 10);
  desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, 1, text, 10);
  desert_write_compressed_zstd(w, 1, text, 10);
  uint8_t mode = 3;
  save_writer("compressed", "mixed", &mode, 1, w);
  desert_writer_free(w);
}

/* ---- fuzz_refs, fuzz_roundtrip and the kernels ------------------------------------- */

static void seeds_other(void) {
  /* refs: node = ref, i32 label, var_u32 kids, kids. */
  save_hex("refs", "tree", "00 00 00 00 01 02 00 00 00 00 02 00 00 00 00 00 03 00");
  save_hex("refs", "cycle", "00 00 00 00 01 01 01");
  save_hex("refs", "shared", "00 00 00 00 01 02 00 00 00 00 02 00 02");
  save_hex("refs", "bad-id", "00 00 00 00 01 01 05");

  /* roundtrip: flags, then (op, u64, extra...) items. */
  save_hex("roundtrip", "mixed",
           "00 | 00 00 00 00 00 00 00 00 41 | 0c 00 00 00 00 00 00 00 05 68 65 6c 6c 6f |"
           " 0f 00 00 00 00 00 00 00 01 | 0f 00 00 00 00 00 00 00 01 | 16 00 00 00 00 00 00 02 0a"
           " 61 62 63 64 65 66 67 68 69 6a | 17 00 00 00 00 00 00 00 03 | 17 00 00 00 00 00 00 00 03");
  save_hex("roundtrip", "scala-lenient", "03 | 0a 00 00 00 00 00 01 f6 00 | 0e 00 00 00 00 00 00 00"
                                         " 04 00 d8 41 00");
  save_hex("roundtrip", "dates", "00 | 19 80 00 00 00 00 00 00 05 00 00 00 00 00 00 00 07 |"
                                 " 1a 00 00 00 07 e8 00 00 10 00 00 00 00 01 02 03 04");

  save_hex("kernel_bswap", "w2", "00 01 02 03 04 05 06");
  save_hex("kernel_bswap", "w4-misaligned", "05 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10");
  save_hex("kernel_bswap", "w8", "02 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f");
  save_hex("kernel_varint", "u32", "10 00 | 00 7f 80 01 ff ff ff ff 0f 80 80 80 80 80 01 02 03 04");
  save_hex("kernel_varint", "i32", "21 80 | 01 02 03 ff ff ff ff 0f 80 80 80 80 7f");
  save_hex("kernel_utf8", "mixed", "00 | 68 c3 a9 e2 82 ac f0 9f 98 80 41");
  save_hex("kernel_utf8", "invalid", "00 | 41 ed a0 80 c0 af f4 90 80 80 e0 80");
  save_hex("kernel_utf8", "short-dst", "80 | 68 c3 a9 e2 82 ac f0 9f 98 80 41 42 43 44 45 46");
  save_hex("kernel_utf16", "pairs", "00 | 41 00 e9 00 ac 20 3d d8 00 de");
  save_hex("kernel_utf16", "unpaired", "00 | 41 00 3d d8 41 00 00 de");
  save_hex("kernel_utf16", "short-dst", "60 | 41 00 e9 00 ac 20 3d d8 00 de 41 00");
  save_hex("kernel_latin1", "mixed", "00 | 41 e9 ff 80 c3 a9 c4 80");
  save_hex("kernel_latin1", "short-dst", "80 | c3 a9 c3 a9 c3 a9 41 41 41 41");

  /* 64 bytes of every pattern for the SIMD block paths. */
  uint8_t big[200];
  big[0] = 0;
  for (size_t i = 1; i < sizeof big; i++) big[i] = (uint8_t)(0x20 + i % 90);
  save("kernel_utf8", "ascii-blocks", big, sizeof big);
  save("kernel_latin1", "ascii-blocks", big, sizeof big);
  save("kernel_utf16", "ascii-blocks", big, sizeof big);
  big[100] = 0xc3;
  big[101] = 0xa9;
  big[150] = 0xff;
  save("kernel_utf8", "blocks-late-error", big, sizeof big);
  save("kernel_latin1", "blocks-late-error", big, sizeof big);
  for (size_t i = 1; i < sizeof big; i++) big[i] = (uint8_t)(i * 37 | 0x80);
  big[0] = 0x11;
  save("kernel_varint", "long-run", big, sizeof big);
  save("kernel_bswap", "long-run", big, sizeof big);
}

/* fuzz_inline.c: flags, writer mode (bits 0-1 mode, 2-7 fixed capacity),
 * data (read forwards as values, backwards as item kinds; then replayed as
 * write items: kind byte, 8 value bytes, string text). Kinds: u8 00 .. i64
 * 07, f32 08, f64 09, bool 0a, var_u32 0b, var_i32 0c, option 0d, either
 * 0e, try 0f, string/count 10. */
static void seeds_inline(void) {
  static const char ascii63[] =
      "41424344454647484950515253545556575859606162636465666768697071"
      "7273747576777879808182838485868788899091929394959697989900010203";
  char h[1024];
  save_hex("inline", "mixed-growable",
           "00 00 | 06 61 62 63 | ff ff ff ff 0f | 01 | 00 00 00 2a | 10 0d 05 0b 10");
  save_hex("inline", "lenient-storage",
           "0e 01 | 02 | ff ff ff ff ff | 04 c3 28 | 10 0b 0d");
  save_hex("inline", "fixed-10", "00 2a | 07 01 02 03 04 05 06 07 08 | 10 00 00 00 00 00 00 00 05"
                                 " 68 65 6c 6c 6f | 0d 00 00 00 00 00 00 00 01");
  save_hex("inline", "count-only", "00 03 | 0c 00 00 00 00 ff ff ff 85 | 10 00 00 00 00 00 00 00 03"
                                   " 61 62 63");
  save_hex("inline", "max-length-5", "10 00 | 0c 61 62 63 64 65 66 | 0a 61 62 63 64 65 | 10 10");
  snprintf(h, sizeof h, "00 00 | 10 00 00 00 00 00 00 00 3f %.126s | 10 00 00 00 00 00 00 00 40 %s 41",
           ascii63, ascii63);
  save_hex("inline", "strings-at-the-limit", h);
  save_hex("inline", "truncated-varint", "08 01 | 80 80 80 80 | 0b 0b");
  /* storage mode 01 with bit 2: desert_writer_init_inline, then a message
   * that outgrows the inline buffer (a 63-byte string repeated) */
  snprintf(h, sizeof h, "00 05 | 02 04 | 10 00 00 00 00 00 00 00 3f %.126s | 0d 01 | 10 10 10 10 10",
           ascii63);
  save_hex("inline", "init-inline-storage", h);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <corpus dir>\n", argv[0]);
    return 2;
  }
  root = argv[1];
  mkdir(root, 0755);
  seeds_values();
  seeds_strings();
  seeds_temporal();
  seeds_golden();
  seeds_evolution();
  seeds_enum();
  seeds_compressed();
  seeds_other();
  seeds_inline();
  if (failures) fprintf(stderr, "make_seeds: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
