/* shapes.c: shapes of a graph's values, propagated through the nodes from the bound inputs. */
/* The public API gives the shapes of graph inputs and outputs only. The profile table and the
 * index ranges of --random also need those of intermediate values. For the scatter and gather
 * ops the output shape is a simple function of the input shapes; the outputs of any other op
 * stay unknown ("?") unless they are graph outputs with static shapes. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_onnx_domain(const char *domain) {
    return !domain || !domain[0] || !strcmp(domain, "ai.onnx");
}

/* The slot of `name` in the table: where it is, or the empty slot where it would go. */
static size_t slot_of(const cli_shapes *s, const char *name) {
    size_t i = cli_str_hash(name) & (s->slots - 1);
    while (s->slot[i] && strcmp(s->v[s->slot[i] - 1].name, name)) i = (i + 1) & (s->slots - 1);
    return i;
}

const cli_vshape *cli_shapes_get(const cli_shapes *s, const char *name) {
    if (!name || !name[0] || !s->slots) return NULL;
    size_t i = s->slot[slot_of(s, name)];
    return i ? &s->v[i - 1] : NULL;
}

/* Room for one more shape: v and the table grown (the table rebuilt) when full. */
static int grow(cli_shapes *s) {
    if (s->n < s->cap) return 0;
    size_t cap = s->cap ? 2 * s->cap : 16;
    cli_vshape *p = realloc(s->v, cap * sizeof *p);
    if (!p) return 1;
    s->v = p;
    size_t *slot = calloc(2 * cap, sizeof *slot);
    if (!slot) return 1;
    free(s->slot);
    s->slot = slot, s->slots = 2 * cap, s->cap = cap;
    for (size_t k = 0; k < s->n; k++) s->slot[slot_of(s, s->v[k].name)] = k + 1;
    return 0;
}

int cli_shapes_set(cli_shapes *s, const char *name, int32_t rank, const int64_t *dims) {
    cli_vshape *v = (cli_vshape *)cli_shapes_get(s, name);
    if (!v) {
        if (grow(s)) return 1;
        s->slot[slot_of(s, name)] = s->n + 1;
        v = &s->v[s->n++];
    }
    memset(v, 0, sizeof *v);
    v->name = name, v->rank = rank;
    if (rank > 0) memcpy(v->dims, dims, (size_t)rank * sizeof *dims);
    return 0;
}

void cli_shapes_free(cli_shapes *s) {
    free(s->v);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

/* A value's shape from a descriptor when every dim is static. */
static int static_shape(const osc_value_desc *d) {
    if (d->rank < 0) return 0;
    for (int32_t k = 0; k < d->rank; k++)
        if (d->dims[k] < 0) return 0;
    return 1;
}

int cli_shapes_propagate(cli_shapes *s, const osc_model *m) {
    osc_value_desc d;
    /* inputs keeping their defaults: the declared (static) shape */
    for (size_t i = 0; i < osc_model_input_count(m); i++)
        if (osc_model_input(m, i, &d) == OSC_OK && !cli_shapes_get(s, d.name) && static_shape(&d) &&
            cli_shapes_set(s, d.name, d.rank, d.dims))
            return 1;
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc n;
        if (osc_model_node(m, i, &n) != OSC_OK || n.n_outputs < 1 || !cli_onnx_domain(n.domain))
            continue;
        const char *op = n.op_type;
        const cli_vshape *data = n.n_inputs > 0 ? cli_shapes_get(s, n.inputs[0]) : NULL;
        const cli_vshape *idx = n.n_inputs > 1 ? cli_shapes_get(s, n.inputs[1]) : NULL;
        int64_t dims[OSC_MAX_RANK];
        int32_t rank = -1;
        if (!strcmp(op, "GatherElements")) {
            if (idx) rank = idx->rank, memcpy(dims, idx->dims, sizeof dims);
        } else if (!strcmp(op, "GatherND")) {
            int64_t b = 0;
            osc_model_node_attr_int(m, i, "batch_dims", &b);
            if (data && idx && idx->rank >= 1) {
                int64_t k = idx->dims[idx->rank - 1];
                int64_t r = idx->rank - 1 + data->rank - b - k;
                if (b >= 0 && k >= 0 && b + k <= data->rank && r >= 0 && r <= OSC_MAX_RANK) {
                    rank = (int32_t)r;
                    memcpy(dims, idx->dims, (size_t)(idx->rank - 1) * sizeof *dims);
                    memcpy(dims + idx->rank - 1, data->dims + b + k,
                           (size_t)(data->rank - b - k) * sizeof *dims);
                }
            }
        } else if (data && (!strcmp(op, "Scatter") || !strcmp(op, "ScatterElements") ||
                            !strcmp(op, "ScatterND") || !strcmp(op, "TensorScatter"))) {
            rank = data->rank, memcpy(dims, data->dims, sizeof dims);
        }
        if (rank >= 0 && cli_shapes_set(s, n.outputs[0], rank, dims)) return 1;
    }
    for (size_t i = 0; i < osc_model_output_count(m); i++)
        if (osc_model_output(m, i, &d) == OSC_OK && !cli_shapes_get(s, d.name) && static_shape(&d) &&
            cli_shapes_set(s, d.name, d.rank, d.dims))
            return 1;
    return 0;
}

void cli_shapes_node(const cli_shapes *s, const osc_model *m, size_t node, char *buf, size_t size) {
    osc_node_desc n;
    size_t o = 0;
    buf[0] = '\0';
    if (osc_model_node(m, node, &n) != OSC_OK) return;
    for (int32_t k = 0; k < n.n_inputs + n.n_outputs && o < size; k++) {
        const char *name = k < n.n_inputs ? n.inputs[k] : n.outputs[k - n.n_inputs];
        char shape[256] = "?";
        const cli_vshape *v = cli_shapes_get(s, name);
        if (!name[0]) snprintf(shape, sizeof shape, "-");
        else if (v) cli_format_shape(v->rank, v->dims, NULL, shape, sizeof shape);
        const char *sep = k == 0 ? "" : k == n.n_inputs ? " -> " : " ";
        o += (size_t)snprintf(buf + o, size - o, "%s%s", sep, shape);
    }
}
