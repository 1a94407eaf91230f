/* usage.c: help texts and the one-line error reporters of the command line. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

void usage_main(FILE *f) {
    fputs("usage: onnx-scatter COMMAND [ARGS]\n"
          "\n"
          "Runs ONNX models built from scatter/gather-family ops.\n"
          "\n"
          "commands:\n"
          "  run MODEL [FILE.pb...] [--input NAME=FILE.pb]... [--output-dir DIR]\n"
          "                 run a model once and print its outputs\n"
          "  test PATH...   run ONNX node-test folders and check every output\n"
          "  info MODEL     show a model's inputs, outputs, nodes and kernels\n"
          "\n"
          "options:\n"
          "  -h, --help     show this help (also: onnx-scatter COMMAND --help)\n"
          "  --version      show the version\n"
          "\n"
          "exit status: 0 success, 1 model or runtime error or failed test, 2 usage error\n"
          "\n"
          "example:\n"
          "  onnx-scatter test onnx-node-tests/test_scatternd\n",
          f);
}

void usage_run(FILE *f) {
    fputs("usage: onnx-scatter run MODEL [FILE.pb...] [--input NAME=FILE.pb]... [--output-dir DIR]\n"
          "\n"
          "Runs MODEL once and prints each output (name, dtype, shape, values).\n"
          "\n"
          "  FILE.pb                 a TensorProto bound to the next graph input, in order\n"
          "                          (inputs without a default first)\n"
          "  -i, --input NAME=FILE.pb  bind FILE.pb to the graph input NAME\n"
          "  -o, --output-dir DIR    also write each output as DIR/NAME.pb (DIR is created)\n"
          "  --full                  print every value (default: long tensors are summarised)\n"
          "\n"
          "Every input without a default must be given.\n"
          "\n"
          "examples:\n"
          "  onnx-scatter run model.onnx --input data=data.pb --input indices=idx.pb \\\n"
          "      --input updates=upd.pb\n"
          "  onnx-scatter run model.onnx input_0.pb input_1.pb input_2.pb --output-dir out\n",
          f);
}

void usage_test(FILE *f) {
    fputs("usage: onnx-scatter test PATH...\n"
          "\n"
          "Each PATH is an ONNX node-test folder (model.onnx + test_data_set_N/) or a folder of\n"
          "them. Runs every data set, checks every output's dtype, shape and values (floats:\n"
          "|a-b| <= 1e-7 + 1e-3*|b|) and prints one line per test, sorted by name:\n"
          "  PASS NAME | FAIL NAME: first mismatch or error | SKIP NAME: unsupported op\n"
          "then 'N passed, N failed, N skipped'. Exit status 1 when a test failed.\n"
          "\n"
          "example:\n"
          "  onnx-scatter test /usr/share/libonnx-testdata/data/node\n",
          f);
}

void usage_info(FILE *f) {
    fputs("usage: onnx-scatter info MODEL\n"
          "\n"
          "Shows the IR version, opsets, inputs and outputs (dtypes, shapes, symbolic dims by\n"
          "name), each node with the kernel version it resolved to, the arena size and the\n"
          "model's warnings.\n"
          "\n"
          "example:\n"
          "  onnx-scatter info test_scatternd/model.onnx\n",
          f);
}

int cli_is_help(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "onnx-scatter%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'onnx-scatter%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
    return CLI_USAGE;
}

int cli_error(const char *fmt, ...) {
    va_list ap;
    fputs("onnx-scatter: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}
