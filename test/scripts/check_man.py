#!/usr/bin/env python3
"""test/scripts/check_man.py — ctest man_page: the manual page desert(1)
(docs/man/desert.1) must describe what the tool says it does:
  * every command `desert --help` lists has its own section (.SS "desert X"),
    and `desert X --help` succeeds;
  * every option (-x, --long) that `desert --help` or `desert X --help`
    prints appears in the page, so do the environment variables of
    `desert --help` and its exit statuses;
  * the page's .TH line names the tool's version (`desert --version`);
  * groff, when installed, reads the page without warnings.
  check_man.py <desert program> <desert.1>
"""
import re
import shutil
import subprocess
import sys


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def deroff(text):
    """The page's text with roff escapes for hyphens and fonts removed."""
    text = text.replace("\\-", "-").replace("\\(em", "-")
    return re.sub(r"\\f[BIRP]", "", text)


def options_of(help_text):
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])", help_text)))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_man.py <desert program> <desert.1>")
    tool, page_path = sys.argv[1], sys.argv[2]
    with open(page_path, encoding="utf-8") as fh:
        raw = fh.read()
    page = deroff(raw)
    failures = []

    top = run([tool, "--help"])
    block = re.search(r"^Commands:\n((?:  \S.*\n)+)", top, re.M)
    if not block:
        sys.exit("FAIL: `desert --help` prints no Commands: block")
    commands = [line.split()[0] for line in block.group(1).splitlines()]
    if len(commands) < 4:
        failures.append(f"only {len(commands)} commands found in `desert --help`: {commands}")

    sections = {m.group(1): m.start() for m in re.finditer(r'^\.SS "desert ([\w-]+)"', page, re.M)}
    for cmd in commands:
        if cmd not in sections:
            failures.append(f"command '{cmd}' has no section .SS \"desert {cmd}\"")
        sub = run([tool, cmd, "--help"])
        for opt in options_of(sub):
            if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", page):
                failures.append(f"option {opt} of `desert {cmd} --help` is not in the page")
    for opt in options_of(top):
        if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", page):
            failures.append(f"option {opt} of `desert --help` is not in the page")
    env = re.search(r"^Environment:\n((?:  .*\n)+)", top, re.M)
    for var in re.findall(r"^  ([A-Z][A-Z0-9_]+)", env.group(1) if env else "", re.M):
        if not re.search(r"^\.B " + var + "$", page, re.M):
            failures.append(f"environment variable {var} is not in the ENVIRONMENT section")
    exits = re.search(r"^Exit status:\n((?:  .*\n)+)", top, re.M)
    for code in re.findall(r"^  (\d+) ", exits.group(1) if exits else "", re.M):
        if not re.search(r"^\.B " + code + "$", page, re.M):
            failures.append(f"exit status {code} is not in the EXIT STATUS section")

    version = run([tool, "--version"]).split()[1]
    th = re.search(r'^\.TH DESERT 1 "[^"]*" "desert ([^"]+)"', raw, re.M)
    if not th or th.group(1) != version:
        failures.append(f".TH names version {th.group(1) if th else '(none)'}, "
                        f"the tool is {version}")

    groff = shutil.which("groff")
    if groff:
        p = subprocess.run([groff, "-man", "-ww", "-z", page_path], capture_output=True, text=True)
        if p.returncode != 0 or p.stderr.strip():
            failures.append(f"groff warnings: {p.stderr.strip()}")
        lint = "groff -man -ww: clean"
    else:
        lint = "groff not installed: roff not linted"

    if failures:
        print("FAIL docs/man/desert.1 does not match the tool:")
        print("\n".join("  " + f for f in failures))
        return 1
    print(f"ok   {len(commands)} commands ({', '.join(commands)}), their options, environment "
          f"and exit statuses are in the page; version {version}; {lint}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
