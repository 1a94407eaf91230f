#!/usr/bin/env bash
# run.sh: builds the libFuzzer harnesses (clang, ASan+UBSan) and runs each for a given time.
# Seeds are made at run time from the official node tests (read in place, seeds over 40 KiB left
# out), the malformed suite tests/bad/cases and the whole models of tests/models (GNN layers the
# fusion pass rewrites: their run seeds also come with flag 64, fused against unfused), plus
# fuzz/regress/ (inputs that once failed). The growing corpus stays in the work folder (never
# committed). A finding stops that harness; its input is saved as WORK/HARNESS/crash-* (or
# timeout-*, oom-*), printed last gzipped in base64, and the script exits 1 after running the
# other harnesses.
# shapes (fuzz_shapes.c) reads its input as a recipe, not as a model: its seeds are the few recipes
# osc-fuzz-mkseeds writes (fuzz/mkseeds.c).
# Usage: fuzz/run.sh [SECONDS] [HARNESS...]      (default: 60 seconds; load run inputs shapes)
# Environment: OSC_FUZZ_BUILD (default build-fuzz), OSC_FUZZ_WORK (default BUILD/work),
#              OSC_FUZZ_JOBS (harnesses at once, default the number of cores),
#              OSC_NODE_TESTS_DIR, OSC_DEBIAN_NODE_TESTS_DIR, OSC_FUZZ_ARGS (more libFuzzer flags).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
[ $# -gt 0 ] && shift
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(load run inputs shapes)
build="${OSC_FUZZ_BUILD:-build-fuzz}"
work="${OSC_FUZZ_WORK:-$build/work}"
node="${OSC_NODE_TESTS_DIR:-../shared/onnx-node-tests}"
debian="${OSC_DEBIAN_NODE_TESTS_DIR:-/usr/share/libonnx-testdata/data/node}"

CC=clang cmake -S . -B "$build" -DOSC_FUZZ=ON -DOSC_BUILD_TESTS=OFF -DOSC_BUILD_TOOLS=OFF \
  -DOSC_INSTALL=OFF -DOSC_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target osc-fuzz-load osc-fuzz-run osc-fuzz-inputs \
  osc-fuzz-shapes osc-fuzz-mkseeds >/dev/null

# Every node test (other ops still exercise the parser, and the companion kernels run), the
# malformed suite, the whole models, the torch control-flow exports (If, Loop: subgraphs to
# mutate); folders that are absent are skipped.
dirs=()
for d in "$node" "$debian"; do [ -d "$d" ] && dirs+=("$d"); done
rm -rf "$work/seeds"
mkdir -p "$work"
"$build/fuzz/osc-fuzz-mkseeds" "$work/seeds" "${dirs[@]}" tests/bad/cases tests/models \
  tests/torch/control >/dev/null

# One harness is one process on one core: OSC_FUZZ_JOBS of them (default: the number of cores)
# run at once, so the four take two rounds of SECONDS on two cores. Their reports follow in order.
fuzz_one() { # harness: runs it for SECONDS; its log is $work/$h/log; status 1 on a finding
  local h="$1" extra=() dict=(-dict=fuzz/onnx.dict) # protobuf tags; shapes reads recipes, not protobuf
  mkdir -p "$work/$h/corpus"
  [ -d "fuzz/regress/$h" ] && extra+=("fuzz/regress/$h")
  [ "$h" = shapes ] && dict=()
  # -timeout: one input taking 10 s is a finding (every input must finish in bounded time);
  # -rss_limit_mb/-malloc_limit_mb: the harnesses cap the library at 64 MiB, so a larger
  # allocation is a limit the library failed to enforce.
  "$build/fuzz/osc-fuzz-$h" -max_total_time="$secs" "${dict[@]}" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$work/$h/" ${OSC_FUZZ_ARGS:-} \
    "$work/$h/corpus" "$work/seeds/$h" "${extra[@]}" >"$work/$h/log" 2>&1
}
jobs="${OSC_FUZZ_JOBS:-$(nproc)}"
failed=() pids=()
for ((i = 0; i < ${#harnesses[@]}; i += jobs)); do
  batch=("${harnesses[@]:i:jobs}")
  echo "== fuzz ${batch[*]}: ${secs}s"
  pids=()
  for h in "${batch[@]}"; do fuzz_one "$h" & pids+=($!); done
  for k in "${!batch[@]}"; do
    h="${batch[$k]}"
    if ! wait "${pids[$k]}"; then
      failed+=("$h")
      tail -n 60 "$work/$h/log" >&2
    fi
    echo "-- $h"
    grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$work/$h/log" || true
  done
done
if [ ${#failed[@]} -gt 0 ]; then
  # Each finding's input, gzipped and in base64, last: a CI log's tail is often all one gets of a
  # run on another machine. `base64 -d | gunzip > input` restores it for fuzz/replay.sh.
  for h in "${failed[@]}"; do
    for f in "$work/$h"/crash-* "$work/$h"/timeout-* "$work/$h"/oom-* "$work/$h"/leak-*; do
      [ -f "$f" ] || continue
      echo "fuzz: $h finding $(basename "$f") ($(stat -c %s "$f") bytes), gzip | base64:" >&2
      gzip -9c "$f" | base64 -w0 >&2
      echo >&2
    done
  done
  echo "fuzz: findings in ${failed[*]} (inputs in $work/<harness>/)" >&2
  exit 1
fi
echo "fuzz: no findings"
