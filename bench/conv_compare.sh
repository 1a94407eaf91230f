#!/usr/bin/env bash
# conv_compare.sh: Conv side by side with the MatMul of the same product (the GEMM im2col turns
# it into), onnx-scatter on one thread: a 3x3 Conv C -> C with pads 1 on an H x H image against
# MatMul [C, 9C] x [9C, H*H], and a 1x1 Conv (the direct path) against MatMul [C, C] x [C, H*H].
# usage: bench/conv_compare.sh BUILD_DIR [ROUNDS] [C] [H]
#   BUILD_DIR  a Release build with tools/onnx-scatter; ROUNDS (default 5) alternate the two
#              models of a pair, so both see the same load of a shared machine; C 64, H 128.
# Prints per pair the median over rounds of each model's median time (`bench`, 10 runs) and
# conv/matmul. Python with the onnx package writes the models (/usr/bin/python3).
set -euo pipefail
build=${1:?usage: bench/conv_compare.sh BUILD_DIR [ROUNDS] [C] [H]}
rounds=${2:-5} c=${3:-64} h=${4:-128}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" "$c" "$h" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
d, c, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
def conv(name, k):
    w = numpy_helper.from_array(rng.uniform(-1, 1, (c, c, k, k)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.uniform(-1, 1, (c,)).astype(np.float32), "b")
    n = helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[k // 2] * 4)
    g = helper.make_graph([n], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                          [1, c, h, h])], [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                          [1, c, h, h])], [w, b])
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)]), f"{d}/{name}.onnx")
def matmul(name, k):
    a = numpy_helper.from_array(rng.uniform(-1, 1, (c, c * k * k)).astype(np.float32), "a")
    n = helper.make_node("MatMul", ["a", "x"], ["y"])
    g = helper.make_graph([n], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                          [c * k * k, h * h])], [helper.make_tensor_value_info("y",
                          TensorProto.FLOAT, [c, h * h])], [a])
    save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)]), f"{d}/{name}.onnx")
for k in (3, 1):
    conv(f"conv{k}x{k}", k)
    matmul(f"matmul{k}x{k}", k)
PY
declare -A t
for ((r = 0; r < rounds; r++)); do
  for m in conv3x3 matmul3x3 conv1x1 matmul1x1; do
    t[$m]+="$("$build/tools/onnx-scatter" bench "$dir/$m.onnx" --random --threads 1 -n 10 -w 2 \
      --json | sed -n 's/.*"median_ms":\([0-9.e-]*\).*/\1/p') "
  done
done
med() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf '%-34s %10s %10s %8s %8s\n' case conv_ms matmul_ms GFLOP/s conv/mm
for k in 3 1; do
  a=$(med <<<"${t[conv${k}x${k}]}") b=$(med <<<"${t[matmul${k}x${k}]}")
  awk -v k="$k" -v c="$c" -v h="$h" -v a="$a" -v b="$b" 'BEGIN {
    f = 2 * c * c * k * k * h * h / 1e6
    printf "%-34s %10.3f %10.3f %8.2f %8.2f\n", sprintf("Conv %dx%d %d->%d on %dx%d, 1 thread", k, k, c, c, h, h), a, b, f / a, a / b }'
done
