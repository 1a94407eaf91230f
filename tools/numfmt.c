/* numfmt.c: formats tensor elements the way numpy prints arrays (numpy >= 1.14 defaults). */
/* A cli_nfmt is fitted to the elements shown (numpy's FloatingFormat, IntegerFormat, ...),
 * then formats each one to a common width: precision 8, fixed or scientific for the whole
 * array, shortest digits that read back in the element's own precision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PRECISION 8

static int imax(int a, int b) { return a > b ? a : b; }

/* Shortest digits d1..dn (no dot) and exponent e with |v| = d1.d2..dn x 10^e that read back
 * as v in dtype's precision (float32 digits for float32, and so on). v is finite. */
static int shortest(double v, int32_t dtype, char *digits, int *e) {
    char buf[48];
    v = fabs(v);
    if (v == 0) return strcpy(digits, "0"), *e = 0, 1;
    uint64_t want = cli_encode_float(dtype, v);
    int p = 1;
    for (; p < 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        double back = strtod(buf, NULL);
        if (dtype == OSC_DOUBLE ? back == v : cli_encode_float(dtype, back) == want) break;
    }
    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    int n = 0;
    char *x = strchr(buf, 'e');
    for (char *c = buf; c < x; c++)
        if (*c != '.') digits[n++] = *c;
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = '\0';
    *e = atoi(x + 1);
    return n;
}

/* Parts of v in fixed notation: sign+integer digits, fraction digits (trailing zeros
 * trimmed); at most PRECISION fraction digits, rounded from the exact value beyond that. */
static void fixed_parts(double v, int32_t dtype, int plus, char *ip, char *fp) {
    char d[48], buf[400];
    int e, n = shortest(v, dtype, d, &e);
    const char *sign = signbit(v) ? "-" : plus ? "+" : "";
    if (n - 1 - e > PRECISION) {
        snprintf(buf, sizeof buf, "%.*f", PRECISION, fabs(v));
        char *dot = strchr(buf, '.');
        *dot = '\0';
        size_t k = strlen(dot + 1);
        while (k && dot[k] == '0') dot[k--] = '\0';
        sprintf(ip, "%s%s", sign, buf);
        strcpy(fp, dot + 1);
        return;
    }
    int o = sprintf(ip, "%s", sign);
    if (e < 0) {
        strcpy(ip + o, "0");
        memset(fp, '0', (size_t)(-e - 1));
        strcpy(fp + (-e - 1), d);
    } else {
        for (int k = 0; k <= e; k++) ip[o++] = k < n ? d[k] : '0';
        ip[o] = '\0';
        strcpy(fp, n > e + 1 ? d + e + 1 : "");
    }
}

/* Parts in scientific notation: sign+first digit, further digits (at most PRECISION),
 * exponent. */
static void sci_parts(double v, int32_t dtype, int plus, char *ip, char *fp, int *e) {
    char d[48], buf[64];
    int n = shortest(v, dtype, d, e);
    if (n > PRECISION + 1) { /* round the exact value to PRECISION + 1 digits */
        snprintf(buf, sizeof buf, "%.*e", PRECISION, fabs(v));
        char *x = strchr(buf, 'e');
        *e = atoi(x + 1);
        n = 0;
        for (char *c = buf; c < x; c++)
            if (*c != '.') d[n++] = *c;
        while (n > 1 && d[n - 1] == '0') n--;
        d[n] = '\0';
    }
    sprintf(ip, "%s%c", signbit(v) ? "-" : plus ? "+" : "", d[0]);
    strcpy(fp, d + 1);
}

static int exp_digits(int e) {
    int n = 0;
    for (e = abs(e); e; e /= 10) n++;
    return imax(n, 2);
}

static void ffmt_begin(cli_ffmt *f, int32_t dtype, int plus) {
    memset(f, 0, sizeof *f);
    f->dtype = dtype, f->plus = plus, f->min_abs = INFINITY;
}

static void ffmt_add(cli_ffmt *f, double v) {
    char ip[400], fp[400];
    int e;
    if (!isfinite(v)) {
        if (isnan(v)) f->has_nan = 1;
        else f->has_inf = 1, f->has_neginf |= v < 0;
        return;
    }
    f->n_finite++;
    if (v != 0) {
        double a = fabs(v);
        if (a > f->max_abs) f->max_abs = a;
        if (a < f->min_abs) f->min_abs = a;
    }
    fixed_parts(v, f->dtype, f->plus, ip, fp);
    f->fix_int = imax(f->fix_int, (int)strlen(ip));
    f->fix_frac = imax(f->fix_frac, (int)strlen(fp));
    sci_parts(v, f->dtype, f->plus, ip, fp, &e);
    f->sci_int = imax(f->sci_int, (int)strlen(ip));
    f->sci_frac = imax(f->sci_frac, (int)strlen(fp));
    f->sci_exp = imax(f->sci_exp, exp_digits(e));
}

/* numpy FloatingFormat.fillFormat: scientific when the non-zero magnitudes reach 1e8, go
 * below 1e-4 or span more than a factor 1000. */
static void ffmt_end(cli_ffmt *f) {
    f->exp_mode = f->max_abs > 0 &&
                  (f->max_abs >= 1e8 || f->min_abs < 1e-4 || f->max_abs / f->min_abs > 1000.0);
    if (f->n_finite == 0) f->pad_left = f->pad_right = 0;
    else if (f->exp_mode) {
        f->pad_left = f->sci_int;
        f->precision = f->sci_frac;
        f->exp_size = f->sci_exp;
        f->pad_right = f->exp_size + 2 + f->precision;
    } else {
        f->pad_left = f->fix_int;
        f->pad_right = f->fix_frac;
    }
    if (f->has_nan || f->has_inf) {
        int offset = f->pad_right + 1, neginf = f->plus || f->has_neginf;
        f->pad_left = imax(f->pad_left, imax(3 - offset, 3 + neginf - offset));
    }
}

static void ffmt_format(const cli_ffmt *f, double v, char *buf, size_t size) {
    char ip[400], fp[400];
    if (!isfinite(v)) {
        const char *s = isnan(v) ? (f->plus ? "+nan" : "nan")
                        : v < 0  ? "-inf"
                                 : (f->plus ? "+inf" : "inf");
        snprintf(buf, size, "%*s", f->pad_left + f->pad_right + 1, s);
        return;
    }
    if (f->exp_mode) {
        int e;
        sci_parts(v, f->dtype, f->plus, ip, fp, &e);
        size_t n = strlen(fp); /* every value shows `precision` digits: pad with zeros */
        while ((int)n < f->precision) fp[n++] = '0';
        fp[n] = '\0';
        snprintf(buf, size, "%*s.%se%c%0*d", f->pad_left, ip, fp, e < 0 ? '-' : '+', f->exp_size,
                 abs(e));
        return;
    }
    fixed_parts(v, f->dtype, f->plus, ip, fp);
    snprintf(buf, size, "%*s.%-*s", f->pad_left, ip, f->pad_right, fp);
}

/* ---- per dtype ---- */

void cli_nfmt_begin(cli_nfmt *f, int32_t dtype) {
    memset(f, 0, sizeof *f);
    f->dtype = dtype, f->kind = cli_dtype_kind(dtype);
    /* the real and imaginary parts of complex64 are float32 */
    int32_t part = dtype == OSC_COMPLEX64 ? OSC_FLOAT : dtype == OSC_COMPLEX128 ? OSC_DOUBLE : dtype;
    ffmt_begin(&f->re, part, 0);
    ffmt_begin(&f->im, part, 1);
}

void cli_nfmt_add(cli_nfmt *f, const osc_tensor *t, int64_t i) {
    char buf[32];
    switch (f->kind) {
    case CLI_KIND_FLOAT: ffmt_add(&f->re, cli_elem_float(t, i)); return;
    case CLI_KIND_COMPLEX: {
        double re, im;
        cli_elem_complex(t, i, &re, &im);
        ffmt_add(&f->re, re);
        ffmt_add(&f->im, im);
        return;
    }
    case CLI_KIND_SIGNED:
    case CLI_KIND_UNSIGNED:
        cli_elem_format(t, i, buf, sizeof buf);
        f->width = imax(f->width, (int)strlen(buf));
        return;
    default: return;
    }
}

void cli_nfmt_end(cli_nfmt *f) {
    ffmt_end(&f->re);
    ffmt_end(&f->im);
}

/* Python's repr() of a string: single quotes unless it holds ' and no ", escapes for
 * backslash, the quote, control bytes and bytes that are not UTF-8. */
static void repr_string(const osc_string *s, char *buf, size_t size) {
    char q = (memchr(s->ptr, '\'', s->len) && !memchr(s->ptr, '"', s->len)) ? '"' : '\'';
    size_t o = 0;
    buf[o++] = q;
    for (size_t k = 0; k < s->len && o + 8 < size; k++) {
        unsigned char c = (unsigned char)s->ptr[k];
        size_t run = c >= 0xC2 && c <= 0xF4 ? (c >= 0xF0 ? 4u : c >= 0xE0 ? 3u : 2u) : 1u;
        int utf8 = run > 1 && k + run <= s->len;
        for (size_t j = 1; utf8 && j < run; j++) utf8 = ((unsigned char)s->ptr[k + j] & 0xC0) == 0x80;
        if (utf8) { /* C1 and bidi controls are valid UTF-8 too: they come out as \uNNNN */
            o += cli_text_escape(s->ptr + k, run, buf + o, size - o);
            k += run - 1;
        } else if (c == '\\' || c == (unsigned char)q) {
            buf[o++] = '\\', buf[o++] = (char)c;
        } else if (c == '\n' || c == '\r' || c == '\t') {
            buf[o++] = '\\', buf[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
        } else if (c < 32 || c >= 127) {
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
        } else {
            buf[o++] = (char)c;
        }
    }
    if (o + 8 >= size) memcpy(buf + o - 3, "...", 3);
    buf[o++] = q;
    buf[o] = '\0';
}

void cli_nfmt_format(const cli_nfmt *f, const osc_tensor *t, int64_t i, char *buf, size_t size) {
    switch (f->kind) {
    case CLI_KIND_FLOAT: ffmt_format(&f->re, cli_elem_float(t, i), buf, size); return;
    case CLI_KIND_COMPLEX: {
        double re, im;
        char a[128], b[128];
        cli_elem_complex(t, i, &re, &im);
        ffmt_format(&f->re, re, a, sizeof a);
        ffmt_format(&f->im, im, b, sizeof b);
        size_t sp = strlen(b); /* 'j' goes before the padding of the imaginary part */
        while (sp && b[sp - 1] == ' ') sp--;
        snprintf(buf, size, "%s%.*sj%s", a, (int)sp, b, b + sp);
        return;
    }
    case CLI_KIND_SIGNED:
    case CLI_KIND_UNSIGNED: {
        char v[32];
        cli_elem_format(t, i, v, sizeof v);
        snprintf(buf, size, "%*s", f->width, v);
        return;
    }
    case CLI_KIND_BOOL: snprintf(buf, size, "%s", cli_elem_bits(t, i) ? " True" : "False"); return;
    case CLI_KIND_STRING: repr_string((const osc_string *)t->data + i, buf, size); return;
    default: cli_elem_format(t, i, buf, size); return;
    }
}

/* numpy's scalar str(): fixed for 0 and 1e-4 <= |v| < 1e16 ("1.0"), else scientific
 * without trailing zeros ("1e+20"); complex parts drop a trailing ".0". */
static void scalar_real(double v, int32_t dtype, int plus, int keep_zero, char *buf, size_t size) {
    char ip[400], fp[400];
    double a = fabs(v);
    if (!isfinite(v)) {
        snprintf(buf, size, "%s%s", v < 0 ? "-" : plus ? "+" : "", isnan(v) ? "nan" : "inf");
    } else if (a == 0 || (a >= 1e-4 && a < 1e16)) {
        fixed_parts(v, dtype, plus, ip, fp);
        if (!fp[0] && keep_zero) strcpy(fp, "0");
        snprintf(buf, size, "%s%s%s", ip, fp[0] ? "." : "", fp);
    } else {
        int e;
        sci_parts(v, dtype, plus, ip, fp, &e);
        snprintf(buf, size, "%s%s%se%c%02d", ip, fp[0] ? "." : "", fp, e < 0 ? '-' : '+', abs(e));
    }
}

void cli_format_scalar(const osc_tensor *t, int64_t i, char *buf, size_t size) {
    switch (cli_dtype_kind(t->dtype)) {
    case CLI_KIND_FLOAT: scalar_real(cli_elem_float(t, i), t->dtype, 0, 1, buf, size); return;
    case CLI_KIND_COMPLEX: {
        double re, im;
        char a[128], b[128];
        int32_t part = t->dtype == OSC_COMPLEX64 ? OSC_FLOAT : OSC_DOUBLE;
        cli_elem_complex(t, i, &re, &im);
        scalar_real(re, part, 0, 0, a, sizeof a);
        scalar_real(im, part, 1, 0, b, sizeof b);
        if (re == 0 && !signbit(re)) snprintf(buf, size, "%sj", b + (b[0] == '+'));
        else snprintf(buf, size, "(%s%sj)", a, b);
        return;
    }
    case CLI_KIND_BOOL: snprintf(buf, size, "%s", cli_elem_bits(t, i) ? "True" : "False"); return;
    case CLI_KIND_STRING: {
        const osc_string *s = (const osc_string *)t->data + i;
        cli_text_escape(s->ptr, s->len, buf, size); /* raw as numpy, but never a control */
        return;
    }
    default: cli_elem_format(t, i, buf, size); return;
    }
}
