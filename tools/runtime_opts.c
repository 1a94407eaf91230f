/* runtime_opts.c: the options every subcommand passes to the runtime (--threads, --max-bytes
 * and the other limits, --set KEY=VALUE), parsed straight into the osc_options it loads with. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "N", "N" + K/M/G/T (powers of 1024, optional "iB"), or "none" (*out = none_value).
 * Returns 0 when parsed, 1 otherwise. */
static int parse_bytes(const char *s, uint64_t none_value, uint64_t *out) {
    static const char units[] = "KMGT";
    char *end;
    if (!strcmp(s, "none")) {
        *out = none_value;
        return 0;
    }
    if (*s < '0' || *s > '9') return 1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return 1;
    if (*end) {
        const char *u = strchr(units, end[0]); /* end[0] is not '\0' here */
        if (!u || (end[1] && strcmp(end + 1, "iB"))) return 1;
        for (int k = 0; k <= u - units; k++) {
            if (v > UINT64_MAX / 1024) return 1;
            v *= 1024;
        }
    }
    *out = v;
    return 0;
}

/* Options the command line sets itself, refused by --set: why. */
static const char *cli_owned(const char *key) {
    if (!strcmp(key, "profile")) return "bench --profile sets it";
    if (!strcmp(key, "inplace_inputs")) return "the commands bind each input buffer for "
                                               "every run";
    return NULL;
}

/* --set KEY=VALUE: osc_options_set, whose message names the key, the value and what it takes. */
static int set_by_name(const char *arg, osc_options *opts, const char *cmd) {
    char *key, msg[OSC_MESSAGE_SIZE];
    const char *value, *why;
    if (cli_split_assign(arg, &key, &value))
        return cli_usage_error(cmd, "--set wants KEY=VALUE, got '%s'", arg);
    int rc = CLI_OK;
    if ((why = cli_owned(key)) != NULL)
        rc = cli_usage_error(cmd, "--set %s: not settable on the command line (%s)", key, why);
    else if (osc_options_set(opts, key, value, msg, sizeof msg) != OSC_OK)
        rc = cli_usage_error(cmd, "--set: %s", msg);
    free(key);
    return rc;
}

/* Switches that stand for --set KEY=1. */
static const struct {
    const char *flag, *key;
} k_switches[] = {{"--newer-opsets", "newer_opsets"},
                  {"--no-fusion", "no_fusion"},
                  {"--fuse-recompute", "fuse_recompute"},
                  {"--strict", "strict"}};

int cli_runtime_option(int argc, char **argv, int *i, osc_options *opts, const char *cmd) {
    const char *v;
    int64_t n;
    uint64_t b;
    for (size_t k = 0; k < sizeof k_switches / sizeof k_switches[0]; k++)
        if (!strcmp(argv[*i], k_switches[k].flag)) {
            osc_options_set(opts, k_switches[k].key, "1", NULL, 0); /* a known key and value */
            return CLI_OK;
        }
    if ((v = cli_opt_value(argc, argv, i, "--set", NULL)) != NULL) return set_by_name(v, opts, cmd);
    if ((v = cli_opt_value(argc, argv, i, "--threads", NULL)) != NULL) {
        if (cli_parse_int(v, 1, OSC_MAX_THREADS, &n))
            return cli_usage_error(cmd, "--threads wants a count from 1 to %d, got '%s'",
                                   OSC_MAX_THREADS, v);
        opts->threads = (int32_t)n;
    } else if ((v = cli_opt_value(argc, argv, i, "--max-bytes", NULL)) != NULL) {
        /* 0 would mean "the default" to the library; the flag says "none" for no cap */
        if (parse_bytes(v, OSC_NO_LIMIT, &b) || b == 0)
            return cli_usage_error(cmd, "--max-bytes wants a byte count >= 1 (suffix K, M, G "
                                   "or T allowed) or 'none', got '%s'", v);
        opts->max_bytes = b;
    } else if ((v = cli_opt_value(argc, argv, i, "--max-arena-bytes", NULL)) != NULL) {
        if (parse_bytes(v, 0, &b) || (b == 0 && strcmp(v, "none")))
            return cli_usage_error(cmd, "--max-arena-bytes wants a byte count >= 1 (suffix K, "
                                   "M, G or T allowed) or 'none', got '%s'", v);
        opts->max_arena_bytes = b;
    } else if ((v = cli_opt_value(argc, argv, i, "--max-fold-bytes", NULL)) != NULL) {
        if (parse_bytes(v, OSC_NO_LIMIT, &b) || b == 0)
            return cli_usage_error(cmd, "--max-fold-bytes wants a byte count >= 1 (suffix K, "
                                   "M, G or T allowed) or 'none', got '%s'", v);
        opts->max_fold_bytes = b;
    } else if ((v = cli_opt_value(argc, argv, i, "--max-nodes", NULL)) != NULL) {
        if (cli_parse_int(v, 1, INT32_MAX, &n))
            return cli_usage_error(cmd, "--max-nodes wants a count from 1 to %d, got '%s'",
                                   INT32_MAX, v);
        opts->max_nodes = (int32_t)n;
    } else if ((v = cli_opt_value(argc, argv, i, "--max-rank", NULL)) != NULL) {
        if (cli_parse_int(v, 1, OSC_MAX_RANK, &n))
            return cli_usage_error(cmd, "--max-rank wants a rank from 1 to %d, got '%s'",
                                   OSC_MAX_RANK, v);
        opts->max_rank = (uint8_t)n;
    } else if ((v = cli_opt_value(argc, argv, i, "--max-string-mib", NULL)) != NULL) {
        if (cli_parse_int(v, 1, 255, &n))
            return cli_usage_error(cmd, "--max-string-mib wants a size in MiB from 1 to 255, "
                                   "got '%s'", v);
        opts->max_string_mib = (uint8_t)n;
    } else {
        return -1;
    }
    return CLI_OK;
}

void cli_print_warnings(const osc_model *m, const char *where) {
    for (size_t i = 0; i < osc_model_warning_count(m); i++) {
        fputs("onnx-scatter: warning: ", stderr);
        if (where) cli_text_put(stderr, where), fputs(": ", stderr);
        cli_text_put(stderr, osc_model_warning(m, i));
        fputc('\n', stderr);
    }
}

void cli_json_warnings(FILE *f, const osc_model *m) {
    fputs(",\"warnings\":[", f);
    for (size_t i = 0; i < osc_model_warning_count(m); i++) {
        if (i) fputc(',', f);
        cli_json_str(f, osc_model_warning(m, i));
    }
    fputc(']', f);
}

uint64_t cli_byte_limit(const osc_options *opts) {
    if (opts->max_bytes == OSC_NO_LIMIT) return 0;
    return opts->max_bytes ? opts->max_bytes : osc_default_max_bytes();
}

/* Writes text word-wrapped into lines of at most 80 columns under the help's description
 * column (26 spaces in). */
static void put_wrapped(FILE *f, const char *text) {
    const size_t indent = 26, width = 80 - 26;
    for (const char *p = text; *p;) {
        size_t n = strlen(p);
        if (n > width) {
            for (n = width; n && p[n] != ' '; n--) {}
            if (!n) n = strcspn(p, " "); /* one word longer than the column: a long line */
        }
        fprintf(f, "%*s%.*s\n", (int)indent, "", (int)n, p);
        for (p += n; *p == ' '; p++) {}
    }
}

void usage_runtime(FILE *f) {
    fputs("runtime:\n"
          "  --threads N             threads one run may use, counting the caller (default\n"
          "                          1); results are the same, bit for bit, for any N\n"
          "  --newer-opsets          run a model whose opset is newer than the newest this\n"
          "                          build knows with the newest kernels (a warning says\n"
          "                          so); without it such a model is refused\n"
          "  --no-fusion             run the graph as written: no gather-scatter fusion\n"
          "                          (results are the same, bit for bit)\n"
          "  --fuse-recompute        fused nodes compute per-edge operands a tile at a\n"
          "                          time, recomputing what they need rather than keep it:\n"
          "                          lower peak memory, more work (the same bits)\n"
          "  --strict                the model's warnings are errors (exit 1): deprecated\n"
          "                          ops (Scatter-11), a declared output shape the graph\n"
          "                          does not compute, an IR version this build does not\n"
          "                          know. Without it each warning is one stderr line\n"
          "                          'onnx-scatter: warning: ...', once per model, after\n"
          "                          the command's output, and in --json \"warnings\"\n"
          "  --set KEY=VALUE         set a load option by name, repeatable, the last one\n"
          "                          wins (osc_options_set: VALUE a whole number in the\n"
          "                          option's range; the switches above are --set KEY=1).\n",
          f);
    char keys[OSC_MESSAGE_SIZE] = "KEY:";
    const char *sep = " ";
    for (size_t k = 0, n = strlen(keys); osc_option_name(k) && n < sizeof keys; k++)
        if (!cli_owned(osc_option_name(k))) {
            n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%s", sep, osc_option_name(k));
            sep = ", ";
        }
    put_wrapped(f, keys); /* the library's list */
    fputs("limits (refused with a clear error before anything is allocated):\n"
          "  --max-bytes N|none      bytes the model, and each run, may allocate (default:\n"
          "                          half of the memory this process may use); N takes a\n"
          "                          K, M, G or T suffix (powers of 1024)\n"
          "  --max-arena-bytes N|none  largest arena of one run (default: none)\n"
          "  --max-fold-bytes N|none  bytes constant folding may compute at load; past\n"
          "                          them nodes run instead (default: 64 times the\n"
          "                          model's bytes, at least 64M)\n"
          "  --max-nodes N           most nodes in a graph (default 50000)\n"
          "  --max-rank N            largest tensor rank, 1 to 32 (default 32)\n"
          "  --max-string-mib N      longest string element in MiB, 1 to 255 (default 64)\n",
          f);
}
