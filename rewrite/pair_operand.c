/* pair_operand.c: a fused gather-scatter's per-edge operand that is the product of two per-node
 * tables, one read at each edge's source row and one at its destination row (gather_scatter.h):
 * GCN's edge norm, deg^-1/2[row] * deg^-1/2[col], Mul(Gather(dis, row), Gather(dis, col)) in
 * torch's export. The step becomes a PAIR step (ops/fused/fused_scatter.h) reading the two
 * tables; the Gathers and the Mul go once nothing else reads them, and with them the three
 * arrays of one value per edge they wrote. */
#include <string.h>

#include "ops/elementwise/binary.h"
#include "ops/fused/fused_scatter.h"
#include "gather_scatter.h"
#include "region.h"

static const osc_node *producer(const osc_fuse_view *v, int32_t id) {
    return osc_fuse_node(v, osc_fuse_producer(v, id));
}

/* Whether value id is one value per edge (E rows of one element) of dtype. */
static bool per_edge(const osc_fuse_view *v, int32_t id, int32_t dtype, int64_t edges) {
    const osc_tensor *t = osc_fuse_sym_shape(v, id);
    return t && t->dtype == dtype && t->rank >= 1 && t->dims[0] == edges &&
           osc_fuse_count_from(t, 1) == 1;
}

/* Whether node g is a Gather along axis 0 of a table of one value per row (`rows` of them, of
 * dtype) by an index whose source (osc_fuse_index_source) is `index`; the table in *table. */
static bool gather_of(const osc_fuse_view *v, const osc_node *g, int32_t dtype, int32_t index,
                      int64_t rows, int32_t *table) {
    const osc_tensor *t = osc_fuse_sym_shape(v, osc_fuse_in(g, 0));
    if (!t || !osc_fuse_gather0(g, t->rank) || t->dtype != dtype || t->dims[0] != rows ||
        osc_fuse_count_from(t, 1) != 1 || osc_fuse_index_source(NULL, v, g->inputs[1]) != index)
        return false;
    *table = g->inputs[0];
    return true;
}

int32_t osc_fuse_pair_operands(const osc_fuse_view *v, osc_fusion *f, osc_fs_params *p,
                               int32_t dtype, int64_t x_rows) {
    const int32_t src = osc_fuse_index_source(NULL, v, f->inputs[OSC_FS_IN_SRC]);
    const int32_t dst = osc_fuse_index_source(NULL, v, f->inputs[OSC_FS_IN_DST]);
    int32_t pairs = 0;
    for (int32_t s = 0; p->gather && p->dst_stride == 1 && s < p->n_steps; s++) {
        osc_fs_step *st = &p->steps[s];
        const int32_t at = OSC_FS_IN_STEPS + p->n_steps + pairs, before = f->n_absorbed;
        if (st->read != OSC_FS_ROW || !st->estride || at >= OSC_FUSE_MAX_IN) continue;
        /* back through the copies of its elements to the Mul */
        int32_t id = f->inputs[OSC_FS_IN_STEPS + s];
        const osc_node *n = producer(v, id);
        bool ok = per_edge(v, id, dtype, p->edges);
        while (ok && osc_fuse_has(n, OSC_KT_SAME_ELEMENTS) && per_edge(v, n->inputs[0], dtype,
                                                                       p->edges)) {
            ok = osc_fuse_absorb(f, osc_fuse_index(v, n));
            id = n->inputs[0];
            n = producer(v, id);
        }
        int32_t ta, tb;
        const osc_node *ga = NULL, *gb = NULL;
        const bool mul = ok && osc_fuse_has(n, OSC_KT_BINARY) &&
                         n->kernel->variant == OSC_BIN_MUL &&
                         per_edge(v, n->inputs[0], dtype, p->edges) &&
                         per_edge(v, n->inputs[1], dtype, p->edges);
        for (int32_t side = 0; mul && !ga && side < 2; side++) { /* either operand order */
            const osc_node *a = producer(v, n->inputs[side]), *b = producer(v, n->inputs[!side]);
            if (gather_of(v, a, dtype, src, x_rows, &ta) &&
                gather_of(v, b, dtype, dst, p->dims[0], &tb))
                ga = a, gb = b;
        }
        if (!ga || !osc_fuse_absorb(f, osc_fuse_index(v, n)) ||
            !osc_fuse_absorb(f, osc_fuse_index(v, ga)) ||
            !osc_fuse_absorb(f, osc_fuse_index(v, gb))) {
            f->n_absorbed = before;
            continue;
        }
        const osc_tensor *t = osc_fuse_sym_shape(v, ta);
        st->read = OSC_FS_PAIR;
        st->estride = 1;
        st->orank = t->rank;
        memcpy(st->odims, t->dims, (size_t)t->rank * sizeof t->dims[0]);
        st->pair_input = at;
        f->inputs[OSC_FS_IN_STEPS + s] = ta;
        f->inputs[at] = tb;
        pairs++;
    }
    return pairs;
}
