#!/usr/bin/env python3
"""test/scripts/zlib_inflater_diff.py — a case generator for the zlib-flavour
rule of docs/schema.md §12, played against the conformance testee.

Random sources (text, small alphabets, bytes) are compressed by Python's zlib
at a random level, then cut at a random byte, have random bits flipped or a
byte replaced, or stay intact, and are announced with the exact, a shorter or
a longer plain length. Each becomes one decode request for a root
`{"type": "compressed", "flavour": "zlib"}`. The expected answer comes from
Python's zlib, used as Inflater uses it: decompressobj().decompress(block,
plain) (zlib stops only to wait for room or input, as in Inflater's single
call), zero-padded; zlib.error -> DeserializationFailure at offset of the
stream. One rule Python's binding does not share with Inflater is applied by
hand: a header asking for a preset dictionary (FDICT) gives zeros, because
Inflater returns 0 bytes and Scala keeps its zeroed buffer.

    zlib_inflater_diff.py TESTEE [--seed S] [--count N]

Prints "zlib_inflater_diff: N cases, M mismatches" and exits 1 on a mismatch.
SPDX-License-Identifier: MIT
"""
import argparse
import json
import random
import subprocess
import sys
import zlib


def var_u32(x):
    out = bytearray()
    while x > 0x7F:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def asks_for_dictionary(data):
    if len(data) < 2:
        return False
    cmf, flg = data[0], data[1]
    return (cmf * 256 + flg) % 31 == 0 and cmf & 15 == 8 and cmf >> 4 <= 7 and flg & 0x20


def inflater(data, plain):
    """Scala's result for a block: bytes, or None for a corrupt stream."""
    if asks_for_dictionary(data):
        return bytes(plain)
    try:
        out = zlib.decompressobj().decompress(data, plain)
    except zlib.error:
        return None
    return out + bytes(plain - len(out))


WORDS = [b"alpha ", b"beta ", b"{", b"}", b"12345", b", ", b"zz", b"q"]


def make_case(rng, case_id):
    n = rng.randint(1, 3000)
    if rng.random() < 0.3:
        mask = rng.choice([0x03, 0x1F, 0xFF])
        src = bytes(rng.getrandbits(8) & mask for _ in range(n))
    else:
        src = b"".join(rng.choice(WORDS) for _ in range(n // 3 + 1))[:n]
    z = bytearray(zlib.compress(src, rng.randint(0, 9)))
    op = rng.random()
    if op < 0.3:
        z = z[: rng.randint(0, len(z))]
    elif op < 0.8:
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            p = rng.randrange(len(z))
            z[p] ^= 1 << rng.randrange(8)
    elif op < 0.9:
        z[rng.randrange(len(z))] = rng.getrandbits(8)
    plain = rng.choice([n, n, max(1, n // 2), n + rng.randint(1, 50), rng.randint(1, n)])
    head = var_u32(plain) + var_u32(len(z))
    request = {
        "id": case_id,
        "schema": {"desert_schema": 1, "root": {"type": "compressed", "flavour": "zlib"}},
        "decode": (head + bytes(z)).hex(),
    }
    want = inflater(bytes(z), plain)
    if want is None:
        expect = {"kind": "DeserializationFailure", "offset": len(head)}
    else:
        expect = {"value": want.hex(), "consumed": len(head) + len(z)}
    return request, expect


def judge(resp, expect):
    if "kind" in expect:
        err = resp.get("error", {})
        return err.get("kind") == expect["kind"] and err.get("offset") == expect["offset"]
    return resp.get("value") == expect["value"] and resp.get("consumed") == expect["consumed"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("testee")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [make_case(rng, i) for i in range(args.count)]
    lines = "".join(json.dumps(req) + "\n" for req, _ in cases)
    run = subprocess.run([args.testee], input=lines, capture_output=True, text=True, check=False)
    responses = run.stdout.splitlines()
    bad = 0
    counts = {"inflated": 0, "corrupt": 0}
    for i, (req, expect) in enumerate(cases):
        counts["corrupt" if "kind" in expect else "inflated"] += 1
        resp = json.loads(responses[i]) if i < len(responses) else {}
        if not judge(resp, expect):
            bad += 1
            if bad <= 5:
                print("MISMATCH", json.dumps(req)[:400])
                print("  got     ", (responses[i] if i < len(responses) else "<none>")[:300])
                print("  expected", json.dumps(expect)[:300])
    print(f"zlib_inflater_diff: {len(cases)} cases ({counts['inflated']} inflated, "
          f"{counts['corrupt']} corrupt), {bad} mismatches")
    sys.exit(1 if bad or run.returncode != 0 else 0)


if __name__ == "__main__":
    main()
