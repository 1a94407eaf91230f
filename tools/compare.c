/* compare.c: compares an output with its expected tensor the way the ONNX node tests do. */
#include <math.h>
#include <string.h>

#include "cli.h"

const cli_tol cli_default_tol = {1e-3, 1e-7}, cli_ort_tol = {1e-3, 1e-3};

/* |a - b| <= atol + rtol * |b| (b expected), NaN equals NaN. */
static int close_enough(const cli_tol *tol, double exp, double act) {
    if (isnan(exp) || isnan(act)) return isnan(exp) && isnan(act);
    if (isinf(exp) || isinf(act)) return exp == act; /* inf - inf is within inf * rtol */
    return fabs(act - exp) <= tol->atol + tol->rtol * fabs(exp);
}

/* Element i equal? Tolerant kinds per the node tests, everything else exact. */
static int elem_equal(const cli_tol *tol, const osc_tensor *exp, const osc_tensor *act, int64_t i) {
    switch (cli_dtype_kind(exp->dtype)) {
    case CLI_KIND_FLOAT:
        if (cli_dtype_tolerant(exp->dtype))
            return close_enough(tol, cli_elem_float(exp, i), cli_elem_float(act, i));
        return cli_elem_bits(exp, i) == cli_elem_bits(act, i); /* float8/float4: exact bits */
    case CLI_KIND_COMPLEX: {
        double er, ei, ar, ai;
        cli_elem_complex(exp, i, &er, &ei);
        cli_elem_complex(act, i, &ar, &ai);
        return close_enough(tol, er, ar) && close_enough(tol, ei, ai);
    }
    case CLI_KIND_STRING: {
        const osc_string *e = (const osc_string *)exp->data + i, *a = (const osc_string *)act->data + i;
        return e->len == a->len && (e->len == 0 || memcmp(e->ptr, a->ptr, e->len) == 0);
    }
    default:
        return cli_elem_bits(exp, i) == cli_elem_bits(act, i);
    }
}

void cli_bf16_quirk(osc_tensor *t, int32_t want) {
    if (t->dtype == OSC_UINT16 && want == OSC_BFLOAT16) t->dtype = OSC_BFLOAT16;
}

/* Same dtype and shape; else 1 with the difference in msg. */
static int same_type(const char *name, const osc_tensor *exp, const osc_tensor *act, char *msg,
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
    if (osc_tensor_count(exp) < 0) {
        snprintf(msg, msg_size, "output '%s': invalid expected shape", name);
        return 1;
    }
    return 0;
}

static int is_value(const osc_tensor *t) {
    return t->dtype == OSC_SEQUENCE || t->dtype == OSC_OPTIONAL;
}

/* A sequence or optional on both sides: 0 with their item count in *n, else 1 and why. Its
 * items are then compared as outputs named NAME[i] (item_name). */
static int value_counts(const char *name, const osc_tensor *exp, const osc_tensor *act,
                        size_t *n, char *msg, size_t msg_size) {
    size_t na;
    if (osc_value_count(exp, n, NULL) || osc_value_count(act, &na, NULL)) {
        snprintf(msg, msg_size, "output '%s': a malformed %s value", name,
                 osc_dtype_name(exp->dtype));
        return 1;
    }
    if (*n != na) {
        snprintf(msg, msg_size, "output '%s': %s of %zu items expected, got %zu", name,
                 osc_dtype_name(exp->dtype), *n, na);
        return 1;
    }
    return 0;
}

static void item_pair(const char *name, const osc_tensor *exp, const osc_tensor *act, size_t i,
                      osc_tensor *e, osc_tensor *a, char *item, size_t item_size) {
    (void)osc_value_item(exp, i, e);
    (void)osc_value_item(act, i, a);
    snprintf(item, item_size, "%.200s[%zu]", name, i);
}

/* |act - exp| of element i: complex by modulus, bool as 0/1, strings 0 when equal and NAN
 * otherwise; NaN against NaN (and equal infinities) count 0, NaN against a number NAN. */
static double elem_abs_err(const osc_tensor *exp, const osc_tensor *act, int64_t i) {
    switch (cli_dtype_kind(exp->dtype)) {
    case CLI_KIND_FLOAT: {
        double e = cli_elem_float(exp, i), g = cli_elem_float(act, i);
        if (isnan(e) || isnan(g)) return isnan(e) && isnan(g) ? 0 : NAN;
        return e == g ? 0 : fabs(g - e);
    }
    case CLI_KIND_COMPLEX: {
        double er, ei, gr, gi;
        cli_elem_complex(exp, i, &er, &ei);
        cli_elem_complex(act, i, &gr, &gi);
        if (isnan(er) || isnan(ei) || isnan(gr) || isnan(gi))
            return (isnan(er) == isnan(gr) && isnan(ei) == isnan(gi)) ? 0 : NAN;
        return (er == gr && ei == gi) ? 0 : hypot(gr - er, gi - ei);
    }
    case CLI_KIND_SIGNED: {
        int64_t e = cli_elem_signed(exp, i), g = cli_elem_signed(act, i);
        return e > g ? (double)((uint64_t)e - (uint64_t)g) : (double)((uint64_t)g - (uint64_t)e);
    }
    case CLI_KIND_UNSIGNED: {
        uint64_t e = cli_elem_unsigned(exp, i), g = cli_elem_unsigned(act, i);
        return e > g ? (double)(e - g) : (double)(g - e);
    }
    case CLI_KIND_BOOL: return (cli_elem_bits(exp, i) != 0) != (cli_elem_bits(act, i) != 0);
    default: return elem_equal(&cli_default_tol, exp, act, i) ? 0 : NAN;
    }
}

/* |element i| of exp (complex: modulus; 0 for kinds without a number), for relative errors. */
static double elem_value(const osc_tensor *exp, int64_t i) {
    switch (cli_dtype_kind(exp->dtype)) {
    case CLI_KIND_FLOAT: return cli_elem_float(exp, i);
    case CLI_KIND_SIGNED: return (double)cli_elem_signed(exp, i);
    case CLI_KIND_UNSIGNED: return (double)cli_elem_unsigned(exp, i);
    case CLI_KIND_COMPLEX: {
        double re, im;
        cli_elem_complex(exp, i, &re, &im);
        return hypot(re, im);
    }
    default: return 0;
    }
}

int cli_compare(const char *name, const osc_tensor *exp_in, const osc_tensor *act,
                const cli_tol *tol, char *msg, size_t msg_size) {
    char a[256], b[256];
    if (is_value(exp_in) && exp_in->dtype == act->dtype) {
        size_t n;
        char item[300];
        osc_tensor e, x;
        if (value_counts(name, exp_in, act, &n, msg, msg_size)) return 1;
        for (size_t i = 0; i < n; i++) {
            item_pair(name, exp_in, act, i, &e, &x, item, sizeof item);
            if (cli_compare(item, &e, &x, tol, msg, msg_size)) return 1;
        }
        return 0;
    }
    osc_tensor exp_view = *exp_in;
    cli_bf16_quirk(&exp_view, act->dtype);
    const osc_tensor *exp = &exp_view;
    if (same_type(name, exp, act, msg, msg_size)) return 1;
    int64_t count = osc_tensor_count(exp), first = -1, bad = 0, measured = 0, relative = 0;
    double max_abs = 0, max_rel = 0;
    for (int64_t i = 0; i < count; i++) {
        if (elem_equal(tol, exp, act, i)) continue;
        if (first < 0) first = i;
        bad++;
        const double e = elem_abs_err(exp, act, i), ref = fabs(elem_value(exp, i));
        if (isnan(e)) continue; /* no distance: NaN against a number, strings */
        measured++;
        max_abs = fmax(max_abs, e);
        if (ref > 0 && isfinite(ref)) relative++, max_rel = fmax(max_rel, e / ref);
    }
    if (first < 0) return 0;
    char errs[80] = "", rels[48] = "", tols[64] = "";
    if (measured) snprintf(errs, sizeof errs, "; max abs error %.6g", max_abs);
    if (relative) snprintf(rels, sizeof rels, ", max rel error %.6g", max_rel);
    if (cli_dtype_tolerant(exp->dtype))
        snprintf(tols, sizeof tols, "; atol %g, rtol %g", tol->atol, tol->rtol);
    cli_elem_format(exp, first, a, sizeof a);
    cli_elem_format(act, first, b, sizeof b);
    snprintf(msg, msg_size, "output '%s' at flat index %lld: expected %s, got %s (%lld of %lld "
             "elements differ%s%s%s)", name, (long long)first, a, b, (long long)bad,
             (long long)count, errs, rels, tols);
    return 1;
}

int cli_max_abs_err(const char *name, const osc_tensor *exp, const osc_tensor *act, double *err,
                    char *msg, size_t msg_size) {
    if (is_value(exp) && exp->dtype == act->dtype) {
        size_t n;
        char item[300];
        osc_tensor e, x;
        if (value_counts(name, exp, act, &n, msg, msg_size)) return 1;
        for (size_t i = 0; i < n; i++) {
            item_pair(name, exp, act, i, &e, &x, item, sizeof item);
            if (cli_max_abs_err(item, &e, &x, err, msg, msg_size)) return 1;
        }
        return 0;
    }
    if (same_type(name, exp, act, msg, msg_size)) return 1;
    int64_t count = osc_tensor_count(exp);
    for (int64_t i = 0; i < count; i++) {
        double e = elem_abs_err(exp, act, i);
        if (isnan(e)) {
            char a[256], b[256];
            cli_elem_format(exp, i, a, sizeof a);
            cli_elem_format(act, i, b, sizeof b);
            snprintf(msg, msg_size, "output '%s' at flat index %lld: expected %s, got %s", name,
                     (long long)i, a, b);
            return 1;
        }
        if (e > *err) *err = e;
    }
    return 0;
}
