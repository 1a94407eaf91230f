#!/usr/bin/env bash
# gnn_pairs.sh: each dynamic-axes GNN export against its static export, timed back to back by the
# same binary, so that the machine's load moves both alike.
# usage: bench/gnn_pairs.sh BUILD_DIR [ROUNDS] [THREADS]
#   BUILD_DIR  a Release build with onnx-scatter whose bench/gnn holds the cases (`bench/run.sh
#              --gnn` or `osc-bench-gnn --cases` makes them)
#   ROUNDS     rounds (default 7); each round times every pair, static and dynamic one after the
#              other, the order alternating from round to round
#   THREADS    opts.threads (default 1)
# Prints per pair the median over rounds of each export's median time (`onnx-scatter bench`, 10
# runs after 2 warm-ups) and the median over rounds of the round's dynamic ÷ static.
set -euo pipefail
build=${1:?usage: bench/gnn_pairs.sh BUILD_DIR [ROUNDS] [THREADS]}
rounds=${2:-7}
threads=${3:-1}
dir="$build/bench/gnn"
pairs=()
for d in "$dir"/gnn_*_dynamic; do
  [[ -d "$d" && -d "${d%_dynamic}" ]] && pairs+=("$(basename "${d%_dynamic}")")
done
[[ ${#pairs[@]} -gt 0 ]] || { echo "gnn_pairs.sh: no gnn_*_dynamic case with its static case in $dir" >&2; exit 1; }
time_case() {
  "$build/tools/onnx-scatter" bench "$dir/$1" --threads "$threads" -n 10 -w 2 |
    sed -n 's/.*"median_ms":\([0-9.e-]*\).*/\1/p' | head -1
}
declare -A st dy ra
for ((r = 0; r < rounds; r++)); do
  for c in "${pairs[@]}"; do
    if ((r % 2)); then b=$(time_case "${c}_dynamic"); a=$(time_case "$c")
    else a=$(time_case "$c"); b=$(time_case "${c}_dynamic"); fi
    st[$c]+="$a " dy[$c]+="$b "
    ra[$c]+="$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }') "
  done
done
med() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
rng() { tr ' ' '\n' | grep . | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {print lo "-" hi}'; }
printf '%-24s %10s %10s %16s %14s\n' case static_ms dynamic_ms 'dynamic÷static' 'its range'
for c in "${pairs[@]}"; do
  printf '%-24s %10.2f %10.2f %16.3f %14s\n' "$c" "$(med <<<"${st[$c]}")" "$(med <<<"${dy[$c]}")" \
    "$(med <<<"${ra[$c]}")" "$(rng <<<"${ra[$c]}")"
done
