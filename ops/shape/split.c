/* split.c: Split-1/2/11/13/18: cut a tensor along one axis into the node's outputs. The sizes
 * come from the split attribute (before 13; Split-1 also takes them as input 1), the split
 * input (13 on), num_outputs (18: equal parts, the last one smaller), or else equal parts, one
 * per output. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_split)

/* Attributes init parses. */
typedef struct split_params {
    int64_t axis;        /* as written; normalised by infer */
    int64_t num_outputs; /* 0: not given (18 on) */
    int32_t n_split;     /* values of the split attribute (-1: not given) */
    int64_t *split;      /* from the model's pool */
} split_params;

osc_status osc_split_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v1[] = {"axis", "split", NULL};
    static const char *const v13[] = {"axis", NULL};
    static const char *const v18[] = {"axis", "num_outputs", NULL};
    const int64_t v = k->since_version;
    osc_status st = osc_attr_known(k, node, v < 13 ? v1 : v < 18 ? v13 : v18);
    split_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->n_split = -1;
    if ((st = osc_attr_int(k, node, "axis", 0, &p->axis))) return st;
    if ((st = osc_attr_int(k, node, "num_outputs", 0, &p->num_outputs))) return st;
    if (osc_node_attr(node, "num_outputs") && p->num_outputs < 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'num_outputs' = %lld is out of range "
                         "[1, 2^63-1]", (long long)p->num_outputs);
    if (node->n_inputs > 1 && node->inputs[1] >= 0 && p->num_outputs)
        return osc_kfail(k, OSC_ERR_MODEL, "input 1 'split' and attribute 'num_outputs' are "
                         "both given; the spec allows one of them");
    const osc_attr *a = osc_node_attr(node, "split");
    if (a) {
        if (a->type != OSC_ATTR_INTS)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'split' must be a list of ints "
                             "(attribute type %d)", (int)a->type);
        if (a->n > INT32_MAX / 2)
            return osc_kfail(k, OSC_ERR_LIMIT, "attribute 'split' has %zu values", a->n);
        p->n_split = (int32_t)a->n;
        p->split = a->n ? osc_kparams(k, a->n * sizeof *p->split) : NULL;
        if (a->n && !p->split) return k->err->status;
        for (size_t i = 0; i < a->n; i++) p->split[i] = a->ints[i];
    }
    *params = p;
    return OSC_OK;
}

/* Value i of the split input: int64 from 13; Split-1's input has the data's float type. */
static osc_status split_value(osc_kctx *k, const osc_tensor *t, int64_t i, int64_t *out) {
    double d;
    switch (t->dtype) {
    case OSC_INT64: *out = ((const int64_t *)t->data)[i]; return OSC_OK;
    case OSC_FLOAT: d = ((const float *)t->data)[i]; break;
    case OSC_DOUBLE: d = ((const double *)t->data)[i]; break;
    case OSC_FLOAT16: d = osc_f16_to_f32(((const uint16_t *)t->data)[i]); break;
    default:
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) has dtype %s; expected int64",
                         osc_kinput_name(k, 1), osc_dtype_get(t->dtype)->name);
    }
    if (!(d >= 0 && d <= 9.0e18) || d != (double)(int64_t)d)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s): value %g at position %lld is "
                         "not a whole number in [0, 2^63-1]", osc_kinput_name(k, 1), d,
                         (long long)i);
    *out = (int64_t)d;
    return OSC_OK;
}

/* The size of each output along the axis into sizes[0..n_out-1]; *axis normalised. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t n_out,
                           int32_t *axis, int64_t *sizes) {
    const split_params *p = k->params;
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (x->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has rank 0; a scalar cannot "
                         "be split", osc_kinput_name(k, 0));
    if ((st = osc_norm_axis(k, p->axis, x->rank, axis))) return st;
    const int64_t dim = x->dims[*axis];
    const osc_tensor *s = k->since_version == 1 || k->since_version >= 13
                              ? osc_sh_in(in, n_in, 1) : NULL;
    if (s) {
        char buf[256];
        if (k->since_version == 1 && p->n_split >= 0)
            return osc_kfail(k, OSC_ERR_MODEL, "input 1 'split' and attribute 'split' are both "
                             "given; the spec allows one of them");
        if (p->num_outputs)
            return osc_kfail(k, OSC_ERR_MODEL, "input 1 'split' and attribute 'num_outputs' are "
                             "both given; the spec allows one of them");
        if ((st = osc_sh_check_type(k, 1, "split", s, osc_kernel_types(k->row, 1)))) return st;
        if (s->rank > 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) has shape %s; expected "
                             "rank 1", osc_kinput_name(k, 1), osc_shape_str(s, buf, sizeof buf));
        if ((st = osc_sh_need_data(k, 1, "split", s))) return st;
        if (osc_tensor_count(s) != n_out)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) has %lld values but the "
                             "node has %d outputs; they must match", osc_kinput_name(k, 1),
                             (long long)osc_tensor_count(s), (int)n_out);
        for (int32_t j = 0; j < n_out && !st; j++) st = split_value(k, s, j, &sizes[j]);
        if (st) return st;
    } else if (p->n_split >= 0) {
        if (p->n_split != n_out)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'split' has %d values but the node "
                             "has %d outputs; they must match", (int)p->n_split, (int)n_out);
        memcpy(sizes, p->split, (size_t)n_out * sizeof *sizes);
    } else if (p->num_outputs) {
        if (p->num_outputs != n_out)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'num_outputs' = %lld but the node has "
                             "%d outputs; they must match", (long long)p->num_outputs,
                             (int)n_out);
        /* ceil(dim / n) each, the last one what remains */
        const int64_t part = dim / n_out + (dim % n_out != 0);
        int64_t before_last;
        if (!osc_mul_ok(part, n_out - 1, &before_last) || before_last > dim)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has size %lld in dim %d "
                             "(axis): %d parts of ceil(%lld/%d) = %lld leave nothing for the "
                             "last output", osc_kinput_name(k, 0), (long long)dim, (int)*axis,
                             (int)n_out - 1, (long long)dim, (int)n_out, (long long)part);
        for (int32_t j = 0; j < n_out; j++)
            sizes[j] = j < n_out - 1 ? part : dim - before_last;
        return OSC_OK;
    } else {
        if (dim % n_out != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has size %lld in dim %d "
                             "(axis), which does not split into %d equal parts (one per output);"
                             " give the sizes%s", osc_kinput_name(k, 0), (long long)dim,
                             (int)*axis, (int)n_out,
                             k->since_version >= 18 ? " or num_outputs" : "");
        for (int32_t j = 0; j < n_out; j++) sizes[j] = dim / n_out;
        return OSC_OK;
    }
    for (int32_t j = 0; j < n_out; j++)
        if (sizes[j] < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "%s 'split': value %lld at position %d is "
                             "negative; sizes must be >= 0", s ? "input 1" : "attribute",
                             (long long)sizes[j], (int)j);
    int64_t sum = 0;
    for (int32_t j = 0; j < n_out; j++) {
        if (!osc_add_ok(sum, sizes[j], &sum)) sum = -1;
        if (sum < 0 || sum > dim) break;
    }
    if (sum != dim)
        return osc_kfail(k, OSC_ERR_SHAPE, "%s 'split': the sizes sum to %s%lld but input 0 "
                         "'input' (%s) has size %lld in dim %d (axis); they must be equal",
                         s ? "input 1" : "attribute", sum < 0 || sum > dim ? "more than " : "",
                         (long long)(sum < 0 || sum > dim ? dim : sum), osc_kinput_name(k, 0),
                         (long long)dim, (int)*axis);
    return OSC_OK;
}

/* The sizes of up to this many outputs live on the stack; more come from k->alloc. */
#define SPLIT_STACK 64

static osc_status with_sizes(osc_kctx *k, int32_t n_out, int64_t *stack, int64_t **sizes) {
    *sizes = stack;
    if (n_out <= SPLIT_STACK) return OSC_OK;
    *sizes = k->alloc ? osc_malloc(k->alloc, (size_t)n_out * sizeof **sizes) : NULL;
    if (!*sizes)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate the sizes of %d outputs", (int)n_out);
    return OSC_OK;
}

static void drop_sizes(osc_kctx *k, int32_t n_out, int64_t *sizes) {
    if (n_out > SPLIT_STACK) osc_free(k->alloc, sizes, (size_t)n_out * sizeof *sizes);
}

osc_status osc_split_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    int64_t stack[SPLIT_STACK], *sizes;
    int32_t axis;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "needs at least one output");
    osc_status st = with_sizes(k, n_out, stack, &sizes);
    if (st) return st;
    if (!(st = geometry(k, in, n_in, n_out, &axis, sizes)))
        for (int32_t j = 0; j < n_out; j++) {
            osc_same_shape(&out[j], in[0]);
            out[j].dims[axis] = sizes[j];
        }
    drop_sizes(k, n_out, sizes);
    return st;
}

osc_status osc_split_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    int64_t stack[SPLIT_STACK], *sizes;
    int32_t axis;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "needs at least one output");
    osc_status st = with_sizes(k, n_out, stack, &sizes);
    if (st) return st;
    st = geometry(k, in, n_in, n_out, &axis, sizes);
    for (int32_t j = 0; j < n_out && !st; j++) {
        osc_tensor want;
        osc_same_shape(&want, in[0]);
        want.dims[axis] = sizes[j];
        st = osc_sh_check_out(k, j, &out[j], &want);
    }
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st || osc_tensor_count(in[0]) == 0) {
        drop_sizes(k, n_out, sizes);
        return st;
    }
    /* Non-empty input: outer, dim and inner are factors of its count. Output j takes, from
     * each outer row, the block of sizes[j] * inner elements after the earlier outputs'. */
    const osc_tensor *x = in[0];
    const int64_t outer = osc_dims_prod(x->dims, axis);
    const int64_t inner = osc_dims_prod(x->dims + axis + 1, x->rank - axis - 1);
    const int64_t row = x->dims[axis] * inner;
    const unsigned bits = osc_sh_bits(x->dtype);
    int64_t start = 0;
    for (int32_t j = 0; j < n_out; j++) {
        const int64_t block = sizes[j] * inner;
        for (int64_t r = 0; block && r < outer; r++)
            osc_copy_elems(out[j].data, r * block, x->data, r * row + start, block, bits);
        start += block;
    }
    drop_sizes(k, n_out, sizes);
    return OSC_OK;
}
