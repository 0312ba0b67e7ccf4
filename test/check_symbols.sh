#!/usr/bin/env bash
# test/check_symbols.sh — fails if a library defines a global symbol whose
# name does not start with `desert_` (one prefix for every
# exported or linkable symbol, so libdesert never collides with its users).
#   check_symbols.sh <nm> <library-or-object>...
# Shared objects are checked through their dynamic symbol table (what is
# exported); archives and objects through every defined global symbol (what
# a static link can clash with). Names the toolchain itself generates
# (sanitizer and coverage instrumentation) are allowed.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 <nm> <library-or-object>..." >&2
  exit 2
fi
nm=$1
shift

allowed='^(desert_|__odr_asan[._]|__asan_|__ubsan_|__tsan_|__sanitizer_|__gcov_|__llvm_|__profc_|__profd_)'
status=0
for f in "$@"; do
  if [ ! -e "$f" ]; then
    echo "check_symbols: $f: no such file" >&2
    status=1
    continue
  fi
  case $f in
    *.so | *.so.*) opts=(-D --defined-only) ;;
    *) opts=(--defined-only) ;;
  esac
  if ! listing=$("$nm" "${opts[@]}" "$f" 2>&1); then
    echo "check_symbols: $nm failed on $f:" >&2
    echo "$listing" >&2
    status=1
    continue
  fi
  # Lines are "[address] TYPE name" (archives add "member.o:" headers).
  # Global definitions: upper-case types (but not U), plus u (unique global)
  # and i (GNU indirect function).
  globals=$(printf '%s\n' "$listing" |
    awk 'NF >= 2 { t = $(NF-1); if (t ~ /^[ABCDGRSTVWiu]$/) print t, $NF }' | sort -u)
  count=$(printf '%s\n' "$globals" | grep -c . || true)
  bad=$(printf '%s\n' "$globals" | awk -v re="$allowed" 'NF == 2 && $2 !~ re')
  if [ -n "$bad" ]; then
    echo "FAIL $f: global symbols without the desert_ prefix:"
    printf '%s\n' "$bad" | sed 's/^/  /'
    status=1
  elif [ "$count" -eq 0 ]; then
    echo "FAIL $f: no global symbols at all (wrong file, or nm cannot read it)"
    status=1
  else
    echo "ok   $f: $count global symbols, all prefixed desert_"
  fi
done
exit $status
