#!/bin/sh
# versions.sh: what the kernel registry's rows mean on the command line: `info --ops` lists
# them; a variadic op takes any number of inputs; a dtype outside an op version's type
# constraint is refused at load naming the allowed types; an opset newer than the newest known
# is refused, and runs with --newer-opsets and a warning.
#
# usage: versions.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"

# ---- the registry ----
cli info --ops
check "info --ops: one line per kernel version" eval 'status_is 0 && out_has "^opset_newest: ai.onnx-28$" &&
    out_has "^  ScatterND-11: opsets 11 to 12, inputs 3, outputs 1$" &&
    out_has "^  Scatter-11: opsets 11 to 28, inputs 3, outputs 1 (deprecated)$" &&
    out_has "^  Concat-13: opsets 13 to 28, inputs 1 or more, outputs 1$" &&
    out_has "^  Split-18: opsets 18 to 28, inputs 1 to 2, outputs 1 or more$" &&
    out_has "^  Dropout-22: opsets 22 to 28, inputs 1 to 3, outputs 1 to 2$"'
n_text=$(grep -c '^  [A-Za-z][A-Za-z0-9]*-[0-9]*: opsets' "$work/out")
cli info --ops --json
check "info --ops --json: the same rows" eval 'status_is 0 && json_ok && jq_is opset_newest 28 &&
    jq_len ops "$n_text" && jq_is "ops.0.op_type" "\"Scatter\"" && jq_is "ops.0.until_version" 10 &&
    jq_is "ops.0.min_outputs" 1 && jq_is "ops.0.max_outputs" 1'
cli info --ops "$m/concat20.onnx"
check "info --ops with a MODEL -> 2" eval 'status_is 2 && one_error_line "takes no MODEL"'

# ---- variadic: Concat of 20 inputs ----
set --
i=0
while [ $i -lt 20 ]; do set -- "$@" "[[$i,$((i + 100))]]"; i=$((i + 1)); done
cli run "$m/concat20.onnx" "$@" --json
check "Concat of 20 inputs runs" eval 'status_is 0 && jq_is "outputs.0.shape" "[20,2]" &&
    jq_is "outputs.0.data.19" "[19,119]" && jq_is "outputs.0.data.0" "[0,100]"'

# ---- type constraints per version ----
cli run "$m/scatternd11_bf16.onnx" '[1,2,3,4]:bfloat16' '[[1]]' '[9]:bfloat16'
check "ScatterND-11 refuses bfloat16 data, naming the allowed types" eval 'status_is 1 &&
    one_error_line "ScatterND-11): input 0 .data. has dtype bfloat16; expected float, uint8, .*complex64 or complex128 (the type constraint of ScatterND-11)"'
cli info "$m/scatternd11_bf16.onnx"
check "... at load (info)" eval 'status_is 1 && one_error_line "type constraint of ScatterND-11"'

# ---- opsets newer than the newest known ----
cli run "$m/opset40.onnx" '[1,2,3]' '[0,0]' '[5,6]'
check "opset 40 is refused at load" eval 'status_is 1 &&
    one_error_line "imports opset 40 of domain .ai.onnx.; the newest this library knows is 28.*--newer-opsets"'
cli run "$m/opset40.onnx" '[1,2,3]' '[0,0]' '[5,6]' --newer-opsets --json
check "opset 40 runs with --newer-opsets and a warning" eval 'status_is 0 &&
    jq_is "outputs.0.data" "[12,2,3]" && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    err_has "^onnx-scatter: warning: the model imports opset 40 .*run with the opset 28 kernels"'
cli info "$m/opset40.onnx" --newer-opsets --json
check "info --newer-opsets lists the warning" eval 'status_is 0 && jq_len warnings 1'
finish
