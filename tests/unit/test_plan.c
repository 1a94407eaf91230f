/* test_plan.c: the arena planner places buffers so that no two live ones overlap, and reuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/model.h"
#include "tests/support/check.h"

static void reuses_dead_buffers(void **state) {
    (void)state;
    /* a chain: each buffer lives from its producer to the next node */
    uint64_t sizes[4] = {64, 64, 64, 64}, off[4];
    int32_t first[4] = {0, 1, 2, 3}, last[4] = {1, 2, 3, 4};
    uint64_t scratch[OSC_PLAN_SCRATCH(4)];
    uint64_t total = osc_plan_place(4, sizes, first, last, off, scratch);
    assert_true(osc_plan_valid(4, sizes, first, last, off));
    assert_int_equal(total, 128); /* two slots ping-pong, not four */
    assert_int_equal(off[0], off[2]);
    assert_int_equal(off[1], off[3]);
}

static void oracle_detects_overlap(void **state) {
    (void)state;
    uint64_t sizes[2] = {128, 64}, off[2] = {0, 64};
    int32_t first[2] = {0, 1}, last[2] = {2, 3};
    assert_false(osc_plan_valid(2, sizes, first, last, off));
    off[1] = 128;
    assert_true(osc_plan_valid(2, sizes, first, last, off));
    off[1] = 130; /* misaligned */
    assert_false(osc_plan_valid(2, sizes, first, last, off));
}

static void random_lifetimes(void **state) {
    (void)state;
    enum { N = 200 };
    uint64_t sizes[N], off[N];
    int32_t first[N], last[N];
    uint64_t scratch[OSC_PLAN_SCRATCH(N)];
    uint32_t x = 7;
    for (int round = 0; round < 200; round++) {
        int32_t n = 1 + round % N;
        uint64_t peak_sum = 0;
        for (int32_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            sizes[i] = (x >> 8) % 5 == 0 ? 0 : ((x >> 4) % 4096 + 1 + 63) / 64 * 64;
            first[i] = (int32_t)((x >> 12) % 50);
            last[i] = first[i] + (int32_t)((x >> 20) % 10);
            peak_sum += sizes[i];
        }
        uint64_t total = osc_plan_place(n, sizes, first, last, off, scratch);
        assert_true(osc_plan_valid(n, sizes, first, last, off));
        assert_true(total <= peak_sum + 64);
        for (int32_t i = 0; i < n; i++) assert_true(off[i] + sizes[i] <= total);
    }
}

/* Plans over OSC_PLAN_BY_SIZE_MAX buffers come from the sweep alone: random lifetimes of three
 * shapes (a DAG-like window, everything alive at once, random intervals), checked by the
 * oracle, every buffer inside the arena, and the arena no bigger than the sum of sizes. */
static void random_large_plans(void **state) {
    (void)state;
    enum { N = OSC_PLAN_BY_SIZE_MAX + 1500 };
    static uint64_t sizes[N], off[N], scratch[OSC_PLAN_SCRATCH(N)];
    static int32_t first[N], last[N];
    uint32_t x = 99;
    for (int round = 0; round < 6; round++) {
        int32_t n = round % 2 ? N : N - 700;
        uint64_t sum = 0, peak = 0;
        for (int32_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            sizes[i] = (x >> 8) % 7 == 0 ? 0 : (x >> 4) % 100000 + 1; /* unaligned too */
            if (round / 2 == 0) { /* produced in order, dies within a window */
                first[i] = i;
                last[i] = i + 1 + (int32_t)((x >> 16) % 40);
            } else if (round / 2 == 1) { /* all alive at once */
                first[i] = 0;
                last[i] = n;
            } else {
                first[i] = (int32_t)((x >> 12) % 3000);
                last[i] = first[i] + (int32_t)((x >> 20) % 300);
            }
            sum += (sizes[i] + 63) / 64 * 64;
        }
        uint64_t total = osc_plan_place(n, sizes, first, last, off, scratch);
        assert_true(osc_plan_valid(n, sizes, first, last, off));
        assert_true(total <= sum);
        for (int32_t i = 0; i < n; i++) {
            assert_true(off[i] + sizes[i] <= total);
            if (off[i] + sizes[i] > peak) peak = off[i] + sizes[i];
        }
        assert_int_equal(total, (peak + 63) / 64 * 64);
        if (round / 2 == 1) assert_int_equal(total, sum); /* all alive: packed end to end */
    }
}

/* The planner adversary of the hardening issue: M buffers alive at once, then M more that each
 * outlive one of the first (in reverse order). The sweep keeps the plan tight: every buffer of
 * the second half reuses the slot of the one that died just before it. */
static void staircase_plan(void **state) {
    (void)state;
    enum { M = 3000, N = 2 * M };
    static uint64_t sizes[N], off[N], scratch[OSC_PLAN_SCRATCH(N)];
    static int32_t first[N], last[N];
    for (int32_t i = 0; i < M; i++) {
        sizes[i] = sizes[M + i] = 64;
        first[i] = i;
        last[i] = M + (M - 1 - i); /* b_i is last read by output M - i */
        first[M + i] = M + i;
        last[M + i] = N; /* graph outputs */
    }
    uint64_t total = osc_plan_place(N, sizes, first, last, off, scratch);
    assert_true(osc_plan_valid(N, sizes, first, last, off));
    assert_int_equal(total, (uint64_t)(M + 1) * 64);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(reuses_dead_buffers),
    cmocka_unit_test(oracle_detects_overlap),
    cmocka_unit_test(random_lifetimes),
    cmocka_unit_test(random_large_plans),
    cmocka_unit_test(staircase_plan),
)
