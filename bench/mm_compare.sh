#!/usr/bin/env bash
# mm_compare.sh: MatMul side by side, onnx-scatter against onnxruntime on one thread, for the
# shapes of osc-bench-matmul (bench/mm_bench.c): M x K times K x N, K = N = 64 and 128.
# usage: bench/mm_compare.sh BUILD_DIR [ROUNDS] [M...]
#   BUILD_DIR  a Release build with osc-bench-matmul and onnx-scatter (OSC_BUILD_BENCH=ON)
#   ROUNDS     rounds (default 5); each round times every case with both runtimes, one after
#              the other, so both see the same load of a shared machine
# Prints per case the median over rounds of each runtime's median time (onnx-scatter: `bench`,
# 50 runs; onnxruntime: bench/ort/ort_bench.js, its own "model_run" profiler time, 20 runs) and
# their ratio. onnxruntime-node must be installed in bench/ort (npm install --ignore-scripts).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: bench/mm_compare.sh BUILD_DIR [ROUNDS] [M...]}
rounds=${2:-5}
shift $(( $# < 2 ? $# : 2 ))
ms=("$@")
[[ ${#ms[@]} -gt 0 ]] || ms=(1 10 100 1000 10000 100000)
cases=$(mktemp -d)
trap 'rm -rf "$cases"' EXIT
"$build/bench/osc-bench-matmul" --rounds 1 --ms 0 --cases "$cases" "${ms[@]}" >/dev/null
declare -A osc ort
for ((r = 0; r < rounds; r++)); do
  for d in "$cases"/matmul_*; do
    c=$(basename "$d")
    t=$("$build/tools/onnx-scatter" bench "$d" --threads 1 -n 50 -w 3 |
        sed -n 's/.*"median_ms":\([0-9.e-]*\).*/\1/p')
    osc[$c]+="$t "
    t=$(cd "$root/bench/ort" && node --expose-gc ort_bench.js "$d" |
        sed -n 's/.* 1t: median model_run \([0-9.e-]*\) ms.*/\1/p')
    ort[$c]+="$t "
  done
done
med() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf '%-20s %12s %12s %10s %10s %8s\n' case osc_ms ort_ms osc_GFLOPs ort_GFLOPs osc/ort
for d in "$cases"/matmul_*; do
  c=$(basename "$d")
  m=${c#matmul_}; k=${m#*_}; m=${m%_*}
  a=$(med <<<"${osc[$c]}") b=$(med <<<"${ort[$c]}")
  awk -v c="$c" -v a="$a" -v b="$b" -v m="$m" -v k="$k" 'BEGIN {
    f = 2 * m * k * k / 1e6; printf "%-20s %12.4f %12.4f %10.2f %10.2f %8.2f\n", c, a, b, f / a, f / b, a / b }'
done | sort -t_ -k3,3n -k2,2n
