#!/usr/bin/env bash
# conv_layers.sh: each Conv and ConvTranspose of a model alone, against onnxruntime, one thread:
# the per-layer comparison of the detection models (docs/performance.md "Convolution, one
# thread").
# usage: bench/conv_layers.sh BUILD_DIR MODEL_DIR [ROUNDS]
#   BUILD_DIR  a Release build with tools/onnx-scatter; MODEL_DIR a folder with model.onnx (the
#              full-size models: bench/detection.sh writes them into BUILD_DIR/bench/detection);
#              ROUNDS (default 3): each round times every layer with each runtime in turn.
# Each layer becomes a one-node model (its weights and attributes, X random of the shape the
# model gives it, the expected output onnx-scatter's, which onnxruntime's must match); prints
# per layer the
# median over rounds of each runtime's median time (onnx-scatter: `bench`, 5 runs after 1;
# onnxruntime: ort_bench.js, its "model_run" profiler time) and the median of the rounds' own
# ratios.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: bench/conv_layers.sh BUILD_DIR MODEL_DIR [ROUNDS]}
model=${2:?usage: bench/conv_layers.sh BUILD_DIR MODEL_DIR [ROUNDS]}
rounds=${3:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$model/model.onnx" "$dir" <<'PY'
import os
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference
m = shape_inference.infer_shapes(onnx.load(sys.argv[1]))
g = m.graph
shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
          for v in list(g.input) + list(g.value_info) + list(g.output)}
inits = {i.name: i for i in g.initializer}
consts = {n.output[0]: n.attribute[0].t for n in g.node if n.op_type == "Constant"}
alias = {n.output[0]: n.input[0] for n in g.node if n.op_type == "Identity"}
def param(name):  # an initializer or Constant, maybe behind Identity nodes
    while name in alias:
        name = alias[name]
    return inits.get(name) or consts.get(name)
rng = np.random.default_rng(0)
k = 0
for n in g.node:
    if n.op_type not in ("Conv", "ConvTranspose"):
        continue
    k += 1
    name = f"{k:02d}_{n.op_type}_" + n.name.strip("/").replace("/", "_").replace(".", "_")
    x = n.input[0]
    xs = [d or 1 for d in shapes[x]]  # a dynamic dim (the batch): 1
    ws = [param(i) for i in n.input[1:]]
    params = [helper.make_tensor(f"p{j}", t.data_type, t.dims, numpy_helper.to_array(t).ravel())
              for j, t in enumerate(ws)]
    node = helper.make_node(n.op_type, ["x"] + [f"p{j}" for j in range(len(ws))], ["y"])
    node.attribute.extend(n.attribute)
    ys = [d or 1 for d in shapes[n.output[0]]]
    graph = helper.make_graph([node], name,
                              [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, xs)],
                              [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ys)],
                              params)
    os.makedirs(f"{sys.argv[2]}/{name}/test_data_set_0")
    onnx.save(helper.make_model(graph, opset_imports=m.opset_import),
              f"{sys.argv[2]}/{name}/model.onnx")
    xv = rng.uniform(-1, 1, xs).astype(np.float32)
    with open(f"{sys.argv[2]}/{name}/test_data_set_0/input_0.pb", "wb") as f:
        f.write(numpy_helper.from_array(xv, "x").SerializeToString())
PY
# the expected outputs: onnx-scatter's own, which onnxruntime's run is then checked against
for l in $(cd "$dir" && ls); do
  "$build/tools/onnx-scatter" run "$dir/$l/model.onnx" "$dir/$l/test_data_set_0/input_0.pb" \
    -o "$dir/$l/out" >/dev/null
  /usr/bin/python3 -c 'import sys, numpy as np; from onnx import numpy_helper as nh
open(sys.argv[2], "wb").write(nh.from_array(np.load(sys.argv[1]), "y").SerializeToString())' \
    "$dir/$l/out/y.npy" "$dir/$l/test_data_set_0/output_0.pb"
  rm -r "$dir/$l/out"
done
have_ort=0
[[ -d "$root/bench/ort/node_modules/onnxruntime-node" ]] && have_ort=1
declare -A t o
layers=$(cd "$dir" && ls)
for ((r = 0; r < rounds; r++)); do
  for l in $layers; do
    line=$("$build/tools/onnx-scatter" bench "$dir/$l" --threads 1 -n 5 -w 1)
    t[$l]+="$(sed -n 's/.*"median_ms":\([0-9.e-]*\).*/\1/p' <<<"$line") "
    if ((have_ort)); then
      ol=$(cd "$root/bench/ort" && node --expose-gc ort_bench.js "$dir/$l" | grep ' 1t: ')
      o[$l]+="$(sed -n 's/.* 1t: median model_run \([0-9.e-]*\) ms.*/\1/p' <<<"$ol") "
      [[ $r -gt 0 ]] || echo "$l: onnxruntime's output against onnx-scatter's: ${ol#*; }"
    fi
  done
done
med() {
  tr ' ' '\n' | grep . | sort -g |
    awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'
}
# the ratio: the median of the rounds' own ratios (both runtimes timed in the same round)
ratios() { paste -d' ' <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) |
  awk '{printf "%s ", $1 / $2}'; }
printf '%-44s %9s %9s %8s\n' layer osc_ms ort_ms osc/ort
for l in $layers; do
  a=$(med <<<"${t[$l]}")
  e=0 q=0
  if ((have_ort)); then
    e=$(med <<<"${o[$l]}")
    q=$(ratios "${t[$l]}" "${o[$l]}" | med)
  fi
  awk -v l="$l" -v a="$a" -v e="$e" -v q="$q" 'BEGIN {
    ort = "-"; ratio = "-"
    if (e > 0) { ort = sprintf("%.3f", e); ratio = sprintf("%.2f", q) }
    printf "%-44s %9.3f %9s %8s\n", l, a, ort, ratio }'
done
