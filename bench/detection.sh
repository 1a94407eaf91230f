#!/usr/bin/env bash
# detection.sh: the three whole detection models at full size (tests/models/gen_models.py
# --bench --detection: a PointPillars-style detector on a 496 x 432 canvas, DGCNN at 1,024
# points, a RoiAlign head on a 256 x 256 image) against onnxruntime, one and two threads.
# usage: bench/detection.sh BUILD_DIR [ROUNDS] [MODEL...]
#   BUILD_DIR  a Release build with tools/onnx-scatter; ROUNDS (default 3): each round times
#              every model with each runtime in turn, so all see the same load of a shared
#              machine; MODELs: pointpillars_det dgcnn roi_head (default all).
# Prints per model and thread count the median over rounds of each runtime's median time
# (onnx-scatter: `bench`, 5 runs after 1 warm-up; onnxruntime: ort_bench.js, its "model_run"
# profiler time, 5 runs after 3) and their ratio, then each one's peak RSS over loading the model
# and running it 3 times on one thread, and the ratio of the two: onnx-scatter's the whole CLI
# process (the program, the inputs and the expected outputs included); onnxruntime's the growth of
# node's VmHWM over its VmRSS once the inputs are read (ort_bench.js rss), plus the inputs' bytes,
# so that node's own runtime is left out and the inputs are counted on both sides. The models are
# written once into BUILD_DIR/bench/detection.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:?usage: bench/detection.sh BUILD_DIR [ROUNDS] [MODEL...]}" && pwd)
rounds=${2:-3}
shift $(($# >= 2 ? 2 : 1))
models=("$@")
[[ ${#models[@]} -gt 0 ]] || models=(pointpillars_det dgcnn roi_head)
cli=$build/tools/onnx-scatter
dir=$build/bench/detection
if [[ ! -f $dir/pointpillars_det/model.onnx ]]; then
  echo "writing the full-size models into $dir (about a minute)"
  /usr/bin/python3 "$root/tests/models/gen_models.py" --bench "$dir" --detection >/dev/null
fi
have_ort=0
[[ -d $root/bench/ort/node_modules/onnxruntime-node ]] && have_ort=1
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A t
for ((r = 0; r < rounds; r++)); do
  for m in "${models[@]}"; do
    for th in 1 2; do
      line=$("$cli" bench "$dir/$m" --threads "$th" -n 5 -w 1)
      t[$m,osc,$th]+="$(sed -n 's/.*"median_ms":\([0-9.e-]*\).*/\1/p' <<<"$line") "
    done
    if ((have_ort)); then
      out=$(cd "$root/bench/ort" && ORT_BENCH_RUNS=5 node --expose-gc ort_bench.js "$dir/$m")
      for th in 1 2; do
        t[$m,ort,$th]+="$(sed -n "s/.* ${th}t: median model_run \([0-9.]*\) ms.*/\1/p" <<<"$out") "
      done
    fi
  done
done
printf '%-18s %3s %12s %12s %9s\n' model thr osc_ms ort_ms osc/ort
for m in "${models[@]}"; do
  for th in 1 2; do
    o=$(median <<<"${t[$m,osc,$th]}") x=n/a ratio=n/a
    if ((have_ort)); then
      x=$(median <<<"${t[$m,ort,$th]}")
      ratio=$(awk -v a="$o" -v b="$x" 'BEGIN {printf "%.3f", a / b}')
    fi
    printf '%-18s %3s %12.2f %12s %9s\n' "$m" "$th" "$o" "$x" "$ratio"
  done
done
printf '%-18s %12s %12s %9s\n' model osc_rss_MiB ort_rss_MiB osc/ort
for m in "${models[@]}"; do
  o=$( { /usr/bin/time -f '%M' "$cli" bench "$dir/$m" --threads 1 -n 3 -w 0 >/dev/null; } 2>&1 |
      tail -n 1)
  x=n/a ratio=n/a
  if ((have_ort)); then
    in_kb=$(du -ck "$dir/$m"/test_data_set_0/input_*.pb | tail -n 1 | cut -f1)
    x=$(cd "$root/bench/ort" && node --expose-gc ort_bench.js rss "$dir/$m" 1 |
      awk -v i="$in_kb" '{print $3 - $2 + i}')
    ratio=$(awk -v a="$o" -v b="$x" 'BEGIN {printf "%.3f", a / b}')
    x=$(awk -v b="$x" 'BEGIN {printf "%.1f", b / 1024}')
  fi
  printf '%-18s %12.1f %12s %9s\n' "$m" "$(awk -v a="$o" 'BEGIN {print a / 1024}')" "$x" "$ratio"
done
