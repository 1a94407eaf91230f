#!/bin/sh
# subgraphs.sh: `info` lists each node's subgraphs (If's branches, Loop's body) under it, their
# nodes indented one level further, recursively, in text and JSON; `bench --profile` adds rows
# for the subgraphs' nodes (NODE.ATTRIBUTE.INDEX, op indented), whose times their control-flow
# node's time includes. nested.onnx (gen_cli_models): Loop 'loop' with body 'step' (add, If
# 'pick' with then 'keep' (keep_id) and else 'flip' (flip_neg), cond_id); the condition stays
# true, so 'flip' never runs. Also two scripted torch exports of tests/torch/control.
#
# usage: subgraphs.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
unit='[0-9.]* \(ns\|us\|ms\|s\)'
torch=$src/tests/torch/control

# ---- info ----
cli info "$m/nested.onnx"
check "info: the Loop, its attribute, then its body named with its node count and inputs" eval 'status_is 0 &&
    out_has "^  0 loop: Loop (ai.onnx, opset 16) -> kernel Loop-16$" && out_has "^      attributes: body=graph (below)$" &&
    out_has "^      body: graph .step., 3 nodes, inputs: 3 own + 1 from around it: .x.$"'
check "info: the body's nodes one level in, with their attributes" eval '
    out_has "^        0 add: Add (ai.onnx, opset 16) -> kernel Add-14$" &&
    out_has "^        1 pick: If (ai.onnx, opset 16) -> kernel If-16$" &&
    out_has "^            attributes: then_branch=graph (below), else_branch=graph (below)$" &&
    out_has "^        2 cond_id: Identity (ai.onnx, opset 16) -> kernel Identity-16$"'
check "info: the If in the body: both branches, reading from one and two graphs out" eval '
    out_has "^            then_branch: graph .keep., 1 node, inputs: 0 own + 1 from around it: .s.$" &&
    out_has "^              0 keep_id: Identity (ai.onnx, opset 16) -> kernel Identity-16$" &&
    out_has "^            else_branch: graph .flip., 1 node, inputs: 0 own + 1 from around it: .x.$" &&
    out_has "^              0 flip_neg: Neg (ai.onnx, opset 16) -> kernel Neg-13$"'
check "info: lines in model order (each subgraph after its node's attributes, before the next node)" eval '
    [ "$(sed -n "s/^ *[0-9][0-9]* \([a-z_]*\): .*/\1/p; s/^ *\([a-z_]*\): graph .*/\1/p" "$work/out" |
        tr "\n" ,)" = "loop,body,add,pick,then_branch,keep_id,else_branch,flip_neg,cond_id," ]'
cli info "$m/nested.onnx" --json
check "info --json: a subgraphs array per node, with the same node objects, recursively" eval 'status_is 0 && json_ok &&
    jq_is nodes.0.subgraphs.0.attribute "\"body\"" && jq_is nodes.0.subgraphs.0.name "\"step\"" &&
    jq_is nodes.0.subgraphs.0.node_count 3 && jq_is nodes.0.subgraphs.0.own_inputs 3 &&
    jq_is nodes.0.subgraphs.0.outer_inputs "[\"x\"]" && jq_len nodes.0.subgraphs.0.nodes 3 &&
    jq_is nodes.0.subgraphs.0.nodes.0.op_type "\"Add\"" && jq_is nodes.0.subgraphs.0.nodes.0.subgraphs "[]" &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.1.attribute "\"else_branch\"" &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.1.own_inputs 0 &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.1.outer_inputs "[\"x\"]" &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.1.nodes.0.op_type "\"Neg\"" &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.0.nodes.0.inputs "[\"s\"]"'
cli info "$torch/loop_cat_opset13/model.onnx"
check "info: a torch Loop: its body (own inputs, the constant it reads) and body nodes" eval 'status_is 0 &&
    out_has "^      body: graph .torch_jit1., 11 nodes, inputs: 3 own + 1 from around it: ./Constant_output_0.$" &&
    out_has "^        4 /Slice: Slice (ai.onnx, opset 13) -> kernel Slice-13$" &&
    out_has "^        9 /Concat: Concat (ai.onnx, opset 13) -> kernel Concat-13$" && out_has "^            attributes: axis=0$"'
cli info "$torch/if_scatter_opset13/model.onnx"
check "info: a torch If: both branches read the model's inputs" eval 'status_is 0 &&
    out_has "^      then_branch: graph .torch_jit1., 14 nodes, inputs: 0 own + 3 from around it: .idx., .x., .v.$" &&
    out_has "^      else_branch: graph .torch_jit2., 11 nodes, inputs: 0 own + 3 from around it: .idx., .x., .v.$" &&
    out_has "^        10 /ScatterND_1: ScatterND (ai.onnx, opset 13) -> kernel ScatterND-13$"'

# ---- bench --profile ----
cli bench "$m/nested.onnx" 3 '[1,2,3]' -n 2 --profile
check "bench --profile: a row per subgraph node, NODE.ATTRIBUTE.INDEX, the op indented per level" eval 'status_is 0 &&
    out_has "^ *0  loop  *Loop  *16  \[\] - \[3\] \[3\] -> \[3\]  *$unit  *[0-9.]*%$" &&
    out_has "^ *0\.body\.0  add  *  Add  *14  \[3\] \[3\] -> \[3\]  *$unit  *( *[0-9.]*%)$" &&
    out_has "^ *0\.body\.1  pick  *  If  *16  .*  *$unit  *( *[0-9.]*%)$" &&
    out_has "^ *0\.body\.1\.then_branch\.0  keep_id  *    Identity  *16  .*  *$unit  *( *[0-9.]*%)$" &&
    out_has "^ *0\.body\.2  cond_id  *  Identity  *16 "'
check "bench --profile: the branch never taken is not run" eval '
    out_has "^ *0\.body\.1\.else_branch\.0  flip_neg  *    Neg  *13  .* not run  *-$"'
check "bench --profile: rows in model order" eval '
    [ "$(sed -n "s/^ *\([0-9][0-9a-z_.]*\)  .*/\1/p" "$work/out" | tr "\n" ,)" = "0,0.body.0,0.body.1,0.body.1.then_branch.0,0.body.1.else_branch.0,0.body.2," ]'
# shares: the model's nodes and the rest add up to 100%; a subgraph's (in parentheses) are
# within their node's: the body's rows add up to no more than the Loop's, keep_id's to pick's
pct() { sed -n "s/^ *$1  .* ( *\([0-9.]*\)%)$/\1/p; s/^ *$1  .* \([0-9.]*\)%$/\1/p" "$work/out"; }
check "bench --profile: the model's shares add up to 100%" eval '
    [ "$(sed -n "s/.* \([0-9.]*\)%$/\1/p" "$work/out" | awk "{s += \$1} END {print (s > 99.6 && s < 100.4)}")" = 1 ]'
check "bench --profile: a control-flow node's time includes its subgraph rows" eval '
    awk "BEGIN { exit !($(pct "0\.body\.0") + $(pct "0\.body\.1") + $(pct "0\.body\.2") <= $(pct 0) + 0.2 &&
        $(pct "0\.body\.1\.then_branch\.0") <= $(pct "0\.body\.1") + 0.2 && $(pct "0\.body\.0") > 0) }"'
check "bench --profile: the legend explains the subgraph rows and the trace" eval '
    out_has "NODE.ATTRIBUTE.INDEX" && out_has "indented two spaces per subgraph level" &&
    out_has "time includes the$" && out_has "^  not run " && out_has "traces the model.s own$"'
cli bench "$m/nested.onnx" 3 '[1,2,3]' -n 2 --profile --json
check "bench --profile --json: subgraphs per node, recursively, with their times" eval 'status_is 0 && json_ok &&
    jq_is nodes.0.subgraphs.0.attribute "\"body\"" && jq_is nodes.0.subgraphs.0.nodes.0.op "\"Add\"" &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.0.nodes.0.name "\"keep_id\"" &&
    jq_is nodes.0.subgraphs.0.nodes.1.subgraphs.1.nodes.0.median_ms 0.000000 &&
    [ "$("$jq" "$work/out" nodes.0.subgraphs.0.nodes.0.median_ms)" != 0.000000 ] &&
    jq_is nodes.0.subgraphs.0.nodes.0.subgraphs "[]"'
cli bench "$m/nested.onnx" 3 '[1,2,3]' -n 2 --profile-out "$work/trace.json"
check "bench --profile-out: the model's own nodes only (the Loop's event covers its body)" eval 'status_is 0 &&
    [ "$(grep -c "\"cat\":\"Node\"" "$work/trace.json")" = 2 ] && grep -q "\"name\":\"loop\"" "$work/trace.json" &&
    ! grep -q "\"name\":\"add\"" "$work/trace.json"'
cli bench "$torch/loop_cat_opset13/model.onnx" --dim rows=4 '[[1,2,3],[4,5,6],[1,1,1],[2,2,2]]' 5 -n 2 --profile
check "bench --profile: a torch Loop's body rows, timed, folded constants marked" eval 'status_is 0 &&
    out_has "^ *1  /Loop  *Loop  *13  .* -> \[9, 3\]  *$unit  *[0-9.]*%$" &&
    out_has "^ *1\.body\.4  /Slice  *  Slice  *13  .*  *$unit  *( *[0-9.]*%)$" &&
    out_has "^ *1\.body\.9  /Concat  *  Concat  *13  .*  *$unit  *( *[0-9.]*%)$" &&
    out_has "^ *1\.body\.0  /Constant_1  *  Constant  *13  .* folded  *-$"'

finish
