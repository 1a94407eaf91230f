/* cli.h: declarations shared by the onnx-scatter command line files (public header only). */
#ifndef OSC_CLI_H
#define OSC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "onnx_scatter.h"

/* Exit codes of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* A list of malloc'ed strings. */
typedef struct cli_strlist {
    char **items;
    size_t count, cap;
} cli_strlist;

/* Subcommands: argv[0] is the subcommand name. Each returns an exit code. */
int cmd_run(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* Help texts (usage.c). cli_usage_of("run") is run's help printer; NULL for unknown names. */
void usage_main(FILE *f);
void usage_run(FILE *f);
void usage_test(FILE *f);
void usage_info(FILE *f);
void usage_bench(FILE *f);
void (*cli_usage_of(const char *cmd))(FILE *);
/* True when arg is -h or --help. */
int cli_is_help(const char *arg);
/* True when any of argv[1..argc-1] is -h or --help: a subcommand's help wins wherever it stands
 * (run, bench and test check before parsing anything). */
int cli_help_asked(int argc, char **argv);
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

/* ---- Terminal-safe text (print.c): every model-, path- or input-derived string printed to a
 * text stream (not --json, which has its own escaping) goes through these. Control bytes
 * become \n, \r, \t or \xNN, invalid UTF-8 bytes \xNN, C1 and bidi controls \uNNNN; the rest is
 * kept. Idempotent (backslashes are kept), so escaping twice is harmless. ---- */
/* Escapes s[0..n) into out (always terminated; cut with "..." at a character boundary when
 * size is too small). Returns the length written. */
size_t cli_text_escape(const char *s, size_t n, char *out, size_t size);
/* cli_text_escape of a C string (NULL: "(null)") into buf; returns buf, for printf arguments. */
const char *cli_esc(const char *s, char *buf, size_t size);
/* What a fused node replaced, escaped: "Gather '/g', Mul '/m', ScatterElements '/s'" (an
 * unnamed node by its op alone; "" for a node the fusion pass did not make). */
const char *cli_fused_str(const osc_node_desc *d, char *buf, size_t size);
/* Writes s escaped to f, whatever its length. */
void cli_text_put(FILE *f, const char *s);

/* ---- Arguments (args.c). ---- */
/* Value of an option given as "--opt VALUE", "SHORT VALUE" or "--opt=VALUE" (shrt may be
 * NULL); "" when the value is missing; NULL when argv[*i] is not this option. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt);
/* Whole-string integer in [lo, hi] / double >= 0; nonzero when s is not one. */
int cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out);
int cli_parse_double(const char *s, double *out);
/* Splits "NAME=VALUE" (both non-empty): *name malloc'ed, *value points into arg. Nonzero when
 * arg has no such form (then *name is NULL). */
int cli_split_assign(const char *arg, char **name, const char **value);

/* ---- Runtime options (runtime_opts.c). ---- */
/* The runtime options of every subcommand (--threads N, --max-bytes N|none,
 * --max-arena-bytes N|none, --max-nodes N, --max-rank N, --max-string-mib N, the switches
 * --strict, --newer-opsets, --no-fusion, --fuse-recompute) set the matching osc_options field;
 * --set KEY=VALUE (repeatable) sets one by name with osc_options_set, except profile and
 * inplace_inputs, which the commands own.
 * Returns -1 when argv[*i] is none of them, else CLI_OK or CLI_USAGE (message printed). */
int cli_runtime_option(int argc, char **argv, int *i, osc_options *opts, const char *cmd);
void usage_runtime(FILE *f);
/* The byte limit the library applies with these options (opts.max_bytes, its default when 0);
 * 0 for none. The CLI holds what it reads and makes to the same limit: each input file, and
 * all the inputs of one run together. */
uint64_t cli_byte_limit(const osc_options *opts);
/* The model's load warnings (deprecated ops, a stale declared output shape, a newer opset or IR
 * version), each on one stderr line "onnx-scatter: warning: [WHERE: ]MESSAGE" (where may be
 * NULL), in the order the library gives them. Commands call it once per model. */
void cli_print_warnings(const osc_model *m, const char *where);
/* ,"warnings":[...] (always, [] when there are none). */
void cli_json_warnings(FILE *f, const osc_model *m);

/* ---- Files (fileio.c). On failure they return nonzero and write a one-line message naming
 * the path and the reason into msg. ---- */
/* Reads a whole regular file (a FIFO, device or folder is refused without blocking or reading)
 * of at most max bytes (0: no limit; a larger file is refused before anything is allocated). */
int cli_read_file(const char *path, uint64_t max, void **buf, size_t *len, char *msg,
                  size_t msg_size);
/* Reads and decodes a TensorProto .pb file (cli_read_file's checks, at most max bytes) into *t
 * (free with osc_tensor_free_data). name, when not NULL, receives the tensor's name. Returns the
 * library status; OSC_ERR_IO for file errors, OSC_ERR_LIMIT for a file over max. */
/* dtype: OSC_SEQUENCE or OSC_OPTIONAL reads a SequenceProto or OptionalProto (any other: a
 * TensorProto). */
osc_status cli_load_tensor(const char *path, uint64_t max, int32_t dtype, osc_tensor *t,
                           char *name, size_t name_size, char *msg, size_t msg_size);
/* Files written into one folder all or none: each is written to a new temporary file in the
 * folder (O_CREAT | O_EXCL | O_NOFOLLOW: nothing planted there is written through), and only
 * commit renames them to their names (a symlink at a final name is replaced, not followed).
 * close removes the temporaries left. Each call returns 0, or nonzero with msg. */
typedef struct cli_outfile {
    char *name;    /* final file name in the folder */
    char tmp[64];  /* temporary name; "" once renamed or never created */
} cli_outfile;
/* A set of names, by hash (linear in the names added): the writers' file names. */
typedef struct cli_nameset {
    char **items;        /* in the order added (malloc'ed copies) */
    size_t count, cap;
    size_t *slot, slots; /* open addressing: 1 + index into items, 0 empty */
} cli_nameset;
int cli_nameset_has(const cli_nameset *s, const char *name);
int cli_nameset_add(cli_nameset *s, const char *name); /* nonzero when out of memory */
void cli_nameset_free(cli_nameset *s);
typedef struct cli_outset {
    const char *dir;
    int dirfd;
    cli_outfile *files;
    size_t count, cap;
    cli_nameset names; /* the files' names */
} cli_outset;
/* Creates the folder when missing and opens it. */
int cli_outset_open(cli_outset *o, const char *dir, char *msg, size_t msg_size);
/* Writes buf to a temporary file that commit renames to FILE (a name in the folder). FILE is
 * checked first (longer than the file system's NAME_MAX, already in the set, a folder there:
 * refused), so commit renames only names that can be renamed. */
int cli_outset_add(cli_outset *o, const char *file, const void *buf, size_t len, char *msg,
                   size_t msg_size);
int cli_outset_commit(cli_outset *o, char *msg, size_t msg_size);
void cli_outset_close(cli_outset *o);
/* filenames.c. The file stem (the name without .npy or .pb) of value NAME in a folder the -o,
 * --dump and --save-inputs writers fill: NAME with '/' as '_', then "~2", "~3"... until it is
 * a stem not in taken, which it is added to. Nonzero with msg when it does not fit size (or
 * no memory). */
int cli_file_stem(cli_nameset *taken, const char *name, char *stem, size_t size, char *msg,
                  size_t msg_size);
/* When cli_file_stem added ~N to NAME's stem: a note on stderr that WHAT ("output", "input")
 * NAME is written as FILE. */
void cli_note_renamed(const char *what, const char *name, const char *file);
int cli_is_dir(const char *path);
int cli_is_file(const char *path);
/* Joins a/b into a malloc'ed string; NULL when out of memory. */
char *cli_join(const char *a, const char *b);

/* ---- Node-test folders (discover.c). ---- */
/* Appends a malloc'ed copy of s; nonzero when out of memory. */
int cli_strlist_push(cli_strlist *l, const char *s);
void cli_strlist_free(cli_strlist *l);
/* Adds the node-test folders of PATH to l: PATH itself when it holds model.onnx, else each direct
 * subfolder holding model.onnx; else, with keep_empty, the folder PATH itself (its test then
 * reports the missing model). Returns 0, or nonzero with a message when PATH is neither. */
int cli_find_tests(const char *path, int keep_empty, cli_strlist *l, char *msg, size_t msg_size);
/* Keeps the folders whose last path component matches one of the globs (fnmatch). */
void cli_filter_tests(const cli_strlist *filters, cli_strlist *dirs);
/* Sorts test folders by their last path component, then by full path. */
void cli_sort_tests(cli_strlist *l);
/* Adds the test_data_set_N subfolders of dir to l in increasing N. */
int cli_find_data_sets(const char *dir, cli_strlist *l, char *msg, size_t msg_size);
/* The .pb files of one data set folder: PREFIX_K.pb for K = 0, 1, ... while they exist. */
typedef struct cli_pbset {
    osc_tensor *t;
    char (*names)[256]; /* TensorProto names */
    size_t count;
} cli_pbset;
/* Loads dir/prefix_K.pb for every K present (regular files; each, and their tensors together,
 * at most max bytes: cli_byte_limit, 0 for none). 0, or 1 with the reason in msg. */
/* Reads PREFIX_K.pb; file K holds a sequence or optional where m's input K (prefix "input") or
 * output K (any other) is declared one (m NULL: tensors only). */
int cli_pbset_load(const char *dir, const char *prefix, const osc_model *m, uint64_t max,
                   cli_pbset *p, char *msg, size_t msg_size);
void cli_pbset_free(cli_pbset *p);
/* Binds input_K.pb to the graph input of its name, else to graph input K; every input
 * without a default must be bound. 0, or 1 with the reason in msg. */
/* ONNX <= 1.12 node-test data stores bfloat16 tensors as uint16 (same bits): where the model
 * wants bfloat16 (`want`), a uint16 tensor (a caller's copy of the view) is read as bfloat16. */
void cli_bf16_quirk(osc_tensor *t, int32_t want);
int cli_pbset_bind(const osc_model *m, osc_session *s, const cli_pbset *in, char *msg,
                   size_t msg_size);
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
/* Value of the bits of a float16/bfloat16/float8/float4 element. */
double cli_decode_float(int32_t dtype, uint64_t bits);
/* Formats element i readably (shortest round-trip floats, quoted strings) into buf. */
void cli_elem_format(const osc_tensor *t, int64_t i, char *buf, size_t size);
/* Fewest significant digits that read back as v (as a float when as_float, else as a double),
 * written plainly ("10", "0.1") unless the exponent is below -4 or above 15 ("3e-07"). */
void cli_format_real(double v, int as_float, char *buf, size_t size);

/* ---- Writing elements (encode.c). ---- */
/* Bits of the element of a float dtype nearest to v (ties to even; float8/float4 saturate to
 * their largest finite value; NaN to a NaN code where the format has one). */
uint64_t cli_encode_float(int32_t dtype, double v);
/* Element i of t: raw bits (integers, bool, packed types), a real or a complex value. */
void cli_elem_set_bits(osc_tensor *t, int64_t i, uint64_t bits);
void cli_elem_set_float(osc_tensor *t, int64_t i, double v);
void cli_elem_set_complex(osc_tensor *t, int64_t i, double re, double im);
/* Makes *t a zeroed tensor of dtype and shape in one malloc'ed block (free(t->data)) with
 * `extra` more bytes after the nbytes of elements (string bytes go there). Nonzero with a
 * message when too large or out of memory. */
int cli_tensor_alloc(osc_tensor *t, int32_t dtype, int32_t rank, const int64_t *dims,
                     size_t extra, char *msg, size_t msg_size);

/* ---- numpy .npy files (npy.c). ---- */
/* True when the bytes start with the .npy magic. */
int cli_is_npy(const void *buf, size_t len);
/* Decodes a .npy file (format 1.0/2.0/3.0; any byte order; C or Fortran order; bool, int,
 * uint, float16/32/64, complex64/128, 'U' and 'S' strings) into *t, C order, little-endian
 * (free(t->data)). Nonzero with a one-line message on malformed or unsupported files, and
 * (before allocating) for a shape whose tensor would hold more than max_bytes (0: no limit). */
int cli_npy_decode_max(const void *buf, size_t len, uint64_t max_bytes, osc_tensor *t, char *msg,
                       size_t msg_size);
/* cli_npy_decode_max without a byte limit. */
int cli_npy_decode(const void *buf, size_t len, osc_tensor *t, char *msg, size_t msg_size);
/* True when .npy can hold dtype at all (strings still need valid UTF-8). */
int cli_npy_supports(int32_t dtype);
/* 1 when cli_npy_encode can write t; 0 with the reason in msg (as cli_npy_encode gives it). */
int cli_npy_holds(const osc_tensor *t, char *msg, size_t msg_size);
/* Encodes *t exactly as np.save does (format 1.0, 2.0 for huge headers) into a malloc'ed
 * buffer. 0 on success; 1 when numpy cannot hold this tensor (reason in msg: bfloat16,
 * float8, 4-bit, strings that are not UTF-8); -1 when out of memory. */
int cli_npy_encode(const osc_tensor *t, void **buf, size_t *len, char *msg, size_t msg_size);

/* ---- Inline literals (literal.c). ---- */
/* ONNX dtype name ("float", "int64") or a numpy alias ("float32", "f8", "str"); 0 if unknown. */
int32_t cli_dtype_from_name(const char *name);
/* True when text reads as a literal: starts with '[', or is one scalar with optional :DTYPE. */
int cli_looks_like_literal(const char *text);
/* Parses a literal into *t (free(t->data)). The dtype: the ':DTYPE' suffix, else model_dtype,
 * else from the values (int64, float, bool, complex64 or string). Nonzero with a message. */
int cli_literal_parse(const char *text, int32_t model_dtype, osc_tensor *t, char *msg,
                      size_t msg_size);

/* ---- numpy element formats (numfmt.c). ---- */
typedef struct cli_ffmt { /* numpy's FloatingFormat: fitted to values, then applied */
    int32_t dtype;        /* precision of the digits: float, double, float16, ... */
    int plus;             /* sign always shown (imaginary parts) */
    int n_finite, has_nan, has_inf, has_neginf;
    double max_abs, min_abs;
    int fix_int, fix_frac, sci_int, sci_frac, sci_exp; /* widest parts seen */
    int exp_mode, pad_left, pad_right, precision, exp_size;
} cli_ffmt;
typedef struct cli_nfmt {
    int32_t dtype;
    cli_kind kind;
    cli_ffmt re, im;
    int width; /* integers */
} cli_nfmt;
/* begin, add every element shown, end; then format each element to the common width. */
void cli_nfmt_begin(cli_nfmt *f, int32_t dtype);
void cli_nfmt_add(cli_nfmt *f, const osc_tensor *t, int64_t i);
void cli_nfmt_end(cli_nfmt *f);
void cli_nfmt_format(const cli_nfmt *f, const osc_tensor *t, int64_t i, char *buf, size_t size);
/* Element i as numpy prints a 0-d array ("1.5", "1e+20", "True", "(1+2j)", raw string). */
void cli_format_scalar(const osc_tensor *t, int64_t i, char *buf, size_t size);

/* ---- Printing (print.c). ---- */
/* "[2, 3]" or "[N, 3]" (symbolic dims by name, unknown as ?) or "?" for unknown rank. */
void cli_format_shape(int32_t rank, const int64_t *dims, const char *const *dim_names, char *buf,
                      size_t size);
/* How the CLI names node i of a model: its name (escaped), or "#INDEX OP" when the model
 * leaves it unnamed, the library's spelling ("node #12 ScatterND (ScatterND-11): ..."). */
const char *cli_node_label(const osc_node_desc *d, size_t i, char *buf, size_t size);
/* The values as numpy's print(array) shows them, in a malloc'ed string (no final newline);
 * tensors with more than max_elems elements show 3 items at each end of each long dim around
 * "...". Nonzero when out of memory. */
int cli_format_tensor(const osc_tensor *t, int64_t max_elems, char **text);
/* "NAME: DTYPE [SHAPE]", newline, then cli_format_tensor's text and a newline. */
void cli_print_tensor(FILE *f, const char *name, const osc_tensor *t, int64_t max_elems);

/* ---- JSON (json.c): valid JSON always; non-finite floats as "nan", "inf", "-inf". ---- */
void cli_json_str(FILE *f, const char *s);              /* NULL: null */
void cli_json_bytes(FILE *f, const char *s, size_t n);  /* non-UTF-8 bytes as \u00XX */
void cli_json_number(FILE *f, double v);
/* [2,3]; symbolic dims by name ("N"), unknown ones null; null for an unknown rank. */
void cli_json_shape(FILE *f, int32_t rank, const int64_t *dims, const char *const *dim_names);
/* ,"fused":[{"op":...,"name":...},...] for a node the fusion pass made; nothing otherwise. */
void cli_json_fused(FILE *f, const osc_node_desc *d);
/* One element: number, true/false, string, or [re,im] for complex. */
void cli_json_elem(FILE *f, const osc_tensor *t, int64_t i);
/* The values as nested lists, as numpy's tolist() gives them. */
void cli_json_data(FILE *f, const osc_tensor *t);
/* {"name":..,"dtype":..,"shape":[..],"data":[..]} */
void cli_json_tensor(FILE *f, const char *name, const osc_tensor *t);

/* ---- Comparison (compare.c). ---- */
typedef struct cli_tol {
    double rtol, atol; /* float kinds match when |a - b| <= atol + rtol * |b| (b expected) */
} cli_tol;
extern const cli_tol cli_default_tol; /* the node tests': rtol 1e-3, atol 1e-7 */
/* onnxruntime's onnx_test_runner: per-sample tolerance 1e-3 and relative 1e-3 */
extern const cli_tol cli_ort_tol;
/* 0 when act matches exp (dtype, shape, values under tol; NaN equals NaN; non-float kinds
 * exactly); otherwise 1 and the first mismatch ("output 'NAME' ...: expected X, got Y (N of M
 * elements differ; max abs error A, max rel error R; atol, rtol)"), the errors over the
 * mismatched elements with a numeric distance. */
int cli_compare(const char *name, const osc_tensor *exp, const osc_tensor *act, const cli_tol *tol,
                char *msg, size_t msg_size);
/* Raises *err to the largest |act - exp| over the elements (complex: modulus; bool: 0/1).
 * 1 with msg when dtype or shape differ or an element has no numeric difference (NaN against
 * a number, different strings). */
int cli_max_abs_err(const char *name, const osc_tensor *exp, const osc_tensor *act, double *err,
                    char *msg, size_t msg_size);

/* ---- Shapes of graph values (shapes.c). ---- */
typedef struct cli_vshape {
    const char *name; /* owned by the model */
    int32_t rank;
    int64_t dims[OSC_MAX_RANK];
} cli_vshape;
typedef struct cli_shapes {
    cli_vshape *v;
    size_t n, cap;
    size_t *slot, slots; /* open addressing by name: 1 + index into v, 0 empty; slots >= 2 cap */
} cli_shapes;
/* A hash of string s (FNV-1a), for the CLI's tables by name. */
size_t cli_str_hash(const char *s);
/* True for the default ONNX domain ("" or "ai.onnx"), whose op names the CLI knows. */
int cli_onnx_domain(const char *domain);
const cli_vshape *cli_shapes_get(const cli_shapes *s, const char *name); /* NULL: unknown */
int cli_shapes_set(cli_shapes *s, const char *name, int32_t rank, const int64_t *dims);
void cli_shapes_free(cli_shapes *s);
/* From the shapes already set (the bound inputs), adds the static shapes of inputs keeping
 * their defaults, then each node's output in node order, then static graph outputs.
 * Nonzero when out of memory. */
int cli_shapes_propagate(cli_shapes *s, const osc_model *m);
/* "[2, 3] [1, 2] [1, 2] -> [2, 3]" for node i ("?" where unknown, "-" for omitted inputs). */
void cli_shapes_node(const cli_shapes *s, const osc_model *m, size_t node, char *buf, size_t size);

/* ---- Random inputs (random.c, ranges.c). ---- */
typedef struct cli_irange { /* the values --random may draw for an integer input */
    int set;      /* some node constrains this input */
    int k;        /* 0: each element in [lo[0], hi[0]]; else tuples of k (the last dim) */
    int64_t lo[OSC_MAX_RANK], hi[OSC_MAX_RANK];
    int distinct; /* ScatterND with reduction none: no repeated tuple when there is room */
    int none;     /* a reader no random value satisfies: why says which and why */
    char why[700];
    char lo_by[700], hi_by[700]; /* the readers that set the lowest and highest bounds */
} cli_irange;
/* Fills ranges[i] (osc_model_input order) for the integer inputs: each is followed through the
 * ops that pass values on (Unsqueeze, Reshape, Cast, Concat, Identity, Expand, ...) to the nodes
 * that read it as indices, positions or shapes (ranges.c says which and what they accept), and
 * gets the intersection. Shapes from sh (the bound inputs, cli_shapes_propagate), else from
 * osc_model_value. The model should be loaded with opts.no_fusion (fused nodes are not read).
 * Nonzero when out of memory. */
int cli_index_ranges(const osc_model *m, const cli_shapes *sh, cli_irange *ranges);
/* Bytes cli_random_fill needs after the elements (strings). */
size_t cli_random_extra(int32_t dtype, int64_t count);
/* Fills the allocated tensor t (graph input number `input`) from seed: integers within r when
 * r->set (clamped to the dtype); else floats in [-1, 1), integers in [-100, 100] ([0, 100]
 * unsigned), bools, short lowercase strings. Nonzero with msg when no value is valid (r->none,
 * or an empty range: msg names the readers). */
int cli_random_fill(osc_tensor *t, const cli_irange *r, uint64_t seed, size_t input, char *msg,
                    size_t msg_size);

/* ---- Inputs of run and bench (inputs.c). ---- */
typedef struct cli_input_opts {
    cli_strlist pos;           /* positional FILE or LITERAL, in osc_model_input order */
    cli_strlist names, values; /* --input NAME=VALUE */
    cli_strlist dims;          /* --dim NAME=SIZE, as given */
    /* the same as the library's pins (the command sets opts.dim_pins to them before loading,
     * so a pinned model folds, plans and fuses as a static one) */
    osc_dim_pin *pins;
    size_t n_pins;
    int random;                /* --random [SEED] */
    uint64_t seed;
    const char *save_dir;      /* --save-inputs DIR */
    /* set by the command before cli_inputs_load: the model's file and load options (--random
     * reads the graph as written, without fusion, from a second load) */
    const char *model_path;
    osc_options model_opts;
} cli_input_opts;
/* Parses argv[*i] when it is --input/-i, --dim or --random (advancing *i over its value):
 * returns CLI_OK or an exit code after printing the error; -1 when it is none of them. */
int cli_input_option(int argc, char **argv, int *i, cli_input_opts *o, const char *cmd);
void cli_input_opts_free(cli_input_opts *o);
/* Loads model `path` with opts and o's --dim pins into *m; opts->dim_pins then points to those
 * kept in keep (room for o->n_pins, the caller's while opts is used). A pin naming no symbolic
 * dim of the model is left out with a warning on stderr (a script may loop over models with
 * one --dim); a pin given twice is the usage error of --dim (2); any other failure "cannot
 * load" (1). */
int cli_load_pinned(const char *path, osc_options *opts, const cli_input_opts *o,
                    osc_dim_pin *keep, const char *cmd, osc_model **m);

enum { CLI_SRC_FILE = 1, CLI_SRC_LITERAL, CLI_SRC_RANDOM };
typedef struct cli_input {
    osc_tensor t;
    int bound;         /* t is set: the session gets it */
    int lib_owned;     /* t.data came from osc_tensor_decode_pb */
    int kind;          /* CLI_SRC_* */
    const char *value; /* the file path or literal text (argv) */
} cli_input;
typedef struct cli_inputs {
    size_t n; /* osc_model_input_count */
    cli_input *in;
    int random;
    uint64_t seed;
} cli_inputs;
/* Loads, checks and (with --random) generates the inputs; see inputs.c for exit codes. Every
 * input file is at most max_bytes (cli_byte_limit; 0: none), and so are all the inputs
 * together, --random ones measured before they are allocated. */
int cli_inputs_load(const osc_model *m, const cli_input_opts *o, uint64_t max_bytes,
                    const char *cmd, cli_inputs *in);
/* Binds every loaded input to s; CLI_FAIL after printing the library's message. */
int cli_inputs_bind(const osc_model *m, osc_session *s, const cli_inputs *in);
/* Sets the shapes of the loaded inputs in sh; nonzero when out of memory. */
int cli_inputs_shapes(const osc_model *m, const cli_inputs *in, cli_shapes *sh);
/* "from 'x.npy'", "literal [1,2]" or "--random", for messages. */
const char *cli_input_source(const cli_input *in, char *buf, size_t size);
/* [{"name","dtype","shape","source"}] of the loaded inputs (source: path, literal, random). */
void cli_inputs_json(FILE *f, const osc_model *m, const cli_inputs *in);
void cli_inputs_free(cli_inputs *in);

#endif
