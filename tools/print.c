/* print.c: prints shapes and tensors readably (numpy-style nesting, long dims summarised). */
#include <string.h>

#include "cli.h"

/* Items shown at each end of a summarised dim. */
#define EDGE_ITEMS 3

void cli_format_shape(int32_t rank, const int64_t *dims, const char *const *dim_names, char *buf,
                      size_t size) {
    size_t o = 0;
    if (size == 0) return;
    buf[0] = '\0';
    if (rank < 0) { snprintf(buf, size, "?"); return; }
    o += (size_t)snprintf(buf + o, size - o, "[");
    for (int32_t d = 0; d < rank && o < size; d++) {
        const char *sep = d ? ", " : "";
        if (dim_names && dim_names[d])
            o += (size_t)snprintf(buf + o, size - o, "%s%s", sep, dim_names[d]);
        else if (dims[d] < 0)
            o += (size_t)snprintf(buf + o, size - o, "%s?", sep);
        else
            o += (size_t)snprintf(buf + o, size - o, "%s%lld", sep, (long long)dims[d]);
    }
    if (o < size) snprintf(buf + o, size - o, "]");
}

typedef struct printer {
    FILE *f;
    const osc_tensor *t;
    int64_t strides[OSC_MAX_RANK];
    int summarise;
} printer;

/* Prints the sub-tensor of dim d starting at flat offset off; col is the current indent. */
static void print_dim(printer *p, int32_t d, int64_t off) {
    const osc_tensor *t = p->t;
    char buf[256];
    if (d == t->rank) {
        cli_elem_format(t, off, buf, sizeof buf);
        fputs(buf, p->f);
        return;
    }
    int64_t n = t->dims[d];
    fputc('[', p->f);
    for (int64_t i = 0; i < n; i++) {
        if (i) {
            if (d == t->rank - 1) {
                fputs(", ", p->f);
            } else { /* one blank line less per deeper dim, as numpy does */
                fputc(',', p->f);
                for (int32_t k = d; k < t->rank - 1; k++) fputc('\n', p->f);
                fprintf(p->f, "%*s", (int)d + 1, "");
            }
        }
        if (p->summarise && n > 2 * EDGE_ITEMS && i == EDGE_ITEMS) {
            fputs("...", p->f);
            i = n - EDGE_ITEMS - 1; /* the loop's i++ lands on the first trailing item */
            continue;
        }
        print_dim(p, d + 1, off + i * p->strides[d]);
    }
    fputc(']', p->f);
}

void cli_print_tensor(FILE *f, const char *name, const osc_tensor *t, int64_t max_elems) {
    char shape[512];
    cli_format_shape(t->rank, t->dims, NULL, shape, sizeof shape);
    fprintf(f, "%s: %s %s\n", name, osc_dtype_name(t->dtype), shape);
    int64_t count = osc_tensor_count(t);
    if (count < 0) { fputs("(invalid shape)\n", f); return; }
    if (cli_dtype_kind(t->dtype) == CLI_KIND_OTHER) { fputs("(values of an unknown dtype)\n", f); return; }
    printer p = {.f = f, .t = t, .summarise = count > max_elems};
    int64_t s = 1;
    for (int32_t d = t->rank - 1; d >= 0; d--) {
        p.strides[d] = s;
        s *= t->dims[d];
    }
    print_dim(&p, 0, 0);
    fputc('\n', f);
}
