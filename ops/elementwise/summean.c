/* summean.c: Sum and Mean (variadic, 1..N inputs): versions 1 and 6 need equal shapes, 8+
 * broadcast. Each output element is data_0 + data_1 + ... in input order, in float for
 * float/float16/bfloat16 and in double for double, divided by N for Mean, then rounded once to
 * the dtype (float16/bfloat16: one rounding, not one per input). Loops are generated from the
 * X-macro class lists of core/dtype.h. */
#include "ew_ops.h"
#include "math_common.h"
#include "variadic.h"

OSC_KERNEL_DECLARE(osc_summean)

/* The output is walked in chunks of CHUNK elements, each summed in a local accumulator: input
 * after input, over the chunk's part of the broadcast. */
#define CHUNK 512

typedef struct sm_job {
    const osc_tensor *const *in;
    int32_t n_in;
    const osc_tensor *out;
    bool mean;
    int64_t count;
} sm_job;

typedef void (*sm_loop)(const sm_job *j, int64_t lo, int64_t hi);

/* Output elements [lo, hi). The first input is assigned, not added, so that Sum of one input
 * is that input (-0 stays -0). */
#define DEF_SM(E, T, CLS)                                                                  \
    static void sm_##E(const sm_job *j, int64_t lo, int64_t hi) {                          \
        typedef OSC_MCT_##CLS(T) ct;                                                       \
        ct acc[CHUNK];                                                                     \
        T *o = j->out->data;                                                               \
        for (int64_t s = lo; s < hi; s += CHUNK) {                                         \
            const int64_t e = hi - s < CHUNK ? hi : s + CHUNK;                             \
            for (int32_t i = 0; i < j->n_in; i++) {                                        \
                osc_bcast_it it;                                                           \
                osc_bcast_begin(&it, j->out, 1, &j->in[i]);                                \
                osc_bcast_range(&it, s, e);                                                \
                do {                                                                       \
                    const T *p = (const T *)j->in[i]->data + it.off[0];                    \
                    ct *a = acc + (it.out_off - s);                                        \
                    const int64_t st = it.step[0], len = it.len;                           \
                    if (i == 0)                                                            \
                        for (int64_t q = 0; q < len; q++) a[q] = OSC_MWIDEN_##CLS(p[q * st]);  \
                    else                                                                   \
                        for (int64_t q = 0; q < len; q++) a[q] += OSC_MWIDEN_##CLS(p[q * st]); \
                } while (osc_bcast_next(&it));                                             \
            }                                                                              \
            const ct n = (ct)j->n_in;                                                      \
            for (int64_t q = 0; q < e - s; q++)                                            \
                o[s + q] = OSC_MNARROW_##CLS(j->mean ? acc[q] / n : acc[q]);               \
        }                                                                                  \
    }
#define SM_ENTRY(E, T, CLS) [E] = sm_##E,
OSC_FLOAT_TYPES(DEF_SM)
static const sm_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(SM_ENTRY)};

osc_status osc_summean_init(osc_kctx *k, const osc_node *node, void **params) {
    return osc_variadic_init(k, node, OSC_SUMMEAN_SUM, OSC_SUMMEAN_END, params);
}

/* every dtype the checks pass, a float type, has a loop */
OSC_INFER_OUT0(osc_summean, osc_variadic_shape)

typedef struct sm_task {
    const sm_job *job;
    sm_loop loop;
} sm_task;

static void sm_part(void *ctx, int32_t part, int32_t parts) {
    const sm_task *t = ctx;
    int64_t lo, hi;
    osc_par_range(t->job->count, 16, part, parts, &lo, &hi);
    if (lo < hi) t->loop(t->job, lo, hi);
}

osc_status osc_summean_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    const osc_variadic_params *p = k->params;
    osc_tensor want;
    osc_status st = osc_variadic_shape(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, n_in, NULL, out, n_out, &want);
    if (st) return st;
    const sm_job job = {in, n_in, out, p->op == OSC_SUMMEAN_MEAN, osc_tensor_count(out)};
    if (job.count == 0) return OSC_OK;
    sm_task task = {&job, k_loops[out->dtype]};
    osc_tpool_run(out->nbytes >= OSC_PAR_MIN_BYTES ? k->tpool : NULL, sm_part, &task);
    return OSC_OK;
}
