/* registry.c: the dispatch table, one row per (domain, op_type, since_version). */
#include <string.h>

#include "ops.h"

#define ROW(op, ver, min_in, max_in, inplace, depr, pfx) \
    {"", op, ver, min_in, max_in, 1, inplace, depr, pfx##_check, pfx##_infer, pfx##_run}

static const osc_kernel k_kernels[] = {
    ROW("Scatter", 9, 3, 3, true, false, osc_se),
    ROW("Scatter", 11, 3, 3, true, true, osc_se),
    ROW("ScatterElements", 11, 3, 3, true, false, osc_se),
    ROW("ScatterElements", 13, 3, 3, true, false, osc_se),
    ROW("ScatterElements", 16, 3, 3, true, false, osc_se),
    ROW("ScatterElements", 18, 3, 3, true, false, osc_se),
    ROW("ScatterND", 11, 3, 3, true, false, osc_snd),
    ROW("ScatterND", 13, 3, 3, true, false, osc_snd),
    ROW("ScatterND", 16, 3, 3, true, false, osc_snd),
    ROW("ScatterND", 18, 3, 3, true, false, osc_snd),
    ROW("TensorScatter", 24, 2, 3, true, false, osc_ts),
    ROW("GatherElements", 11, 2, 2, false, false, osc_ge),
    ROW("GatherElements", 13, 2, 2, false, false, osc_ge),
    ROW("GatherND", 11, 2, 2, false, false, osc_gnd),
    ROW("GatherND", 12, 2, 2, false, false, osc_gnd),
    ROW("GatherND", 13, 2, 2, false, false, osc_gnd),
};

const osc_kernel *osc_kernel_find(const char *domain, const char *op_type, int64_t opset) {
    const osc_kernel *best = NULL;
    for (size_t i = 0; i < sizeof k_kernels / sizeof k_kernels[0]; i++) {
        const osc_kernel *r = &k_kernels[i];
        if (strcmp(r->domain, domain) || strcmp(r->op_type, op_type) || r->since_version > opset)
            continue;
        if (!best || r->since_version > best->since_version) best = r;
    }
    return best;
}

bool osc_kernel_known(const char *domain, const char *op_type) {
    return osc_kernel_find(domain, op_type, INT64_MAX) != NULL;
}
