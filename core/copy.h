/* copy.h: large copies that bypass the caches. */
#ifndef OSC_COPY_H
#define OSC_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Non-temporal stores available (x86-64 with SSE2, GCC's intrinsics): copy.c and
 * osc_store_row stream; elsewhere they copy. */
#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#include <immintrin.h>
#define OSC_HAVE_STREAM 1
#endif

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

/* One row of a large output that is written once, in order, and not read again soon (a
 * grouped fused scatter's row loop): n bytes stored with non-temporal stores when dst is
 * 16-byte aligned and n a multiple of 64 (whole lines: no read for ownership, and the rows do
 * not push the rows being gathered out of the cache), else copied. osc_stream_fence after the
 * last row orders them before any later write. */
static inline void osc_store_row(void *dst, const void *src, size_t n) {
#ifdef OSC_HAVE_STREAM
    if (!((uintptr_t)dst & 15) && !(n & 63)) {
        const char *s = src;
        for (size_t i = 0; i < n; i += 16)
            _mm_stream_si128((__m128i *)(void *)((char *)dst + i),
                             _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
        return;
    }
#endif
    memcpy(dst, src, n);
}
static inline void osc_stream_fence(void) {
#ifdef OSC_HAVE_STREAM
    _mm_sfence();
#endif
}

#endif
