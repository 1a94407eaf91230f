/* fused_index.h: indices fused nodes read in place (fused_index.c): an index as its graph value,
 * a row of a whole tensor (edge_index[k]), or the pieces of a Concat along axis 0, bound and
 * checked at run time, and the cursor the fused loops read them with. */
#ifndef OSC_FUSED_INDEX_H
#define OSC_FUSED_INDEX_H

#include "core/kernel.h"

/* An index a fused node reads in place from the pieces a Concat along axis 0 joined, the
 * Concat never run (GAT's edge lists with self loops, Concat(edge_index[k], arange(N))):
 * piece q is the node's input input[q], all of it (row[q] < 0) or its row row[q] (a [K, E]
 * tensor, read where it is). Their sizes come from the inputs at run time, so that they may be
 * symbols at load. n == 0: the index is the node's input as it is. */
#define OSC_IX_MAX_PIECES 4
typedef struct osc_ix_pieces {
    int32_t n;
    int32_t value; /* the concatenation's graph value: messages, the split memo's key */
    int32_t input[OSC_IX_MAX_PIECES];
    int64_t row[OSC_IX_MAX_PIECES];
} osc_ix_pieces;

/* At run time, an index as pieces of memory (one for an index as it is): piece q holds the
 * values from start[q] (end[q-1]) to end[q]; cut[q] is end[q] but for the last piece, whose
 * cut and later ones are INT64_MAX, so that a value's piece is a sum of comparisons. */
typedef struct osc_ixv {
    int32_t n;
    bool i64;
    const void *p[OSC_IX_MAX_PIECES];
    int64_t start[OSC_IX_MAX_PIECES], end[OSC_IX_MAX_PIECES], cut[OSC_IX_MAX_PIECES - 1];
} osc_ixv;

/* Index i of an int32 or int64 tensor's data; osc_fs_row: the row of `rows` it names, a
 * negative index counting from the end (indices checked before). */
static inline int64_t osc_fs_ix(const void *p, bool i64, int64_t i) {
    return i64 ? ((const int64_t *)p)[i] : ((const int32_t *)p)[i];
}
static inline int64_t osc_fs_row(const void *p, bool i64, int64_t i, int64_t rows) {
    const int64_t v = osc_fs_ix(p, i64, i);
    return v < 0 ? v + rows : v;
}
/* A cursor reading an index's pieces, mostly at ascending positions (the fused loops walk their
 * edges in order, or grouped by destination, which is edge order within a row): it keeps the
 * piece of the last position and looks the piece up again when a position leaves it, two
 * well-predicted comparisons per read. */
typedef struct osc_ixc {
    const osc_ixv *v;
    const void *p;
    int64_t start, lim;
} osc_ixc;
static inline osc_ixc osc_ixc_of(const osc_ixv *v) {
    return (osc_ixc){.v = v, .p = v->p[0], .lim = -1};
}
static inline int64_t osc_ixc_row(osc_ixc *c, int64_t i, int64_t rows) {
    if (i >= c->lim || i < c->start) {
        _Static_assert(OSC_IX_MAX_PIECES == 4, "one comparison per cut");
        const osc_ixv *v = c->v;
        const int32_t q = (i >= v->cut[0]) + (i >= v->cut[1]) + (i >= v->cut[2]);
        c->p = v->p[q];
        c->start = v->start[q];
        c->lim = q < OSC_IX_MAX_PIECES - 1 ? v->cut[q] : INT64_MAX;
    }
    return osc_fs_row(c->p, c->v->i64, i - c->start, rows);
}

/* Run time: the view of the index at input `at` (pc->n == 0) or of its pieces, checked: an
 * index dtype, `count` values in all (pieces: any count when `count` < 0); messages call it
 * input `at` '`what`'. */
osc_status osc_ixv_bind(osc_kctx *k, const osc_ix_pieces *pc, int32_t at, const char *what,
                        const osc_tensor *const *in, int32_t n_in, int64_t count, osc_ixv *v);
/* Run time: *t piece q of a bound index, as a 1-D tensor of its own. */
void osc_ixv_piece(const osc_ixv *v, int32_t q, osc_tensor *t);
/* Run time: every value of a bound index within [-rows, rows-1], or the first that is not,
 * named with its position in the whole index (input `at` '`what`', `role` saying what it
 * indexes in the message). Pieces checked before in this run are not checked again, nor
 * pieces of graph inputs declared unchanged (k->unchanged) whose bytes hash as in the run
 * before: a declared one that does not fails with OSC_ERR_ARG. *same (may be NULL): every
 * piece's bytes are known those of the run before (a declared index whose hashes matched). */
osc_status osc_ixv_check(osc_kctx *k, const osc_ixv *v, const osc_ix_pieces *pc, int32_t at,
                         const char *what, const char *role, int64_t rows, bool *same);

#endif
