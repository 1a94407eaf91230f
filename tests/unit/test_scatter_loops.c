/* test_scatter_loops.c: ops/scatter/scatter_loops.c: the block walk, and bucketed paths vs direct loops. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/scatter/scatter.h"
#include "ops/scatter/scatter_loops.h"
#include "core/dtype.h"
#include "tests/support/check.h"

/* xorshift64*: reproducible bytes and indices without global state */
static uint64_t rnd(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static osc_tensor shape(int32_t dtype, int32_t rank, const int64_t *dims) {
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    memcpy(t.dims, dims, (size_t)rank * sizeof dims[0]);
    return t;
}

/* Fills n elements: finite values for the float classes (two NaNs under add or mul may give
 * either payload, see docs/semantics.md), 0/1 for bool, random bytes otherwise. */
static void fill(int32_t dtype, void *p, int64_t n, uint64_t *r) {
    for (int64_t i = 0; i < n; i++) {
        const float x = (float)((int64_t)(rnd(r) % 20001) - 10000) / 97.0f;
        const float y = (float)((int64_t)(rnd(r) % 2001) - 1000) / 13.0f;
        switch (dtype) {
            case OSC_FLOAT: ((float *)p)[i] = x; break;
            case OSC_DOUBLE: ((double *)p)[i] = (double)x * 1.1; break;
            case OSC_FLOAT16: ((uint16_t *)p)[i] = osc_f32_to_f16(x); break;
            case OSC_BFLOAT16: ((uint16_t *)p)[i] = osc_f32_to_bf16(x); break;
            case OSC_COMPLEX64: ((osc_complex64 *)p)[i] = (osc_complex64){x, y}; break;
            case OSC_COMPLEX128: ((osc_complex128 *)p)[i] = (osc_complex128){x, y}; break;
            case OSC_BOOL: ((uint8_t *)p)[i] = (uint8_t)(rnd(r) & 1); break;
            default: {
                const size_t es = osc_dtype_get(dtype)->bits / 8;
                for (size_t b = 0; b < es; b++)
                    ((unsigned char *)p)[(size_t)i * es + b] = (unsigned char)rnd(r);
            }
        }
    }
}

/* ---- the walk visits every index element in row-major order at the right data offset ---- */

static void check_walk(int32_t rank, const int64_t *ddims, const int64_t *idims, int32_t axis) {
    osc_tensor data = shape(OSC_FLOAT, rank, ddims), idx = shape(OSC_INT64, rank, idims);
    int64_t stride[OSC_MAX_RANK];
    assert_true(osc_row_strides(&data, stride));
    osc_elem_walk w;
    assert_true(osc_elem_walk_init(&w, &data, &idx, axis));
    const osc_elem_block *b = &w.block;
    const int64_t s = ddims[axis], n = osc_tensor_count(&idx);
    assert_int_equal(w.blocks * b->rows * b->n, n);
    int64_t f = 0, base = 0;
    for (int64_t blk = 0; blk < w.blocks; blk++) {
        for (int64_t r = 0; r < b->rows; r++)
            for (int64_t j = 0; j < b->n; j++, f++) {
                const int64_t v = f % s; /* any index value */
                const int64_t got = base + r * b->row_step + v * b->astride +
                                    (w.axis_last ? 0 : j * b->jstride);
                /* naive: unravel f over the index dims, the index replaces the axis coord */
                int64_t rest = f, want = 0;
                for (int32_t d = rank - 1; d >= 0; d--) {
                    const int64_t c = rest % idims[d];
                    rest /= idims[d];
                    want += (d == axis ? v : c) * stride[d];
                }
                if (got != want)
                    fail_msg("rank %d axis %d element %lld: walk offset %lld, expected %lld",
                             (int)rank, (int)axis, (long long)f, (long long)got,
                             (long long)want);
            }
        base = osc_elem_walk_next(&w);
    }
}

static void test_walk_offsets(void **state) {
    (void)state;
    check_walk(2, (const int64_t[]){7, 9}, (const int64_t[]){3, 9}, 0);  /* one block */
    check_walk(2, (const int64_t[]){7, 9}, (const int64_t[]){7, 4}, 1);  /* axis last */
    check_walk(2, (const int64_t[]){7, 9}, (const int64_t[]){5, 4}, 0);  /* partial rows */
    check_walk(1, (const int64_t[]){10}, (const int64_t[]){13}, 0);      /* rank 1 */
    check_walk(3, (const int64_t[]){4, 5, 6}, (const int64_t[]){4, 1, 6}, 0);  /* dropped dim */
    check_walk(3, (const int64_t[]){4, 5, 6}, (const int64_t[]){3, 5, 6}, 0);  /* merged dims */
    check_walk(3, (const int64_t[]){4, 5, 6}, (const int64_t[]){4, 3, 1}, 1);  /* axis, then 1 */
    check_walk(3, (const int64_t[]){4, 5, 6}, (const int64_t[]){2, 5, 2}, 1);  /* strided */
    check_walk(4, (const int64_t[]){3, 4, 5, 6}, (const int64_t[]){3, 2, 5, 6}, 1);
    check_walk(4, (const int64_t[]){3, 4, 5, 6}, (const int64_t[]){2, 4, 1, 3}, 3);
    check_walk(5, (const int64_t[]){2, 3, 1, 4, 5}, (const int64_t[]){2, 1, 1, 4, 7}, 4);
    check_walk(3, (const int64_t[]){4, 1, 6}, (const int64_t[]){4, 1, 6}, 1); /* axis size 1 */
}

/* ---- bucketed ScatterElements == direct loops, byte for byte ---- */

/* The direct path as the kernel runs it: copy, then every block of the walk. */
static void se_direct(const osc_elem_walk *w0, int32_t dtype, int32_t red, int32_t idtype,
                      const void *idx, const void *upd, char *out, size_t esize) {
    osc_elem_walk w = *w0;
    osc_elem_fn fn = osc_se_loop(dtype, red, idtype, w.axis_last);
    assert_non_null(fn);
    const size_t isize = idtype == OSC_INT32 ? 4 : 8;
    const int64_t per = w.block.rows * w.block.n;
    osc_elem_block b = w.block;
    int64_t base = 0;
    for (int64_t blk = 0, f = 0; blk < w.blocks; blk++, f += per) {
        b.dst = out + (size_t)base * esize;
        b.src = (const char *)upd + (size_t)f * esize;
        b.idx = (const char *)idx + (size_t)f * isize;
        assert_int_equal(fn(&b), -1);
        base = osc_elem_walk_next(&w);
    }
}

/* The allocator, pool (threads: 1 = none) and scratch block a bucketed run gets. */
typedef struct bk_env {
    osc_allocator a;
    osc_tpool *tp;
    uint64_t pool_bytes;
    osc_scratch sc;
} bk_env;

static void env_open(bk_env *e, int32_t threads) {
    osc_allocator_init(&e->a, NULL);
    e->tp = osc_tpool_new(&e->a, threads);
#ifdef OSC_NO_THREADS
    assert_int_equal(osc_tpool_size(e->tp), 1); /* no pool: the same work on one thread */
#else
    assert_int_equal(osc_tpool_size(e->tp), threads);
#endif
    e->pool_bytes = e->a.used;
    e->sc = (osc_scratch){&e->a, NULL, 0};
}

/* The partition lived in the scratch block only; everything goes back. */
static void env_close(bk_env *e) {
    assert_int_equal(e->a.used, e->pool_bytes + e->sc.size);
    osc_scratch_free(&e->sc);
    osc_tpool_free(e->tp);
    assert_int_equal(e->a.used, 0);
}

/* threads: 1 (no pool), or a pool of that many (partition and regions split among them) */
static void check_se_bucketed_t(int32_t dtype, int32_t red, int32_t idtype, int32_t axis,
                                const int64_t *ddims, const int64_t *idims, uint64_t seed,
                                int32_t threads) {
    bk_env e;
    env_open(&e, threads);
    osc_tensor data = shape(dtype, 2, ddims), idx = shape(idtype, 2, idims);
    const size_t esize = osc_dtype_get(dtype)->bits / 8, isize = idtype == OSC_INT32 ? 4 : 8;
    const int64_t count = osc_tensor_count(&data), n = osc_tensor_count(&idx);
    const int64_t s = ddims[axis];
    char *d = malloc((size_t)count * esize), *u = malloc((size_t)n * esize);
    char *ix = malloc((size_t)n * isize);
    char *want = malloc((size_t)count * esize), *got = malloc((size_t)count * esize);
    assert_true(d && u && ix && want && got);
    uint64_t r = seed;
    fill(dtype, d, count, &r);
    fill(dtype, u, n, &r);
    for (int64_t i = 0; i < n; i++) {
        /* from [-s, s-1], a small range half the time so duplicates are common */
        int64_t v = (int64_t)(rnd(&r) % (uint64_t)(2 * s)) - s;
        if (i & 1) v = (int64_t)(rnd(&r) % 8) - 4;
        if (idtype == OSC_INT32)
            ((int32_t *)(void *)ix)[i] = (int32_t)v;
        else
            ((int64_t *)(void *)ix)[i] = v;
    }
    osc_elem_walk w;
    assert_true(osc_elem_walk_init(&w, &data, &idx, axis));
    memcpy(want, d, (size_t)count * esize);
    se_direct(&w, dtype, red, idtype, ix, u, want, esize);
    /* copy mode */
    memset(got, 0x5A, (size_t)count * esize);
    assert_int_equal(osc_se_bucketed(&e.sc, e.tp, &w, dtype, red, idtype, ix, u, got, d, count),
                     OSC_BK_DONE);
    assert_memory_equal(got, want, (size_t)count * esize);
    /* in place */
    memcpy(got, d, (size_t)count * esize);
    assert_int_equal(osc_se_bucketed(&e.sc, e.tp, &w, dtype, red, idtype, ix, u, got, NULL,
                                     count),
                     OSC_BK_DONE);
    assert_memory_equal(got, want, (size_t)count * esize);
    /* one index out of range, late: nothing written */
    if (idtype == OSC_INT64) ((int64_t *)(void *)ix)[n - 2] = s;
    else ((int32_t *)(void *)ix)[n - 2] = (int32_t)-s - 1;
    memset(got, 0x5A, (size_t)count * esize);
    assert_int_equal(osc_se_bucketed(&e.sc, e.tp, &w, dtype, red, idtype, ix, u, got, d, count),
                     OSC_BK_BAD_INDEX);
    for (int64_t i = 0; i < count * (int64_t)esize; i++)
        if (got[i] != 0x5A) fail_msg("byte %lld written despite a bad index", (long long)i);
    env_close(&e);
    free(d), free(u), free(ix), free(want), free(got);
}

static void check_se_bucketed(int32_t dtype, int32_t red, int32_t idtype, int32_t axis,
                              const int64_t *ddims, const int64_t *idims, uint64_t seed) {
    for (int32_t t = 1; t <= 3; t++)
        check_se_bucketed_t(dtype, red, idtype, axis, ddims, idims, seed, t);
}

/* A size-first build (OSC_SIZE_FIRST) has no bucketed path: every call says so. */
static void skip_if_size_first(void) {
#ifdef OSC_SIZE_FIRST
    assert_int_equal(osc_se_bucketed(NULL, NULL, NULL, OSC_FLOAT, OSC_RED_ADD, OSC_INT64, NULL,
                                     NULL, NULL, NULL, 0), OSC_BK_SKIPPED);
    assert_int_equal(osc_snd_bucketed(NULL, NULL, NULL, OSC_FLOAT, OSC_RED_ADD, NULL, NULL, 0),
                     OSC_BK_SKIPPED);
    skip();
#endif
}

static void test_se_bucketed(void **state) {
    (void)state;
    skip_if_size_first();
    /* [640, 1024] float = 2.5 MiB: ten 256 KiB regions, the last one partial */
    const int64_t dd[2] = {640, 1024}, rows[2] = {300, 1024}, cols[2] = {640, 300};
    const int64_t part[2] = {200, 700};
    check_se_bucketed(OSC_FLOAT, OSC_RED_NONE, OSC_INT64, 0, dd, rows, 1);
    check_se_bucketed(OSC_FLOAT, OSC_RED_ADD, OSC_INT32, 0, dd, rows, 2);
    check_se_bucketed(OSC_FLOAT, OSC_RED_MAX, OSC_INT64, 1, dd, cols, 3);
    check_se_bucketed(OSC_FLOAT, OSC_RED_MIN, OSC_INT32, 0, dd, part, 4);
    check_se_bucketed(OSC_FLOAT16, OSC_RED_ADD, OSC_INT64, 0, dd, rows, 5);
    check_se_bucketed(OSC_BFLOAT16, OSC_RED_MUL, OSC_INT64, 1, dd, cols, 6);
    check_se_bucketed(OSC_INT8, OSC_RED_MUL, OSC_INT32, 0, dd, rows, 7);
    check_se_bucketed(OSC_UINT64, OSC_RED_ADD, OSC_INT64, 0, dd, part, 8);
    check_se_bucketed(OSC_BOOL, OSC_RED_MIN, OSC_INT64, 0, dd, rows, 9);
    check_se_bucketed(OSC_DOUBLE, OSC_RED_NONE, OSC_INT32, 1, dd, cols, 10);
    check_se_bucketed(OSC_COMPLEX128, OSC_RED_MAX, OSC_INT64, 0, dd, part, 11);
    check_se_bucketed(OSC_COMPLEX64, OSC_RED_NONE, OSC_INT64, 0, dd, rows, 12);
}

/* Strings never take the bucketed path (string add allocates per element). */
static void test_se_bucketed_skips_strings(void **state) {
    (void)state;
    bk_env e;
    env_open(&e, 1);
    osc_tensor data = shape(OSC_STRING, 1, (const int64_t[]){4});
    osc_tensor idx = shape(OSC_INT64, 1, (const int64_t[]){2});
    osc_elem_walk w;
    assert_true(osc_elem_walk_init(&w, &data, &idx, 0));
    osc_string d[4] = {{0}}, u[2] = {{0}};
    int64_t ix[2] = {0, 1};
    assert_int_equal(osc_se_bucketed(&e.sc, e.tp, &w, OSC_STRING, OSC_RED_NONE, OSC_INT64, ix,
                                     u, d, NULL, 4),
                     OSC_BK_SKIPPED);
    env_close(&e);
}

/* ---- bucketed ScatterND (single elements) == direct loop ---- */

static void check_snd_bucketed_t(int32_t dtype, int32_t red, int32_t k, int32_t rank,
                                 const int64_t *dims, int64_t tuples, uint64_t seed,
                                 int32_t threads) {
    bk_env e;
    env_open(&e, threads);
    osc_tensor data = shape(dtype, rank, dims);
    const size_t esize = osc_dtype_get(dtype)->bits / 8;
    const int64_t count = osc_tensor_count(&data);
    int64_t stride[OSC_MAX_RANK];
    assert_true(osc_row_strides(&data, stride));
    assert_int_equal(k, rank); /* single elements */
    char *d = malloc((size_t)count * esize), *u = malloc((size_t)tuples * esize);
    int64_t *ix = malloc((size_t)(tuples * k) * sizeof *ix);
    char *want = malloc((size_t)count * esize), *got = malloc((size_t)count * esize);
    assert_true(d && u && ix && want && got);
    uint64_t r = seed;
    fill(dtype, d, count, &r);
    fill(dtype, u, tuples, &r);
    for (int64_t t = 0; t < tuples; t++)
        for (int32_t j = 0; j < k; j++) {
            const int64_t s = dims[j];
            int64_t v = (int64_t)(rnd(&r) % (uint64_t)(2 * s)) - s;
            if (t & 1) v = (int64_t)(rnd(&r) % 4) - 2; /* duplicates */
            ix[t * k + j] = v;
        }
    osc_nd_block b = {.src = u, .idx = ix, .dims = dims, .stride = stride, .tuples = tuples,
                      .slice = 1, .k = k};
    memcpy(want, d, (size_t)count * esize);
    b.dst = want;
    osc_nd_fn fn = osc_snd_loop(dtype, red);
    assert_non_null(fn);
    assert_int_equal(fn(&b), -1);
    memset(got, 0x5A, (size_t)count * esize);
    assert_int_equal(osc_snd_bucketed(&e.sc, e.tp, &b, dtype, red, got, d, count), OSC_BK_DONE);
    assert_memory_equal(got, want, (size_t)count * esize);
    memcpy(got, d, (size_t)count * esize);
    assert_int_equal(osc_snd_bucketed(&e.sc, e.tp, &b, dtype, red, got, NULL, count), OSC_BK_DONE);
    assert_memory_equal(got, want, (size_t)count * esize);
    ix[(tuples - 1) * k] = -dims[0] - 1; /* the last tuple out of range */
    memset(got, 0x5A, (size_t)count * esize);
    assert_int_equal(osc_snd_bucketed(&e.sc, e.tp, &b, dtype, red, got, d, count),
                     OSC_BK_BAD_INDEX);
    for (int64_t i = 0; i < count * (int64_t)esize; i++)
        if (got[i] != 0x5A) fail_msg("byte %lld written despite a bad index", (long long)i);
    env_close(&e);
    free(d), free(u), free(ix), free(want), free(got);
}

static void check_snd_bucketed(int32_t dtype, int32_t red, int32_t k, int32_t rank,
                               const int64_t *dims, int64_t tuples, uint64_t seed) {
    for (int32_t t = 1; t <= 3; t++)
        check_snd_bucketed_t(dtype, red, k, rank, dims, tuples, seed, t);
}

static void test_snd_bucketed(void **state) {
    (void)state;
    skip_if_size_first();
    check_snd_bucketed(OSC_FLOAT, OSC_RED_ADD, 1, 1, (const int64_t[]){700000}, 300000, 21);
    check_snd_bucketed(OSC_FLOAT, OSC_RED_NONE, 2, 2, (const int64_t[]){900, 800}, 200000, 22);
    check_snd_bucketed(OSC_FLOAT16, OSC_RED_MUL, 2, 2, (const int64_t[]){900, 800}, 100000, 23);
    check_snd_bucketed(OSC_INT32, OSC_RED_MAX, 3, 3, (const int64_t[]){50, 60, 70}, 90000, 24);
    check_snd_bucketed(OSC_DOUBLE, OSC_RED_MIN, 1, 1, (const int64_t[]){400000}, 50000, 25);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_walk_offsets),
    cmocka_unit_test(test_se_bucketed),
    cmocka_unit_test(test_se_bucketed_skips_strings),
    cmocka_unit_test(test_snd_bucketed),
)
