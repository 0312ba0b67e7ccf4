/* test/support/inflater_model.c — the Inflater rule of docs/schema.md §12 as a
 * test model. Scala allocates `plain` bytes, gives Inflater the whole block
 * and calls inflate() once; Inflater wraps zlib's inflate(). The reader
 * under test calls zlib with all the input and hands output room over in
 * growing pieces; this model does the opposite -- all the room at once,
 * the input one byte at a time -- so a reader that stopped too early, read
 * too far or confused "needs more input" with "needs more room" disagrees
 * with it. The one-call result is reproduced by feeding bytes while zlib
 * takes them: zlib stops taking input only when it must write a byte and
 * has no room, which is exactly where the single call would return.
 * SPDX-License-Identifier: MIT */
#include "inflater_model.h"

#define ZLIB_CONST /* z_stream.next_in is const */
#include <string.h>
#include <zlib.h>

model_verdict model_java_inflate(const uint8_t *stream, size_t csize, uint8_t *out, size_t plain) {
  if (plain) memset(out, 0, plain);
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit(&zs) != Z_OK) return MODEL_NOMEM;
  uint8_t no_room; /* zlib wants a non-NULL next_out even for 0 bytes */
  zs.next_out = plain ? out : &no_room;
  zs.avail_out = (uInt)plain;
  model_verdict v = MODEL_OK;
  size_t fed = 0;
  for (;;) {
    if (zs.avail_in == 0) {
      if (fed == csize) break; /* the block ended: incomplete is not corrupt */
      zs.next_in = stream + fed++;
      zs.avail_in = 1;
    }
    int zr = inflate(&zs, Z_NO_FLUSH);
    if (zr == Z_STREAM_END || zr == Z_NEED_DICT) break; /* done / Inflater.needsDictionary() */
    if (zr == Z_MEM_ERROR) {
      v = MODEL_NOMEM;
      break;
    }
    if (zr != Z_OK && zr != Z_BUF_ERROR) {
      v = MODEL_CORRUPT;
      break;
    }
    if (zs.avail_in == 1 && zs.avail_out == 0) break; /* must write, no room left */
  }
  inflateEnd(&zs);
  return v;
}
