/* test_tpool.c: the session thread pool, the range split and the large-copy routines. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/copy.h"
#include "core/tpool.h"
#include "tests/support/check.h"

static void no_pool_below_two(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    assert_null(osc_tpool_new(&a, 0));
    assert_null(osc_tpool_new(&a, 1));
    assert_int_equal(osc_tpool_size(NULL), 1);
    assert_int_equal(a.used, 0);
}

/* Every part runs exactly once per job, on its own thread, job after job. */
typedef struct count_job {
    int hits[8];
    int32_t parts_seen;
} count_job;

static void count_part(void *ctx, int32_t part, int32_t parts) {
    count_job *j = ctx;
    j->hits[part]++; /* each part writes its own slot */
    if (part == 0) j->parts_seen = parts;
}

static void every_part_once_per_job(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    for (int32_t n = 2; n <= 5; n++) {
        osc_tpool *p = osc_tpool_new(&a, n);
        assert_non_null(p);
        assert_int_equal(osc_tpool_size(p), n);
        count_job j = {{0}, 0};
        for (int job = 0; job < 200; job++) osc_tpool_run(p, count_part, &j);
        assert_int_equal(j.parts_seen, n);
        for (int32_t i = 0; i < 8; i++) assert_int_equal(j.hits[i], i < n ? 200 : 0);
        osc_tpool_free(p);
    }
    assert_int_equal(a.used, 0);
    count_job j = {{0}, 0};
    osc_tpool_run(NULL, count_part, &j); /* no pool: the caller runs the one part */
    assert_int_equal(j.hits[0], 1);
    assert_int_equal(j.parts_seen, 1);
}

/* The parts cover [0, n) in order, without overlap, cut at multiples of align. */
static void ranges_tile(void **state) {
    (void)state;
    const int64_t ns[] = {0, 1, 7, 64, 1000, 1001, 12345};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int64_t align = 1; align <= 64; align *= 4)
            for (int32_t parts = 1; parts <= 5; parts++) {
                int64_t next = 0;
                for (int32_t p = 0; p < parts; p++) {
                    int64_t lo, hi;
                    osc_par_range(ns[k], align, p, parts, &lo, &hi);
                    assert_int_equal(lo, next);
                    assert_true(hi >= lo);
                    if (hi < ns[k]) assert_int_equal(hi % align, 0);
                    next = hi;
                }
                assert_int_equal(next, ns[k]);
            }
}

/* Streaming copies (through the pool, osc_copy_big, and each store width) at every destination
 * alignment up to 39 and around the size threshold equal memcpy, and write nothing outside
 * [dst, dst + n). */
static void big_copies_equal_memcpy(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    osc_tpool *p = osc_tpool_new(&a, 2);
    assert_non_null(p);
    const size_t max = OSC_STREAM_MIN_BYTES + 300;
    unsigned char *src = malloc(max + 64), *dst = malloc(max + 64);
    assert_true(src && dst);
    for (size_t i = 0; i < max + 64; i++) src[i] = (unsigned char)(i * 131 + 7);
    const size_t sizes[] = {0, 1, 127, 128, 200, OSC_STREAM_MIN_BYTES - 1, OSC_STREAM_MIN_BYTES,
                            OSC_STREAM_MIN_BYTES + 63, OSC_STREAM_MIN_BYTES + 257};
#if defined(__x86_64__) && defined(__GNUC__)
    const bool avx2 = __builtin_cpu_supports("avx2");
#else
    const bool avx2 = false;
#endif
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t off = 0; off < 40; off += 3)
            for (int how = 0; how < 4; how++) {
                const size_t n = sizes[k];
                memset(dst, 0xEE, max + 64);
                if (how == 0) osc_par_memcpy(p, dst + off, src + 5, n);
                else if (how == 1) osc_copy_big(dst + off, src + 5, n);
                else if (how == 2) osc_copy_stream(dst + off, src + 5, n, false);
                else if (avx2) osc_copy_stream(dst + off, src + 5, n, true);
                else continue;
                assert_memory_equal(dst + off, src + 5, n);
                for (size_t i = 0; i < off; i++) assert_int_equal(dst[i], 0xEE);
                for (size_t i = off + n; i < off + n + 32; i++) assert_int_equal(dst[i], 0xEE);
            }
    free(src);
    free(dst);
    osc_tpool_free(p);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(no_pool_below_two),
    cmocka_unit_test(every_part_once_per_job),
    cmocka_unit_test(ranges_tile),
    cmocka_unit_test(big_copies_equal_memcpy),
)
