/* pins.c: symbolic dims taken as static at load (opts.dim_pins), before folding, so that a
 * model exported with dynamic axes folds, plans and fuses as its static export does. */
#include <stdio.h>
#include <string.h>

#include "model.h"

/* The distinct dim_params of the graph's inputs, "N, E", into buf (none: ""). */
static const char *input_symbols(const osc_graph *g, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const osc_type *t = &g->values[g->inputs[i]].decl;
        for (int32_t d = 0; d < t->rank && n < size; d++) {
            const char *s = t->dim_names[d];
            if (!s) continue;
            bool seen = false; /* an earlier dim of these inputs with the same name */
            for (int32_t j = 0; j <= i && !seen; j++) {
                const osc_type *u = &g->values[g->inputs[j]].decl;
                for (int32_t e = 0; e < (j < i ? u->rank : d) && !seen; e++)
                    seen = u->dim_names[e] && !strcmp(u->dim_names[e], s);
            }
            if (!seen) n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", s);
        }
    }
    return buf;
}

static bool names_input_dim(const osc_graph *g, const char *name) {
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const osc_type *t = &g->values[g->inputs[i]].decl;
        for (int32_t d = 0; d < t->rank; d++)
            if (t->dim_names[d] && !strcmp(t->dim_names[d], name)) return true;
    }
    return false;
}

osc_status osc_pin_dims(osc_model *m, const osc_options *opts, osc_err *err) {
    if (!opts || (!opts->dim_pins && !opts->n_dim_pins)) return OSC_OK;
    osc_graph *g = &m->g;
    if (!opts->dim_pins)
        return osc_fail(err, OSC_ERR_ARG, "opts.dim_pins is NULL with n_dim_pins %zu",
                        opts->n_dim_pins);
    char syms[512];
    /* every pin checked before any declaration changes */
    for (size_t i = 0; i < opts->n_dim_pins; i++) {
        const osc_dim_pin *p = &opts->dim_pins[i];
        if (!p->name || !p->name[0])
            return osc_fail(err, OSC_ERR_ARG, "opts.dim_pins[%zu]: %s name", i,
                            p->name ? "empty" : "NULL");
        if (p->size < 0)
            return osc_fail(err, OSC_ERR_ARG, "opts.dim_pins[%zu] '%.64s': size %lld; expected 0 "
                            "to %lld", i, p->name, (long long)p->size, (long long)INT64_MAX);
        if (!names_input_dim(g, p->name))
            return osc_fail(err, OSC_ERR_ARG, "opts.dim_pins[%zu] '%.64s': no graph input has a "
                            "dim of that name (%s%s)", i, p->name,
                            input_symbols(g, syms, sizeof syms)[0] ? "symbolic dims: "
                                                                   : "none has symbolic dims",
                            syms);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(opts->dim_pins[j].name, p->name))
                return osc_fail(err, OSC_ERR_ARG, "opts.dim_pins[%zu] '%.64s': pinned already "
                                "by opts.dim_pins[%zu]", i, p->name, j);
    }
    for (int32_t v = 0; v < g->n_values; v++) {
        osc_type *t = &g->values[v].decl;
        for (int32_t d = 0; d < t->rank; d++)
            for (size_t i = 0; t->dim_names[d] && i < opts->n_dim_pins; i++)
                if (!strcmp(t->dim_names[d], opts->dim_pins[i].name))
                    t->dims[d] = opts->dim_pins[i].size;
    }
    m->opts.dim_pins = NULL; /* the caller's array: read during the load only */
    m->opts.n_dim_pins = 0;
    return OSC_OK;
}
