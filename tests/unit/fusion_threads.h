/* fusion_threads.h: the session thread counts every fusion test case runs with; the *_tiny
 * builds (OSC_FUSION_TINY, thresholds of a byte) add 3 so that odd splits are taken too. */
#ifndef OSC_FUSION_THREADS_H
#define OSC_FUSION_THREADS_H

#ifdef OSC_FUSION_TINY
static const int k_threads[] = {1, 2, 3};
#else
static const int k_threads[] = {1, 2};
#endif
#define N_THREADS ((int)(sizeof k_threads / sizeof k_threads[0]))

#ifdef OSC_TEST_MW_CHECK_H
/* Round f of 2 * N_THREADS over the model in buf: fusion off on even rounds, on on odd ones,
 * on k_threads[f / 2] threads (a file including mw_check.h first gets it). */
static inline osc_model *osc_fusion_round(const void *buf, size_t len, int f) {
    osc_options o;
    osc_options_init(&o);
    o.no_fusion = f % 2 == 0;
    o.threads = k_threads[f / 2];
    return osc_check_load_buffer(buf, len, &o);
}
#endif

#endif
