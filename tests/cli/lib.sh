# lib.sh: helpers shared by the CLI test scripts (sourced; POSIX sh).
# The sourcing script sets $tool (the onnx-scatter binary) and $work (a scratch folder).
# Checks are given to `eval` in single quotes on purpose: they expand when the check runs.
# shellcheck disable=SC2016,SC2034

passed=0 failed=0

# feature_setup ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR: the arguments every
# feature script gets (tests/cli.cmake): sets tool, work, gen, jq, src, empties $work and writes
# gen_cli_models' files into $m.
feature_setup() {
    tool=$1 work=$2 gen=$3 jq=$4 src=$5
    rm -rf "$work"
    mkdir -p "$work" || exit 1
    m=$work/m
    "$gen" "$m" || { echo "FAIL: gen_cli_models"; exit 1; }
}

# check NAME COMMAND...: one result line per check; on failure, the last command's output.
check() {
    name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
        [ -s "$work/out" ] && sed 's/^/     stdout: /' "$work/out" | head -n 12
        [ -s "$work/err" ] && sed 's/^/     stderr: /' "$work/err" | head -n 8
    fi
}

# cli ARGS...: runs the tool, stdout in $work/out, stderr in $work/err, exit status in $rc.
cli() {
    "$tool" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

status_is() { [ "$rc" -eq "$1" ]; }
out_has() { grep -q -e "$1" "$work/out"; }
err_has() { grep -q -e "$1" "$work/err"; }
out_is() { [ "$(cat "$work/out")" = "$1" ]; }
out_last_is() { [ "$(tail -n 1 "$work/out")" = "$1" ]; }
# A failure says what went wrong on exactly one stderr line, and prints nothing on stdout.
one_error_line() { [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] && grep -q -e "$1" "$work/err"; }

# jq_is PATH WANT [FILE]: the JSON value at PATH (compact) equals WANT; FILE defaults to out.
jq_is() { [ "$("$jq" "${3:-$work/out}" "$1")" = "$2" ]; }
# jq_len PATH WANT: the array/object at PATH has WANT elements.
jq_len() { [ "$("$jq" -n "$work/out" "$1")" = "$2" ]; }
# json_ok: stdout is exactly one valid JSON value.
json_ok() { "$jq" "$work/out" >/dev/null; }

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
