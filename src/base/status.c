/* src/base/status.c — names, docs/format.md §18 kinds and one-line messages of the
 * desert_status codes.
 * SPDX-License-Identifier: MIT
 *
 * One table indexed by the pinned status value, so adding a code is one
 * line and a gap (8, 9) simply has no entry. Everything is a string
 * literal: thread-safe, never NULL. */
#include "desert/common.h"

typedef struct desert_status_text {
  const char *name;
  const char *kind;
  const char *message;
} desert_status_text;

static const desert_status_text desert_status_texts[DESERT_STATUS_COUNT_] = {
    [DESERT_OK] = {"DESERT_OK", "Ok", "success"},
    [DESERT_E_ARGUMENT] = {"DESERT_E_ARGUMENT", "InvalidArgument",
                           "invalid argument (NULL pointer, bad struct_size or enum value)"},
    [DESERT_E_NOMEM] = {"DESERT_E_NOMEM", "OutOfMemory", "the allocator returned NULL"},
    [DESERT_E_DST_TOO_SMALL] = {"DESERT_E_DST_TOO_SMALL", "BufferTooSmall",
                                "the caller-owned output buffer is too small"},
    [DESERT_E_STATE] = {"DESERT_E_STATE", "InvalidState",
                        "call not valid in the context's current state"},
    [DESERT_E_ISA_UNAVAILABLE] = {"DESERT_E_ISA_UNAVAILABLE", "IsaUnavailable",
                                  "requested instruction set not compiled in or not runnable"},
    [DESERT_E_LIMIT] = {"DESERT_E_LIMIT", "DeserializationFailure",
                        "a length, count or size exceeds a configured limit"},
    [DESERT_E_DEPTH] = {"DESERT_E_DEPTH", "DeserializationFailure",
                        "nesting deeper than the configured maximum depth"},
    [DESERT_E_INPUT_ENDED] = {"DESERT_E_INPUT_ENDED", "InputEndedUnexpectedly",
                              "input ended in the middle of a value"},
    [DESERT_E_VARINT_TOO_LONG] = {"DESERT_E_VARINT_TOO_LONG", "DeserializationFailure",
                                  "var_u32 too long (continuation bit on the 5th byte)"},
    [DESERT_E_NEGATIVE_LENGTH] = {"DESERT_E_NEGATIVE_LENGTH", "DeserializationFailure",
                                  "negative length or count"},
    [DESERT_E_INVALID_TAG] = {"DESERT_E_INVALID_TAG", "DeserializationFailure",
                              "invalid option/either/try tag or stream marker"},
    [DESERT_E_INVALID_VALUE] = {"DESERT_E_INVALID_VALUE", "DeserializationFailure",
                                "value outside its domain"},
    [DESERT_E_DESERIALIZATION] = {"DESERT_E_DESERIALIZATION", "DeserializationFailure",
                                  "deserialization failure"},
    [DESERT_E_INVALID_UTF8] = {"DESERT_E_INVALID_UTF8", "FailedToDecodeString",
                               "invalid UTF-8 in a string"},
    [DESERT_E_INVALID_UTF16] = {"DESERT_E_INVALID_UTF16", "SerializationFailure",
                                "unpaired surrogate in UTF-16 text"},
    [DESERT_E_NOT_LATIN1] = {"DESERT_E_NOT_LATIN1", "SerializationFailure",
                             "code point above U+00FF cannot be converted to Latin-1"},
    [DESERT_E_INVALID_CHAR] = {"DESERT_E_INVALID_CHAR", "FailedToDecodeCharacter",
                               "character is a surrogate or above U+10FFFF"},
    [DESERT_E_UNSUPPORTED_CHAR] = {"DESERT_E_UNSUPPORTED_CHAR", "UnsupportedCharacter",
                                   "character outside the BMP in 2-byte char mode"},
    [DESERT_E_LENGTH_TOO_LARGE] = {"DESERT_E_LENGTH_TOO_LARGE", "LengthTooLarge",
                                   "length or count does not fit its wire type"},
    [DESERT_E_INVALID_STRING_ID] = {"DESERT_E_INVALID_STRING_ID", "InvalidStringId",
                                    "string back-reference to an unknown id"},
    [DESERT_E_INVALID_REF_ID] = {"DESERT_E_INVALID_REF_ID", "InvalidRefId",
                                 "object back-reference to an unknown id"},
    [DESERT_E_COMPRESSION] = {"DESERT_E_COMPRESSION", "CompressionFailure",
                              "compressing a block failed"},
    [DESERT_E_DECOMPRESSION] = {"DESERT_E_DECOMPRESSION", "DecompressionFailure",
                                "decompressing a block failed"},
    [DESERT_E_UNKNOWN_FIELD_REFERENCE] = {"DESERT_E_UNKNOWN_FIELD_REFERENCE",
                                          "UnknownFieldReferenceInEvolutionStep",
                                          "evolution step names an unknown field"},
    [DESERT_E_UNKNOWN_EVOLUTION_STEP] = {"DESERT_E_UNKNOWN_EVOLUTION_STEP",
                                         "UnknownSerializedEvolutionStep",
                                         "unknown evolution step code in a record header"},
    [DESERT_E_NONEXISTING_CHUNK] = {"DESERT_E_NONEXISTING_CHUNK", "DeserializingNonExistingChunk",
                                    "record field refers to a chunk that was not serialized"},
    [DESERT_E_FIELD_REMOVED] = {"DESERT_E_FIELD_REMOVED", "FieldRemovedInSerializedVersion",
                                "required field was removed in the serialized version"},
    [DESERT_E_FIELD_MISSING] = {"DESERT_E_FIELD_MISSING", "FieldWithoutDefaultValueIsMissing",
                                "field missing from the data and without a default value"},
    [DESERT_E_NONOPTIONAL_NONE] = {"DESERT_E_NONOPTIONAL_NONE", "NonOptionalFieldSerializedAsNone",
                                   "non-optional field was serialized as None"},
    [DESERT_E_INVALID_CONSTRUCTOR_NAME] = {"DESERT_E_INVALID_CONSTRUCTOR_NAME",
                                           "InvalidConstructorName",
                                           "value's constructor has no id"},
    [DESERT_E_INVALID_CONSTRUCTOR_ID] = {"DESERT_E_INVALID_CONSTRUCTOR_ID", "InvalidConstructorId",
                                         "unknown constructor id"},
    [DESERT_E_SERIALIZING_TRANSIENT] = {"DESERT_E_SERIALIZING_TRANSIENT",
                                        "SerializingTransientConstructor",
                                        "cannot serialize a transient constructor"},
    [DESERT_E_DESERIALIZING_TRANSIENT] = {"DESERT_E_DESERIALIZING_TRANSIENT",
                                          "DeserializingTransientConstructor",
                                          "cannot deserialize a transient constructor"},
    [DESERT_E_TYPE_NOT_REGISTERED] = {"DESERT_E_TYPE_NOT_REGISTERED", "TypeNotRegistered",
                                      "type is not registered"},
    [DESERT_E_INVALID_TYPE_ID] = {"DESERT_E_INVALID_TYPE_ID", "InvalidTypeId", "unknown type id"},
    [DESERT_E_UPCAST] = {"DESERT_E_UPCAST", "SerializationUpcastError",
                         "value cannot be cast to the registered type"},
    [DESERT_E_INVALID_TIME_ZONE] = {"DESERT_E_INVALID_TIME_ZONE", "InvalidTimeZone",
                                    "time zone cannot be resolved"},
    [DESERT_E_SERIALIZATION] = {"DESERT_E_SERIALIZATION", "SerializationFailure",
                                "serialization failure"},
    [DESERT_E_READ_INPUT] = {"DESERT_E_READ_INPUT", "FailedToReadInput",
                             "reading the input failed"},
    [DESERT_E_WRITE_OUTPUT] = {"DESERT_E_WRITE_OUTPUT", "FailedToWriteOutput",
                               "writing the output failed"},
    [DESERT_E_ZLIB_BLOCK] = {"DESERT_E_ZLIB_BLOCK", "DeserializationFailure",
                             "corrupt zlib-compressed block"},
    [DESERT_E_FIELD_ORDER] = {"DESERT_E_FIELD_ORDER", "SerializationFailure",
                              "record field started twice or after a later field"},
    [DESERT_E_FIELD_SKIPPED] = {"DESERT_E_FIELD_SKIPPED", "SerializationFailure",
                                "a record field that must be written was not started"},
    [DESERT_E_FIELD_TRANSIENT] = {"DESERT_E_FIELD_TRANSIENT", "SerializationFailure",
                                  "a transient record field was started (it is never written)"},
    [DESERT_E_FIELD_NOT_OPTIONAL] = {"DESERT_E_FIELD_NOT_OPTIONAL", "SerializationFailure",
                                     "option tag written for a record field that is not optional"},
    [DESERT_E_OPTION_TAG_MISSING] = {"DESERT_E_OPTION_TAG_MISSING", "SerializationFailure",
                                     "optional record field written without its option tag"},
};

static const desert_status_text *desert_status_lookup(desert_status s) {
  const unsigned i = (unsigned)s;
  if (i >= DESERT_STATUS_COUNT_ || desert_status_texts[i].name == NULL) return NULL;
  return &desert_status_texts[i];
}

const char *desert_status_name(desert_status s) {
  const desert_status_text *t = desert_status_lookup(s);
  return t != NULL ? t->name : "DESERT_E_UNKNOWN";
}

const char *desert_status_kind(desert_status s) {
  const desert_status_text *t = desert_status_lookup(s);
  return t != NULL ? t->kind : "Unknown";
}

const char *desert_status_message(desert_status s) {
  const desert_status_text *t = desert_status_lookup(s);
  return t != NULL ? t->message : "unknown status code";
}
