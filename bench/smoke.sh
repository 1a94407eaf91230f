#!/usr/bin/env bash
# smoke.sh: ctest smoke test of bench/: small cases pass `onnx-scatter test`; harness outputs match.
# usage: smoke.sh GEN HARNESS WORK_DIR [CLI] [ORT_SCRIPT]   (exit 77 = skipped: onnxruntime not installed)
set -u
gen=$1 harness=$2 work=$3 cli=${4:-} ort=${5:-}
source "$(dirname "${BASH_SOURCE[0]}")/smoke_common.sh"
[[ -z $ort ]] || smoke_need_ort "$ort"
rm -rf "$work" && mkdir -p "$work"
"$gen" "$work/cases" --small || { echo "FAIL: the generator failed"; exit 1; }
mapfile -t cases < <("$gen" --list)
[[ ${#cases[@]} -eq 10 ]] || { echo "FAIL: expected 10 cases, got ${#cases[@]}"; exit 1; }
dirs=()
for c in "${cases[@]}"; do dirs+=("$work/cases/$c"); done

if [[ -n $cli ]]; then
  out=$("$cli" test "${dirs[@]}" 2>&1); rc=$?
  echo "$out"
  [[ $rc -eq 0 ]] || { echo "FAIL: onnx-scatter test exited $rc"; exit 1; }
  grep -q "^10 passed, 0 failed, 0 skipped" <<<"$out" || { echo "FAIL: not 10 passes"; exit 1; }
fi

smoke_round "$harness" "$work" "$ort" "MISMATCH\|NOT IN PLACE\|not measured" "${dirs[@]}"
# every contender ran and was checked: 8 (10 with onnxruntime) bit-identical rows per case
per=8; [[ -n $ort ]] && per=10
want=$(( ${#cases[@]} * per ))
got=$(grep -c "^  .*bit-identical" <<<"$out")
[[ $got -eq $want ]] || { echo "FAIL: $got bit-identical contenders, expected $want"; exit 1; }
echo "PASS"
