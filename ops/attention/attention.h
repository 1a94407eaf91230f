/* attention.h: what attention.c (attributes, checks, outputs) and att_rows.c (the typed row
 * loops) share: the node's parameters, the shapes one run works on, and the row job. */
#ifndef OSC_ATTENTION_H
#define OSC_ATTENTION_H

#include "core/kattr.h"

typedef struct att_params {
    int64_t q_heads, kv_heads; /* q_num_heads, kv_num_heads; 0 when absent */
    bool causal;
    int32_t mode;      /* qk_matmul_output_mode, 0 to 3 */
    double scale;      /* NaN when absent: 1/sqrt(head_size) */
    double softcap;    /* applied when > 0 */
    int32_t precision; /* softmax_precision: a float dtype, 0 when absent */
} att_params;

/* The shapes of one run, Q/K/V seen as 4-D (batch, heads, sequence, head size). */
typedef struct att_shape {
    int32_t rank; /* of Q, K, V: 3 or 4 */
    int64_t batch, qh, kvh, qs, kvs, past, total, d, dv;
    bool past_given, nonpad_given;
    /* attn_mask: element strides for (batch, q head, query, key), 0 where it broadcasts, and
     * the keys it covers (later ones are masked out: Attention-24 pads a short mask with -inf) */
    bool mask_given;
    int64_t m_st[4], m_len;
} att_shape;

/* One run's row job: unit u = (b * kvh + g) * qs + i computes the output rows (b, h, i) of the
 * q heads h of group g (those reading kv head g). */
typedef struct att_job {
    const att_shape *s;
    const att_params *p;
    double scale;
    const void *q, *k, *v, *pk, *pv, *mask;
    const int64_t *nonpad;
    int32_t t1, t2, tm; /* dtypes of Q/K/Y, of V, of attn_mask */
    void *y, *qk;       /* qk: qk_matmul_output, NULL when not asked for */
    bool wide;          /* compute in double (else float) */
    char *scratch;      /* part_bytes per thread part */
    size_t part_bytes;
} att_job;

/* Keys and values widened at a time (their rows in one block of a part's scratch). */
#define ATT_KEY_BLOCK 16
/* Compute elements of a row maximum's state (att_rows.c: two vectors of 8 lanes). */
#define ATT_ST 16
/* Bytes of scratch one thread part needs (a block of widened key rows and one of value rows;
 * per q head of a group its score row, query row, accumulator and row maximum's state). */
size_t osc_att_part_bytes(const att_shape *s, bool wide);
/* Computes units [lo, hi) of the job with the scratch of part `part`. */
void osc_att_rows(const att_job *j, int32_t part, int64_t lo, int64_t hi);

#endif
