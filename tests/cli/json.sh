#!/bin/sh
# json.sh: --json of run, info, test and bench, parsed back by a strict JSON checker.
#
# usage: json.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
ident='[[0,0,0],[1,1,1]]'

# the checker itself refuses what is not JSON, so the checks below mean something
printf '{"a":[1,2,],"b":NaN}' >"$work/bad.json"
"$jq" "$work/bad.json" >/dev/null 2>&1
rc=$?
check "json_query refuses invalid JSON" status_is 1
printf '{"a":1,"a":2}' >"$work/bad.json"
"$jq" "$work/bad.json" >/dev/null 2>&1
rc=$?
check "json_query refuses duplicate keys" status_is 1

# ---- run ----
rm -rf "$work/o"
cli run "$m/ge_float.onnx" "$m/x_float.npy" "$ident" --json -o "$work/o"
check "run --json: one valid JSON value" eval 'status_is 0 && json_ok && [ "$(wc -l <"$work/out")" -eq 1 ]'
check "run --json: model, threads, inputs" eval 'jq_is model "\"$m/ge_float.onnx\"" && jq_is threads 1 &&
    jq_is inputs.0.name "\"data\"" && jq_is inputs.0.source "\"$m/x_float.npy\"" && jq_is inputs.1.source "\"literal\"" &&
    jq_is inputs.1.dtype "\"int64\"" && jq_is inputs.1.shape "[2,3]"'
check "run --json: outputs with nested data" eval 'jq_len outputs 1 && jq_is outputs.0.name "\"y\"" &&
    jq_is outputs.0.dtype "\"float\"" && jq_is outputs.0.shape "[2,3]" &&
    jq_is outputs.0.data "[[0,1.5,-2],[3.25,100,-0.5]]" && jq_is files "[\"$work/o/y.npy\"]"'
cli run "$m/ge_float.onnx" --input data='[[1.5, nan], [-inf, 0.1]]' --input indices='[[1,0],[0,1]]' --json
check "run --json: non-finite floats as strings, float32 digits" eval 'status_is 0 && json_ok &&
    jq_is outputs.0.data "[[\"-inf\",\"nan\"],[1.5,0.1]]"'
cli run "$m/ge_complex128.onnx" '[[1+2j]]' '[[0]]' --json
check "run --json: complex as [re, im]" eval 'status_is 0 && jq_is outputs.0.data "[[[1,2]]]"'
cli run "$m/ge_string.onnx" --input data="$m/x_string.pb" --input indices="$ident" --json
check "run --json: strings escaped, bytes that are not UTF-8 as \\u00XX" eval 'status_is 0 && json_ok &&
    jq_is outputs.0.data.0.1 "\"\\u00ff\\u0000z\"" && jq_is outputs.0.data.1.0 "\"é\""'
cli run "$m/ge_bool.onnx" "$m/x_bool.npy" "$ident" --json
check "run --json: bools" eval 'status_is 0 && jq_is outputs.0.data "[[true,false,false],[true,false,false]]"'
cli run "$m/random.onnx" --random 5 --dim N=2 --dim C=2 --dim K=1 --dim M=1 --dim P=1 --dim G=1 --dim Q=1 --json
check "run --json: seed and random sources" eval 'status_is 0 && jq_is seed 5 && jq_is inputs.2.source "\"random\"" && jq_len inputs 8'
cli run "$m/ge_float.onnx" "$m/x_float.npy" '[[0,0],[1,1]]' --json
check "run --json: an error is still one stderr line, no stdout" eval 'status_is 1 && one_error_line "expects int64"'

# ---- info ----
cli info "$m/random.onnx" --json
check "info --json: valid" eval 'status_is 0 && json_ok'
check "info --json: opsets, inputs with symbolic dims by name" eval 'jq_is opsets "[{\"domain\":\"ai.onnx\",\"version\":18}]" &&
    jq_len inputs 8 && jq_is inputs.0.shape "[\"N\",\"C\"]" && jq_is inputs.3.shape "[\"M\",1]" && jq_is inputs.0.has_default false'
check "info --json: nodes with kernel versions and value names" eval 'jq_len nodes 5 && jq_is nodes.1.op_type "\"ScatterND\"" &&
    jq_is nodes.1.kernel_version 18 && jq_is nodes.4.inputs "[\"b\",\"i4\"]" && jq_is nodes.4.outputs "[\"y2\"]" &&
    jq_is arena_bytes 0 && jq_is warnings "[]"'

# ---- test ----
cli test "$m/cases" --json
check "test --json: valid, exit 1 with a failure" eval 'status_is 1 && json_ok'
check "test --json: one entry per folder, sorted, with status" eval 'jq_len tests 5 && jq_is tests.0.name "\"misc_ge_float\"" &&
    jq_is tests.0.status "\"pass\"" && jq_is tests.4.name "\"test_ge_wrong\"" && jq_is tests.4.status "\"fail\"" &&
    "$jq" "$work/out" tests.4.message | grep -q "output .y. at flat index 0: expected -1, got 1"'
check "test --json: the op types of each loaded model" eval 'jq_is tests.0.ops "[\"GatherElements\"]" && jq_is tests.4.ops "[\"GatherElements\"]"'
check "test --json: counts and tolerance" eval 'jq_is passed 3 && jq_is failed 2 && jq_is skipped 0 && jq_is rtol 0.001 && jq_is atol 1e-07'

# ---- bench ----
cli bench "$m/profile.onnx" --random -n 3 -w 1 --profile --json
check "bench --json: valid, times, profile" eval 'status_is 0 && json_ok && jq_is runs 3 && jq_is warmup 1 && jq_is threads 1 &&
    jq_is impl "\"onnx-scatter\"" && jq_len nodes 2 && jq_is nodes.0.op "\"ScatterElements\"" &&
    jq_is nodes.0.input_shapes "[[256,64],[16,64],[16,64]]" && jq_is nodes.1.output_shapes "[[256,8]]"'
cli bench "$m/cases/test_ge_float" -n 2
check "bench CASE_DIR: the documented JSON line" eval 'status_is 0 && "$jq" -l "$work/out" >/dev/null &&
    jq_is case "\"test_ge_float\"" && jq_is impl "\"onnx-scatter\"" && jq_is runs 2 && jq_is max_abs_err 0 &&
    "$jq" "$work/out" median_ms >/dev/null && "$jq" "$work/out" min_ms >/dev/null && "$jq" "$work/out" max_ms >/dev/null'
cli bench "$m/cases" -n 1
check "bench folder of cases: one JSON line each, max_abs_err" eval 'status_is 0 && "$jq" -l "$work/out" case >"$work/cases" &&
    [ "$(tr "\n" " " <"$work/cases")" = "\"misc_ge_float\" \"test_ge_close\" \"test_ge_float\" \"test_ge_int64\" \"test_ge_wrong\" " ] &&
    [ "$("$jq" -l "$work/out" max_abs_err | tr "\n" " ")" = "0 1 0 0 200 " ]'
cli bench "$m/errcases" -n 1
head -n 1 "$work/out" >"$work/line"
check "bench: a failing case is a JSON line with error, one stderr line, exit 1" eval 'status_is 1 &&
    "$jq" -l "$work/out" >/dev/null && [ "$(wc -l <"$work/out")" -eq 2 ] &&
    jq_is case "\"test_ge_badindex\"" "$work/line" && "$jq" "$work/line" error | grep -q "value 7" &&
    ! "$jq" "$work/line" median_ms >/dev/null 2>&1 && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    err_has "bench test_ge_badindex: run failed"'

finish
