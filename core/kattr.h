/* kattr.h: what every kernel calls besides the contract: attribute parsing, dtype, shape and
 * index checks, the AVX2 clones of loop functions, and prefetches. */
#ifndef OSC_KATTR_H
#define OSC_KATTR_H

#include "kernel.h"

/* A loop function compiled twice, for AVX2 and for the baseline, the dynamic loader picking
 * one at start (x86-64 Linux). Not under ThreadSanitizer: the clone's ifunc resolver runs
 * during relocation, before the TSan runtime exists, and crashes (seen: test_threads). Nor in
 * a size-first build (CMake OSC_SIZE_FIRST): one copy of each. */
#if defined(__SANITIZE_THREAD__)
#define OSC_TSAN 1 /* built with ThreadSanitizer (GCC's macro, clang's feature) */
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OSC_TSAN 1
#endif
#endif
#if defined(OSC_TSAN) || defined(OSC_SIZE_FIRST)
#define OSC_NO_CLONES 1
#endif
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(OSC_NO_CLONES)
#define OSC_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OSC_AVX2_CLONES
#endif

/* A hint to fetch the cache line at p for reading (w 0) or writing (w 1), kept in every level;
 * OSC_PREFETCH_L2, for reading into the outer levels only (x86: prefetcht1), for a line needed
 * later than those OSC_PREFETCH asks for. */
#if defined(__GNUC__) || defined(__clang__)
#define OSC_PREFETCH(p, w) __builtin_prefetch((p), (w), 3)
#define OSC_PREFETCH_L2(p) __builtin_prefetch((p), 0, 2)
#else
#define OSC_PREFETCH(p, w) ((void)(p))
#define OSC_PREFETCH_L2(p) ((void)(p))
#endif

/* ---- Attributes, checks and messages (core/kattr.c) ---- */

/* Fails unless every attribute of the node is in the NULL-terminated `known` list. */
osc_status osc_attr_known(osc_kctx *k, const osc_node *node, const char *const *known);
/* The same, also accepting the version-1 rows' `consumed_inputs` (a legacy optimisation hint,
 * ignored) when `legacy`. */
osc_status osc_attr_known_legacy(osc_kctx *k, const osc_node *node, const char *const *known,
                                 bool legacy);
/* FLOAT attribute `name` (def when absent) into *out; a wrong attribute type or a NaN is an
 * error (OSC_ERR_MODEL) naming the attribute. */
osc_status osc_attr_float(osc_kctx *k, const osc_node *node, const char *name, double def,
                          double *out);
/* INT attribute `name` (def when absent); a wrong attribute type is an error. */
osc_status osc_attr_int(osc_kctx *k, const osc_node *node, const char *name, int64_t def,
                        int64_t *out);
/* STRING attribute `name` (def when absent). */
osc_status osc_attr_str(osc_kctx *k, const osc_node *node, const char *name, const char *def,
                        const char **out);
/* The `auto_pad` of the convolutions and pools. */
enum { OSC_AUTO_PAD_NOTSET, OSC_AUTO_PAD_SAME_UPPER, OSC_AUTO_PAD_SAME_LOWER, OSC_AUTO_PAD_VALID };
/* STRING attribute `auto_pad` (NOTSET when absent) as OSC_AUTO_PAD_*; another value is an error
 * naming it and the four allowed. */
osc_status osc_attr_auto_pad(osc_kctx *k, const osc_node *node, int32_t *out);
/* An OSC_AUTO_PAD_* value as the attribute spells it. */
const char *osc_auto_pad_name(int32_t mode);
/* init of an op whose one attribute is the INT `axis` (def when absent; when `required`, an
 * error when absent): its parameters, `size` zeroed bytes (osc_kparams) whose first member is
 * the int64_t axis as written, into *params. */
osc_status osc_init_axis(osc_kctx *k, const osc_node *node, int64_t def, bool required,
                         size_t size, void **params);
/* axis in [-rank, rank-1] -> [0, rank-1], else an error naming the attribute and range. */
osc_status osc_norm_axis(osc_kctx *k, int64_t axis, int32_t rank, int32_t *out);
/* Index tensors: int64 always, int32 when allow_i32; `what` names the input ("indices"). */
osc_status osc_check_index_dtype(osc_kctx *k, int32_t input, const char *what,
                                 const osc_tensor *t, bool allow_i32);
/* Element i of an int32 or int64 tensor. */
static inline int64_t osc_index_at(const osc_tensor *t, int64_t i) {
    return t->dtype == OSC_INT32 ? (int64_t)((const int32_t *)t->data)[i]
                                 : ((const int64_t *)t->data)[i];
}
/* Fails unless `t` is one of the 16 standard dtypes (those kernels compute on). */
osc_status osc_check_std_dtype(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t);
/* Fails unless a and b have the same dtype. */
osc_status osc_check_same_dtype(osc_kctx *k, int32_t ia, const char *a_what, const osc_tensor *a,
                                int32_t ib, const char *b_what, const osc_tensor *b);
/* Formats "[d0,d1,...]" into buf (for messages). */
const char *osc_shape_str(const osc_tensor *t, char *buf, size_t size);
/* Sets out->dtype/rank/dims from t (output shaped like an input). */
void osc_same_shape(osc_tensor *out, const osc_tensor *t);
/* Fails unless input i is present (OSC_ERR_MODEL) and has a valid shape (OSC_ERR_SHAPE). */
osc_status osc_need_input(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                          const char *what);
/* Fails (OSC_ERR_SHAPE) unless every dim of input 1 'indices' but `axis` is at most input 0
 * 'data''s; `effect` ends the message ("elements would be read out of bounds"). */
osc_status osc_check_index_dims(osc_kctx *k, const osc_tensor *data, const osc_tensor *idx,
                                int32_t axis, const char *effect);
/* infer's last step for a one-output kernel: st (the validation's status) when it failed, else
 * out[0] gets want's dtype and shape (OSC_ERR_MODEL when there is no output). */
osc_status osc_infer_out0(osc_kctx *k, osc_status st, const osc_tensor *want, osc_tensor *out,
                          int32_t n_out);
/* Defines PFX_infer of a one-output kernel whose checks are one function that infer and run
 * both call, `static osc_status VALIDATE(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
 * osc_tensor *want, AUX_T *aux)`: want gets output 0's dtype and shape, aux what run needs
 * besides (infer drops it); then osc_infer_out0. OSC_INFER_OUT0: a VALIDATE without aux. */
#define OSC_INFER_OUT0_AUX(PFX, VALIDATE, AUX_T)                                               \
    osc_status PFX##_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,           \
                           osc_tensor *out, int32_t n_out) {                                 \
        osc_tensor want;                                                                     \
        AUX_T aux;                                                                           \
        return osc_infer_out0(k, VALIDATE(k, in, n_in, &want, &aux), &want, out, n_out);     \
    }
#define OSC_INFER_OUT0(PFX, VALIDATE)                                                          \
    osc_status PFX##_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,           \
                           osc_tensor *out, int32_t n_out) {                                 \
        osc_tensor want;                                                                     \
        return osc_infer_out0(k, VALIDATE(k, in, n_in, &want), &want, out, n_out);           \
    }
/* *out = osc_tensor_count(t), else OSC_ERR_SHAPE naming input `input` ("data", ...) and its
 * shape: a negative dim, or more than 2^63-1 elements. The one element-count check of ops/. */
osc_status osc_check_count(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                           int64_t *out);
/* Fails (OSC_ERR_ARG) unless t->data holds every element of t's shape (NULL is fine when there
 * are none); `kind` is "input" or "output", i its position. */
osc_status osc_check_buffer(osc_kctx *k, const char *kind, int32_t i, const char *what,
                            const osc_tensor *t);
/* True when every element of an int32 or int64 index lies in [-s, s-1] (a vectorised scan,
 * split among k's threads when large); the callers' messages search the first one that does
 * not. */
bool osc_index_in_range(osc_kctx *k, const osc_tensor *idx, int64_t s);
/* Fails (OSC_ERR_INDEX) unless every element of input 1 'indices' lies in [-s, s-1], s the size
 * of data's `axis`. */
osc_status osc_check_index_range(osc_kctx *k, const osc_tensor *idx, int32_t axis, int64_t s);
/* Row-major element strides of t into stride[0..rank-1]; false when a product overflows int64. */
bool osc_row_strides(const osc_tensor *t, int64_t *stride);
/* Fails (OSC_ERR_INDEX) unless component j of every kk-tuple in the first n_elems int64 values of
 * input 1 'indices' lies in [-dims[j], dims[j]-1]; messages name data dim dim0 + j. */
osc_status osc_check_index_tuples(osc_kctx *k, const osc_tensor *idx, int64_t n_elems,
                                  int32_t kk, const int64_t *dims, int32_t dim0);

#endif
