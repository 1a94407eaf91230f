/* pool_global.c: GlobalMaxPool, GlobalAveragePool and GlobalLpPool: each (n, c) plane of X
 * reduced whole, in one pass over its contiguous elements, to Y of shape [N, C, 1, ...]. Max
 * ignores NaN; the sums are in the compute type (float for the halves) over eight interleaved
 * partial sums, the result rounded once. A plane of no element gives -inf, NaN (0 / 0) and 0. */
#include <math.h>
#include <string.h>

#include "ops/norm/norm_common.h"
#include "pool.h"

OSC_KERNEL_DECLARE(osc_gpool)

osc_status osc_gpool_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const none[] = {NULL}, *const lp[] = {"p", NULL};
    const int32_t op = k->row->variant;
    if (op < OSC_POOL_MAX || op >= OSC_POOL_END)
        return osc_kfail(k, OSC_ERR_MODEL, "row has no pooling operation (.variant %d)",
                         (int)op);
    osc_status st = osc_attr_known(k, node, op == OSC_POOL_LP ? lp : none);
    osc_pl_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (st || !p) return st ? st : k->err->status;
    p->op = op;
    if (op == OSC_POOL_LP && (st = osc_pl_attr_p(k, node, &p->p))) return st;
    *params = p;
    return OSC_OK;
}

/* X of the row's dtypes and rank >= 2; want: its shape with every spatial axis 1. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    osc_status st = osc_pl_check_x(k, in, n_in, 2);
    if (st) return st;
    osc_same_shape(want, in[0]);
    for (int32_t d = 2; d < want->rank; d++) want->dims[d] = 1;
    char s[256];
    if (osc_tensor_count(want) < 0) /* X has no element: a zero spatial axis */
        return osc_kfail(k, OSC_ERR_LIMIT, "the output %s would have more than 2^63-1 "
                         "elements", osc_shape_str(want, s, sizeof s));
    return OSC_OK;
}

OSC_INFER_OUT0(osc_gpool, validate)

/* Eight partial results over elements i = l mod 8, then combined pairwise: independent
 * chains the compiler vectorises, the same order on every run. STEP(a, v) folds v into a,
 * COMB(a, b) joins two. */
#define GPOOL_LANES(ct, CLS, x, n, init, STEP, COMB, out)                                     \
    do {                                                                                      \
        ct l_[8] = {init, init, init, init, init, init, init, init};                          \
        int64_t i_ = 0;                                                                       \
        for (; i_ + 8 <= (n); i_ += 8)                                                        \
            for (int u_ = 0; u_ < 8; u_++) {                                                  \
                const ct v = (ct)OSC_PL_WIDEN_##CLS((x)[i_ + u_]);                            \
                l_[u_] = STEP(l_[u_], v);                                                     \
            }                                                                                 \
        for (; i_ < (n); i_++) {                                                              \
            const ct v = (ct)OSC_PL_WIDEN_##CLS((x)[i_]);                                     \
            l_[0] = STEP(l_[0], v);                                                           \
        }                                                                                     \
        const ct a_ = COMB(COMB(l_[0], l_[1]), COMB(l_[2], l_[3]));                           \
        const ct b_ = COMB(COMB(l_[4], l_[5]), COMB(l_[6], l_[7]));                           \
        (out) = COMB(a_, b_);                                                                 \
    } while (0)
#define GP_MAX(a, v) ((v) > (a) ? (v) : (a))
#define GP_ADD(a, v) ((a) + (v))
#define GP_SQ(a, v) ((a) + (v) * (v))

#define GPOOL_LOOP(E, T, CLS)                                                                 \
    static void gpool_##E(const osc_pl_params *p, const void *xv, void *yv, int64_t planes,   \
                          int64_t n) {                                                        \
        typedef OSC_PL_CT_##CLS(T) ct;                                                        \
        const T *x = xv;                                                                      \
        T *y = yv;                                                                            \
        for (int64_t pl = 0; pl < planes; pl++, x += n) {                                     \
            ct acc = 0;                                                                       \
            if (p->op == OSC_POOL_MAX) {                                                      \
                GPOOL_LANES(ct, CLS, x, n, OSC_PL_LOWEST_##CLS(T), GP_MAX, GP_MAX, acc);          \
            } else if (p->op == OSC_POOL_AVG) {                                               \
                GPOOL_LANES(ct, CLS, x, n, 0, GP_ADD, GP_ADD, acc);                               \
                acc /= (ct)n;                                                                 \
            } else if (p->p == 2) {                                                           \
                ct sq;                                                                        \
                GPOOL_LANES(ct, CLS, x, n, 0, GP_SQ, GP_ADD, sq);                                 \
                acc = (ct)sqrt((double)sq);                                                   \
            } else {                                                                          \
                for (int64_t i = 0; i < n; i++)                                               \
                    acc += (ct)pow(fabs((double)OSC_PL_WIDEN_##CLS(x[i])), p->p);             \
                acc = p->p == 1 ? acc : (ct)pow((double)acc, 1.0 / p->p);                     \
            }                                                                                 \
            y[pl] = OSC_PL_NARROW_##CLS(T, acc);                                              \
        }                                                                                     \
    }
#define GPOOL_TYPES(X) OSC_FLOAT_TYPES(X)
GPOOL_TYPES(GPOOL_LOOP)
typedef void (*gpool_loop)(const osc_pl_params *p, const void *x, void *y, int64_t planes,
                           int64_t n);
#define GPOOL_ENTRY(E, T, CLS) [E] = gpool_##E,
static const gpool_loop k_loops[OSC_DTYPE_COUNT] = {GPOOL_TYPES(GPOOL_ENTRY)};

osc_status osc_gpool_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_check_buffer(k, "input", 0, "X", in[0]);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "Y", &want);
    if (st || osc_tensor_count(&want) == 0) return st;
    const osc_tensor *x = in[0];
    k_loops[x->dtype](k->params, x->data, out[0].data, x->dims[0] * x->dims[1],
                      osc_nc_span(x, 2, x->rank));
    return OSC_OK;
}
