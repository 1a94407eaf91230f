#!/bin/sh
# behaviour.sh: checks the onnx-scatter command line: exit codes, help, version, run/test/info.
#
# usage: behaviour.sh ONNX_SCATTER WORK_DIR NODE_TESTS_DIR [MORE_NODE_TESTS_DIR...]
# Official test folders are copied into WORK_DIR (the build tree) and altered there.
# Exit: 1 when a check failed; else 77 (ctest skip) when no node-test folder was found for the
# checks that need one; else 0. Last line: "N passed, N failed".

tool=$1 work=$2
shift 2
. "$(dirname "$0")/lib.sh"

rm -rf "$work"
mkdir -p "$work" || exit 1

# ---- usage errors: exit 2 ----
cli; check "no arguments -> 2" status_is 2
cli frobnicate; check "unknown command -> 2" eval 'status_is 2 && one_error_line frobnicate'
cli --bogus; check "unknown option -> 2" eval 'status_is 2 && one_error_line bogus'
cli run; check "run without MODEL -> 2" eval 'status_is 2 && one_error_line MODEL'
cli run m.onnx --nope; check "run unknown option -> 2" eval 'status_is 2 && one_error_line nope'
cli run m.onnx --input nameonly; check "run --input without =FILE -> 2" eval 'status_is 2 && one_error_line NAME=FILE'
cli test; check "test without PATH -> 2" eval 'status_is 2 && one_error_line PATH'
cli info; check "info without MODEL -> 2" status_is 2
cli info a.onnx b.onnx; check "info with two models -> 2" status_is 2
cli run m.onnx --set threads=999; check "run --set out of range -> 2, naming key, value, range" eval 'status_is 2 && one_error_line "threads = .999.: out of range; expected 0 to 256"'
cli info m.onnx --set=nope=1; check "info --set unknown key -> 2, listing the keys" eval 'status_is 2 && one_error_line "unknown option .nope.*fuse_recompute"'
cli bench m.onnx --set no_fusion; check "bench --set without =VALUE -> 2" eval 'status_is 2 && one_error_line KEY=VALUE'
cli test d --set profile=1; check "test --set profile (the command's own) -> 2" eval 'status_is 2 && one_error_line "not settable"'

# ---- help and version: exit 0 ----
cli --version; check "--version" eval 'status_is 0 && out_has "^onnx-scatter [0-9][0-9]*\.[0-9][0-9]*\.[0-9]"'
cli --help; check "--help lists the commands" eval 'status_is 0 && out_has "^usage:" && out_has "  run " && out_has "  bench " && out_has "  test " && out_has "  info "'
for sub in run bench test info; do
    "$tool" $sub --help >"$work/help1"
    cli help $sub; check "help $sub = $sub --help" eval 'status_is 0 && cmp -s "$work/out" "$work/help1"'
done
cli help frob; check "help of an unknown command -> 2" eval 'status_is 2 && one_error_line frob'
for sub in run bench test info; do
    cli $sub --help; check "$sub --help has an example" eval "status_is 0 && out_has '^usage: onnx-scatter $sub' && out_has 'example'"
done

# ---- missing or invalid model files: exit 1 ----
cli info "$work/no-such.onnx"; check "info missing model -> 1" eval 'status_is 1 && one_error_line no-such.onnx'
cli run "$work/no-such.onnx"; check "run missing model -> 1" eval 'status_is 1 && one_error_line no-such.onnx'
echo "this is not a protobuf" >"$work/garbage.onnx"
cli info "$work/garbage.onnx"; check "info invalid model -> 1" eval 'status_is 1 && one_error_line garbage.onnx'
cli run "$work/garbage.onnx"; check "run invalid model -> 1" eval 'status_is 1 && one_error_line garbage.onnx'
cli test "$work/no-such-dir"; check "test missing folder -> 1" eval 'status_is 1 && one_error_line no-such-dir'

# ---- with official node tests (copied into the work folder) ----
src=
for d in "$@"; do
    if [ -f "$d/test_scatter_elements_with_axis/model.onnx" ] && [ -f "$d/test_scatternd_add/model.onnx" ] &&
        [ -f "$d/test_lstm_defaults/model.onnx" ]; then
        src=$d
        break
    fi
done
if [ -z "$src" ]; then
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    echo "SKIPPED: the checks of run/test/info need official node tests; none found in: $*"
    exit 77
fi
echo "node tests from $src"
cp -R "$src/test_scatter_elements_with_axis" "$work/sea"
cp -R "$src/test_scatternd_add" "$work/snd"
cp -R "$src/test_lstm_defaults" "$work/test_unsupported" # an op this runtime does not have
sea=$work/sea/test_data_set_0 snd=$work/snd/test_data_set_0

cli test "$work/sea"; check "test: official folder passes" eval 'status_is 0 && out_has "^PASS sea$" && out_last_is "1 passed, 0 failed, 0 skipped"'

# info: the documented lines (ScatterElements with inputs data, indices, updates; output y).
cli info "$work/sea/model.onnx"
check "info: ir_version, opsets" eval 'status_is 0 && out_has "^ir_version: [0-9]" && out_has "^opsets: ai\.onnx-[0-9]"'
check "info: inputs with dtype and shape" eval 'out_has "^inputs: 3$" && out_has "^  data: float \[1, 5\]$" && out_has "^  indices: int64 \[1, 2\]$"'
check "info: outputs" eval 'out_has "^outputs: 1$" && out_has "^  y: float \[1, 5\]$"'
check "info: node with its kernel version" eval 'out_has "^nodes: 1 (0 folded at load, 0 fused)$" && out_has "ScatterElements (ai\.onnx, opset [0-9]*) -> kernel ScatterElements-[0-9]"'
check "info: arena and warnings" eval 'out_has "^arena_bytes: [0-9]" && out_has "^warnings: [0-9]"'

# run: positional inputs and named inputs give the same output file.
cli run "$work/sea/model.onnx" "$sea/input_0.pb" "$sea/input_1.pb" "$sea/input_2.pb" --output-dir "$work/out_pos" --format pb
check "run: positional inputs print the output like numpy" eval 'status_is 0 && out_has "^y: float \[1, 5\]$" && out_has "^\[\[1\.  1\.1 3\.  2\.1 5\. \]\]$"'
check "run: --output-dir --format pb writes NAME.pb" test -s "$work/out_pos/y.pb"
cli run "$work/sea/model.onnx" --input updates="$sea/input_2.pb" --input data="$sea/input_0.pb" \
    -i indices="$sea/input_1.pb" -o "$work/out_named" --format=pb
check "run: named inputs give the same .pb" eval 'status_is 0 && cmp -s "$work/out_pos/y.pb" "$work/out_named/y.pb"'

# run errors that name the input.
cli run "$work/sea/model.onnx" "$sea/input_0.pb"
check "run: missing input is named -> 2" eval 'status_is 2 && one_error_line "indices"'
cli run "$work/sea/model.onnx" "$sea/input_0.pb" "$sea/input_1.pb" "$sea/input_2.pb" "$sea/input_2.pb"
check "run: too many inputs -> 2" status_is 2
cli run "$work/sea/model.onnx" --input nosuch="$sea/input_0.pb"
check "run: unknown input name -> 2" eval 'status_is 2 && one_error_line nosuch'
cli run "$work/sea/model.onnx" "$sea/input_0.pb" "$sea/input_1.pb" "$work/garbage.onnx"
check "run: unreadable input file -> 1" eval 'status_is 1 && one_error_line garbage.onnx'

# test accepts what run wrote.
cp "$work/out_pos/y.pb" "$sea/output_0.pb"
cli test "$work/sea"; check "test: accepts the .pb written by run" eval 'status_is 0 && out_has "^PASS sea$"'

# test: an altered expected output fails. ScatterND-add run on its own expected output adds the
# updates twice, so the new "expected" differs from what the model computes.
cli run "$work/snd/model.onnx" --input data="$snd/output_0.pb" --input indices="$snd/input_1.pb" \
    --input updates="$snd/input_2.pb" --output-dir "$work/out_alt" --format pb
check "run: scatternd_add on altered data" eval 'status_is 0 && test -s "$work/out_alt/y.pb" && ! cmp -s "$work/out_alt/y.pb" "$snd/output_0.pb"'
cli test "$work/snd"; check "test: scatternd_add passes before the change" eval 'status_is 0 && out_has "^PASS snd$"'
cp "$work/out_alt/y.pb" "$snd/output_0.pb"
cli test "$work/snd"
check "test: altered output -> FAIL line, exit 1" eval 'status_is 1 && out_has "^FAIL snd: test_data_set_0: output .y. at flat index [0-9]*: expected .*, got " && out_last_is "0 passed, 1 failed, 0 skipped"'

# test: an unsupported op is a SKIP (exit 0); a folder of folders runs sorted by name.
cli test "$work/test_unsupported"
check "test: unsupported op -> SKIP, exit 0" eval 'status_is 0 && out_has "^SKIP test_unsupported: .*LSTM" && out_last_is "0 passed, 0 failed, 1 skipped"'
cli test "$work"
check "test: folder of folders, sorted" eval 'status_is 1 && [ "$(cut -d" " -f1-2 "$work/out" | tr "\n" " ")" = "PASS sea FAIL snd: SKIP test_unsupported: 1 passed, "  ]'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
