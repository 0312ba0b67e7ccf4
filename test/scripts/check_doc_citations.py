#!/usr/bin/env python3
"""test/scripts/check_doc_citations.py — every section that a comment, a help
text or a document cites in docs/format.md or docs/schema.md exists there.

Comments and help texts point readers at numbered sections ("docs/format.md
§9.5", "docs/schema.md §11.2–§11.8, §12"). A renumbering of the documents
would silently leave those pointers dangling, and a clone or an install only
has these two documents, so this check also fails on any citation of the
reference documents they replaced (FORMAT.md, F§n, SCHEMA.md §x.y / part N;
docs/spec-sections.md maps those numbers to the new ones).

What counts as a citation: "format.md" or "schema.md" (with or without
"docs/") followed by a chain of § numbers joined by ",", "and", "or", "/" or
a range dash, possibly across a comment line break. Every number of the
chain, range ends included, must be the number of a heading ("## 9." or
"### 9.5 ...") of the cited document. Bare "§n" without a document name is
not checked: standards (RFC 1951 §3.2.4, Unicode §3.9) are cited that way.

  check_doc_citations.py [--root DIR] [--desert PATH]   scan the tree
      (include/ src/ tools/ test/ bench/ examples/ cmake/ scripts/ golden/
      docs/); with --desert, also the output of `desert --help` and of
      `desert <cmd> --help` for every command that lists.
  check_doc_citations.py --selftest                     the checker's own cases

Prints one line per problem, then "doc citations: N checked, M bad"; exits 1
on any problem or when no citation was found at all (a broken scan must not
pass).
"""
import argparse
import os
import re
import subprocess
import sys

SCAN_DIRS = ("include", "src", "tools", "test", "bench", "examples", "cmake", "scripts",
             "golden", "docs")
SCAN_EXT = (".c", ".h", ".cc", ".cpp", ".py", ".sh", ".cmake", ".md", ".txt", ".proto",
            ".jsonl", ".in")
# Files that name the old documents on purpose: the mapping table, the
# docs index describing it, and the CLI test asserting that help texts do
# not name them.
OLD_NAMES_ALLOWED = {"docs/spec-sections.md", "docs/README.md", "test/scripts/cli_messages.py"}
# This checker's own selftest cases cite missing sections on purpose.
SELF = "test/scripts/check_doc_citations.py"
# Generated benchmark reports are records of past runs, not documentation.
SKIP_PREFIXES = ("bench/results/",)

SEC = r"\d+(?:\.\d+)*"
BREAK = r"(?:\n[ \t]*(?:\*|#|//|\")?[ \t]*)"  # a line break inside a comment or string
ITEM = r"§" + SEC + r"(?:[ \t]*[–-][ \t]*§" + SEC + r")?"
SEP = r"(?:[ \t]*(?:,|/|[–-])[ \t]*" + BREAK + r"?|[ \t]+(?:and|or)[ \t]+" + BREAK + r"?|[ \t]*"\
      + BREAK + r"(?:and|or)[ \t]+)"
CITE = re.compile(r"(?<![\w.-])(?:docs/)?(format|schema)\.md(?:[ \t]+|" + BREAK + r")(" + ITEM
                  + r"(?:" + SEP + ITEM + r")*)")
NUMBER = re.compile(r"§(" + SEC + r")")
OLD = [
    (re.compile(r"F§\d"), "F§ citation of the old FORMAT.md"),
    (re.compile(r"FORMAT\.md"), "names FORMAT.md (now docs/format.md)"),
    (re.compile(r"SCHEMA\.md\W{0,3}(?:§|part\s*\d|E\d|\d)"),
     "cites a section of SCHEMA.md (now docs/schema.md)"),
    (re.compile(r"SCHEMA\.md's E\d|\bSCHEMA §"), "cites SCHEMA.md (now docs/schema.md)"),
]
HEADING = re.compile(r"^#{2,6}[ \t]+(" + SEC + r")\.?[ \t]", re.M)


def headings(text):
    return set(HEADING.findall(text))


def check_text(text, where, sections, allow_old=False):
    """Returns (number of cited sections checked, list of problem lines)."""
    problems, checked = [], 0
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    for m in CITE.finditer(text):
        doc = m.group(1)
        for n in NUMBER.finditer(m.group(2)):
            checked += 1
            if n.group(1) not in sections[doc]:
                problems.append("%s:%d: %s.md §%s does not exist" %
                                (where, line_of(m.start(2) + n.start()), doc, n.group(1)))
    if not allow_old:
        for rx, why in OLD:
            for m in rx.finditer(text):
                problems.append("%s:%d: %s: %s" % (where, line_of(m.start()), why,
                                                   text[m.start():m.start() + 24].split("\n")[0]))
    return checked, problems


def scan_tree(root, sections):
    checked, problems, files = 0, [], 0
    for top in SCAN_DIRS + ("README.md", "CONTRIBUTING.md"):
        if os.path.isfile(os.path.join(root, top)):  # the top-level documents
            walk = [(root, [], [top])]
        else:
            walk = os.walk(os.path.join(root, top))
        for dirpath, dirnames, filenames in walk:
            dirnames[:] = sorted(d for d in dirnames if d not in ("corpus", "__pycache__"))
            for name in sorted(filenames):
                if not (name.endswith(SCAN_EXT) or name == "CMakeLists.txt"):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                if rel.startswith(SKIP_PREFIXES) or rel == SELF:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                c, p = check_text(text, rel, sections, rel in OLD_NAMES_ALLOWED)
                checked, files = checked + c, files + 1
                problems += p
    return checked, problems, files


def scan_help(desert, sections):
    """`desert --help` and `desert <cmd> --help` for every listed command."""
    def run(args):
        r = subprocess.run([desert] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=60)
        return r.stdout.decode("utf-8", "replace")
    top = run(["--help"])
    checked, problems = check_text(top, "desert --help", sections)
    # the command table: "  name       summary" lines
    listed = top.split("Commands:", 1)[-1].split("\n\n", 1)[0]
    cmds = re.findall(r"^  ([a-z][a-z0-9-]*) +\S", listed, re.M)
    if not cmds:
        problems.append("desert --help: no command list found")
    for cmd in cmds:
        c, p = check_text(run([cmd, "--help"]), "desert %s --help" % cmd, sections)
        checked += c
        problems += p
    return checked, problems, len(cmds)


def selftest():
    sections = {"format": {"1", "9", "9.5", "9.6", "13", "13.1", "13.2"},
                "schema": {"11", "11.2", "11.8", "12"}}
    cases = [  # (text, checked, number of problems)
        ("/* docs/format.md §9.5 */", 1, 0),
        ("/* docs/format.md §9.7 */", 1, 1),
        ("x (docs/schema.md §11.2–§11.8, §12)", 3, 0),
        ("x (docs/schema.md §11.2–§11.9)", 2, 1),
        ("/* see docs/format.md\n * §9.6 and §13.1 */", 2, 0),
        ("/* docs/format.md §9.5/§9.6, §14 */", 3, 1),
        ('"(docs/schema.md §13) and"', 1, 1),
        ("[format.md](format.md) §9.5 is a link, format.md §9 is checked", 1, 0),
        ("RFC 1951 §3.2.4 and Unicode §3.9 are not ours", 0, 0),
        ("/* FORMAT.md §13.4 */", 0, 1),
        ("/* F§13.4 */", 0, 1),
        ("/* SCHEMA.md §2.8 */", 0, 1),
        ("/* SCHEMA.md part 3 */", 0, 1),
        ("/* SCHEMA.md's E2 */", 0, 1),
        ("read ../shared/spec/SCHEMA.md at test time", 0, 0),
        ("the rules of ../shared/spec/FORMAT.md", 0, 1),
        ("point.schema.json §9 is no citation", 0, 0),
    ]
    bad = 0
    for text, want_checked, want_problems in cases:
        c, p = check_text(text, "selftest", sections)
        if c != want_checked or len(p) != want_problems:
            print("selftest: %r: %d checked, %d problems (want %d, %d): %s" %
                  (text, c, len(p), want_checked, want_problems, p))
            bad += 1
    hs = headings("# T\n## 1. A\n### 1.2 B\n#### 1.2.3 C\n## 20. D\ntext ## 3. no\n")
    if hs != {"1", "1.2", "1.2.3", "20"}:
        print("selftest: headings %r" % sorted(hs))
        bad += 1
    print("doc citations selftest: %d passed, %d failed" % (len(cases) + 1 - bad, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--desert", help="the built desert tool: also check its --help texts")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    if selftest():
        return 1
    root = os.path.abspath(a.root)
    sections = {}
    for doc in ("format", "schema"):
        with open(os.path.join(root, "docs", doc + ".md"), encoding="utf-8") as f:
            sections[doc] = headings(f.read())
        if not sections[doc]:
            print("docs/%s.md: no numbered headings found" % doc)
            return 1
    checked, problems, files = scan_tree(root, sections)
    if a.desert:
        c, p, n = scan_help(a.desert, sections)
        checked += c
        problems += p
        print("help texts: desert --help and %d commands" % n)
    for p in problems:
        print(p)
    print("%d files scanned" % files)
    print("doc citations: %d checked, %d bad" % (checked, len(problems)))
    if checked == 0:
        print("no citation found: the scan is broken")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
