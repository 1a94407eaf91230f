/* pad.c: Pad-1/2 (attributes) and Pad-11 on (inputs; axes from 18, wrap from 19): add (or, for a
 * negative count, remove) elements at both ends of each axis. Output element o of an axis reads
 * input element o - begin; outside [0, dim) it is the constant, or the mode maps it back into the
 * input as numpy.pad does (edge: the nearest end; reflect: mirrored about the end elements,
 * repeatedly for pads of dim or more; wrap: periodic). Negative pads crop after that mapping
 * (pad, then crop: every output element is a function of the whole input). */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_pad)

enum { PAD_CONSTANT = OSC_SH_PAD_CONSTANT, PAD_REFLECT, PAD_EDGE, PAD_WRAP };
static const char *const k_modes[] = {"constant", "reflect", "edge", "wrap"};

/* Attributes init parses. */
typedef struct pad_params {
    int32_t mode;     /* PAD_* */
    osc_sh_ints pads; /* before 11: attribute 'paddings' (1) or 'pads' (2) */
    double value;     /* before 11: attribute 'value' */
} pad_params;

osc_status osc_pad_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v1[] = {"mode", "paddings", "value", NULL};
    static const char *const v2[] = {"mode", "pads", "value", NULL};
    static const char *const v11[] = {"mode", NULL};
    const int64_t v = k->since_version;
    const char *mode;
    osc_status st = osc_attr_known(k, node, v < 2 ? v1 : v < 11 ? v2 : v11);
    pad_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    if ((st = osc_attr_str(k, node, "mode", "constant", &mode))) return st;
    const int32_t n_modes = v >= 19 ? 4 : 3;
    p->mode = -1;
    for (int32_t i = 0; i < n_modes; i++)
        if (!strcmp(mode, k_modes[i])) p->mode = i;
    if (p->mode < 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'mode' = '%.64s' is not one of constant, "
                         "reflect, edge%s", mode, v >= 19 ? ", wrap" : " (wrap comes at 19)");
    if (v < 11) {
        if ((st = osc_sh_attr_ints(k, node, v < 2 ? "paddings" : "pads", true, &p->pads)))
            return st;
        if ((st = osc_attr_float(k, node, "value", 0.0, &p->value))) return st;
    }
    *params = p;
    return OSC_OK;
}

typedef osc_sh_pad_geom pad_geom;

/* begin/end from the pads (attribute or input 1) and axes (input 3, from 18). */
static osc_status read_pads(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t rank,
                            pad_geom *g) {
    const pad_params *p = k->params;
    int64_t pads[2 * OSC_MAX_RANK], axes[OSC_MAX_RANK];
    int32_t n = 0, n_axes = rank;
    const bool attr = k->since_version < 11;
    const char *what = attr ? (k->since_version < 2 ? "attribute 'paddings'" : "attribute 'pads'")
                            : "input 1 'pads'";
    osc_status st = OSC_OK;
    if (attr) {
        n = p->pads.n;
        if (n) memcpy(pads, p->pads.v, (size_t)n * sizeof pads[0]);
    } else {
        st = osc_sh_need(k, in, n_in, 1, "pads");
        if (!st) st = osc_sh_read_ints(k, 1, "pads", in[1], false, false, 2 * OSC_MAX_RANK, pads,
                                       &n);
    }
    const osc_tensor *ax = k->since_version >= 18 ? osc_sh_in(in, n_in, 3) : NULL;
    if (!st && ax) {
        st = osc_sh_read_ints(k, 3, "axes", ax, true, false, OSC_MAX_RANK, axes, &n_axes);
        if (!st) st = osc_sh_norm_axes(k, "input 3 'axes'", axes, n_axes, rank);
    } else {
        for (int32_t i = 0; i < rank; i++) axes[i] = i;
    }
    if (st) return st;
    if (n != 2 * n_axes)
        return osc_kfail(k, OSC_ERR_SHAPE, "%s has %d values; expected %d (begin and end for "
                         "each of the %d %s)", what, (int)n, 2 * (int)n_axes, (int)n_axes,
                         ax ? "axes of input 3 'axes'" : "dims of input 0 'data'");
    memset(g, 0, sizeof *g);
    for (int32_t i = 0; i < n_axes; i++) {
        g->begin[axes[i]] = pads[i];
        g->end[axes[i]] = pads[n_axes + i];
    }
    return OSC_OK;
}

/* aux: the pad_geom */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const pad_params *p = k->params;
    pad_geom g_own, *g = aux ? aux : &g_own;
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (!st) st = read_pads(k, in, n_in, in[0]->rank, g);
    if (st) return st;
    const osc_tensor *x = in[0];
    const osc_tensor *cv = k->since_version >= 11 ? osc_sh_in(in, n_in, 2) : NULL;
    if (cv) {
        if ((st = osc_check_same_dtype(k, 0, "data", x, 2, "constant_value", cv))) return st;
        if (osc_tensor_count(cv) != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'constant_value' (%s) has %lld "
                             "elements; expected one (a scalar)", osc_kinput_name(k, 2),
                             (long long)osc_tensor_count(cv));
    }
    osc_same_shape(o, x);
    for (int32_t d = 0; d < x->rank; d++) {
        int64_t dim = x->dims[d];
        if (!osc_add_ok(dim, g->begin[d], &dim) || !osc_add_ok(dim, g->end[d], &dim) || dim < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "pads %lld (begin) and %lld (end) of dim %d: input "
                             "0 'data' (%s) has size %lld there, so the output size would be %s; "
                             "it must be in [0, 2^63-1]", (long long)g->begin[d],
                             (long long)g->end[d], (int)d, osc_kinput_name(k, 0),
                             (long long)x->dims[d], dim < 0 ? "negative" : "past 2^63-1");
        if (p->mode != PAD_CONSTANT && x->dims[d] == 0 && dim > 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has size 0 in dim %d; mode "
                             "'%s' has no element to pad it with", osc_kinput_name(k, 0), (int)d,
                             k_modes[p->mode]);
        if (g->begin[d] < -x->dims[d] || g->end[d] < -x->dims[d])
            return osc_kfail(k, OSC_ERR_SHAPE, "pads %lld (begin) and %lld (end) of dim %d: "
                             "input 0 'data' (%s) has size %lld there; a negative pad may remove "
                             "at most that many", (long long)g->begin[d], (long long)g->end[d],
                             (int)d, osc_kinput_name(k, 0), (long long)x->dims[d]);
        o->dims[d] = dim;
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the padded output would have more than 2^63-1 "
                         "elements");
    return OSC_OK;
}

/* The input element output position i of an axis of size n reads; -1: the constant. */
static int64_t src_index(int64_t i, int64_t n, int32_t mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
    case PAD_EDGE: return i < 0 ? 0 : n - 1;
    case PAD_WRAP: return (i % n + n) % n;
    case PAD_REFLECT: {
        if (n == 1) return 0;
        const int64_t period = 2 * (n - 1), m = (i % period + period) % period;
        return m < n ? m : period - m;
    }
    default: return -1;
    }
}

/* Writes count copies of the element at val to dst from element o. */
static void fill(void *dst, int64_t o, int64_t count, const void *val, unsigned bits) {
    if (count <= 0) return;
    if (bits < 8) {
        for (int64_t j = 0; j < count; j++) osc_copy_elems(dst, o + j, val, 0, 1, bits);
        return;
    }
    const size_t es = bits / 8;
    char *p = (char *)dst + (size_t)o * es;
    memcpy(p, val, es);
    for (int64_t done = 1; done < count;) { /* doubling copies of what is written */
        const int64_t c = done < count - done ? done : count - done;
        memcpy(p + (size_t)done * es, p, (size_t)c * es);
        done += c;
    }
}

/* The constant as one element of the data's dtype into val (16 bytes: the widest element). */
static void constant_of(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t dtype,
                        unsigned char *val) {
    const osc_tensor *cv = k->since_version >= 11 ? osc_sh_in(in, n_in, 2) : NULL;
    osc_sh_zero_elem(dtype, val);
    if (cv) {
        osc_copy_elems(val, 0, cv->data, 0, 1, osc_sh_bits(dtype));
        return;
    }
    const double v = k->since_version < 11 ? ((const pad_params *)k->params)->value : 0.0;
    if (dtype == OSC_FLOAT) {
        float f = (float)v;
        memcpy(val, &f, sizeof f);
    } else if (dtype == OSC_DOUBLE) {
        memcpy(val, &v, sizeof v);
    } else if (dtype == OSC_FLOAT16) {
        uint16_t h = osc_f32_to_f16((float)v);
        memcpy(val, &h, sizeof h);
    } /* other dtypes exist from 11 on, where the default is 0 (all bits zero), "" or false */
}

void osc_sh_zero_elem(int32_t dtype, unsigned char *val) {
    static const char empty[1] = "";
    memset(val, 0, 16);
    if (dtype == OSC_STRING) {
        const osc_string s = {.ptr = empty, .len = 0};
        memcpy(val, &s, sizeof s);
    }
}

void osc_sh_pad_write(void *dst, const osc_tensor *x, const osc_tensor *want,
                      const osc_sh_pad_geom *g, int32_t mode, const unsigned char *val) {
    const int64_t count = osc_tensor_count(want);
    const unsigned bits = osc_sh_bits(x->dtype);
    if (want->rank == 0 || osc_tensor_count(x) == 0) { /* a scalar; or only the constant */
        if (want->rank == 0) osc_copy_elems(dst, 0, x->data, 0, 1, bits);
        else fill(dst, 0, count, val, bits);
        return;
    }
    /* Non-empty input and output: strides and offsets fit. One output row (the last dim) at a
     * time: the constant when an outer dim maps outside the input, else the input's row with
     * its ends mapped element by element. */
    int64_t xs[OSC_MAX_RANK], idx[OSC_MAX_RANK] = {0};
    osc_row_strides(x, xs);
    const int32_t r = want->rank, last = r - 1;
    const int64_t len = want->dims[last], n = x->dims[last], b = g->begin[last];
    const int64_t j0 = b > 0 ? (b < len ? b : len) : 0;
    const int64_t bn = b + n; /* no overflow: the output dim len = n + b + end fits */
    const int64_t j1 = bn < j0 ? j0 : bn > len ? len : bn; /* [j0, j1): inside the input */
    for (int64_t o = 0; o < count; o += len) {
        int64_t off = 0;
        bool outside = false;
        for (int32_t d = 0; d < last && !outside; d++) {
            const int64_t s = src_index(idx[d] - g->begin[d], x->dims[d], mode);
            outside = s < 0;
            off += s * xs[d];
        }
        if (outside) {
            fill(dst, o, len, val, bits);
        } else {
            for (int64_t j = 0; j < len; j++) {
                if (j == j0) j = j1; /* the inside part is copied below, in one run */
                if (j == len) break;
                const int64_t s = src_index(j - b, n, mode);
                if (s < 0) fill(dst, o + j, 1, val, bits);
                else osc_copy_elems(dst, o + j, x->data, off + s, 1, bits);
            }
            if (j1 > j0) osc_copy_elems(dst, o + j0, x->data, off + j0 - b, j1 - j0, bits);
        }
        for (int32_t d = last - 1; d >= 0; d--) {
            if (++idx[d] < want->dims[d]) break;
            idx[d] = 0;
        }
    }
}

static osc_status pad_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, const osc_tensor *want, const pad_geom *aux) {
    unsigned char val[16];
    constant_of(k, in, n_in, in[0]->dtype, val);
    osc_sh_pad_write(out[0].data, in[0], want, aux, ((const pad_params *)k->params)->mode, val);
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_pad, geometry, pad_write, pad_geom)
