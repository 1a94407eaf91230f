#!/bin/sh
# values.sh: sequences through the command line. split.onnx (gen_cli_models) makes a sequence
# from a literal; `run -o` writes it as a SequenceProto .pb, which insert.onnx reads back as
# its sequence input; outputs print as their items, NAME[i]. A sequence input refuses a literal
# and --random with a message saying what to give. A node output left out before a named one
# (Unique's counts without its indices and inverse) runs.
#
# usage: values.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"

cli run "$m/split.onnx" '[[1,2],[3,4],[5,6]]' -o "$work/split_out"
check "run: a sequence output prints as its items" eval 'status_is 0 &&
    out_has "^s: sequence of 3 item(s), each float$" && out_has "^s\[0\]: float \[2\]$" &&
    out_has "^\[1\. 2\.\]$" && out_has "^s\[2\]: float \[2\]$" && out_has "^\[5\. 6\.\]$"'
check "run -o: the sequence is written as a .pb file" test -s "$work/split_out/s.pb"
cli run "$m/insert.onnx" "$work/split_out/s.pb" '[7,8]'
check "run: a SequenceProto .pb binds a sequence input, and the insert appends" eval 'status_is 0 &&
    out_has "^t: sequence of 4 item(s), each float$" && out_has "^t\[3\]: float \[2\]$" &&
    out_has "^\[7\. 8\.\]$" && out_has "^n: int64 \[\]$" && out_has "^4$"'
cli run "$m/insert.onnx" '[1,2]' '[7,8]'
check "run: a literal for a sequence input is refused, saying what to give" eval 'status_is 2 &&
    err_has "input .s. is a sequence: give it as a SequenceProto .pb file, not a literal"'
cli run "$m/insert.onnx" --random
check "run --random: a sequence input is not made up" eval 'status_is 2 &&
    err_has "input .s. is a sequence, which --random does not make"'
cli run "$m/unique_counts.onnx" '[3,1,3,2,3]'
check "run: outputs 1 and 2 of Unique left out, its values and counts computed" eval 'status_is 0 &&
    out_has "^y: int64 \[3\]$" && out_has "^\[1 2 3\]$" && out_has "^counts: int64 \[3\]$" &&
    out_has "^\[1 1 3\]$"'
finish
