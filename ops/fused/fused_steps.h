/* fused_steps.h: one edge of a fused gather-scatter (fused_scatter.h), shared by its two edge
 * loops: in edge order (fused_scatter.c) and grouped by destination row (fused_rows.c). The
 * steps and the combine are the same code in both, so the fp operations per element are the
 * same: the row's value so far, combined with each message in edge order. */
#ifndef OSC_FUSED_STEPS_H
#define OSC_FUSED_STEPS_H

#include "fused_types.h"
#include "ops/scatter/reduce.h"

#define FS_NONE(T, a, b) (b)
#define FS_ADD(T, a, b) OSC_COMBINE_FLOAT_ADD(T, a, b)
#define FS_MUL(T, a, b) OSC_COMBINE_FLOAT_MUL(T, a, b)
#define FS_MAX(T, a, b) OSC_COMBINE_FLOAT_MAX(T, a, b)
#define FS_MIN(T, a, b) OSC_COMBINE_FLOAT_MIN(T, a, b)
#define FS_ROW_LOOP(T, RED, EXPR)                                                          \
    for (int64_t i = 0; i < R; i++) o[i] = FS_##RED(T, o[i], (T)(EXPR))
/* One step along a row into the buffer V (N elements): V[i] = op(S[i], W) or op(W, S[i]), S
 * the row so far (the first step reads the source row itself, no copy), W the operand's
 * element for i (an expression of i). */
#define FS_ROW_MAX 1024 /* rows up to this long are evaluated step by step in a buffer */
#define FS_FOR(V, N, EXPR)                                                                 \
    {                                                                                      \
        for (int64_t i = 0; i < (N); i++) (V)[i] = (EXPR);                                 \
        break;                                                                             \
    }
#define FS_STEP(T, st, V, S, N, W)                                                         \
    do {                                                                                   \
        switch ((st)->op * 2 + (st)->operand_first) {                                      \
        case OSC_FS_ADD * 2: FS_FOR(V, N, (T)((S)[i] + (W)))                               \
        case OSC_FS_ADD * 2 + 1: FS_FOR(V, N, (T)((W) + (S)[i]))                           \
        case OSC_FS_SUB * 2: FS_FOR(V, N, (T)((S)[i] - (W)))                               \
        case OSC_FS_SUB * 2 + 1: FS_FOR(V, N, (T)((W) - (S)[i]))                           \
        case OSC_FS_MUL * 2: FS_FOR(V, N, (T)((S)[i] * (W)))                               \
        case OSC_FS_MUL * 2 + 1: FS_FOR(V, N, (T)((W) * (S)[i]))                           \
        case OSC_FS_DIV * 2: FS_FOR(V, N, (T)((S)[i] / (W)))                               \
        default: FS_FOR(V, N, (T)((W) / (S)[i]))                                           \
        }                                                                                  \
    } while (0)
/* Combines one edge's message into the row o (R elements; p the parameters, opnd the steps'
 * operands, a PAIR step's its values: fused_scatter.c's pair_values, or placed records): the
 * message is the source row xr through the steps, step st's operand read from its element
 * FS_OAT(st) on (an expression the caller defines: the edge's or a tiled step's row times the
 * step's estride, or the edge's place among operands copied in list order); v is a buffer of
 * FS_ROW_MAX elements of T. */
#define FS_EDGE(T, RED, p, o, xr, opnd, v)                                                 \
    do {                                                                                   \
        const osc_fs_step *s0 = &(p)->steps[0];                                            \
        if ((p)->n_steps == 0) {                                                           \
            FS_ROW_LOOP(T, RED, xr[i]);                                                    \
        } else if ((p)->n_steps == 1 && OSC_FS_PER_EDGE(s0)) {                             \
            const T w = ((const T *)(const void *)opnd[0])[FS_OAT(s0)];                     \
            switch (s0->op * 2 + s0->operand_first) {                                      \
            case OSC_FS_ADD * 2: FS_ROW_LOOP(T, RED, xr[i] + w); break;                    \
            case OSC_FS_ADD * 2 + 1: FS_ROW_LOOP(T, RED, w + xr[i]); break;                \
            case OSC_FS_SUB * 2: FS_ROW_LOOP(T, RED, xr[i] - w); break;                    \
            case OSC_FS_SUB * 2 + 1: FS_ROW_LOOP(T, RED, w - xr[i]); break;                \
            case OSC_FS_MUL * 2: FS_ROW_LOOP(T, RED, xr[i] * w); break;                    \
            case OSC_FS_MUL * 2 + 1: FS_ROW_LOOP(T, RED, w * xr[i]); break;                \
            case OSC_FS_DIV * 2: FS_ROW_LOOP(T, RED, xr[i] / w); break;                    \
            default: FS_ROW_LOOP(T, RED, w / xr[i]); break;                                \
            }                                                                              \
        } else if (R <= FS_ROW_MAX) { /* step by step along the row, each op hoisted */    \
            const T *sr = xr;                                                              \
            for (int32_t s = 0; s < (p)->n_steps; s++, sr = v) {                           \
                const osc_fs_step *st = &(p)->steps[s];                                    \
                const T *w = (const T *)(const void *)opnd[s] + FS_OAT(st);                 \
                const int64_t *tb = st->table;                                             \
                if (OSC_FS_PER_EDGE(st)) {                                                 \
                    FS_STEP(T, st, v, sr, R, w[0]);                                        \
                } else if (st->read == OSC_FS_FULL) {                                      \
                    FS_STEP(T, st, v, sr, R, w[i]);                                        \
                } else if (st->read == OSC_FS_BLOCK) {                                     \
                    for (int64_t b = 0; b < R / st->block; b++) {                         \
                        const T wb = w[b * st->block_stride];                              \
                        const int64_t at = b * st->block;                                  \
                        FS_STEP(T, st, v + at, sr + at, st->block, wb);                    \
                    }                                                                      \
                } else {                                                                   \
                    FS_STEP(T, st, v, sr, R, w[tb[i]]);                                    \
                }                                                                          \
            }                                                                              \
            FS_ROW_LOOP(T, RED, v[i]);                                                     \
        } else {                                                                           \
            for (int64_t i = 0; i < R; i++) {                                              \
                T vi = xr[i];                                                              \
                for (int32_t s = 0; s < (p)->n_steps; s++) {                               \
                    const osc_fs_step *st = &(p)->steps[s];                                \
                    const int64_t at = FS_OAT(st) +                                        \
                                       (OSC_FS_PER_EDGE(st)       ? 0                      \
                                        : st->read == OSC_FS_FULL ? i : st->table[i]);     \
                    const T w = ((const T *)(const void *)opnd[s])[at];                    \
                    const T a = st->operand_first ? w : vi, b = st->operand_first ? vi : w; \
                    vi = st->op == OSC_FS_ADD ? (T)(a + b) : st->op == OSC_FS_SUB ? (T)(a - b) \
                       : st->op == OSC_FS_MUL ? (T)(a * b) : (T)(a / b);                   \
                }                                                                          \
                o[i] = FS_##RED(T, o[i], vi);                                              \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* The epilogue (osc_fs_params.has_epi) on row d at o, R elements of T, w its operand's data. */
#define FS_EPILOGUE(T, p, o, R, w, d)                                                      \
    do {                                                                                   \
        if ((p)->epi.read == OSC_FS_ONE) {                                                 \
            const T wc = (T)(p)->epi_value;                                                \
            FS_STEP(T, &(p)->epi, o, o, R, wc);                                            \
        } else if ((p)->epi.read == OSC_FS_ROW) {                                          \
            const T wd = (w)[d]; /* (read once: o may alias w for the compiler) */         \
            FS_STEP(T, &(p)->epi, o, o, R, wd);                                            \
        } else {                                                                           \
            FS_STEP(T, &(p)->epi, o, o, R, (w)[i]);                                        \
        }                                                                                  \
    } while (0)

/* Value i of a bound index (any position: the piece looked up each time), and the address of
 * its element (for prefetches). */
static inline const char *osc_ixv_addr(const osc_ixv *v, int64_t i) {
    _Static_assert(OSC_IX_MAX_PIECES == 4, "one comparison per cut");
    const int32_t q = (i >= v->cut[0]) + (i >= v->cut[1]) + (i >= v->cut[2]);
    return (const char *)v->p[q] + (size_t)(i - v->start[q]) * (v->i64 ? 8 : 4);
}
static inline int64_t osc_ixv_row(const osc_ixv *v, int64_t i, int64_t rows) {
    const char *a = osc_ixv_addr(v, i);
    const int64_t x = v->i64 ? *(const int64_t *)(const void *)a : *(const int32_t *)(const void *)a;
    return x < 0 ? x + rows : x;
}

/* The instances LOOP(TN, T, RED) of a fused loop for every reduction of one dtype; the table of
 * the instances PFX_TN_RED by OSC_RED_*; and the instance of dtype and reduction red from the
 * tables of float and double (NULL: neither, or no such reduction). */
#define FS_EACH_RED(LOOP, TN, T)                                                           \
    LOOP(TN, T, NONE) LOOP(TN, T, ADD) LOOP(TN, T, MUL) LOOP(TN, T, MAX) LOOP(TN, T, MIN)
#define FS_RED_TABLE(PFX, TN)                                                              \
    {[OSC_RED_NONE] = PFX##_##TN##_NONE, [OSC_RED_ADD] = PFX##_##TN##_ADD,                  \
     [OSC_RED_MUL] = PFX##_##TN##_MUL, [OSC_RED_MAX] = PFX##_##TN##_MAX,                    \
     [OSC_RED_MIN] = PFX##_##TN##_MIN}
#define FS_RED_PICK(F32, F64, dtype, red)                                                  \
    ((red) < 0 || (red) > OSC_RED_MIN ? NULL                                               \
     : (dtype) == OSC_FLOAT           ? (F32)[red]                                         \
     : (dtype) == OSC_DOUBLE          ? (F64)[red] : NULL)

#endif
