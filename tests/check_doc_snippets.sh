#!/usr/bin/env bash
# check_doc_snippets.sh: the code in the docs runs against an installed onnx-scatter.
# Usage: tests/check_doc_snippets.sh PREFIX WORKDIR   (WORKDIR is recreated)
# Run by tools/run-tests.sh install.
#
# Marking: an HTML comment on the line right before a fenced block says what it is (GitHub does
# not show it). Every ```cmake, ```c and ```python block of docs/embedding.md, docs/python.md and
# README.md must carry one, so no new snippet goes untested by accident:
#   <!-- test: run -->          the block runs:
#       cmake   appended to `project(app C)` + `add_executable(app main.c)` (main.c is
#               examples/embed/main.c), configured with CMAKE_PREFIX_PATH=PREFIX, built;
#       c       a whole program, built with pkg-config against PREFIX and run; it must exit 0;
#       sh      run by bash -euo pipefail in a folder holding main.c and examples/embed, with
#               /opt/onnx-scatter (the docs' prefix) replaced by PREFIX;
#       python  run from the repository's root by /usr/bin/python3 with the package in PREFIX, by
#               python/tests/test_readme.py (which pytest also runs on the build tree).
#   <!-- test: output -->       a plain block: `$ ./embed ARGS`, then what it prints; the app of
#                               the last cmake block is run with ARGS from the repository's root.
#   <!-- test: skip REASON -->  not run.
# Versions: each libonnxscatter.so.N... (or `.so.N...`) the files name must be installed in
# PREFIX (the cmake blocks' find_package version and the output's version line are checked by
# running them).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PREFIX WORKDIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(cd "$1" && pwd) work=$2
docs=(docs/embedding.md docs/python.md README.md)
rm -rf "$work" && mkdir -p "$work/blocks" "$work/sh/examples" && work=$(cd "$work" && pwd)
cp -r "$root/examples/embed" "$work/sh/examples/" && cp "$root/examples/embed/main.c" "$work/sh/"
cd "$root"

# Each block to blocks/N.LANG; blocks/list: N LANG MARK FILE:LINE (MARK: run, output, skip, -).
awk -v out="$work/blocks" '
  FNR == 1 { mark_line = -1 }
  !inb && /^<!-- test: [a-z]+.*-->$/ { mark = $3; mark_line = FNR; next }
  !inb && /^```/ {
    inb = 1; n++; lang = substr($0, 4); if (lang == "") lang = "txt"
    m = (mark_line == FNR - 1) ? mark : "-"
    file = out "/" n "." lang
    printf "" > file
    print n, lang, m, FILENAME ":" FNR > (out "/list")
    next
  }
  inb && /^```$/ { inb = 0; close(file); next }
  inb { print > file }
' "${docs[@]}"

fail=0 ran=0 app=""
bad() { echo "FAIL $1" >&2; fail=1; }
while read -r n lang mark where; do
  f="$work/blocks/$n.$lang"
  case "$mark:$lang" in
    -:cmake | -:c | -:python) bad "$where: a $lang block without <!-- test: run|skip REASON -->" ;;
    run:cmake)
      d="$work/cmake-$n"
      mkdir -p "$d" && cp examples/embed/main.c "$d/"
      { printf 'cmake_minimum_required(VERSION 3.25)\nproject(app C)\n'
        printf 'add_executable(app main.c)\n'; cat "$f"; } >"$d/CMakeLists.txt"
      if cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$prefix" \
          -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$d/log" 2>&1 &&
        cmake --build "$d/build" >>"$d/log" 2>&1; then
        app="$d/build/app" ran=$((ran + 1))
      else
        tail -n 20 "$d/log" >&2; bad "$where: the cmake block does not build"
      fi ;;
    run:c)
      PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name onnxscatter.pc -print -quit)")"
      export PKG_CONFIG_PATH
      # shellcheck disable=SC2046 # pkg-config output is meant to be split
      if cc -std=c11 -Wall -Wextra -Werror "$f" -o "$work/c-$n" \
          $(pkg-config --cflags --libs onnxscatter) \
          -Wl,-rpath,"$(pkg-config --variable=libdir onnxscatter)" && "$work/c-$n"; then
        ran=$((ran + 1))
      else bad "$where: the C block does not build or fails"; fi ;;
    run:sh)
      sed "s|/opt/onnx-scatter|$prefix|g" "$f" >"$work/sh-$n.sh"
      if (cd "$work/sh" && bash -euo pipefail "$work/sh-$n.sh" >"$work/sh-$n.log" 2>&1); then
        ran=$((ran + 1))
      else tail -n 20 "$work/sh-$n.log" >&2; bad "$where: the sh block fails"; fi ;;
    run:python) ;; # below, all at once
    output:txt)
      read -r dollar cmd args <"$f"
      if [ "$dollar $cmd" != '$ ./embed' ] || [ -z "$app" ]; then
        bad "$where: an output block must follow a cmake block and start with \$ ./embed"
        continue
      fi
      # shellcheck disable=SC2086 # ARGS are words
      if diff <(tail -n +2 "$f") <("$app" $args 2>&1) >&2; then ran=$((ran + 1))
      else bad "$where: ./embed $args prints something else (diff above: docs < > run)"; fi ;;
    run:* | output:*) bad "$where: <!-- test: $mark --> on a $lang block" ;;
  esac
done <"$work/blocks/list"

# Python blocks: the package installed in PREFIX, run by test_readme.py.
site=$(find "$prefix" -type d -name onnx_scatter -printf '%h' -quit)
if PYTHONPATH="$site" /usr/bin/python3 python/tests/test_readme.py "$prefix"; then
  ran=$((ran + $(grep -c ' python run ' "$work/blocks/list" || true)))
else bad "python blocks (above)"; fi

# Versioned file names in the docs.
for name in $(grep -ohE '(libonnxscatter|`)\.so\.[0-9]+(\.[0-9]+)*' "${docs[@]}" |
  sed 's/^`/libonnxscatter/' | sort -u); do
  [ -e "$(find "$prefix" -name "$name" -print -quit)" ] ||
    bad "the docs name $name; installed: $(cd "$prefix" && find . -name 'libonnxscatter.so*')"
done
echo "doc snippets: $ran run, $(grep -c ' skip ' "$work/blocks/list" || true) skipped"
exit "$fail"
