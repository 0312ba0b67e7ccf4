/* src/core/oneshot.c — desert_encode and desert_decode: one value into a
 * caller's buffer, one value out of one, on a context in storage on this
 * function's stack (no context allocation; see desert_writer_init).
 * SPDX-License-Identifier: MIT */
#include "desert/reader.h"
#include "desert/writer.h"

desert_status desert_encode(const desert_options *opt, desert_encode_fn write, const void *value,
                            void *buf, size_t cap, size_t *len) {
  if (len) *len = 0;
  if (!write) return DESERT_E_ARGUMENT;
  desert_writer_storage ws;
  desert_writer *w;
  desert_status st = desert_writer_init(&ws, sizeof ws, opt, &w);
  if (st) return st;
  if (buf)
    st = desert_writer_use_buffer(w, buf, cap);
  else
    desert_writer_count_only(w);
  if (!st) {
    desert_status ret = write(w, value);
    st = desert_writer_status(w);
    if (!st) st = ret;
  }
  if (len) *len = desert_writer_size(w);
  desert_writer_free(w);
  return st;
}

desert_status desert_decode(const desert_options *opt, desert_decode_fn read, void *out,
                            const void *data, size_t len, size_t *offset) {
  if (offset) *offset = 0;
  if (!read) return DESERT_E_ARGUMENT;
  desert_reader_storage rs;
  desert_reader *r;
  desert_status st = desert_reader_init(&rs, sizeof rs, opt, &r);
  if (st) return st;
  st = desert_reader_begin(r, data, len);
  if (!st) {
    desert_status ret = read(r, out);
    st = desert_reader_status(r);
    if (offset) *offset = st ? desert_reader_error_offset(r) : desert_reader_offset(r);
    if (!st) st = ret;
  }
  desert_reader_free(r);
  return st;
}
