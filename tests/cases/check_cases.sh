#!/usr/bin/env bash
# check_cases.sh: the committed tests/cases equal a fresh run of gen_cases, and all of them pass.
# Usage: check_cases.sh GEN_EXE CLI_EXE CASES_DIR WORK_DIR
set -u
gen="$1" cli="$2" cases="$3" work="$4"
fail=0
rm -rf "$work" && mkdir -p "$work"
"$gen" "$work/cases" >/dev/null || { echo "FAIL: the generator exited non-zero"; exit 1; }
n=0
for d in "$work"/cases/*/; do
  name=$(basename "$d")
  n=$((n + 1))
  if ! diff -r "$d" "$cases/$name" >/dev/null 2>&1; then
    echo "FAIL: tests/cases/$name differs from the generator's output (regenerate: see gen_cases.c)"
    fail=1
  fi
done
for d in "$cases"/*/; do
  name=$(basename "$d")
  if [ -f "$d/model.onnx" ] && [ ! -d "$work/cases/$name" ]; then
    echo "FAIL: tests/cases/$name is not made by the generator (stale: remove it)"
    fail=1
  fi
done
out=$("$cli" test "$cases" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^PASS' || true
summary=$(printf '%s\n' "$out" | tail -n 1)
if [ "$rc" -ne 0 ] || [ "$summary" != "$n passed, 0 failed, 0 skipped" ]; then
  echo "FAIL: onnx-scatter test exited $rc with '$summary'; want '$n passed, 0 failed, 0 skipped'"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "$n cases up to date and passing"
exit "$fail"
