/* include/desert.h — umbrella header of libdesert: includes every public
 * layer header. Include this, or only the layer headers you use.
 * SPDX-License-Identifier: MIT
 *
 * Layers, bottom up (a header only includes the ones before it):
 *   desert/common.h   version, status codes, ISA names, allocator, options
 *   desert/kernels.h  run-time ISA dispatch info; stateless bulk primitives
 *                     (big-endian arrays, varint runs, UTF-8/UTF-16/Latin-1)
 *   desert/writer.h   serialization context (primitives of docs/format.md §2–§8)
 *   desert/reader.h   deserialization context (bounds-checked cursor)
 *   desert/values.h   composite values (options, either, collections, ...)
 *   desert/record.h   records and enums with schema evolution, registry framing
 *   desert/types.h    run-time type descriptors, dynamic values, generic codec
 *   desert/stream.h   streaming sources/sinks for readers and writers
 * The JSON layer (target desert::json, src/json/) has its own header and is
 * not included here, so the core needs no JSON library. */
#ifndef DESERT_H
#define DESERT_H

#include "desert/common.h"
#include "desert/kernels.h"
#include "desert/writer.h"
#include "desert/reader.h"
#include "desert/values.h"
#include "desert/record.h"
#include "desert/types.h"
#include "desert/stream.h"

#endif /* DESERT_H */
