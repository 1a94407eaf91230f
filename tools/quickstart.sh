#!/usr/bin/env bash
# quickstart.sh: installs what is missing, builds, and runs onnx-scatter on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
ex=examples/scatter_elements
build/tools/onnx-scatter run "$ex/model.onnx" --input data="$ex/data.pb" \
  --input indices="$ex/indices.pb" --input updates="$ex/updates.pb"
