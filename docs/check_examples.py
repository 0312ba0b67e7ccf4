#!/usr/bin/env python3
"""docs/check_examples.py — runs every checkable example of docs/*.md through
the `desert` tool, so the byte and JSON examples of the user documentation
cannot drift from what libdesert really does.

usage: python3 docs/check_examples.py path/to/desert [docs/*.md ...]

Three kinds of examples are checked (everything else in the documents is
prose):

1. Example blocks: a fenced block whose first line starts with `schema:`.
   Lines are `key: text`; a line starting with whitespace continues the
   previous key. Keys:
     schema:    a schema document (JSON)
     value:     a JSON value
     bytes:     hex (spaces, `|` and newlines are ignored)
     canonical: the decoder's output when it differs from `value`
     input:     hex bytes to decode (decode-only example)
     consumed:  how many input bytes the value used (default: all)
     error:     `Kind` (encode) or `Kind at offset N` (decode)
   schema+value+bytes: encoding `value` gives `bytes`, and decoding `bytes`
   gives `canonical` (or `value`) using every byte.
   schema+input+value: decoding gives `value` (and `consumed`).
   schema+value+error / schema+input+error: the command fails with that kind.
2. Tables after `<!-- check-table SCHEMA -->` (SCHEMA is one line of JSON):
   every row's `value` column (JSON, backticks removed) encodes to its
   `bytes` column (hex in backticks) and decodes back.
3. Named blocks: a fenced block right after `<!-- check NAME ROLE -->`,
   ROLE one of the keys above; blocks of the same NAME form one example.
   In a `bytes` or `input` block each line is hex pairs, optionally followed
   by two or more spaces and a comment.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

KEYS = ("schema", "value", "bytes", "canonical", "input", "consumed", "error")


def hexclean(s):
    h = re.sub(r"[\s|`]", "", s)
    if len(h) % 2 or re.search(r"[^0-9a-fA-F]", h):
        raise ValueError("bad hex: %r" % s)
    return h.lower()


def run(tool, args, stdin):
    p = subprocess.run([tool] + args, input=stdin.encode(), capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


class Checker:
    def __init__(self, tool):
        self.tool = tool
        self.ok = 0
        self.failures = []
        self.tmp = tempfile.mkdtemp(prefix="desert-docs-")

    def fail(self, where, msg):
        self.failures.append("%s: %s" % (where, msg))

    def schema_file(self, text):
        path = os.path.join(self.tmp, "schema.json")
        json.loads(text)  # must be valid JSON
        with open(path, "w") as f:
            f.write(text)
        return path

    def check(self, where, ex):
        try:
            self._check(where, ex)
        except (ValueError, KeyError) as e:
            self.fail(where, "malformed example: %s" % e)

    def _check(self, where, ex):
        if "schema" not in ex:
            raise ValueError("no schema")
        sch = self.schema_file(ex["schema"])
        if "value" in ex and "input" not in ex:
            rc, out, err = run(self.tool, ["encode", "--schema", sch, "--hex"], ex["value"])
            if "error" in ex:
                kind = ex["error"].split()[0]
                if rc == 0 or (": %s:" % kind) not in err:
                    self.fail(where, "expected encode error %s, got rc %d %s%s" % (kind, rc, out, err))
                    return
                self.ok += 1
                return
            if rc != 0:
                self.fail(where, "encode failed: %s" % err.strip())
                return
            want = hexclean(ex["bytes"])
            if out.strip() != want:
                self.fail(where, "encode gave %s, document says %s" % (out.strip(), want))
                return
            self.decode(where, sch, want, ex.get("canonical", ex["value"]), None)
        elif "input" in ex:
            data = hexclean(ex["input"])
            if "error" in ex:
                rc, out, err = run(self.tool, ["decode", "--schema", sch, "--hex"], data)
                m = re.match(r"(\w+) at offset (\d+)", ex["error"])
                if not m:
                    raise ValueError("decode error needs 'Kind at offset N'")
                want = "%s at offset %s:" % (m.group(1), m.group(2))
                if rc == 0 or want not in err:
                    self.fail(where, "expected %s, got rc %d %s%s" % (want, rc, out, err.strip()))
                    return
                self.ok += 1
                return
            consumed = int(ex["consumed"]) if "consumed" in ex else None
            self.decode(where, sch, data, ex.get("canonical", ex["value"]), consumed)
        else:
            raise ValueError("needs value or input")

    def decode(self, where, sch, data, value_text, consumed):
        args = ["decode", "--schema", sch, "--hex"]
        if consumed is not None:
            args.append("--allow-trailing")  # bytes left over are the example's point
        rc, out, err = run(self.tool, args, data)
        if rc != 0:
            self.fail(where, "decode failed: %s" % err.strip())
            return
        want = json.dumps(json.loads(value_text), separators=(",", ":"), ensure_ascii=False)
        # Compare the canonical text itself (keys in order, float text exact).
        got = out.rstrip("\n")
        if got != want and not same_json_text(got, value_text):
            self.fail(where, "decode gave %s, document says %s" % (got, value_text.strip()))
            return
        total = len(data) // 2
        m = re.search(r"(\d+) trailing bytes? after the value \(offset (\d+)", err)
        used = int(m.group(2)) if m else total
        if (consumed if consumed is not None else total) != used:
            self.fail(where, "decode used %d of %d bytes, document says %s" %
                      (used, total, consumed if consumed is not None else total))
            return
        self.ok += 1


def same_json_text(got, doc):
    """The document's JSON may have spaces; compare without whitespace outside strings."""
    out, in_str, esc = [], False, False
    for ch in doc.strip():
        if in_str:
            out.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            out.append(ch)
        elif not ch.isspace():
            out.append(ch)
    return "".join(out) == got


def parse_block(lines):
    ex, key = {}, None
    for ln in lines:
        m = re.match(r"^(%s):\s?(.*)$" % "|".join(KEYS), ln)
        if m:
            key = m.group(1)
            ex[key] = m.group(2).strip()
        elif key and (ln.startswith(" ") or ln.startswith("\t")):
            ex[key] += "\n" + ln
        elif ln.strip():
            raise ValueError("unexpected line %r" % ln)
    return ex


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def check_file(ck, path):
    lines = open(path, encoding="utf-8").read().split("\n")
    named = {}
    i = 0
    while i < len(lines):
        ln = lines[i]
        m_tab = re.match(r"^<!-- check-table (.*) -->\s*$", ln)
        m_named = re.match(r"^<!-- check (\S+) (\w+) -->\s*$", ln)
        if m_tab:
            schema = m_tab.group(1)
            j = i + 1
            while j < len(lines) and not lines[j].startswith("|"):
                j += 1
            head = cells(lines[j])
            vcol, bcol = head.index("value"), head.index("bytes")
            j += 2
            while j < len(lines) and lines[j].startswith("|"):
                c = cells(lines[j])
                ck.check("%s:%d" % (path, j + 1),
                         {"schema": schema, "value": c[vcol].strip("`"), "bytes": c[bcol]})
                j += 1
            i = j
            continue
        if m_named:
            name, role = m_named.group(1), m_named.group(2)
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            k = j + 1
            while not lines[k].startswith("```"):
                k += 1
            body = lines[j + 1:k]
            if role in ("bytes", "input"):
                # A listing: hex pairs, then (after two spaces) a comment.
                body = [re.split(r"\s{2,}", b.strip())[0] for b in body]
            named.setdefault(name, ("%s:%d" % (path, i + 1), {}))[1][role] = "\n".join(body)
            i = k + 1
            continue
        if ln.startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("schema:"):
            k = i + 1
            while not lines[k].startswith("```"):
                k += 1
            try:
                ex = parse_block(lines[i + 1:k])
            except ValueError as e:
                ck.fail("%s:%d" % (path, i + 1), str(e))
            else:
                ck.check("%s:%d" % (path, i + 1), ex)
            i = k + 1
            continue
        i += 1
    for name, (where, ex) in named.items():
        ck.check("%s (%s)" % (where, name), ex)


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    ck = Checker(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    files = sys.argv[2:] or [os.path.join(here, f) for f in sorted(os.listdir(here)) if f.endswith(".md")]
    for f in files:
        check_file(ck, f)
    for msg in ck.failures:
        print("FAIL " + msg)
    print("docs examples: %d passed, %d failed" % (ck.ok, len(ck.failures)))
    return 1 if ck.failures else 0


if __name__ == "__main__":
    sys.exit(main())
