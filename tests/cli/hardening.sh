#!/bin/sh
# hardening.sh: the CLI against hostile names, folders and files (issue 16, findings 7 to 10):
# names reach the terminal escaped, -o DIR writes all outputs or none and never through a planted
# symlink, every input is a regular file within the byte limit, literals are read whole.
#
# usage: hardening.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
ident='[[0,0,0],[1,1,1]]'
esc=$(printf '\033')
# no_ctl FILE: no control byte but newline (ESC, CR, BEL, ...) in FILE
no_ctl() { ! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1"; }
# guard: nothing here may hang (a FIFO read blocks forever)
run_to() { timeout 60 "$tool" "$@" >"$work/out" 2>"$work/err"; rc=$?; }

# ---- 7: names from the model, folders and arguments reach the terminal escaped ----
cli run "$m/evil_names.onnx" '[[1,2,3],[4,5,6]]' '[[0,0,0],[1,1,7]]' '[1,2]'
check "7: run error naming a node 'n<LF><ESC>[2J<FF>' is one escaped line" eval 'status_is 1 &&
    one_error_line "node .n\\\\n\\\\x1b\[2J\\\\xff. (GatherElements-13): input 1" && no_ctl "$work/err"'
cli run "$m/evil_names.onnx" '[[1,2,3],[4,5,6]]' "$ident" '[1,2]'
check "7: run prints an output named 'y<LF><ESC>[2J' escaped" eval 'status_is 0 &&
    out_has "^y\\\\n\\\\x1b\[2J: float \[2, 3\]$" && [ "$(wc -l <"$work/out")" -eq 5 ] && no_ctl "$work/out"'
cli info "$m/evil_names.onnx"
check "7: info escapes input, output, node and symbolic dim names" eval 'status_is 0 &&
    out_has "^  s\\\\x1b\]0;title\\\\x07: float \[N\\\\x1b\[2J\]$" && out_has "^  0 n\\\\n\\\\x1b\[2J\\\\xff: GatherElements" &&
    no_ctl "$work/out"'
cli info "$m/evil_names.onnx" --json
check "7: info --json keeps the exact names (JSON escapes)" eval 'status_is 0 && json_ok &&
    jq_is nodes.0.name "\"n\\n\\u001b[2J\\u00ff\""'
cli run "$work/no such$esc[2J.onnx"
check "7: a path with ESC in a load error is escaped" eval 'status_is 1 &&
    one_error_line "no such\\\\x1b\[2J.onnx" && no_ctl "$work/err"'
cli run "$m/ge_float.onnx" --bogus"$esc"c
check "7: a usage error quoting an argument with ESC is escaped" eval 'status_is 2 &&
    one_error_line "unknown option .--bogus\\\\x1bc." && no_ctl "$work/err"'
forged=$(printf 'x\n999 passed, 0 failed, 0 skipped')
mkdir -p "$work/forge"
cp -R "$m/cases/test_ge_float" "$work/forge/$forged"
cli test "$work/forge"
check "7: a test folder named 'x<LF>999 passed, 0 failed, 0 skipped' cannot forge the summary" eval '
    status_is 0 && [ "$(wc -l <"$work/out")" -eq 2 ] && out_has "^PASS x\\\\n999 passed, 0 failed, 0 skipped$" &&
    out_last_is "1 passed, 0 failed, 0 skipped" && ! grep -qx "999 passed, 0 failed, 0 skipped" "$work/out"'
cp "$m/ge_float.onnx" "$work/forge/$forged/model.onnx"
printf 'junk' >"$work/forge/$forged/test_data_set_0/output_0.pb"
cli test "$work/forge"
check "7: a FAIL line's message naming the folder's file stays on its line" eval 'status_is 1 &&
    [ "$(wc -l <"$work/out")" -eq 2 ] && out_last_is "0 passed, 1 failed, 0 skipped"'

# ---- 8: -o DIR writes every output or none, and never through a symlink ----
o=$work/o8
rm -rf "$o" && mkdir -p "$o/b.npy" && echo old >"$o/a.npy"
cli run "$m/two_out.onnx" '[1,2]' -o "$o"
check "8: writing output b fails (a folder is named b.npy): a.npy is left as it was, no temporaries" eval '
    status_is 1 && one_error_line "output .b.: cannot write .*b.npy.: a folder has that name; nothing was written" &&
    [ "$(cat "$o/a.npy")" = old ] && [ "$(ls -A "$o")" = "$(printf "a.npy\nb.npy")" ]'
rm -rf "$o"
cli run "$m/collide.onnx" '[1,2]' -o "$o" --json
check "8: outputs 'a/b' and 'a_b' (both a_b.npy): the second is written as a_b~2.npy, with a note" eval '
    status_is 0 && [ "$(ls -A "$o")" = "$(printf "a_b.npy\na_b~2.npy")" ] &&
    jq_is files "[\"$o/a_b.npy\",\"$o/a_b~2.npy\"]" &&
    err_has "^onnx-scatter: note: output .a_b. is written as a_b~2.npy: an earlier output has its file name"'
# a name over NAME_MAX (255 bytes) next to "a", for each writer: refused before any rename
long=$(printf "%300s" "" | tr " " l)
for w in "-o" "--dump" "--save-inputs"; do
    rm -rf "$o" && mkdir -p "$o" && echo old >"$o/a.npy"
    if [ "$w" = --save-inputs ]; then cli run "$m/long_in.onnx" '[1,2]' '[3,4]' "$w" "$o"
    else cli run "$m/long_out.onnx" '[1,2]' "$w" "$o"; fi
    check "8: $w: values 'a' and a 300-byte name: refused before a.npy is replaced, no temporaries" eval '
        status_is 1 && one_error_line "cannot write .*lll[.][.][.].: the file name has 30[0-9] bytes; the folder.s file system takes at most 255 (NAME_MAX)" &&
        [ "$(cat "$o/a.npy")" = old ] && [ "$(ls -A "$o")" = a.npy ]'
done
rm -rf "$o" && mkdir -p "$o/a_b~2.pb"
cli run "$m/collide_in.onnx" '[1,2]' '[10,20]' --save-inputs "$o"
check "8: --save-inputs: a folder at the file name of the second input: nothing written" eval '
    status_is 1 && one_error_line "a_b~2.pb.: a folder has that name" && [ "$(ls -A "$o")" = "a_b~2.pb" ]'
rm -rf "$o"
cli run "$m/collide_in.onnx" '[1,2]' '[10,20]' --save-inputs "$o"
check "8: --save-inputs: inputs 'a/b' and 'a_b' (both a_b): the second gets a_b~2, as -o does, with a note" eval '
    status_is 0 && [ "$(ls -A "$o" | tr "\n" " ")" = "a_b.npy a_b.pb a_b~2.npy a_b~2.pb " ] &&
    err_has "^onnx-scatter: note: input .a_b. is written as a_b~2[.][*]: an earlier input has its file name"'
cli run "$m/collide_in.onnx" -i "a/b=$o/a_b.npy" -i "a_b=$o/a_b~2.pb" --json
check "8: --save-inputs: both inputs replay from their files (y = [11, 22])" eval '
    status_is 0 && jq_is outputs.0.data "[11,22]"'
rm -rf "$o" && mkdir -p "$o" && echo victim >"$work/victim"
ln -s "$work/victim" "$o/a.npy"
cli run "$m/two_out.onnx" '[1,2]' -o "$o"
check "8: a symlink planted at DIR/a.npy is replaced, its target left alone" eval 'status_is 0 &&
    [ "$(cat "$work/victim")" = victim ] && [ -f "$o/a.npy" ] && [ ! -L "$o/a.npy" ] && cmp -s "$o/a.npy" "$o/b.npy" &&
    [ "$(ls -A "$o")" = "$(printf "a.npy\nb.npy")" ]'
rm -rf "$o"
cli run "$m/two_out.onnx" '[1,2]' -o "$o" --json
check "8: -o with --json lists both files" eval 'status_is 0 && jq_is files "[\"$o/a.npy\",\"$o/b.npy\"]"'

# ---- 9: inputs are regular files within the byte limit ----
mkfifo "$work/fifo"
run_to run "$m/ge_float.onnx" "$work/fifo" "$ident"
check "9: a FIFO as an input is refused at once" eval 'status_is 1 && one_error_line "input .data.: cannot read .*fifo.: it is a FIFO, not a regular file"'
run_to run "$work/fifo"
check "9: a FIFO as the model is refused at once" eval 'status_is 1 && one_error_line "not a regular file"'
run_to run "$m/ge_float.onnx" /dev/zero "$ident" --max-bytes 1M
check "9: /dev/zero as an input is refused without reading" eval 'status_is 1 && one_error_line "input .data.: cannot read ./dev/zero.: it is a device, not a regular file"'
run_to info /dev/zero
check "9: /dev/zero as the model is refused" eval 'status_is 1 && one_error_line "not a regular file"'
sp=$work/sparse/test_ge_sparse
mkdir -p "$work/sparse" && cp -R "$m/cases/test_ge_float" "$sp"
rm "$sp/test_data_set_0/input_0.pb" && truncate -s 8G "$sp/test_data_set_0/input_0.pb"
run_to test "$work/sparse" --max-bytes 1M
check "9: an 8 GiB sparse input_0.pb is refused by size (--max-bytes 1M)" eval 'status_is 1 &&
    out_has "^FAIL test_ge_sparse: test_data_set_0: .*input_0.pb. is 8589934592 bytes, over the byte limit of 1048576 bytes (opts.max_bytes)"'
rm "$sp/test_data_set_0/input_0.pb" && truncate -s 1T "$sp/test_data_set_0/input_0.pb"
run_to test "$work/sparse"
check "9: a 1 TiB sparse input_0.pb is refused under the default limit" eval 'status_is 1 &&
    out_has "is 1099511627776 bytes, over the byte limit of"'
rm "$sp/test_data_set_0/input_0.pb" && mkfifo "$sp/test_data_set_0/input_0.pb"
run_to test "$work/sparse"
check "9: a FIFO input_0.pb fails the test at once" eval 'status_is 1 && out_has "it is a FIFO, not a regular file"'
truncate -s 2M "$work/big.npy"
run_to run "$m/ge_float.onnx" "$work/big.npy" "$ident" --max-bytes 1M
check "9: a 2 MiB input file over --max-bytes 1M is refused before reading" eval 'status_is 1 &&
    one_error_line "input .data.: .*big.npy. is 2097152 bytes, over the byte limit of 1048576 bytes (opts.max_bytes) \[command line: --max-bytes\]"'
run_to run "$m/big_inputs.onnx" --random --max-bytes 1M
check "9: --random of a 324-byte model declaring 4 x float [20000, 20000] is refused before allocating" eval '
    status_is 1 && [ "$(wc -c <"$m/big_inputs.onnx")" -lt 400 ] &&
    one_error_line "input .in0.: --random float \[20000, 20000\] needs 1600000000 bytes, over the byte limit of 1048576 bytes (opts.max_bytes) \[command line: --max-bytes\]"'
run_to run "$m/big_inputs.onnx" --random --max-bytes 2G
check "9: the --random inputs count together (the second one passes 2 GiB)" eval 'status_is 1 &&
    one_error_line "input .in1.: --random float \[20000, 20000\] needs 1600000000 bytes; with the 1600000000 bytes of the inputs before it, that is over the byte limit of 2147483648"'
run_to bench "$m/big_inputs.onnx" --random --max-bytes 1M -n 1 -w 0
check "9: bench --random is held to the same limit" eval 'status_is 1 && one_error_line "input .in0.: --random float \[20000, 20000\] needs"'

# ---- 10: literals are read whole; .npy shapes are held to the byte limit ----
zeros=$(printf '%070d' 0)
cli run "$m/ge_int64.onnx" "[[${zeros}5,1,2],[3,4,${zeros}6]]" "$ident"
check "10: a 71-digit literal 000...0005 is 5, not cut to 0" eval 'status_is 0 && out_is "y: int64 [2, 3]
[[5 1 2]
 [3 4 6]]"'
cli run "$m/ge_int64.onnx" "[[9223372036854775807,-9223372036854775808,0],[1,2,3]]" "$ident"
check "10: int64 literals at both ends of the range" eval 'status_is 0 && out_has "9223372036854775807 -9223372036854775808"'
cli run "$m/ge_int64.onnx" "[[${zeros}9223372036854775808,1,2],[3,4,5]]" "$ident"
check "10: one past int64 (after 70 zeros) is refused" eval 'status_is 2 && one_error_line "does not fit the integer dtype int64"'
hdr="{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000000000,), }"
pad=$((128 - 10 - ${#hdr} - 1))
printf '\223NUMPY\001\000\166\000%s%*s\n' "$hdr" "$pad" '' >"$work/huge_shape.npy"
cli run "$m/ge_float.onnx" "$work/huge_shape.npy" "$ident" --max-bytes 1M
check "10: a .npy shape of 10^18 floats is refused by the byte limit, not as an int64 overflow" eval '
    status_is 1 && one_error_line "shape \[1000000000000000000\] of .<f4. makes a tensor of 4000000000000000000 bytes, over the byte limit of 1048576 bytes (opts.max_bytes)"'

finish
