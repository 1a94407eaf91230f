#!/bin/sh
# random.sh: `--random` on real graphs: integer inputs followed to the nodes that read them,
# a message naming the input when no value is safe, and --save-inputs for replaying a run.
#
# usage: random.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"

# ---- every exported model runs with --random ----
# Seeds 1 to 20 of every model run in one process in ctest test_cli_random_models (the same
# code); here each model runs once through the CLI. A symbolic dim no --dim sizes gets a size,
# said in a note on stderr.
exported() {
    bad=""
    for d in "$src"/tests/torch/*_opset* "$src"/tests/models/*_opset*; do
        [ -f "$d/model.onnx" ] || continue
        "$tool" run "$d/model.onnx" --random 7 >/dev/null 2>"$work/err" || bad="$bad $(basename "$d")"
    done
    [ -z "$bad" ] || { echo "     failed:$bad"; sed 's/^/     /' "$work/err"; false; }
}
check "--random: every model of tests/torch and tests/models runs through the CLI" exported

# ---- integer inputs that reach their readers through other ops (gen_cli_models walk.onnx) ----
# idx -> Unsqueeze -> Cast -> Gather; rows -> Cast -> Unsqueeze -> Concat -> ScatterND tuples
# component 0 (6 rows), cols component 1 (4 columns); labels -> OneHot depth 7; start ->
# Unsqueeze -> Slice starts along axis 1; keep -> Reshape target of x's rank.
seeds_ok() {
    s=1
    while [ $s -le 10 ]; do
        "$tool" run "$m/walk.onnx" --random $s --save-inputs "$work/in$s" >/dev/null 2>"$work/err" || return 1
        s=$((s + 1))
    done
}
check "--random: through Unsqueeze, Cast and Concat to Gather, ScatterND, OneHot, Slice, Reshape (seeds 1 to 10)" seeds_ok
# The drawn values, read back from the .npy files (format 1.0: the header length is the
# little-endian u16 at byte 8; integers '<i4' or '<i8' follow the header)
npy_ints() { # FILE
    hl=$(od -An -t u2 -j 8 -N 2 "$1" | tr -d ' ')
    if head -c $((10 + hl)) "$1" | grep -q "'<i4'"; then w=4; else w=8; fi
    od -An -v -t d$w -j $((10 + hl)) "$1" | tr -s ' ' '\n' | sed '/^$/d'
}
values() { # INPUT: the values of every saved seed, one per line
    s=1
    while [ $s -le 10 ]; do
        npy_ints "$work/in$s/$1.npy"
        s=$((s + 1))
    done
}
in_range() { # INPUT LO HI: every drawn value in [LO, HI], and several of them when they can be
    values "$1" | awk -v lo="$2" -v hi="$3" 'BEGIN { bad = 0; n = 0 }
        { if ($1 < lo || $1 > hi) bad = 1; if (!($1 in seen)) n++; seen[$1] = 1 }
        END { exit !(NR > 0 && !bad && (n > 1 || lo == hi)) }'
}
check "--random: Gather indices over 6 rows through Unsqueeze and Cast: [-6, 5]" in_range idx -6 5
check "--random: ScatterND tuple component 0 through Cast, Unsqueeze, Concat: [0, 5]" in_range rows 0 5
check "--random: ScatterND tuple component 1 through Unsqueeze, Concat: [0, 3]" in_range cols 0 3
check "--random: OneHot indices of depth 7: [-7, 6]" in_range labels -7 6
check "--random: Slice start along axis 1 (4 columns): [0, 3]" in_range start 0 3
check "--random: a Reshape target of the data's rank keeps every dim: 0" in_range keep 0 0

# ---- no safe value: one line naming the input and the reader ----
cli run "$m/walk_empty.onnx" --random
check "--random: an index into an empty axis names the input, the node and the path" eval 'status_is 2 &&
    one_error_line "--random: input .idx.: no value is valid for node .gather. (Gather-13) input 1 (through Unsqueeze): gather indices along axis 0, which has size 0; give it with --input idx=FILE"'
cli run "$m/walk_reshape.onnx" --random
check "--random: a Reshape target no random value fits names the input" eval 'status_is 2 &&
    one_error_line "--random: input .shape.: no random value is safe: it is the target shape of node .reshape. (Reshape-13) input 1"'
cli run "$m/walk_reshape.onnx" --random -i 'shape=[4,3,2]'
check "--random: the input given by hand, the rest drawn" eval 'status_is 0 && out_has "^y: float \[4, 3, 2\]$"'

# ---- --save-inputs: .npy and .pb of every input, written before the run; replay ----
cli run "$m/profile.onnx" --random 5 --save-inputs "$work/saved" --json
cp "$work/out" "$work/first.json"
check "--save-inputs: NAME.npy and NAME.pb for every input" eval 'status_is 0 &&
    for n in data indices updates gidx; do [ -s "$work/saved/$n.npy" ] && [ -s "$work/saved/$n.pb" ] || exit 1; done'
cli run "$m/profile.onnx" -i data="$work/saved/data.npy" -i indices="$work/saved/indices.npy" \
    -i updates="$work/saved/updates.npy" -i gidx="$work/saved/gidx.npy" --json
check "--save-inputs: the .npy files replay the run (same outputs)" eval 'status_is 0 &&
    [ "$("$jq" "$work/out" outputs)" = "$("$jq" "$work/first.json" outputs)" ]'
cli run "$m/profile.onnx" "$work/saved/data.pb" "$work/saved/indices.pb" "$work/saved/updates.pb" "$work/saved/gidx.pb" --json
check "--save-inputs: the .pb files replay the run too" eval 'status_is 0 &&
    [ "$("$jq" "$work/out" outputs)" = "$("$jq" "$work/first.json" outputs)" ]'
cli run "$m/ge_int64.onnx" '[[1,2],[3,4]]' '[[0,5],[1,0]]' --save-inputs "$work/failed"
check "--save-inputs: written before the run, so a failing run can be replayed" eval 'status_is 1 &&
    [ -s "$work/failed/data.npy" ] && [ -s "$work/failed/indices.pb" ] && one_error_line "run failed"'
cli bench "$m/profile.onnx" --random 5 -n 1 -w 0 --save-inputs "$work/bsaved"
check "--save-inputs: bench writes the same files" eval 'status_is 0 && cmp -s "$work/bsaved/data.npy" "$work/saved/data.npy"'
cli run "$m/profile.onnx" --random --save-inputs
check "--save-inputs without DIR -> 2" eval 'status_is 2 && one_error_line "--save-inputs wants a folder"'

finish
