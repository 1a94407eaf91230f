#!/bin/sh
# bag_fusion.sh: the nn.EmbeddingBag exports of tests/torch/control (sum, mean, max at opsets 11,
# 13 and 16) load with their Loop fused by rule embedding_bag into SegmentReduce (`info`), and
# every run gives the bytes of the unfused Loop (--no-fusion): each test_data_set_K and literal
# cases (negative indices, empty bags: mean NaN, max -inf; offsets that decrease, are negative
# or pass the end, as Slice clamps them; no bag; no index; an index out of range outside every
# bag), fused at 1 and 2 threads. An index out of range inside a bag fails both ways, naming
# the Loop node, the bag and the value.
#
# usage: bag_fusion.sh ONNX_SCATTER WORK_DIR CONTROL_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/../cli/lib.sh"
tool=$1 work=$2 control=$3
rm -rf "$work"
mkdir -p "$work" || exit 1

# same_runs MODEL ARGS...: fused at 1 and 2 threads and --no-fusion, each exit 0, same bytes.
same_runs() {
    sm=$1
    shift
    for cfg in on_1 on_2 off_1; do
        rm -rf "$work/$cfg"
        flags="--threads ${cfg#*_}"
        [ "${cfg%_*}" = off ] && flags="$flags --no-fusion"
        # shellcheck disable=SC2086 # flags are words
        cli run "$sm" "$@" $flags -o "$work/$cfg"
        [ "$rc" -eq 0 ] || return 1
    done
    diff -r "$work/on_1" "$work/off_1" >"$work/out" 2>&1 && diff -r "$work/on_2" "$work/off_1" \
        >"$work/out" 2>&1
}

n=0
for d in "$control"/embedding_bag_*_opset*; do
    [ -f "$d/model.onnx" ] || continue
    n=$((n + 1))
    cn=$(basename "$d")
    model=$d/model.onnx
    cli info "$model"
    check "$cn: info shows the Loop fused by rule embedding_bag" eval 'status_is 0 &&
        out_has "^  [0-9]* /bag/Loop: SegmentReduce (osc, opset [0-9]*) -> kernel SegmentReduce-1$" &&
        out_has "^      fused from: Loop ./bag/Loop.$" && out_has "^      rule: embedding_bag$"'
    for t in "$d"/test_data_set_*; do
        check "$cn: $(basename "$t") fused = unfused" same_runs "$model" "$t/input_0.pb" \
            "$t/input_1.pb"
    done
    for c in '[-1,3,-10,9,0,5,5] [0,2,2,4]' '[1,2,3,4,5] [0,4,2,5]' '[1,2,3,4,5] [0,-2,1]' \
        '[1,2,3] [0,7,100]' '[4,-4,4,7] [0]' '[1,2] []' '[] [0,0]' '[99,2] [1]'; do
        # shellcheck disable=SC2086 # the two literals are words
        set -- $c
        check "$cn: indices $1, offsets $2: fused = unfused" same_runs "$model" \
            -i "indices=$1" -i "offsets=$2"
    done
    cli run "$model" -i 'indices=[1,2,3,-11,4]' -i 'offsets=[0,2,3]'
    check "$cn: an index out of range in a bag: the fused error names the node, bag and value" \
        eval 'status_is 1 && one_error_line "node ./bag/Loop. (SegmentReduce-1): bag 2 (indices 3 to 4): input 3 .indices. (indices) position 3: value -11 is out of range \[-10, 9\]"'
    cli run "$model" -i 'indices=[1,2,3,-11,4]' -i 'offsets=[0,2,3]' --no-fusion
    check "$cn: the same index fails the Loop" eval 'status_is 1 &&
        one_error_line "node ./bag/Loop. (Loop-[0-9]*): body, iteration 2: .*value -11 is out of range"'
done
check "the nine exports are there" [ "$n" -eq 9 ]
finish
