/* cloops.c: the plain C contenders of the benchmark: a straightforward scatter loop per op, and
 * memcpy on two threads. */
#include <string.h>

#include "harness.h"

/* Which input holds what, per op: data (or past_cache), indices (or write_indices), updates. */
static void pick_inputs(cloop *c, const bench_case *bc, int ts) {
    c->data = &bc->in[0];
    c->idx = ts ? (bc->n_in > 2 ? &bc->in[2] : NULL) : &bc->in[1];
    c->upd = ts ? &bc->in[1] : &bc->in[2];
}

void cloop_prepare(cloop *c, const osc_model *m, const bench_case *bc) {
    memset(c, 0, sizeof *c);
    c->kind = CL_NONE;
    osc_node_desc nd;
    if (osc_model_node_count(m) != 1 || osc_model_node(m, 0, &nd) != OSC_OK) {
        snprintf(c->why, sizeof c->why, "the C loop covers one-node models only");
        return;
    }
    int se = !strcmp(nd.op_type, "ScatterElements") || !strcmp(nd.op_type, "Scatter");
    int snd = !strcmp(nd.op_type, "ScatterND"), ts = !strcmp(nd.op_type, "TensorScatter");
    if (!se && !snd && !ts) {
        snprintf(c->why, sizeof c->why, "no C loop for %s", nd.op_type);
        return;
    }
    if (bc->n_in < (ts ? 2u : 3u)) {
        snprintf(c->why, sizeof c->why, "%s needs more inputs than the case has", nd.op_type);
        return;
    }
    pick_inputs(c, bc, ts);
    const char *red = "none";
    if (osc_model_node_attr_str(m, 0, "reduction", &red) != OSC_OK) red = "none";
    c->add = !strcmp(red, "add");
    if (strcmp(red, "none") && !(c->add && c->data->dtype == OSC_FLOAT)) {
        snprintf(c->why, sizeof c->why, "no C loop for reduction %s on %s", red,
                 osc_dtype_name(c->data->dtype));
        return;
    }
    c->esize = osc_dtype_bits(c->data->dtype) / 8;
    if (c->esize == 0 || c->data->dtype == OSC_STRING || osc_dtype_bits(c->data->dtype) % 8) {
        snprintf(c->why, sizeof c->why, "no C loop for %s", osc_dtype_name(c->data->dtype));
        return;
    }
    c->index_bits = c->idx && c->idx->dtype == OSC_INT32 ? 32 : 64;
    if (se) {
        int64_t axis = 0;
        if (osc_model_node_attr_int(m, 0, "axis", &axis) != OSC_OK) axis = 0;
        if (axis < 0) axis += c->data->rank;
        if (c->data->rank != 2 || (axis != 0 && axis != 1)) {
            snprintf(c->why, sizeof c->why, "the C loop covers rank-2 %s only", nd.op_type);
            return;
        }
        c->axis = axis;
        c->kind = CL_SE2D;
    } else if (snd) {
        if (c->idx->dtype != OSC_INT64) {
            snprintf(c->why, sizeof c->why, "ScatterND indices must be int64");
            return;
        }
        c->kind = CL_ND;
    } else {
        int64_t axis = -2;
        if (osc_model_node_attr_int(m, 0, "axis", &axis) != OSC_OK) axis = -2;
        const char *mode = "linear";
        if (osc_model_node_attr_str(m, 0, "mode", &mode) != OSC_OK) mode = "linear";
        if (c->data->rank != 4 || (axis != -2 && axis != 2) || strcmp(mode, "linear") ||
            !c->idx) {
            snprintf(c->why, sizeof c->why, "the C loop covers rank-4 linear TensorScatter on "
                     "axis -2 with write_indices only");
            return;
        }
        c->kind = CL_TS;
    }
}

/* ScatterElements on [rows, cols], indices/updates [ir, ic]; T is the index type. */
#define SE2D_LOOP(T)                                                                             \
    do {                                                                                         \
        const T *ix = c->idx->data;                                                              \
        for (int64_t i = 0; i < ir; i++)                                                         \
            for (int64_t j = 0; j < ic; j++) {                                                   \
                int64_t v = ix[i * ic + j];                                                      \
                if (v < 0) v += c->axis == 0 ? rows : cols;                                      \
                int64_t o = c->axis == 0 ? v * cols + j : i * cols + v;                          \
                if (c->add) ((float *)out)[o] += ((const float *)u)[i * ic + j];                 \
                else if (es == 4) ((uint32_t *)out)[o] = ((const uint32_t *)u)[i * ic + j];      \
                else memcpy((char *)out + o * es, u + (i * ic + j) * es, es);                    \
            }                                                                                    \
    } while (0)

void cloop_scatter(const cloop *c, void *out) {
    const char *u = c->upd->data;
    const int64_t es = (int64_t)c->esize;
    if (c->kind == CL_SE2D) {
        const int64_t rows = c->data->dims[0], cols = c->data->dims[1];
        const int64_t ir = c->idx->dims[0], ic = c->idx->dims[1];
        if (c->index_bits == 32) SE2D_LOOP(int32_t);
        else SE2D_LOOP(int64_t);
    } else if (c->kind == CL_ND) {
        const int32_t k = (int32_t)c->idx->dims[c->idx->rank - 1];
        int64_t stride[OSC_MAX_RANK], count = 1;
        for (int32_t d = c->data->rank - 1; d >= 0; d--) {
            stride[d] = count;
            count *= c->data->dims[d];
        }
        const int64_t slice = k ? stride[k - 1] : count; /* prod(data.shape[k:]) */
        const int64_t n = k ? osc_tensor_count(c->idx) / k : 1;
        const int64_t *ix = c->idx->data;
        for (int64_t t = 0; t < n; t++) {
            int64_t off = 0;
            for (int32_t j = 0; j < k; j++) {
                int64_t v = ix[t * k + j];
                if (v < 0) v += c->data->dims[j];
                off += v * stride[j];
            }
            if (c->add) {
                float *o = (float *)out + off;
                const float *s = (const float *)u + t * slice;
                for (int64_t e = 0; e < slice; e++) o[e] += s[e];
            } else {
                memcpy((char *)out + off * es, u + t * slice * es, (size_t)(slice * es));
            }
        }
    } else if (c->kind == CL_TS) {
        const int64_t *pd = c->data->dims, *ud = c->upd->dims;
        const int64_t *w = c->idx->data;
        const size_t row = (size_t)(ud[2] * ud[3] * es);
        for (int64_t b = 0; b < pd[0]; b++)
            for (int64_t h = 0; h < pd[1]; h++)
                memcpy((char *)out + ((b * pd[1] + h) * pd[2] + w[b]) * pd[3] * es,
                       u + (b * ud[1] + h) * ud[2] * ud[3] * es, row);
    }
}

/* ---- memcpy on two threads ---- */

static void *pcopy_main(void *arg) {
    pcopy *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->done == p->posted) pthread_cond_wait(&p->cv, &p->mu);
        if (p->quit) break;
        pthread_mutex_unlock(&p->mu);
        size_t h = p->n / 2;
        memcpy(p->dst + h, p->src + h, p->n - h);
        pthread_mutex_lock(&p->mu);
        p->done = p->posted;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int pcopy_start(pcopy *p) {
    memset(p, 0, sizeof *p);
    if (pthread_mutex_init(&p->mu, NULL)) return 1;
    if (pthread_cond_init(&p->cv, NULL)) {
        pthread_mutex_destroy(&p->mu);
        return 1;
    }
    if (pthread_create(&p->thread, NULL, pcopy_main, p)) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        return 1;
    }
    return 0;
}

void pcopy_run(pcopy *p, void *dst, const void *src, size_t n) {
    pthread_mutex_lock(&p->mu);
    p->dst = dst, p->src = src, p->n = n;
    p->posted++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    memcpy(dst, src, n / 2);
    pthread_mutex_lock(&p->mu);
    while (p->done != p->posted) pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void pcopy_stop(pcopy *p) {
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
}
