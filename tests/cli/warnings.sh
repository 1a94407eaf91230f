#!/bin/sh
# warnings.sh: the model's load warnings reach the user: one stderr line each, once per model,
# in every command and in --json; --strict turns them into errors. Models: a deprecated
# Scatter-11 (also as the node-test folder warncases/test_scatter11) and an output declared
# [2, 4] that the graph computes [2, 3].
#
# usage: warnings.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
dep="onnx-scatter: warning: node 'old' (Scatter-11): deprecated; it still runs"
warns() { [ "$(grep -c "^onnx-scatter: warning: " "$work/err")" -eq "$1" ] && [ "$(wc -l <"$work/err")" -eq "$1" ]; }

# ---- deprecated op ----
cli run "$m/scatter11.onnx" '[[1,2,3,4,5]]' '[[1,3]]' '[[9,9]]'
check "run: a deprecated op prints its warning once on stderr, after the outputs" eval 'status_is 0 &&
    out_has "^y: float \[1, 5\]$" && warns 1 && err_has "^$dep"'
cli run "$m/scatter11.onnx" '[[1,2,3,4,5]]' '[[1,3]]' '[[9,9]]' --json
check "run --json: the warnings are in the object too" eval 'status_is 0 && jq_len warnings 1 &&
    "$jq" "$work/out" warnings.0 | grep -q "deprecated" && warns 1'
cli run "$m/scatter11.onnx" '[[1,2,3,4,5]]' '[[1,3]]' '[[9,9]]' --strict
check "run --strict: the warning is an error (exit 1, one line)" eval 'status_is 1 &&
    one_error_line "node .old. (Scatter-11): deprecated, and strict mode refuses deprecated ops"'
cli bench "$m/scatter11.onnx" --random -n 5 -w 3
check "bench: the warning once for all the runs" eval 'status_is 0 && warns 1 && err_has "^$dep"'
cli bench "$m/scatter11.onnx" --random -n 2 --json
check "bench --json: warnings" eval 'status_is 0 && jq_len warnings 1'
cli bench "$m/scatter11.onnx" --random -n 2 --strict
check "bench --strict -> 1" eval 'status_is 1 && one_error_line "strict mode refuses deprecated ops"'
cli bench "$m/warncases" -n 2
check "bench CASE_DIR: warnings in the case line and once on stderr, named by the case" eval 'status_is 0 &&
    jq_len warnings 1 && warns 1 && err_has "^onnx-scatter: warning: test_scatter11: node .old. (Scatter-11): deprecated"'
cli test "$m/warncases"
check "test: the warning once per test, named by the test" eval 'status_is 0 && out_last_is "1 passed, 0 failed, 0 skipped" &&
    warns 1 && err_has "^onnx-scatter: warning: test_scatter11: node .old. (Scatter-11): deprecated"'
cli test "$m/warncases" --json
check "test --json: warnings per test" eval 'status_is 0 && jq_len tests.0.warnings 1'
cli test "$m/cases" --json -f test_ge_float
check "test --json: warnings [] for a model without any" eval 'status_is 0 && jq_is tests.0.warnings "[]"'
cli test "$m/warncases" --strict
check "test --strict: a refused deprecated op is a failure, not a skip" eval 'status_is 1 &&
    out_has "^FAIL test_scatter11: .*strict mode refuses deprecated ops" && out_last_is "0 passed, 1 failed, 0 skipped"'
cli info "$m/scatter11.onnx" --strict
check "info --strict -> 1" eval 'status_is 1 && one_error_line "strict mode refuses deprecated ops"'

# ---- a stale declared output shape: both shapes named; the computed one wins ----
cli run "$m/stale_shape.onnx" '[[1,2,3],[4,5,6]]'
check "run: a stale declared output dim is a warning naming both shapes; the computed shape wins" eval 'status_is 0 &&
    out_has "^y: float \[2, 3\]$" && warns 1 &&
    err_has "^onnx-scatter: warning: graph output .y. is declared as float \[2,4\] but the graph computes float \[2,3\]; the computed shape is used$"'
cli info "$m/stale_shape.onnx" --json
check "info --json: the computed output shape and the warning" eval 'status_is 0 && jq_is outputs.0.shape "[2,3]" && jq_len warnings 1'
cli run "$m/stale_shape.onnx" '[[1,2,3],[4,5,6]]' --strict
check "run --strict: a stale declared shape is refused, naming both shapes" eval 'status_is 1 &&
    one_error_line "declared as float \[2,4\] but the graph computes float \[2,3\] (strict mode refuses a stale declared shape)"'

finish
