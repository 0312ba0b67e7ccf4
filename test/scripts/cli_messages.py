#!/usr/bin/env python3
"""test/scripts/cli_messages.py — the `desert` tool's messages say what
failed, where and why. Each group is one ctest (test/tools.cmake):

  cli_messages.py DESERT GOLDEN_DIR WORKDIR GROUP

  os_reason      every file error ends with the operating system's reason
  json_position  JSON syntax errors name FILE:LINE:COLUMN (schema documents,
                 values, JSON Lines, gen-c documents)
  paths          one value path form ($, $.a.b, $[N].x) in decode errors,
                 --annotate, --stream and encode errors, the root included
  input_ended    input that ends early: where it ends, what was being read
                 from which offset, bytes needed and available
  trailing       bytes after the value fail unless --allow-trailing
  force_isa      a DESERT_FORCE_ISA that names no ISA: one warning line
  options        decode -o writes its file; options of the other subcommand
                 are usage errors
  legacy         decode says when its input uses the legacy header-string
                 form, which `encode --legacy-header-strings` reproduces

The expected texts are written from the inputs built here (byte counts and
positions counted by hand in the comments), not copied from the tool.
Exit 0 when every check of the group holds.
"""
import os
import subprocess
import sys

failures = []
checks = 0


def check(name, cond, detail=""):
    global checks
    checks += 1
    if not cond:
        failures.append("%s: %s" % (name, detail))


def run(args, data=None, stdout=None, env=None):
    e = dict(os.environ)
    e.pop("DESERT_FORCE_ISA", None)
    if env:
        e.update(env)
    p = subprocess.run(args, input=data, stdout=stdout if stdout else subprocess.PIPE,
                       stderr=subprocess.PIPE, env=e)
    out = p.stdout if p.stdout is not None else b""
    return p.returncode, out, p.stderr.decode(errors="replace")


def expect(name, args, rc_want, err_want, data=None, stdout=None, env=None, exact=True):
    """Runs the tool; checks the exit code and stderr (exact text, or a prefix)."""
    rc, out, err = run(args, data, stdout, env)
    ok = rc == rc_want and (err == err_want if exact else err.startswith(err_want))
    check(name, ok, "exit %d (want %d)\n  stderr: %r\n  want:   %r" % (rc, rc_want, err, err_want))
    return out


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


# A list of records {id: i64, s: string}. Bytes (docs/format.md): a count
# as zig-zag var_i32 (2 -> 04), each record a version byte 00 then its
# fields, an i64 in 8 bytes big-endian, a string its zig-zag length (5 ->
# 0a) then UTF-8. So [{"id":5,"s":"hello"},{"id":6,"s":"x"}] is
#   04 | 00 0000000000000005 0a 68656c6c6f | 00 0000000000000006 02 78
# with element 1's version byte at offset 16, its id at 17, its string's
# length at 25 and its text at 26. The library reports a cut string at the
# offset of its text (after the length).
LIST_SCHEMA = ('{"desert_schema": 1, "root": {"type": "list", "element": {"type": "record",'
               ' "fields": [{"name": "id", "type": "i64"}, {"name": "s", "type": "string"}]}}}')


def group_os_reason(d, g, w):
    ev = os.path.join(g, "evolution.schema.json")
    missing = os.path.join(w, "missing.bin")
    adir = os.path.join(w, "adir")
    os.makedirs(adir, exist_ok=True)
    nodir = os.path.join(w, "nodir")
    expect("decode missing input", [d, "decode", "--schema", ev, missing], 3,
           "desert decode: cannot open '%s': No such file or directory\n" % missing)
    expect("decode directory input", [d, "decode", "--schema", ev, adir], 3,
           "desert decode: cannot read '%s': Is a directory\n" % adir)
    expect("encode missing schema", [d, "encode", "--schema", missing, "-"], 3,
           "desert encode: cannot open '%s': No such file or directory\n" % missing, b"1")
    lst = write(os.path.join(w, "list.schema.json"), LIST_SCHEMA)
    expect("decode --stream missing input", [d, "decode", "--schema", lst, "--stream", missing], 3,
           "desert decode: cannot open '%s': No such file or directory\n" % missing)
    expect("encode --stream missing input", [d, "encode", "--schema", lst, "--stream", missing], 3,
           "desert encode: cannot open '%s': No such file or directory\n" % missing)
    expect("gen-c missing document", [d, "gen-c", "-o", w, missing], 3,
           "desert gen-c: cannot open '%s': No such file or directory\n" % missing)
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            expect("decode to a full stdout", [d, "decode", "--schema", ev,
                                               os.path.join(g, "evolution.bin")], 3,
                   "desert decode: cannot write to standard output: No space left on device\n",
                   stdout=full)
            expect("encode to a full stdout", [d, "encode", "--schema", ev,
                                               os.path.join(g, "evolution.json")], 3,
                   "desert encode: cannot write to standard output: No space left on device\n",
                   stdout=full)
        expect("decode -o a full device", [d, "decode", "--schema", ev, "-o", "/dev/full",
                                           os.path.join(g, "evolution.bin")], 3,
               "desert decode: cannot write '/dev/full': No space left on device\n")
        expect("encode -o a full device", [d, "encode", "--schema", ev, "-o", "/dev/full",
                                           os.path.join(g, "evolution.json")], 3,
               "desert encode: cannot write '/dev/full': No space left on device\n")
    expect("encode -o in a missing folder", [d, "encode", "--schema", ev, "-o",
                                             os.path.join(nodir, "x.bin"),
                                             os.path.join(g, "evolution.json")], 3,
           "desert encode: cannot create '%s/x.bin': No such file or directory\n" % nodir)
    expect("decode -o in a missing folder", [d, "decode", "--schema", ev, "-o",
                                             os.path.join(nodir, "x.json"),
                                             os.path.join(g, "evolution.bin")], 3,
           "desert decode: cannot create '%s/x.json': No such file or directory\n" % nodir)
    expect("gen-c into a missing folder", [d, "gen-c", "-o", nodir, ev], 3,
           "desert gen-c: cannot create '%s/evolution.h': No such file or directory\n" % nodir)


def group_json_position(d, g, w):
    # Line 3 is `  "root": {"type": "i32" "x": 1}`: the second '"' of `"x"`...
    # the parser stops at the '"' of "x", the 26th character of that line.
    bad = write(os.path.join(w, "bad.schema.json"),
                '{\n  "desert_schema": 1,\n  "root": {"type": "i32" "x": 1}\n}\n')
    expect("schema document", [d, "decode", "--schema", bad, "-"], 1,
           "desert decode: %s:3:26: not JSON: expected ',' or '}'\n" % bad, b"")
    i32 = write(os.path.join(w, "i32.schema.json"), '{"desert_schema": 1, "root": "i32"}')
    # Line 2 `[1,` then line 3 `  2 3]`: the 3 is the 5th character.
    val = write(os.path.join(w, "v.json"), '\n[1,\n  2 3]\n')
    expect("value", [d, "encode", "--schema", i32, val], 1,
           "desert encode: %s:3:5: not JSON: expected ',' or ']'\n" % val)
    # Columns count characters: "é" is 2 bytes but one column, so the 2 after
    # `{"é": 1 ` is column 9 (byte 10).
    expect("column in characters", [d, "encode", "--schema", i32, "-"], 1,
           "desert encode: standard input:1:9: not JSON: expected ',' or '}'\n",
           '{"é": 1 2}'.encode())
    # "\r\n" ends a line once.
    expect("CRLF lines", [d, "encode", "--schema", i32, "-"], 1,
           "desert encode: standard input:3:1: not JSON: expected ',' or ']'\n",
           b"[1,\r\n2\r\nx]")
    lst = write(os.path.join(w, "list.schema.json"), LIST_SCHEMA)
    # Line 2 `{"id":1,"s"}`: the '}' where ':' should be is character 12.
    expect("JSON Lines", [d, "encode", "--schema", lst, "--stream", "-"], 1,
           "desert encode: standard input:2:12: not JSON: expected ':'\n",
           b'{"id":1,"s":"a"}\n{"id":1,"s"}\n')
    expect("gen-c document", [d, "gen-c", "-o", w, bad], 1,
           "desert gen-c: %s:3:26: not JSON: expected ',' or '}'\n" % bad)


def group_paths(d, g, w):
    lst = write(os.path.join(w, "list.schema.json"), LIST_SCHEMA)
    i64 = write(os.path.join(w, "i64.schema.json"), '{"desert_schema": 1, "root": "i64"}')
    # Root: 4 bytes of an i64.
    expect("decode error at the root", [d, "decode", "--schema", i64, "--hex", "-"], 1,
           "desert decode: standard input: InputEndedUnexpectedly at offset 0: $: ", b"00000000",
           exact=False)
    # Element 0's string has 2 of its 5 bytes: the failing value is $[0].s,
    # its text at offset 11.
    cut = b"04 00 0000000000000005 0a6865"
    expect("decode error in an element", [d, "decode", "--schema", lst, "--hex", "-"], 1,
           "desert decode: standard input: InputEndedUnexpectedly at offset 11: $[0].s: ", cut,
           exact=False)
    rc, out, err = run([d, "decode", "--schema", lst, "--hex", "--annotate", "-"],
                       b"04 00 0000000000000005 0a68656c6c6f 00 0000000000000006 0278")
    text = out.decode()
    check("annotate labels", rc == 0 and "$[0].id (i64)" in text and "$[1].s (string)" in text
          and "$ [list structure]" in text, text + err)
    rc, out, err = run([d, "decode", "--schema", lst, "--hex", "--annotate", "-"], cut)
    check("annotate error line", rc == 1 and "error: InputEndedUnexpectedly at $[0].s: " in
          out.decode(), out.decode() + err)
    # Element 1's string claims 5 bytes (0a) and has 1.
    raw = bytes.fromhex("04 00 0000000000000005 0a68656c6c6f 00 0000000000000006 0a78")
    expect("decode --stream error in element 1", [d, "decode", "--schema", lst, "--stream", "-"],
           1, "desert decode: standard input: InputEndedUnexpectedly at offset 26: $[1].s: ",
           raw, exact=False)
    expect("encode error at the root", [d, "encode", "--schema", i64, "-"], 1,
           "desert encode: standard input: BadValue: $: ", b'"x"', exact=False)
    expect("encode error in an element", [d, "encode", "--schema", lst, "-"], 1,
           "desert encode: standard input: BadValue: $[1].id: ",
           b'[{"id":1,"s":"a"},{"id":"x","s":"b"}]', exact=False)


def group_input_ended(d, g, w):
    i64 = write(os.path.join(w, "i64.schema.json"), '{"desert_schema": 1, "root": "i64"}')
    lst = write(os.path.join(w, "list.schema.json"), LIST_SCHEMA)
    # An i64 takes 8 bytes; 3 were given.
    expect("fixed width at the root", [d, "decode", "--schema", i64, "--hex", "-"], 1,
           "desert decode: standard input: InputEndedUnexpectedly at offset 0: $: input ends "
           "at byte 3 of 3 while reading an i64 at offset 0: it needs 8 bytes, 3 available "
           "(a file cut short, or data of another schema)\n", b"000000")
    # count 1 (02), version 00, then 4 of the 8 bytes of element 0's id
    # (offset 2).
    expect("fixed width in an element", [d, "decode", "--schema", lst, "--hex", "-"], 1,
           "desert decode: standard input: InputEndedUnexpectedly at offset 2: $[0].id: input "
           "ends at byte 6 of 6 while reading an i64 at offset 2: it needs 8 bytes, 4 available "
           "(a file cut short, or data of another schema)\n", b"02 00 00000000")
    # --stream from a file: the two-element list cut after 20 bytes leaves
    # element 1's id (offset 17) 3 of its 8 bytes.
    two = bytes.fromhex("04 00 0000000000000005 0a68656c6c6f 00 0000000000000006 0278")
    cut20 = write(os.path.join(w, "cut20.bin"), two[:20])
    expect("--stream file cut in element 1", [d, "decode", "--schema", lst, "--stream", cut20], 1,
           "desert decode: %s: InputEndedUnexpectedly at offset 17: $[1].id: input ends at byte "
           "20 of 20 while reading an i64 at offset 17: it needs 8 bytes, 3 available (a file "
           "cut short, or data of another schema)\n" % cut20)
    # A file: the first 8 bytes of golden evolution.bin stop in the record
    # header's string "legacy" (0c = length 6 at offset 7, one byte there).
    with open(os.path.join(g, "evolution.bin"), "rb") as f:
        head = f.read(8)
    cut = write(os.path.join(w, "cut.bin"), head)
    expect("record cut in its header", [d, "decode", "--schema",
                                        os.path.join(g, "evolution.schema.json"), cut], 1,
           "desert decode: %s: InputEndedUnexpectedly at offset 7: $: input ends at byte 8 of 8 "
           "while reading a part of a record at offset 7 (1 byte available from there; a file "
           "cut short, or data of another schema)\n" % cut)


def group_trailing(d, g, w):
    i32 = write(os.path.join(w, "i32.schema.json"), '{"desert_schema": 1, "root": "i32"}')
    # An i32 is 4 bytes: 6 given leave 2.
    expect("trailing refused", [d, "decode", "--schema", i32, "--hex", "-"], 1,
           "desert decode: standard input: 2 trailing bytes after the value (offset 4 of 6): "
           "the data is of another schema or holds more than one value (--allow-trailing "
           "accepts them)\n", b"00000007 0000")
    rc, out, err = run([d, "decode", "--schema", i32, "--hex", "-"], b"00000007 0000")
    check("nothing printed on failure", out == b"", out)
    rc, out, err = run([d, "decode", "--schema", i32, "--hex", "--allow-trailing", "-"],
                       b"00000007 00")
    check("--allow-trailing", rc == 0 and out == b"7\n" and err ==
          "desert decode: note: standard input: 1 trailing byte after the value (offset 4 of 5),"
          " allowed by --allow-trailing\n", "%d %r %r" % (rc, out, err))
    rc, out, err = run([d, "decode", "--schema", i32, "--hex", "--annotate", "-"], b"00000007 00")
    check("--annotate with trailing bytes", rc == 1 and "1 trailing bytes not used" in out.decode()
          and "--allow-trailing" in err, out.decode() + err)
    rc, out, err = run([d, "decode", "--help"])
    check("--help documents --allow-trailing", rc == 0 and b"--allow-trailing" in out, out)


def group_force_isa(d, g, w):
    ev = os.path.join(g, "evolution.schema.json")
    warn = ('desert: warning: DESERT_FORCE_ISA="avx-512" names no ISA (use scalar, avx2, '
            'avx512, neon or auto): automatic choice used (')
    for args, data in (([d, "decode", "--schema", ev, os.path.join(g, "evolution.bin")], None),
                       ([d, "encode", "--schema", ev, os.path.join(g, "evolution.json")], None),
                       ([d, "info"], None), ([d, "gen-c", "--help"], None)):
        rc, out, err = run(args, data, env={"DESERT_FORCE_ISA": "avx-512"})
        lines = err.splitlines()
        check("warning once: " + args[1], rc == 0 and len(lines) == 1 and lines[0].startswith(warn)
              and lines[0].endswith(")"), "%d %r" % (rc, err))
    rc, out, err = run([d, "info"], env={"DESERT_FORCE_ISA": "scalar"})
    check("no warning when applied", rc == 0 and err == "", err)
    rc, out, err = run([d, "info"])
    check("no warning when unset", rc == 0 and err == "", err)


def group_options(d, g, w):
    ev = os.path.join(g, "evolution.schema.json")
    out_json = os.path.join(w, "out.json")
    if os.path.exists(out_json):
        os.remove(out_json)
    rc, out, err = run([d, "decode", "--schema", ev, os.path.join(g, "evolution.bin"),
                        "-o", out_json])
    with open(os.path.join(g, "evolution.json"), "rb") as f:
        want = f.read()
    got = open(out_json, "rb").read() if os.path.exists(out_json) else b"(none)"
    check("decode -o writes the file", rc == 0 and out == b"" and got == want, got + err.encode())
    rc, out, err = run([d, "decode", "--help"])
    check("decode --help lists -o", rc == 0 and b"-o, --output OUT" in out, out)
    for opt in ("--legacy-header-strings", "--removed-optional-style"):
        extra = [opt] + (["scala"] if opt.startswith("--removed") else [])
        expect("decode " + opt, [d, "decode", "--schema", ev] + extra + ["-"], 2,
               "desert decode: option '%s' is not supported by 'desert decode': " % opt,
               exact=False)
    for opt in ("--lenient-tags", "--lenient-varint", "--annotate", "--allow-trailing"):
        expect("encode " + opt, [d, "encode", "--schema", ev, opt, "-"], 2,
               "desert encode: option '%s' is not supported by 'desert encode': " % opt,
               exact=False)
    expect("decode --option writer key", [d, "decode", "--schema", ev, "--option",
                                          "legacy_header_strings=true", "-"], 2,
           "desert decode: option 'legacy_header_strings=true' is not supported by 'desert "
           "decode': 'legacy_header_strings' only affects writing\n")
    expect("encode --option reader key", [d, "encode", "--schema", ev, "--option",
                                          "strict_tags=false", "-"], 2,
           "desert encode: option 'strict_tags=false' is not supported by 'desert encode': "
           "'strict_tags' only affects reading\n")
    for cmd in ("encode", "decode", "gen-c"):
        rc, out, err = run([d, cmd, "--help"])
        check(cmd + " --help cites the repository's docs", rc == 0 and b"docs/schema.md" in out
              and b"SCHEMA.md" not in out.replace(b"docs/schema.md", b"")
              and b"FORMAT.md" not in out, out)


def group_legacy(d, g, w):
    """g here is the folder of desert-scala's golden dataset (dataset1.*)."""
    s = os.path.join(g, "dataset1.schema.json")
    b = os.path.join(g, "dataset1.bin")
    rc, out, err = run([d, "decode", "--schema", s, b])
    check("decode of legacy data says so", rc == 0 and err ==
          "desert decode: note: %s has header strings in the form desert-scala <= 0.2.x wrote "
          "(docs/format.md §9.8): re-encode with `desert encode --legacy-header-strings` to get "
          "these bytes back; without it the bytes differ\n" % b, err)
    js = write(os.path.join(w, "dataset1.json"), out)
    rc, legacy, err2 = run([d, "encode", "--schema", s, js, "--legacy-header-strings"])
    with open(b, "rb") as f:
        orig = f.read()
    check("the suggested option reproduces the bytes", rc == 0 and legacy == orig, err2)
    rc, modern, err3 = run([d, "encode", "--schema", s, js])
    check("without it they differ", rc == 0 and modern != orig, err3)
    mb = write(os.path.join(w, "modern.bin"), modern)
    rc, out, err = run([d, "decode", "--schema", s, mb])
    check("no note for modern data", rc == 0 and err == "", err)


def main():
    d, g, w, group = sys.argv[1:5]
    os.makedirs(w, exist_ok=True)
    globals()["group_" + group](d, g, w)
    for f in failures:
        print("FAIL:", f)
    print("cli_messages %s: %d passed, %d failed" % (group, checks - len(failures), len(failures)))
    return 1 if failures or checks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
