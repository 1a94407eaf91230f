/* usage.c: help texts and the one-line error reporters of the command line. */
/* docs/cli.md is generated from these texts (tools/gen-cli-doc.sh); a test keeps it in step. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

void usage_main(FILE *f) {
    fputs("usage: onnx-scatter COMMAND [ARGS]\n"
          "\n"
          "Runs ONNX models built from scatter/gather-family ops.\n"
          "\n"
          "commands:\n"
          "  run MODEL [INPUT...]    run a model once and print its outputs like numpy\n"
          "  bench MODEL|CASE_DIR    time runs; --profile adds a per-node table\n"
          "  test PATH...            run ONNX node-test folders and check every output\n"
          "  info MODEL              show a model's inputs, outputs, nodes and kernels\n"
          "  help COMMAND            show a command's help (same as COMMAND --help)\n"
          "\n"
          "options:\n"
          "  -h, --help     show this help\n"
          "  --version      show the version\n"
          "\n"
          "Inputs are .npy files (np.save), TensorProto .pb files or literals such as\n"
          "'[[1,0],[2,1]]:int64'. run, bench, test and info take --json for scripts.\n"
          "Errors are one line on stderr.\n"
          "\n"
          "exit status: 0 success, 1 model or runtime error or failed test, 2 usage error\n"
          "\n"
          "examples:\n"
          "  onnx-scatter run model.onnx --input data=data.npy --input indices='[[1,0]]'\n"
          "  onnx-scatter bench model.onnx --random --profile\n",
          f);
}

/* The input options run and bench share. */
static void usage_inputs(FILE *f) {
    fputs("inputs (graph input order: inputs without a default first; see 'info'):\n"
          "  INPUT                   positional: binds the next graph input, in order\n"
          "  -i, --input NAME=VALUE  binds graph input NAME\n"
          "      VALUE is a file, .npy (numpy format 1.0-3.0, either byte order, C or\n"
          "      Fortran order) or TensorProto .pb, told apart by their bytes; or a\n"
          "      literal: a scalar or nested list, commas or blanks between items,\n"
          "      optional :DTYPE (default: the model's dtype), e.g. '[[1,0],[2,1]]:int64',\n"
          "      '[1.5 nan -inf]', 'true', \"['a','b']:string\", '1+2j'. A file whose\n"
          "      name reads as a number is taken as a file when it exists. An input\n"
          "      the model declares a sequence or an optional takes a SequenceProto or\n"
          "      OptionalProto .pb file (as the node tests store them); such outputs\n"
          "      print as their items, NAME[0], NAME[1]...\n"
          "  --random [SEED]         fill every input not given from its declared dtype\n"
          "                          and shape; SEED (default 0) is the next argument\n"
          "                          when it is a plain number; same seed, same values.\n"
          "                          Floats in [-1, 1), ints in [-100, 100] (integer\n"
          "                          scalars, positions or counts, from 0), except\n"
          "                          integer inputs that reach, directly or through\n"
          "                          Unsqueeze, Squeeze, Reshape, Cast, Concat,\n"
          "                          Identity, Expand (and the data of Gather, Slice),\n"
          "                          a node that reads them as indices: each draws\n"
          "                          from what every such reader accepts (Gather,\n"
          "                          GatherElements, GatherND, the Scatter family,\n"
          "                          OneHot, Slice starts, Reshape and Expand targets);\n"
          "                          ScatterND tuples distinct where they fit. When no\n"
          "                          value is safe, a usage error names the input,\n"
          "                          the node and why: give that input by hand. A\n"
          "                          symbolic dim that neither --dim nor a given input\n"
          "                          sizes is 3, said in a note on stderr\n"
          "  --dim NAME=SIZE         pin the symbolic dim NAME to SIZE: the model loads\n"
          "                          as if exported with it (folded, planned and fused\n"
          "                          like a static export); --random draws that size and\n"
          "                          given inputs must agree with it; a NAME the model\n"
          "                          lacks is ignored, with a warning\n"
          "  --save-inputs DIR       write every input of the run, drawn or given, to\n"
          "                          DIR/NAME.npy (when numpy holds the dtype) and\n"
          "                          DIR/NAME.pb, before it runs (file names as for\n"
          "                          run -o, all or none): -i NAME=DIR/NAME.npy\n"
          "                          replays it\n"
          "An input whose dtype or shape differs from the model's is an error (exit 1)\n"
          "naming the input, what the model expects and what was given. Input files\n"
          "must be regular files (a FIFO or device is refused without reading); each,\n"
          "and all the inputs together (--random ones before they are made), must fit\n"
          "--max-bytes.\n",
          f);
}

void usage_run(FILE *f) {
    fputs("usage: onnx-scatter run MODEL [INPUT...] [options]\n"
          "\n"
          "Runs MODEL once and prints each output: 'NAME: DTYPE [SHAPE]', then the values\n"
          "as numpy's print() shows them (tensors over 1000 elements summarised with ...).\n"
          "\n",
          f);
    usage_inputs(f);
    fputs("\n"
          "outputs:\n"
          "  --full                  print every value, never '...'\n"
          "  -o, --output-dir DIR    also write each output to DIR/NAME.npy (DIR created;\n"
          "                          '/' in NAME becomes '_'; a second output of one\n"
          "                          file name gets NAME~2, with a note); all files or\n"
          "                          none: names too long for the file system or taken\n"
          "                          by a folder are refused first, and files are\n"
          "                          renamed into place only once all are written (a\n"
          "                          symlink there is replaced, not followed)\n"
          "  --format npy|pb         file format for --output-dir (default npy; outputs\n"
          "                          numpy cannot hold, e.g. bfloat16, go to .pb with a\n"
          "                          note on stderr); without -o a usage error\n"
          "  -O, --output NAME       print (and write, with -o) only output NAME;\n"
          "                          repeatable; an unknown NAME is a usage error listing\n"
          "                          the outputs\n"
          "  --dump DIR              also write every value the run computes to DIR as\n"
          "                          NAME.npy (file names as for -o; .pb when numpy\n"
          "                          cannot hold it), the values folded at load included\n"
          "                          (a constant the load released, read by no node\n"
          "                          that runs, is listed as left out), and\n"
          "                          DIR/dump.txt listing file, value, dtype, shape and\n"
          "                          node: for comparing an exported graph with its\n"
          "                          framework, value by value. Loads the graph as\n"
          "                          written (--no-fusion), so every value it names\n"
          "                          exists. When a node fails, the values computed\n"
          "                          before it are written\n"
          "  --json                  print one JSON object instead: model, threads,\n"
          "                          run_ms, seed (with --random), inputs [{name, dtype,\n"
          "                          shape, source}], warnings (the model's, as text),\n"
          "                          outputs [{name, dtype, shape, data}]\n"
          "                          with data as nested lists (NaN/inf as \"nan\", \"inf\",\n"
          "                          \"-inf\"; complex as [re, im]), files (with -o),\n"
          "                          dump (with --dump)\n"
          "\n",
          f);
    usage_runtime(f);
    fputs("\n"
          "examples:\n"
          "  onnx-scatter run model.onnx data.npy '[[1,0],[2,1]]' updates.npy\n"
          "  onnx-scatter run model.onnx --input data=x.npy --random 7 --dim N=4\n"
          "  onnx-scatter run model.onnx input_0.pb input_1.pb input_2.pb -o out\n"
          "  onnx-scatter run model.onnx --random -O y --dump values\n",
          f);
}

void usage_bench(FILE *f) {
    fputs("usage: onnx-scatter bench MODEL [INPUT...] [options]\n"
          "       onnx-scatter bench CASE_DIR... [options]\n"
          "\n"
          "Loads the model and binds the inputs once, then times each osc_session_run call:\n"
          "WARMUP untimed runs, then RUNS timed ones; prints min, median and max.\n"
          "\n"
          "A CASE_DIR is a node-test folder (model.onnx + test_data_set_0/) or a folder of\n"
          "them: its inputs come from test_data_set_0, and each case prints one JSON line\n"
          "for scripts that compare runtimes:\n"
          "  {\"case\":..,\"impl\":\"onnx-scatter\",\"threads\":..,\"runs\":..,\"median_ms\":..,\n"
          "   \"min_ms\":..,\"max_ms\":..,\"max_abs_err\":..,\"warnings\":[..]}\n"
          "max_abs_err is the largest |got - expected| over all outputs of the last run;\n"
          "null, with \"mismatch\", when an output differs in dtype, shape, or by NaN or a\n"
          "string. A case that fails prints {\"case\",\"impl\",\"threads\",\"error\"} and exit\n"
          "status 1. A case whose model uses an op this build does not implement prints\n"
          "{\"case\",\"impl\",\"threads\",\"skip\"} and 'SKIP NAME: why' on stderr, as 'test'\n"
          "does, and does not fail the command.\n"
          "\n"
          "options:\n"
          "  -n, --runs RUNS         timed runs (default 20)\n"
          "  -w, --warmup WARMUP     untimed runs first (default 2)\n"
          "  --profile               per node: name (#INDEX OP when unnamed), op, kernel\n"
          "                          version, the shapes it read -> wrote in the runs,\n"
          "                          median time and share of the median run; nodes\n"
          "                          folded at load (they never run) say 'folded'; fused\n"
          "                          nodes list what they replaced; the nodes of a\n"
          "                          subgraph (If, Loop, Scan) follow their node as\n"
          "                          NODE.ATTRIBUTE.INDEX, op indented, with their time\n"
          "                          summed over each run (every iteration), which their\n"
          "                          node's time includes; a legend follows\n"
          "  --profile-out FILE      MODEL: also write the timed runs to FILE as a Chrome\n"
          "                          trace (the JSON trace events ONNX Runtime's profiler\n"
          "                          writes: a 'Session' event per run, a 'Node' event\n"
          "                          per node with op_name, input_type_shape and\n"
          "                          output_type_shape); open it in ui.perfetto.dev or\n"
          "                          chrome://tracing. Nodes are laid end to end from\n"
          "                          their run's start (the library times each node,\n"
          "                          not when it starts); the model's own nodes only (a\n"
          "                          control-flow node's event covers its subgraphs)\n"
          "  -f, --filter GLOB       CASE_DIR: only folders whose name matches GLOB\n"
          "                          (repeatable), as in 'test'\n"
          "  --json                  MODEL: one JSON object (model, impl, threads,\n"
          "                          threads_requested, runs, warmup, median_ms, min_ms,\n"
          "                          max_ms, warnings, profile_out, nodes with --profile:\n"
          "                          [{index, name, op, kernel_version, folded,\n"
          "                          input_shapes, output_shapes, fused, median_ms,\n"
          "                          share, subgraphs [{attribute, nodes [...]}]}])\n"
          "\n",
          f);
    usage_inputs(f);
    fputc('\n', f);
    usage_runtime(f);
    fputs("\n"
          "examples:\n"
          "  onnx-scatter bench model.onnx --random --dim N=1024 --profile\n"
          "  onnx-scatter bench onnx-node-tests/test_scatternd_add -n 100\n",
          f);
}

void usage_test(FILE *f) {
    fputs("usage: onnx-scatter test PATH... [options]\n"
          "\n"
          "Each PATH is an ONNX node-test folder (model.onnx + test_data_set_N/) or a\n"
          "folder of them. Runs every data set, checks every output's dtype, shape and\n"
          "values (floats: |a-b| <= atol + rtol*|b|, NaN equals NaN; other types\n"
          "exactly) and prints one line per test, sorted by name:\n"
          "  PASS NAME | FAIL NAME: first mismatch (and how many elements differ, the\n"
          "  largest absolute and relative errors) or error | SKIP NAME: unsupported op,\n"
          "  or a PATH folder holding no model.onnx\n"
          "then 'N passed, N failed, N skipped'. Exit status 1 when a test failed (or,\n"
          "with --fail-on-skip, was skipped).\n"
          "\n"
          "Debian's ONNX 1.12 node tests (/usr/share/libonnx-testdata/data/node) have\n"
          "five tests whose expected data predates today's spec and that therefore FAIL\n"
          "here: test_cast_FLOAT_to_BFLOAT16 (ONNX 1.12 made its bfloat16 data by\n"
          "truncating; the spec, ONNX 1.23's data and this runtime round to nearest\n"
          "even) and test_castlike_BFLOAT16_to_FLOAT, test_castlike_FLOAT_to_BFLOAT16\n"
          "and their _expanded forms (their data gives a [1] tensor to an\n"
          "input the model declares [3, 4]). The source tree lists them, with these\n"
          "reasons, in tests/cli/known-fail-debian-1.12.txt, the file ctest passes to\n"
          "--known-fail; give it too and the run exits 0.\n"
          "\n"
          "options:\n"
          "  -f, --filter GLOB       only folders whose name matches GLOB (repeatable)\n"
          "  -j, --jobs N            run N folders at a time (output order unchanged)\n"
          "  --rtol R, --atol A      float tolerance (default 1e-3 and 1e-7)\n"
          "  --tolerance onnx|ort    onnx: ONNX's backend test runner's (rtol 1e-3, atol\n"
          "                          1e-7, numpy's assert_allclose: the default); ort:\n"
          "                          onnxruntime's onnx_test_runner's (relative and\n"
          "                          per-sample tolerance 1e-3). Both pass an element\n"
          "                          when |got - expected| <= atol + rtol * |expected|;\n"
          "                          a later --rtol or --atol overrides its part\n"
          "  --known-fail FILE       FILE lists tests expected to fail, one name or glob\n"
          "                          per line ('#' starts a comment: say why there).\n"
          "                          Such a failure prints 'KNOWN NAME: ...' and does\n"
          "                          not fail the run; the summary adds 'N known\n"
          "                          failures'; a listed test that passes is a PASS\n"
          "                          with a note on stderr\n"
          "  --fail-on-skip          exit 1 when a test was skipped, too\n"
          "  --json                  print {\"tests\":[{name, path, status (pass, fail,\n"
          "                          skip, known_fail), message, ops (the model's op\n"
          "                          types, when it loaded), warnings (its load\n"
          "                          warnings), ms}], passed, failed, skipped,\n"
          "                          known_failed, jobs, rtol, atol}, one test per line\n"
          "  --progress              show the progress line on stderr even when it is not\n"
          "                          a terminal (default: on a terminal, over 36 folders)\n"
          "  --no-progress           never show it\n"
          "\n",
          f);
    usage_runtime(f);
    fputs("\n"
          "examples:\n"
          "  onnx-scatter test /usr/share/libonnx-testdata/data/node -f 'test_scatter*'\n"
          "  onnx-scatter test /usr/share/libonnx-testdata/data/node -j 2 \\\n"
          "      --known-fail tests/cli/known-fail-debian-1.12.txt\n",
          f);
}

void usage_info(FILE *f) {
    fputs("usage: onnx-scatter info MODEL [--json] [--dim NAME=SIZE]... [limits]\n"
          "       onnx-scatter info --ops [--json]\n"
          "\n"
          "Shows the IR version, opsets, inputs and outputs (dtypes, shapes, symbolic dims\n"
          "by name), each node with the kernel version it resolved to and its attributes,\n"
          "what load did to it (folded at load: computed once from constants, its outputs\n"
          "shown as the constants they became; fused: the nodes a fused node replaced),\n"
          "the arena size and the model's warnings. A node the model leaves unnamed is\n"
          "#INDEX OP, as in every message. Under a node with subgraphs (If's branches,\n"
          "Loop's and Scan's bodies), each is named by its attribute with its graph name,\n"
          "node count and inputs (its own, then the names it reads from the graphs around\n"
          "it), its nodes listed the same way, indented one level further.\n"
          "\n"
          "  --dim NAME=SIZE         pin the symbolic dim NAME to SIZE, as run and bench\n"
          "                          do: shows the model as it loads for that size\n"
          "                          (folded and fused nodes, arena)\n"
          "  --ops                   list the operator versions this build implements (the\n"
          "                          kernel registry): op, the opsets each kernel serves,\n"
          "                          inputs and outputs; with --json one object:\n"
          "                          opset_newest, ops [{domain, op_type, since_version,\n"
          "                          until_version, min_inputs, max_inputs (null: any\n"
          "                          number), min_outputs, max_outputs (null: any\n"
          "                          number), deprecated}]\n"
          "  --json                  print one JSON object: model, ir_version, opsets\n"
          "                          [{domain, version}], inputs and outputs [{name, dtype,\n"
          "                          shape (symbolic dims by name, unknown ones null),\n"
          "                          has_default}], nodes [{index, name, op_type, domain,\n"
          "                          opset, kernel_version, inputs, outputs, folded,\n"
          "                          attributes {name: value; a tensor as {dtype, shape}},\n"
          "                          fused, subgraphs [{attribute, name, node_count,\n"
          "                          own_inputs, outer_inputs (names), nodes [...]}]}],\n"
          "                          arena_bytes, warnings\n"
          "\n",
          f);
    usage_runtime(f);
    fputs("\n"
          "example:\n"
          "  onnx-scatter info test_scatternd/model.onnx\n"
          "  onnx-scatter info --ops\n",
          f);
}

void (*cli_usage_of(const char *cmd))(FILE *) {
    if (!strcmp(cmd, "run")) return usage_run;
    if (!strcmp(cmd, "bench")) return usage_bench;
    if (!strcmp(cmd, "test")) return usage_test;
    if (!strcmp(cmd, "info")) return usage_info;
    return NULL;
}

int cli_is_help(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

int cli_help_asked(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) return 1;
    return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "onnx-scatter%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    cli_text_put(stderr, text); /* arguments and names may hold anything: one line, always */
    fprintf(stderr, " (see 'onnx-scatter%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
    return CLI_USAGE;
}

/* The library names a limit by its osc_options field ("opts.max_rank"); the command line
 * adds the flag that sets it ("--max-rank"). */
static void limit_hint(FILE *f, const char *text) {
    const char *p = strstr(text, "opts.max_");
    if (!p) return;
    fputs(" [command line: --", f);
    for (p += 5; (*p >= 'a' && *p <= 'z') || *p == '_'; p++) fputc(*p == '_' ? '-' : *p, f);
    fputc(']', f);
}

int cli_error(const char *fmt, ...) {
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* the message embeds names from the model, paths and library messages: escaped, so it
     * stays one line and cannot drive the terminal */
    fputs("onnx-scatter: ", stderr);
    cli_text_put(stderr, text);
    limit_hint(stderr, text);
    fputc('\n', stderr);
    return CLI_FAIL;
}
