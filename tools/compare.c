/* compare.c: compares an output with its expected tensor the way the ONNX node tests do. */
#include <math.h>
#include <string.h>

#include "cli.h"

/* The node-test tolerance: |a - b| <= atol + rtol * |b| (b expected), NaN equals NaN. */
#define CMP_ATOL 1e-7
#define CMP_RTOL 1e-3

static int close_enough(double exp, double act) {
    if (isnan(exp) || isnan(act)) return isnan(exp) && isnan(act);
    if (isinf(exp) || isinf(act)) return exp == act; /* inf - inf is within inf * rtol */
    return fabs(act - exp) <= CMP_ATOL + CMP_RTOL * fabs(exp);
}

/* Element i equal? Tolerant kinds per the node tests, everything else exact. */
static int elem_equal(const osc_tensor *exp, const osc_tensor *act, int64_t i) {
    switch (cli_dtype_kind(exp->dtype)) {
    case CLI_KIND_FLOAT:
        if (cli_dtype_tolerant(exp->dtype))
            return close_enough(cli_elem_float(exp, i), cli_elem_float(act, i));
        return cli_elem_bits(exp, i) == cli_elem_bits(act, i); /* float8/float4: exact bits */
    case CLI_KIND_COMPLEX: {
        double er, ei, ar, ai;
        cli_elem_complex(exp, i, &er, &ei);
        cli_elem_complex(act, i, &ar, &ai);
        return close_enough(er, ar) && close_enough(ei, ai);
    }
    case CLI_KIND_STRING: {
        const osc_string *e = (const osc_string *)exp->data + i, *a = (const osc_string *)act->data + i;
        return e->len == a->len && (e->len == 0 || memcmp(e->ptr, a->ptr, e->len) == 0);
    }
    default:
        return cli_elem_bits(exp, i) == cli_elem_bits(act, i);
    }
}

int cli_compare(const char *name, const osc_tensor *exp, const osc_tensor *act, char *msg,
                size_t msg_size) {
    char a[256], b[256];
    if (exp->dtype != act->dtype) {
        snprintf(msg, msg_size, "output '%s': dtype expected %s, got %s", name,
                 osc_dtype_name(exp->dtype), osc_dtype_name(act->dtype));
        return 1;
    }
    if (exp->rank != act->rank ||
        memcmp(exp->dims, act->dims, (size_t)(exp->rank > 0 ? exp->rank : 0) * sizeof exp->dims[0])) {
        cli_format_shape(exp->rank, exp->dims, NULL, a, sizeof a);
        cli_format_shape(act->rank, act->dims, NULL, b, sizeof b);
        snprintf(msg, msg_size, "output '%s': shape expected %s, got %s", name, a, b);
        return 1;
    }
    if (cli_dtype_kind(exp->dtype) == CLI_KIND_OTHER) {
        snprintf(msg, msg_size, "output '%s': cannot compare dtype %d", name, (int)exp->dtype);
        return 1;
    }
    int64_t count = osc_tensor_count(exp);
    if (count < 0) {
        snprintf(msg, msg_size, "output '%s': invalid expected shape", name);
        return 1;
    }
    for (int64_t i = 0; i < count; i++) {
        if (elem_equal(exp, act, i)) continue;
        cli_elem_format(exp, i, a, sizeof a);
        cli_elem_format(act, i, b, sizeof b);
        snprintf(msg, msg_size, "output '%s' at flat index %lld: expected %s, got %s", name,
                 (long long)i, a, b);
        return 1;
    }
    return 0;
}
