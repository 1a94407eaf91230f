/* registry.c: the table of kernel rows, one per (domain, op, version range), and its lookups. */
#include <string.h>

#include "core/kattr.h"
#include "ops/fused/fused.h" /* OSC_FUSE_MAX_IN: the fused rows */
#include "registry.h"
#include "ops/shape/shape_ops.h"
#include "core/dtype.h"
#include "osc_ops_config.h" /* OSC_OP_<Name>: the ops this build compiles (OSC_OPS, generated) */

/* Each op family lists its rows, and declares their kernels, in its folder's rows.def; the
 * generated list of them (cmake/ops_select.cmake) is included twice: once for the declarations,
 * once inside the table. */
#define OSC_ROWS_DECLARE
#include "osc_ops_rows.def"
#undef OSC_ROWS_DECLARE

static const osc_kernel k_kernels[] = {
#include "osc_ops_rows.def"
};
#define K_COUNT (sizeof k_kernels / sizeof k_kernels[0])

size_t osc_kernel_count(void) { return K_COUNT; }

const osc_kernel *osc_kernel_at(size_t i) { return i < K_COUNT ? &k_kernels[i] : NULL; }

static bool same_op(const osc_kernel *r, const char *domain, const char *op) {
    return strcmp(r->domain ? r->domain : "", domain) == 0 && strcmp(r->op, op) == 0;
}

/* The ops of the full registry that OSC_OPS left out of this build. */
static const char *const k_omitted[] = {OSC_OPS_OMITTED NULL};

const char *osc_kernel_omitted(const char *domain, const char *op) {
    if (domain[0]) return NULL;
    for (size_t i = 0; k_omitted[i]; i++)
        if (strcmp(k_omitted[i], op) == 0) return OSC_OPS_SPEC;
    return NULL;
}

const osc_kernel *osc_kernel_find(const char *domain, const char *op, int64_t opset) {
    for (size_t i = 0; i < K_COUNT; i++)
        if (same_op(&k_kernels[i], domain, op) && k_kernels[i].since <= opset &&
            opset <= k_kernels[i].until)
            return &k_kernels[i];
    return NULL;
}
