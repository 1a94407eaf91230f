#!/usr/bin/env bash
# run.sh: builds (Release), generates the cases, runs the harnesses, writes docs/performance.md.
# usage: bench/run.sh [--build DIR] [--seconds S] [--no-ort] [--no-torch] [--no-doc]
#                     [--doc-out FILE] [--gnn] [--gnn-scale S] [CASE...]
#   --build DIR   build folder (default: build-bench in the repository; the cases go to DIR/bench/cases)
#   --seconds S   about S seconds of timed rounds per case (default 25; at least 15 rounds anyway, 5
#                 for the GNN layers)
#   --no-ort      leave onnxruntime out
#   --no-torch    leave PyTorch out of the GNN layers (else used when the Python interpreter,
#                 $OSC_BENCH_PYTHON or /usr/bin/python3, imports torch: bench/torch_bench.py)
#   --no-doc      print the results, do not rewrite docs/performance.md
#   --doc-out F   write the page to F instead of docs/performance.md (the part not rerun is
#                 still taken from docs/performance.md)
#   --gnn         only the GNN layers; rewrites only their section of docs/performance.md
#   --gnn-scale S GNN graphs with 1/S of the nodes and edges (quick checks; the doc says so)
#   CASE...       only these scatter cases, and no GNN layers (the doc keeps its GNN section)
# Without --gnn or CASEs: the scatter cases, MatMul against onnxruntime, then the GNN layers (made by
# tests/models/gen_models.py --bench into DIR/bench/gnn, again only when the script changes).
# onnxruntime is optional: without node, or when `npm install --ignore-scripts` of bench/ort fails,
# the suite says "onnxruntime: not available (REASON)" and runs the rest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build-bench seconds=25 ort=1 torch=1 doc=1 doc_out=$root/docs/performance.md cases=() gnn_only=0 gnn_scale=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --no-ort) ort=0 ;;
    --no-torch) torch=0 ;;
    --no-doc) doc=0 ;;
    --doc-out) doc_out=$2; shift ;;
    --gnn) gnn_only=1 ;;
    --gnn-scale) gnn_scale=$2; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) cases+=("$1") ;;
  esac
  shift
done
jobs=$(nproc)
log() { printf '\n### %s\n' "$*"; }
run_scatter=$((1 - gnn_only)) run_gnn=1
[[ ${#cases[@]} -eq 0 || $gnn_only -eq 1 ]] || run_gnn=0

log "build (Release) in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DOSC_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$jobs" --target osc-bench-gen osc-bench-harness osc-bench-matmul \
  osc-bench-gnn onnx-scatter >/dev/null
gen=$build/bench/osc-bench-gen harness=$build/bench/osc-bench-harness cli=$build/tools/onnx-scatter
[[ ${#cases[@]} -gt 0 ]] || mapfile -t cases < <("$gen" --list)

if [[ $run_scatter -eq 1 ]]; then
  # The cases depend only on the generator: regenerate when its binary changed.
  out=$build/bench/cases
  stamp=$(sha256sum "$gen" | cut -d' ' -f1)
  if [[ $(cat "$out/.stamp" 2>/dev/null) != "$stamp" ]]; then
    log "generate ${#cases[@]} cases in $out"
    rm -rf "$out" && mkdir -p "$out"
    "$gen" "$out" "${cases[@]}"
    echo "$stamp" >"$out/.stamp"
  else
    log "cases in $out are up to date"
  fi
  dirs=()
  for c in "${cases[@]}"; do dirs+=("$out/$c"); done
  log "onnx-scatter test on the cases"
  "$cli" test "${dirs[@]}"
fi

gnn_out=$build/bench/gnn gnn_dirs=()
if [[ $run_gnn -eq 1 ]]; then
  # The GNN cases depend on the Python generator (and its TensorProto encoder) and the scale.
  models=$root/tests/models
  stamp="$(cat "$models/gen_models.py" "$root/tests/torch/gen_torch_models.py" | sha256sum | cut -d' ' -f1) scale $gnn_scale"
  if [[ $(cat "$gnn_out/.stamp" 2>/dev/null) != "$stamp" ]]; then
    log "generate the GNN layers in $gnn_out (tests/models/gen_models.py --bench, about a minute)"
    rm -rf "$gnn_out" && mkdir -p "$gnn_out"
    "${OSC_BENCH_PYTHON:-/usr/bin/python3}" "$models/gen_models.py" --bench "$gnn_out" --scale "$gnn_scale"
    echo "$stamp" >"$gnn_out/.stamp"
  else
    log "GNN layers in $gnn_out are up to date"
  fi
  gnn_dirs=("$gnn_out"/gnn_*)
fi

ort_args=() ort_why=""
if [[ $ort -eq 0 ]]; then
  ort_why="left out (--no-ort)"
elif ! command -v "${OSC_BENCH_NODE:-node}" >/dev/null; then
  ort_why="node not found"
elif [[ ! -d $root/bench/ort/node_modules/onnxruntime-node ]]; then
  log "npm install --ignore-scripts in bench/ort"
  if ! npm_out=$(cd "$root/bench/ort" && npm install --ignore-scripts --no-audit --no-fund 2>&1); then
    ort_why="npm install failed: $(grep -v '^npm warn' <<<"$npm_out" | tail -1)"
  fi
fi
if [[ -z $ort_why ]]; then ort_args=(--ort "$root/bench/ort/ort_bench.js"); else ort_args=(--ort-off "$ort_why"); fi
# PyTorch (the GNN layers only): eager and CSR through bench/torch_bench.py, one thread.
python=${OSC_BENCH_PYTHON:-/usr/bin/python3} torch_why="" torch_v=""
if [[ $torch -eq 0 ]]; then
  torch_why="left out (--no-torch)"
elif ! torch_v=$("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null); then
  torch_why="$python cannot import torch"
fi
if [[ -z $torch_why ]]; then torch_args=(--torch "$root/bench/torch_bench.py"); else torch_args=(--torch-off "$torch_why"); fi

# Runs a harness (the arguments) with its output also in the log file (the first argument); on
# failure stops the script, no doc written. Sets load_before / load_after (1, 5, 15 min averages).
run_harness() {
  local log=$1 rc; shift
  load_before=$(cut -d" " -f1-3 /proc/loadavg)
  set +e
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  load_after=$(cut -d" " -f1-3 /proc/loadavg)
  [[ $rc -eq 0 ]] || { echo "run.sh: the harness reported a failure (exit $rc); docs/performance.md not written" >&2; exit "$rc"; }
}

if [[ $run_scatter -eq 1 ]]; then
  log "harness"
  results=$build/bench/results.md
  run_harness "$build/bench/harness.log" \
    "$harness" --seconds "$seconds" "${ort_args[@]}" --markdown "$results" "${dirs[@]}"
  scatter_load="$load_before; after: $load_after"
  mm=$build/bench/matmul.txt
  if [[ -z $ort_why ]]; then
    log "MatMul against onnxruntime (bench/mm_compare.sh)"
    "$root/bench/mm_compare.sh" "$build" 5 | tee "$mm"
  else
    echo "onnxruntime: $ort_why" >"$mm"
  fi
fi
if [[ $run_gnn -eq 1 ]]; then
  log "GNN layers (osc-bench-gnn)"
  gnn_results=$build/bench/gnn_results.md
  run_harness "$build/bench/gnn.log" "$build/bench/osc-bench-gnn" --seconds "$seconds" \
    "${ort_args[@]}" "${torch_args[@]}" --markdown "$gnn_results" "${gnn_dirs[@]}"
  gnn_load="$load_before; after: $load_after"
  log "dynamic-axes exports against their static exports, back to back (bench/gnn_pairs.sh)"
  gnn_pairs=$build/bench/gnn_pairs.txt
  for t in 1 2; do echo "threads $t:"; bash "$root/bench/gnn_pairs.sh" "$build" 5 "$t"; done \
    >"$gnn_pairs" 2>&1 || { cat "$gnn_pairs"; exit 1; }
fi
[[ $doc -eq 1 ]] || exit 0

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -z $(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null) ]] || commit="$commit (with uncommitted changes)"
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
# the CPU's family and model, last-level cache and widest vectors (runs on other machines of the
# same name differ by these)
cpu_of() { grep -m1 "^$1" /proc/cpuinfo | cut -d: -f2 | tr -d ' '; }
vec=AVX2; grep -qw avx512f /proc/cpuinfo && vec=AVX-512; grep -qw avx2 /proc/cpuinfo || vec=SSE
l3=$(lscpu 2>/dev/null | sed -n 's/^L3 cache: *\([0-9.]* [KMG]iB\).*/\1/p')
cpu="$cpu, family $(cpu_of 'cpu family') model $(cpu_of 'model'), ${l3:-unknown} L3, $vec"
mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
doc_file=$root/docs/performance.md gnn_heading="## GNN layers (message passing)"
# The doc has two parts, each rewritten only by a run that measured it: everything before the GNN
# heading (scatter cases, MatMul), and the GNN section from that heading to the end.
# A third part, the decoder step (bench/decode_bench.c, run by hand), ends the page and is kept
# as it is.
dec_heading="## Decoder step"
part_a=$build/bench/doc_scatter.md part_b=$build/bench/doc_gnn.md part_c=$build/bench/doc_decode.md
sed -n "/^$dec_heading\$/,\$p" "$doc_file" >"$part_c"
if [[ $run_scatter -eq 0 ]]; then sed "/^$gnn_heading\$/,\$d" "$doc_file" >"$part_a"; fi
if [[ $run_gnn -eq 0 ]]; then
  sed -n "/^$gnn_heading\$/,\$p" "$doc_file" | sed "/^$dec_heading\$/,\$d" >"$part_b"
fi
if [[ $run_scatter -eq 1 ]]; then
ortv=$(grep -m1 '^onnx-scatter' "$build/bench/harness.log" | sed -n 's/.*onnxruntime onnxruntime-node \(.*\)/onnxruntime-node \1 (its bundled libonnxruntime)/p')
{
  cat <<EOF
# Performance

Written by \`bench/run.sh\` (do not edit by hand; run it again). The scatter benchmark suite: the
cases are generated by \`bench/gen_cases.c\` (never committed), timed by \`bench/harness.c\`, with
onnxruntime through \`bench/ort/ort_bench.js\`.

- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $commit
- Machine: $jobs CPUs ($cpu), $mem RAM, Linux $(uname -r); $(cc --version | head -1)
- onnx-scatter: Release build (\`-O3\`), static library, public API only
- onnxruntime: ${ortv:-not available (${ort_why:-see the log})}
- Load average (1, 5, 15 min) before the harness: $scatter_load (other work on the
  machine lengthens times, widens min-max and lowers CPU/wall)

## Method

- **Cases** (node-test folders, so \`onnx-scatter test DIR\` and \`onnx-scatter bench DIR\` run them):
  every input is a graph input (no initializer, nothing to fold), data from a fixed-seed PRNG,
  \`output_0.pb\` from a straightforward coordinate loop in the generator.
- **Rounds**: per case, each round calls every contender in a fresh shuffled order (a fixed
  rotation made the contender after onnxruntime ~15% slow: it always ran right after another
  process), each for a *burst* of calls in a row lasting about 1 ms (1 call for runs over 1 ms,
  up to 1000 for a microsecond run), every call timed on its own: short runs are timed warm, as a
  program calling them in a loop sees them. The first 3 rounds are warm-up (they size the
  bursts); then as many rounds as fit in about ${seconds} s (at least 15, at most 1000). "runs"
  counts the timed calls. Times are medians; ratios are ratios of medians from the same rounds.
  After each onnxruntime burst, node collects its garbage (\`--expose-gc\`) and the harness
  waits 2 ms, so that freeing the output copies does not overlap the next contender.
- **Timed region**: \`osc_session_run\` only (inputs bound once); the C loop / memcpy call itself;
  for onnxruntime, the \`model_run\` duration its own profiler records inside \`Run\` (not the
  JavaScript wall time). onnxruntime writes into pre-allocated output tensors, 1 or 2 intra-op
  threads, thread-pool spinning off.
- **Contenders**: onnx-scatter *copy* (normal run, output in the session's arena) and *in-place*
  (\`opts.inplace_inputs = 1\`: the node writes into the caller's data buffer), each with
  \`opts.threads\` 1 and 2; *C loop copy*: \`memcpy(out, data)\` + one plain loop over the updates
  (row-major, so duplicates land in the runtime's order; no bounds checks), compiled in the
  harness with the same flags; *C loop in-place*: the loop alone; *memcpy 1t* of data alone;
  *memcpy 2t*: the same copy split in two halves, one on a helper thread started once per case
  (it tests the issue's premise that two threads copy 2-3x faster than one on this machine).
- **In-place runs consume their input**: before each in-place run the harness copies the
  pristine data into a scratch buffer and binds it, outside the timed region. That copy leaves
  small data warm in cache and flushes the cache for large data, the same for the C loop in-place.
- **Correctness**: outputs are compared byte for byte in the first and last rounds: copy 1t with
  \`output_0.pb\`, every other contender with copy 1t (the memcpys with data; onnxruntime with
  \`output_0.pb\`). "bit-identical" in the last column.
- **CPU/wall**: process CPU time over wall time of the timed runs (about 1.0 = one busy thread);
  not shown for runs under 0.05 ms.
- **Peak RSS**: each contender runs again (3 runs) in a child process of its own that loads the
  case, resets the kernel's high-water mark (\`echo 5 > /proc/self/clear_refs\`), notes VmRSS
  (base: the process and its inputs) and reads VmHWM at the end. "peak" is VmHWM; "over base"
  is what the contender added. The headline's RSS ÷ I/O also gives, in parentheses, the peak
  less the file-backed pages mapped at base (RssFile: the harness's and the C library's code,
  about 2 MiB, shared with every process that maps them): an upper bound of the memory the run
  itself holds. onnxruntime's child is a node process (its base includes node
  and the inputs in JavaScript arrays; its peak includes the copy of the output that
  onnxruntime-node makes for every result).

EOF
  cat "$results"
  cat <<EOF

## MatMul against onnxruntime, one thread

\`bench/mm_compare.sh\` (5 rounds; each round times every case with both runtimes, one after the
other): MatMul of an M x K float matrix by a K x N weight, K = N = 64 or 128, the weight a graph
input. onnx-scatter: \`onnx-scatter bench\` median of 50 runs, 1 thread; onnxruntime: its
\`model_run\` profiler time, median of 20 runs, 1 intra-op thread. The table gives the median
over rounds; osc/ort under 1 means onnx-scatter is faster. The target is at most 1.5.

\`\`\`
$(cat "$mm")
\`\`\`
EOF
} >"$part_a"
fi
if [[ $run_gnn -eq 1 ]]; then
  torch_line="torch $torch_v ($python)"
  [[ -z $torch_why ]] || torch_line="not available ($torch_why)"
  scale_note=""
  [[ $gnn_scale == 1 ]] || scale_note=" **Scaled down: 1/$gnn_scale of the nodes and edges (--gnn-scale $gnn_scale), not the issue's sizes.**"
{
  cat <<EOF
$gnn_heading

Written by \`bench/run.sh\` (\`bench/run.sh --gnn\` reruns this section alone). The
message-passing layers as PyTorch exporters write them, timed by \`bench/gnn_harness.c\`
(\`osc-bench-gnn\`) against onnxruntime, PyTorch (eager, and a CSR sparse-dense product) and a
hand-written C layer. What single changes bought, old and new binaries in alternating
sessions: docs/performance-steps.md.

- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $commit (the onnx-scatter and C layer binaries
  were built from it); onnxruntime and the compiler of the top of this page; PyTorch:
  $torch_line
- Machine: $jobs CPUs ($cpu), $mem RAM, Linux $(uname -r)
- Load average (1, 5, 15 min) before the harness: $gnn_load

### Method

- **Cases**: \`tests/models/gen_models.py --bench\` exports one layer each with torch 1.13's
  \`torch.onnx.export\` (static shapes; opset 17 for GCN and GraphSAGE, 18 for GAT and EdgeConv,
  whose scatter max the script rewrites to ScatterElements reduction "max"), the layers written
  as PyTorch Geometric writes them with plain torch ops (index_select, scatter_add_ with an
  expanded index). Graph inputs x and edge_index; the weights and the exporter's constants
  (torch.zeros becomes a Constant) are in the model; \`output_0.pb\` comes from torch eager.
  Random graphs from a fixed seed; EdgeConv on the k = 20 nearest-neighbour graph of random 3-D
  points.$scale_note
  - gnn_gcn: GCNConv 64 -> 64 with self loops and symmetric normalisation, 100,000 nodes,
    1,000,000 edges;
  - gnn_sage: SAGEConv (mean) 64 -> 64, L2-normalised, same graph size;
  - gnn_gat: GATConv 64 -> 2 heads of 32, self loops, segment softmax (ScatterElements max, then
    add), 50,000 nodes, 500,000 edges;
  - gnn_edgeconv: EdgeConv, MLP (Linear 6 -> 64, ReLU, Linear 64 -> 64) on [x_i, x_j - x_i], max
    aggregation, 20,000 points, 400,000 edges;
  - gnn_<layer>_dynamic: the same four modules and data exported with dynamic axes (N nodes, E
    edges symbolic, as GNNs are normally exported), loaded as they are: the rewrite fuses them
    on their symbols (\`osc-bench-gnn --pins\` loads them with their \`dims\` file's pins
    instead, \`opts.dim_pins\`, as the static export);
  - gnn_gcn2: two GCNConv 64 -> 64 -> 64 with ReLU between, one normalisation shared, GCN's
    graph (its C loop: the GCN loop twice).
- **Contenders**: onnx-scatter with default options (the load-time fusion on) at
  \`opts.threads\` 1 and 2; onnx-scatter *unfused* (\`opts.no_fusion = 1\`), 1 thread;
  onnx-scatter *recompute* (\`opts.fuse_recompute = 1\`: per-edge operands computed a tile at a
  time inside the fused loop, the memory mode), 1 thread; onnx-scatter *inputs donated*
  (\`opts.inplace_inputs = 2\`: x W written over the caller's x; the harness refills its own
  copy of x before each run, untimed, and the peak-RSS child gives up the x it loaded), 1 thread;
  *index unchanged* (edge_index declared unchanged before each run), 1 thread;
  onnxruntime (graphOptimizationLevel "all", 1 and 2 intra-op threads, spinning off, the output
  pre-allocated); the *C loop*: \`bench/gnn_loops.c\`, the layer written by hand in plain
  single-threaded C (dense linear as an i-k-j loop the compiler vectorises, one pass over the
  edges per aggregation, temporaries allocated once), compiled with the library's flags
  (\`-O3\`, no \`-march\`, \`-ffp-contract=off\`), weights read from the case's \`layer/\`;
  *torch eager*: the torch module the case was exported from, called under \`no_grad\`;
  *torch CSR* (GCN, SAGE, two-layer GCN): the same layer with its aggregation as one
  \`adj @ h\` with a \`torch.sparse_csr_tensor\` adjacency (GCN's normalised with self loops,
  SAGE's 1 / in-degree), built once before the rounds; the linears, bias and normalisation are
  timed with the product. Both run in a peer process (\`bench/torch_bench.py serve\`,
  \`torch.set_num_threads(1)\`, Debian's python3-torch) that times each call itself
  (\`perf_counter\`) and is driven in the same shuffled rounds as every other contender.
- **Rounds**: every round runs each contender once, in a fresh shuffled order; 1 warm-up round,
  then as many as fit in about ${seconds} s (at least 5). Times are medians; ratios are ratios of
  medians. Timed region: \`osc_session_run\` (inputs bound once), the C layer's function,
  onnxruntime's own \`model_run\` profiler event, and torch's forward call.
- **Correctness** (first and last round): onnx-scatter 1t, the C loop, torch and onnxruntime against
  \`output_0.pb\` within |got - want| <= 1e-5 + 1e-4 |want| (torch sums in another order);
  onnx-scatter 2t, unfused, recompute, index unchanged and inputs donated against onnx-scatter
  1t **bit for bit** (any difference is a MISMATCH that fails the run).
- **Peak RSS**: each contender runs 3 times in a child process of its own that has loaded the
  inputs (VmHWM after resetting the mark). onnxruntime's child is a node process (about 50 MiB of
  node before anything is loaded); torch's is a Python process of its own
  (\`torch_bench.py rss\`; about 240 MiB of Python and torch before anything is loaded).
  *Model bytes*: the bytes of the case's inputs, the model's
  initializers and Constant nodes, and its output; RSS ÷ model bytes near 1 would mean no memory
  beyond the model's own tensors.
- **Columns**: ÷ C loop and ÷ ORT 1t: onnx-scatter 1t over them; 2t ÷ ORT 2t: onnx-scatter 2t
  over onnxruntime 2t; fused ÷ unfused: onnx-scatter 1t over unfused 1t (1.00 until the fusion
  pass rewrites something: each case's line says how many graph nodes each has); ÷ ORT 1t RSS:
  peak RSS over onnxruntime 1t's.
- **Edges per second and bandwidth** (the second table and the per-case tables): M edges/s is
  edge_index's columns (the self loops GCN and GAT add are not counted) over the median time.
  *÷ copy BW*: the layer's compulsory bytes (read x and edge_index, write y; none of these
  layers has a per-edge input; weights and the exporter's constants not counted) per second,
  over the single-thread copy bandwidth measured by the harness before each case's rounds
  (median of 5 memcpys of 128 MiB, counted as read + write bytes). 1.0 would be a layer that
  runs as fast as copying its inputs and output once.
- **Dynamic against static** (the third table): each gnn_<layer>_dynamic beside gnn_<layer>,
  same module and data; separate cases, so their medians come from different rounds minutes
  apart: the column *÷ C loop* divides each by its own case's C loop first. The issue's target
  is within 1.10x. The last table times each pair back to back instead (\`bench/gnn_pairs.sh\`:
  5 rounds, in each the static and the dynamic export one after the other, 10 runs each by
  \`onnx-scatter bench\`, the order alternating between rounds; the ratio is the median over
  the rounds of each round's dynamic ÷ static), on 1 and 2 threads.

### Results

EOF
  cat "$gnn_results"
  printf '\nDynamic against static, back to back (bench/gnn_pairs.sh):\n\n```\n%s\n```\n' \
    "$(cat "$gnn_pairs")"
} >"$part_b"
fi
{
  if [[ -s $part_b ]]; then printf '%s\n\n%s\n' "$(cat "$part_a")" "$(cat "$part_b")"; else cat "$part_a"; fi
  if [[ -s $part_c ]]; then printf '\n%s\n' "$(cat "$part_c")"; fi
} >"$doc_out.tmp"
mv "$doc_out.tmp" "$doc_out"
log "wrote $doc_out"
