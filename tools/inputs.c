/* inputs.c: the input options of run and bench: .pb/.npy files, literals, --random, --dim. */
/* Contract: cli_inputs_load returns CLI_OK with every required input bound, CLI_USAGE (2) for
 * a wrong command line (unknown input, input given twice, bad literal, missing input, bad
 * --dim) or CLI_FAIL (1) for a file that cannot be read or a tensor that does not match the
 * model; it prints the one-line message itself. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_input_opts_free(cli_input_opts *o) {
    cli_strlist_free(&o->pos);
    cli_strlist_free(&o->names);
    cli_strlist_free(&o->values);
    cli_strlist_free(&o->dims);
    for (size_t k = 0; k < o->n_pins; k++) free((char *)o->pins[k].name);
    free(o->pins);
    o->pins = NULL;
    o->n_pins = 0;
}

int cli_load_pinned(const char *path, osc_options *opts, const cli_input_opts *o,
                    osc_dim_pin *keep, const char *cmd, osc_model **m) {
    char msg[1024];
    size_t n = o->n_pins;
    if (n) memcpy(keep, o->pins, n * sizeof *keep);
    for (;;) {
        opts->dim_pins = n ? keep : NULL;
        opts->n_dim_pins = n;
        osc_status st = osc_model_load_file(path, opts, m, msg, sizeof msg);
        if (st == OSC_OK) return CLI_OK;
        const char *at = n ? strstr(msg, "opts.dim_pins[") : NULL;
        const size_t k = at ? strtoul(at + 14, NULL, 10) : n;
        if (k >= n) return cli_error("cannot load '%s' (%s): %s", path, osc_status_name(st), msg);
        if (strstr(at, "pinned already"))
            return cli_usage_error(cmd, "--dim %s given twice", keep[k].name);
        const char *list = strchr(at, '(');
        fprintf(stderr, "onnx-scatter: warning: --dim %s=%lld: no input of '%s' has a dim named "
                "'%s' %s; ignored\n", keep[k].name, (long long)keep[k].size, path, keep[k].name,
                list ? list : "");
        memmove(keep + k, keep + k + 1, (n - k - 1) * sizeof *keep);
        n--;
    }
}

/* Appends --dim NAME=SIZE's pin. */
static int push_pin(cli_input_opts *o, const char *name, int64_t size) {
    osc_dim_pin *p = realloc(o->pins, (o->n_pins + 1) * sizeof *p);
    if (!p) return -1;
    o->pins = p;
    char *copy = strdup(name);
    if (!copy) return -1;
    o->pins[o->n_pins++] = (osc_dim_pin){copy, size};
    return 0;
}

int cli_input_option(int argc, char **argv, int *i, cli_input_opts *o, const char *cmd) {
    const char *v;
    if ((v = cli_opt_value(argc, argv, i, "--input", "-i")) != NULL) {
        char *name;
        const char *value;
        if (cli_split_assign(v, &name, &value))
            return cli_usage_error(cmd, "--input wants NAME=FILE or NAME=LITERAL, got '%s'", v);
        int bad = cli_strlist_push(&o->names, name) || cli_strlist_push(&o->values, value);
        free(name);
        return bad ? cli_error("out of memory") : CLI_OK;
    }
    if ((v = cli_opt_value(argc, argv, i, "--dim", NULL)) != NULL) {
        char *name;
        const char *value;
        int64_t n;
        if (cli_split_assign(v, &name, &value) || cli_parse_int(value, 0, INT64_MAX, &n)) {
            free(name);
            return cli_usage_error(cmd, "--dim wants NAME=SIZE with SIZE >= 0, got '%s'", v);
        }
        const int bad = cli_strlist_push(&o->dims, v) || push_pin(o, name, n);
        free(name);
        return bad ? cli_error("out of memory") : CLI_OK;
    }
    if ((v = cli_opt_value(argc, argv, i, "--save-inputs", NULL)) != NULL) {
        if (!v[0]) return cli_usage_error(cmd, "--save-inputs wants a folder");
        o->save_dir = v;
        return CLI_OK;
    }
    if (!strncmp(argv[*i], "--random", 8) && (argv[*i][8] == '\0' || argv[*i][8] == '=')) {
        const char *seed = argv[*i][8] == '=' ? argv[*i] + 9 : NULL;
        /* the optional SEED: the next argument when it is a plain number */
        if (!seed && *i + 1 < argc && argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9' &&
            strspn(argv[*i + 1], "0123456789") == strlen(argv[*i + 1]))
            seed = argv[++*i];
        int64_t s = 0;
        if (seed && cli_parse_int(seed, 0, INT64_MAX, &s))
            return cli_usage_error(cmd, "--random wants a SEED from 0 to 2^63-1, got '%s'", seed);
        o->random = 1, o->seed = (uint64_t)s;
        return CLI_OK;
    }
    return -1;
}

const char *cli_input_source(const cli_input *in, char *buf, size_t size) {
    if (in->kind == CLI_SRC_RANDOM) snprintf(buf, size, "--random");
    else if (in->kind == CLI_SRC_LITERAL) snprintf(buf, size, "literal %.200s", in->value);
    else snprintf(buf, size, "'%.250s'", in->value);
    return buf;
}

void cli_inputs_free(cli_inputs *in) {
    for (size_t i = 0; i < in->n; i++) {
        if (!in->in[i].t.data) continue;
        if (in->in[i].lib_owned) osc_tensor_free_data(&in->in[i].t);
        else free(in->in[i].t.data);
    }
    free(in->in);
    memset(in, 0, sizeof *in);
}

/* ---- symbolic dims: NAME -> size, with where the size came from ---- */

typedef struct sym {
    const char *name, *from; /* from: an input name, "--dim" or "--random" (its default) */
    int64_t value;
} sym;

typedef struct symtab {
    sym *s;
    size_t n;
} symtab;

static sym *sym_find(symtab *t, const char *name) {
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->s[i].name, name)) return &t->s[i];
    return NULL;
}

/* "float [N, 3]" for the model's declaration of input d. */
static void declared(const osc_value_desc *d, char *buf, size_t size) {
    char shape[512];
    cli_format_shape(d->rank, d->dims, d->dim_names, shape, sizeof shape);
    snprintf(buf, size, "%s %s", d->dtype ? osc_dtype_name(d->dtype) : "(any dtype)", shape);
}

/* Checks tensor t against input d; binds new symbolic dims. CLI_FAIL with a message naming
 * the input, what the model expects and what was given. */
static int check_input(const osc_value_desc *d, const osc_tensor *t, const char *source,
                       symtab *syms) {
    char want[600], got[600], note[300] = "";
    int bad = (d->dtype && t->dtype != d->dtype) || (d->rank >= 0 && t->rank != d->rank);
    for (int32_t k = 0; !bad && d->rank >= 0 && k < d->rank; k++) {
        if (d->dims[k] >= 0) bad = t->dims[k] != d->dims[k];
        else if (d->dim_names[k]) {
            sym *s = sym_find(syms, d->dim_names[k]);
            if (s && s->value != t->dims[k]) {
                bad = 1;
                snprintf(note, sizeof note, " (%s = %lld, from %s%s%s)", s->name,
                         (long long)s->value, s->from[0] != '-' ? "input '" : "",
                         s->from, s->from[0] != '-' ? "'" : "");
            } else if (!s) {
                syms->s[syms->n++] = (sym){d->dim_names[k], d->name, t->dims[k]};
            }
        }
    }
    if (!bad) return CLI_OK;
    char shape[512];
    declared(d, want, sizeof want);
    cli_format_shape(t->rank, t->dims, NULL, shape, sizeof shape);
    snprintf(got, sizeof got, "%s %s", osc_dtype_name(t->dtype), shape);
    return cli_error("input '%s': the model expects %s%s, got %s from %s", d->name, want, note, got,
                     source);
}

/* The byte limit of the inputs of one run (cli_byte_limit; 0: none) and what they hold. */
typedef struct budget {
    uint64_t max, used;
} budget;

/* Bytes a tensor holds: its elements, and for strings their bytes too. */
static uint64_t tensor_bytes(const osc_tensor *t) {
    uint64_t n = t->nbytes;
    if (t->dtype == OSC_STRING && t->data)
        for (size_t i = 0; i < t->nbytes / sizeof(osc_string); i++)
            n += ((const osc_string *)t->data)[i].len;
    return n;
}

/* Counts `bytes` more against the limit; CLI_FAIL with a message naming the input and what
 * it is when they do not fit. */
static int charge(budget *b, uint64_t bytes, const osc_value_desc *d, const char *what) {
    if (!b->max || (bytes <= b->max && b->used <= b->max - bytes)) {
        b->used += bytes;
        return CLI_OK;
    }
    if (b->used)
        return cli_error("input '%s': %s needs %llu bytes; with the %llu bytes of the inputs "
                         "before it, that is over the byte limit of %llu bytes (opts.max_bytes)",
                         d->name, what, (unsigned long long)bytes, (unsigned long long)b->used,
                         (unsigned long long)b->max);
    return cli_error("input '%s': %s needs %llu bytes, over the byte limit of %llu bytes "
                     "(opts.max_bytes)", d->name, what, (unsigned long long)bytes,
                     (unsigned long long)b->max);
}

/* Loads VALUE for input d: a literal, or a .npy or .pb file (told apart by their bytes). */
static int load_value(const osc_value_desc *d, const char *value, const char *cmd, budget *bud,
                      cli_input *in) {
    char msg[1024];
    in->value = value;
    if (cli_looks_like_literal(value) && !cli_is_file(value)) {
        in->kind = CLI_SRC_LITERAL;
        if (d->dtype == OSC_SEQUENCE || d->dtype == OSC_OPTIONAL)
            return cli_usage_error(cmd, "input '%s' is %s: give it as a %s .pb file, not a "
                                   "literal", d->name, d->dtype == OSC_SEQUENCE ? "a sequence"
                                   : "an optional", d->dtype == OSC_SEQUENCE ? "SequenceProto"
                                   : "OptionalProto");
        if (cli_literal_parse(value, d->dtype, &in->t, msg, sizeof msg))
            return cli_usage_error(cmd, "input '%s': %s", d->name, msg);
        in->bound = 1;
        return charge(bud, tensor_bytes(&in->t), d, "the literal");
    }
    void *buf;
    size_t len;
    in->kind = CLI_SRC_FILE;
    if (cli_read_file(value, bud->max, &buf, &len, msg, sizeof msg)) {
        const char *eq = strchr(value, '=');
        if (eq && eq > value) /* NAME=FILE given where a positional VALUE goes */
            return cli_error("input '%s': %s (to give an input by name, write -i %s)", d->name,
                             msg, value);
        return cli_error("input '%s': %s", d->name, msg);
    }
    int rc = CLI_OK;
    if (cli_is_npy(buf, len)) {
        if (cli_npy_decode_max(buf, len, bud->max, &in->t, msg, sizeof msg))
            rc = cli_error("input '%s': '%s': %s", d->name, value, msg);
    } else {
        osc_status st = osc_value_decode_pb(buf, len, d->dtype, &in->t, NULL, 0, msg, sizeof msg);
        if (st != OSC_OK)
            rc = cli_error("input '%s': '%s' is neither a .npy file nor a TensorProto .pb (%s)",
                           d->name, value, msg);
        else
            in->lib_owned = 1;
    }
    free(buf);
    in->bound = rc == CLI_OK;
    if (rc == CLI_OK) {
        char what[400];
        snprintf(what, sizeof what, "the tensor of '%.300s'", value);
        rc = charge(bud, tensor_bytes(&in->t), d, what);
    }
    return rc;
}

/* Which VALUE feeds each input (NULL when none): positional ones in order, then --input. */
static int assign(const osc_model *m, const cli_input_opts *o, const char *cmd, const char **vals) {
    size_t n = osc_model_input_count(m);
    osc_value_desc d;
    if (o->pos.count > n)
        return cli_usage_error(cmd, "%zu inputs given but the model has %zu", o->pos.count, n);
    for (size_t i = 0; i < o->pos.count; i++) vals[i] = o->pos.items[i];
    for (size_t k = 0; k < o->names.count; k++) {
        size_t i = 0;
        while (i < n && !(osc_model_input(m, i, &d) == OSC_OK && !strcmp(d.name, o->names.items[k])))
            i++;
        if (i == n) {
            char list[512] = "";
            for (size_t j = 0; j < n && osc_model_input(m, j, &d) == OSC_OK; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                         d.name);
            return cli_usage_error(cmd, "the model has no input '%s' (inputs: %s)",
                                   o->names.items[k], list);
        }
        if (vals[i]) return cli_usage_error(cmd, "input '%s' given twice", o->names.items[k]);
        vals[i] = o->values.items[k];
    }
    return CLI_OK;
}

/* Every --dim NAME must name a symbolic dim of some input; the sizes go into syms. */
static int take_dims(const osc_model *m, const cli_input_opts *o, const char *cmd, symtab *syms) {
    osc_value_desc d;
    for (size_t k = 0; k < o->dims.count; k++) {
        const char *arg = o->dims.items[k], *eq = strchr(arg, '=');
        const char *name = NULL;
        char names[512] = "";
        for (size_t i = 0; i < osc_model_input_count(m) && osc_model_input(m, i, &d) == OSC_OK; i++)
            for (int32_t j = 0; j < d.rank; j++) {
                if (!d.dim_names[j]) continue;
                if (strlen(d.dim_names[j]) == (size_t)(eq - arg) &&
                    !strncmp(d.dim_names[j], arg, (size_t)(eq - arg)))
                    name = d.dim_names[j];
                if (!strstr(names, d.dim_names[j]))
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                             names[0] ? ", " : "", d.dim_names[j]);
            }
        if (!name) continue; /* the load warned of it */
        if (sym_find(syms, name)) return cli_usage_error(cmd, "--dim %s given twice", name);
        syms->s[syms->n++] = (sym){name, "--dim", strtoll(eq + 1, NULL, 10)};
    }
    return CLI_OK;
}

/* Shape of a random input: static dims, and symbolic ones from --dim or other inputs. */
/* A symbolic dim neither --dim nor a given input sizes: this size, with a note naming it. */
#define RANDOM_DIM 3

static int random_shape(const osc_value_desc *d, symtab *syms, const char *cmd, int64_t *dims) {
    if (d->dtype == OSC_SEQUENCE || d->dtype == OSC_OPTIONAL)
        return cli_usage_error(cmd, "input '%s' is %s, which --random does not make: give it "
                               "with --input %s=FILE (a %s .pb)", d->name,
                               d->dtype == OSC_SEQUENCE ? "a sequence" : "an optional",
                               d->name, d->dtype == OSC_SEQUENCE ? "SequenceProto"
                                                                 : "OptionalProto");
    if (!d->dtype || d->rank < 0)
        return cli_usage_error(cmd, "input '%s' declares no %s, so --random cannot make it: give "
                               "it with --input %s=FILE", d->name, d->dtype ? "shape" : "dtype",
                               d->name);
    for (int32_t k = 0; k < d->rank; k++) {
        if (d->dims[k] >= 0) {
            dims[k] = d->dims[k];
            continue;
        }
        sym *s = d->dim_names[k] ? sym_find(syms, d->dim_names[k]) : NULL;
        if (!d->dim_names[k])
            return cli_usage_error(cmd, "input '%s' dim %d has no size nor name in the model: give "
                                   "the input with --input %s=FILE", d->name, (int)k, d->name);
        if (!s) { /* (syms has room for every dim of every input) */
            s = &syms->s[syms->n++];
            *s = (sym){d->dim_names[k], "--random", RANDOM_DIM};
            fprintf(stderr, "onnx-scatter: note: --random: the symbolic dim '%s' (input '%s') "
                    "is %d; --dim %s=SIZE sets it\n", d->dim_names[k], d->name, RANDOM_DIM,
                    d->dim_names[k]);
        }
        dims[k] = s->value;
    }
    return CLI_OK;
}

/* Makes every unbound input without a default from its declaration, then fills them, with
 * index inputs in range for the nodes reading them. */
static int make_random(const osc_model *m, const cli_input_opts *o, const char *cmd, symtab *syms,
                       budget *bud, cli_inputs *in) {
    size_t n = in->n;
    osc_value_desc d;
    char msg[512];
    int rc = CLI_OK;
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        int64_t dims[OSC_MAX_RANK];
        if (in->in[i].bound || osc_model_input(m, i, &d) != OSC_OK || d.has_default) continue;
        if ((rc = random_shape(&d, syms, cmd, dims)) != CLI_OK) break;
        osc_tensor shape = {.rank = d.rank};
        memcpy(shape.dims, dims, (size_t)d.rank * sizeof *dims);
        /* measured against the byte limit before anything is allocated */
        int64_t count = osc_tensor_count(&shape);
        uint64_t bits = osc_dtype_bits(d.dtype), bytes = UINT64_MAX; /* UINT64_MAX: overflow */
        if (count >= 0 && bits && (uint64_t)count <= (UINT64_MAX - 7) / bits) {
            bytes = ((uint64_t)count * bits + 7) / 8;
            uint64_t extra = d.dtype == OSC_STRING ? (uint64_t)count * 8 : 0; /* <= bytes / 2 */
            bytes += extra;
        }
        char what[700], sh[512];
        cli_format_shape(d.rank, dims, NULL, sh, sizeof sh);
        snprintf(what, sizeof what, "--random %s %s", osc_dtype_name(d.dtype), sh);
        if (count < 0 || bytes == UINT64_MAX)
            return cli_error("input '%s': %s has more elements or bytes than 64-bit sizes hold "
                             "(byte limit %llu bytes, opts.max_bytes)", d.name, what,
                             (unsigned long long)bud->max);
        if ((rc = charge(bud, bytes, &d, what)) != CLI_OK) break;
        size_t extra = cli_random_extra(d.dtype, count);
        if (cli_tensor_alloc(&in->in[i].t, d.dtype, d.rank, dims, extra, msg, sizeof msg))
            return cli_error("input '%s': %s", d.name, msg);
        in->in[i].bound = 1, in->in[i].kind = CLI_SRC_RANDOM;
    }
    if (rc != CLI_OK) return rc;
    /* The ranges come from the graph as written: fused nodes (domain "osc") hide the Gathers
     * and Expands the walk follows, so such a model is read again without fusion. */
    const osc_model *g = m;
    osc_model *plain = NULL;
    for (size_t i = 0; i < osc_model_node_count(m) && g == m && o->model_path; i++) {
        osc_node_desc nd;
        if (osc_model_node(m, i, &nd) != OSC_OK || cli_onnx_domain(nd.domain)) continue;
        osc_options po = o->model_opts;
        po.no_fusion = 1;
        po.profile = 0;
        if (osc_model_load_file(o->model_path, &po, &plain, msg, sizeof msg) == OSC_OK) g = plain;
    }
    cli_shapes sh = {0};
    cli_irange *ranges = calloc(n ? n : 1, sizeof *ranges);
    if (!ranges || cli_inputs_shapes(m, in, &sh) || cli_shapes_propagate(&sh, g) ||
        cli_index_ranges(g, &sh, ranges))
        rc = cli_error("out of memory");
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        if (in->in[i].kind != CLI_SRC_RANDOM || osc_model_input(m, i, &d) != OSC_OK) continue;
        char big[3000];
        if (cli_random_fill(&in->in[i].t, &ranges[i], o->seed, i, big, sizeof big))
            rc = cli_usage_error(cmd, "--random: input '%s': %s; give it with --input %s=FILE",
                                 d.name, big, d.name);
    }
    free(ranges);
    cli_shapes_free(&sh);
    if (plain) osc_model_free(plain);
    return rc;
}

/* --save-inputs DIR: every input of the run as DIR/STEM.npy (when numpy holds its dtype) and
 * DIR/STEM.pb (a TensorProto named after the input), STEM as cli_file_stem makes it ('/' in
 * NAME as '_', ~2 for a second input of one file name, with a note); all files or none. */
static int save_inputs(const osc_model *m, const char *dir, const cli_inputs *in) {
    char msg[1024], file[1024], note[256];
    cli_outset set;
    cli_nameset taken = {0};
    osc_value_desc d;
    if (cli_outset_open(&set, dir, msg, sizeof msg)) {
        cli_outset_close(&set);
        return cli_error("--save-inputs %s: %s", dir, msg);
    }
    int rc = CLI_OK;
    for (size_t i = 0; i < in->n && rc == CLI_OK; i++) {
        if (!in->in[i].bound || osc_model_input(m, i, &d) != OSC_OK) continue;
        if (cli_file_stem(&taken, d.name, file, sizeof file - 4, msg, sizeof msg)) {
            rc = cli_error("--save-inputs %s: input '%.60s%s': %s; nothing was written", dir,
                           d.name, strlen(d.name) > 60 ? "..." : "", msg);
            break;
        }
        size_t k = strlen(file);
        for (int pb = 0; pb < 2 && rc == CLI_OK; pb++) {
            void *buf = NULL;
            size_t len = 0;
            if (!pb && !cli_npy_holds(&in->in[i].t, note, sizeof note)) continue; /* .pb only */
            snprintf(file + k, sizeof file - k, pb ? ".pb" : ".npy");
            if (pb ? osc_value_encode_pb(&in->in[i].t, d.name, &buf, &len, msg, sizeof msg) != OSC_OK
                   : cli_npy_encode(&in->in[i].t, &buf, &len, msg, sizeof msg) != 0)
                rc = cli_error("--save-inputs: cannot encode input '%s': %s", d.name, msg);
            else if (cli_outset_add(&set, file, buf, len, msg, sizeof msg))
                rc = cli_error("--save-inputs: input '%s': %s; nothing was written", d.name, msg);
            free(buf);
        }
    }
    if (rc == CLI_OK && cli_outset_commit(&set, msg, sizeof msg))
        rc = cli_error("--save-inputs: %s", msg);
    cli_outset_close(&set);
    for (size_t i = 0, t = 0; rc == CLI_OK && i < in->n; i++) {
        if (!in->in[i].bound || osc_model_input(m, i, &d) != OSC_OK) continue;
        snprintf(file, sizeof file, "%s.*", taken.items[t++]);
        cli_note_renamed("input", d.name, file);
    }
    cli_nameset_free(&taken);
    return rc;
}

int cli_inputs_load(const osc_model *m, const cli_input_opts *o, uint64_t max_bytes,
                    const char *cmd, cli_inputs *in) {
    budget bud = {max_bytes, 0};
    size_t n = osc_model_input_count(m);
    osc_value_desc d;
    memset(in, 0, sizeof *in);
    in->in = calloc(n ? n : 1, sizeof *in->in);
    const char **vals = calloc(n ? n : 1, sizeof *vals);
    symtab syms = {calloc(n * OSC_MAX_RANK + o->dims.count + 1, sizeof(sym)), 0};
    int rc = (in->in && vals && syms.s) ? CLI_OK : cli_error("out of memory");
    in->n = in->in ? n : 0;
    if (rc == CLI_OK) rc = take_dims(m, o, cmd, &syms);
    if (rc == CLI_OK) rc = assign(m, o, cmd, vals);
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        if (!vals[i] || osc_model_input(m, i, &d) != OSC_OK) continue;
        rc = load_value(&d, vals[i], cmd, &bud, &in->in[i]);
        in->in[i].bound = rc == CLI_OK;
        char source[300];
        if (rc == CLI_OK)
            rc = check_input(&d, &in->in[i].t, cli_input_source(&in->in[i], source, sizeof source), &syms);
    }
    for (size_t i = 0; i < n && rc == CLI_OK && !o->random; i++) {
        if (in->in[i].bound || osc_model_input(m, i, &d) != OSC_OK || d.has_default) continue;
        char want[600];
        declared(&d, want, sizeof want);
        rc = cli_usage_error(cmd, "missing input '%s' (%s): add --input %s=FILE, or --random",
                             d.name, want, d.name);
    }
    if (rc == CLI_OK && o->random) rc = make_random(m, o, cmd, &syms, &bud, in);
    in->seed = o->seed, in->random = o->random;
    /* written before the run, so a run that fails can be replayed */
    if (rc == CLI_OK && o->save_dir) rc = save_inputs(m, o->save_dir, in);
    free(vals);
    free(syms.s);
    if (rc != CLI_OK) cli_inputs_free(in);
    return rc;
}

int cli_inputs_bind(const osc_model *m, osc_session *s, const cli_inputs *in) {
    osc_value_desc d;
    char source[300];
    for (size_t i = 0; i < in->n; i++) {
        if (!in->in[i].bound || osc_model_input(m, i, &d) != OSC_OK) continue;
        osc_status st = osc_session_set_input_at(s, i, &in->in[i].t);
        if (st != OSC_OK)
            return cli_error("input '%s' from %s (%s): %s", d.name,
                             cli_input_source(&in->in[i], source, sizeof source),
                             osc_status_name(st), osc_session_error(s));
    }
    return CLI_OK;
}

int cli_inputs_shapes(const osc_model *m, const cli_inputs *in, cli_shapes *sh) {
    osc_value_desc d;
    for (size_t i = 0; i < in->n; i++)
        if (in->in[i].bound && osc_model_input(m, i, &d) == OSC_OK &&
            cli_shapes_set(sh, d.name, in->in[i].t.rank, in->in[i].t.dims))
            return 1;
    return 0;
}

void cli_inputs_json(FILE *f, const osc_model *m, const cli_inputs *in) {
    osc_value_desc d;
    fputs("[", f);
    int first = 1;
    for (size_t i = 0; i < in->n; i++) {
        if (!in->in[i].bound || osc_model_input(m, i, &d) != OSC_OK) continue;
        const osc_tensor *t = &in->in[i].t;
        fputs(first ? "{\"name\":" : ",{\"name\":", f);
        first = 0;
        cli_json_str(f, d.name);
        fputs(",\"dtype\":", f);
        cli_json_str(f, osc_dtype_name(t->dtype));
        fputs(",\"shape\":", f);
        cli_json_shape(f, t->rank, t->dims, NULL);
        fputs(",\"source\":", f);
        cli_json_str(f, in->in[i].kind == CLI_SRC_FILE      ? in->in[i].value
                        : in->in[i].kind == CLI_SRC_LITERAL ? "literal"
                                                            : "random");
        fputs("}", f);
    }
    fputs("]", f);
}
