/* copy.c: osc_copy_big: non-temporal stores for large copies (SSE2, part of every x86-64). */
#include "copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>

void osc_copy_big(void *dst, const void *src, size_t n) {
    if (n < OSC_STREAM_MIN_BYTES || n < 128) {
        if (n) memcpy(dst, src, n);
        return;
    }
    char *d = dst;
    const char *s = src;
    const size_t head = (size_t)(-(uintptr_t)d & 15); /* to a 16-byte aligned destination */
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    const size_t body = n & ~(size_t)63;
    for (size_t i = 0; i < body; i += 64) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
        const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
        const __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
        _mm_stream_si128((__m128i *)(void *)(d + i), a);
        _mm_stream_si128((__m128i *)(void *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + i + 48), e);
    }
    _mm_sfence(); /* the streamed lines are visible before anything written after */
    memcpy(d + body, s + body, n - body);
}
#else
void osc_copy_big(void *dst, const void *src, size_t n) {
    if (n) memcpy(dst, src, n);
}
#endif
