/* matmul_add.c: MatMulAdd (domain "osc", made only by the rewrite: rule matmul_add), S + A * B
 * for Add(MatMul(A, B), S) or Add(S, MatMul(A, B)) whose product nothing else reads, S shaped
 * like the product: inputs 0 S, 1 A (rank >= 2, float or double), 2 B (K x N). The kernel adds
 * S as it stores each sum (gemm_kernel.h: y = sum + s, the bits of the Add: IEEE addition is
 * commutative), so the product's buffer and the Add's pass go; the output may take S's buffer
 * (OSC_KF_INPLACE_SAME: a residual sum written over its addend). */
#include <string.h>

#include "core/kattr.h"
#include "gemm_kernel.h"
#include "ops/elementwise/ew_common.h"
#include "linalg.h"

OSC_KERNEL_DECLARE(osc_matmul_add)

osc_status osc_matmul_add_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)node;
    const osc_mm_params *p = *params;
    if (!p || p->prod.size != sizeof *p || p->prod.trans_a || p->prod.bn)
        return osc_kfail(k, OSC_ERR_MODEL, "a MatMulAdd node is made only by the load-time "
                         "rewrite, from a MatMul and the Add reading it");
    return OSC_OK;
}

static const char *const k_what[3] = {"S", "A", "B"};

/* The output's shape: S's, A's dims but the last, then N. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    for (int32_t i = 0; i < 3; i++) {
        osc_status st = osc_need_input(k, in, n_in, i, k_what[i]);
        if (st) return st;
    }
    const osc_tensor *s = in[0], *a = in[1], *b = in[2];
    char ss[160], sa[160], sb[160];
    if (a->dtype != s->dtype || b->dtype != s->dtype ||
        (s->dtype != OSC_FLOAT && s->dtype != OSC_DOUBLE))
        return osc_kfail(k, OSC_ERR_SHAPE, "inputs 0 'S' (%s), 1 'A' (%s) and 2 'B' (%s) are %s, "
                         "%s and %s; MatMulAdd takes one dtype, float or double",
                         osc_kinput_name(k, 0), osc_kinput_name(k, 1), osc_kinput_name(k, 2),
                         osc_dtype_get(s->dtype)->name, osc_dtype_get(a->dtype)->name,
                         osc_dtype_get(b->dtype)->name);
    bool ok = a->rank >= 2 && b->rank == 2 && a->dims[a->rank - 1] == b->dims[0] &&
              s->rank == a->rank && s->dims[s->rank - 1] == b->dims[1];
    for (int32_t d = 0; ok && d < a->rank - 1; d++) ok = s->dims[d] == a->dims[d];
    if (!ok)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'S' (%s) has shape %s, input 1 'A' (%s) %s "
                         "and input 2 'B' (%s) %s; MatMulAdd takes A of rank >= 2 times a K x N "
                         "B, and S shaped like their product (A's dims but the last, then N)",
                         osc_kinput_name(k, 0), osc_shape_str(s, ss, sizeof ss),
                         osc_kinput_name(k, 1), osc_shape_str(a, sa, sizeof sa),
                         osc_kinput_name(k, 2), osc_shape_str(b, sb, sizeof sb));
    memset(want, 0, sizeof *want);
    want->dtype = s->dtype;
    want->rank = s->rank;
    memcpy(want->dims, s->dims, (size_t)s->rank * sizeof s->dims[0]);
    return OSC_OK;
}

OSC_INFER_OUT0(osc_matmul_add, validate)

osc_status osc_matmul_add_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, 3, k_what, out, n_out, &want);
    if (st || osc_tensor_count(out) == 0) return st;
    const osc_tensor *s = in[0], *a = in[1], *b = in[2];
    const int64_t kk = b->dims[0], n = b->dims[1], m = osc_tensor_count(s) / n; /* (n > 0) */
    osc_gemm_mem mem;
    osc_gemm_ops o;
    if ((st = osc_gemm_operands(k, a, b, s, out, n, kk, &mem, &o))) return st;
    /* Validation is complete: from here on the output is written. */
    const osc_mm_params *p = k->params;
    const osc_gemm_args ga = {.m = m, .n = n, .k = kk, .a = o.a, .ars = kk, .acs = 1,
                              .b = o.b, .brs = n, .bcs = 1, .y = o.y, .ldy = n,
                              .c = s->data, .c_rs = n, .relu = p->prod.relu};
    osc_gemm_par(k, osc_gemm_get(o.ct), o.ct, &ga, &mem);
    osc_gemm_mem_put(k, &mem);
    return OSC_OK;
}
