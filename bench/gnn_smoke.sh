#!/usr/bin/env bash
# gnn_smoke.sh: ctest smoke test of osc-bench-gnn: one round over the small GNN layers of
# tests/models (gnn_*_small_*), every contender runs, checks its output and gets a peak RSS.
# usage: gnn_smoke.sh HARNESS MODELS_DIR WORK_DIR [ORT_SCRIPT]   (exit 77 = skipped: no onnxruntime)
set -u
harness=$1 models=$2 work=$3 ort=${4:-}
if [[ -n $ort ]]; then
  if [[ ! -d $(dirname "$ort")/node_modules/onnxruntime-node ]]; then
    echo "SKIP: onnxruntime-node is not installed in $(dirname "$ort")/node_modules (bench/run.sh installs it)"
    exit 77
  fi
  if ! command -v "${OSC_BENCH_NODE:-node}" >/dev/null; then
    echo "SKIP: node not found"
    exit 77
  fi
fi
dirs=("$models"/gnn_*_small_opset*)
[[ ${#dirs[@]} -eq 4 && -d ${dirs[0]} ]] || { echo "FAIL: expected 4 gnn_*_small folders in $models"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
args=(--warmup 1 --rounds 1 --markdown "$work/results.md")
[[ -n $ort ]] && args+=(--ort "$ort")
out=$("$harness" "${args[@]}" "${dirs[@]}" 2>&1); rc=$?
echo "$out"
[[ $rc -eq 0 ]] || { echo "FAIL: the harness exited $rc"; exit 1; }
if grep -q "MISMATCH\|not measured\|not run" <<<"$out"; then echo "FAIL: see above"; exit 1; fi
# every contender ran and passed its check: 5 rows per case (7 with onnxruntime)
per=5; [[ -n $ort ]] && per=7
want=$(( ${#dirs[@]} * per ))
got=$(grep -c "^  .*\(bit-identical\|within\)" <<<"$out")
[[ $got -eq $want ]] || { echo "FAIL: $got contenders passed their check, expected $want"; exit 1; }
grep -q "^| gnn_gcn_small_opset17 |" "$work/results.md" || { echo "FAIL: no Markdown table"; exit 1; }
echo "PASS"
