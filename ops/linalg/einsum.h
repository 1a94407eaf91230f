/* einsum.h: Einsum's equation (parsed at init) and its plan for one set of input shapes
 * (ops/linalg/einsum_parse.c), shared with the kernel (ops/linalg/einsum.c). Internal to ops/. */
#ifndef OSC_EINSUM_H
#define OSC_EINSUM_H

#include "ops/shape/shape_ops.h"

#define ES_MAX_OPS 2                           /* operands this runtime contracts */
#define ES_LETTERS 52                          /* a-z then A-Z: label codes 0..51 */
#define ES_LABELS (ES_LETTERS + OSC_MAX_RANK)  /* then the ellipsis dims, left to right */
#define ES_ELL (-1)                            /* the "..." of a term */
#define ES_TEXT 96                             /* the equation as messages quote it */

/* One side of the equation: label codes in order, ES_ELL where "..." stands. */
typedef struct es_term {
    int8_t lab[OSC_MAX_RANK + 1];
    int32_t n;   /* entries in lab */
    int32_t ell; /* index of ES_ELL in lab, -1 when none */
} es_term;

/* The parsed equation (Einsum's params). */
typedef struct es_eq {
    int32_t n_ops;
    es_term in[ES_MAX_OPS];
    es_term out;    /* explicit, or built from the implicit rule */
    bool explicit_out;
    char text[ES_TEXT];
} es_eq;

/* Parses the equation attribute (spaces allowed) into *eq; fails naming the equation, the
 * position and the character for anything this runtime does not handle (three or more
 * operands among them). */
osc_status osc_es_parse(osc_kctx *k, const char *s, es_eq *eq);

/* What one set of input shapes gives: every label's size and, per operand, its element stride
 * (the sum over the axes it labels: diagonals; 0 where a broadcast ellipsis dim has size 1). */
typedef struct es_plan {
    int32_t n_labels;                 /* ES_LETTERS + the ellipsis dims */
    int64_t size[ES_LABELS];
    uint8_t where[ES_LABELS];         /* bit i: in operand i; bit 7: in the output */
    int64_t stride[ES_MAX_OPS][ES_LABELS];
    int32_t n_out;
    int32_t out[OSC_MAX_RANK];        /* the output's labels in order */
    int32_t first[ES_MAX_OPS][OSC_MAX_RANK]; /* each operand's labels, each once, in order */
    int32_t n_first[ES_MAX_OPS];
} es_plan;
#define ES_IN_OUT 0x80

/* The plan for these inputs, and the output dtype and shape into *o. Fails naming the node,
 * the input, the dim and sizes when labels disagree. */
osc_status osc_es_plan(osc_kctx *k, const es_eq *eq, const osc_tensor *const *in, int32_t n_in,
                       es_plan *p, osc_tensor *o);

#endif
