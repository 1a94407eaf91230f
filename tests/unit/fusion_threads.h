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

#endif
