/* constant.c: Constant (value or value_* attributes) and ConstantOfShape (a filled tensor). */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_constant)
OSC_KERNEL_DECLARE(osc_cofshape)

/* The attributes that can hold Constant's value, in the spec's order. */
static const char *const k_value_attrs[] = {"value",        "sparse_value", "value_float",
                                            "value_floats", "value_int",    "value_ints",
                                            "value_string", "value_strings", NULL};

/* What Constant's init took from its value attribute: the output's dtype and shape, and the
 * bytes of its value (in the model's pool, or in these params for a string). */
typedef struct constant_params {
    osc_constant_value value; /* (what the rewrite reads) */
    osc_tensor shape;   /* dtype, rank, dims; no data */
    const void *data;
    size_t nbytes;      /* bytes data holds */
    osc_string str;     /* value_string */
} constant_params;

osc_status osc_constant_init(osc_kctx *k, const osc_node *node, void **params) {
    /* value only before 11; sparse_value from 11; the value_* forms from 12 */
    static const char *const v1[] = {"value", NULL};
    static const char *const v11[] = {"value", "sparse_value", NULL};
    int64_t ver = k->since_version;
    osc_status st = osc_attr_known(k, node, ver >= 12 ? k_value_attrs : ver >= 11 ? v11 : v1);
    if (st) return st;
    int32_t present = node->n_attrs; /* every attribute is a value attribute by now */
    if (present != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "needs exactly one value attribute (value%s); it has "
                         "%d", ver >= 12 ? ", sparse_value or value_*" : ver >= 11 ? " or "
                         "sparse_value" : "", (int)present);
    const osc_attr *a = &node->attrs[0]; /* the one value attribute */
    struct { const char *name; int32_t type; } want[] = {
        {"value", OSC_ATTR_TENSOR},       {"value_float", OSC_ATTR_FLOAT},
        {"value_floats", OSC_ATTR_FLOATS}, {"value_int", OSC_ATTR_INT},
        {"value_ints", OSC_ATTR_INTS},     {"value_string", OSC_ATTR_STRING}};
    if (strcmp(a->name, "sparse_value") == 0)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "attribute 'sparse_value': sparse tensors are "
                         "not supported; use 'value'");
    if (strcmp(a->name, "value_strings") == 0)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "attribute 'value_strings': lists of strings "
                         "are not decoded by the loader; use 'value' with a string tensor");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (strcmp(a->name, want[i].name) == 0 && (a->type != want[i].type ||
                                                   (a->type == OSC_ATTR_TENSOR && !a->t)))
            return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' has attribute type %d; expected "
                             "%d", a->name, (int)a->type, (int)want[i].type);
    if (a->type == OSC_ATTR_TENSOR) {
        osc_typeset allowed = ver >= 9 ? osc_sh_ts_all(ver) : OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16);
        if (!osc_sh_ts_has(allowed, a->t->dtype))
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'value' has dtype %s, which this op "
                             "version does not allow", osc_dtype_get(a->t->dtype)->name);
        if (osc_tensor_count(a->t) < 0)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'value' has an invalid shape");
    }
    constant_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    osc_tensor *o = &p->shape;
    switch (a->type) {
    case OSC_ATTR_TENSOR:
        osc_same_shape(o, a->t);
        p->data = a->t->data;
        p->nbytes = a->t->nbytes;
        break;
    case OSC_ATTR_FLOAT:
        o->dtype = OSC_FLOAT;
        p->data = &a->f;
        p->nbytes = sizeof a->f;
        break;
    case OSC_ATTR_INT:
        o->dtype = OSC_INT64;
        p->data = &a->i;
        p->nbytes = sizeof a->i;
        break;
    case OSC_ATTR_STRING:
        o->dtype = OSC_STRING;
        p->str = (osc_string){a->s, a->s_len}; /* the bytes live in the model's pool */
        p->data = &p->str;
        p->nbytes = sizeof p->str;
        break;
    case OSC_ATTR_FLOATS:
    case OSC_ATTR_INTS:
        o->dtype = a->type == OSC_ATTR_FLOATS ? OSC_FLOAT : OSC_INT64;
        o->rank = 1;
        o->dims[0] = (int64_t)a->n;
        p->data = a->type == OSC_ATTR_FLOATS ? (const void *)a->floats : (const void *)a->ints;
        p->nbytes = a->n * (a->type == OSC_ATTR_FLOATS ? sizeof *a->floats : sizeof *a->ints);
        break;
    default: return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' cannot be used", a->name);
    }
    p->value = (osc_constant_value){.dtype = o->dtype, .data = p->data, .nbytes = p->nbytes};
    *params = p;
    return OSC_OK;
}

/* Output dtype and shape from the value attribute. */
static osc_status constant_shape(osc_kctx *k, osc_tensor *o) {
    const constant_params *p = k->params;
    if (!p) return osc_kfail(k, OSC_ERR_MODEL, "has no value attribute");
    *o = p->shape;
    return OSC_OK;
}

osc_status osc_constant_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, int32_t n_out) {
    (void)in, (void)n_in;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    return constant_shape(k, &out[0]);
}

osc_status osc_constant_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    (void)in, (void)n_in;
    osc_tensor want;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = constant_shape(k, &want);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (st) return st;
    const constant_params *p = k->params;
    if (out[0].nbytes && p->nbytes >= out[0].nbytes)
        memcpy(out[0].data, p->data, out[0].nbytes);
    else if (out[0].nbytes)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'value' holds %zu bytes; its shape "
                         "needs %zu", p->nbytes, out[0].nbytes);
    return OSC_OK;
}

/* ---- ConstantOfShape ---- */

/* ConstantOfShape's value types: numbers and bool at 9, then as "all tensor types" without
 * string and complex: bfloat16 and float8 from 20 (the 19 list), the later kinds with it. */
static osc_typeset cofshape_types(int64_t ver) {
    const osc_typeset not_value = OSC_TS(OSC_STRING) | (0 OSC_COMPLEX_TYPES(OSC_TS_OR_));
    return osc_sh_ts_all(ver >= 20 ? ver : 1) & ~not_value;
}

/* The value attribute: its dtype and element (NULL: absent, a float 0). */
typedef struct cofshape_params {
    osc_constant_value value; /* one element, in the model's pool */
} cofshape_params;

osc_status osc_cofshape_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"value", NULL};
    osc_status st = osc_attr_known(k, node, known);
    if (st) return st;
    const osc_attr *a = osc_node_attr(node, "value");
    if (a && (a->type != OSC_ATTR_TENSOR || !a->t))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'value' must be a tensor (attribute type "
                         "%d)", (int)a->type);
    if (a && !osc_sh_ts_has(cofshape_types(k->since_version), a->t->dtype))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'value' has dtype %s, which this op "
                         "version does not allow", osc_dtype_get(a->t->dtype)->name);
    size_t need = 0;
    if (a && (osc_tensor_count(a->t) != 1 || !osc_dtype_bytes(a->t->dtype, 1, &need) ||
              a->t->nbytes < need || !a->t->data))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'value' must hold exactly one element; it "
                         "has %lld", (long long)osc_tensor_count(a->t));
    cofshape_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->value = (osc_constant_value){.dtype = a ? a->t->dtype : OSC_FLOAT,
                                    .data = a ? a->t->data : NULL,
                                    .nbytes = a ? a->t->nbytes : 0};
    *params = p;
    return OSC_OK;
}

/* The output from input 0's values (the shape) and the value attribute's dtype. */
static osc_status cofshape_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                    osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t dims[OSC_MAX_RANK];
    int32_t n;
    osc_status st = osc_sh_need(k, in, n_in, 0, "input");
    if (!st) st = osc_sh_read_ints(k, 0, "input", in[0], false, false, OSC_MAX_RANK, dims, &n);
    if (st) return st;
    memset(o, 0, sizeof *o);
    for (int32_t i = 0; i < n; i++) {
        if (dims[i] < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s): value %lld at position %d "
                             "is negative; dims must be in [0, 2^63-1]", osc_kinput_name(k, 0),
                             (long long)dims[i], (int)i);
        o->dims[i] = dims[i];
    }
    o->rank = n;
    o->dtype = ((const cofshape_params *)k->params)->value.dtype;
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'input' (%s): the output would have more "
                         "than 2^63-1 elements", osc_kinput_name(k, 0));
    return OSC_OK;
}

static osc_status cofshape_fill(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                osc_tensor *out, const osc_tensor *want,
                                const osc_sh_none *aux) {
    (void)aux, (void)in, (void)n_in;
    int64_t count = osc_tensor_count(want);
    const void *value = ((const cofshape_params *)k->params)->value.data;
    if (count == 0) return OSC_OK;
    if (!value) { /* float 0.0f is all-zero bits */
        memset(out[0].data, 0, out[0].nbytes);
        return OSC_OK;
    }
    unsigned bits = osc_sh_bits(want->dtype);
    if (bits < 8) {
        for (int64_t i = 0; i < count; i++) osc_copy_elems(out[0].data, i, value, 0, 1, bits);
        return OSC_OK;
    }
    /* one element, then doubling copies */
    size_t esize = bits / 8, have = esize, total = (size_t)count * esize;
    char *d = out[0].data;
    memcpy(d, value, esize);
    while (have < total) {
        size_t n = have < total - have ? have : total - have;
        memcpy(d + have, d, n);
        have += n;
    }
    return OSC_OK;
}

OSC_SH_KERNEL(osc_cofshape, cofshape_geometry, cofshape_fill)
