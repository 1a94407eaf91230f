/* test_plan.c: the arena planner places buffers so that no two live ones overlap, and reuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/engine/model.h"

static void reuses_dead_buffers(void **state) {
    (void)state;
    /* a chain: each buffer lives from its producer to the next node */
    uint64_t sizes[4] = {64, 64, 64, 64}, off[4];
    int32_t first[4] = {0, 1, 2, 3}, last[4] = {1, 2, 3, 4}, scratch[12];
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
    int32_t first[N], last[N], scratch[3 * N];
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reuses_dead_buffers),
        cmocka_unit_test(oracle_detects_overlap),
        cmocka_unit_test(random_lifetimes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
