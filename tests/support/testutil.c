/* testutil.c: see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"

uint32_t osc_test_rnd32(uint32_t *state) {
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

double osc_test_rnd_value(uint32_t *state) {
    double v = 0.25 + (double)(osc_test_rnd32(state) % 1000003) / 1000003.0 * 1.75;
    return osc_test_rnd32(state) & 1 ? -v : v;
}

osc_tensor osc_test_view(int32_t dtype, int32_t rank, const int64_t *dims, const void *data) {
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    int64_t n = 1;
    for (int32_t d = 0; d < rank; d++) n *= (t.dims[d] = dims[d]);
    osc_dtype_bytes(dtype, n, &t.nbytes);
    t.data = (void *)data;
    return t;
}

osc_tensor osc_test_pack(int32_t dtype, int32_t rank, const int64_t *dims, const double *v,
                         const int64_t *ix, unsigned char **at) {
    const osc_tensor t = osc_test_view(dtype, rank, dims, *at);
    const size_t n = t.nbytes / (dtype == OSC_FLOAT || dtype == OSC_INT32 ? 4 : 8);
    for (size_t i = 0; i < n; i++) {
        if (dtype == OSC_FLOAT) ((float *)t.data)[i] = (float)v[i];
        else if (dtype == OSC_DOUBLE) ((double *)t.data)[i] = v[i];
        else if (dtype == OSC_INT32) ((int32_t *)t.data)[i] = (int32_t)ix[i];
        else ((int64_t *)t.data)[i] = ix[i];
    }
    *at += (t.nbytes + 7) / 8 * 8;
    return t;
}

void *osc_test_counting_alloc(void *ud, void *p, size_t osize, size_t nsize) {
    osc_test_mem *m = ud;
    if (!p) osize = 0;
    if (nsize == 0) {
        free(p);
        m->live -= osize;
        return NULL;
    }
    m->allocs++;
    void *q = realloc(p, nsize);
    if (q) {
        m->live = m->live - osize + nsize;
        if (m->live > m->peak) m->peak = m->live;
    }
    return q;
}

void *osc_test_failing_alloc(void *ud, void *p, size_t osize, size_t nsize) {
    osc_test_failing *f = ud;
    (void)osize;
    if (nsize == 0) {
        free(p);
        return NULL;
    }
    if (++f->count == f->fail_at || (f->rest && f->fail_at && f->count > f->fail_at)) {
        f->failed = true;
        return NULL;
    }
    return realloc(p, nsize);
}

bool osc_test_write_file(const char *dir, const char *name, const void *p, size_t n,
                         const char *who) {
    char path[4096];
    if (dir) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        name = path;
    }
    FILE *f = fopen(name, "wb");
    bool ok = f && (n == 0 || fwrite(p, 1, n, f) == n);
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "%s: cannot write %s\n", who, name);
    return ok;
}
