#!/usr/bin/env bash
# gen-support-table.sh: the README's per-op table of official node-test results, made by running them.
# Usage: tools/gen-support-table.sh ONNX_SCATTER NODE_TEST_DIR [--update README.md | --check README.md]
# Every test folder runs once (one `test --json` over the folder); its status counts for every op
# type its model uses (the "ops" list), and a SKIP whose message names a node
# ("node #0 Cast (Cast-13): ...", "node 'name' (Cast-13): ...") counts for that node's op.
# Every op of the default domain in the kernel registry (`info --ops`, not the fused kernels of
# domain osc) has a row with the versions implemented, tests or not; an op named only by
# skipped tests (a version not implemented) has a row too.
set -euo pipefail
tool="$1" dir="$2" mode="${3:-}" readme="${4:-}"
[ -d "$dir" ] || { echo "node-test folder '$dir' not found" >&2; exit 77; }
tally=$(mktemp)
trap 'rm -f "$tally"' EXIT
# One `test --json` run over every folder (its exit status is 1 when a test fails: that is data
# here). A pass or fail counts for each op type the model uses (its "ops" list).
"$tool" test --json --no-progress -j "$(nproc 2>/dev/null || echo 2)" "$dir" | awk '
  /"status":"(pass|fail)"/ {
    st = /"status":"pass"/ ? "pass" : "fail"
    if (match($0, /"ops":\[[^]]*\]/)) {
      n = split(substr($0, RSTART + 7, RLENGTH - 8), ops, ",")
      for (i = 1; i <= n; i++) { gsub(/"/, "", ops[i]); print ops[i], st }
    }
    next
  }
  /"status":"skip"/ && match($0, /"message":"node ('"'"'[^'"'"']*'"'"'|#[0-9]+ [A-Za-z0-9]+) \([A-Za-z][A-Za-z0-9]*-[0-9]*\)/) {
    m = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", m); sub(/-[0-9]*\)$/, "", m)
    print m, "skip"
  }' >"$tally"
# "Op since" per registry row, then the tally: one table row per op.
table=$(
  echo "| op | versions | official tests using it | passed | failed | skipped |"
  echo "|---|---|---:|---:|---:|---:|"
  { "$tool" info --ops | sed '/^domain /,$d' |
      sed -n 's/^  \([A-Za-z][A-Za-z0-9]*\)-\([0-9]*\): .*/\1 v\2/p'; cat "$tally"; } | awk '
    $2 ~ /^v/ { sep = ($1 in v) ? v[$1] ", " : ""; v[$1] = sep substr($2, 2); next }
    { n[$1]++; c[$1 " " $2]++ }
    END {
      for (op in v) seen[op] = 1
      for (op in n) seen[op] = 1
      for (op in seen)
        printf "| %s | %s | %d | %d | %d | %d |\n", op, (op in v) ? v[op] : "none", n[op],
               c[op " pass"], c[op " fail"], c[op " skip"]
    }' | sort
)
case "$mode" in
  "") printf '%s\n' "$table" ;;
  --update|--check)
    begin='<!-- support-table:begin -->' end='<!-- support-table:end -->'
    new=$(awk -v b="$begin" -v e="$end" -v t="$table" '
      $0 == b { print; print t; skip = 1; next }
      $0 == e { skip = 0 }
      !skip { print }' "$readme")
    if [ "$mode" = --update ]; then
      printf '%s\n' "$new" >"$readme"
    elif [ "$new" != "$(cat "$readme")" ]; then
      echo "FAIL: the support table in $readme is out of date; run: $0 $tool $dir --update $readme"
      echo "0 passed, 1 failed"
      exit 1
    else
      echo "1 passed, 0 failed"
    fi ;;
  *) echo "usage: $0 ONNX_SCATTER NODE_TEST_DIR [--update|--check README.md]" >&2; exit 2 ;;
esac
