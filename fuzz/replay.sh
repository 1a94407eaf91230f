#!/bin/sh
# replay.sh: the ctest entry fuzz_replay: makes the seed corpora (fuzz/mkseeds.c) from the
# scatter-family node tests, the malformed suite and the whole models of tests/models (run seeds
# of models that fuse also compare fused against unfused), then runs each harness's replay
# program over its seeds and over fuzz/regress/HARNESS/ (inputs that once crashed). Any
# sanitizer report or harness check aborts the replay, which fails the test.
# Usage: replay.sh BUILD_FUZZ_DIR WORK_DIR SOURCE_DIR NODE_TESTS_DIR DEBIAN_NODE_TESTS_DIR
set -eu
bin="$1" work="$2" src="$3" node="$4" debian="$5"
rm -rf "$work"
mkdir -p "$work"
set --
for d in "$node" "$debian"; do
  for t in "$d"/test_scatter* "$d"/test_tensorscatter* "$d"/test_gather_elements* "$d"/test_gathernd*; do
    [ -f "$t/model.onnx" ] && set -- "$@" "$t"
  done
done
"$bin/osc-fuzz-mkseeds" "$work/seeds" "$@" "$src/tests/bad/cases" "$src/tests/models"
for h in load run inputs shapes; do
  extra=""
  [ -d "$src/fuzz/regress/$h" ] && extra="$src/fuzz/regress/$h"
  echo "== $h"
  "$bin/osc-fuzz-$h" "$work/seeds/$h" $extra
done
