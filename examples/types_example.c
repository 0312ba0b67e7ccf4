/* examples/types_example.c — the C counterpart of Rust's #[derive(BinaryCodec)]:
 * static C-struct descriptors (include/desert/types.h) for a record that
 * evolves from version 0 to version 2, written and read across versions,
 * and the same bytes read again without any C struct through a runtime type
 * graph and a dynamic value tree. Prints what happens and exits 0 when every
 * outcome is the expected one.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "desert/types.h"

/* ---- version 0: struct Person { name: String, age: u8 } ---------------------- */

typedef struct person_v0 {
  desert_str name;
  uint8_t age;
} person_v0;

static const desert_field_desc person_v0_fields[] = {{"name", 0}, {"age", 0}};
static const desert_cfield person_v0_c[] = {DESERT_CFIELD(person_v0, name, DESERT_C_STRING),
                                            DESERT_CFIELD(person_v0, age, DESERT_C_U8)};
static const desert_cstruct person_v0_desc =
    DESERT_CSTRUCT_V0(person_v0, "Person", person_v0_fields, person_v0_c, NULL);

/* ---- version 2: + email: Option<String> (FieldAdded), + nicknames (FieldAdded),
 * + a transient cache that is never written. --------------------------------------- */

typedef struct person {
  desert_str name;
  uint8_t age;
  desert_str email;
  bool has_email;
  desert_clist nicknames; /* of desert_str */
  uint32_t cache;         /* transient */
} person;

static const desert_field_desc person_fields[] = {{"name", 0},
                                                  {"age", 0},
                                                  {"email", DESERT_FIELD_OPTIONAL},
                                                  {"nicknames", 0},
                                                  {"cache", DESERT_FIELD_TRANSIENT}};
static const desert_evolution_step person_steps[] = {
    {DESERT_STEP_FIELD_ADDED, "email", true},    /* older data: email = None */
    {DESERT_STEP_FIELD_ADDED, "nicknames", true} /* older data: no nicknames */
};
static const desert_cfield person_c[] = {
    DESERT_CFIELD(person, name, DESERT_C_STRING),
    DESERT_CFIELD(person, age, DESERT_C_U8),
    DESERT_CFIELD_OPT(person, email, DESERT_C_STRING, has_email),
    DESERT_CFIELD_LIST(person, nicknames, DESERT_C_STRING, NULL),
    DESERT_CFIELD(person, cache, DESERT_C_U32),
};

/* Fields the data does not hold: the decoder zeroed them; set real defaults. */
static void person_defaults(void *obj, size_t index) {
  person *p = obj;
  if (index == 4) p->cache = 42; /* transient default */
  /* email (2) stays None and nicknames (3) empty: zero is the default. */
}

static const desert_cstruct person_desc =
    DESERT_CSTRUCT(person, "Person", person_fields, person_steps, person_c, person_defaults);

static int failures;

static void expect(bool ok, const char *what) {
  printf("  %-58s %s\n", what, ok ? "ok" : "UNEXPECTED");
  if (!ok) failures++;
}

static void hex(const char *label, const uint8_t *p, size_t n) {
  printf("%s (%zu bytes):", label, n);
  for (size_t i = 0; i < n; i++) printf(" %02x", p[i]);
  printf("\n");
}

static bool str_is(desert_str s, const char *want) {
  return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* Prints a value tree of the Person record type (runtime types). */
static void print_value(const desert_type *t, const desert_value *v) {
  printf("  {");
  for (size_t i = 0; i < t->u.record.field_count; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    const desert_value *fv = &v->as.seq.items[i];
    printf("%s%s: ", i ? ", " : "", f->name);
    if (fv->kind == DESERT_VALUE_SOME) fv = fv->as.child;
    switch (fv->kind) {
    case DESERT_VALUE_NULL:
      printf("None");
      break;
    case DESERT_VALUE_UINT:
      printf("%llu", (unsigned long long)fv->as.u);
      break;
    case DESERT_VALUE_STRING:
      printf("\"%.*s\"", (int)fv->as.str.len, fv->as.str.ptr);
      break;
    case DESERT_VALUE_SEQ:
      printf("[");
      for (size_t k = 0; k < fv->as.seq.count; k++)
        printf("%s\"%.*s\"", k ? ", " : "", (int)fv->as.seq.items[k].as.str.len,
               fv->as.seq.items[k].as.str.ptr);
      printf("]");
      break;
    default:
      printf("?");
      break;
    }
  }
  printf("}\n");
}

int main(void) {
  if (desert_cstruct_check(&person_v0_desc) || desert_cstruct_check(&person_desc)) {
    printf("types_example: invalid descriptor\n");
    return 1;
  }
  desert_writer *w = NULL;
  desert_reader *r = NULL;
  if (desert_writer_create(NULL, &w) || desert_reader_create(NULL, &r)) return 1;

  /* 1. A version-2 writer. */
  desert_str nicks[2] = {{"Ada", 3}, {"Countess", 8}};
  person ada = {{"Ada Lovelace", 12}, 36, {"ada@example.org", 15}, true, {nicks, 2}, 7};
  desert_status st = desert_cstruct_encode(w, &person_desc, &ada);
  size_t n2 = 0;
  const uint8_t *p2 = desert_writer_data(w, &n2);
  uint8_t v2[256];
  memcpy(v2, p2, n2 < sizeof v2 ? n2 : sizeof v2);
  printf("version 2 writer:\n");
  expect(st == DESERT_OK && n2 <= sizeof v2, "encodes");
  hex("  bytes", v2, n2);

  /* 2. An old (version-0) reader skips the chunks it does not know. */
  person_v0 old;
  desert_reader_begin(r, v2, n2);
  st = desert_cstruct_decode(r, &person_v0_desc, &old);
  printf("version 0 reader of version-2 data:\n");
  expect(st == DESERT_OK && str_is(old.name, "Ada Lovelace") && old.age == 36,
         "reads name and age");
  expect(desert_reader_offset(r) == n2, "ends right after the record");

  /* 3. A version-0 writer; the new reader fills in the defaults. */
  person_v0 bob = {{"Bob", 3}, 41};
  desert_writer_reset(w);
  st = desert_cstruct_encode(w, &person_v0_desc, &bob);
  size_t n0 = 0;
  const uint8_t *p0 = desert_writer_data(w, &n0);
  uint8_t v0[64];
  memcpy(v0, p0, n0 < sizeof v0 ? n0 : sizeof v0);
  printf("version 2 reader of version-0 data:\n");
  hex("  bytes", v0, n0);
  person back;
  desert_reader_begin(r, v0, n0);
  st = desert_cstruct_decode(r, &person_desc, &back);
  expect(st == DESERT_OK && str_is(back.name, "Bob") && back.age == 41, "reads name and age");
  expect(!back.has_email && back.nicknames.count == 0, "email None, no nicknames");
  expect(back.cache == 42, "transient field from the defaults callback");

  /* 4. The same record as a runtime type: no C struct, a value tree. */
  desert_type_set *set = NULL;
  desert_value_arena *arena = NULL;
  if (desert_type_set_create(NULL, &set) || desert_value_arena_create(NULL, &arena)) return 1;
  desert_type *list = desert_type_set_new(set, DESERT_TYPE_LIST);
  desert_type *rec = desert_type_set_new(set, DESERT_TYPE_RECORD);
  desert_type_field *fields = desert_type_set_alloc(set, 5 * sizeof *fields, 8);
  desert_type_step *steps = desert_type_set_alloc(set, 2 * sizeof *steps, 8);
  desert_value *defaults = desert_value_arena_values(desert_type_set_arena(set), 3);
  if (!list || !rec || !fields || !steps || !defaults) return 1;
  list->u.coll.element = desert_type_builtin(DESERT_TYPE_STRING);
  defaults[0].kind = DESERT_VALUE_NULL; /* email: None */
  defaults[1].kind = DESERT_VALUE_SEQ;  /* nicknames: [] */
  defaults[2].kind = DESERT_VALUE_UINT; /* cache: 42 */
  defaults[2].as.u = 42;
  fields[0] = (desert_type_field){"name", desert_type_builtin(DESERT_TYPE_STRING), 0, NULL};
  fields[1] = (desert_type_field){"age", desert_type_builtin(DESERT_TYPE_U8), 0, NULL};
  fields[2] = (desert_type_field){"email", desert_type_builtin(DESERT_TYPE_STRING),
                                  DESERT_FIELD_OPTIONAL, NULL};
  fields[3] = (desert_type_field){"nicknames", list, 0, NULL};
  fields[4] = (desert_type_field){"cache", desert_type_builtin(DESERT_TYPE_U32),
                                  DESERT_FIELD_TRANSIENT, &defaults[2]};
  steps[0] = (desert_type_step){DESERT_STEP_FIELD_ADDED, "email", &defaults[0]};
  steps[1] = (desert_type_step){DESERT_STEP_FIELD_ADDED, "nicknames", &defaults[1]};
  rec->name = "Person";
  rec->u.record.fields = fields;
  rec->u.record.field_count = 5;
  rec->u.record.steps = steps;
  rec->u.record.step_count = 2;
  char msg[128];
  expect(desert_type_set_seal(set, msg, sizeof msg) == DESERT_OK, "runtime type graph seals");
  printf("runtime types, version-2 data:\n");
  desert_value *v = NULL;
  desert_type_error err;
  desert_reader_begin(r, v2, n2);
  st = desert_type_decode(r, rec, arena, NULL, &v, &err);
  expect(st == DESERT_OK, "decodes into a value tree");
  if (v) print_value(rec, v);
  /* Re-encoding the tree gives the same bytes. */
  desert_writer_reset(w);
  st = desert_type_encode(w, rec, v, NULL, &err);
  size_t nr = 0;
  const uint8_t *pr = desert_writer_data(w, &nr);
  expect(st == DESERT_OK && nr == n2 && memcmp(pr, v2, n2) == 0, "re-encodes byte for byte");
  /* A cut input: the failing item's offset and the value path. */
  desert_reader_begin(r, v2, n2 - 2);
  st = desert_type_decode(r, rec, arena, NULL, &v, &err);
  printf("  cut short: %s at offset %zu, path '%s'\n", desert_status_kind(st), err.offset,
         err.path);
  expect(st == DESERT_E_INPUT_ENDED, "a truncated input fails with InputEndedUnexpectedly");

  desert_type_set_free(set);
  desert_value_arena_free(arena);
  desert_reader_free(r);
  desert_writer_free(w);
  if (failures) {
    printf("types_example: %d unexpected outcome(s)\n", failures);
    return 1;
  }
  printf("types_example: all outcomes as expected\n");
  return 0;
}
