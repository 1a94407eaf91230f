#!/usr/bin/env bash
# quickstart.sh: installs what is missing, builds, and runs onnx-scatter on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
ex=examples/scatter_elements
build/tools/onnx-scatter run "$ex/model.onnx" --input data="$ex/test_data_set_0/input_0.pb" \
  --input indices="$ex/test_data_set_0/input_1.pb" --input updates="$ex/test_data_set_0/input_2.pb"
