/* cli.h: declarations shared by the onnx-scatter command line files (public header only). */
#ifndef OSC_CLI_H
#define OSC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "onnx_scatter.h"

/* Exit codes of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Subcommands: argv[0] is the subcommand name. Each returns an exit code. */
int cmd_run(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_info(int argc, char **argv);

/* Help texts (usage.c). */
void usage_main(FILE *f);
void usage_run(FILE *f);
void usage_test(FILE *f);
void usage_info(FILE *f);
/* True when arg is -h or --help. */
int cli_is_help(const char *arg);
/* Prints "onnx-scatter[ CMD]: MESSAGE" plus a hint to stderr as one line; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints "onnx-scatter: MESSAGE" to stderr as one line; returns CLI_FAIL. */
int cli_error(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- Files (fileio.c), plain stdio. On failure they return nonzero and write a one-line
 * message naming the path and the reason into msg. ---- */
int cli_read_file(const char *path, void **buf, size_t *len, char *msg, size_t msg_size);
int cli_write_file(const char *path, const void *buf, size_t len, char *msg, size_t msg_size);
/* Reads and decodes a TensorProto .pb file into *t (free with osc_tensor_free_data). name, when
 * not NULL, receives the tensor's name. Returns the library status, OSC_ERR_IO for file errors. */
osc_status cli_load_tensor(const char *path, osc_tensor *t, char *name, size_t name_size, char *msg,
                           size_t msg_size);
/* Encodes *t as a TensorProto named `name` and writes it to path. */
osc_status cli_save_tensor(const char *path, const osc_tensor *t, const char *name, char *msg,
                           size_t msg_size);
int cli_is_dir(const char *path);
int cli_is_file(const char *path);
/* Joins a/b into a malloc'ed string; NULL when out of memory. */
char *cli_join(const char *a, const char *b);

/* ---- Node-test folders (discover.c). ---- */
typedef struct cli_strlist {
    char **items;
    size_t count, cap;
} cli_strlist;
/* Appends a malloc'ed copy of s; nonzero when out of memory. */
int cli_strlist_push(cli_strlist *l, const char *s);
void cli_strlist_free(cli_strlist *l);
/* Adds the node-test folders of PATH to l: PATH itself when it holds model.onnx, else each direct
 * subfolder holding model.onnx. Returns 0, or nonzero with a message when PATH is neither. */
int cli_find_tests(const char *path, cli_strlist *l, char *msg, size_t msg_size);
/* Sorts test folders by their last path component, then by full path. */
void cli_sort_tests(cli_strlist *l);
/* Adds the test_data_set_N subfolders of dir to l in increasing N. */
int cli_find_data_sets(const char *dir, cli_strlist *l, char *msg, size_t msg_size);
/* Last path component (without trailing slashes) copied into buf. */
const char *cli_basename(const char *path, char *buf, size_t size);

/* ---- Elements (elem.c): reading one element of any dtype. ---- */
/* Kind of comparison/printing a dtype gets. */
typedef enum cli_kind {
    CLI_KIND_FLOAT,   /* float, double, float16, bfloat16, float8*, float4: value as double */
    CLI_KIND_COMPLEX, /* complex64/128: two doubles */
    CLI_KIND_SIGNED,  /* int2..int64 */
    CLI_KIND_UNSIGNED,/* uint2..uint64 */
    CLI_KIND_BOOL,
    CLI_KIND_STRING,
    CLI_KIND_OTHER    /* unknown dtype */
} cli_kind;
cli_kind cli_dtype_kind(int32_t dtype);
/* Tolerant float comparison applies (float, double, float16, bfloat16; complex per component). */
int cli_dtype_tolerant(int32_t dtype);
/* Element i of t. The caller checks i < count and the kind. */
double cli_elem_float(const osc_tensor *t, int64_t i);
void cli_elem_complex(const osc_tensor *t, int64_t i, double *re, double *im);
int64_t cli_elem_signed(const osc_tensor *t, int64_t i);
uint64_t cli_elem_unsigned(const osc_tensor *t, int64_t i);
/* Raw bits of element i for exact comparison of non-tolerant float kinds (bits <= 64). */
uint64_t cli_elem_bits(const osc_tensor *t, int64_t i);
/* Formats element i readably (shortest round-trip floats, quoted strings) into buf. */
void cli_elem_format(const osc_tensor *t, int64_t i, char *buf, size_t size);

/* ---- Printing (print.c). ---- */
/* "[2, 3]" or "[N, 3]" (symbolic dims by name, unknown as ?) or "?" for unknown rank. */
void cli_format_shape(int32_t rank, const int64_t *dims, const char *const *dim_names, char *buf,
                      size_t size);
/* "NAME: DTYPE [SHAPE]" then the values numpy-style; tensors with more than max_elems elements
 * show the first and last few items of each dim around "...". */
void cli_print_tensor(FILE *f, const char *name, const osc_tensor *t, int64_t max_elems);

/* ---- Comparison (compare.c). ---- */
/* 0 when act matches exp (dtype, shape, values under the node-test tolerance); otherwise 1 and
 * the first mismatch ("output 'NAME' ...: expected X, got Y") in msg. */
int cli_compare(const char *name, const osc_tensor *exp, const osc_tensor *act, char *msg,
                size_t msg_size);

#endif
