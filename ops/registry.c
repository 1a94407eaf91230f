/* registry.c: the dispatch table, one row per (domain, op_type, since_version). */
#include <string.h>

#include "ops.h"
#include "shape_ops.h"
#include "elementwise.h"

/* ROW: the scatter family's shape; FULL_ROW: any row (outputs, infer_reads) for other families. */
#define FULL_ROW(op, ver, min_in, max_in, n_out, inplace, reads, pfx) \
    {"", op, ver, min_in, max_in, n_out, inplace, false, reads, pfx##_check, pfx##_infer, \
     pfx##_run}
#define ROW(op, ver, min_in, max_in, inplace, depr, pfx) \
    {"", op, ver, min_in, max_in, 1, inplace, depr, 0, pfx##_check, pfx##_infer, pfx##_run}

/* One table: each op family lists its rows in its own file, included here. */
static const osc_kernel k_kernels[] = {
#include "rows_scatter.h"
#include "rows_shape.h"
#include "rows_elementwise.h"
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
