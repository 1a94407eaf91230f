#!/bin/sh
# inputs.sh: the input side of run: .npy of every numpy dtype, .pb, literals, --random, errors.
#
# usage: inputs.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# The models and files come from gen_cli_models (written into WORK_DIR/m); the .npy files there
# are assembled byte by byte, as np.save writes them. Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
ident='[[0,0,0],[1,1,1]]' # GatherElements(axis 0) with these indices returns data unchanged

# ---- .npy round trips: x.npy -> GatherElements identity -> y.npy, byte for byte ----
for dt in bool int8 uint8 int16 uint16 int32 uint32 int64 uint64 float16 float double \
    complex64 complex128 string; do
    rm -rf "$work/o"
    cli run "$m/ge_$dt.onnx" --input data="$m/x_$dt.npy" --input indices="$ident" -o "$work/o"
    check "npy round trip: $dt" eval 'status_is 0 && cmp -s "$m/x_$dt.npy" "$work/o/y.npy"'
done
cli run "$m/ge_int64.onnx" "$m/x_int64.npy" "$ident"
check "npy printed like numpy (int64)" eval 'status_is 0 && out_is "y: int64 [2, 3]
[[  0   1  -2]
 [  3 100  -7]]"'
cli run "$m/ge_bool.onnx" "$m/x_bool.npy" "$ident"
check "npy printed like numpy (bool)" eval 'status_is 0 && out_is "y: bool [2, 3]
[[ True False False]
 [ True False False]]"'
cli run "$m/ge_string.onnx" "$m/x_string.npy" "$ident"
check "npy printed like numpy (str, UTF-8)" eval 'status_is 0 && out_is "y: string [2, 3]
[['"'a' 'bc' ''"']
 ['"'é' 'xyz' '😀'"']]"'

# byte order and memory order are converted on reading
for f in be_int32 f_int32; do
    rm -rf "$work/o"
    cli run "$m/ge_int32.onnx" "$m/$f.npy" "$ident" -o "$work/o"
    check "npy $f read as C order, little-endian" eval 'status_is 0 && cmp -s "$m/c_int32.npy" "$work/o/y.npy"'
done

# ---- bfloat16 and strings numpy cannot hold: .pb in, .pb out ----
rm -rf "$work/o"
cli run "$m/ge_bfloat16.onnx" --input data="$m/x_bfloat16.pb" --input indices="$ident" -o "$work/o"
check "pb round trip: bfloat16, .npy falls back to .pb with a note" eval 'status_is 0 &&
    cmp -s "$m/y_bfloat16.pb" "$work/o/y.pb" && [ ! -e "$work/o/y.npy" ] && err_has "note: output .y. is written as .pb: numpy has no bfloat16"'
rm -rf "$work/o"
cli run "$m/ge_string.onnx" --input data="$m/x_string.pb" --input indices="$ident" -o "$work/o" --format pb
check "pb round trip: strings that are not UTF-8 (--format pb)" eval 'status_is 0 && cmp -s "$m/y_string.pb" "$work/o/y.pb" && [ ! -s "$work/err" ]'
rm -rf "$work/o" "$work/o2"
cli run "$m/ge_float.onnx" "$m/x_float.npy" "$ident" -o "$work/o" --format pb
cli run "$m/ge_float.onnx" "$work/o/y.pb" "$ident" -o "$work/o2"
check "npy -> pb -> npy gives the same file" eval 'status_is 0 && cmp -s "$m/x_float.npy" "$work/o2/y.npy"'

# ---- long outputs: summarised past 1000 elements like numpy, --full prints all ----
cli run "$m/profile.onnx" --random
check "2048 elements: summarised with ..." eval 'status_is 0 && out_has "^ \[ *-\?[0-9.]* .*\.\.\. " && out_has "^ \.\.\.$" && [ "$(wc -l <"$work/out")" -lt 20 ]'
cli run "$m/profile.onnx" --random --full
check "--full: every value" eval 'status_is 0 && ! out_has "\.\.\." && [ "$(wc -l <"$work/out")" -ge 257 ]'

# ---- malformed files: exit 1, one line naming the input and the problem ----
cli run "$m/ge_int32.onnx" "$m/bad_shape.npy" "$ident"
check "malformed npy header -> 1" eval 'status_is 1 && one_error_line "input .data.: .*bad_shape.npy.*negative dim"'
cli run "$m/ge_int32.onnx" "$m/short.npy" "$ident"
check "truncated npy data -> 1" eval 'status_is 1 && one_error_line "input .data.: .*the file is truncated"'
cli run "$m/ge_int32.onnx" "$m/not_npy.npy" "$ident"
check "neither npy nor pb -> 1" eval 'status_is 1 && one_error_line "neither a .npy file nor a TensorProto .pb"'
cli run "$m/ge_int32.onnx" "$m/no_such.npy" "$ident"
check "missing file -> 1" eval 'status_is 1 && one_error_line "input .data.: cannot open .*no_such.npy"'
cli run "$m/ge_int32.onnx" "data=$m/no_such.npy" "$ident"
check "NAME=FILE given positionally -> 1, suggesting -i" eval 'status_is 1 &&
    one_error_line "input .data.: cannot open .*(to give an input by name, write -i data=.*no_such.npy)"'

# ---- dtype and shape must match the model: the error names input, expected, given ----
cli run "$m/ge_int32.onnx" "$m/x_float.npy" "$ident"
check "dtype mismatch -> 1" eval 'status_is 1 && one_error_line "input .data.: the model expects int32 \[A, B\], got float \[2, 3\] from .*x_float.npy"'
cli run "$m/ge_float.onnx" "$m/x_float.npy" '[[0,0],[1,1]]'
check "symbolic dim mismatch -> 1" eval 'status_is 1 && one_error_line "input .indices.: the model expects int64 \[A, B\] (B = 3, from input .data.), got int64 \[2, 2\] from literal"'
cli run "$m/ge_float.onnx" "$m/x_float.npy" '[0,1]'
check "rank mismatch -> 1" eval 'status_is 1 && one_error_line "expects int64 \[A, B\].*got int64 \[2\]"'
cli run "$m/profile.onnx" --input data='[1.0]' --random
check "static dim mismatch -> 1" eval 'status_is 1 && one_error_line "input .data.: the model expects float \[256, 64\], got float \[1\]"'
cli run "$m/ge_float.onnx" "$m/x_float.npy" '[[0,0,0],[1,1,1]]:int32'
check "literal with another dtype -> 1" eval 'status_is 1 && one_error_line "expects int64 \[A, B\].*got int32 \[2, 3\]"'

# ---- literals ----
cli run "$m/ge_int64.onnx" '[[5,6],[7,8]]' '[[1,1],[0,0]]'
check "positional literals" eval 'status_is 0 && out_is "y: int64 [2, 2]
[[7 8]
 [5 6]]"'
cli run "$m/ge_float.onnx" --input data='[[1.5 nan -inf]]' -i indices='[[0 0 0]]'
check "literal in numpy print form, model dtype" eval 'status_is 0 && out_is "y: float [1, 3]
[[ 1.5  nan -inf]]"'
cli run "$m/ge_complex64.onnx" '[[1+2j, -3j]]' '[[0,0]]'
check "complex literal" eval 'status_is 0 && out_is "y: complex64 [1, 2]
[[1.+2.j 0.-3.j]]"'
cli run "$m/ge_float.onnx" "$m/x_float.npy" '[[0,1],[2]]'
check "ragged literal -> 2" eval 'status_is 2 && one_error_line "input .indices.: .*rows of different lengths"'
cli run "$m/ge_float.onnx" "$m/x_float.npy" '[[0,0,0],[1,1,1]]:int65'
check "unknown literal dtype -> 2" eval 'status_is 2 && one_error_line "unknown dtype .int65."'
cli run "$m/ge_int8.onnx" '[[300]]' '[[0]]'
check "literal out of range -> 2" eval 'status_is 2 && one_error_line "300 does not fit the integer dtype int8"'

# ---- input assignment errors (usage: exit 2) ----
cli run "$m/ge_float.onnx" "$m/x_float.npy"
check "missing input -> 2, names --random" eval 'status_is 2 && one_error_line "missing input .indices. (int64 \[A, B\]): add --input indices=FILE, or --random"'
cli run "$m/ge_float.onnx" --input nosuch=1
check "unknown input -> 2, lists inputs" eval 'status_is 2 && one_error_line "no input .nosuch. (inputs: data, indices)"'
cli run "$m/ge_float.onnx" "$m/x_float.npy" --input data="$m/x_float.npy"
check "input given twice -> 2" eval 'status_is 2 && one_error_line "input .data. given twice"'

# ---- --random: every unbound input from its declaration, indices in range ----
cli run "$m/random.onnx" --random
check "--random: a symbolic dim no --dim sizes is 3, said on stderr" eval 'status_is 0 &&
    err_has "note: --random: the symbolic dim .N. (input .data.) is 3; --dim N=SIZE sets it"'
cli run "$m/random.onnx" --random --dim Z=3
check "--dim of an unknown name: a warning, and the run goes on" eval 'status_is 0 &&
    err_has "warning: --dim Z=3: no input of .*random.onnx. has a dim named .Z. (symbolic dims: N, C, K, M, P, G, Q); ignored"'
cli run "$m/random.onnx" --random --dim N=3 --dim N=4
check "--dim of one name twice -> 2" eval 'status_is 2 && one_error_line "--dim N given twice"'
cli run "$m/random.onnx" --random --dim N=x
check "--dim with a bad size -> 2" eval 'status_is 2 && one_error_line "--dim wants NAME=SIZE"'
cli run "$m/random.onnx" --random=abc
check "--random with a bad seed -> 2" eval 'status_is 2 && one_error_line "--random wants a SEED"'
dims="--dim N=5 --dim C=4 --dim K=3 --dim M=5 --dim P=7 --dim G=6 --dim Q=2"
# Small dims leave little room: an index one past the end fails the run.
tiny="--dim N=1 --dim C=1 --dim K=1 --dim M=1 --dim P=4 --dim G=4 --dim Q=3"
bad=0
for seed in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
    # shellcheck disable=SC2086 # dims split on purpose
    "$tool" run "$m/random.onnx" --random $seed $dims >/dev/null 2>"$work/err" || bad=$((bad + 1))
    # shellcheck disable=SC2086
    "$tool" run "$m/random.onnx" --random $seed $tiny >/dev/null 2>>"$work/err" || bad=$((bad + 1))
    "$tool" run "$m/tscatter.onnx" --random $seed --dim B=3 --dim S=6 --dim T=4 >/dev/null 2>>"$work/err" || bad=$((bad + 1))
done
rc=$bad
check "--random: ScatterElements/ScatterND/GatherND/GatherElements/TensorScatter indices valid for 16 seeds" status_is 0
# shellcheck disable=SC2086
cli run "$m/random.onnx" --random 3 $dims --json
check "--random: output shapes follow the dims" eval 'status_is 0 && jq_is outputs.0.shape "[7]" && jq_is outputs.1.shape "[5,6]" && jq_is outputs.2.shape "[5,2]" && jq_is seed 3'
cp "$work/out" "$work/seed3.json"
# shellcheck disable=SC2086
cli run "$m/random.onnx" --random 3 $dims --json
check "--random: the same seed gives the same values" eval 'status_is 0 && jq_is outputs "$("$jq" "$work/seed3.json" outputs)"'
# shellcheck disable=SC2086
cli run "$m/random.onnx" --random 4 $dims --json
check "--random: another seed gives other values" eval 'status_is 0 && ! jq_is outputs "$("$jq" "$work/seed3.json" outputs)"'
cli run "$m/random.onnx" --input data="$m/f_2x2.npy" --random --dim K=2 --dim M=2 --dim P=3 --dim G=5 --dim Q=1 --json
check "--random: symbolic dims bound by a given input" eval 'status_is 0 && jq_is outputs.1.shape "[2,5]" && jq_is inputs.0.source "\"$m/f_2x2.npy\"" && jq_is inputs.1.source "\"random\""'
# S left symbolic (past given): with every dim pinned the load itself refuses T > S (below)
past='[[[0,0,0,0],[0,0,0,0],[0,0,0,0]],[[0,0,0,0],[0,0,0,0],[0,0,0,0]]]:float32'
cli run "$m/tscatter.onnx" --input past="$past" --random --dim B=2 --dim T=4
check "--random: no valid write index -> 2" eval 'status_is 2 && one_error_line "input .write_indices.: no value is valid for node .ts. (TensorScatter-24) input 2: write indices"'
cli run "$m/tscatter.onnx" --random --dim B=2 --dim S=3 --dim T=4
check "--dim pins the model: T > S refused at load -> 1" eval 'status_is 1 && one_error_line "input 1 .update. (update) has shape \[2,4,4\]; expected input 0 .past_cache. (past) shape \[2,3,4\]"'

finish
