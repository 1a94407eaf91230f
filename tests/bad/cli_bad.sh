#!/bin/sh
# cli_bad.sh: runs the malformed-model suite through the command line: `onnx-scatter run
# model.onnx [test_data_set_0/input_K.pb...]` must exit 0 for an OSC_OK case and 1 otherwise with
# a message on stderr, and finish within the CPU time limit. An optional wrapper (valgrind) runs the
# CLI; its own failure exit code (99 for the valgrind command tools/run-tests.sh uses) fails the case.
# Each case runs again with --no-fusion: the same exit code and, on success, the same printed
# outputs. A run failure the library reports ('run failed: ...') must hold each line of the case's
# `message` (fused) and `message_unfused` files (the CLI's own input checks word theirs apart).
# Usage: cli_bad.sh ONNX_SCATTER CASES_DIR WORK_DIR [LIMIT_SECONDS [WRAPPER...]]
set -u
cli="$1" cases="$2" work="$3" limit="${4:-1}"
shift 3
[ $# -gt 0 ] && shift
mkdir -p "$work"
failed=0 count=0

# CPU milliseconds (user + system) of this shell's finished children: the limit bounds the work a
# case makes, whatever else shares the machine (wall time failed cases on a loaded machine).
# Sets cpu. `times` must run in this shell (not in a pipe or $(...), whose subshell has no
# finished children).
child_cpu_ms() {
  times >"$work/.times"
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]);
                       t += a[1] * 60 + a[2] } printf "%d\n", t * 1000 }' "$work/.times")
}
for dir in "$cases"/*/; do
  dir="${dir%/}"
  name="${dir##*/}"
  [ -f "$dir/expect" ] || continue
  read -r want stage <"$dir/expect"
  inputs=""
  k=0
  while [ -f "$dir/test_data_set_0/input_$k.pb" ]; do
    inputs="$inputs $dir/test_data_set_0/input_$k.pb"
    k=$((k + 1))
  done
  child_cpu_ms
  start=$cpu
  # shellcheck disable=SC2086 # inputs: paths without blanks, split on purpose
  "$@" "$cli" run "$dir/model.onnx" $inputs >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  child_cpu_ms
  ms=$((cpu - start))
  count=$((count + 1))
  why=""
  if [ "$want" = OSC_OK ]; then
    [ "$rc" -eq 0 ] || why="exit $rc, expected 0: $(head -c 300 "$work/$name.err")"
  elif [ "$rc" -ne 1 ]; then
    why="exit $rc, expected 1: $(head -c 300 "$work/$name.err")"
  elif [ ! -s "$work/$name.err" ]; then
    why="exit 1 without a message on stderr"
  elif [ "$(grep -c '' "$work/$name.err")" -ne 1 ]; then
    why="stderr has more than one line: $(head -c 300 "$work/$name.err")"
  fi
  [ -z "$why" ] && [ "$ms" -gt $((limit * 1000)) ] && why="took $ms ms of CPU (limit ${limit} s)"
  if [ -z "$why" ]; then
    # shellcheck disable=SC2086 # as above
    "$@" "$cli" run "$dir/model.onnx" $inputs --no-fusion >"$work/$name.nf.out" \
      2>"$work/$name.nf.err"
    nf=$?
    if [ "$nf" -ne "$rc" ]; then
      why="exit $nf with --no-fusion, $rc without: $(head -c 300 "$work/$name.nf.err")"
    elif [ "$rc" -eq 0 ] && ! cmp -s "$work/$name.out" "$work/$name.nf.out"; then
      why="the outputs printed with --no-fusion differ"
    fi
  fi
  for pair in "message:$name.err" "message_unfused:$name.nf.err"; do
    words="$dir/${pair%%:*}" err="$work/${pair#*:}"
    [ -z "$why" ] && [ -f "$words" ] && [ -f "$err" ] && grep -q "run failed:" "$err" || continue
    while IFS= read -r w; do
      [ -n "$w" ] && ! grep -qF -- "$w" "$err" &&
        why="${pair%%:*}: lacks '$w': $(head -c 300 "$err")"
    done <"$words"
  done
  if [ -n "$why" ]; then
    echo "FAIL $name: $why"
    failed=$((failed + 1))
  else
    echo "PASS $name ($ms ms): $(head -c 160 "$work/$name.err")"
  fi
done
echo "$count cases, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" -eq 0 ]
