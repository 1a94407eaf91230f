/* dataset.c: the .pb files of a node-test data set (input_K.pb, output_K.pb) and their binding. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

void cli_pbset_free(cli_pbset *p) {
    for (size_t k = 0; k < p->count; k++) osc_tensor_free_data(&p->t[k]);
    free(p->t);
    free(p->names);
    memset(p, 0, sizeof *p);
}

int cli_pbset_load(const char *dir, const char *prefix, const osc_model *m, uint64_t max,
                   cli_pbset *p, char *msg, size_t msg_size) {
    char file[64], why[1024];
    uint64_t total = 0;
    memset(p, 0, sizeof *p);
    for (size_t k = 0;; k++) {
        snprintf(file, sizeof file, "%s_%zu.pb", prefix, k);
        char *path = cli_join(dir, file);
        struct stat sb;
        if (!path) goto nomem;
        /* anything at the name is read (or refused: a FIFO, a device, a folder); only a missing
         * name ends the set */
        if (lstat(path, &sb) != 0) {
            free(path);
            return 0;
        }
        osc_tensor *t = realloc(p->t, (k + 1) * sizeof *t);
        if (t) p->t = t;
        char(*n)[256] = t ? realloc(p->names, (k + 1) * sizeof *n) : NULL;
        if (n) p->names = n;
        if (!t || !n) {
            free(path);
            goto nomem;
        }
        osc_value_desc d = {0};
        bool in = !strcmp(prefix, "input");
        if (!m || (in ? osc_model_input(m, k, &d) : osc_model_output(m, k, &d))) d.dtype = 0;
        osc_status st = cli_load_tensor(path, max, d.dtype, &p->t[k], p->names[k],
                                        sizeof p->names[k], why, sizeof why);
        free(path);
        if (st != OSC_OK) {
            snprintf(msg, msg_size, "%s (%s)", why, osc_status_name(st));
            return 1;
        }
        p->count = k + 1;
        total += p->t[k].nbytes;
        if (p->t[k].dtype == OSC_STRING)
            for (size_t i = 0; i < p->t[k].nbytes / sizeof(osc_string); i++)
                total += ((const osc_string *)p->t[k].data)[i].len;
        if (max && total > max) {
            snprintf(msg, msg_size, "%s_0.pb to %s: the tensors together hold %llu bytes, over "
                     "the byte limit of %llu bytes (opts.max_bytes) (%s)", prefix, file,
                     (unsigned long long)total, (unsigned long long)max,
                     osc_status_name(OSC_ERR_LIMIT));
            return 1;
        }
    }
nomem:
    snprintf(msg, msg_size, "out of memory");
    return 1;
}

int cli_pbset_bind(const osc_model *m, osc_session *s, const cli_pbset *in, char *msg,
                   size_t msg_size) {
    size_t n = osc_model_input_count(m);
    char *bound = calloc(n ? n : 1, 1);
    osc_value_desc d;
    int rc = 0;
    if (!bound) {
        snprintf(msg, msg_size, "out of memory");
        return 1;
    }
    for (size_t k = 0; k < in->count && !rc; k++) {
        size_t idx = k;
        for (size_t i = 0; i < n; i++)
            if (osc_model_input(m, i, &d) == OSC_OK && in->names[k][0] &&
                !strcmp(d.name, in->names[k]))
                idx = i;
        if (idx >= n) {
            snprintf(msg, msg_size, "input_%zu.pb ('%s') matches no graph input (the model has %zu)",
                     k, in->names[k], n);
            rc = 1;
        } else if (bound[idx]) {
            osc_model_input(m, idx, &d);
            snprintf(msg, msg_size, "input_%zu.pb binds graph input '%s' a second time", k, d.name);
            rc = 1;
        } else {
            bound[idx] = 1;
            osc_model_input(m, idx, &d);
            osc_tensor t = in->t[k];
            cli_bf16_quirk(&t, d.dtype);
            osc_status st = osc_session_set_input_at(s, idx, &t);
            if (st != OSC_OK) {
                snprintf(msg, msg_size, "input_%zu.pb (%s): %s", k, osc_status_name(st),
                         osc_session_error(s));
                rc = 1;
            }
        }
    }
    for (size_t i = 0; i < n && !rc; i++)
        if (!bound[i] && osc_model_input(m, i, &d) == OSC_OK && !d.has_default) {
            snprintf(msg, msg_size, "no input_K.pb gives graph input '%s'", d.name);
            rc = 1;
        }
    free(bound);
    return rc;
}
