/* src/values/values_net.c — Rust-only network values of docs/format.md §13.5–§13.6:
 * std::net::IpAddr, mac_address::MacAddress and url::Url.
 * SPDX-License-Identifier: MIT
 *
 * IpAddr: 00 + 4 bytes or 01 + 16 bytes; another first byte is
 * DESERT_E_INVALID_CONSTRUCTOR_ID at that byte. MacAddress: 6 raw bytes.
 * Url: its text as a String; the text must start with a scheme
 * (ALPHA *(ALPHA / DIGIT / "+" / "-" / ".") ":", RFC 3986 §3.1), checked by
 * writers (DESERT_E_ARGUMENT) and readers (DESERT_E_INVALID_VALUE at the
 * string's length varint, after the string itself was read). */
#include "desert/values.h"
#include "core/reader_internal.h"
#include "core/writer_internal.h"

desert_status desert_write_ip_addr(desert_writer *w, const desert_ip_addr *v) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (!v) return desert_w_fail(w, DESERT_E_ARGUMENT);
  size_t n = v->is_v6 ? 16 : 4;
  uint8_t *p = desert_w_reserve(w, 1 + n);
  if (!p) return w->status;
  p[0] = v->is_v6 ? 0x01 : 0x00;
  memcpy(p + 1, v->bytes, n);
  desert_w_commit(w, 1 + n);
  return DESERT_OK;
}

desert_status desert_read_ip_addr(desert_reader *r, desert_ip_addr *out) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!out) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t at = r->pos;
  const uint8_t *t = desert_r_take(r, 1);
  if (!t) return r->status;
  if (*t > 1u) return desert_r_fail(r, DESERT_E_INVALID_CONSTRUCTOR_ID, at);
  bool v6 = *t == 1u;
  size_t n = v6 ? 16 : 4;
  const uint8_t *p = desert_r_take(r, n);
  if (!p) return r->status;
  memset(out->bytes, 0, sizeof out->bytes);
  memcpy(out->bytes, p, n);
  out->is_v6 = v6;
  return DESERT_OK;
}

desert_status desert_write_mac_address(desert_writer *w, const uint8_t mac[6]) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (!mac) return desert_w_fail(w, DESERT_E_ARGUMENT);
  return desert_w_append(w, mac, 6);
}

desert_status desert_read_mac_address(desert_reader *r, uint8_t mac[6]) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!mac) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  const uint8_t *p = desert_r_take(r, 6);
  if (!p) return r->status;
  memcpy(mac, p, 6);
  return DESERT_OK;
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static bool has_scheme(const char *s, size_t len) {
  if (len == 0 || !is_alpha(s[0])) return false;
  for (size_t i = 1; i < len; i++) {
    char c = s[i];
    if (c == ':') return true;
    if (!is_alpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return false;
  }
  return false;
}

desert_status desert_write_url(desert_writer *w, const char *text, size_t len) {
  if (!w) return DESERT_E_ARGUMENT;
  if (w->status) return w->status;
  desert_w_live(w);
  if (!text || !has_scheme(text, len)) return desert_w_fail(w, DESERT_E_ARGUMENT);
  return desert_write_string(w, text, len); /* validates UTF-8 before writing */
}

desert_status desert_read_url(desert_reader *r, desert_str *text) {
  if (!r) return DESERT_E_ARGUMENT;
  if (r->status) return r->status;
  if (!text) return desert_r_fail(r, DESERT_E_ARGUMENT, r->pos);
  size_t at = r->pos;
  desert_str s;
  if (desert_read_string(r, &s)) return r->status;
  if (!has_scheme(s.ptr, s.len)) return desert_r_fail(r, DESERT_E_INVALID_VALUE, at);
  *text = s;
  return DESERT_OK;
}
