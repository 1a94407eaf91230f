/* matmul.c: MatMul-1, 9, 13: numpy.matmul. Inputs of rank >= 2 are stacks of matrices whose
 * batch dims (all but the last two) broadcast together; a 1-D A is a (1, K) row whose 1 is
 * dropped from the output, a 1-D B a (K, 1) column likewise (both 1-D: a scalar). The products
 * run in the blocked kernel of gemm_kernel.c; float16/bfloat16 are widened to float, multiplied
 * and summed in float, and rounded once per output element. */
#include <string.h>

#include "ops/elementwise/ew_common.h"
#include "gemm_kernel.h"
#include "linalg.h"

OSC_KERNEL_DECLARE(osc_matmul)

static const char *const k_what[2] = {"A", "B"};


osc_status osc_matmul_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL};
    osc_status st = osc_attr_known(k, node, k_none);
    if (st) return st;
    osc_mm_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->prod.size = sizeof *p;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

/* What validate works out for run: the matrix sizes, the output's batch dims and each input's
 * element stride per batch dim (0 where it broadcasts). */
typedef struct mm_geom {
    int64_t m, n, kk;
    int32_t brank;
    int64_t bdims[OSC_MAX_RANK];
    int64_t astr[OSC_MAX_RANK], bstr[OSC_MAX_RANK];
    int64_t batches, a_batches;
} mm_geom;

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, mm_geom *g) {
    const osc_mm_params *p = k->params;
    char sa[256], sb[256];
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 2 && !st; i++) st = osc_need_input(k, in, n_in, i, k_what[i]);
    if (!st) st = osc_ew_check_type(k, 0, "A", in[0], p->types);
    if (!st) st = osc_check_same_dtype(k, 0, "A", in[0], 1, "B", in[1]);
    if (st) return st;
    const osc_tensor *a = in[0], *b = in[1];
    for (int32_t i = 0; i < 2; i++)
        if (in[i]->rank < 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) is a scalar (shape []); "
                             "MatMul needs at least 1 dim (numpy.matmul refuses scalars)",
                             (int)i, k_what[i], osc_kinput_name(k, i));
    const bool a2 = a->rank >= 2, b2 = b->rank >= 2;
    const int64_t ak = a->dims[a->rank - 1], bk = b2 ? b->dims[b->rank - 2] : b->dims[0];
    if (ak != bk)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'A' (%s) has shape %s and input 1 'B' (%s) "
                         "has shape %s: A's last dim (%lld) must equal B's %s (%lld), the "
                         "contracted size", osc_kinput_name(k, 0), osc_shape_str(a, sa, sizeof sa),
                         osc_kinput_name(k, 1), osc_shape_str(b, sb, sizeof sb), (long long)ak,
                         b2 ? "second-to-last dim" : "only dim", (long long)bk);
    memset(g, 0, sizeof *g);
    g->m = a2 ? a->dims[a->rank - 2] : 1;
    g->kk = ak;
    g->n = b2 ? b->dims[b->rank - 1] : 1;
    const int32_t ra = a2 ? a->rank - 2 : 0, rb = b2 ? b->rank - 2 : 0;
    const int32_t r = ra > rb ? ra : rb;
    g->brank = r;
    /* Batch strides from the right; the products fit whenever the output has elements (each
     * factor is then a dim of a tensor with a valid count, or the product holds a 0). An empty
     * tensor's other dims may multiply past 2^63: such a stride is never used, 0 stands in. */
    int64_t s_a, s_b;
    if (!osc_mul_ok(g->m, g->kk, &s_a)) s_a = 0;
    if (!osc_mul_ok(g->kk, g->n, &s_b)) s_b = 0;
    g->batches = g->a_batches = 1;
    for (int32_t d = r - 1; d >= 0; d--) {
        const int32_t da = d - (r - ra), db = d - (r - rb);
        const int64_t x = da >= 0 ? a->dims[da] : 1, y = db >= 0 ? b->dims[db] : 1;
        if (x != y && x != 1 && y != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'A' (%s) has shape %s and input 1 'B' "
                             "(%s) has shape %s: their batch dims do not broadcast: size %lld vs "
                             "%lld in batch dim %d from the right (sizes must be equal or one of "
                             "them 1)", osc_kinput_name(k, 0), osc_shape_str(a, sa, sizeof sa),
                             osc_kinput_name(k, 1), osc_shape_str(b, sb, sizeof sb),
                             (long long)x, (long long)y, (int)(r - 1 - d));
        g->bdims[d] = x == 1 ? y : x;
        g->astr[d] = x == 1 ? 0 : s_a;
        g->bstr[d] = y == 1 ? 0 : s_b;
        if (!osc_mul_ok(s_a, x, &s_a)) s_a = 0;
        if (!osc_mul_ok(s_b, y, &s_b)) s_b = 0;
        if (!osc_mul_ok(g->batches, g->bdims[d], &g->batches)) g->batches = 0;
        if (!osc_mul_ok(g->a_batches, x, &g->a_batches)) g->a_batches = 0;
    }
    memset(want, 0, sizeof *want);
    want->dtype = a->dtype;
    memcpy(want->dims, g->bdims, (size_t)r * sizeof g->bdims[0]);
    want->rank = r;
    if (a2) want->dims[want->rank++] = g->m;
    if (b2) want->dims[want->rank++] = g->n;
    if (osc_dims_prod(want->dims, want->rank) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'A' (%s) shape %s times input 1 'B' (%s) "
                         "shape %s gives an output %s of more than 2^63-1 elements",
                         osc_kinput_name(k, 0), osc_shape_str(a, sa, sizeof sa),
                         osc_kinput_name(k, 1), osc_shape_str(b, sb, sizeof sb),
                         osc_dims_str(want->dims, want->rank, sa, sizeof sa));
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_matmul, validate, mm_geom)

osc_status osc_matmul_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    mm_geom g;
    osc_status st = validate(k, in, n_in, &want, &g);
    if (!st) st = osc_ew_check_io(k, in, 2, k_what, out, n_out, &want);
    if (st) return st;
    const int64_t count = osc_tensor_count(out);
    if (count == 0) return OSC_OK;
    const osc_tensor *a = in[0];
    osc_gemm_mem mem;
    osc_gemm_ops o;
    const osc_mm_params *p = k->params;
    st = osc_gemm_operands(k, a, in[1], NULL, out, g.n, g.kk, &mem, &o);
    if (st) return st;
    /* Validation is complete: from here on the output is written. */
    const int32_t ct = o.ct;
    const bool half = o.half;
    const size_t esz = osc_dtype_get(ct)->bits / 8;
    const void *av = o.a, *bv = o.b;
    void *yv = o.y;
    osc_gemm_fn fn = osc_gemm_get(ct);
    osc_gemm_args ga = {.m = g.m, .n = g.n, .k = g.kk, .a = av, .ars = g.kk, .acs = 1, .b = bv,
                        .brs = g.n, .bcs = 1, .y = yv, .ldy = g.n,
                        .relu = p->prod.relu && !half};
    bool b_shared = true;
    for (int32_t d = 0; d < g.brank; d++) b_shared = b_shared && g.bstr[d] == 0;
    if (b_shared && g.a_batches == g.batches) {
        /* one B for every matrix of A, which is then one tall (batches*M) x K matrix */
        ga.m = g.batches * g.m;
        osc_gemm_par(k, fn, ct, &ga, &mem);
    } else {
        int64_t c[OSC_MAX_RANK] = {0}, oa = 0, ob = 0;
        for (int64_t bi = 0; bi < g.batches; bi++) {
            ga.a = (const char *)av + (size_t)oa * esz;
            ga.b = (const char *)bv + (size_t)ob * esz;
            ga.y = (char *)yv + (size_t)(bi * g.m * g.n) * esz;
            osc_gemm_par(k, fn, ct, &ga, &mem); /* (Y may be A's buffer: in place) */
            for (int32_t d = g.brank - 1; d >= 0; d--) {
                oa += g.astr[d];
                ob += g.bstr[d];
                if (++c[d] < g.bdims[d]) break;
                oa -= g.astr[d] * g.bdims[d];
                ob -= g.bstr[d] * g.bdims[d];
                c[d] = 0;
            }
        }
    }
    if (half) osc_gemm_narrow(a->dtype, yv, out->data, count);
    osc_gemm_mem_put(k, &mem);
    return OSC_OK;
}
