#!/bin/sh
# check_up_to_date.sh: the committed suite (tests/bad/cases) is exactly what gen_bad writes now.
# Usage: check_up_to_date.sh GEN_BAD COMMITTED_CASES WORK_DIR
set -eu
gen="$1" committed="$2" work="$3"
rm -rf "$work"
"$gen" "$work" >/dev/null
if ! diff -r --no-dereference "$committed" "$work" >"$work.diff" 2>&1; then
  head -n 40 "$work.diff"
  echo "tests/bad/cases is out of date: run the generator (see tests/bad/README.md)" >&2
  exit 1
fi
echo "tests/bad/cases is up to date ($(ls "$committed" | wc -l) entries)"
