/* test_broadcast.c: the broadcast iterator walked over a range of the output (osc_bcast_range,
 * what threads of an elementwise op each walk) visits exactly the elements the whole walk
 * visits there, with the same input offsets, for every range of many random shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/elementwise/broadcast.h"

#define MAXN 1024

/* The element triples (output offset, input 0 offset, input 1 offset) the walk visits, in
 * order, starting from it as given. Returns how many. */
static int64_t walk(osc_bcast_it *it, int64_t (*v)[3]) {
    int64_t n = 0;
    do {
        for (int64_t k = 0; k < it->len; k++, n++) {
            assert_true(n < MAXN);
            v[n][0] = it->out_off + k;
            v[n][1] = it->off[0] + k * it->step[0];
            v[n][2] = it->off[1] + k * it->step[1];
        }
    } while (osc_bcast_next(it));
    return n;
}

static void ranges_match_the_whole_walk(void **state) {
    (void)state;
    static int64_t whole[MAXN][3], part[MAXN][3];
    uint32_t rng = 12345;
    for (int shape = 0; shape < 400; shape++) {
        osc_tensor out = {.dtype = OSC_FLOAT}, a = {.dtype = OSC_FLOAT}, b = {.dtype = OSC_FLOAT};
        rng = rng * 1103515245u + 12345u;
        out.rank = 1 + (int32_t)(rng >> 16) % 4;
        a.rank = out.rank;
        b.rank = 1 + (int32_t)(rng >> 20) % out.rank;
        for (int32_t d = 0; d < out.rank; d++) {
            rng = rng * 1103515245u + 12345u;
            out.dims[d] = 1 + (rng >> 16) % 5;
            a.dims[d] = (rng >> 22) % 3 ? out.dims[d] : 1; /* input 0 broadcast on some dims */
            const int32_t db = d - (out.rank - b.rank);
            if (db >= 0) b.dims[db] = (rng >> 25) % 2 ? out.dims[d] : 1;
        }
        const osc_tensor *in[2] = {&a, &b};
        osc_bcast_it it;
        assert_true(osc_bcast_begin(&it, &out, 2, in));
        const osc_bcast_it fresh = it;
        const int64_t n = walk(&it, whole);
        assert_int_equal(n, osc_tensor_count(&out));
        for (int64_t lo = 0; lo < n; lo++)
            for (int64_t hi = lo + 1; hi <= n; hi++) {
                osc_bcast_it r = fresh;
                osc_bcast_range(&r, lo, hi);
                const int64_t m = walk(&r, part);
                assert_int_equal(m, hi - lo);
                if (memcmp(part, whole[lo], (size_t)m * sizeof part[0]))
                    fail_msg("shape %d: range [%lld, %lld) of %lld differs from the whole walk",
                             shape, (long long)lo, (long long)hi, (long long)n);
            }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(ranges_match_the_whole_walk)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
