/* json.c: writes JSON (RFC 8259) for --json: strings, shapes and tensor values as nested lists. */
/* Contract: every output is valid JSON. Floats are written with the fewest digits that read
 * back exactly in their own precision; NaN and infinities, which JSON has no numbers for, are
 * the strings "nan", "inf", "-inf". Bytes that are not UTF-8 are escaped as \u00XX. */
#include <math.h>
#include <string.h>

#include "cli.h"

void cli_json_bytes(FILE *f, const char *s, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t run = c >= 0xC2 && c <= 0xF4 ? (c >= 0xF0 ? 4u : c >= 0xE0 ? 3u : 2u) : 1u;
        int utf8 = run > 1 && i + run <= n;
        for (size_t j = 1; utf8 && j < run; j++) utf8 = ((unsigned char)s[i + j] & 0xC0) == 0x80;
        if (utf8) {
            fwrite(s + i, 1, run, f);
            i += run - 1;
        } else if (c == '"' || c == '\\') {
            fputc('\\', f), fputc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c < 32 || c >= 127) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

void cli_json_str(FILE *f, const char *s) {
    if (!s) fputs("null", f);
    else cli_json_bytes(f, s, strlen(s));
}

void cli_json_number(FILE *f, double v) {
    char buf[64];
    if (!isfinite(v)) {
        fprintf(f, "\"%s\"", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return;
    }
    cli_format_real(v, 0, buf, sizeof buf);
    fputs(buf, f);
}

void cli_json_fused(FILE *f, const osc_node_desc *d) {
    if (d->not_fused) {
        fputs(",\"not_fused\":", f);
        cli_json_str(f, d->not_fused);
    }
    if (!d->n_fused) return;
    if (d->fused_rule) {
        fputs(",\"rule\":", f);
        cli_json_str(f, d->fused_rule);
    }
    fputs(",\"fused\":[", f);
    for (int32_t k = 0; k < d->n_fused; k++) {
        fputs(k ? ",{\"op\":" : "{\"op\":", f);
        cli_json_str(f, d->fused_ops[k]);
        fputs(",\"name\":", f);
        cli_json_str(f, d->fused_names[k]);
        fputc('}', f);
    }
    fputc(']', f);
}

void cli_json_shape(FILE *f, int32_t rank, const int64_t *dims, const char *const *dim_names) {
    if (rank < 0) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (int32_t d = 0; d < rank; d++) {
        if (d) fputc(',', f);
        if (dim_names && dim_names[d]) cli_json_str(f, dim_names[d]);
        else if (dims[d] < 0) fputs("null", f);
        else fprintf(f, "%lld", (long long)dims[d]);
    }
    fputc(']', f);
}

static void json_real(FILE *f, double v, int as_float) {
    char buf[64];
    if (!isfinite(v)) {
        cli_json_number(f, v);
        return;
    }
    cli_format_real(v, as_float, buf, sizeof buf);
    fputs(buf, f);
}

void cli_json_elem(FILE *f, const osc_tensor *t, int64_t i) {
    char buf[64];
    int as_float = t->dtype != OSC_DOUBLE && t->dtype != OSC_COMPLEX128;
    switch (cli_dtype_kind(t->dtype)) {
    case CLI_KIND_FLOAT: json_real(f, cli_elem_float(t, i), as_float); return;
    case CLI_KIND_COMPLEX: {
        double re, im;
        cli_elem_complex(t, i, &re, &im);
        fputc('[', f);
        json_real(f, re, as_float);
        fputc(',', f);
        json_real(f, im, as_float);
        fputc(']', f);
        return;
    }
    case CLI_KIND_BOOL: fputs(cli_elem_bits(t, i) ? "true" : "false", f); return;
    case CLI_KIND_STRING: {
        const osc_string *s = (const osc_string *)t->data + i;
        cli_json_bytes(f, s->ptr, s->len);
        return;
    }
    case CLI_KIND_SIGNED:
    case CLI_KIND_UNSIGNED: cli_elem_format(t, i, buf, sizeof buf); fputs(buf, f); return;
    default: fputs("null", f); return;
    }
}

static void data_dim(FILE *f, const osc_tensor *t, int32_t d, int64_t off, const int64_t *strides) {
    if (d == t->rank) {
        cli_json_elem(f, t, off);
        return;
    }
    fputc('[', f);
    for (int64_t i = 0; i < t->dims[d]; i++) {
        if (i) fputc(',', f);
        data_dim(f, t, d + 1, off + i * strides[d], strides);
    }
    fputc(']', f);
}

void cli_json_data(FILE *f, const osc_tensor *t) {
    int64_t strides[OSC_MAX_RANK], s = 1;
    if (osc_tensor_count(t) < 0) {
        fputs("null", f);
        return;
    }
    for (int32_t d = t->rank - 1; d >= 0; d--) strides[d] = s, s *= t->dims[d];
    data_dim(f, t, 0, 0, strides);
}

void cli_json_tensor(FILE *f, const char *name, const osc_tensor *t) {
    fputs("{\"name\":", f);
    cli_json_str(f, name);
    fputs(",\"dtype\":", f);
    cli_json_str(f, osc_dtype_name(t->dtype));
    fputs(",\"shape\":", f);
    cli_json_shape(f, t->rank, t->dims, NULL);
    fputs(",\"data\":", f);
    cli_json_data(f, t);
    fputc('}', f);
}
