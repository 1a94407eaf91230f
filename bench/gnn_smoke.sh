#!/usr/bin/env bash
# gnn_smoke.sh: ctest smoke test of osc-bench-gnn: one round over the small GNN layers of
# tests/models (gnn_*_small_*), every contender runs, checks its output and gets a peak RSS.
# usage: gnn_smoke.sh HARNESS MODELS_DIR WORK_DIR [ORT_SCRIPT]   (exit 77 = skipped: no onnxruntime)
set -u
harness=$1 models=$2 work=$3 ort=${4:-}
source "$(dirname "${BASH_SOURCE[0]}")/smoke_common.sh"
[[ -z $ort ]] || smoke_need_ort "$ort"
dirs=("$models"/gnn_*_small_opset*)
[[ ${#dirs[@]} -eq 4 && -d ${dirs[0]} ]] || { echo "FAIL: expected 4 gnn_*_small folders in $models"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
smoke_round "$harness" "$work" "$ort" "MISMATCH\|not measured\|not run" "${dirs[@]}"
# every contender ran and passed its check: 5 rows per case (7 with onnxruntime)
per=5; [[ -n $ort ]] && per=7
want=$(( ${#dirs[@]} * per ))
got=$(grep -c "^  .*\(bit-identical\|within\)" <<<"$out")
[[ $got -eq $want ]] || { echo "FAIL: $got contenders passed their check, expected $want"; exit 1; }
grep -q "^| gnn_gcn_small_opset17 |" "$work/results.md" || { echo "FAIL: no Markdown table"; exit 1; }
echo "PASS"
