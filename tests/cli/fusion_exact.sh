#!/bin/sh
# fusion_exact.sh: every whole model of tests/models (`*_opset*` folders) run through
# `onnx-scatter run` six ways, fusion on, on with --fuse-recompute and off (--no-fusion),
# --threads 1 and 2, with its test_data_set_0 inputs: the output files of the six runs must be
# byte-identical. The fusion must also have fused something (`info --json` lists "fused" nodes)
# in each GNN model (gcn, graphsage, gat, edgeconv) and overall, and --fuse-recompute must have
# made a TiledGatherScatter of the GAT layers and of the one-layer GCN (their attention weights
# and edge norms), so the comparisons cannot pass with the pass or the mode off; `--set
# fuse_recompute=1` must give the same `info --json` as --fuse-recompute.
#
# A model exported with dynamic axes (`*_dynamic_*`, its folder's `dims` file holding the --dim
# pins of its test data) runs pinned (it must fuse as many nodes as its static export) and
# unpinned, on its symbolic shapes: fusion on, 1, 2 and 3 threads, and off, byte-identical to
# the pinned runs; it must make the same fused kernels as its static export (the ShapeOf nodes
# that read its symbols aside). The fill of a max aggregation (include_self=False: EdgeConv, GAT,
# SAGE max), a reset scatter of -inf, is taken in by the max scatter in both: the small static
# export's fill folded to a constant [E, C], the unpinned one's an Expand of a scalar.
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
# kernels MODEL: the fused kernels `info --json` lists for MODEL but ShapeOf, sorted, one a line.
kernels() {
    "$tool" info "$1" --json | grep -o '"op_type":"[A-Za-z]*","domain":"osc"' |
        sed 's/"op_type":"\([A-Za-z]*\)".*/\1/' | grep -v '^ShapeOf$' | sort
}

folders=0 fused_total=0
for d in "$models"/*_opset*; do
    [ -f "$d/model.onnx" ] || continue
    folders=$((folders + 1))
    model=$(basename "$d")
    mkdir -p "$work/$model"
    pins=$(cat "$d/dims" 2>/dev/null)
    set --
    k=0
    while [ -f "$d/test_data_set_0/input_$k.pb" ]; do
        set -- "$@" "$d/test_data_set_0/input_$k.pb"
        k=$((k + 1))
    done
    for cfg in on_1 on_2 rec_1 rec_2 off_1 off_2; do
        flags="--threads ${cfg#*_} $pins"
        [ "${cfg%_*}" = off ] && flags="$flags --no-fusion"
        [ "${cfg%_*}" = rec ] && flags="$flags --fuse-recompute"
        # shellcheck disable=SC2086 # flags are words
        cli run "$d/model.onnx" "$@" $flags -o "$work/$model/$cfg"
        check "$model: runs ($cfg)" eval 'status_is 0 && [ -n "$(ls "$work/$model/$cfg")" ]'
    done
    check "$model: fusion on, 1 and 2 threads" same_dirs "$work/$model/on_1" "$work/$model/on_2"
    check "$model: fusion off, 1 and 2 threads" same_dirs "$work/$model/off_1" "$work/$model/off_2"
    check "$model: fusion on and off" same_dirs "$work/$model/on_1" "$work/$model/off_1"
    check "$model: --fuse-recompute, 1 and 2 threads" \
        same_dirs "$work/$model/rec_1" "$work/$model/rec_2"
    check "$model: --fuse-recompute and fusion off" \
        same_dirs "$work/$model/rec_1" "$work/$model/off_1"
    # shellcheck disable=SC2086 # pins are words
    cli info "$d/model.onnx" --json --fuse-recompute $pins
    tiled_gs=$(grep -o '"op_type":"TiledGatherScatter"' "$work/out" | wc -l)
    cp "$work/out" "$work/recompute.json"
    # shellcheck disable=SC2086
    cli info "$d/model.onnx" --json --set fuse_recompute=1 $pins
    check "$model: --set fuse_recompute=1 is --fuse-recompute" \
        eval 'status_is 0 && cmp -s "$work/out" "$work/recompute.json"'
    case $model in
    gat_* | gnn_gat_*)
        check "$model: --fuse-recompute tiles an operand ($tiled_gs)" [ "$tiled_gs" -gt 0 ] ;;
    esac
    # shellcheck disable=SC2086
    cli info "$d/model.onnx" --json $pins
    fused=$(grep -o '"fused":\[{' "$work/out" | wc -l)
    fused_total=$((fused_total + fused))
    case $model in # the edge norm read by the aggregation from its two tables: no Mul left
    gcn_* | gnn_gcn_*)
        muls=$(grep -o '"op_type":"Mul"[^}]*"folded":false' "$work/out" | wc -l)
        check "$model: the edge norm's Gathers and Mul taken in ($muls Mul left)" [ "$muls" = 0 ]
        muls=$(grep -o '"op_type":"Mul"[^}]*"folded":false' "$work/recompute.json" | wc -l)
        check "$model: so with --fuse-recompute ($muls Mul left, $tiled_gs tiled)" \
            [ "$muls" = 0 ] ;;
    esac
    case $model in # edge_index's rows read in place by the fused nodes: no Gather copies one
    gnn_* | graphsage_*)
        gathers=$(grep -o '"op_type":"Gather"[^}]*"folded":false' "$work/out" | wc -l)
        check "$model: edge_index's rows read in place ($gathers Gather left)" \
            [ "$gathers" = 0 ] ;;
    esac
    case $model in # lin_l(mean) + lin_r(x): the product adds the other as it stores its sums
    gnn_sage_*)
        check "$model: the residual sum taken in by its product (rule matmul_add)" \
            grep -q '"op_type":"MatMulAdd"' "$work/out" ;;
    esac
    case $model in # max aggregations: one fused node holds the -inf reset and the max scatter
    gnn_edgeconv_* | gnn_sage_*_max_*)
        check "$model: the reset scatter taken in by the max scatter" \
            grep -q '"fused":\[[^]]*"ScatterElements"[^]]*"ScatterElements"' "$work/out" ;;
    gnn_gat_*) # its segment softmax: one node holds the max scatter with its reset, the Exp
        # and the sum scatter
        sm='"rule":"segment_softmax","fused":\[[^]]*\("ScatterElements"[^]]*\)\{2\}"Exp"'
        check "$model: the segment softmax fused whole" \
            grep -q "$sm"'[^]]*"ScatterElements"' "$work/out" ;;
    esac
    case $model in
    *_dynamic_*)
        cli info "$models/${model%%_dynamic_*}_${model##*_dynamic_}/model.onnx" --json
        static=$(grep -o '"fused":\[{' "$work/out" | wc -l)
        check "$model: pinned, fused as its static export ($fused, ${static:-none})" \
            [ "$fused" = "$static" ]
        static_ops=$(kernels "$models/${model%%_dynamic_*}_${model##*_dynamic_}/model.onnx")
        for cfg in sym_1 sym_2 sym_3 symoff_1; do
            flags="--threads ${cfg#*_}"
            [ "${cfg%_*}" = symoff ] && flags="$flags --no-fusion"
            # shellcheck disable=SC2086 # flags are words
            cli run "$d/model.onnx" "$@" $flags -o "$work/$model/$cfg"
            check "$model: runs unpinned ($cfg)" eval 'status_is 0 && [ -n "$(ls "$work/$model/$cfg")" ]'
            check "$model: unpinned ($cfg) and pinned, fusion off" \
                same_dirs "$work/$model/$cfg" "$work/$model/off_1"
        done
        sym_ops=$(kernels "$d/model.onnx")
        check "$model: unpinned, the fused kernels of its static export ($(echo $sym_ops))" \
            eval '[ -n "$static_ops" ] && [ "$sym_ops" = "$static_ops" ]'
        cli info "$d/model.onnx" --json
        case $model in
        # (their ShapeOfs are fused away: the fill, zeros or -inf, reads N from x)
        gnn_edgeconv_* | gnn_sage_small_max_*) ;;
        *) check "$model: unpinned, ShapeOf reads the symbols (rule shape_of)" \
            grep -q '"op_type":"ShapeOf",.*"rule":"shape_of"' "$work/out" ;;
        esac ;;
    esac
    cli info "$d/model.onnx" --json --no-fusion
    check "$model: --no-fusion fuses nothing" \
        eval 'status_is 0 && ! grep -q "\"fused\"" "$work/out"'
    # The layers as users also spell them, static and dynamic (unpinned): GCN with index_add_
    # (torch 1.13: a last-wins scatter of an Expanded source into zeros, plus Add) and SAGE with
    # max aggregation (its -inf reset scatter, then Where(IsInf)) fuse their aggregation with
    # its Gather.
    case $model in
    gnn_*_small_index_add_* | gnn_*_small_max_*)
        check "$model: its aggregation fuses with its Gather (GatherScatter)" \
            eval 'kernels "$d/model.onnx" | grep -qx GatherScatter' ;;
    esac
    case $model in
    gcn_* | graphsage_* | gat_* | edgeconv_*)
        check "$model: a GNN model has fused nodes ($fused)" [ "$fused" -gt 0 ] ;;
    esac
done
check "model folders found ($folders)" [ "$folders" -gt 0 ]
check "nodes fused over all folders ($fused_total)" [ "$fused_total" -gt 0 ]
finish
