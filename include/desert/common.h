/* include/desert/common.h — version, status codes, ISA names, allocator and
 * options: the vocabulary every other libdesert header uses.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_COMMON_H
#define DESERT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- export macro --------------------------------------------------------
 * The shared library is built with hidden visibility; only DESERT_API
 * symbols are exported. */
#if defined(DESERT_BUILDING_LIBRARY) && defined(__GNUC__)
#define DESERT_API __attribute__((visibility("default")))
#else
#define DESERT_API
#endif

/* ---- version ------------------------------------------------------------ */
#define DESERT_VERSION_MAJOR 0
#define DESERT_VERSION_MINOR 2
#define DESERT_VERSION_PATCH 0
#define DESERT_VERSION_NUMBER \
  (DESERT_VERSION_MAJOR * 10000 + DESERT_VERSION_MINOR * 100 + DESERT_VERSION_PATCH)
#define DESERT_VERSION_STRING "0.2.0"

/* ABI version: the soname of the shared libraries (libdesert.so.1). The
 * inline functions and the storage sizes of these headers compile struct
 * layouts and constants into the caller's program, so this number is
 * raised whenever one of them changes, independently of the release
 * version (docs/abi.md; ctest abi_layout compares them with
 * cmake/abi-layout.txt). */
#define DESERT_ABI_VERSION 1

/* Version of the library actually linked (may differ from the header's). */
DESERT_API unsigned desert_version_number(void);
DESERT_API const char *desert_version_string(void);

/* ---- status codes --------------------------------------------------------
 * Values are pinned forever; new codes are only appended. 0 is success.
 * 1..9 are API/usage errors, 10.. are the error kinds of the desert format
 * (docs/format.md §18.1). desert_status_kind() gives the §18.1 kind name a status
 * belongs to (several precise statuses map to "DeserializationFailure"). */
typedef enum desert_status {
  DESERT_OK = 0,
  /* API and resource errors */
  DESERT_E_ARGUMENT = 1,        /* NULL where not allowed, bad struct_size, bad enum */
  DESERT_E_NOMEM = 2,           /* the allocator returned NULL */
  DESERT_E_DST_TOO_SMALL = 3,   /* caller-owned output buffer is full */
  DESERT_E_STATE = 4,           /* call not valid in the context's current state */
  DESERT_E_ISA_UNAVAILABLE = 5, /* requested ISA not compiled in or not runnable */
  DESERT_E_LIMIT = 6,           /* a reader/writer limit of desert_options was exceeded */
  DESERT_E_DEPTH = 7,           /* nesting deeper than options.max_depth */
  /* InputEndedUnexpectedly */
  DESERT_E_INPUT_ENDED = 10,    /* input (or the current record chunk) ends inside an item */
  /* DeserializationFailure, split by cause */
  DESERT_E_VARINT_TOO_LONG = 11, /* continuation bit on the 5th var_u32 byte */
  DESERT_E_NEGATIVE_LENGTH = 12, /* negative string length, collection count below -1 */
  DESERT_E_INVALID_TAG = 13,     /* option/either/try tag or stream marker not 00/01 */
  DESERT_E_INVALID_VALUE = 14,   /* value out of its domain (date, NonZero, fixed length, ...) */
  DESERT_E_DESERIALIZATION = 15, /* other DeserializationFailure */
  /* String and character kinds */
  DESERT_E_INVALID_UTF8 = 16,    /* FailedToDecodeString */
  DESERT_E_INVALID_UTF16 = 17,   /* unpaired surrogate in UTF-16 input (writer, transcoders) */
  DESERT_E_NOT_LATIN1 = 18,      /* code point above U+00FF when converting to Latin-1 */
  DESERT_E_INVALID_CHAR = 19,    /* FailedToDecodeCharacter */
  DESERT_E_UNSUPPORTED_CHAR = 20,/* UnsupportedCharacter: non-BMP char in 2-byte char mode */
  DESERT_E_LENGTH_TOO_LARGE = 21,/* LengthTooLarge: length/count does not fit its wire type */
  /* Session tables */
  DESERT_E_INVALID_STRING_ID = 22, /* InvalidStringId */
  DESERT_E_INVALID_REF_ID = 23,    /* InvalidRefId */
  /* Compression */
  DESERT_E_COMPRESSION = 24,     /* CompressionFailure */
  DESERT_E_DECOMPRESSION = 25,   /* DecompressionFailure (raw flavour, zstd) */
  /* Records and evolution */
  DESERT_E_UNKNOWN_FIELD_REFERENCE = 26, /* UnknownFieldReferenceInEvolutionStep */
  DESERT_E_UNKNOWN_EVOLUTION_STEP = 27,  /* UnknownSerializedEvolutionStep */
  DESERT_E_NONEXISTING_CHUNK = 28,       /* DeserializingNonExistingChunk */
  DESERT_E_FIELD_REMOVED = 29,           /* FieldRemovedInSerializedVersion */
  DESERT_E_FIELD_MISSING = 30,           /* FieldWithoutDefaultValueIsMissing */
  DESERT_E_NONOPTIONAL_NONE = 31,        /* NonOptionalFieldSerializedAsNone */
  /* Enums and registry */
  DESERT_E_INVALID_CONSTRUCTOR_NAME = 32, /* InvalidConstructorName */
  DESERT_E_INVALID_CONSTRUCTOR_ID = 33,   /* InvalidConstructorId */
  DESERT_E_SERIALIZING_TRANSIENT = 34,    /* SerializingTransientConstructor */
  DESERT_E_DESERIALIZING_TRANSIENT = 35,  /* DeserializingTransientConstructor */
  DESERT_E_TYPE_NOT_REGISTERED = 36,      /* TypeNotRegistered */
  DESERT_E_INVALID_TYPE_ID = 37,          /* InvalidTypeId */
  DESERT_E_UPCAST = 38,                   /* SerializationUpcastError */
  /* Remaining kinds of docs/format.md §18 */
  DESERT_E_INVALID_TIME_ZONE = 39,  /* InvalidTimeZone */
  DESERT_E_SERIALIZATION = 40,      /* SerializationFailure */
  DESERT_E_READ_INPUT = 41,         /* FailedToReadInput */
  DESERT_E_WRITE_OUTPUT = 42,       /* FailedToWriteOutput */
  DESERT_E_ZLIB_BLOCK = 43,         /* corrupt Scala (zlib) compressed block: a DeserializationFailure */
  /* Record writer misuse: the calls do not match the record's description
   * (SerializationFailure; desert_record_error_message names the record
   * and the field) */
  DESERT_E_FIELD_ORDER = 44,         /* field started twice or after a later field */
  DESERT_E_FIELD_SKIPPED = 45,       /* a field that must be written was not (skipped, or
                                      * the record ended first) */
  DESERT_E_FIELD_TRANSIENT = 46,     /* a transient field started (it has no bytes) */
  DESERT_E_FIELD_NOT_OPTIONAL = 47,  /* option tag call for a field that is not optional */
  DESERT_E_OPTION_TAG_MISSING = 48,  /* optional field's bytes do not start with its tag */
  DESERT_STATUS_COUNT_ = 49          /* one past the last code; not a status */
} desert_status;

/* Symbolic name, e.g. "DESERT_E_INPUT_ENDED". Never NULL ("DESERT_E_UNKNOWN"
 * for values that are not statuses). Thread-safe. */
DESERT_API const char *desert_status_name(desert_status s);
/* docs/format.md §18 kind the status belongs to, e.g. "InputEndedUnexpectedly",
 * "DeserializationFailure"; "Ok" for DESERT_OK; API errors map to their own
 * names ("InvalidArgument", "OutOfMemory", ...). Never NULL. Thread-safe. */
DESERT_API const char *desert_status_kind(desert_status s);
/* One-line human description. Never NULL. Thread-safe. */
DESERT_API const char *desert_status_message(desert_status s);

/* ---- instruction sets ---------------------------------------------------- */
typedef enum desert_isa {
  DESERT_ISA_AUTO = 0,   /* the process default (DESERT_FORCE_ISA + CPU detection) */
  DESERT_ISA_SCALAR = 1,
  DESERT_ISA_AVX2 = 2,
  DESERT_ISA_AVX512 = 3,
  DESERT_ISA_NEON = 4,   /* native on AArch64; SIMDe emulation on x86 (tests only) */
  DESERT_ISA_COUNT_ = 5
} desert_isa;

/* ---- allocator -----------------------------------------------------------
 * All fields NULL means malloc/free. alloc returns NULL on failure; free
 * accepts NULL. Sizes passed to free are the sizes given to alloc. */
typedef struct desert_allocator {
  void *(*alloc)(void *opaque, size_t size);
  void (*free)(void *opaque, void *ptr, size_t size);
  void *opaque;
} desert_allocator;

/* ---- options ------------------------------------------------------------- */

/* Flag bits of desert_options.flags; 0 = every default. */
enum {
  /* char values take the 2-byte UTF-16 form (Scala; Rust scala_compatible)
   * instead of var_u32 (Rust default). docs/format.md §4. */
  DESERT_OPT_SCALA_CHARS = 1u << 0,
  /* Reader: invalid UTF-8 is replaced by U+FFFD (Scala/Java) instead of
   * failing with DESERT_E_INVALID_UTF8. Writer: an unpaired surrogate in
   * UTF-16 input is written as '?' (Java) instead of failing. */
  DESERT_OPT_LENIENT_UTF8 = 1u << 1,
  /* Reader: any non-zero option/either/try tag or stream marker means 01
   * (Scala) instead of failing with DESERT_E_INVALID_TAG (Rust). */
  DESERT_OPT_LENIENT_TAGS = 1u << 2,
  /* Reader: a var_u32 stops after its 5th byte whatever its continuation bit
   * (Scala) instead of failing with DESERT_E_VARINT_TOO_LONG (Rust). */
  DESERT_OPT_LENIENT_VARINT = 1u << 3,
  /* Writer: Scala <= 0.2.x header string scoping (docs/format.md §9.8); needed to
   * re-encode the golden dataset byte-identically. */
  DESERT_OPT_LEGACY_HEADER_STRINGS = 1u << 4,
  /* Writer: FieldMadeOptional of a removed field is written as 01 80 (Scala)
   * instead of a FieldRemoved entry (Rust). docs/format.md §9.5. */
  DESERT_OPT_SCALA_REMOVED_OPTIONAL = 1u << 5
};

/* Flavour of compressed byte blocks (docs/format.md §16). The two are mutually
 * unreadable, so readers must be told which one to expect. */
typedef enum desert_compression {
  DESERT_COMPRESSION_RAW = 0,  /* desert-rust: raw DEFLATE, both lengths always */
  DESERT_COMPRESSION_ZLIB = 1  /* desert-scala: zlib-wrapped, empty block = 00 */
} desert_compression;

/* Defaults used when a limit field is 0. */
#define DESERT_DEFAULT_MAX_LENGTH ((size_t)1 << 31)        /* bytes of one string/block */
#define DESERT_DEFAULT_MAX_COLLECTION ((size_t)1 << 31)    /* elements of one collection */
#define DESERT_DEFAULT_MAX_DEPTH 128u                      /* nesting of records/values */
#define DESERT_DEFAULT_MAX_DECOMPRESSED ((size_t)64 << 20) /* bytes of one inflated block */

/* Options for writers and readers. Always initialise with
 * desert_options_init(): struct_size lets the struct grow without breaking
 * callers compiled against an older header. */
typedef struct desert_options {
  size_t struct_size;          /* = sizeof(desert_options) */
  desert_allocator allocator;  /* all NULL: malloc/free */
  desert_isa isa;              /* DESERT_ISA_AUTO: process default */
  unsigned flags;              /* DESERT_OPT_* bits */
  desert_compression compression; /* default flavour of compressed blocks */
  int compression_level;       /* level used when a call passes -1 (-1 here: flavour
                                * default raw 6, zlib 1, zstd 3; DEFLATE clamps to 12) */
  size_t max_length;           /* reader: longest string/byte block (0: default) */
  size_t max_collection;       /* reader: most elements in one collection (0: default) */
  unsigned max_depth;          /* reader and writer: deepest nesting (0: default) */
  size_t max_decompressed;     /* reader: largest inflated block (0: default) */
} desert_options;

/* Fills *o with the defaults (struct_size set, everything else 0 / AUTO /
 * RAW / -1). Never fails for non-NULL o. */
DESERT_API void desert_options_init(desert_options *o);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_COMMON_H */
