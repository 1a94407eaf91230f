/* api.c: small public helpers: versions, names of statuses and dtypes, options, element counts. */
#include <string.h>

#include "common.h"
#include "dtype.h"

const char *osc_version(void) { return OSC_VERSION_STRING; }

const char *osc_status_name(osc_status s) {
    static const char *const names[] = {"OK", "bad argument", "out of memory", "I/O error",
                                        "parse error", "invalid model", "unsupported",
                                        "shape error", "index error", "limit reached",
                                        "bad state", "cancelled"};
    if ((unsigned)s < sizeof names / sizeof names[0]) return names[s];
    return "unknown status";
}

void osc_options_init(osc_options *opts) { memset(opts, 0, sizeof *opts); }

const char *osc_dtype_name(int32_t dtype) { return osc_dtype_get(dtype)->name; }

size_t osc_dtype_bits(int32_t dtype) { return osc_dtype_get(dtype)->bits; }

/* Zero dims are looked for before multiplying: a zero-size tensor is valid whatever its other
 * dims, so [2^40, 2^40, 0] is 0, not an overflow. */
int64_t osc_dims_prod(const int64_t *dims, int32_t n) {
    int64_t p = 1;
    if (n < 0) return -1;
    for (int32_t i = 0; i < n; i++)
        if (dims[i] < 0) return -1;
    for (int32_t i = 0; i < n; i++)
        if (dims[i] == 0) return 0;
    for (int32_t i = 0; i < n; i++)
        if (!osc_mul_ok(p, dims[i], &p)) return -1;
    return p;
}

int64_t osc_tensor_count(const osc_tensor *t) {
    if (t->rank < 0 || t->rank > OSC_MAX_RANK) return -1;
    return osc_dims_prod(t->dims, t->rank);
}
