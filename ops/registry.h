/* registry.h: the table of kernel rows (ops/registry.c), for the engine, the API and tests. */
#ifndef OSC_REGISTRY_H
#define OSC_REGISTRY_H

#include "core/kernel.h"

/* Rows in table order (grouped by family, then op, then version). */
size_t osc_kernel_count(void);
const osc_kernel *osc_kernel_at(size_t i); /* NULL past the end */
/* The row of (domain, op) whose version range holds opset; NULL if none. */
const osc_kernel *osc_kernel_find(const char *domain, const char *op, int64_t opset);

/* When the full registry has (domain, op) but this build left it out (CMake option OSC_OPS):
 * the OSC_OPS value, for the message; NULL otherwise. */
const char *osc_kernel_omitted(const char *domain, const char *op);

#endif
