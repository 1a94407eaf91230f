/* cf.h: what If, Loop and Scan share (cf_common.c). Their outputs' shapes are known only once
 * the subgraphs ran (a branch chosen by data, a trip count, a condition, shapes that change from
 * one iteration to the next), so infer runs the node, keeps its results in the node's session
 * slot (osc_kslot) and sets the shapes from them; run then copies them into the outputs the
 * engine placed. At load (folding: no slot), infer and run each compute. Every input is read
 * by infer (the rows' infer_reads: all bits). */
#ifndef OSC_CF_H
#define OSC_CF_H

#include "core/kernel.h"

/* Results of one evaluation: n tensors whose data (and string bytes) the set owns. */
typedef struct cf_set {
    osc_allocator *alloc;
    int32_t n;
    osc_tensor *t;
    size_t *cap;       /* bytes allocated per tensor */
    osc_pool strings;  /* bytes of string elements */
    uint64_t run;      /* the session's run they are for (k->run; 0: none) */
} cf_set;

/* Computes the node's outputs into `out` (n_out tensors of the set, cf_set_put/cf_set_make). */
typedef osc_status (*cf_eval_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 cf_set *out, int32_t n_out);

/* A set of n empty tensors from k->alloc; NULL after failing into k->err. */
cf_set *cf_set_new(osc_kctx *k, int32_t n);
void cf_set_free(cf_set *s);
/* Every tensor empty again (its room kept), the string bytes freed. */
void cf_set_clear(cf_set *s);
/* Tensor i becomes a copy of t (data and string bytes). */
osc_status cf_set_put(osc_kctx *k, cf_set *s, int32_t i, const osc_tensor *t);
/* Tensor i gets dtype and shape (rank, dims) and room for its bytes, zeroed; the limit on an
 * output's elements is checked. */
osc_status cf_set_make(osc_kctx *k, cf_set *s, int32_t i, int32_t dtype, int32_t rank,
                       const int64_t *dims);

/* Appends the elements of t to tensor i (first call: i takes t's dtype, rank 1 + t's rank, and
 * dims[0] 0); dims[0] counts the appends. Every t must have the first one's dtype and shape. */
osc_status cf_set_append(osc_kctx *k, cf_set *s, int32_t i, const osc_tensor *t,
                         const char *what);

/* Copies n bytes from src into tensor i at byte offset `at` (within what cf_set_make made),
 * string elements given bytes of their own. */
osc_status cf_set_write(osc_kctx *k, cf_set *s, int32_t i, size_t at, const void *src, size_t n);

/* The kernels' infer and run, given their evaluation. */
osc_status cf_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                    int32_t n_out, cf_eval_fn eval);
osc_status cf_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                  int32_t n_out, cf_eval_fn eval);

/* The GRAPH attribute `name` of the node (required), with its output count checked against
 * `outputs` (-1: any) and its own input count against `inputs` (-1: any); into *out. */
osc_status cf_graph_attr(osc_kctx *k, const osc_node *node, const char *name, int32_t inputs,
                         int32_t outputs, const osc_attr **out);
/* The single element of a scalar-like input (1 element) of dtype `dtype`, or an error naming it. */
osc_status cf_scalar(osc_kctx *k, const osc_tensor *t, int32_t input, const char *what,
                     int32_t dtype, int64_t *out);

#endif
