#!/bin/sh
# fusion_exact.sh: every whole model of tests/models (`*_opset*` folders) run through
# `onnx-scatter run` four ways, fusion on and off (--no-fusion), --threads 1 and 2, with its
# test_data_set_0 inputs: the output files of the four runs must be byte-identical. The fusion
# must also have fused something (`info --json` lists "fused" nodes) in each GNN model (gcn,
# graphsage, gat, edgeconv) and overall, so the comparison cannot pass with the pass off.
#
# These models are small: in the normal build their work stays under the 1 MiB threshold below
# which a run keeps to one thread, so --threads 2 does not split the fused kernel here. The
# threaded fused path is covered by test_fusion_tiny (the tiny-threshold library, where 2 and 3
# threads really split the destination rows).
#
# usage: fusion_exact.sh ONNX_SCATTER WORK_DIR MODELS_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
tool=$1 work=$2 models=$3
rm -rf "$work"
mkdir -p "$work" || exit 1

# same_dirs A B: the same files with the same bytes.
same_dirs() { diff -r "$1" "$2" >"$work/out" 2>&1; }

folders=0 fused_total=0
for d in "$models"/*_opset*; do
    [ -f "$d/model.onnx" ] || continue
    folders=$((folders + 1))
    model=$(basename "$d")
    mkdir -p "$work/$model"
    set --
    k=0
    while [ -f "$d/test_data_set_0/input_$k.pb" ]; do
        set -- "$@" "$d/test_data_set_0/input_$k.pb"
        k=$((k + 1))
    done
    for cfg in on_1 on_2 off_1 off_2; do
        flags="--threads ${cfg#*_}"
        [ "${cfg%_*}" = off ] && flags="$flags --no-fusion"
        # shellcheck disable=SC2086 # flags are words
        cli run "$d/model.onnx" "$@" $flags -o "$work/$model/$cfg"
        check "$model: runs ($cfg)" eval 'status_is 0 && [ -n "$(ls "$work/$model/$cfg")" ]'
    done
    check "$model: fusion on, 1 and 2 threads" same_dirs "$work/$model/on_1" "$work/$model/on_2"
    check "$model: fusion off, 1 and 2 threads" same_dirs "$work/$model/off_1" "$work/$model/off_2"
    check "$model: fusion on and off" same_dirs "$work/$model/on_1" "$work/$model/off_1"
    cli info "$d/model.onnx" --json
    fused=$(grep -o '"fused":\[{' "$work/out" | wc -l)
    fused_total=$((fused_total + fused))
    cli info "$d/model.onnx" --json --no-fusion
    check "$model: --no-fusion fuses nothing" \
        eval 'status_is 0 && ! grep -q "\"fused\"" "$work/out"'
    case $model in
    gcn_* | graphsage_* | gat_* | edgeconv_*)
        check "$model: a GNN model has fused nodes ($fused)" [ "$fused" -gt 0 ] ;;
    esac
done
check "model folders found ($folders)" [ "$folders" -gt 0 ]
check "nodes fused over all folders ($fused_total)" [ "$fused_total" -gt 0 ]
finish
