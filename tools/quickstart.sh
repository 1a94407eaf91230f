#!/usr/bin/env bash
# quickstart.sh: installs what is missing, builds the library and the CLI (not the tests, fuzz
# harnesses or benchmarks: tools/run-tests.sh builds those), and runs the CLI on the bundled
# example, saying what it does at each stage.
# Usage: tools/quickstart.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="$(nproc 2>/dev/null || echo 2)"
start=$SECONDS
stage() { printf '\n== [%d/4] %s (%ds so far)\n' "$1" "$2" $((SECONDS - start)); }

stage 1 "Debian packages the build needs (tools/setup-deps.sh quickstart)"
tools/setup-deps.sh quickstart
echo "all present"

stage 2 "configuring $build/ (library and CLI only: OSC_BUILD_TESTS=OFF, OSC_BUILD_BENCH=OFF)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOSC_BUILD_TESTS=OFF -DOSC_BUILD_BENCH=OFF

stage 3 "building libonnxscatter (static and shared) and the onnx-scatter CLI, $jobs jobs"
cmake --build "$build" -j"$jobs" --target onnxscatter onnxscatter_shared onnx-scatter

stage 4 "running the CLI on examples/scatter_elements"
ex=examples/scatter_elements
echo "+ $build/tools/onnx-scatter run $ex/model.onnx --input data=... indices=... updates=..."
"$build/tools/onnx-scatter" run "$ex/model.onnx" --input data="$ex/test_data_set_0/input_0.pb" \
  --input indices="$ex/test_data_set_0/input_1.pb" --input updates="$ex/test_data_set_0/input_2.pb"

printf '\ndone in %ds: the CLI is %s/tools/onnx-scatter; try\n' $((SECONDS - start)) "$build"
echo "  export PATH=\"\$PWD/$build/tools:\$PATH\""
echo "  onnx-scatter bench $ex/model.onnx --random --profile"
echo "The test suite (its own build folders): tools/run-tests.sh plain"
