#!/usr/bin/env python3
# src/x86/gen_tables.py — generates src/x86/tables_avx2.c, the constant
# shuffle/lookup tables of the x86 kernels (pure data, ISA independent).
# SPDX-License-Identifier: MIT
#
# Usage: python3 src/x86/gen_tables.py > src/x86/tables_avx2.c
# The output is deterministic; regenerate and diff to check it. Nothing in
# the build runs this script: the generated file is committed.
#
# Tables (see the users for how they are indexed):
#  desert_x86_vbyte_lookup/shuffle  MaskedVByte decode plans (varint_avx2.c)
#  desert_x86_pack16                left-pack of 16-bit lanes (varint, UTF-8 -> UTF-16)
#  desert_x86_pack8                 left-pack of bytes (UTF-8 -> Latin-1)
#  desert_x86_utf8_pack12           1/2-byte UTF-8 packing (UTF-16/Latin-1 -> UTF-8)
#  desert_x86_pack_dw/_len          1..4-byte packing of dword lanes (UTF-16 -> UTF-8, varint encode)

import itertools

Z = 0x80  # pshufb index with the top bit set: the output byte is zero

out = []


def emit_bytes_table(name, rows, width, align, comment):
    out.append("/* %s */" % comment)
    out.append("_Alignas(%d) const uint8_t %s[%d][%d] = {" % (align, name, len(rows), width))
    for r in rows:
        assert len(r) == width
        out.append("    {" + ", ".join("0x%02x" % b for b in r) + "},")
    out.append("};")
    out.append("")


def emit_flat(name, ctype, vals, per_line, comment, fmt="0x%04x"):
    out.append("/* %s */" % comment)
    out.append("const %s %s[%d] = {" % (ctype, name, len(vals)))
    for k in range(0, len(vals), per_line):
        out.append("    " + ", ".join(fmt % v for v in vals[k:k + per_line]) + ",")
    out.append("};")
    out.append("")


# ---- MaskedVByte (Plaisance, Kurz & Lemire 2015) decode plans -------------
# Index: the 12 low bits of the continuation-bit mask of 16 bytes that start
# at a value boundary (bit k = byte k has its top bit set). A plan decodes:
#   A (index 0..63):    6 values of 1..2 bytes into 16-bit lanes
#   B (index 64..144):  4 values of 1..3 bytes into 32-bit lanes
#   C (index 145..169): 2 values of 1..5 bytes into 64-bit lanes
#   none (0xff):        anything else (a value longer than 5 bytes, or one
#                       not ending in the 12-byte window): the caller decodes
#                       one value with the scalar kernel, which also reports
#                       DESERT_E_VARINT_TOO_LONG exactly.
# Entry: low byte = plan index, high byte = bytes consumed by the plan.
plans = []  # (kind, lengths)
for ls in itertools.product((1, 2), repeat=6):
    plans.append(("A", ls))
for ls in itertools.product((1, 2, 3), repeat=4):
    plans.append(("B", ls))
for ls in itertools.product((1, 2, 3, 4, 5), repeat=2):
    plans.append(("C", ls))
assert len(plans) == 170
plan_index = {p: k for k, p in enumerate(plans)}


def lengths_in_window(mask):
    """Lengths of the complete values of the 12-byte window, stopping at a
    value that does not end in the window or is longer than 5 bytes."""
    ls = []
    pos = 0
    while pos < 12:
        l = 1
        while pos + l - 1 < 12 and (mask >> (pos + l - 1)) & 1:
            l += 1
        if pos + l - 1 >= 12 or l > 5:
            break
        ls.append(l)
        pos += l
    return ls


lookup = []
for m in range(4096):
    ls = lengths_in_window(m)
    entry = 0x00FF
    if len(ls) >= 6 and max(ls[:6]) <= 2:
        p = ("A", tuple(ls[:6]))
    elif len(ls) >= 4 and max(ls[:4]) <= 3:
        p = ("B", tuple(ls[:4]))
    elif len(ls) >= 2:
        p = ("C", tuple(ls[:2]))
    else:
        p = None
    if p is not None:
        entry = plan_index[p] | (sum(p[1]) << 8)
    lookup.append(entry)

shuffles = []
for kind, ls in plans:
    lane = {"A": 2, "B": 4, "C": 8}[kind]
    row = [Z] * 16
    pos = 0
    for k, l in enumerate(ls):
        for j in range(l):
            row[k * lane + j] = pos + j
        pos += l
    shuffles.append(row)

emit_flat("desert_x86_vbyte_lookup", "uint16_t", lookup, 12,
          "MaskedVByte plans by 12-bit continuation mask: plan | consumed << 8 "
          "(plan 0xff: decode one value with the scalar kernel)")
emit_bytes_table("desert_x86_vbyte_shuffle", shuffles, 16, 16,
                 "MaskedVByte shuffles: 0..63 six values of 1-2 bytes in 16-bit lanes, "
                 "64..144 four of 1-3 bytes in 32-bit lanes, 145..169 two of 1-5 bytes "
                 "in 64-bit lanes")

# ---- left-pack of the 16-bit lanes whose mask bit is set ------------------
rows = []
for m in range(256):
    row = []
    for k in range(8):
        if (m >> k) & 1:
            row += [2 * k, 2 * k + 1]
    row += [Z] * (16 - len(row))
    rows.append(row)
emit_bytes_table("desert_x86_pack16", rows, 16, 64,
                 "pshufb control keeping the 16-bit lanes k with bit k of the index set, "
                 "packed to the front (rest zero)")

# ---- left-pack of the bytes whose mask bit is set -------------------------
rows = []
for m in range(256):
    row = [k for k in range(8) if (m >> k) & 1]
    row += [Z] * (8 - len(row))
    rows.append(row)
emit_bytes_table("desert_x86_pack8", rows, 8, 64,
                 "pshufb control (8 bytes) keeping the bytes k with bit k of the index "
                 "set, packed to the front (rest zero)")

# ---- 1/2-byte UTF-8 packing -----------------------------------------------
# Eight 16-bit lanes hold [lead, continuation]; bit k of the index says that
# lane k is a single byte (ASCII): its second byte is dropped.
rows = []
for m in range(256):
    row = []
    for k in range(8):
        row.append(2 * k)
        if not (m >> k) & 1:
            row.append(2 * k + 1)
    row += [Z] * (16 - len(row))
    rows.append(row)
emit_bytes_table("desert_x86_utf8_pack12", rows, 16, 64,
                 "pshufb control packing eight 1- or 2-byte sequences held in 16-bit "
                 "lanes; bit k set = lane k is one byte (output length 16 - popcount)")

# ---- 1..4-byte packing of dword lanes -------------------------------------
# Four 32-bit lanes; lane k contributes its first l_k bytes, where
# l_k - 1 = bit k of the index (value 1) + bit k+4 of the index (value 2).
rows = []
lens = []
for m in range(256):
    row = []
    for k in range(4):
        l = 1 + ((m >> k) & 1) + 2 * ((m >> (k + 4)) & 1)
        row += [4 * k + j for j in range(l)]
    lens.append(len(row))
    row += [Z] * (16 - len(row))
    rows.append(row)
emit_bytes_table("desert_x86_pack_dw", rows, 16, 64,
                 "pshufb control packing four dword lanes of l_k = 1 + bit k + 2 * bit "
                 "(k+4) bytes each")
emit_flat("desert_x86_pack_dw_len", "uint8_t", lens, 16,
          "total length of the desert_x86_pack_dw packing", fmt="%2d")

print("/* src/x86/tables_avx2.c — constant tables of the x86 kernels.")
print(" * GENERATED by src/x86/gen_tables.py; do not edit. Regenerate with")
print(" *   python3 src/x86/gen_tables.py > src/x86/tables_avx2.c")
print(" * Pure data (no code), compiled with the AVX2 folder; shared with the")
print(" * AVX-512 kernels. Declared in src/x86/tables_x86.h.")
print(" * SPDX-License-Identifier: MIT */")
print('#include "x86/tables_x86.h"')
print()
print("/* clang-format off */")
print("\n".join(out).rstrip())
print("/* clang-format on */")
