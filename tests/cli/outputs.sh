#!/bin/sh
# outputs.sh: run -O NAME (only the named outputs), run --dump DIR (every value the run
# computes, for comparing an exported graph with its framework), --format without -o.
#
# usage: outputs.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"

# ---- -O NAME ----
cli run "$m/two_out.onnx" '[1,2]' -O b
check "-O NAME: only that output is printed" eval 'status_is 0 && out_is "b: float [2]
[1. 2.]"'
cli run "$m/two_out.onnx" '[1,2]' -O b -O a --json
check "-O twice: both, in the model's order, in --json too" eval 'status_is 0 && jq_len outputs 2 && jq_is outputs.0.name "\"a\"" &&
    jq_is outputs.1.name "\"b\""'
cli run "$m/two_out.onnx" '[1,2]' --output b -o "$work/only"
check "--output NAME with -o: only that file is written" eval 'status_is 0 && [ -s "$work/only/b.npy" ] && [ ! -e "$work/only/a.npy" ]'
cli run "$m/collide.onnx" '[1,2]' -O a_b -o "$work/one"
check "-O NAME with -o: an output left out cannot collide" eval 'status_is 0 && [ -s "$work/one/a_b.npy" ]'
cli run "$m/two_out.onnx" '[1,2]' -O c
check "-O unknown -> 2, naming the outputs" eval 'status_is 2 && one_error_line "-O c: the model has no output .c. (outputs: a, b)"'

# ---- --format without -o ----
cli run "$m/two_out.onnx" '[1,2]' --format pb
check "--format pb without -o -> 2" eval 'status_is 2 && one_error_line "--format pb sets the format of the files -o DIR writes: add -o DIR"'
cli run "$m/two_out.onnx" '[1,2]' --format=npy
check "--format=npy without -o -> 2 too" eval 'status_is 2 && one_error_line "add -o DIR"'

# ---- --dump DIR ----
# chain.onnx: a = Mul(x, x); shape = Constant (folded); u = Unsqueeze(idx); e = Expand(u, shape);
# y = GatherElements(a, e): the dump has the graph as written (no fusion), so e exists.
cli run "$m/chain.onnx" --random 3 -o "$work/dout" --dump "$work/dump"
check "--dump: one file per value, the folded constant included, and an index" eval 'status_is 0 &&
    for f in a shape u e y; do [ -s "$work/dump/$f.npy" ] || exit 1; done && [ "$(ls "$work/dump" | wc -l)" = 6 ] &&
    grep -q "^e.npy	e	int64 \[5, 4\]	node expand (Expand)$" "$work/dump/dump.txt" &&
    grep -q "^shape.npy	shape	int64 \[2\]	node const (Constant), folded at load$" "$work/dump/dump.txt" &&
    grep -q "^a.npy	a	float \[8, 4\]	node #0 Mul (Mul)$" "$work/dump/dump.txt"'
check "--dump: the output in the dump is the output the run printed" eval 'cmp -s "$work/dump/y.npy" "$work/dout/y.npy"'
cli run "$m/ident.onnx" "$work/dump/e.npy" --json
check "--dump: the Expand-ed index as the graph computes it (every row repeated 4 times)" eval 'status_is 0 &&
    "$jq" "$work/out" outputs.0.data | tr -d "[]" | tr "," "\n" | awk "NR % 4 == 1 { v = \$1 } \$1 != v { bad = 1 } END { exit bad || NR != 20 }"'
cli run "$m/unnamed.onnx" '[[1,2,3],[4,5,6]]' '[[0,1,2],[2,1,9]]' --dump "$work/dfail"
check "--dump: a failing run writes the values computed before the failing node" eval 'status_is 1 &&
    [ -s "$work/dfail/d2.npy" ] && [ ! -e "$work/dfail/y.npy" ] && err_has "^onnx-scatter: run failed: node #1 GatherElements" &&
    err_has "^onnx-scatter: note: --dump: the 1 values computed before the failing node are in"'
cli run "$m/collide.onnx" '[1,2]' --dump "$work/dcol"
check "--dump: two values with one file name both kept" eval 'status_is 0 && [ -s "$work/dcol/a_b.npy" ] && [ -s "$work/dcol/a_b~2.npy" ]'
cli run "$m/released.onnx" --random --dump "$work/drel"
check "--dump: a folded constant the load released is listed as left out, Neg's output written" eval '
    status_is 0 && [ -s "$work/drel/nw.npy" ] && [ -s "$work/drel/y.npy" ] && [ ! -e "$work/drel/w.npy" ] &&
    grep -q "^# left out: w	node const_w (Constant), folded at load: released at load" "$work/drel/dump.txt" &&
    err_has "^onnx-scatter: note: --dump: 1 values folded at load were released at load and are left out"'
cli run "$m/ge_bfloat16.onnx" --random --dim A=2 --dim B=2 --dump "$work/dbf"
check "--dump: a value numpy cannot hold is written as .pb" eval 'status_is 0 && [ -s "$work/dbf/y.pb" ]'
cli run "$m/chain.onnx" --random --dump
check "--dump without DIR -> 2" eval 'status_is 2 && one_error_line "--dump wants a folder"'

finish
