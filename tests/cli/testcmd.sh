#!/bin/sh
# testcmd.sh: `onnx-scatter test` options: --filter, -j, --rtol/--atol, the progress line,
# a PATH folder without model.onnx (a SKIP, not fatal) and --fail-on-skip.
#
# usage: testcmd.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
c=$m/cases

cli test "$c"
check "test: sorted lines and summary" eval 'status_is 1 && [ "$(cut -d" " -f1-2 "$work/out" | tr "\n" " ")" = "PASS misc_ge_float FAIL test_ge_close: PASS test_ge_float PASS test_ge_int64 FAIL test_ge_wrong: 3 passed, " ] &&
    out_last_is "3 passed, 2 failed, 0 skipped" && [ ! -s "$work/err" ]'
cp "$work/out" "$work/seq"

# ---- --filter GLOB ----
cli test "$c" --filter 'test_ge_*'
check "--filter: only matching folder names" eval 'status_is 1 && ! out_has misc_ge_float && out_last_is "2 passed, 2 failed, 0 skipped"'
cli test "$c" -f 'test_ge_f*' --filter 'misc*'
check "--filter twice: either matches" eval 'status_is 0 && out_has "^PASS misc_ge_float$" && out_has "^PASS test_ge_float$" && out_last_is "2 passed, 0 failed, 0 skipped"'
cli test "$c" --filter 'nomatch*'
check "--filter matching nothing -> 1" eval 'status_is 1 && one_error_line "no node-test folder matches --filter .nomatch\*."'

# ---- tolerances ----
cli test "$c" --filter test_ge_close
check "default tolerance: 1% off fails" eval 'status_is 1 && out_has "^FAIL test_ge_close: test_data_set_0: output .y. at flat index 0: expected 1.01, got 1 (6 of 6 elements differ; max abs error 1, max rel error 0.00990103; atol 1e-07, rtol 0.001)$"'
cli test "$c" --filter test_ge_close --rtol 0.02
check "--rtol 0.02 accepts 1%" eval 'status_is 0 && out_has "^PASS test_ge_close$"'
cli test "$c" --filter test_ge_close --rtol 0.005
check "--rtol 0.005 still fails" status_is 1
cli test "$c" --filter test_ge_close --tolerance ort --json
check "--tolerance ort: onnxruntime's test runner's" eval 'status_is 1 && jq_is rtol 0.001 && jq_is atol 0.001'
cli test "$c" --filter test_ge_close --tolerance ort --rtol 0.02 --tolerance onnx --json
check "--tolerance onnx: ONNX's runner's, the later option wins" eval 'status_is 1 && jq_is rtol 0.001 && jq_is atol 1e-07'
cli test "$c" --filter test_ge_close --tolerance ort --rtol 0.02
check "--tolerance ort then --rtol 0.02: the later option wins" eval 'status_is 0 && out_has "^PASS test_ge_close$"'
cli test "$c" --tolerance numpy; check "--tolerance numpy -> 2" eval 'status_is 2 && one_error_line "--tolerance wants"'
cli test "$c" --filter test_ge_close --rtol 0 --atol 1.5
check "--atol 1.5 accepts |diff| <= 1" eval 'status_is 0 && out_has "^PASS test_ge_close$"'

# ---- -j N: same output, in the same order ----
cli test "$c" -j 2
check "-j 2: output identical to -j 1" eval 'status_is 1 && cmp -s "$work/out" "$work/seq"'
cli test "$c" -j2 --json
check "-j2 --json: same results" eval 'status_is 1 && json_ok && jq_is jobs 2 && jq_is passed 3 && jq_is tests.1.name "\"test_ge_close\""'
mkdir -p "$work/many"
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40; do
    cp -R "$c/test_ge_float" "$work/many/t$i"
done
cp -R "$m/errcases/test_ge_badindex" "$work/many/t20b"
"$tool" test "$work/many" >"$work/seq_many" 2>&1
cli test "$work/many" -j 2
check "-j 2 over 41 folders: identical to -j 1" eval 'status_is 1 && cmp -s "$work/out" "$work/seq_many" && out_has "^FAIL t20b: test_data_set_0: run failed: .*value 7"'

# ---- the progress line: on a terminal (stderr) over 36 folders, or with --progress ----
cli test "$c" --progress
check "--progress: a progress line on stderr, cleared at the end" eval 'status_is 1 &&
    grep -q "\[5/5\] 3 passed, 2 failed, 0 skipped" "$work/err" && [ "$(tail -c 4 "$work/err" | od -An -c | tr -d " \n")" = "\r033[K" ] &&
    cmp -s "$work/out" "$work/seq"'
cli test "$work/many"
check "no progress line when stderr is not a terminal" eval 'status_is 1 && [ ! -s "$work/err" ]'
# shellcheck disable=SC2016
if script -qec "true" /dev/null >/dev/null 2>&1; then
    script -qec "'$tool' test '$work/many' >/dev/null" /dev/null >"$work/tty" 2>&1
    check "on a terminal, over 36 folders: progress line" grep -q "\[41/41\] 40 passed, 1 failed, 0 skipped" "$work/tty"
    script -qec "'$tool' test '$c' >/dev/null" /dev/null >"$work/tty" 2>&1
    check "on a terminal, 5 folders: no progress line" eval '! grep -q "\[5/5\]" "$work/tty"'
    script -qec "'$tool' test '$work/many' --no-progress >/dev/null" /dev/null >"$work/tty" 2>&1
    check "--no-progress on a terminal: none" eval '! grep -q "\[41/41\]" "$work/tty"'
else
    echo "skip the terminal checks: no 'script' command"
fi

# ---- usage errors ----
cli test "$c" -j 0; check "-j 0 -> 2" eval 'status_is 2 && one_error_line "-j wants a count"'
cli test "$c" --rtol x; check "--rtol x -> 2" eval 'status_is 2 && one_error_line "--rtol wants a number"'
cli test "$c" --atol -1; check "--atol -1 -> 2" eval 'status_is 2 && one_error_line "--atol wants a number"'
cli test "$c" --filter; check "--filter without GLOB -> 2" eval 'status_is 2 && one_error_line "--filter wants a GLOB"'
cli test "$c" --bogus; check "test unknown option -> 2" eval 'status_is 2 && one_error_line "unknown option .--bogus."'

# ---- --known-fail FILE ----
printf '# expected data this runtime disagrees with\ntest_ge_wrong  # scaled by -1\n\ntest_ge_cl*\n' >"$work/known.txt"
cli test "$c" --known-fail "$work/known.txt"
check "--known-fail: listed failures are KNOWN, the run passes, the summary counts them" eval 'status_is 0 &&
    out_has "^KNOWN test_ge_wrong: test_data_set_0: output" && out_has "^KNOWN test_ge_close: " && ! out_has "^FAIL" &&
    out_last_is "3 passed, 0 failed, 0 skipped, 2 known failures"'
cli test "$c" --known-fail "$work/known.txt" --json
check "--known-fail --json: status known_fail and known_failed" eval 'status_is 0 && jq_is known_failed 2 && jq_is failed 0 &&
    jq_is tests.4.status "\"known_fail\""'
printf 'test_ge_float\n' >"$work/known2.txt"
cli test "$c" --known-fail "$work/known2.txt" -f test_ge_float -f test_ge_wrong
check "--known-fail: a listed test that passes is a PASS with a note; other failures still fail" eval 'status_is 1 &&
    out_has "^PASS test_ge_float$" && out_has "^FAIL test_ge_wrong" && err_has "note: test_ge_float passed; .*known2.txt lists it as a known failure"'
cli test "$c" --known-fail "$work/nope.txt"
check "--known-fail: a missing file -> 1" eval 'status_is 1 && one_error_line "--known-fail: .*nope.txt"'
printf '# nothing\n' >"$work/empty.txt"
cli test "$c" --known-fail "$work/empty.txt"
check "--known-fail: a file listing nothing -> 1" eval 'status_is 1 && one_error_line "lists no test"'
cli test "$c" -f test_ge_wrong --known-fail "$src/tests/cli/known-fail-debian-1.12.txt"
check "the Debian 1.12 list reads as a --known-fail file" eval 'status_is 1 && out_last_is "0 passed, 1 failed, 0 skipped, 0 known failures"'
cli test --help
check "test --help: explains the five Debian 1.12 bfloat16 failures and the --known-fail file" eval 'status_is 0 &&
    out_has "test_cast_FLOAT_to_BFLOAT16" && out_has "test_castlike_FLOAT_to_BFLOAT16" &&
    out_has "_expanded forms" &&
    out_has "tests/cli/known-fail-debian-1.12.txt" && out_has "--known-fail FILE"'

# ---- a folder without model.onnx among the PATHs; --fail-on-skip ----
mkdir -p "$work/no_model"
cli test "$c/test_ge_float" "$work/no_model"
check "a PATH without model.onnx: SKIP line, the others still run" eval 'status_is 0 &&
    out_has "^PASS test_ge_float$" &&
    out_has "^SKIP no_model: no model.onnx in this folder nor in its subfolders$" &&
    out_last_is "1 passed, 0 failed, 1 skipped"'
cli test "$c/test_ge_float" "$work/no_model" --fail-on-skip
check "--fail-on-skip: a skip exits 1" eval 'status_is 1 && out_last_is "1 passed, 0 failed, 1 skipped"'
cli test "$c/test_ge_float" --fail-on-skip
check "--fail-on-skip without a skip exits 0" status_is 0

finish
