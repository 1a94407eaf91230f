/* seq.h: what the sequence and optional kernels share (seq_common.c). Their values are packed
 * (core/pack.h); a kernel that makes one lists its items (views of input values, input tensors,
 * or items it fills itself) and the same list sizes the output in infer and fills it in run.
 * Every sequence or optional input is read by infer (the rows' infer_reads): the output's size,
 * or its shape, depends on its items. */
#ifndef OSC_SEQ_H
#define OSC_SEQ_H

#include "core/kattr.h"
#include "core/kernel.h"
#include "core/pack.h"

/* An output value's items: n tensors (views or inputs), and the pointers the packer reads. */
typedef struct seq_items {
    osc_allocator *alloc;
    int64_t n;
    osc_tensor *t;
    const osc_tensor **p;
    int32_t kind, elem; /* of the value to make */
} seq_items;

/* Room for n items from k->alloc (freed by seq_items_free; p[i] = &t[i] to start with). */
osc_status seq_items_new(osc_kctx *k, int64_t n, seq_items *it);
void seq_items_free(seq_items *it);

/* The packed value of input i (present, data known), its head in *h. */
osc_status seq_input(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                     const char *what, osc_pack_head *h);
/* Fails (OSC_ERR_UNSUPPORTED) for a string tensor, which values do not carry, and
 * (OSC_ERR_SHAPE) when elem is set and t's dtype differs. */
osc_status seq_item_ok(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                       int32_t elem);
/* A position input (int32 or int64, one element) into [0, n) (end_ok: [0, n]), from
 * [-n, n - 1] (end_ok: [-n, n]); fails naming the input, the value and the range. */
osc_status seq_position(osc_kctx *k, const osc_tensor *t, int32_t input, int64_t n, bool end_ok,
                        int64_t *pos);
/* Fails (OSC_ERR_STATE) unless output 0 was placed with want's dtype and shape, and holds its
 * bytes. */
osc_status seq_check_out(osc_kctx *k, const osc_tensor *out, int32_t n_out,
                         const osc_tensor *want);
/* Builds the items of the node's output value 0 (it->kind, it->elem set, seq_items_new). */
typedef osc_status (*seq_build_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                   seq_items *it);
/* infer and run of a kernel whose output 0 is a value build gives; run fills the items of NULL
 * data with fill (NULL: none such). */
typedef osc_status (*seq_fill_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                  osc_tensor *out);
osc_status seq_infer_value(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out, seq_build_fn build);
osc_status seq_run_value(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out, seq_build_fn build, seq_fill_fn fill);
#define SEQ_VALUE_KERNEL(PFX, BUILD, FILL)                                                     \
    osc_status PFX##_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,           \
                           osc_tensor *out, int32_t n_out) {                                 \
        return seq_infer_value(k, in, n_in, out, n_out, BUILD);                              \
    }                                                                                        \
    osc_status PFX##_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,             \
                         osc_tensor *out, int32_t n_out) {                                   \
        return seq_run_value(k, in, n_in, out, n_out, BUILD, FILL);                          \
    }

/* Copies `len` slices along an axis: outer x (len x inner) elements of es bytes, from src
 * (whose axis has src_len entries, starting at src_at) to dst (dst_len, dst_at). */
void seq_copy_slices(void *dst, int64_t dst_len, int64_t dst_at, const void *src,
                     int64_t src_len, int64_t src_at, int64_t len, int64_t outer, size_t row);

#endif
