/* loss.c: NegativeLogLikelihoodLoss (12, 13, 22) and SoftmaxCrossEntropyLoss (12, 13). Input 0
 * is (N x C x d1 x ... x dk), input 1 the class of each sample (N x d1 x ... x dk), the optional
 * input 2 a weight per class. Sample i of class c = target[i] loses -lp[i][c] * weight[c], lp
 * being input 0 itself (NLL) or its log-softmax over C (SCE, with the largest score subtracted
 * first); a sample whose target equals ignore_index loses 0 and weighs 0. Reduction "none"
 * outputs the losses (target's shape), "sum" their sum, "mean" (the default) their sum divided
 * by the sum of the samples' weights (1 each without input 2): an IEEE division, so weights
 * summing to zero give NaN or an infinity (docs/semantics.md). SCE's optional output 1 is the
 * log-softmax of every element. A target outside [0, C) that is not ignore_index fails the run
 * (OSC_ERR_INDEX) before anything is written. Computed in double, rounded once per output
 * element, for every float dtype (osc_nc_get and osc_nc_set). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loss.h"
#include "ops/norm/norm_common.h"

OSC_KERNEL_DECLARE(osc_loss)

enum { RED_NONE, RED_SUM, RED_MEAN };

typedef struct loss_params {
    int32_t reduction;
    bool sce;
    bool has_ignore; /* attribute ignore_index given */
    int64_t ignore;
    const char *const *names, *const *out_names;
} loss_params;

static const char *const k_nll_names[3] = {"input", "target", "weight"};
static const char *const k_sce_names[3] = {"scores", "labels", "weights"};
static const char *const k_nll_out[1] = {"loss"};
static const char *const k_sce_out[2] = {"output", "log_prob"};

osc_status osc_loss_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"ignore_index", "reduction", NULL};
    static const char *const k_red[3] = {"none", "sum", "mean"};
    const int32_t op = k->row->variant;
    if (op < OSC_LOSS_NLL || op >= OSC_LOSS_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no NegativeLogLikelihoodLoss or "
                         "SoftmaxCrossEntropyLoss (variant %d)", (int)op);
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    loss_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    const char *red;
    st = osc_attr_str(k, node, "reduction", "mean", &red);
    if (!st) st = osc_attr_int(k, node, "ignore_index", 0, &p->ignore);
    if (st) return st;
    p->reduction = -1;
    for (int32_t r = 0; r < 3; r++)
        if (strcmp(red, k_red[r]) == 0) p->reduction = r;
    if (p->reduction < 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'reduction' = '%s'; allowed: 'none', "
                         "'sum' or 'mean'", red);
    p->has_ignore = osc_node_attr(node, "ignore_index") != NULL;
    p->sce = op == OSC_LOSS_SCE;
    p->names = p->sce ? k_sce_names : k_nll_names;
    p->out_names = p->sce ? k_sce_out : k_nll_out;
    *params = p;
    return OSC_OK;
}

/* Shape facts of a validated node: n samples of c classes, each spread over d positions. */
typedef struct loss_geom {
    int64_t n, c, d;
} loss_geom;

/* Fails unless target (input 1) is [N, d1, ..., dk] of input 0 [N, C, d1, ..., dk]. */
static osc_status check_target(osc_kctx *k, const osc_tensor *x, const osc_tensor *t) {
    const loss_params *p = k->params;
    bool ok = t->rank == x->rank - 1 && t->dims[0] == x->dims[0];
    for (int32_t d = 1; ok && d < t->rank; d++) ok = t->dims[d] == x->dims[d + 1];
    if (ok) return OSC_OK;
    char a[256], b[256], want[256];
    osc_tensor w = {.rank = x->rank - 1};
    w.dims[0] = x->dims[0];
    memcpy(&w.dims[1], &x->dims[2], (size_t)(x->rank - 2) * sizeof w.dims[0]);
    return osc_kfail(k, OSC_ERR_SHAPE, "input 1 '%s' (%s) has shape %s; input 0 '%s' %s needs "
                     "%s (input 0's dims without dim 1, the classes)", p->names[1],
                     osc_kinput_name(k, 1), osc_shape_str(t, a, sizeof a), p->names[0],
                     osc_shape_str(x, b, sizeof b), osc_shape_str(&w, want, sizeof want));
}

/* infer's and run's checks; want[0..1] get the outputs' dtypes and shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, loss_geom *g) {
    const loss_params *p = k->params;
    char a[256], b[256];
    const bool has_w = n_in > 2 && in[2];
    int64_t count, tcount;
    osc_status st = osc_need_input(k, in, n_in, 0, p->names[0]);
    if (!st) st = osc_need_input(k, in, n_in, 1, p->names[1]);
    if (!st && has_w) st = osc_need_input(k, in, n_in, 2, p->names[2]);
    if (!st) st = osc_ew_check_type(k, 0, p->names[0], in[0], osc_kernel_types(k->row, 0));
    if (!st) st = osc_ew_check_type(k, 1, p->names[1], in[1], osc_kernel_types(k->row, 1));
    if (!st && has_w) st = osc_check_same_dtype(k, 0, p->names[0], in[0], 2, p->names[2], in[2]);
    if (!st) st = osc_check_count(k, 0, p->names[0], in[0], &count);
    if (!st) st = osc_check_count(k, 1, p->names[1], in[1], &tcount);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (x->rank < 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 '%s' (%s) has shape %s; it needs rank >= 2 "
                         "(N x C x d1 x ... x dk)", p->names[0], osc_kinput_name(k, 0),
                         osc_shape_str(x, a, sizeof a));
    st = check_target(k, x, in[1]);
    if (st) return st;
    g->n = x->dims[0];
    g->c = x->dims[1];
    g->d = tcount ? osc_nc_span(in[1], 1, in[1]->rank) : 0;
    if (has_w && (in[2]->rank != 1 || in[2]->dims[0] != g->c))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 '%s' (%s) has shape %s; input 0 %s needs "
                         "shape [%lld] (one weight per class, dim 1)", p->names[2],
                         osc_kinput_name(k, 2), osc_shape_str(in[2], a, sizeof a),
                         osc_shape_str(x, b, sizeof b), (long long)g->c);
    memset(want, 0, 2 * sizeof *want);
    if (p->reduction == RED_NONE) osc_same_shape(&want[0], in[1]);
    want[0].dtype = x->dtype;
    osc_same_shape(&want[1], x);
    return OSC_OK;
}

osc_status osc_loss_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_tensor want[2];
    loss_geom g;
    const loss_params *p = k->params;
    osc_status st = osc_infer_out0(k, validate(k, in, n_in, want, &g), &want[0], out, n_out);
    if (!st && p->sce && n_out > 1) osc_same_shape(&out[1], &want[1]);
    return st;
}

/* Fails (OSC_ERR_INDEX) at the first target that is neither in [0, C) nor ignore_index, naming
 * its coordinates in input 1. */
static osc_status check_targets(osc_kctx *k, const osc_tensor *t, int64_t c) {
    const loss_params *p = k->params;
    const int64_t n = osc_tensor_count(t);
    for (int64_t i = 0; i < n; i++) {
        const int64_t v = osc_index_at(t, i);
        if ((v >= 0 && v < c) || (p->has_ignore && v == p->ignore)) continue;
        char at[OSC_MAX_RANK * 21 + 3], ign[64] = "";
        int len = snprintf(at, sizeof at, "[");
        for (int32_t d = 0; d < t->rank; d++)
            len += snprintf(at + len, sizeof at - (size_t)len, "%s%lld", d ? "," : "",
                            (long long)(i / osc_nc_span(t, d + 1, t->rank) % t->dims[d]));
        snprintf(at + len, sizeof at - (size_t)len, "]");
        if (p->has_ignore)
            snprintf(ign, sizeof ign, " or ignore_index %lld", (long long)p->ignore);
        return osc_kfail(k, OSC_ERR_INDEX, "input 1 '%s' (%s) at %s: value %lld is out of range "
                         "[0, %lld]%s (input 0 has C = %lld classes, dim 1)", p->names[1],
                         osc_kinput_name(k, 1), at, (long long)v, (long long)(c - 1), ign,
                         (long long)c);
    }
    return OSC_OK;
}

/* SCE: the log of the sum of exp over a sample's C scores at x[base + j * d], computed as
 * max + log(sum exp(x - max)); NaN when a score is NaN, or when the largest is infinite (as
 * the reference's exp(x - max) gives). */
static double log_sum_exp(const osc_tensor *x, int64_t base, int64_t c, int64_t d) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < c; j++) {
        const double v = osc_nc_get(x, base + j * d);
        if (v > mx || v != v) mx = v;
    }
    for (int64_t j = 0; j < c; j++) sum += exp(osc_nc_get(x, base + j * d) - mx);
    return mx + log(sum);
}

osc_status osc_loss_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    const loss_params *p = k->params;
    osc_tensor want[2];
    loss_geom g;
    osc_status st = validate(k, in, n_in, want, &g);
    if (st) return st;
    const osc_tensor *x = in[0], *t = in[1], *w = n_in > 2 ? in[2] : NULL;
    const bool log_prob = p->sce && n_out > 1;
    for (int32_t i = 0; i < (w ? 3 : 2) && !st; i++)
        st = osc_check_buffer(k, "input", i, p->names[i], in[i]);
    for (int32_t j = 0; j < (log_prob ? 2 : 1) && !st; j++)
        st = osc_nc_check_out(k, out, n_out, j, p->out_names[j], &want[j]);
    if (!st) st = check_targets(k, t, g.c);
    if (st) return st;
    double sum = 0, wsum = 0;
    for (int64_t i = 0; i < g.n * g.d; i++) {
        const int64_t base = i / g.d * g.c * g.d + i % g.d, c = osc_index_at(t, i);
        const bool kept = !(p->has_ignore && c == p->ignore); /* else c is in [0, C) */
        const double lse = p->sce && (kept || log_prob) ? log_sum_exp(x, base, g.c, g.d) : 0;
        if (log_prob)
            for (int64_t j = 0; j < g.c; j++)
                osc_nc_set(&out[1], base + j * g.d, osc_nc_get(x, base + j * g.d) - lse);
        double loss = 0, wt = 0;
        if (kept) {
            wt = w ? osc_nc_get(w, c) : 1;
            loss = -(osc_nc_get(x, base + c * g.d) - lse) * wt;
        }
        if (p->reduction == RED_NONE) osc_nc_set(&out[0], i, loss);
        sum += loss, wsum += wt;
    }
    if (p->reduction != RED_NONE)
        osc_nc_set(&out[0], 0, p->reduction == RED_SUM ? sum : sum / wsum);
    return OSC_OK;
}
