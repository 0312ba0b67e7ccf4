/* test/golden_corpus/model_values.c — golden/time.bin and
 * golden/primitives.bin through C-struct descriptors (every value ctype of
 * types.h they hold), golden/strings.bin and golden/compressed.bin through
 * hand-written desert_write_* / desert_read_* calls.
 * SPDX-License-Identifier: MIT */
#include "corpus_models.h"

#include "corpus_api.h" /* golden_para */


/* ================================ time ================================ */

typedef struct times {
  desert_duration duration, instant;
  uint8_t day_of_week, month;
  desert_clist years; /* int32_t */
  desert_month_day month_day;
  desert_year_month year_month;
  desert_period period;
  int32_t zone_offset;
  desert_clist zone_ids; /* desert_zone_id */
  desert_local_date local_date;
  desert_local_time local_time;
  desert_local_date_time local_date_time;
  desert_offset_time offset_time;
  desert_offset_date_time offset_date_time;
  desert_zoned_date_time zoned_date_time;
  desert_offset_date_time rust_fixed;
  desert_cdatetime_tz rust_tz;
} times;

static const desert_field_desc times_fields[] = {
    {"duration", 0},         {"instant", 0},        {"day_of_week", 0},      {"month", 0},
    {"years", 0},            {"month_day", 0},      {"year_month", 0},       {"period", 0},
    {"zone_offset", 0},      {"zone_ids", 0},       {"local_date", 0},       {"local_time", 0},
    {"local_date_time", 0},  {"offset_time", 0},    {"offset_date_time", 0}, {"zoned_date_time", 0},
    {"rust_fixed", 0},       {"rust_tz", 0}};
static const desert_cfield times_c[] = {
    DESERT_CFIELD(times, duration, DESERT_C_DURATION),
    DESERT_CFIELD(times, instant, DESERT_C_INSTANT),
    DESERT_CFIELD(times, day_of_week, DESERT_C_DAY_OF_WEEK),
    DESERT_CFIELD(times, month, DESERT_C_MONTH),
    DESERT_CFIELD_LIST(times, years, DESERT_C_YEAR, NULL),
    DESERT_CFIELD(times, month_day, DESERT_C_MONTH_DAY),
    DESERT_CFIELD(times, year_month, DESERT_C_YEAR_MONTH),
    DESERT_CFIELD(times, period, DESERT_C_PERIOD),
    DESERT_CFIELD(times, zone_offset, DESERT_C_ZONE_OFFSET),
    DESERT_CFIELD_LIST(times, zone_ids, DESERT_C_ZONE_ID, NULL),
    DESERT_CFIELD(times, local_date, DESERT_C_LOCAL_DATE),
    DESERT_CFIELD(times, local_time, DESERT_C_LOCAL_TIME),
    DESERT_CFIELD(times, local_date_time, DESERT_C_LOCAL_DATE_TIME),
    DESERT_CFIELD(times, offset_time, DESERT_C_OFFSET_TIME),
    DESERT_CFIELD(times, offset_date_time, DESERT_C_OFFSET_DATE_TIME),
    DESERT_CFIELD(times, zoned_date_time, DESERT_C_ZONED_DATE_TIME),
    DESERT_CFIELD(times, rust_fixed, DESERT_C_RUST_DATETIME_FIXED_OFFSET),
    DESERT_CFIELD(times, rust_tz, DESERT_C_RUST_DATETIME_TZ)};
static const desert_cstruct times_desc =
    DESERT_CSTRUCT_V0(times, "Times", times_fields, times_c, NULL);

static bool date_eq(desert_local_date a, desert_local_date b) {
  return a.year == b.year && a.month == b.month && a.day == b.day;
}
static bool time_eq(desert_local_time a, desert_local_time b) {
  return a.hour == b.hour && a.minute == b.minute && a.second == b.second && a.nano == b.nano;
}
static bool ldt_eq(desert_local_date_time a, desert_local_date_time b) {
  return date_eq(a.date, b.date) && time_eq(a.time, b.time);
}
static bool zone_eq(const void *pa, const void *pb) {
  const desert_zone_id *a = pa, *b = pb;
  return a->is_region == b->is_region &&
         (a->is_region ? golden_str_eq(a->region, b->region)
                       : a->offset_seconds == b->offset_seconds);
}
static bool i32_eq(const void *a, const void *b) {
  return *(const int32_t *)a == *(const int32_t *)b;
}
static bool odt_eq(desert_offset_date_time a, desert_offset_date_time b) {
  return ldt_eq(a.date_time, b.date_time) && a.offset_seconds == b.offset_seconds;
}

static bool times_equal(const void *pa, const void *pb) {
  const times *a = pa, *b = pb;
  return a->duration.seconds == b->duration.seconds && a->duration.nanos == b->duration.nanos &&
         a->instant.seconds == b->instant.seconds && a->instant.nanos == b->instant.nanos &&
         a->day_of_week == b->day_of_week && a->month == b->month &&
         golden_list_eq(a->years, b->years, sizeof(int32_t), i32_eq) &&
         a->month_day.month == b->month_day.month && a->month_day.day == b->month_day.day &&
         a->year_month.year == b->year_month.year && a->year_month.month == b->year_month.month &&
         a->period.years == b->period.years && a->period.months == b->period.months &&
         a->period.days == b->period.days && a->zone_offset == b->zone_offset &&
         golden_list_eq(a->zone_ids, b->zone_ids, sizeof(desert_zone_id), zone_eq) &&
         date_eq(a->local_date, b->local_date) && time_eq(a->local_time, b->local_time) &&
         ldt_eq(a->local_date_time, b->local_date_time) &&
         time_eq(a->offset_time.time, b->offset_time.time) &&
         a->offset_time.offset_seconds == b->offset_time.offset_seconds &&
         odt_eq(a->offset_date_time, b->offset_date_time) &&
         ldt_eq(a->zoned_date_time.date_time, b->zoned_date_time.date_time) &&
         a->zoned_date_time.offset_seconds == b->zoned_date_time.offset_seconds &&
         zone_eq(&a->zoned_date_time.zone, &b->zoned_date_time.zone) &&
         odt_eq(a->rust_fixed, b->rust_fixed) && ldt_eq(a->rust_tz.utc, b->rust_tz.utc) &&
         golden_str_eq(a->rust_tz.zone, b->rust_tz.zone);
}

static int32_t years[] = {2024, -1, 999999999};
static desert_zone_id zones[] = {{false, 3600, {NULL, 0}}, {true, 0, GSTR("Europe/Budapest")}};

/* time.json */
static const times times_value = {
    {3, 7},
    {-1, 999999999},
    7,
    12,
    GCLIST(years),
    {2, 29},
    {1969, 7},
    {1, -2, 30},
    -18000,
    GCLIST(zones),
    {2024, 6, 22},
    {9, 30, 5, 125},
    {{2000, 2, 29}, {23, 59, 59, 999999999}},
    {{0, 0, 0, 0}, 64800},
    {{{1970, 1, 1}, {0, 0, 0, 0}}, -64800},
    {{{2026, 3, 29}, {3, 30, 0, 0}}, 7200, {true, 0, GSTR("Europe/Paris")}},
    {{{2024, 6, 22}, {9, 30, 5, 0}}, -86399},
    {{{2024, 6, 22}, {7, 30, 5, 0}}, GSTR("Europe/Berlin")}};


/* ============================= primitives ============================= */

typedef struct primitives {
  bool yes, no;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float f32;
  double f64;
  desert_clist f32s, f64s;   /* float, double */
  desert_clist vu32s, vi32s; /* uint32_t, int32_t */
  uint8_t uuid[16];
  desert_clist bigints;      /* desert_bytes */
  desert_clist bigdecimals;  /* desert_str */
  desert_cbigdecimal bigdecimal_binary;
} primitives;

static const desert_field_desc prim_fields[] = {
    {"yes", 0},          {"no", 0},      {"i8", 0},      {"i16", 0},        {"i32", 0},
    {"i64", 0},          {"u8", 0},      {"u16", 0},     {"u32", 0},        {"u64", 0},
    {"f32", 0},          {"f64", 0},     {"f32_specials", 0}, {"f64_specials", 0}, {"unit", 0},
    {"var_u32", 0},      {"var_i32", 0}, {"uuid", 0},    {"bigint", 0},     {"bigdecimal", 0},
    {"bigdecimal_binary", 0}};
static const desert_cfield prim_c[] = {
    DESERT_CFIELD(primitives, yes, DESERT_C_BOOL),
    DESERT_CFIELD(primitives, no, DESERT_C_BOOL),
    DESERT_CFIELD(primitives, i8, DESERT_C_I8),
    DESERT_CFIELD(primitives, i16, DESERT_C_I16),
    DESERT_CFIELD(primitives, i32, DESERT_C_I32),
    DESERT_CFIELD(primitives, i64, DESERT_C_I64),
    DESERT_CFIELD(primitives, u8, DESERT_C_U8),
    DESERT_CFIELD(primitives, u16, DESERT_C_U16),
    DESERT_CFIELD(primitives, u32, DESERT_C_U32),
    DESERT_CFIELD(primitives, u64, DESERT_C_U64),
    DESERT_CFIELD(primitives, f32, DESERT_C_F32),
    DESERT_CFIELD(primitives, f64, DESERT_C_F64),
    DESERT_CFIELD_LIST(primitives, f32s, DESERT_C_F32, NULL),
    DESERT_CFIELD_LIST(primitives, f64s, DESERT_C_F64, NULL),
    DESERT_CFIELD_UNIT,
    DESERT_CFIELD_LIST(primitives, vu32s, DESERT_C_VAR_U32, NULL),
    DESERT_CFIELD_LIST(primitives, vi32s, DESERT_C_VAR_I32, NULL),
    DESERT_CFIELD(primitives, uuid, DESERT_C_UUID),
    DESERT_CFIELD_LIST(primitives, bigints, DESERT_C_BIGINT, NULL),
    DESERT_CFIELD_LIST(primitives, bigdecimals, DESERT_C_BIGDECIMAL, NULL),
    DESERT_CFIELD(primitives, bigdecimal_binary, DESERT_C_BIGDECIMAL_BINARY)};
static const desert_cstruct prim_desc =
    DESERT_CSTRUCT_V0(primitives, "Primitives", prim_fields, prim_c, NULL);

static bool bits32_eq(const void *a, const void *b) { return memcmp(a, b, 4) == 0; }
static bool bits64_eq(const void *a, const void *b) { return memcmp(a, b, 8) == 0; }
static bool bytes_item_eq(const void *a, const void *b) {
  return golden_bytes_eq(*(const desert_bytes *)a, *(const desert_bytes *)b);
}

static bool prim_equal(const void *pa, const void *pb) {
  const primitives *a = pa, *b = pb;
  return a->yes == b->yes && a->no == b->no && a->i8 == b->i8 && a->i16 == b->i16 &&
         a->i32 == b->i32 && a->i64 == b->i64 && a->u8 == b->u8 && a->u16 == b->u16 &&
         a->u32 == b->u32 && a->u64 == b->u64 && bits32_eq(&a->f32, &b->f32) &&
         bits64_eq(&a->f64, &b->f64) && golden_list_eq(a->f32s, b->f32s, 4, bits32_eq) &&
         golden_list_eq(a->f64s, b->f64s, 8, bits64_eq) && golden_list_eq(a->vu32s, b->vu32s, 4, bits32_eq) &&
         golden_list_eq(a->vi32s, b->vi32s, 4, bits32_eq) && memcmp(a->uuid, b->uuid, 16) == 0 &&
         golden_list_eq(a->bigints, b->bigints, sizeof(desert_bytes), bytes_item_eq) &&
         golden_str_list_eq(a->bigdecimals, b->bigdecimals) &&
         a->bigdecimal_binary.scale == b->bigdecimal_binary.scale &&
         golden_bytes_eq(a->bigdecimal_binary.unscaled, b->bigdecimal_binary.unscaled);
}

/* The special floats by their bit patterns (docs/schema.md §11.4: "NaN" is the
 * quiet NaN, payloads as {"f32_bits"}/{"f64_bits"}); the finite ones are
 * the compiler's conversions of the JSON texts. */
static const uint32_t f32_bits[] = {0x7fc00000u, 0x7fc00001u, 0x7f800000u, 0x80000000u};
static const uint64_t f64_bits[] = {0x7ff8000000000000u, 0xfff8000000000001u, 0xfff0000000000000u,
                                    0x0000000000000000u};
static float f32s[6];
static double f64s[8];
static uint32_t vu32s[] = {0, 127, 128, 300, 16383, 16384, 2097152, 268435456, 4294967295u};
static int32_t vi32s[] = {0, -1, 1, -2, 63, -64, 64, -65, 2147483647, -2147483647 - 1};
/* minimal two's complement of 0, 127, 128, -128, -129, 1234567890, -2^127 */
static desert_bytes bigints[] = {
    GBYTES("\x00"),         GBYTES("\x7f"),
    GBYTES("\x00\x80"),     GBYTES("\x80"),
    GBYTES("\xff\x7f"),     GBYTES("\x49\x96\x02\xd2"),
    GBYTES("\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")};
static desert_str bigdecimals[] = {GSTR("1E+3"), GSTR("-0.001"),
                                         GSTR("3.14159265358979323846264338327950288")};

/* primitives.json (floats filled in from their bits at first use) */
static const primitives prim_value = {
    true,  false, -128, -2, 2147483647, INT64_MIN, 255, 65535, 4294967295u, UINT64_MAX,
    0.1f,  -2.5,  GCLIST(f32s), GCLIST(f64s), GCLIST(vu32s), GCLIST(vi32s),
    {0xd9, 0x0c, 0x42, 0x85, 0x54, 0x4d, 0x42, 0x4d, 0x88, 0x5c, 0x39, 0x40, 0xfe, 0x00, 0x88, 0x3d},
    GCLIST(bigints), GCLIST(bigdecimals), {2, GBYTES("\xcf\xc7")}}; /* -12345 x 10^-2 */

void golden_values_init(void) {
  for (size_t i = 0; i < GCOUNTOF(f32_bits); i++) memcpy(&f32s[i], &f32_bits[i], 4);
  for (size_t i = 0; i < GCOUNTOF(f64_bits); i++) memcpy(&f64s[i], &f64_bits[i], 8);
  f32s[4] = 16777218.0f;
  f32s[5] = 3.4028235e+38f; /* FLT_MAX */
  f64s[4] = 1e+22;
  f64s[5] = 5e-324;
  f64s[6] = 0.0001;
  f64s[7] = 1.5e-05;
}


/* =============================== strings =============================== */

typedef struct strings {
  size_t n_chars, n_chars16, n_strings, n_dedup;
  uint32_t chars[4];
  uint16_t chars16[3];
  desert_str strings[6];
  desert_str dedup[8];
  desert_bytes bytes, empty, non_empty, fixed;
  desert_str more_dedup;
} strings;

static desert_status strings_write(desert_writer *w, const void *obj) {
  const strings *s = obj;
  desert_write_u8(w, 0); /* version-0 record */
  desert_write_count(w, s->n_chars);
  for (size_t i = 0; i < s->n_chars; i++) desert_write_char(w, s->chars[i]);
  desert_write_count(w, s->n_chars16);
  for (size_t i = 0; i < s->n_chars16; i++) desert_write_char16(w, s->chars16[i]);
  desert_write_count(w, s->n_strings);
  for (size_t i = 0; i < s->n_strings; i++) desert_write_string(w, s->strings[i].ptr, s->strings[i].len);
  desert_write_count(w, s->n_dedup);
  for (size_t i = 0; i < s->n_dedup; i++)
    desert_write_dedup_string(w, s->dedup[i].ptr, s->dedup[i].len);
  desert_write_bytes(w, s->bytes.ptr, s->bytes.len);
  desert_write_bytes(w, s->empty.ptr, s->empty.len);
  desert_write_bytes(w, s->non_empty.ptr, s->non_empty.len);
  desert_write_bytes(w, s->fixed.ptr, s->fixed.len);
  return desert_write_dedup_string(w, s->more_dedup.ptr, s->more_dedup.len);
}

/* Reads the count of a known-size list of at most cap elements into *n. */
static bool read_count(desert_reader *r, size_t cap, size_t *n) {
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return false;
  if (!seq.known || seq.count > cap) {
    desert_reader_fail(r, DESERT_E_INVALID_VALUE, seq.offset);
    return false;
  }
  *n = seq.count;
  return true;
}

static desert_status strings_read(desert_reader *r, void *obj) {
  strings *s = obj;
  uint8_t version = 0xff;
  if (desert_read_u8(r, &version) || version != 0)
    return desert_reader_fail(r, DESERT_E_INVALID_VALUE, 0);
  if (read_count(r, 4, &s->n_chars))
    for (size_t i = 0; i < s->n_chars; i++) desert_read_char(r, &s->chars[i]);
  if (read_count(r, 3, &s->n_chars16))
    for (size_t i = 0; i < s->n_chars16; i++) desert_read_char16(r, &s->chars16[i]);
  if (read_count(r, 6, &s->n_strings))
    for (size_t i = 0; i < s->n_strings; i++) desert_read_string(r, &s->strings[i]);
  if (read_count(r, 8, &s->n_dedup))
    for (size_t i = 0; i < s->n_dedup; i++) desert_read_dedup_string(r, &s->dedup[i]);
  desert_read_bytes(r, &s->bytes);
  desert_read_bytes(r, &s->empty);
  desert_read_bytes(r, &s->non_empty);
  desert_read_bytes(r, &s->fixed);
  return desert_read_dedup_string(r, &s->more_dedup);
}

static bool strings_equal(const void *pa, const void *pb) {
  const strings *a = pa, *b = pb;
  if (a->n_chars != b->n_chars || a->n_chars16 != b->n_chars16 || a->n_strings != b->n_strings ||
      a->n_dedup != b->n_dedup)
    return false;
  for (size_t i = 0; i < a->n_chars; i++)
    if (a->chars[i] != b->chars[i]) return false;
  for (size_t i = 0; i < a->n_chars16; i++)
    if (a->chars16[i] != b->chars16[i]) return false;
  for (size_t i = 0; i < a->n_strings; i++)
    if (!golden_str_eq(a->strings[i], b->strings[i])) return false;
  for (size_t i = 0; i < a->n_dedup; i++)
    if (!golden_str_eq(a->dedup[i], b->dedup[i])) return false;
  return golden_bytes_eq(a->bytes, b->bytes) && golden_bytes_eq(a->empty, b->empty) &&
         golden_bytes_eq(a->non_empty, b->non_empty) && golden_bytes_eq(a->fixed, b->fixed) &&
         golden_str_eq(a->more_dedup, b->more_dedup);
}

/* strings.json */
static const strings strings_value = {
    4, 3, 6, 8,
    {'A', 0xe9, 0x20ac, 0x1f600},
    {'A', 0xe9, 0x20ac},
    {GSTR("hello"), GSTR(""), GSTR("\xc3\xa9"), GSTR("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"),
     GSTR("\xf0\x9f\x98\x80"),
     GSTR("quote\" backslash\\ slash/ tab\t newline\n cr\r bs\b ff\f nul\0 soh\x01 us\x1f"
          " del\x7f ls\xe2\x80\xa8")},
    {GSTR("same"), GSTR("other"), GSTR("same"), GSTR("other"), GSTR(""), GSTR(""), GSTR("new"),
     GSTR("same")},
    GBYTES("\x01\x02\x03"), {(const uint8_t *)"", 0}, GBYTES("\xff"), GBYTES("\xde\xad\xbe\xef"),
    GSTR("new")};

/* ============================== compressed ============================== */

typedef struct compressed {
  desert_bytes raw_stored, raw_empty, raw_fast, raw_default;
  desert_bytes zlib_stored, zlib_empty, zlib_default, zlib_best;
  size_t n_blocks;
  desert_bytes blocks[3];
} compressed;

/* flavour and level of each field, as compressed.schema.json says */
static const struct {
  desert_compression flavour;
  int level;
} packing[8] = {{DESERT_COMPRESSION_RAW, 0},  {DESERT_COMPRESSION_RAW, -1},
                {DESERT_COMPRESSION_RAW, 1},  {DESERT_COMPRESSION_RAW, -1},
                {DESERT_COMPRESSION_ZLIB, 0}, {DESERT_COMPRESSION_ZLIB, -1},
                {DESERT_COMPRESSION_ZLIB, -1}, {DESERT_COMPRESSION_ZLIB, 9}};

static desert_status compressed_write(desert_writer *w, const void *obj) {
  const compressed *c = obj;
  const desert_bytes *f = &c->raw_stored;
  desert_write_u8(w, 0);
  for (size_t i = 0; i < 8; i++)
    desert_write_compressed(w, packing[i].flavour, packing[i].level, f[i].ptr, f[i].len);
  desert_write_count(w, c->n_blocks);
  for (size_t i = 0; i < c->n_blocks; i++)
    desert_write_compressed(w, DESERT_COMPRESSION_ZLIB, -1, c->blocks[i].ptr, c->blocks[i].len);
  return desert_writer_status(w);
}

static desert_status compressed_read(desert_reader *r, void *obj) {
  compressed *c = obj;
  desert_bytes *f = &c->raw_stored;
  uint8_t version = 0xff;
  if (desert_read_u8(r, &version) || version != 0)
    return desert_reader_fail(r, DESERT_E_INVALID_VALUE, 0);
  for (size_t i = 0; i < 8; i++) desert_read_compressed(r, packing[i].flavour, &f[i]);
  if (read_count(r, 3, &c->n_blocks))
    for (size_t i = 0; i < c->n_blocks; i++)
      desert_read_compressed(r, DESERT_COMPRESSION_ZLIB, &c->blocks[i]);
  return desert_reader_status(r);
}

static bool compressed_equal(const void *pa, const void *pb) {
  const compressed *a = pa, *b = pb;
  const desert_bytes *x = &a->raw_stored, *y = &b->raw_stored;
  for (size_t i = 0; i < 8; i++)
    if (!golden_bytes_eq(x[i], y[i])) return false;
  if (a->n_blocks != b->n_blocks) return false;
  for (size_t i = 0; i < a->n_blocks; i++)
    if (!golden_bytes_eq(a->blocks[i], b->blocks[i])) return false;
  return true;
}

static const uint8_t zeros[24] = {0};
#define PARA {(const uint8_t *)golden_para, GOLDEN_PARA_LEN}
/* compressed.json */
static const compressed compressed_value = {
    GBYTES("abc"),  {(const uint8_t *)"", 0}, GBYTES("hello hello hello"), PARA,
    GBYTES("abc"),  {(const uint8_t *)"", 0}, GBYTES("hello hello hello"), PARA,
    3, {{(const uint8_t *)"", 0}, {zeros, 1}, {zeros, 24}}};

const golden_codec golden_value_codecs[] = {
    {"time", "Times (C structs)", 0, sizeof(times), &times_value, &times_desc, NULL, NULL,
     times_equal, 0, false},
    {"primitives", "Primitives (C structs)", 0, sizeof(primitives), &prim_value, &prim_desc, NULL,
     NULL, prim_equal, 0, false},
    {"strings", "Strings (hand-written)", 0, sizeof(strings), &strings_value, NULL, strings_write,
     strings_read, strings_equal, 0, false},
    {"compressed", "Compressed (hand-written)", 0, sizeof(compressed), &compressed_value, NULL,
     compressed_write, compressed_read, compressed_equal, 0, false},
};
const size_t golden_value_codec_count = sizeof golden_value_codecs / sizeof *golden_value_codecs;
