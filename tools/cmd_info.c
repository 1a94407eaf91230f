/* cmd_info.c: `onnx-scatter info MODEL`: what a model declares and how it resolved. */
#include <stdbool.h>
#include <string.h>

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Domain as users know it: the default domain "" is "ai.onnx". */
static const char *domain_name(const char *d) { return d && d[0] ? d : "ai.onnx"; }

static void print_value(const osc_value_desc *v, int is_input) {
    char shape[1024], name[1024];
    cli_format_shape(v->rank, v->dims, v->dim_names, shape, sizeof shape);
    printf("  %s: %s %s%s\n", cli_esc(v->name, name, sizeof name), osc_dtype_name(v->dtype), shape,
           is_input && v->has_default ? " (has a default)" : "");
}

/* A few elements of a small tensor attribute, "{5, 4}" ("" for more than 8 or none). */
static void small_values(const osc_tensor *t, char *buf, size_t size) {
    int64_t n = osc_tensor_count(t);
    size_t o = 0;
    buf[0] = '\0';
    if (n < 1 || n > 8 || !t->data) return;
    for (int64_t i = 0; i < n && o < size; i++) {
        char e[64];
        cli_elem_format(t, i, e, sizeof e);
        o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : " {", e);
    }
    if (o < size) snprintf(buf + o, size - o, "}");
}

/* One attribute as "name=value": numbers, 'strings', [lists], tensor DTYPE [SHAPE] {values}. */
static void format_attr(const osc_attr_desc *a, char *buf, size_t size) {
    char esc[512], v[1024] = "";
    size_t o = 0;
    switch (a->type) {
    case 1: cli_format_real(a->f, 1, v, sizeof v); break;
    case 2: /* Cast's and friends' dtype numbers read better with their names */
        if (!strcmp(a->name, "to") || !strcmp(a->name, "dtype"))
            snprintf(v, sizeof v, "%lld (%s)", (long long)a->i, osc_dtype_name((int32_t)a->i));
        else
            snprintf(v, sizeof v, "%lld", (long long)a->i);
        break;
    case 3: snprintf(v, sizeof v, "'%s'", cli_esc(a->s, esc, sizeof esc)); break;
    case 4:
        if (a->t) {
            char shape[256], vals[512];
            cli_format_shape(a->t->rank, a->t->dims, NULL, shape, sizeof shape);
            small_values(a->t, vals, sizeof vals);
            snprintf(v, sizeof v, "tensor %s %s%s", osc_dtype_name(a->t->dtype), shape, vals);
        }
        break;
    case 6: case 7:
        o += (size_t)snprintf(v, sizeof v, "[");
        for (size_t k = 0; k < a->n && o < sizeof v; k++) {
            char e[64];
            if (a->type == 7) snprintf(e, sizeof e, "%lld", (long long)a->ints[k]);
            else cli_format_real(a->floats[k], 1, e, sizeof e);
            o += (size_t)snprintf(v + o, sizeof v - o, "%s%s", k ? ", " : "", e);
        }
        if (o < sizeof v) snprintf(v + o, sizeof v - o, "]");
        break;
    case 5: snprintf(v, sizeof v, "graph (below)"); break;
    default: snprintf(v, sizeof v, "(attribute type %d)", (int)a->type); break;
    }
    snprintf(buf, size, "%s=%s", cli_esc(a->name, esc, sizeof esc), v);
}

/* name is one of the ", "-separated names of list. */
static bool listed(const char *list, const char *name) {
    const size_t len = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
        if ((p == list || p[-1] == ' ') && (p[len] == ',' || p[len] == '\0')) return true;
    return false;
}

/* The distinct symbolic dims of m's inputs still unpinned, "N, E", into buf; false: none. */
static bool symbolic_dims(const osc_model *m, char *buf, size_t size) {
    osc_value_desc v;
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < osc_model_input_count(m) && osc_model_input(m, i, &v) == OSC_OK; i++)
        for (int32_t d = 0; d < v.rank && n < size; d++)
            if (v.dims[d] < 0 && v.dim_names[d]) {
                char esc[128]; /* as every name info prints */
                cli_esc(v.dim_names[d], esc, sizeof esc);
                if (!listed(buf, esc))
                    n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", esc);
            }
    return n > 0;
}

static void print_subgraphs(const osc_model *m, size_t i, int ind);

/* The nodes of m, each line indented by ind: index, label, op, kernel, then its details and
 * subgraphs indented further. */
static void print_nodes(const osc_model *m, int ind) {
    osc_node_desc n;
    char esc[1024], op[256], dbuf[256]; /* names from the model, escaped for the terminal */
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        if (osc_model_node(m, i, &n) != OSC_OK) continue;
        cli_esc(n.op_type, op, sizeof op);
        printf("%*s%zu %s: %s (%s, opset %lld) -> kernel %s-%lld", ind, "", i,
               cli_node_label(&n, i, esc, sizeof esc), op,
               cli_esc(domain_name(n.domain), dbuf, sizeof dbuf), (long long)n.opset, op,
               (long long)n.since_version);
        if (n.folded) { /* what folding made of it: the constant each output became */
            fputs(", folded at load: ", stdout);
            for (int32_t k = 0; k < n.n_outputs; k++) {
                osc_tensor t;
                char shape[256], vals[512], oname[512];
                if (osc_model_value_data(m, n.outputs[k], &t) != OSC_OK) {
                    printf("%s'%s' (read by nothing at run: released)", k ? ", " : "",
                           cli_esc(n.outputs[k], oname, sizeof oname));
                    continue;
                }
                cli_format_shape(t.rank, t.dims, NULL, shape, sizeof shape);
                small_values(&t, vals, sizeof vals);
                printf("%s'%s' = %s %s%s", k ? ", " : "", cli_esc(n.outputs[k], oname, sizeof oname),
                       osc_dtype_name(t.dtype), shape, vals);
            }
        }
        fputc('\n', stdout);
        size_t na = osc_model_node_attr_count(m, i);
        for (size_t k = 0; k < na; k++) {
            osc_attr_desc a;
            char text[2048];
            if (osc_model_node_attr_at(m, i, k, &a) != OSC_OK) continue;
            format_attr(&a, text, sizeof text);
            if (!k) printf("%*sattributes: ", ind + 4, "");
            printf("%s%s", k ? ", " : "", text);
        }
        if (na) fputc('\n', stdout);
        char fusedby[2048];
        if (n.n_fused)
            printf("%*sfused from: %s\n", ind + 4, "", cli_fused_str(&n, fusedby, sizeof fusedby));
        if (n.n_fused && n.fused_rule) printf("%*srule: %s\n", ind + 4, "", n.fused_rule);
        if (n.not_fused) printf("%*snot fused: %s\n", ind + 4, "", n.not_fused);
        print_subgraphs(m, i, ind + 4);
    }
}

/* Inputs of subgraph sub (of a node of m) that it reads from the graphs around it: its last
 * inputs, each a value m knows (the library lists them after the subgraph's own). */
static size_t outer_inputs(const osc_model *m, const osc_model *sub) {
    size_t n = osc_model_input_count(sub), k = 0;
    osc_value_desc v, o;
    while (k < n && osc_model_input(sub, n - 1 - k, &v) == OSC_OK &&
           osc_model_value(m, v.name, &o) == OSC_OK)
        k++;
    return k;
}

/* Node i's subgraphs: "ATTR: graph 'NAME', N nodes, inputs: OWN own + K from around it: 'a',
 * 'b'" at indent ind, then its nodes one level further. */
static void print_subgraphs(const osc_model *m, size_t i, int ind) {
    for (size_t k = 0; k < osc_model_node_attr_count(m, i); k++) {
        const osc_model *sub = osc_model_node_subgraph(m, i, k);
        osc_attr_desc a;
        osc_meta_desc meta;
        char esc[1024];
        if (!sub || osc_model_node_attr_at(m, i, k, &a) != OSC_OK || osc_model_meta(sub, &meta))
            continue;
        size_t nin = osc_model_input_count(sub), outer = outer_inputs(m, sub);
        printf("%*s%s: ", ind, "", cli_esc(a.name, esc, sizeof esc));
        printf("graph '%s', %zu node%s, inputs: %zu own + %zu from around it",
               cli_esc(meta.graph_name, esc, sizeof esc), osc_model_node_count(sub),
               osc_model_node_count(sub) == 1 ? "" : "s", nin - outer, outer);
        for (size_t j = nin - outer; j < nin; j++) {
            osc_value_desc v;
            if (osc_model_input(sub, j, &v) == OSC_OK)
                printf("%s'%s'", j > nin - outer ? ", " : ": ", cli_esc(v.name, esc, sizeof esc));
        }
        fputc('\n', stdout);
        print_nodes(sub, ind + 2);
    }
}

static void print_model(const osc_model *m) {
    osc_value_desc v;
    osc_node_desc n;
    char esc[1024]; /* names from the model, escaped for the terminal */
    printf("ir_version: %lld\n", (long long)osc_model_ir_version(m));
    printf("opsets:");
    for (size_t i = 0; i < osc_model_opset_count(m); i++) {
        const char *dom = NULL;
        int64_t ver = 0;
        if (osc_model_opset(m, i, &dom, &ver) == OSC_OK)
            printf("%s %s-%lld", i ? "," : "", cli_esc(domain_name(dom), esc, sizeof esc),
                   (long long)ver);
    }
    printf("\ninputs: %zu\n", osc_model_input_count(m));
    for (size_t i = 0; i < osc_model_input_count(m); i++)
        if (osc_model_input(m, i, &v) == OSC_OK) print_value(&v, 1);
    printf("outputs: %zu\n", osc_model_output_count(m));
    for (size_t i = 0; i < osc_model_output_count(m); i++)
        if (osc_model_output(m, i, &v) == OSC_OK) print_value(&v, 0);
    size_t nn = osc_model_node_count(m), folded = 0, fused = 0;
    for (size_t i = 0; i < nn; i++)
        if (osc_model_node(m, i, &n) == OSC_OK) folded += n.folded != 0, fused += n.n_fused > 0;
    printf("nodes: %zu (%zu folded at load, %zu fused)\n", nn, folded, fused);
    char syms[256];
    osc_options o;
    if (!fused && osc_model_options(m, &o) == OSC_OK && !o.no_fusion && symbolic_dims(m, syms, sizeof syms))
        printf("  (no fusion on the symbolic dims %s: pinning them with --dim NAME=SIZE lets the "
               "rules see sizes)\n", syms);
    print_nodes(m, 2);
    uint64_t arena = osc_model_arena_bytes(m);
    if (arena) printf("arena_bytes: %llu\n", (unsigned long long)arena);
    else printf("arena_bytes: 0 (planned at run: shapes depend on the inputs)\n");
    printf("warnings: %zu\n", osc_model_warning_count(m));
    for (size_t i = 0; i < osc_model_warning_count(m); i++)
        printf("  %s\n", cli_esc(osc_model_warning(m, i), esc, sizeof esc));
}

static void json_value(const osc_value_desc *v, int is_input) {
    fputs("{\"name\":", stdout);
    cli_json_str(stdout, v->name);
    fputs(",\"dtype\":", stdout);
    cli_json_str(stdout, v->dtype ? osc_dtype_name(v->dtype) : NULL);
    fputs(",\"shape\":", stdout);
    cli_json_shape(stdout, v->rank, v->dims, v->dim_names);
    if (is_input) printf(",\"has_default\":%s", v->has_default ? "true" : "false");
    fputs("}", stdout);
}

static void json_names(const char *const *names, int32_t n) {
    fputs("[", stdout);
    for (int32_t k = 0; k < n; k++) {
        if (k) fputc(',', stdout);
        cli_json_str(stdout, names[k]);
    }
    fputs("]", stdout);
}

/* An attribute's value: a number, a string, a list, or {"dtype", "shape"} for a tensor (null
 * for the types the library gives by name only). */
static void json_attr(const osc_attr_desc *a) {
    switch (a->type) {
    case 1: cli_json_number(stdout, a->f); break;
    case 2: printf("%lld", (long long)a->i); break;
    case 3: cli_json_bytes(stdout, a->s, a->s_len); break;
    case 4:
        if (!a->t) {
            fputs("null", stdout);
            break;
        }
        fputs("{\"dtype\":", stdout);
        cli_json_str(stdout, osc_dtype_name(a->t->dtype));
        fputs(",\"shape\":", stdout);
        cli_json_shape(stdout, a->t->rank, a->t->dims, NULL);
        fputc('}', stdout);
        break;
    case 6: case 7:
        fputc('[', stdout);
        for (size_t k = 0; k < a->n; k++) {
            if (k) fputc(',', stdout);
            if (a->type == 7) printf("%lld", (long long)a->ints[k]);
            else cli_json_number(stdout, a->floats[k]);
        }
        fputc(']', stdout);
        break;
    default: fputs("null", stdout); break;
    }
}

static void json_subgraphs(const osc_model *m, size_t i);

/* m's nodes as a JSON array, each with its subgraphs' nodes (json_subgraphs). */
static void json_nodes(const osc_model *m) {
    osc_node_desc n;
    fputc('[', stdout);
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        if (osc_model_node(m, i, &n) != OSC_OK) continue;
        printf("%s{\"index\":%zu,\"name\":", i ? "," : "", i);
        cli_json_str(stdout, n.name);
        fputs(",\"op_type\":", stdout);
        cli_json_str(stdout, n.op_type);
        fputs(",\"domain\":", stdout);
        cli_json_str(stdout, domain_name(n.domain));
        printf(",\"opset\":%lld,\"kernel_version\":%lld,\"inputs\":", (long long)n.opset,
               (long long)n.since_version);
        json_names(n.inputs, n.n_inputs);
        fputs(",\"outputs\":", stdout);
        json_names(n.outputs, n.n_outputs);
        printf(",\"folded\":%s,\"attributes\":{", n.folded ? "true" : "false");
        for (size_t k = 0; k < osc_model_node_attr_count(m, i); k++) {
            osc_attr_desc a;
            if (osc_model_node_attr_at(m, i, k, &a) != OSC_OK) continue;
            if (k) fputc(',', stdout);
            cli_json_str(stdout, a.name);
            fputc(':', stdout);
            json_attr(&a);
        }
        fputs("}", stdout);
        cli_json_fused(stdout, &n);
        json_subgraphs(m, i);
        fputs("}", stdout);
    }
    fputc(']', stdout);
}

/* ,"subgraphs":[{"attribute", "name", "node_count", "own_inputs", "outer_inputs": [names],
 * "nodes": [...]}] of node i (print_subgraphs in JSON). */
static void json_subgraphs(const osc_model *m, size_t i) {
    fputs(",\"subgraphs\":[", stdout);
    for (size_t k = 0, any = 0; k < osc_model_node_attr_count(m, i); k++) {
        const osc_model *sub = osc_model_node_subgraph(m, i, k);
        osc_attr_desc a;
        osc_meta_desc meta;
        if (!sub || osc_model_node_attr_at(m, i, k, &a) != OSC_OK || osc_model_meta(sub, &meta))
            continue;
        size_t nin = osc_model_input_count(sub), outer = outer_inputs(m, sub);
        fputs(any++ ? ",{\"attribute\":" : "{\"attribute\":", stdout);
        cli_json_str(stdout, a.name);
        fputs(",\"name\":", stdout);
        cli_json_str(stdout, meta.graph_name);
        printf(",\"node_count\":%zu,\"own_inputs\":%zu,\"outer_inputs\":[",
               osc_model_node_count(sub), nin - outer);
        for (size_t j = nin - outer; j < nin; j++) {
            osc_value_desc v;
            if (osc_model_input(sub, j, &v) != OSC_OK) continue;
            if (j > nin - outer) fputc(',', stdout);
            cli_json_str(stdout, v.name);
        }
        fputs("],\"nodes\":", stdout);
        json_nodes(sub);
        fputc('}', stdout);
    }
    fputc(']', stdout);
}

/* The same facts as print_model, as one JSON object on one line. */
static void json_model(const char *path, const osc_model *m) {
    osc_value_desc v;
    fputs("{\"model\":", stdout);
    cli_json_str(stdout, path);
    printf(",\"ir_version\":%lld,\"opsets\":[", (long long)osc_model_ir_version(m));
    for (size_t i = 0; i < osc_model_opset_count(m); i++) {
        const char *dom = NULL;
        int64_t ver = 0;
        if (osc_model_opset(m, i, &dom, &ver) != OSC_OK) continue;
        printf("%s{\"domain\":", i ? "," : "");
        cli_json_str(stdout, domain_name(dom));
        printf(",\"version\":%lld}", (long long)ver);
    }
    fputs("],\"inputs\":[", stdout);
    for (size_t i = 0; i < osc_model_input_count(m); i++)
        if (osc_model_input(m, i, &v) == OSC_OK) fputs(i ? "," : "", stdout), json_value(&v, 1);
    fputs("],\"outputs\":[", stdout);
    for (size_t i = 0; i < osc_model_output_count(m); i++)
        if (osc_model_output(m, i, &v) == OSC_OK) fputs(i ? "," : "", stdout), json_value(&v, 0);
    fputs("],\"nodes\":", stdout);
    json_nodes(m);
    printf(",\"arena_bytes\":%llu,\"warnings\":[", (unsigned long long)osc_model_arena_bytes(m));
    for (size_t i = 0; i < osc_model_warning_count(m); i++) {
        if (i) fputc(',', stdout);
        cli_json_str(stdout, osc_model_warning(m, i));
    }
    fputs("]}\n", stdout);
}

/* "2", "1 to 3" or "1 or more" (most < 0: any number). */
static void count_range(char *buf, size_t size, int32_t least, int32_t most) {
    if (most < 0) snprintf(buf, size, "%d or more", (int)least);
    else if (most == least) snprintf(buf, size, "%d", (int)least);
    else snprintf(buf, size, "%d to %d", (int)least, (int)most);
}

/* The kernel registry: one line (or JSON object) per op version range. */
static void print_ops(int json) {
    osc_op_desc d;
    if (json) printf("{\"opset_newest\":%lld,\"ops\":[", (long long)osc_opset_newest(""));
    else printf("opset_newest: ai.onnx-%lld\nops: %zu kernel versions\n",
                (long long)osc_opset_newest(""), osc_op_count());
    /* text: the default domain's rows, then the fused kernels' (domain "osc") under a heading */
    for (int pass = 0; !json && pass < 2; pass++) {
        if (pass) printf("domain osc: fused kernels, made only by the load-time rewrite (no model "
                         "may name them)\n");
        for (size_t i = 0; osc_op_at(i, &d) == OSC_OK; i++) {
            char ins[32], outs[32];
            if ((d.domain[0] != 0) != pass) continue;
            count_range(ins, sizeof ins, d.min_inputs, d.max_inputs);
            count_range(outs, sizeof outs, d.min_outputs, d.n_outputs);
            printf("  %s-%lld: opsets %lld to %lld, inputs %s, outputs %s%s\n", d.op_type,
                   (long long)d.since_version, (long long)d.since_version,
                   (long long)d.until_version, ins, outs, d.deprecated ? " (deprecated)" : "");
        }
    }
    for (size_t i = 0; json && osc_op_at(i, &d) == OSC_OK; i++) {
        fputs(i ? ",{\"domain\":" : "{\"domain\":", stdout);
        cli_json_str(stdout, domain_name(d.domain));
        fputs(",\"op_type\":", stdout);
        cli_json_str(stdout, d.op_type);
        printf(",\"since_version\":%lld,\"until_version\":%lld,\"min_inputs\":%d,"
               "\"max_inputs\":", (long long)d.since_version, (long long)d.until_version,
               (int)d.min_inputs);
        if (d.max_inputs < 0) fputs("null", stdout);
        else printf("%d", (int)d.max_inputs);
        printf(",\"min_outputs\":%d,\"max_outputs\":", (int)d.min_outputs);
        if (d.n_outputs < 0) fputs("null", stdout);
        else printf("%d", (int)d.n_outputs);
        printf(",\"deprecated\":%s}", d.deprecated ? "true" : "false");
    }
    if (json) fputs("]}\n", stdout);
}

int cmd_info(int argc, char **argv) {
    const char *path = NULL;
    int json = 0, ops = 0;
    osc_options opts;
    osc_options_init(&opts);
    cli_input_opts pins = {0}; /* --dim only */
    int rc = CLI_OK;
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        if (cli_is_help(argv[i])) {
            usage_info(stdout);
            cli_input_opts_free(&pins);
            return CLI_OK;
        }
        rc = cli_runtime_option(argc, argv, &i, &opts, "info");
        if (rc < 0 && !strncmp(argv[i], "--dim", 5)) rc = cli_input_option(argc, argv, &i, &pins, "info");
        if (rc >= 0) continue;
        rc = CLI_OK;
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(argv[i], "--ops")) {
            ops = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) rc = cli_usage_error("info", "unknown option '%s'", argv[i]);
        else if (path) rc = cli_usage_error("info", "one MODEL only, got '%s' too", argv[i]);
        else path = argv[i];
    }
    if (rc == CLI_OK && ops && path) rc = cli_usage_error("info", "--ops takes no MODEL, got '%s'", path);
    if (rc == CLI_OK && ops) print_ops(json);
    if (rc == CLI_OK && !ops && !path) rc = cli_usage_error("info", "missing MODEL");
    osc_model *m = NULL;
    osc_dim_pin *kept = NULL;
    if (rc == CLI_OK && !ops) {
        kept = calloc(pins.n_pins + 1, sizeof *kept);
        rc = kept ? cli_load_pinned(path, &opts, &pins, kept, "info", &m)
                  : cli_error("out of memory");
    }
    cli_input_opts_free(&pins);
    free(kept);
    if (!m) return rc;
    if (json) {
        json_model(path, m);
    } else {
        fputs("model: ", stdout);
        cli_text_put(stdout, path);
        fputc('\n', stdout);
        print_model(m);
    }
    osc_model_free(m);
    return CLI_OK;
}
