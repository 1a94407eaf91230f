#!/usr/bin/env bash
# conv_compare.sh: Conv side by side with the MatMul of the same product (the GEMM im2col turns
# it into) and, when onnxruntime-node is installed in bench/ort, with onnxruntime; one thread.
# Cases: a 3x3 Conv C -> C with pads 1 and a bias on an H x H image against MatMul [C, 9C] x
# [9C, H*H], and a 1x1 Conv (the direct path) against MatMul [C, C] x [C, H*H].
# usage: bench/conv_compare.sh BUILD_DIR [ROUNDS] [C] [H]
#   BUILD_DIR  a Release build with tools/onnx-scatter; ROUNDS (default 5): each round times
#              every case with each runtime, one after the other, so all see the same load of a
#              shared machine; C 64, H 128.
# Prints per case the median over rounds of each runtime's median time (onnx-scatter: `bench`,
# 10 runs, whose max_abs_err checks the output against numpy's; onnxruntime: ort_bench.js, its
# "model_run" profiler time, 20 runs) and the ratios. /usr/bin/python3 with numpy and onnx
# writes the node-test folders.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: bench/conv_compare.sh BUILD_DIR [ROUNDS] [C] [H]}
rounds=${2:-5} c=${3:-64} h=${4:-128}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" "$c" "$h" <<'PY'
import os
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
d, c, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
f32 = lambda *s: rng.uniform(-1, 1, s).astype(np.float32)
def case(name, node, x, inits, y):
    os.makedirs(f"{d}/{name}/test_data_set_0")
    vi = lambda n, a: helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape))
    g = helper.make_graph([node], name, [vi("x", x)], [vi("y", y)],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)]),
         f"{d}/{name}/model.onnx")
    for n, a in (("input_0", numpy_helper.from_array(x, "x")),
                 ("output_0", numpy_helper.from_array(y, "y"))):
        with open(f"{d}/{name}/test_data_set_0/{n}.pb", "wb") as f:
            f.write(a.SerializeToString())
for k in (3, 1):
    x, w, b = f32(1, c, h, h), f32(c, c, k, k), f32(c)
    xp = np.pad(x[0], ((0, 0), (k // 2,) * 2, (k // 2,) * 2))
    win = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(1, 2))  # c, h, h, k, k
    cols = np.ascontiguousarray(win.transpose(0, 3, 4, 1, 2)).reshape(c * k * k, h * h)
    y = (w.reshape(c, -1).astype(np.float64) @ cols + b[:, None]).astype(np.float32)
    case(f"conv{k}x{k}", helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[k // 2] * 4), x,
         {"w": w, "b": b}, y.reshape(1, c, h, h))
    a = w.reshape(c, -1)
    case(f"matmul{k}x{k}", helper.make_node("MatMul", ["a", "x"], ["y"]), cols, {"a": a},
         (a.astype(np.float64) @ cols).astype(np.float32))
PY
have_ort=0
[[ -d "$root/bench/ort/node_modules/onnxruntime-node" ]] && have_ort=1
declare -A t o
for ((r = 0; r < rounds; r++)); do
  for m in conv3x3 matmul3x3 conv1x1 matmul1x1; do
    line=$("$build/tools/onnx-scatter" bench "$dir/$m" --threads 1 -n 10 -w 2)
    t[$m]+="$(sed -n 's/.*"median_ms":\([0-9.e-]*\).*/\1/p' <<<"$line") "
    [[ $r -gt 0 ]] || echo "$m max_abs_err $(sed -n 's/.*"max_abs_err":\([^,]*\).*/\1/p' <<<"$line")"
    if ((have_ort)) && [[ $m == conv* ]]; then
      o[$m]+="$(cd "$root/bench/ort" && node --expose-gc ort_bench.js "$dir/$m" |
        sed -n 's/.* 1t: median model_run \([0-9.e-]*\) ms.*/\1/p') "
    fi
  done
done
med() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf '%-34s %9s %9s %9s %8s %8s %8s\n' case conv_ms mm_ms ort_ms GFLOP/s conv/mm conv/ort
for k in 3 1; do
  a=$(med <<<"${t[conv${k}x${k}]}") b=$(med <<<"${t[matmul${k}x${k}]}")
  e=$( ((have_ort)) && med <<<"${o[conv${k}x${k}]}" || echo 0)
  awk -v k="$k" -v c="$c" -v h="$h" -v a="$a" -v b="$b" -v e="$e" 'BEGIN {
    f = 2 * c * c * k * k * h * h / 1e6
    name = sprintf("Conv %dx%d %d->%d on %dx%d, 1 thread", k, k, c, c, h, h)
    ort = "-"; ratio = "-"
    if (e > 0) { ort = sprintf("%.3f", e); ratio = sprintf("%.2f", a / e) }
    printf "%-34s %9.3f %9.3f %9s %8.2f %8.2f %8s\n", name, a, b, ort, f / a, a / b, ratio }'
done
