#!/usr/bin/env bash
# gnn_smoke.sh: ctest smoke test of osc-bench-gnn: one round over the small GNN layers of
# tests/models (gnn_*_small_*), every contender runs, checks its output and gets a peak RSS.
# With torch too (bench/torch_bench.py) when $OSC_BENCH_PYTHON or /usr/bin/python3 imports it.
# usage: gnn_smoke.sh HARNESS MODELS_DIR WORK_DIR [ORT_SCRIPT]   (exit 77 = skipped: no onnxruntime)
set -u
harness=$1 models=$2 work=$3 ort=${4:-}
source "$(dirname "${BASH_SOURCE[0]}")/smoke_common.sh"
[[ -z $ort ]] || smoke_need_ort "$ort"
dirs=("$models"/gnn_*_small_opset*)
[[ ${#dirs[@]} -eq 4 && -d ${dirs[0]} ]] || { echo "FAIL: expected 4 gnn_*_small folders in $models"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
torch=() extra=0
if "${OSC_BENCH_PYTHON:-/usr/bin/python3}" -c "import torch" 2>/dev/null; then
  torch=(--torch "$(dirname "${BASH_SOURCE[0]}")/torch_bench.py")
  extra=6 # eager for the 4 layers, CSR for GCN and SAGE
else
  echo "(torch not importable: its contenders left out)"
fi
smoke_round "$harness" "$work" "$ort" "MISMATCH\|not measured\|not run" "${torch[@]}" "${dirs[@]}"
# every contender ran and passed its check: 7 rows per case (9 with onnxruntime), and torch's
per=7; [[ -n $ort ]] && per=9
want=$(( ${#dirs[@]} * per + extra ))
got=$(grep -c "^  .*\(bit-identical\|within\)" <<<"$out")
[[ $got -eq $want ]] || { echo "FAIL: $got contenders passed their check, expected $want"; exit 1; }
grep -q "^| gnn_gcn_small_opset17 |" "$work/results.md" || { echo "FAIL: no Markdown table"; exit 1; }
echo "PASS"
