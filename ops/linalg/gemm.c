/* gemm.c: Gemm-1, 6, 7, 9, 11, 13: Y = alpha * A' * B' + beta * C, A' = transpose(A) when
 * transA is non-zero (likewise B), A' M x K, B' K x N, C unidirectionally broadcast to (M, N)
 * (before 7 only with the attribute broadcast set, else C is exactly (M, N); from 11 C is
 * optional and absent means 0). The product runs in the blocked kernel of gemm_kernel.c with
 * the transposes read through strides; then one pass per element computes
 * (alpha * product) + (beta * c) in the compute type (float for float16/bfloat16, rounded once
 * per element). float and double with alpha = beta = 1 and C read along rows (a Linear
 * layer): the kernel adds C as it stores the sums, the same bits without the pass. C is not
 * read when beta is 0, as in the ONNX reference. Integer dtypes wrap modulo 2^bits and need
 * whole-number alpha and beta. */
#include <math.h>
#include <string.h>

#include "ops/elementwise/ew_common.h"
#include "gemm_kernel.h"
#include "linalg.h"
#include "prod_bn.h"

OSC_KERNEL_DECLARE(osc_gemm)

static const char *const k_what[3] = {"A", "B", "C"};


osc_status osc_gemm_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_v1[] = {"alpha", "beta", "broadcast", "transA", "transB", NULL};
    static const char *const k_v7[] = {"alpha", "beta", "transA", "transB", NULL};
    const bool old = k->since_version < 7;
    osc_status st = osc_attr_known(k, node, old ? k_v1 : k_v7);
    double alpha = 1, beta = 1;
    int64_t ta = 0, tb = 0, bc = 1;
    if (!st) st = osc_attr_float(k, node, "alpha", 1.0, &alpha);
    if (!st) st = osc_attr_float(k, node, "beta", 1.0, &beta);
    if (!st) st = osc_attr_int(k, node, "transA", 0, &ta);
    if (!st) st = osc_attr_int(k, node, "transB", 0, &tb);
    if (!st && old) st = osc_attr_int(k, node, "broadcast", 0, &bc);
    if (st) return st;
    osc_gemm_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->alpha = (float)alpha; /* a float attribute: exact */
    p->beta = (float)beta;
    p->prod.trans_a = ta != 0; /* "transposed if transA is non-zero" (every version's text) */
    p->trans_b = tb != 0;
    p->broadcast = bc != 0;
    p->c_optional = k->since_version >= 11;
    p->types = osc_kernel_types(k->row, 0);
    p->prod.size = sizeof *p;
    *params = p;
    return OSC_OK;
}

/* What validate works out for run. */
typedef struct gm_geom {
    int64_t m, n, kk;
    const osc_tensor *c;   /* NULL: absent */
    int64_t c_rs, c_cs;    /* C's element strides along M and N (0 where it broadcasts) */
    int64_t ialpha, ibeta; /* integer dtypes: alpha and beta as integers */
} gm_geom;

/* Integer dtypes: v must be a whole number in int64's range. */
static osc_status whole(osc_kctx *k, const char *name, float v, int32_t dtype, int64_t *out) {
    if (!(v == floorf(v) && fabsf(v) < 9.2233720e18f))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "attribute '%s' = %g is not a whole number; "
                         "with integer inputs (dtype %s) Gemm needs whole-number alpha and beta "
                         "(|value| < 2^63)", name, (double)v, osc_dtype_get(dtype)->name);
    *out = (int64_t)v;
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, gm_geom *g) {
    const osc_gemm_params *p = k->params;
    char sa[256], sb[256];
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 2 && !st; i++) st = osc_need_input(k, in, n_in, i, k_what[i]);
    const bool has_c = n_in > 2 && in[2];
    if (!st && (has_c || !p->c_optional)) st = osc_need_input(k, in, n_in, 2, "C");
    if (!st) st = osc_ew_check_type(k, 0, "A", in[0], p->types);
    if (!st) st = osc_check_same_dtype(k, 0, "A", in[0], 1, "B", in[1]);
    if (!st && has_c) st = osc_check_same_dtype(k, 0, "A", in[0], 2, "C", in[2]);
    if (st) return st;
    const osc_tensor *a = in[0], *b = in[1];
    for (int32_t i = 0; i < 2; i++)
        if (in[i]->rank != 2)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; Gemm needs a "
                             "matrix (rank 2)", (int)i, k_what[i], osc_kinput_name(k, i),
                             osc_shape_str(in[i], sa, sizeof sa));
    memset(g, 0, sizeof *g);
    g->m = a->dims[p->prod.trans_a ? 1 : 0];
    g->kk = a->dims[p->prod.trans_a ? 0 : 1];
    g->n = b->dims[p->trans_b ? 0 : 1];
    const int64_t bk = b->dims[p->trans_b ? 1 : 0];
    if (g->kk != bk)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'A' (%s) has shape %s (transA=%d: K = %lld) "
                         "and input 1 'B' (%s) has shape %s (transB=%d: K = %lld); the "
                         "contracted sizes must be equal", osc_kinput_name(k, 0),
                         osc_shape_str(a, sa, sizeof sa), (int)p->prod.trans_a, (long long)g->kk,
                         osc_kinput_name(k, 1), osc_shape_str(b, sb, sizeof sb),
                         (int)p->trans_b, (long long)bk);
    memset(want, 0, sizeof *want);
    want->dtype = a->dtype;
    want->rank = 2;
    want->dims[0] = g->m;
    want->dims[1] = g->n;
    if (osc_dims_prod(want->dims, 2) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output %s has more than 2^63-1 elements",
                         osc_shape_str(want, sa, sizeof sa));
    if (has_c) {
        const osc_tensor *c = in[2];
        bool ok = c->rank <= 2;
        for (int32_t d = 0; ok && d < c->rank; d++) {
            const int64_t t = want->dims[2 - c->rank + d];
            ok = c->dims[d] == t || (p->broadcast && c->dims[d] == 1);
        }
        if (!p->broadcast && c->rank != 2) ok = false;
        if (!ok)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'C' (%s) has shape %s, which %s the "
                             "output shape %s (M x N)%s", osc_kinput_name(k, 2),
                             osc_shape_str(c, sa, sizeof sa),
                             p->broadcast ? "does not broadcast unidirectionally to" : "is not",
                             osc_shape_str(want, sb, sizeof sb),
                             p->broadcast ? ": C needs rank <= 2 and each dim equal to the "
                                            "output's (aligned from the right) or 1"
                                          : "; attribute 'broadcast' is 0, so C must be exactly "
                                            "(M, N)");
        g->c = c;
        g->c_cs = c->rank >= 1 && c->dims[c->rank - 1] != 1 ? 1 : 0;
        g->c_rs = c->rank == 2 && c->dims[0] != 1 ? c->dims[1] : 0;
    }
    if (OSC_TS_INT & OSC_TS(a->dtype)) {
        st = whole(k, "alpha", p->alpha, a->dtype, &g->ialpha);
        if (!st) st = whole(k, "beta", p->beta, a->dtype, &g->ibeta);
    }
    return st;
}

OSC_INFER_OUT0_AUX(osc_gemm, validate, gm_geom)

/* ---- The epilogue y = (alpha * acc) + (beta * c), per dtype class from OSC_REAL_TYPES.
 * acc is the product in the compute type (float for the half types, else T); it may be y. ---- */
typedef struct gm_epi {
    const void *acc;
    void *y;
    const void *c; /* NULL: no C term (absent, or beta == 0) */
    int64_t m, n, c_rs, c_cs;
    double alpha, beta;
    int64_t ialpha, ibeta;
    bool relu; /* float types: then Relu (p->prod.relu) */
} gm_epi;

#define EPI_LOOP(AT, CT, Y_OF, C_OF)                                                           \
    const AT *acc = e->acc;                                                                    \
    const CT al = (CT)e->alpha, be = (CT)e->beta;                                              \
    for (int64_t i = 0; i < e->m; i++)                                                         \
        for (int64_t j = 0; j < e->n; j++) {                                                   \
            const int64_t o = i * e->n + j;                                                    \
            const CT v = al * (CT)acc[o];                                                      \
            const CT r = c ? v + be * C_OF(c[i * e->c_rs + j * e->c_cs]) : v;                  \
            y[o] = Y_OF(e->relu && r < 0 ? (CT)0 : r);                                         \
        }
#define ID(x) (x)
#define EPI_FLOAT(E, T)                                                                        \
    static void epi_##E(const gm_epi *e) {                                                     \
        T *y = e->y;                                                                           \
        const T *c = e->c;                                                                     \
        EPI_LOOP(T, T, ID, ID)                                                                 \
    }
#define EPI_HALF(E, T, WIDEN, NARROW)                                                          \
    static void epi_##E(const gm_epi *e) {                                                     \
        T *y = e->y;                                                                           \
        const T *c = e->c;                                                                     \
        EPI_LOOP(float, float, NARROW, WIDEN)                                                  \
    }
#define EPI_F16(E, T) EPI_HALF(E, T, osc_f16_to_f32, osc_f32_to_f16)
#define EPI_BF16(E, T) EPI_HALF(E, T, osc_bf16_to_f32, osc_f32_to_bf16)
/* integers: in uint64_t, wrapping, truncated to T */
#define EPI_SINT(E, T)                                                                         \
    static void epi_##E(const gm_epi *e) {                                                     \
        T *y = e->y;                                                                           \
        const T *c = e->c, *acc = e->acc;                                                      \
        const uint64_t al = (uint64_t)e->ialpha, be = (uint64_t)e->ibeta;                      \
        for (int64_t i = 0; i < e->m; i++)                                                     \
            for (int64_t j = 0; j < e->n; j++) {                                               \
                const int64_t o = i * e->n + j;                                                \
                uint64_t v = al * (uint64_t)acc[o];                                            \
                if (c) v += be * (uint64_t)c[i * e->c_rs + j * e->c_cs];                       \
                y[o] = (T)v;                                                                   \
            }                                                                                  \
    }
#define EPI_UINT EPI_SINT
#define EPI(E, T, CLS) EPI_##CLS(E, T)
OSC_REAL_TYPES(EPI)

static void epilogue(int32_t dtype, const gm_epi *e) {
#define CASE(E, T, CLS) \
    case E: epi_##E(e); break;
    switch (dtype) {
        OSC_REAL_TYPES(CASE)
        default: break;
    }
#undef CASE
}

osc_status osc_gemm_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    const osc_gemm_params *p = k->params;
    osc_tensor want;
    gm_geom g;
    osc_status st = validate(k, in, n_in, &want, &g);
    if (!st) st = osc_ew_check_io(k, in, 2, k_what, out, n_out, &want);
    if (!st && g.c) st = osc_check_buffer(k, "input", 2, "C", g.c);
    if (st) return st;
    const int64_t count = osc_tensor_count(out);
    if (count == 0) return OSC_OK;
    const osc_tensor *a = in[0];
    osc_prod_bn bn;
    if ((st = osc_prod_bn_prepare(k, &p->prod, in, n_in, g.n, &bn))) return st;
    osc_gemm_mem mem;
    osc_gemm_ops o;
    st = osc_gemm_operands(k, a, in[1], g.c, out, g.n, g.kk, &mem, &o);
    /* Y over a transposed A (in place, M == K == N): Y's rows are not A's, A is copied first */
    const size_t ab = a->nbytes;
    const bool over_a = !st && p->prod.trans_a && !o.half && ab && out->data &&
                        (const char *)out->data < (const char *)a->data + ab &&
                        (const char *)a->data < (const char *)out->data + out->nbytes;
    void *a_copy = over_a ? osc_malloc(k->alloc, ab) : NULL;
    if (over_a && !a_copy) {
        osc_gemm_mem_put(k, &mem);
        st = osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes for a copy of input 0 'A' "
                       "(%s), whose buffer the output takes", ab, osc_kinput_name(k, 0));
    }
    if (st) {
        osc_prod_bn_free(k, &bn);
        return st;
    }
    if (a_copy) o.a = memcpy(a_copy, a->data, ab);
    /* Validation is complete: from here on the output is written. */
    const bool half = o.half;
    const void *av = o.a, *bv = o.b;
    void *yv = o.y;
    /* A is stored M x K, or K x M when transposed; B K x N, or N x K */
    const bool c_term = g.c && p->beta != 0;
    /* float and double with alpha = beta = 1 and C read along rows (Linear layers): the
     * kernel adds C as it stores the sums, the bits of 1 * acc + 1 * c */
    const bool c_in_kernel = c_term && !half && p->alpha == 1 && p->beta == 1 && g.c_cs == 1 &&
                             (a->dtype == OSC_FLOAT || a->dtype == OSC_DOUBLE);
    osc_gemm_args ga = {
        .m = g.m, .n = g.n, .k = g.kk,
        .a = av, .ars = p->prod.trans_a ? 1 : g.kk, .acs = p->prod.trans_a ? g.m : 1,
        .b = bv, .brs = p->trans_b ? 1 : g.n, .bcs = p->trans_b ? g.kk : 1,
        .y = yv, .ldy = g.n,
        .c = c_in_kernel ? g.c->data : NULL, .c_rs = g.c_rs};
    const bool epi = half || (c_term && !c_in_kernel) || p->alpha != 1;
    const bool relu = p->prod.relu && !bn.m; /* (a normalisation: the Relu after it) */
    ga.relu = relu && !epi;
    osc_gemm_par(k, osc_gemm_get(o.ct), o.ct, &ga, &mem);
    if (epi) {
        const gm_epi e = {.acc = yv, .y = out->data, .c = c_term ? g.c->data : NULL, .m = g.m,
                          .n = g.n, .c_rs = g.c_rs, .c_cs = g.c_cs, .alpha = p->alpha,
                          .beta = p->beta, .ialpha = g.ialpha, .ibeta = g.ibeta, .relu = relu};
        epilogue(a->dtype, &e);
    }
    if (bn.m) osc_prod_bn_cols(k, a->dtype, out->data, g.m, g.n, &bn, p->prod.relu);
    osc_prod_bn_free(k, &bn);
    osc_gemm_mem_put(k, &mem);
    if (a_copy) osc_free(k->alloc, a_copy, ab);
    return OSC_OK;
}
