#!/bin/sh
# limits.sh: the runtime options of run, bench, test and info: --threads, and the limits
# (--max-bytes, --max-arena-bytes, --max-fold-bytes, --max-nodes, --max-rank, --max-string-mib):
# each limit is enforced with one error line naming it and its flag (exit 1), or for
# --max-fold-bytes leaves nodes unfolded, lifts when raised, and bad values are usage errors
# (exit 2).
#
# usage: limits.sh ONNX_SCATTER WORK_DIR GEN_CLI_MODELS JSON_QUERY SOURCE_DIR
# Last line: "N passed, N failed".
# shellcheck disable=SC2016 # checks expand when they run
. "$(dirname "$0")/lib.sh"
feature_setup "$@"
ex=$src/examples/scatter_elements
chain=$src/tests/bad/cases/chain_10000_nodes/model.onnx

# ---- each limit: refused below what the model needs, accepted at or above it ----
cli run "$ex/model.onnx" --random --max-rank 1
check "run --max-rank 1 refuses a rank-2 input" eval 'status_is 1 && one_error_line "rank 2; the limit is 1 (opts.max_rank) \[command line: --max-rank\]"'
cli run "$ex/model.onnx" --random --max-rank 2
check "run --max-rank 2 runs" eval 'status_is 0 && out_has "^output: float \[3, 3\]"'

cli run "$ex/model.onnx" --random --max-bytes 1K
check "run --max-bytes 1K refuses the model" eval 'status_is 1 && one_error_line "opts.max_bytes (1024.*--max-bytes"'
for v in none 64M 65536 1GiB; do
    cli run "$ex/model.onnx" --random --max-bytes "$v"
    check "run --max-bytes $v runs" status_is 0
done
cli run "$ex/model.onnx" --random --max-bytes=1K
check "--max-bytes=1K form" eval 'status_is 1 && one_error_line "opts.max_bytes (1024"'

cli run "$ex/model.onnx" --random --max-arena-bytes 8
check "run --max-arena-bytes 8 refuses the run" eval 'status_is 1 && one_error_line "run failed: the run needs an arena of .*opts.max_arena_bytes is 8.*--max-arena-bytes"'
cli run "$ex/model.onnx" --random --max-arena-bytes none
check "run --max-arena-bytes none runs" status_is 0

cli info "$chain" --max-nodes 9999
check "info --max-nodes 9999 refuses a 10,000-node chain" eval 'status_is 1 && one_error_line "10000 nodes; the limit is 9999.*--max-nodes"'
cli info "$chain" --max-nodes 10000
check "info --max-nodes 10000 loads it" eval 'status_is 0 && out_has "nodes"'

# a (1, 1) string array whose one item is 1.5 MiB ('|S1572864', as np.save writes it)
big=$work/big_string.npy
hdr="{'descr': '|S1572864', 'fortran_order': False, 'shape': (1, 1), }"
pad=$((128 - 10 - ${#hdr} - 1))
{ printf '\223NUMPY\001\000\166\000%s%*s\n' "$hdr" "$pad" ''; head -c 1572864 /dev/zero | tr '\0' a; } >"$big"
cli run "$m/ge_string.onnx" "$big" '[[0]]' --max-string-mib 1
check "run --max-string-mib 1 refuses a 1.5 MiB string" eval 'status_is 1 && one_error_line "opts.max_string_mib.*--max-string-mib"'
cli run "$m/ge_string.onnx" "$big" '[[0]]' --max-string-mib 2
check "run --max-string-mib 2 runs" eval 'status_is 0 && out_has "^y: string \[1, 1\]"'

# ---- the other commands take the same flags ----
cli test "$ex" --max-rank 1
check "test --max-rank 1 fails the test with the limit" eval 'status_is 1 && out_has "^FAIL scatter_elements: .*opts.max_rank"'
cli test "$ex" --max-rank 2
check "test --max-rank 2 passes" eval 'status_is 0 && out_has "^PASS scatter_elements"'
cli bench "$ex" -n 1 -w 0 --max-arena-bytes 8
check "bench CASE_DIR --max-arena-bytes 8 reports the limit" eval 'status_is 1 && out_has "\"error\":.*max_arena_bytes"'
cli bench "$ex/model.onnx" --random -n 1 -w 0 --max-bytes 1K
check "bench MODEL --max-bytes 1K refuses the model" eval 'status_is 1 && one_error_line "--max-bytes"'

# ---- --max-fold-bytes: folding stops at the budget, the rest runs ----
cli info "$m/fold3.onnx"
check "info folds three 1 MiB constants by default" eval 'status_is 0 && out_has "^nodes: 4 (3 folded at load"'
cli info "$m/fold3.onnx" --max-fold-bytes 2M
check "info --max-fold-bytes 2M folds two" eval 'status_is 0 && out_has "^nodes: 4 (2 folded at load"'
cli run "$m/fold3.onnx" --random --max-fold-bytes 1
check "run --max-fold-bytes 1 folds none and runs" eval 'status_is 0 && out_has "^y: float \[4\]"'
cli info "$m/fold3.onnx" --max-fold-bytes none
check "info --max-fold-bytes none folds all" eval 'status_is 0 && out_has "^nodes: 4 (3 folded at load"'

# ---- --threads: the session's thread count, same output ----
cli run "$ex/model.onnx" --random 3 --threads 2 --json
check "run --threads 2 --json reports 2 threads" eval 'status_is 0 && jq_is threads 2'
"$tool" run "$ex/model.onnx" --random 3 >"$work/one"
cli run "$ex/model.onnx" --random 3 --threads 3
check "run --threads 3 prints what 1 thread prints" eval 'status_is 0 && cmp -s "$work/out" "$work/one"'

# ---- bad values: usage errors naming the flag ----
for bad in "--max-rank 0" "--max-rank 33" "--max-bytes 0" "--max-bytes 12X" "--max-bytes -5" \
    "--max-bytes 20000000T" "--max-arena-bytes 0" "--max-fold-bytes 0" "--max-nodes -1" "--max-nodes 3000000000" \
    "--max-string-mib 256" "--max-string-mib none" "--max-rank" "--threads 0" "--threads 257"; do
    flag=${bad%% *}
    # shellcheck disable=SC2086 # the flag and its value are two words
    cli run "$ex/model.onnx" --random $bad
    check "run $bad -> 2" eval 'status_is 2 && one_error_line "run: $flag wants"'
done
for sub in test info bench; do
    cli $sub "$ex" --max-rank 99
    check "$sub --max-rank 99 -> 2" eval 'status_is 2 && one_error_line "$sub: --max-rank wants"'
done

finish
