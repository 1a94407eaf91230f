#!/bin/sh
# info.sh: `info` shows each node's attributes and what load did to it (folded, fused); a node
# the model leaves unnamed is "#INDEX OP" in info, bench --profile and error messages alike.
#
# usage: info.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"

cli info "$m/chain.onnx"
check "info: node count with how many were folded and fused" eval 'status_is 0 && out_has "^nodes: 3 (1 folded at load, 1 fused)$"'
check "info: an unnamed node is #INDEX OP" eval 'out_has "^  0 #0 Mul: Mul (ai.onnx, opset 13) -> kernel Mul-13$"'
check "info: a folded node, and the constant its output became" eval '
    out_has "^  1 const: Constant (ai.onnx, opset 13) -> kernel Constant-13, folded at load: .shape. = int64 \[2\] {5, 4}$"'
check "info: attributes (a tensor with its dtype, shape and few values; an int)" eval '
    out_has "^      attributes: value=tensor int64 \[2\] {5, 4}$" && out_has "^      attributes: axis=0$"'
check "info: a fused node and what it replaced" eval 'out_has "^  2 rows: RowGather (osc, opset 13) -> kernel RowGather-1$" &&
    out_has "^      fused from: Unsqueeze .unsq., Expand .expand., GatherElements .rows.$" &&
    out_has "^      rule: row_gather$"'
cli info "$m/walk.onnx"
check "info: attributes of several kinds (to with its dtype name, a negative axis)" eval 'status_is 0 &&
    out_has "^  1 cast: Cast (ai.onnx, opset 13) -> kernel Cast-13$" && out_has "^      attributes: to=6 (int32)$" &&
    out_has "^  6 concat: Concat .*$" && out_has "^      attributes: axis=-1$"'
cli info "$m/opset40.onnx" --newer-opsets
check "info: a string attribute is quoted" eval 'status_is 0 && out_has "^      attributes: reduction=.add.$"'
cli info "$m/chain.onnx" --json
check "info --json: folded and attributes per node" eval 'status_is 0 && jq_is nodes.1.folded true && jq_is nodes.0.folded false &&
    jq_is nodes.1.attributes "{\"value\":{\"dtype\":\"int64\",\"shape\":[2]}}" && jq_is nodes.2.attributes "{\"axis\":0}" &&
    jq_is nodes.0.attributes "{}"'
cli info "$m/walk.onnx" --json
check "info --json: int attributes as numbers" eval 'status_is 0 && jq_is nodes.1.attributes "{\"to\":6}"'

# ---- one spelling of an unnamed node everywhere ----
cli info "$m/unnamed.onnx"
check "info: #0 Identity, #1 GatherElements" eval 'out_has "^  0 #0 Identity: Identity" && out_has "^  1 #1 GatherElements: GatherElements"'
cli bench "$m/unnamed.onnx" '[[1,2,3],[4,5,6]]' '[[0,1,2],[2,1,0]]' -n 2 --profile
check "bench --profile: the same names" eval 'status_is 0 && out_has "^ *0  #0 Identity  *Identity " && out_has "^ *1  #1 GatherElements  *GatherElements "'
cli run "$m/unnamed.onnx" '[[1,2,3],[4,5,6]]' '[[0,1,2],[2,1,9]]'
check "run: a failing unnamed node is named the same way" eval 'status_is 1 &&
    one_error_line "run failed: node #1 GatherElements (GatherElements-13): "'
cli test "$m/skipcases" -f test_conv
check "test: an unsupported unnamed node too" eval 'out_has "^SKIP test_conv: unsupported op ConvInteger-13 (node #0 ConvInteger, "'

finish
