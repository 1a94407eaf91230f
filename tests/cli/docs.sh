#!/bin/sh
# docs.sh: docs/cli.md is exactly what tools/gen-cli-doc.sh makes of the --help texts, and every
# subcommand's help has an example and its exit statuses are documented.
#
# usage: docs.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
tool=$1 work=$2 src=$5
. "$(dirname "$0")/lib.sh"
rm -rf "$work"
mkdir -p "$work" || exit 1

sh "$src/tools/gen-cli-doc.sh" "$tool" >"$work/cli.md"
rc=$?
check "docs/cli.md is up to date (regenerate: tools/gen-cli-doc.sh BUILD/tools/onnx-scatter > docs/cli.md)" eval 'status_is 0 && cmp -s "$work/cli.md" "$src/docs/cli.md" ||
    { diff "$src/docs/cli.md" "$work/cli.md" | head -n 20; false; }'
for sub in run bench test info; do
    cli $sub --help
    check "$sub --help: usage line, an example, exit 0, nothing on stderr" eval 'status_is 0 && out_has "^usage: onnx-scatter $sub" &&
        out_has "^examples\?:$" && [ ! -s "$work/err" ]'
done
cli --help
check "--help: exit statuses and errors documented" eval 'status_is 0 && out_has "exit status: 0 success, 1 model or runtime error or failed test, 2 usage error" &&
    out_has "Errors are one line on stderr"'
cli bench --help
check "bench --help: --threads and the limits are documented" eval 'out_has "--threads N  *threads one run may use" && out_has "--max-bytes N|none"'
cli --version
check "--version" eval 'status_is 0 && out_has "^onnx-scatter [0-9]*\.[0-9]*\.[0-9]* (library [0-9]*\.[0-9]*\.[0-9]*)$"'
# help texts fit an 80-column terminal
for sub in "" run bench test info; do
    # shellcheck disable=SC2086
    "$tool" $sub --help >"$work/help"
    check "help '$sub' lines fit 80 columns" eval '[ "$(awk "length > 80" "$work/help" | wc -l)" -eq 0 ]'
done

# the README describes every stage of tools/run-tests.sh and every build option, and no document
# refers to an issue a reader of the repository cannot see (docs/performance.md is left out: it
# is written by bench/run.sh, whose text says "Issue #8" today)
stages=$(sed -n 's/^# Usage: tools\/run-tests.sh \[\([a-z|]*\)\].*/\1/p' "$src/tools/run-tests.sh" | tr '|' ' ')
check "README: a row for every stage of tools/run-tests.sh ($stages)" eval '[ -n "$stages" ] &&
    for st in $stages; do [ "$st" = all ] || grep -q "^| \`$st\` | " "$src/README.md" || { echo "     no row for $st"; exit 1; }; done'
opts=$(cat "$src/CMakeLists.txt" "$src/bench/CMakeLists.txt" | sed -n 's/^ *option(\(OSC_[A-Z_]*\) .*/\1/p')
check "README: every CMake option documented" eval '[ -n "$opts" ] &&
    for o in $opts; do grep -q "^| \`$o\` | " "$src/README.md" || { echo "     $o missing"; exit 1; }; done'
check "README and docs/ name no issue number" eval '! ls "$src"/docs/*.md | grep -v "/performance.md$" |
    xargs grep -n -i -E "issue #?[0-9]" "$src/README.md" "$src/tests/README.md"'
check "setup-deps: the quick start installs python3-numpy, the tests cmocka, fuzz clang, leak valgrind, coverage gcovr" eval '
    grep -q "quickstart) pkgs+=(\"\${base\[@\]}\" python3-numpy)" "$src/tools/setup-deps.sh" &&
    grep -q "^    fuzz) .* clang) ;;" "$src/tools/setup-deps.sh" && grep -q "^    leak) .* valgrind) ;;" "$src/tools/setup-deps.sh" &&
    grep -q "^    coverage) .* gcovr) ;;" "$src/tools/setup-deps.sh" && ! grep -q "^    quickstart).*\(clang\|valgrind\|gcovr\|cmocka\)" "$src/tools/setup-deps.sh"'
check "quickstart: builds the library and the CLI only, tests and bench off" eval '
    grep -q -- "-DOSC_BUILD_TESTS=OFF -DOSC_BUILD_BENCH=OFF" "$src/tools/quickstart.sh" &&
    grep -q -- "--target onnxscatter onnxscatter_shared onnx-scatter" "$src/tools/quickstart.sh"'

finish
