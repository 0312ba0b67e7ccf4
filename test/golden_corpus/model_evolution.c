/* test/golden_corpus/model_evolution.c — golden/evolution*.bin through
 * C-struct descriptors: Person at version 6 (the current schema), at
 * version 0 and at version 3, each reading its own file and the others'
 * as golden/README.md describes (old reader / new data, new reader / old
 * data).
 * SPDX-License-Identifier: MIT */
#include "corpus_models.h"

/* ---- version 6 (evolution.schema.json) ---- */

typedef struct person {
  int64_t id;
  desert_str name;
  bool has_age, has_email, has_cache;
  int32_t age;
  desert_str email;
  desert_str cache; /* transient: never written, None when read */
  desert_clist tags; /* of desert_str */
} person;

static const desert_field_desc person_fields[] = {
    {"id", 0},
    {"name", 0},
    {"age", DESERT_FIELD_OPTIONAL},
    {"email", DESERT_FIELD_OPTIONAL},
    {"cache", DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT},
    {"tags", 0}};
static const desert_evolution_step person_steps[] = {
    {DESERT_STEP_FIELD_ADDED, "email", true},
    {DESERT_STEP_FIELD_MADE_OPTIONAL, "age", false},
    {DESERT_STEP_FIELD_REMOVED, "legacy", false},
    {DESERT_STEP_FIELD_ADDED, "tags", true},
    {DESERT_STEP_FIELD_MADE_OPTIONAL, "email", false},
    {DESERT_STEP_FIELD_MADE_TRANSIENT, "cache", false}};
static const desert_cfield person_c[] = {
    DESERT_CFIELD(person, id, DESERT_C_I64),
    DESERT_CFIELD(person, name, DESERT_C_STRING),
    DESERT_CFIELD_OPT(person, age, DESERT_C_I32, has_age),
    DESERT_CFIELD_OPT(person, email, DESERT_C_STRING, has_email),
    DESERT_CFIELD_OPT(person, cache, DESERT_C_STRING, has_cache),
    DESERT_CFIELD_LIST(person, tags, DESERT_C_STRING, NULL)};

static const desert_str unknown_email = GSTR("unknown@example.org");

/* FieldAdded defaults: email = Some("unknown@example.org"), tags = [] (the
 * zeroed list); the transient cache stays None. */
static void person_defaults(void *obj, size_t index) {
  person *p = obj;
  if (index == 3) {
    p->has_email = true;
    p->email = unknown_email;
  }
}

static const desert_cstruct person_desc =
    DESERT_CSTRUCT(person, "Person", person_fields, person_steps, person_c, person_defaults);

static bool person_equal(const void *a, const void *b) {
  const person *x = a, *y = b;
  return x->id == y->id && golden_str_eq(x->name, y->name) && x->has_age == y->has_age &&
         (!x->has_age || x->age == y->age) && x->has_email == y->has_email &&
         (!x->has_email || golden_str_eq(x->email, y->email)) && x->has_cache == y->has_cache &&
         (!x->has_cache || golden_str_eq(x->cache, y->cache)) &&
         golden_str_list_eq(x->tags, y->tags);
}

/* ---- version 0 (evolution.v0.schema.json) ---- */

typedef struct person_v0 {
  int64_t id;
  desert_str name;
  int32_t age;
  bool has_cache, has_legacy;
  desert_str cache, legacy;
} person_v0;

static const desert_field_desc person_v0_fields[] = {{"id", 0},
                                                     {"name", 0},
                                                     {"age", 0},
                                                     {"cache", DESERT_FIELD_OPTIONAL},
                                                     {"legacy", DESERT_FIELD_OPTIONAL}};
static const desert_cfield person_v0_c[] = {
    DESERT_CFIELD(person_v0, id, DESERT_C_I64),
    DESERT_CFIELD(person_v0, name, DESERT_C_STRING),
    DESERT_CFIELD(person_v0, age, DESERT_C_I32),
    DESERT_CFIELD_OPT(person_v0, cache, DESERT_C_STRING, has_cache),
    DESERT_CFIELD_OPT(person_v0, legacy, DESERT_C_STRING, has_legacy)};
static const desert_cstruct person_v0_desc =
    DESERT_CSTRUCT_V0(person_v0, "Person", person_v0_fields, person_v0_c, NULL);

static bool person_v0_equal(const void *a, const void *b) {
  const person_v0 *x = a, *y = b;
  return x->id == y->id && golden_str_eq(x->name, y->name) && x->age == y->age &&
         x->has_cache == y->has_cache && (!x->has_cache || golden_str_eq(x->cache, y->cache)) &&
         x->has_legacy == y->has_legacy && (!x->has_legacy || golden_str_eq(x->legacy, y->legacy));
}

/* ---- version 3 (evolution.v3.schema.json) ---- */

typedef struct person_v3 {
  int64_t id;
  desert_str name;
  bool has_age, has_cache;
  int32_t age;
  desert_str email;
  desert_str cache;
} person_v3;

static const desert_field_desc person_v3_fields[] = {{"id", 0},
                                                     {"name", 0},
                                                     {"age", DESERT_FIELD_OPTIONAL},
                                                     {"email", 0},
                                                     {"cache", DESERT_FIELD_OPTIONAL}};
static const desert_evolution_step person_v3_steps[] = {
    {DESERT_STEP_FIELD_ADDED, "email", true},
    {DESERT_STEP_FIELD_MADE_OPTIONAL, "age", false},
    {DESERT_STEP_FIELD_REMOVED, "legacy", false}};
static const desert_cfield person_v3_c[] = {
    DESERT_CFIELD(person_v3, id, DESERT_C_I64),
    DESERT_CFIELD(person_v3, name, DESERT_C_STRING),
    DESERT_CFIELD_OPT(person_v3, age, DESERT_C_I32, has_age),
    DESERT_CFIELD(person_v3, email, DESERT_C_STRING),
    DESERT_CFIELD_OPT(person_v3, cache, DESERT_C_STRING, has_cache)};

static void person_v3_defaults(void *obj, size_t index) {
  if (index == 3) ((person_v3 *)obj)->email = unknown_email;
}
static const desert_cstruct person_v3_desc = DESERT_CSTRUCT(
    person_v3, "Person", person_v3_fields, person_v3_steps, person_v3_c, person_v3_defaults);

static bool person_v3_equal(const void *a, const void *b) {
  const person_v3 *x = a, *y = b;
  return x->id == y->id && golden_str_eq(x->name, y->name) && x->has_age == y->has_age &&
         (!x->has_age || x->age == y->age) && golden_str_eq(x->email, y->email) &&
         x->has_cache == y->has_cache && (!x->has_cache || golden_str_eq(x->cache, y->cache));
}

/* ---- the values (golden/evolution*.json), written out again in C ---- */

static desert_str ada_tags[] = {GSTR("math"), GSTR("poetry")};

/* evolution.json */
static const person ada = {1001, GSTR("Ada"), true, true, false, 36,
                           GSTR("ada@example.org"), {NULL, 0},
                           GCLIST(ada_tags)};
/* evolution.v0.json */
static const person_v0 bob = {7, GSTR("Bob"), 41, true, true, GSTR("warm"), GSTR("old")};
/* evolution.v3.json */
static const person_v3 cy = {3, GSTR("Cy"), false, true, 0, GSTR("cy@example.org"), GSTR("hot")};

/* evolution.read-by-v0.json: age read through the made-optional tag, the
 * removed legacy and the transient (= removed) cache are None */
static const person_v0 ada_by_v0 = {1001, GSTR("Ada"), 36, false, false, {NULL, 0}, {NULL, 0}};
/* evolution.read-by-v3.json: email read through the made-optional tag */
static const person_v3 ada_by_v3 = {1001, GSTR("Ada"), true, false, 36, GSTR("ada@example.org"),
                                    {NULL, 0}};
/* evolution.v0.read-by-current.json: age wrapped as Some, defaults */
static const person bob_by_current = {7, GSTR("Bob"), true, true, false, 41,
                                      GSTR("unknown@example.org"), {NULL, 0}, {NULL, 0}};
/* evolution.v3.read-by-current.json: plain email as Some, tags default */
static const person cy_by_current = {3, GSTR("Cy"), false, true, false, 0,
                                     GSTR("cy@example.org"), {NULL, 0}, {NULL, 0}};

#define PERSON(file, label, model, consumed, cross) \
  {file, label, 0, sizeof(person), &model, &person_desc, NULL, NULL, person_equal, consumed, cross}
#define PERSON_V0(file, label, model, consumed, cross)                                        \
  {file,  label, 0,    sizeof(person_v0), &model, &person_v0_desc, NULL, NULL, person_v0_equal, \
   consumed, cross}
#define PERSON_V3(file, label, model, consumed, cross)                                        \
  {file,  label, 0,    sizeof(person_v3), &model, &person_v3_desc, NULL, NULL, person_v3_equal, \
   consumed, cross}

const golden_codec golden_evolution_codecs[] = {
    PERSON("evolution", "Person v6", ada, 0, false),
    PERSON_V0("evolution.v0", "Person v0", bob, 0, false),
    PERSON_V3("evolution.v3", "Person v3", cy, 0, false),
    PERSON_V0("evolution", "v6 data, v0 reader", ada_by_v0, 0, true),
    PERSON_V3("evolution", "v6 data, v3 reader", ada_by_v3, 0, true),
    /* fast path: v0's trailing cache and legacy are not read (17 of 28) */
    PERSON("evolution.v0", "v0 data, v6 reader", bob_by_current, 17, true),
    PERSON("evolution.v3", "v3 data, v6 reader", cy_by_current, 0, true),
};
const size_t golden_evolution_codec_count =
    sizeof golden_evolution_codecs / sizeof *golden_evolution_codecs;
