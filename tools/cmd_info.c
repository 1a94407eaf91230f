/* cmd_info.c: `onnx-scatter info MODEL`: what a model declares and how it resolved. */
#include <string.h>

#include <stdio.h>

#include "cli.h"

/* Domain as users know it: the default domain "" is "ai.onnx". */
static const char *domain_name(const char *d) { return d && d[0] ? d : "ai.onnx"; }

static void print_value(const osc_value_desc *v, int is_input) {
    char shape[1024], name[1024];
    cli_format_shape(v->rank, v->dims, v->dim_names, shape, sizeof shape);
    printf("  %s: %s %s%s\n", cli_esc(v->name, name, sizeof name), osc_dtype_name(v->dtype), shape,
           is_input && v->has_default ? " (has a default)" : "");
}

static void print_model(const osc_model *m) {
    osc_value_desc v;
    osc_node_desc n;
    char esc[1024], op[256], dbuf[256]; /* names from the model, escaped for the terminal */
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
    printf("nodes: %zu\n", osc_model_node_count(m));
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        if (osc_model_node(m, i, &n) != OSC_OK) continue;
        cli_esc(n.op_type, op, sizeof op);
        printf("  %zu %s: %s (%s, opset %lld) -> kernel %s-%lld\n", i,
               cli_esc(n.name && n.name[0] ? n.name : "(unnamed)", esc, sizeof esc), op,
               cli_esc(domain_name(n.domain), dbuf, sizeof dbuf), (long long)n.opset, op,
               (long long)n.since_version);
        char fused[2048];
        if (n.n_fused) printf("      fused from: %s\n", cli_fused_str(&n, fused, sizeof fused));
    }
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

/* The same facts as print_model, as one JSON object on one line. */
static void json_model(const char *path, const osc_model *m) {
    osc_value_desc v;
    osc_node_desc n;
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
    fputs("],\"nodes\":[", stdout);
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
        cli_json_fused(stdout, &n);
        fputs("}", stdout);
    }
    printf("],\"arena_bytes\":%llu,\"warnings\":[", (unsigned long long)osc_model_arena_bytes(m));
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
    for (size_t i = 0; osc_op_at(i, &d) == OSC_OK; i++) {
        char ins[32], outs[32];
        count_range(ins, sizeof ins, d.min_inputs, d.max_inputs);
        count_range(outs, sizeof outs, d.min_outputs, d.n_outputs);
        if (!json) {
            printf("  %s-%lld: opsets %lld to %lld, inputs %s, outputs %s%s\n", d.op_type,
                   (long long)d.since_version, (long long)d.since_version,
                   (long long)d.until_version, ins, outs, d.deprecated ? " (deprecated)" : "");
            continue;
        }
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
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage_info(stdout);
            return CLI_OK;
        }
        int rc = cli_runtime_option(argc, argv, &i, &opts, "info");
        if (rc >= 0) {
            if (rc != CLI_OK) return rc;
            continue;
        }
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(argv[i], "--ops")) {
            ops = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("info", "unknown option '%s'", argv[i]);
        if (path) return cli_usage_error("info", "one MODEL only, got '%s' too", argv[i]);
        path = argv[i];
    }
    if (ops && path) return cli_usage_error("info", "--ops takes no MODEL, got '%s'", path);
    if (ops) {
        print_ops(json);
        return CLI_OK;
    }
    if (!path) return cli_usage_error("info", "missing MODEL");
    osc_model *m = NULL;
    char msg[1024];
    osc_status st = osc_model_load_file(path, &opts, &m, msg, sizeof msg);
    if (st != OSC_OK) return cli_error("cannot load '%s' (%s): %s", path, osc_status_name(st), msg);
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
