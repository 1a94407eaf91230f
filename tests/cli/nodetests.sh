#!/bin/sh
# nodetests.sh: runs official ONNX node-test folders through `onnx-scatter test` for ctest.
#
# usage: nodetests.sh ONNX_SCATTER DIR [--expect-pass N] [--no-skip] [--known-fail-file FILE]
#                     [--atol A] [PATTERN...]
#   --known-fail-file: tests whose expected data this runtime rightly disagrees with, one per
#   line with the reason in '#' comments (`onnx-scatter test --known-fail FILE`); each must be
#   reported KNOWN (it still fails), any other FAIL fails the entry.
#   --atol: `test`'s absolute tolerance (default its own, 1e-7).
#   PATTERNs (shell globs like 'test_scatter*') pick subfolders of DIR; without any, all of DIR.
# Exit: 0 when `test` exits 0, its summary counts every selected folder, and the optional
# expectations hold; 77 (ctest SKIP_RETURN_CODE) when DIR is absent; 1 otherwise.

tool=$1 dir=$2
shift 2
expect_pass='' no_skip=0 known='' known_file='' atol=''
while [ $# -gt 0 ]; do
    case $1 in
    --known-fail-file) known_file=$2; known=$(sed 's/#.*//' "$2" | tr -s ' \t' '\n\n'); shift 2 ;;
    --expect-pass) expect_pass=$2; shift 2 ;;
    --no-skip) no_skip=1; shift ;;
    --atol) atol=$2; shift 2 ;;
    *) break ;;
    esac
done

if [ ! -d "$dir" ]; then
    echo "SKIPPED: node-test folder '$dir' not found;" \
        "point OSC_NODE_TESTS_DIR / OSC_DEBIAN_NODE_TESTS_DIR at it to run this test"
    exit 77
fi

# The folders `test` must report on: one summary count each.
if [ $# -eq 0 ]; then set -- '*'; fi
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
for pattern in "$@"; do
    for d in "$dir"/$pattern; do
        [ -f "$d/model.onnx" ] && printf '%s\n' "$d" >>"$list"
    done
done
selected=$(sort -u "$list" | wc -l)
if [ "$selected" -eq 0 ]; then
    echo "FAILED: no node-test folder in '$dir' matches: $*"
    exit 1
fi

# Folder paths have no spaces or newlines in the official sets.
# shellcheck disable=SC2046
out=$("$tool" test ${known_file:+--known-fail "$known_file"} ${atol:+--atol "$atol"} $(sort -u "$list"))
rc=$?
printf '%s\n' "$out"

fail() {
    echo "FAILED: $*"
    exit 1
}
[ $rc -le 1 ] || fail "onnx-scatter test exited with $rc (a crash or a usage error)"
summary=$(printf '%s\n' "$out" | tail -n 1)
counts=$(printf '%s\n' "$summary" |
    sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped\(, \([0-9]*\) known failures\)\{0,1\}$/\1 \2 \3 \5/p')
[ -n "$counts" ] || fail "last line is not 'N passed, N failed, N skipped': $summary"
# shellcheck disable=SC2086 # three or four numbers, split on purpose
set -- $counts
passed=$1 failed=$2 skipped=$3 knownf=${4:-0}
[ $((passed + failed + skipped + knownf)) -eq "$selected" ] ||
    fail "the summary counts $((passed + failed + skipped + knownf)) tests for $selected folders"
for t in $known; do
    printf '%s\n' "$out" | grep -q "^KNOWN $t:" || fail "$t was expected to fail (known data quirk)"
done
unknown=$(printf '%s\n' "$out" | grep '^FAIL ' | while read -r _ name _; do echo "${name%:}"; done)
[ -z "$unknown" ] || fail "tests failed: $(echo $unknown)"
[ $rc -eq 0 ] || fail "$failed tests failed (exit status $rc)"
[ $no_skip -eq 0 ] || [ "$skipped" -eq 0 ] || fail "$skipped tests skipped; every one must run here"
# A skip must say what is unsupported: an op it names, a non-tensor type, or a feature of an
# op that is documented as not implemented (e.g. casts between strings and numbers).
unnamed=$(printf '%s\n' "$out" | grep '^SKIP ' |
    grep -v -e ': unsupported op ' -e 'only tensors are supported' -e 'not implemented' |
    head -n 3)
[ -z "$unnamed" ] || fail "SKIP lines that do not say what is unsupported: $unnamed"
[ -z "$expect_pass" ] || [ "$passed" -eq "$expect_pass" ] ||
    fail "$passed tests passed, expected $expect_pass"
echo "OK: $selected folders, $passed passed, $skipped skipped"
exit 0
