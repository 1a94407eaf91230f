/* runtime_opts.c: the options every subcommand passes to the runtime (--threads, --max-bytes
 * and the other limits), parsed straight into the osc_options the command loads with. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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

int cli_runtime_option(int argc, char **argv, int *i, osc_options *opts, const char *cmd) {
    const char *v;
    int64_t n;
    uint64_t b;
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
    } else if (!strcmp(argv[*i], "--newer-opsets")) {
        opts->newer_opsets = 1;
    } else {
        return -1;
    }
    return CLI_OK;
}

/* A decimal number at the start of a small file ("max" or anything else: 0). */
static uint64_t read_u64_file(const char *path) {
    FILE *f = fopen(path, "re");
    if (!f) return 0;
    char buf[64];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    uint64_t v = 0;
    for (size_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10) return 0;
        v = v * 10 + (uint64_t)(buf[i] - '0');
    }
    return v;
}

/* memory.max of the process's cgroup v2; 0 when unlimited or not readable. */
static uint64_t cgroup_limit(void) {
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return 0;
    char line[512], path[640];
    uint64_t v = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3) != 0) continue;
        line[strcspn(line, "\n")] = '\0';
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max",
                 strcmp(line + 3, "/") == 0 ? "" : line + 3);
        v = read_u64_file(path);
        break;
    }
    fclose(f);
    return v;
}

static uint64_t min_known(uint64_t a, uint64_t b) { return !a ? b : !b ? a : a < b ? a : b; }

uint64_t cli_byte_limit(const osc_options *opts) {
    if (opts->max_bytes == OSC_NO_LIMIT) return 0;
    if (opts->max_bytes) return opts->max_bytes;
    /* the library's documented default (osc_options.max_bytes = 0), which the public header
     * does not export: half of the smallest of physical memory, cgroup v2 memory.max and
     * RLIMIT_AS */
    uint64_t mem = 0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && (uint64_t)pages <= UINT64_MAX / (uint64_t)page)
        mem = (uint64_t)pages * (uint64_t)page;
    mem = min_known(mem, cgroup_limit());
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        mem = min_known(mem, (uint64_t)rl.rlim_cur);
    return mem / 2;
}

void usage_runtime(FILE *f) {
    fputs("runtime:\n"
          "  --threads N             threads one run may use, counting the caller (default\n"
          "                          1); results are the same, bit for bit, for any N\n"
          "  --newer-opsets          run a model whose opset is newer than the newest this\n"
          "                          build knows with the newest kernels (a warning says\n"
          "                          so); without it such a model is refused\n"
          "limits (refused with a clear error before anything is allocated):\n"
          "  --max-bytes N|none      bytes the model, and each run, may allocate (default:\n"
          "                          half of the memory this process may use); N takes a\n"
          "                          K, M, G or T suffix (powers of 1024)\n"
          "  --max-arena-bytes N|none  largest arena of one run (default: none)\n"
          "  --max-nodes N           most nodes in a graph (default 50000)\n"
          "  --max-rank N            largest tensor rank, 1 to 32 (default 32)\n"
          "  --max-string-mib N      longest string element in MiB, 1 to 255 (default 64)\n",
          f);
}
