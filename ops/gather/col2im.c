/* col2im.c: Col2Im-18: column blocks summed back into an image (torch's fold, N spatial axes):
 * a scatter-add of every block element onto its image position, padding dropped. Updates are
 * applied one at a time in row-major order of the input, with the scatter family's add
 * (ops/scatter/reduce.h: float16/bfloat16 rounded after each update, integers wrap, bool or,
 * string concatenation), so the result is the same on every run. */
#include <string.h>

#include "core/dtype.h"
#include "ops/scatter/scatter_impl.h" /* the element update of reduction add */
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_col2im)

#define C2I_MAX (OSC_MAX_RANK - 2) /* spatial axes */

/* Attributes init parses; absent: dilations and strides 1, pads 0. */
typedef struct col2im_params {
    osc_sh_ints dil, pads, strides; /* pads [begins..., ends...] */
} col2im_params;

osc_status osc_col2im_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"dilations", "pads", "strides", NULL};
    col2im_params a;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_sh_attr_ints(k, node, "dilations", false, &a.dil);
    if (!st) st = osc_sh_attr_ints(k, node, "pads", false, &a.pads);
    if (!st) st = osc_sh_attr_ints(k, node, "strides", false, &a.strides);
    if (st) return st;
    const osc_sh_ints *list[3] = {&a.dil, &a.strides, &a.pads};
    static const char *const names[3] = {"dilations", "strides", "pads"};
    for (int32_t j = 0; j < 3; j++)
        for (int32_t d = 0; d < list[j]->n; d++)
            if (list[j]->v[d] < (j < 2 ? 1 : 0))
                return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' value %d is %lld; expected "
                                 "at least %d", names[j], (int)d, (long long)list[j]->v[d],
                                 j < 2 ? 1 : 0);
    col2im_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = a;
    *params = p;
    return OSC_OK;
}

/* What run walks: planes (N * C) of B block elements x L blocks in, of img elements out. */
typedef struct c2i_plan {
    int32_t nd;
    int64_t planes, b, l, img;
    int64_t block[C2I_MAX], blocks[C2I_MAX], image[C2I_MAX], dil[C2I_MAX], stride[C2I_MAX];
    int64_t pad[C2I_MAX]; /* at the beginning of each axis */
} c2i_plan;

/* An attribute of nd values (or 2nd for pads), or its default; false when its count is wrong. */
static bool attr_of(const osc_sh_ints *a, int32_t nd, int32_t per_axis, int64_t def,
                    int64_t *out) {
    if (a->present && a->n != per_axis * nd) return false;
    for (int32_t d = 0; d < nd; d++) out[d] = a->present ? a->v[d] : def;
    return true;
}

/* Blocks along each axis, as a convolution counts them; false when a size overflows. */
static bool count_blocks(c2i_plan *g, const col2im_params *p) {
    int64_t tot_b = 1, tot_l = 1;
    for (int32_t d = 0; d < g->nd; d++) {
        int64_t eff, padded;
        const int64_t end = p->pads.present ? p->pads.v[g->nd + d] : 0;
        if (!osc_mul_ok(g->dil[d], g->block[d] - 1, &eff) || !osc_add_ok(eff, 1, &eff) ||
            !osc_add_ok(g->image[d], g->pad[d], &padded) || !osc_add_ok(padded, end, &padded))
            return false;
        g->blocks[d] = padded >= eff ? (padded - eff) / g->stride[d] + 1 : 0;
        if (!osc_mul_ok(tot_b, g->block[d], &tot_b) || !osc_mul_ok(tot_l, g->blocks[d], &tot_l))
            return false;
    }
    g->b = tot_b;
    g->l = tot_l;
    return true;
}

static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const col2im_params *p = k->params;
    c2i_plan gv, *g = aux ? aux : &gv;
    char a[256];
    int64_t count, bs[C2I_MAX];
    int32_t ni = 0, nb = 0;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    for (int32_t i = 1; i < 3 && !st; i++)
        st = osc_sh_need_typed(k, in, n_in, i, i == 1 ? "image_shape" : "block_shape", &count);
    if (!st) st = osc_sh_read_ints(k, 1, "image_shape", in[1], false, false, C2I_MAX, g->image,
                                   &ni);
    if (!st) st = osc_sh_read_ints(k, 2, "block_shape", in[2], false, false, C2I_MAX, bs, &nb);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (x->rank != 3)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s; expected rank 3 "
                         "[N, C * prod(block_shape), L]", osc_kinput_name(k, 0),
                         osc_shape_str(x, a, sizeof a));
    if (ni < 1 || ni != nb)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'image_shape' (%s) has %d values and input 2 "
                         "'block_shape' (%s) %d; expected the same number, at least 1",
                         osc_kinput_name(k, 1), (int)ni, osc_kinput_name(k, 2), (int)nb);
    g->nd = ni;
    memcpy(g->block, bs, sizeof bs);
    memset(g->pad, 0, sizeof g->pad);
    if (!attr_of(&p->dil, ni, 1, 1, g->dil) || !attr_of(&p->strides, ni, 1, 1, g->stride) ||
        !attr_of(&p->pads, ni, 2, 0, g->pad))
        return osc_kfail(k, OSC_ERR_MODEL, "attributes dilations (%d values), strides (%d) and "
                         "pads (%d) must have %d, %d and %d values (one per spatial axis, pads "
                         "two)", (int)p->dil.n, (int)p->strides.n, (int)p->pads.n, (int)ni,
                         (int)ni, (int)(2 * ni));
    for (int32_t d = 0; d < ni; d++)
        if (g->image[d] < 0 || g->block[d] < 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "axis %d: image_shape %lld and block_shape %lld; "
                             "expected an image size >= 0 and a block size >= 1", (int)d,
                             (long long)g->image[d], (long long)g->block[d]);
    if (!count_blocks(g, p))
        return osc_kfail(k, OSC_ERR_LIMIT, "image_shape, block_shape and the attributes give "
                         "sizes past 2^63-1");
    if (x->dims[1] % g->b != 0 || x->dims[2] != g->l)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s; expected dim 1 "
                         "a multiple of %lld (the block's elements) and dim 2 %lld (the blocks "
                         "image_shape, block_shape, dilations, pads and strides give)",
                         osc_kinput_name(k, 0), osc_shape_str(x, a, sizeof a),
                         (long long)g->b, (long long)g->l);
    memset(o, 0, sizeof *o);
    o->dtype = x->dtype;
    o->rank = 2 + ni;
    o->dims[0] = x->dims[0];
    o->dims[1] = x->dims[1] / g->b;
    memcpy(o->dims + 2, g->image, (size_t)ni * sizeof *g->image);
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output %s would have more than 2^63-1 elements",
                         osc_shape_str(o, a, sizeof a));
    g->planes = o->dims[0] * o->dims[1];
    g->img = osc_dims_prod(g->image, ni);
    return OSC_OK;
}

/* Advances the row-major multi-index i over dims (nd axes). */
static inline void next_index(int64_t *i, const int64_t *dims, int32_t nd) {
    for (int32_t d = nd - 1; d >= 0 && ++i[d] == dims[d]; d--) i[d] = 0;
}

/* The image element block element bi of block li lands on; false in the padding. */
static inline bool image_at(const c2i_plan *g, const int64_t *bi, const int64_t *li,
                            int64_t *o) {
    int64_t off = 0;
    for (int32_t d = 0; d < g->nd; d++) {
        const int64_t pos = li[d] * g->stride[d] - g->pad[d] + bi[d] * g->dil[d];
        if (pos < 0 || pos >= g->image[d]) return false;
        off = off * g->image[d] + pos;
    }
    *o = off;
    return true;
}

/* c2i_<E>: the whole scatter-add for one dtype, input element f after element f - 1; -1 when
 * done, else the element at which string add ran out of memory. */
#define C2I_FN(E, T, CLS)                                                                     \
    APPLY_FN(E, T, CLS, ADD)                                                                  \
    static int64_t c2i_##E(const c2i_plan *g, void *out, const void *in, osc_strcat *sp) {    \
        T *y = out;                                                                           \
        const T *x = in;                                                                      \
        int64_t f = 0, o;                                                                     \
        for (int64_t q = 0; q < g->planes; q++) {                                             \
            int64_t bi[C2I_MAX] = {0};                                                        \
            for (int64_t b = 0; b < g->b; b++, next_index(bi, g->block, g->nd)) {             \
                int64_t li[C2I_MAX] = {0};                                                    \
                for (int64_t l = 0; l < g->l; l++, f++, next_index(li, g->blocks, g->nd))     \
                    if (image_at(g, bi, li, &o) && !apply_##E##_ADD(&y[q * g->img + o], x[f], \
                                                                    sp))                      \
                        return f;                                                             \
            }                                                                                 \
        }                                                                                     \
        return -1;                                                                            \
    }
OSC_STD_TYPES(C2I_FN)

typedef int64_t (*c2i_fn)(const c2i_plan *g, void *out, const void *in, osc_strcat *sp);
static c2i_fn c2i_for(int32_t dtype) {
    switch (dtype) {
#define C2I_CASE(E, T, CLS)                                                                   \
    case E: return c2i_##E;
        OSC_STD_TYPES(C2I_CASE)
#undef C2I_CASE
    default: return NULL;
    }
}

static osc_status col2im_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, const osc_tensor *want, const c2i_plan *g) {
    (void)n_in;
    const c2i_fn fn = c2i_for(want->dtype);
    if (!fn) /* the row admits only standard dtypes */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'input' has dtype %s",
                         osc_dtype_get(want->dtype)->name);
    /* zero: +0.0, false, the empty string */
    memset(out[0].data, 0, (size_t)osc_tensor_count(want) * (osc_sh_bits(want->dtype) / 8));
    osc_strcat cat;
    osc_strcat_init(&cat, k->strings);
    const int64_t failed = fn(g, out[0].data, in[0]->data, &cat);
    if (failed >= 0)
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory concatenating strings at input "
                         "element %lld", (long long)failed);
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_col2im, geometry, col2im_write, c2i_plan)
