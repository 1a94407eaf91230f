#!/bin/sh
# bench.sh: `onnx-scatter bench`: timing summary, per-node profile table, threads, exit codes.
#
# usage: bench.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
unit='[0-9.]* \(ns\|us\|ms\|s\)'

# ---- human output ----
cli bench "$m/profile.onnx" --random -n 5 -w 1
check "bench: header and min/median/max" eval 'status_is 0 && out_has "^$m/profile.onnx: 5 runs after 1 warmup, 1 thread$" &&
    out_has "^  min $unit   median $unit   max $unit$" && ! out_has "per node"'
cli bench "$m/profile.onnx" --random -n 5 -w 0 --profile
check "bench --profile: table header" eval 'status_is 0 && out_has "^per node (median of 5 runs; share of the median run):$" &&
    out_has "^ *# *node *op *kernel *shapes *median *share$"'
check "bench --profile: one row per node with op, kernel version, shapes, time, share" eval '
    out_has "^ *0  scatter  ScatterElements  *18  \[256, 64\] \[16, 64\] \[16, 64\] -> \[256, 64\]  *$unit  *[0-9.]*%$" &&
    out_has "^ *1  gather   GatherElements  *13  \[256, 64\] \[256, 8\] -> \[256, 8\]  *$unit  *[0-9.]*%$" &&
    out_has "(outside the nodes: binding, shape checks, planning)  *$unit  *[0-9.]*%$"'
check "bench --profile: the shares add up to 100%" eval '[ "$(sed -n "s/.* \([0-9.]*\)%$/\1/p" "$work/out" | awk "{s += \$1} END {print (s > 99.6 && s < 100.4)}")" = 1 ]'
cli bench "$m/profile.onnx" --random -n 3
check "bench: 1 thread by default" eval 'status_is 0 && out_has ", 1 thread$"'
cli bench "$m/profile.onnx" --random -n 3 --threads 4
check "bench --threads 4: the session runs 4 threads" eval 'status_is 0 && out_has ", 4 threads$"'
cli bench "$m/profile.onnx" --random -n 7 --threads 4 --profile --json
check "bench --json: threads used and requested, ordered times, node times measured" eval 'status_is 0 && jq_is threads 4 &&
    jq_is threads_requested 4 && jq_is runs 7 &&
    [ "$(printf "%s %s %s %s\n" "$("$jq" "$work/out" min_ms)" "$("$jq" "$work/out" median_ms)" "$("$jq" "$work/out" max_ms)" "$("$jq" "$work/out" nodes.0.median_ms)" |
        awk "{print (\$1 <= \$2 && \$2 <= \$3 && \$4 > 0)}")" = 1 ]'
cli bench "$m/ge_int64.onnx" '[[5,6],[7,8]]' '[[1,1],[0,0]]' -n 2
check "bench: positional inputs and literals" eval 'status_is 0 && out_has "2 runs after 2 warmup"'
cli bench "$m/random.onnx" --random 1 --dim N=4 --dim C=3 --dim K=2 --dim M=4 --dim P=2 --dim G=2 --dim Q=1 -n 2 --profile
check "bench --profile: shapes through symbolic dims" eval 'status_is 0 &&
    out_has "ScatterND  *18  \[4, 3\] \[4, 1\] \[4, 3\] -> \[4, 3\]" && out_has "GatherND  *13  \[4, 3\] \[4, 1, 1\] -> \[4, 1\]"'

# ---- usage errors (2) and failures (1) ----
cli bench; check "bench without MODEL -> 2" eval 'status_is 2 && one_error_line "missing MODEL or CASE_DIR"'
cli bench "$m/profile.onnx" -n 0; check "bench -n 0 -> 2" eval 'status_is 2 && one_error_line "-n wants a run count"'
cli bench "$m/profile.onnx" -w x; check "bench -w x -> 2" eval 'status_is 2 && one_error_line "-w wants a warmup count"'
cli bench "$m/profile.onnx" --threads 0; check "bench --threads 0 -> 2" eval 'status_is 2 && one_error_line "--threads wants a count from 1 to 256"'
cli bench "$m/profile.onnx" --bogus; check "bench unknown option -> 2" eval 'status_is 2 && one_error_line "unknown option .--bogus."'
cli bench "$m/profile.onnx"; check "bench missing inputs -> 2" eval 'status_is 2 && one_error_line "missing input .data."'
cli bench "$m/cases" --random; check "bench CASE_DIR with --random -> 2" eval 'status_is 2 && one_error_line "brings its own inputs"'
cli bench "$m/no_such.onnx"; check "bench missing model -> 1" eval 'status_is 1 && one_error_line "no_such.onnx"'
cli bench "$m/ge_int64.onnx" '[[5]]' '[[3]]' -n 2; check "bench failing run -> 1" eval 'status_is 1 && one_error_line "run failed: .*value 3 is out of range"'

finish
