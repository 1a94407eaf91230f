/* shape_ops.h: kernels of the shape and layout rows (ops/shape/rows.def) and their helpers. */
#ifndef OSC_SHAPE_OPS_H
#define OSC_SHAPE_OPS_H

#include "core/dtype.h"
#include "core/kattr.h"

/* The parameters of every row with trait OSC_KT_CONSTANT begin with this: the value's dtype and
 * bytes (Constant: the whole value; ConstantOfShape: its one element, repeated; data NULL: no
 * value attribute, a float 0). The rewrite reads it (rewrite/gather_scatter.c). */
typedef struct osc_constant_value {
    int32_t dtype;
    const void *data;
    size_t nbytes;
} osc_constant_value;

/* Concat's parameters (the rewrite reads the axis). */
typedef struct osc_concat_params {
    int64_t axis; /* as written; normalised by infer */
} osc_concat_params;

/* ---- Helpers of this family (ops/shape/shape_util.c) ---- */

/* The spec's "all tensor types" of an op version (OSC_TS_ALL_V1 .. OSC_TS_ALL_V25 of
 * core/dtype.h, the newest one at or before since_version). Valid for every op whose
 * list follows that history (each row sits at a changelog version, so an op without a 19 row
 * gets the 13 list until its next row). */
osc_typeset osc_sh_ts_all(int64_t since_version);
/* True when dtype number d is in the set. */
static inline bool osc_sh_ts_has(osc_typeset set, int32_t d) {
    return d > 0 && d < 64 && (set & OSC_TS(d)) != 0;
}

/* Fails (OSC_ERR_SHAPE) unless t's dtype is in `allowed`; the message lists the allowed types. */
osc_status osc_sh_check_type(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                             osc_typeset allowed);
/* Input i when present (i < n_in and not omitted), else NULL. */
static inline const osc_tensor *osc_sh_in(const osc_tensor *const *in, int32_t n_in, int32_t i) {
    return i < n_in ? in[i] : NULL;
}
/* Fails (OSC_ERR_MODEL) when input i is absent; names it. */
osc_status osc_sh_need(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                       const char *what);
/* Fails unless input i is present (osc_sh_need), of a dtype the row allows for it
 * (osc_sh_check_type) and with a valid element count, *count (osc_check_count), in that order;
 * `what` names it. */
osc_status osc_sh_need_typed(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                             const char *what, int64_t *count);
/* Fails unless t's data is present and holds its elements: OSC_ERR_STATE when infer runs
 * before the data of an infer_reads input is known, OSC_ERR_ARG for a short buffer. */
osc_status osc_sh_need_data(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t);
/* Reads an int64 (or int32 when allow_i32) tensor of rank 1 (rank 0 too when allow_scalar)
 * with at most max_n values into v[], *n the count. Checks dtype, rank and data. */
osc_status osc_sh_read_ints(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                            bool allow_i32, bool allow_scalar, int32_t max_n, int64_t *v,
                            int32_t *n);
/* Normalises n axes in place to [0, rank-1] (from [-rank, rank-1]); fails naming `what`, the
 * position and value on a value out of range or a repeated axis. */
osc_status osc_sh_norm_axes(osc_kctx *k, const char *what, int64_t *axes, int32_t n,
                            int32_t rank);
/* A list of ints an init parsed from an INTS attribute (axes, perm, starts, ...). */
typedef struct osc_sh_ints {
    bool present;                    /* the attribute was given */
    int32_t n;                       /* values in v (at most 2 * OSC_MAX_RANK) */
    int64_t v[2 * OSC_MAX_RANK];
} osc_sh_ints;
/* Transpose's parameters: the perm attribute (absent: reverse the dims). */
typedef struct osc_transpose_params {
    osc_sh_ints perm;
} osc_transpose_params;
/* Init-time: the INT attribute `name` (def when absent) must be 0 or 1; *out receives it. */
osc_status osc_sh_attr_bool(osc_kctx *k, const osc_node *node, const char *name, bool def,
                            bool *out);
/* Init-time: the INTS attribute `name` (required or not) with at most 2 * OSC_MAX_RANK values,
 * copied into *out (out->present false and n 0 when absent). */
osc_status osc_sh_attr_ints(osc_kctx *k, const osc_node *node, const char *name, bool required,
                            osc_sh_ints *out);

/* Run-time: fails unless out has exactly the dtype and shape `want` (what this run's inputs
 * give) and a buffer that holds it, so a kernel never writes past what the executor sized. */
osc_status osc_sh_check_out(osc_kctx *k, int32_t i, const osc_tensor *out,
                            const osc_tensor *want);
/* The output dtype and shape of a one-output kernel, from its inputs (the kernel's geometry),
 * and in *aux what its run needs besides (an axis, a permutation...: the kernel's own type).
 * aux is NULL from infer, which needs nothing besides; a geometry without aux ignores it. */
typedef osc_status (*osc_sh_geometry_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                         osc_tensor *o, void *aux);
/* infer of a one-output kernel: out[0] from g, aux NULL (OSC_ERR_MODEL when there is no
 * output). */
osc_status osc_sh_infer_with(osc_kctx *k, osc_sh_geometry_fn g, const osc_tensor *const *in,
                             int32_t n_in, osc_tensor *out, int32_t n_out);
/* run's checks before anything is written: *want and *aux (NULL when g has none) from g, out[0]
 * exactly *want and holding it, every present input holding its elements. */
osc_status osc_sh_run_checks(osc_kctx *k, osc_sh_geometry_fn g, const osc_tensor *const *in,
                             int32_t n_in, osc_tensor *out, int32_t n_out, osc_tensor *want,
                             void *aux);
/* The aux of a geometry that has none (OSC_SH_KERNEL_AUX's AUX_T then). */
typedef struct osc_sh_none {
    char none;
} osc_sh_none;
/* Defines PFX_infer and PFX_run of a one-output kernel from its geometry GEOM (an
 * osc_sh_geometry_fn whose aux is an AUX_T: osc_sh_none when it has none) and its writer
 *   static osc_status BODY(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
 *                          osc_tensor *out, const osc_tensor *want, const AUX_T *aux):
 * infer is osc_sh_infer_with; run makes osc_sh_run_checks (want and aux from GEOM) and calls
 * BODY only when they pass and the output has elements (an empty one needs no write). */
#define OSC_SH_KERNEL_AUX(PFX, GEOM, BODY, AUX_T)                                            \
    osc_status PFX##_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,           \
                           osc_tensor *out, int32_t n_out) {                                 \
        return osc_sh_infer_with(k, GEOM, in, n_in, out, n_out);                             \
    }                                                                                        \
    osc_status PFX##_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,             \
                         osc_tensor *out, int32_t n_out) {                                   \
        osc_tensor want;                                                                     \
        AUX_T aux = {0};                                                                     \
        osc_status st = osc_sh_run_checks(k, GEOM, in, n_in, out, n_out, &want, &aux);       \
        if (st || osc_tensor_count(&want) == 0) return st;                                   \
        return BODY(k, in, n_in, out, &want, &aux);                                          \
    }
#define OSC_SH_KERNEL(PFX, GEOM, BODY) OSC_SH_KERNEL_AUX(PFX, GEOM, BODY, osc_sh_none)

/* Run-time: every present input holds its elements (osc_check_buffer for each). */
osc_status osc_sh_check_inputs(osc_kctx *k, const osc_tensor *const *in, int32_t n_in);

/* Writes the row-major tensor of `rank` (<= 2 * OSC_MAX_RANK) dims `dims` to dst from element
 * 0: element (i_0..i_{r-1}) is src element off + sum_d i_d * stride[d] (element strides, zero or
 * negative allowed). The caller guarantees every addressed source element exists and that
 * prod(dims) fits int64. Packed sub-byte types move element by element; strings as osc_string. */
void osc_sh_copy_strided(void *dst, const void *src, unsigned bits, int32_t rank,
                         const int64_t *dims, const int64_t *stride, int64_t off);
/* Pad's geometry and write (pad.c), which CenterCropPad shares: per data dim, the elements
 * added before (begin) and after (end), negative: removed (at most the dim). */
typedef struct osc_sh_pad_geom {
    int64_t begin[OSC_MAX_RANK], end[OSC_MAX_RANK];
} osc_sh_pad_geom;
enum { OSC_SH_PAD_CONSTANT = 0 }; /* Pad's mode 'constant' (pad.c has the others) */
/* Writes the non-empty output `want` (x padded and cropped by g) to dst: outside x, the element
 * at val (one element of x's dtype; 16 bytes) in mode OSC_SH_PAD_CONSTANT, else the mode's
 * mapping back into x. */
void osc_sh_pad_write(void *dst, const osc_tensor *x, const osc_tensor *want,
                      const osc_sh_pad_geom *g, int32_t mode, const unsigned char *val);
/* The zero of a dtype into val (16 bytes): all bits zero, "" for a string. */
void osc_sh_zero_elem(int32_t dtype, unsigned char *val);
/* Bits per element of a dtype (osc_dtype_get(dtype)->bits). */
unsigned osc_sh_bits(int32_t dtype);

#endif
