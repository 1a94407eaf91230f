/* fused_syms.c: a fused node's symbolic sizes (fused.h), read from its inputs at run time. */
#include "fused.h"

osc_status osc_sym_resolve(osc_kctx *k, const osc_sym_binds *b, const osc_tensor *const *in,
                           int32_t n_in, int64_t *vals) {
    for (int32_t i = 0; i < b->n; i++) {
        const osc_sym_bind *s = &b->at[i];
        int64_t v = s->add;
        bool ok = true;
        for (int32_t t = 0; t < s->n_terms; t++) {
            const int32_t j = s->input[t], d = s->dim[t];
            const osc_tensor *x = j < n_in ? in[j] : NULL;
            int64_t term;
            if (!x || x->rank <= d)
                return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) %s; the fusion reads a size of "
                                 "the model's dynamic axes from its dim %d", (int)j,
                                 osc_kinput_name(k, j), x ? "has too low a rank" : "is missing",
                                 (int)d);
            ok = ok && !__builtin_mul_overflow(s->coef[t], x->dims[d], &term) &&
                 !__builtin_add_overflow(v, term, &v);
        }
        if (!ok || v < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "a size of the model's dynamic axes, read from "
                             "the dims of input %d (%s), is %s", (int)s->input[0],
                             osc_kinput_name(k, s->input[0]), ok ? "negative" : "too large");
        vals[i] = v;
    }
    return OSC_OK;
}

void osc_sym_subst(const osc_sym_binds *b, const int64_t *vals, int64_t *d, int32_t n) {
    for (int32_t x = 0; x < n; x++)
        for (int32_t i = 0; OSC_DIM_IS_SYM(d[x]) && i < b->n; i++)
            if (d[x] == b->at[i].code) d[x] = vals[i];
}
