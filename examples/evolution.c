/* examples/evolution.c — a user's own record evolving over time
 * (docs/format.md §9): a product that gains a field, makes a field optional and
 * finally removes it. Shows old data read by new code and new data read by
 * old code, including the cases the format cannot support. Prints what it
 * does and exits 0 when every outcome is the expected one, 1 otherwise.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include <desert/record.h>

/* The in-memory product; each version of the code uses what it knows. */
typedef struct product {
  desert_str name;
  bool in_stock;
  bool has_price; /* v3: price became Option<i32> */
  int32_t price;
} product;

/* Version 1: the original. No evolution steps: version byte 00, fields in
 * order, nothing else. */
static const desert_field_desc v1_fields[] = {{"name", 0}, {"price", 0}};
static const desert_record_desc product_v1 = DESERT_RECORD_DESC_V0("ProductV1", v1_fields);

/* Version 3 (v2 added in_stock; v3 made price optional). Fields are listed
 * in declaration order; the steps say how they came to be. in_stock has a
 * default (true) for data written before it existed. */
static const desert_field_desc v3_fields[] = {
    {"name", 0}, {"in_stock", 0}, {"price", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step v3_steps[] = {{DESERT_STEP_FIELD_ADDED, "in_stock", true},
                                                 {DESERT_STEP_FIELD_MADE_OPTIONAL, "price", false}};
static const desert_record_desc product_v3 = DESERT_RECORD_DESC("ProductV3", v3_fields, v3_steps);

/* Version 4: price removed. The steps keep the whole history. */
static const desert_field_desc v4_fields[] = {{"name", 0}, {"in_stock", 0}};
static const desert_evolution_step v4_steps[] = {{DESERT_STEP_FIELD_ADDED, "in_stock", true},
                                                 {DESERT_STEP_FIELD_MADE_OPTIONAL, "price", false},
                                                 {DESERT_STEP_FIELD_REMOVED, "price", false}};
static const desert_record_desc product_v4 = DESERT_RECORD_DESC("ProductV4", v4_fields, v4_steps);

/* ---- codecs: one pair per version of the code -------------------------------- */

static desert_status write_v1(desert_writer *w, const product *p) {
  desert_record_writer rw;
  desert_record_write_begin(w, &product_v1, &rw);
  desert_record_write_field(&rw, 0);
  desert_write_string(w, p->name.ptr, p->name.len);
  desert_record_write_field(&rw, 1);
  desert_write_i32(w, p->price);
  return desert_record_write_end(&rw); /* errors are sticky: check once */
}

static desert_status read_v1(desert_reader *r, product *p) {
  desert_record_reader rr;
  desert_field_action a;
  if (desert_record_read_begin(r, &product_v1, &rr)) return desert_reader_status(r);
  if (desert_record_read_field(&rr, 0, &a) == DESERT_OK) desert_read_string(r, &p->name);
  if (desert_record_read_field(&rr, 1, &a) == DESERT_OK) desert_read_i32(r, &p->price);
  p->has_price = true;
  return desert_record_read_end(&rr);
}

static desert_status write_v3(desert_writer *w, const product *p) {
  desert_record_writer rw;
  desert_record_write_begin(w, &product_v3, &rw);
  desert_record_write_field(&rw, 0);
  desert_write_string(w, p->name.ptr, p->name.len);
  desert_record_write_field(&rw, 1); /* goes to its own chunk (added in step 1) */
  desert_write_bool(w, p->in_stock);
  desert_record_write_field_option(&rw, 2, p->has_price); /* tag, then the value */
  if (p->has_price) desert_write_i32(w, p->price);
  return desert_record_write_end(&rw);
}

static desert_status read_v3(desert_reader *r, product *p) {
  desert_record_reader rr;
  desert_field_action a;
  if (desert_record_read_begin(r, &product_v3, &rr)) return desert_reader_status(r);
  if (desert_record_read_field(&rr, 0, &a) == DESERT_OK) desert_read_string(r, &p->name);
  if (desert_record_read_field(&rr, 1, &a) == DESERT_OK) {
    if (a == DESERT_FIELD_DEFAULT)
      p->in_stock = true; /* data older than in_stock: its FieldAdded default */
    else
      desert_read_bool(r, &p->in_stock);
  }
  if (desert_record_read_field(&rr, 2, &a) == DESERT_OK) {
    /* READ: Some (or an old plain i32, wrapped); NONE: None or removed. */
    p->has_price = a == DESERT_FIELD_READ;
    if (p->has_price) desert_read_i32(r, &p->price);
  }
  return desert_record_read_end(&rr);
}

static desert_status write_v4(desert_writer *w, const product *p) {
  desert_record_writer rw;
  desert_record_write_begin(w, &product_v4, &rw);
  desert_record_write_field(&rw, 0);
  desert_write_string(w, p->name.ptr, p->name.len);
  desert_record_write_field(&rw, 1);
  desert_write_bool(w, p->in_stock);
  return desert_record_write_end(&rw);
}

/* ---- the demonstration --------------------------------------------------------- */

static int failures;

static void hex(const char *label, const uint8_t *b, size_t n) {
  printf("  %-22s", label);
  for (size_t i = 0; i < n; i++) printf(" %02x", b[i]);
  printf("\n");
}

static void show(const char *what, desert_status st, const desert_reader *r, const product *p,
                 desert_status expected) {
  if (st)
    printf("  %-22s %s at offset %zu\n", what, desert_status_name(st),
           desert_reader_error_offset(r));
  else if (strstr(what, "v1")) /* v1 code knows no in_stock */
    printf("  %-22s name=%.*s price=%d\n", what, (int)p->name.len, p->name.ptr, p->price);
  else if (p->has_price)
    printf("  %-22s name=%.*s in_stock=%s price=Some(%d)\n", what, (int)p->name.len, p->name.ptr,
           p->in_stock ? "true" : "false", p->price);
  else
    printf("  %-22s name=%.*s in_stock=%s price=None\n", what, (int)p->name.len, p->name.ptr,
           p->in_stock ? "true" : "false");
  if (st != expected) {
    printf("  !! expected %s\n", desert_status_name(expected));
    failures++;
  }
}

typedef desert_status (*writer_fn)(desert_writer *, const product *);
typedef desert_status (*reader_fn)(desert_reader *, product *);

static void demo(desert_writer *w, desert_reader *r, const char *title, writer_fn wf,
                 const product *in, const char *rname, reader_fn rf, desert_status expected) {
  printf("%s\n", title);
  desert_writer_reset(w);
  if (wf(w, in)) {
    printf("  write failed: %s\n", desert_status_name(desert_writer_status(w)));
    failures++;
    return;
  }
  size_t n;
  const uint8_t *bytes = desert_writer_data(w, &n);
  hex("bytes:", bytes, n);
  product out;
  memset(&out, 0, sizeof out);
  desert_reader_begin(r, bytes, n);
  show(rname, rf(r, &out), r, &out, expected);
}

int main(void) {
  desert_writer *w;
  desert_reader *r;
  if (desert_writer_create(NULL, &w)) return 1;
  if (desert_reader_create(NULL, &r)) {
    desert_writer_free(w);
    return 1;
  }
  const desert_str lamp = {"lamp", 4};
  product p1 = {lamp, false, true, 1250};
  product p3 = {lamp, false, true, 990};
  product p3none = {lamp, true, false, 0};
  product p4 = {lamp, true, false, 0};

  demo(w, r,
       "v1 data, read by v3 code (in_stock takes its default, price is wrapped in Some):", write_v1,
       &p1, "v3 reads:", read_v3, DESERT_OK);
  demo(w, r, "v3 data with a price, read by v1 code (the new chunk is skipped):", write_v3, &p3,
       "v1 reads:", read_v1, DESERT_OK);
  demo(w, r, "v3 data without a price, read by v1 code (cannot work: v1 needs a price):", write_v3,
       &p3none, "v1 reads:", read_v1, DESERT_E_NONOPTIONAL_NONE);
  demo(w, r, "v4 data (price removed), read by v3 code (the optional price is None):", write_v4,
       &p4, "v3 reads:", read_v3, DESERT_OK);
  demo(w, r, "v4 data, read by v1 code (cannot work: the required price was removed):", write_v4,
       &p4, "v1 reads:", read_v1, DESERT_E_FIELD_REMOVED);

  desert_reader_free(r);
  desert_writer_free(w);
  if (failures)
    printf("evolution: %d unexpected outcome(s)\n", failures);
  else
    printf("evolution: all outcomes as expected\n");
  return failures ? 1 : 0;
}
