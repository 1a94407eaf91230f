# smoke_common.sh: what the ctest smoke tests of bench/ (smoke.sh, gnn_smoke.sh) share; sourced.

# Exits 77 (ctest: skipped) unless onnxruntime can run for ORT_SCRIPT: onnxruntime-node in its
# node_modules and node ($OSC_BENCH_NODE or `node`).
smoke_need_ort() {
  local ort=$1
  if [[ ! -d $(dirname "$ort")/node_modules/onnxruntime-node ]]; then
    echo "SKIP: onnxruntime-node is not installed in $(dirname "$ort")/node_modules (bench/run.sh installs it)"
    exit 77
  fi
  if ! command -v "${OSC_BENCH_NODE:-node}" >/dev/null; then
    echo "SKIP: node not found"
    exit 77
  fi
}

# smoke_round HARNESS WORK ORT_SCRIPT BAD DIR...: one warm-up and one timed round of HARNESS over
# the DIRs (with onnxruntime when ORT_SCRIPT is not empty), the Markdown into WORK/results.md.
# Prints the output and keeps it in $out; fails the test when the harness fails or a line of the
# output matches BAD (a grep pattern).
smoke_round() {
  local harness=$1 work=$2 ort=$3 bad=$4 rc
  shift 4
  local args=(--warmup 1 --rounds 1 --markdown "$work/results.md")
  [[ -n $ort ]] && args+=(--ort "$ort")
  out=$("$harness" "${args[@]}" "$@" 2>&1); rc=$?
  echo "$out"
  [[ $rc -eq 0 ]] || { echo "FAIL: the harness exited $rc"; exit 1; }
  if grep -q "$bad" <<<"$out"; then echo "FAIL: see above"; exit 1; fi
}
