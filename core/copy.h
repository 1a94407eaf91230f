/* copy.h: large copies that bypass the caches. */
#ifndef OSC_COPY_H
#define OSC_COPY_H

#include <stdbool.h>
#include <stddef.h>

/* From this size on a copy whose destination is not read again soon (the data copy of a
 * scatter before sparse updates) writes with non-temporal stores: no read-for-ownership of the
 * destination lines and no eviction of the caches. On the bench machine (AMD EPYC, 32 MiB L3)
 * this copies 32 to 256 MiB in about 0.52x the time of glibc's memcpy. Below it, memcpy, whose
 * result stays in cache for the updates that follow. */
#ifndef OSC_STREAM_MIN_BYTES /* (the tiny-threshold test library builds with 1) */
#define OSC_STREAM_MIN_BYTES ((size_t)8 << 20)
#endif

/* memcpy(dst, src, n) for non-overlapping buffers, streaming from OSC_STREAM_MIN_BYTES on
 * (x86-64, with AVX2 stores when the CPU has them; memcpy elsewhere). */
void osc_copy_big(void *dst, const void *src, size_t n);
/* The same with the store width chosen by the caller (avx2 only where the CPU has it): lets the
 * tests run both widths on any x86-64 machine with AVX2. */
void osc_copy_stream(void *dst, const void *src, size_t n, bool avx2);

#endif
