#!/bin/sh
# profile.sh: bench --profile shows the shapes every node really had (never '?' for a node that
# ran), marks folded nodes, explains its symbols; --profile-out writes a Chrome trace; bench
# CASE_DIR takes -f GLOB and prints SKIP as test does. Model chain.onnx: an unnamed Mul, a
# Constant folded at load, Unsqueeze -> Expand -> GatherElements fused into a RowGather (which
# reads the index before the Unsqueeze).
#
# usage: profile.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
unit='[0-9.]* \(ns\|us\|ms\|s\)'

cli bench "$m/chain.onnx" --random -n 3 -w 1 --profile
check "--profile: shapes of every op (not only the scatter family), the unnamed node as #0 Mul" eval 'status_is 0 &&
    out_has "^ *0  #0 Mul  *Mul  *13  \[8, 4\] \[8, 4\] -> \[8, 4\]  *$unit  *[0-9.]*%$" &&
    out_has "^ *2  rows  *RowGather  *1  \[8, 4\] \[5\] -> \[5, 4\]  *$unit"'
check "--profile: no node shows an unknown shape" eval '! sed -n "/^ *[0-9][0-9]*  /p" "$work/out" | grep -q "?"'
check "--profile: a node folded at load is marked, with no time" eval 'out_has "^ *1  const  *Constant  *13   *-> \[2\]  *folded  *-$"'
check "--profile: a fused node says what it replaced" eval 'out_has "^ *2  fused from: Unsqueeze .unsq., Expand .expand., GatherElements .rows.$"'
check "--profile: a legend explains every column and symbol" eval 'out_has "^legend:$" &&
    for w in "#  " "node  " "op  " "kernel  " "shapes  " "median  " "share  " "folded  "; do grep -q "^  $w" "$work/out" || exit 1; done &&
    out_has "#INDEX OP when the model leaves it unnamed" && out_has "(1 of 3 nodes)"'
check "--profile: the shares of the nodes that ran and the rest add up to 100%" eval '[ "$(sed -n "s/.* \([0-9.]*\)%$/\1/p" "$work/out" | awk "{s += \$1} END {print (s > 99.6 && s < 100.4)}")" = 1 ]'
cli bench "$m/chain.onnx" --random -n 2 --profile --no-fusion
check "--profile --no-fusion: the graph as written, the Expand and GatherElements with their shapes" eval 'status_is 0 &&
    out_has "^ *3  expand  *Expand  *13  \[5, 1\] \[2\] -> \[5, 4\]" && out_has "^ *4  rows  *GatherElements  *13  \[8, 4\] \[5, 4\] -> \[5, 4\]" &&
    ! out_has "^ *[0-9][0-9]*  fused from:"'
cli bench "$m/chain.onnx" --random -n 2 --profile --json
check "--profile --json: real shapes and folded per node" eval 'status_is 0 && jq_is nodes.0.input_shapes "[[8,4],[8,4]]" &&
    jq_is nodes.1.folded true && jq_is nodes.1.output_shapes "[[2]]" && jq_is nodes.2.output_shapes "[[5,4]]" && jq_is nodes.0.folded false'

# ---- --profile-out: a Chrome trace of the timed runs ----
cli bench "$m/chain.onnx" --random -n 4 -w 1 --profile-out "$work/trace.json"
check "--profile-out: says where the trace is" eval 'status_is 0 && out_has "^trace of the timed runs: $work/trace.json (Chrome trace events"'
events() { "$jq" -n "$work/trace.json" ""; }
check "--profile-out: valid JSON, one Session event per run and a Node event per node that ran" eval '
    [ "$(events)" = 12 ] && jq_is 0.cat "\"Session\"" "$work/trace.json" && jq_is 0.ph "\"X\"" "$work/trace.json" &&
    jq_is 1.cat "\"Node\"" "$work/trace.json" && jq_is 1.name "\"#0 Mul\"" "$work/trace.json" &&
    [ "$(grep -c "\"cat\":\"Node\"" "$work/trace.json")" = 8 ] && ! grep -q "\"name\":\"const\"" "$work/trace.json"'
check "--profile-out: each node event has its op and the shapes, as onnxruntime writes them" eval '
    jq_is 2.args.op_name "\"RowGather\"" "$work/trace.json" &&
    jq_is 2.args.input_type_shape "[{\"float\":[8,4]},{\"int64\":[5]}]" "$work/trace.json" &&
    jq_is 2.args.output_type_shape "[{\"float\":[5,4]}]" "$work/trace.json"'
check "--profile-out: times in microseconds, runs in order, nodes within their run" eval '
    awk "BEGIN { exit !($("$jq" "$work/trace.json" 4.ts) > $("$jq" "$work/trace.json" 0.ts) && $("$jq" "$work/trace.json" 1.ts) >= 0 && $("$jq" "$work/trace.json" 1.dur) > 0) }"'
cli bench "$m/chain.onnx" --random -n 2 --json --profile-out "$work/t2.json"
check "--profile-out with --json: the file is named in the object" eval 'status_is 0 && jq_is profile_out "\"$work/t2.json\"" && [ -s "$work/t2.json" ]'
cli bench "$m/cases" --profile-out "$work/t3.json"
check "--profile-out with CASE_DIR -> 2" eval 'status_is 2 && one_error_line "--profile-out traces one MODEL"'
cli bench "$m/chain.onnx" --random --profile-out "$work/no/such/dir/t.json" -n 1
check "--profile-out into a missing folder -> 1" eval 'status_is 1 && one_error_line "--profile-out .*no/such/dir/t.json"'

# ---- bench CASE_DIR: -f GLOB and SKIP, as test ----
cli bench "$m/cases" -f "test_ge_f*" -n 2
check "bench CASE_DIR -f GLOB: only the matching folders" eval 'status_is 0 && [ "$(wc -l <"$work/out")" = 1 ] &&
    jq_is case "\"test_ge_float\""'
cli bench "$m/cases" -f "nothing*" -n 2
check "bench CASE_DIR -f matching nothing -> 1" eval 'status_is 1 && one_error_line "no node-test folder matches --filter .nothing\*."'
cli bench "$m/chain.onnx" -f "x*" --random
check "bench MODEL -f -> 2" eval 'status_is 2 && one_error_line "--filter picks node-test folders"'
cli bench "$m/skipcases" -n 2
check "bench CASE_DIR: an unsupported op is a SKIP line (stderr) and a skip field, not a failure" eval 'status_is 0 &&
    [ "$(cat "$work/err")" = "SKIP test_conv: unsupported op ConvInteger-13 (node #0 ConvInteger, domain '"'"'ai.onnx'"'"', opset 13); 1 of 1 node(s) without a kernel (0 supported)" ] &&
    head -n 1 "$work/out" | grep -q "\"skip\":\"unsupported op ConvInteger-13" && [ "$(wc -l <"$work/out")" = 2 ]'
cli test "$m/skipcases"
check "test prints the same SKIP line" eval 'out_has "^SKIP test_conv: unsupported op ConvInteger-13 (node #0 ConvInteger"'

finish
