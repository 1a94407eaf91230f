/* registry.c: the table of kernel rows, one per (domain, op, version range), and its lookups. */
#include <string.h>

#include "ops.h"
#include "registry.h"
#include "shape_ops.h"
#include "../runtime/core/dtype.h"

/* Each op family lists its rows, and declares their kernels, in its own file, included twice:
 * once for the declarations, once inside the table. */
#define OSC_ROWS_DECLARE
#include "rows_scatter.h"
#include "rows_shape.h"
#include "rows_elementwise.h"
#include "rows_matmul.h"
#include "rows_math.h"
#include "rows_reduce.h"
#include "rows_layout.h"
#include "rows_norm.h"
#undef OSC_ROWS_DECLARE

static const osc_kernel k_kernels[] = {
#include "rows_scatter.h"
#include "rows_shape.h"
#include "rows_elementwise.h"
#include "rows_matmul.h"
#include "rows_math.h"
#include "rows_reduce.h"
#include "rows_layout.h"
#include "rows_norm.h"
};
#define K_COUNT (sizeof k_kernels / sizeof k_kernels[0])

size_t osc_kernel_count(void) { return K_COUNT; }

const osc_kernel *osc_kernel_at(size_t i) { return i < K_COUNT ? &k_kernels[i] : NULL; }

static bool same_op(const osc_kernel *r, const char *domain, const char *op) {
    return strcmp(r->domain ? r->domain : "", domain) == 0 && strcmp(r->op, op) == 0;
}

const osc_kernel *osc_kernel_find(const char *domain, const char *op, int64_t opset) {
    for (size_t i = 0; i < K_COUNT; i++)
        if (same_op(&k_kernels[i], domain, op) && k_kernels[i].since <= opset &&
            opset <= k_kernels[i].until)
            return &k_kernels[i];
    return NULL;
}
