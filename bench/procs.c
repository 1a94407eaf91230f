/* procs.c: the harness's files and processes: case loading, peak RSS, child runs, the ORT peer. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* ---- cases ---- */

/* Reads a whole file into a malloc'ed buffer; NULL when absent or unreadable (errno kept). */
static void *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)(n > 0 ? n : 0);
    return buf;
}

int tensor_load_pb(const char *path, osc_tensor *t, char *msg, size_t msg_size) {
    size_t len;
    void *buf = read_file(path, &len);
    if (!buf) {
        if (errno == ENOENT) return 1;
        snprintf(msg, msg_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char why[OSC_MESSAGE_SIZE];
    osc_status st = osc_tensor_decode_pb(buf, len, t, NULL, 0, why, sizeof why);
    free(buf);
    if (st != OSC_OK) {
        snprintf(msg, msg_size, "%s: %s", path, why);
        return -1;
    }
    return 0;
}

int case_load(bench_case *bc, const char *dir, int want_expected, char *msg, size_t msg_size) {
    memset(bc, 0, sizeof *bc);
    snprintf(bc->dir, sizeof bc->dir, "%s", dir);
    size_t dl = strlen(bc->dir);
    while (dl > 1 && bc->dir[dl - 1] == '/') bc->dir[--dl] = '\0';
    const char *base = strrchr(bc->dir, '/');
    snprintf(bc->name, sizeof bc->name, "%.255s", base ? base + 1 : bc->dir);
    char path[1400];
    for (size_t k = 0; k < BENCH_MAX_INPUTS; k++) {
        snprintf(path, sizeof path, "%s/test_data_set_0/input_%zu.pb", bc->dir, k);
        int rc = tensor_load_pb(path, &bc->in[k], msg, msg_size);
        if (rc < 0) goto fail;
        if (rc > 0) break;
        bc->n_in = k + 1;
    }
    if (bc->n_in == 0) {
        snprintf(msg, msg_size, "%s/test_data_set_0/input_0.pb: not found", bc->dir);
        goto fail;
    }
    if (want_expected) {
        snprintf(path, sizeof path, "%s/test_data_set_0/output_0.pb", bc->dir);
        int rc = tensor_load_pb(path, &bc->expected, msg, msg_size);
        if (rc > 0) snprintf(msg, msg_size, "%s: not found", path);
        if (rc) goto fail;
    }
    return 0;
fail:
    case_free(bc);
    return 1;
}

void case_free(bench_case *bc) {
    for (size_t k = 0; k < bc->n_in; k++) osc_tensor_free_data(&bc->in[k]);
    if (bc->expected.data) osc_tensor_free_data(&bc->expected);
    bc->n_in = 0;
}

/* ---- peak RSS ---- */

int rss_reset_peak(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return 1;
    int bad = fputs("5", f) < 0;
    return fclose(f) != 0 || bad;
}

long rss_status_kb(const char *field) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    size_t n = strlen(field);
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':') v = strtol(line + n + 1, NULL, 10);
    fclose(f);
    return v;
}

/* ---- child processes ---- */

/* fork + exec argv with stdin/stdout on pipes (either may be NULL: inherited). */
static int spawn(char *const argv[], FILE **to, FILE **from, int *pid_out) {
    int in[2] = {-1, -1}, out[2] = {-1, -1};
    if ((to && pipe(in) != 0) || pipe(out) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (to) dup2(in[0], 0);
        dup2(out[1], 1);
        if (to) close(in[0]), close(in[1]);
        close(out[0]), close(out[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (to) {
        close(in[0]);
        fcntl(in[1], F_SETFD, FD_CLOEXEC);
        *to = fdopen(in[1], "w");
    }
    close(out[1]);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    *from = fdopen(out[0], "r");
    *pid_out = (int)pid;
    return 0;
}

int child_line(char *const argv[], const char *prefix, char *line, size_t size) {
    FILE *from = NULL;
    int pid;
    if (spawn(argv, NULL, &from, &pid) != 0 || !from) {
        snprintf(line, size, "cannot start %s: %s", argv[0], strerror(errno));
        return 1;
    }
    char buf[4096];
    int found = 0;
    while (fgets(buf, sizeof buf, from))
        if (!found && !strncmp(buf, prefix, strlen(prefix))) {
            buf[strcspn(buf, "\n")] = '\0';
            snprintf(line, size, "%s", buf);
            found = 1;
        }
    fclose(from);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!found)
        snprintf(line, size, "%s exited (status %d) without a '%s' line", argv[0],
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, prefix);
    return !found;
}

/* ---- the onnxruntime peer ---- */

int peer_start(ort_peer *p, const char *node, const char *script, char *msg, size_t msg_size) {
    /* --expose-gc: the script collects its garbage (the output copies) before it answers */
    char *argv[] = {(char *)node, "--expose-gc", (char *)script, "serve", NULL};
    return peer_spawn(p, argv, msg, msg_size);
}

int peer_spawn(ort_peer *p, char *const argv[], char *msg, size_t msg_size) {
    memset(p, 0, sizeof *p);
    signal(SIGPIPE, SIG_IGN); /* a dead peer must fail a write, not kill the harness */
    if (spawn(argv, &p->to, &p->from, &p->pid) != 0 || !p->to || !p->from) {
        snprintf(msg, msg_size, "cannot start %s: %s", argv[0], strerror(errno));
        peer_stop(p);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    const char *rest;
    int rc = peer_cmd(p, "hello", &line, &cap, &rest);
    if (rc && p->dead)
        snprintf(msg, msg_size, "%s %s exited without answering (is it installed?)", argv[0],
                 argv[1] ? argv[1] : "");
    else
        snprintf(rc ? msg : p->version, rc ? msg_size : sizeof p->version, "%s", rest);
    free(line);
    if (rc) peer_stop(p);
    return rc;
}

int peer_cmd(ort_peer *p, const char *cmd, char **line, size_t *cap, const char **rest) {
    if (!p->to || fprintf(p->to, "%s\n", cmd) < 0 || fflush(p->to) != 0) {
        p->dead = 1;
        *rest = "the peer process is gone (write failed)";
        return 1;
    }
    const char *l = peer_read(p, line, cap);
    if (!l) {
        p->dead = 1;
        *rest = "the peer process exited";
        return 1;
    }
    if (!strncmp(l, "ok", 2) && (l[2] == '\0' || l[2] == ' ')) {
        *rest = l[2] ? l + 3 : "";
        return 0;
    }
    *rest = !strncmp(l, "error ", 6) ? l + 6 : l;
    return 1;
}

const char *peer_read(ort_peer *p, char **line, size_t *cap) {
    if (!p->from) return NULL;
    ssize_t n = getline(line, cap, p->from);
    if (n < 0) return NULL;
    (*line)[strcspn(*line, "\n")] = '\0';
    return *line;
}

int peer_finish(ort_peer *p, const int64_t warm[2], double *times[2], size_t n[2], char **line,
                size_t *cap, const char **rest) {
    char cmd[96];
    times[0] = times[1] = NULL, n[0] = n[1] = 0;
    snprintf(cmd, sizeof cmd, "finish %lld %lld", (long long)warm[0], (long long)warm[1]);
    if (peer_cmd(p, cmd, line, cap, rest)) return 1;
    const char *l;
    while ((l = peer_read(p, line, cap)) && strcmp(l, "end") != 0) {
        int t = 0, used = 0;
        long count = 0;
        if (sscanf(l, "times %d %ld%n", &t, &count, &used) != 2 || (t != 1 && t != 2)) continue;
        free(times[t - 1]);
        times[t - 1] = calloc((size_t)(count > 0 ? count : 1), sizeof *times[0]);
        n[t - 1] = 0;
        const char *q = l + used;
        char *end;
        for (long i = 0; times[t - 1] && i < count; i++, q = end) {
            double v = strtod(q, &end);
            if (end == q) break;
            times[t - 1][n[t - 1]++] = v;
        }
    }
    return 0;
}

void peer_stop(ort_peer *p) {
    if (p->to) {
        fputs("quit\n", p->to);
        fclose(p->to);
    }
    if (p->from) fclose(p->from);
    if (p->pid > 0) waitpid(p->pid, NULL, 0);
    memset(p, 0, sizeof *p);
}
