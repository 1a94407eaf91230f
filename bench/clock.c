/* clock.c: what the harnesses time with: clocks, the per-round shuffle, medians. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

uint64_t bench_mix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void bench_shuffle(int *order, int n, int round, uint64_t *seed) {
    for (int j = 0; j < n; j++) order[j] = j;
    for (int j = n - 1; round > 0 && j > 0; j--) {
        int k = (int)(bench_mix(seed) % (uint64_t)(j + 1)), t = order[j];
        order[j] = order[k], order[k] = t;
    }
}

double bench_now_ms(clockid_t clk) {
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_summary(const double *v, size_t n, double *med, double *min, double *max) {
    *med = *min = *max = NAN;
    double *s = n ? malloc(n * sizeof *s) : NULL;
    if (!s) return;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, bench_cmp_double);
    *med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    *min = s[0];
    *max = s[n - 1];
    free(s);
}
