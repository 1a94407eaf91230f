/* literal.c: inline tensor literals on the command line, e.g. '[[1,0],[2,1]]:int64'. */
/* Grammar: VALUE [':' DTYPE]; VALUE is a scalar or '[' VALUE (sep VALUE)* ']' with sep a comma
 * and/or blanks (so numpy's printed form pastes back). Scalars: integers, decimals, nan, inf,
 * true/false, complex 1+2j, quoted 'strings'. Lists must be rectangular. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

typedef enum sk { SK_INT, SK_FLOAT, SK_BOOL, SK_COMPLEX, SK_STRING } sk;

typedef struct scalar {
    sk kind;
    const char *text; /* the token (strings: inside the quotes, escapes not yet applied) */
    size_t len;
    double re, im;
} scalar;

typedef struct lit {
    const char *s, *p;
    scalar *items;
    size_t n, cap;
    int32_t rank; /* depth of the scalars; -1 until the first scalar or empty list */
    int64_t dims[OSC_MAX_RANK];
    int dim_set[OSC_MAX_RANK];
    char *msg;
    size_t msg_size;
} lit;

static int fail(lit *l, const char *why) {
    snprintf(l->msg, l->msg_size, "%s at offset %zu of literal '%.60s%s'", why,
             (size_t)(l->p - l->s), l->s, strlen(l->s) > 60 ? "..." : "");
    return 1;
}

static void blanks(lit *l) {
    while (*l->p == ' ' || *l->p == '\t' || *l->p == '\n') l->p++;
}

static int set_depth(lit *l, int32_t depth) {
    if (depth > OSC_MAX_RANK) return fail(l, "lists nest deeper than 32");
    if (l->rank < 0) l->rank = depth;
    else if (l->rank != depth) return fail(l, "lists are not rectangular (scalars at different depths)");
    return 0;
}

/* Length of the number at p (sign, digits, '.', exponent, or nan/inf words); 0 if none. */
static size_t number_len(const char *p, int *is_float) {
    const char *q = p;
    *is_float = 0;
    if (*q == '+' || *q == '-') q++;
    if (!strncasecmp(q, "nan", 3) || !strncasecmp(q, "inf", 3)) {
        *is_float = 1;
        q += 3;
        if (!strncasecmp(q - 3, "inf", 3) && !strncasecmp(q, "inity", 5)) q += 5;
        return isalnum((unsigned char)*q) ? 0 : (size_t)(q - p);
    }
    const char *digits = q;
    while (isdigit((unsigned char)*q)) q++;
    if (*q == '.') *is_float = 1, q++;
    while (isdigit((unsigned char)*q)) q++;
    if (q == digits || (q == digits + 1 && *digits == '.')) return 0;
    if ((*q == 'e' || *q == 'E') &&
        (isdigit((unsigned char)q[1]) || ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
        *is_float = 1;
        q += 2;
        while (isdigit((unsigned char)*q)) q++;
    }
    return (size_t)(q - p);
}

static int push(lit *l, scalar sc) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        scalar *p = realloc(l->items, cap * sizeof *p);
        if (!p) return fail(l, "out of memory");
        l->items = p, l->cap = cap;
    }
    l->items[l->n++] = sc;
    return 0;
}

static int parse_scalar(lit *l, int32_t depth) {
    scalar sc = {.text = l->p};
    int is_float;
    if (set_depth(l, depth)) return 1;
    if (*l->p == '\'' || *l->p == '"') {
        char q = *l->p++;
        sc.kind = SK_STRING, sc.text = l->p;
        while (*l->p && *l->p != q) l->p += (*l->p == '\\' && l->p[1]) ? 2 : 1;
        if (!*l->p) return fail(l, "unterminated string");
        sc.len = (size_t)(l->p++ - sc.text);
        return push(l, sc);
    }
    if (!strncasecmp(l->p, "true", 4) || !strncasecmp(l->p, "false", 5)) {
        sc.kind = SK_BOOL;
        sc.re = tolower((unsigned char)*l->p) == 't';
        sc.len = sc.re ? 4 : 5;
        l->p += sc.len;
        if (isalnum((unsigned char)*l->p)) return fail(l, "unknown word");
        return push(l, sc);
    }
    size_t n = number_len(l->p, &is_float);
    if (!n) return fail(l, "expected a number, true/false, a quoted string or '['");
    sc.kind = is_float ? SK_FLOAT : SK_INT;
    sc.re = strtod(l->p, NULL);
    l->p += n;
    if (*l->p == 'j' || *l->p == 'J') { /* 2j: imaginary only */
        sc.kind = SK_COMPLEX, sc.im = sc.re, sc.re = 0;
        l->p++;
    } else if (*l->p == '+' || *l->p == '-') { /* 1+2j */
        size_t m = number_len(l->p, &is_float);
        if (!m || (l->p[m] != 'j' && l->p[m] != 'J')) return fail(l, "expected a complex number such as 1+2j");
        sc.kind = SK_COMPLEX, sc.im = strtod(l->p, NULL);
        l->p += m + 1;
    }
    sc.len = (size_t)(l->p - sc.text);
    if (isalnum((unsigned char)*l->p) || *l->p == '.') return fail(l, "malformed number");
    return push(l, sc);
}

static int parse_value(lit *l, int32_t depth) {
    blanks(l);
    if (*l->p != '[') return parse_scalar(l, depth);
    if (depth >= OSC_MAX_RANK) return fail(l, "lists nest deeper than 32");
    l->p++;
    int64_t count = 0;
    blanks(l);
    if (*l->p == ']') {
        l->p++;
        if (set_depth(l, depth + 1)) return 1;
    } else {
        for (;;) {
            if (parse_value(l, depth + 1)) return 1;
            count++;
            blanks(l);
            if (*l->p == ']') { l->p++; break; }
            if (*l->p == ',') l->p++, blanks(l);
            if (*l->p == ']') { l->p++; break; } /* a trailing comma, as Python allows */
            if (!*l->p) return fail(l, "missing ']'");
        }
    }
    if (l->dim_set[depth] && l->dims[depth] != count)
        return fail(l, "lists are not rectangular (rows of different lengths)");
    l->dims[depth] = count, l->dim_set[depth] = 1;
    return 0;
}

/* ---- dtype names ---- */

int32_t cli_dtype_from_name(const char *name) {
    static const struct { const char *alias; int32_t dtype; } aliases[] = {
        {"float32", OSC_FLOAT}, {"f4", OSC_FLOAT},     {"float64", OSC_DOUBLE}, {"f8", OSC_DOUBLE},
        {"half", OSC_FLOAT16},  {"f2", OSC_FLOAT16},   {"str", OSC_STRING},     {"bool_", OSC_BOOL},
        {"i1", OSC_INT8},       {"i2", OSC_INT16},     {"i4", OSC_INT32},       {"i8", OSC_INT64},
        {"u1", OSC_UINT8},      {"u2", OSC_UINT16},    {"u4", OSC_UINT32},      {"u8", OSC_UINT64},
        {"c8", OSC_COMPLEX64},  {"c16", OSC_COMPLEX128},
    };
    for (int32_t d = 1; d < OSC_DTYPE_COUNT; d++)
        if (!strcmp(name, osc_dtype_name(d))) return d;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(name, aliases[i].alias)) return aliases[i].dtype;
    return OSC_UNDEFINED;
}

/* ---- conversion to the dtype ---- */

/* The dtype a literal gets without ':DTYPE' and without a model dtype. */
static int32_t natural_dtype(const lit *l) {
    int32_t d = OSC_INT64;
    int all_bool = l->n > 0;
    for (size_t i = 0; i < l->n; i++) {
        sk k = l->items[i].kind;
        if (k == SK_STRING) return OSC_STRING;
        if (k != SK_BOOL) all_bool = 0;
        if (k == SK_COMPLEX) d = OSC_COMPLEX64;
        else if (k == SK_FLOAT && d == OSC_INT64) d = OSC_FLOAT;
    }
    return all_bool ? OSC_BOOL : d;
}

/* Decodes backslash escapes (\\ \' \" \n \t \r \0 \xHH) of a string token into out; returns
 * the byte count. */
static size_t unescape(const char *s, size_t len, char *out) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 < len) {
            c = s[++i];
            if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c == 'r') c = '\r';
            else if (c == '0') c = '\0';
            else if (c == 'x' && i + 2 < len && isxdigit((unsigned char)s[i + 1]) &&
                     isxdigit((unsigned char)s[i + 2])) {
                char hex[3] = {s[i + 1], s[i + 2], 0};
                c = (char)strtol(hex, NULL, 16);
                i += 2;
            }
        }
        out[n++] = c;
    }
    return n;
}

/* The integer [+-]DIGITS of text[0..len), whatever its length (leading zeros included): its
 * magnitude in *mag and sign in *neg; 0 when the magnitude passes 2^64 - 1. */
static int parse_int(const char *text, size_t len, int *neg, uint64_t *mag) {
    size_t i = 0;
    *neg = 0, *mag = 0;
    if (i < len && (text[i] == '+' || text[i] == '-')) *neg = text[i++] == '-';
    for (; i < len; i++) {
        unsigned d = (unsigned)(text[i] - '0');
        if (d > 9) return 0;
        if (*mag > (UINT64_MAX - d) / 10) return 0;
        *mag = *mag * 10 + d;
    }
    return 1;
}

/* Range of the integer dtypes by bit count; wider-than-64 never happens. */
static int fits_int(const scalar *sc, int32_t dtype, uint64_t *bits) {
    size_t nb = osc_dtype_bits(dtype);
    int neg = 0;
    uint64_t mag = 0;
    if (sc->kind == SK_BOOL) return *bits = (uint64_t)sc->re, 1;
    if (sc->kind == SK_COMPLEX) return 0;
    if (sc->kind == SK_FLOAT) { /* 2.0 is fine, 2.5 is not */
        if (sc->re != floor(sc->re) || fabs(sc->re) > 9007199254740992.0) return 0;
        neg = sc->re < 0, mag = (uint64_t)fabs(sc->re);
    } else if (!parse_int(sc->text, sc->len, &neg, &mag)) {
        return 0;
    }
    if (cli_dtype_kind(dtype) == CLI_KIND_UNSIGNED) {
        if (neg && mag) return 0;
        if (nb < 64 && mag >> nb) return 0;
        return *bits = mag, 1;
    }
    uint64_t lim = (uint64_t)1 << (nb - 1); /* -lim .. lim - 1 */
    if (neg ? mag > lim : mag >= lim) return 0;
    return *bits = neg ? (uint64_t)0 - mag : mag, 1;
}

static int convert(lit *l, int32_t dtype, osc_tensor *t) {
    int64_t dims[OSC_MAX_RANK];
    size_t extra = 0;
    for (int32_t d = 0; d < l->rank; d++) dims[d] = l->dims[d];
    if (dtype == OSC_STRING)
        for (size_t i = 0; i < l->n; i++) extra += l->items[i].len;
    if (cli_tensor_alloc(t, dtype, l->rank, dims, extra, l->msg, l->msg_size)) return 1;
    char *bytes = (char *)t->data + t->nbytes;
    cli_kind kind = cli_dtype_kind(dtype);
    for (size_t i = 0; i < l->n; i++) {
        const scalar *sc = &l->items[i];
        const char *why = NULL;
        uint64_t bits = 0;
        switch (kind) {
        case CLI_KIND_STRING:
            if (sc->kind != SK_STRING) why = "is not a quoted string";
            else {
                osc_string *s = (osc_string *)t->data + i;
                s->ptr = bytes, s->len = unescape(sc->text, sc->len, bytes);
                bytes += s->len;
            }
            break;
        case CLI_KIND_BOOL:
            if (sc->kind == SK_BOOL || (sc->kind == SK_INT && (sc->re == 0 || sc->re == 1)))
                cli_elem_set_bits(t, (int64_t)i, sc->re != 0);
            else why = "is not true, false, 0 or 1";
            break;
        case CLI_KIND_SIGNED:
        case CLI_KIND_UNSIGNED:
            if (sc->kind == SK_STRING || !fits_int(sc, dtype, &bits)) why = "does not fit the integer dtype";
            else cli_elem_set_bits(t, (int64_t)i, bits);
            break;
        case CLI_KIND_FLOAT:
            if (sc->kind == SK_STRING || sc->kind == SK_COMPLEX) why = "is not a real number";
            else cli_elem_set_float(t, (int64_t)i, sc->re);
            break;
        case CLI_KIND_COMPLEX:
            if (sc->kind == SK_STRING) why = "is not a number";
            else cli_elem_set_complex(t, (int64_t)i, sc->re, sc->im);
            break;
        default:
            why = "has a dtype literals cannot write";
        }
        if (why) {
            snprintf(l->msg, l->msg_size, "literal value %.*s %s %s", (int)(sc->len < 40 ? sc->len : 40),
                     sc->text, why, osc_dtype_name(dtype));
            free(t->data);
            t->data = NULL;
            return 1;
        }
    }
    return 0;
}

int cli_literal_parse(const char *text, int32_t model_dtype, osc_tensor *t, char *msg,
                      size_t msg_size) {
    lit l = {.s = text, .p = text, .rank = -1, .msg = msg, .msg_size = msg_size};
    memset(t, 0, sizeof *t);
    int rc = parse_value(&l, 0);
    int32_t dtype = OSC_UNDEFINED;
    if (!rc) {
        blanks(&l);
        if (*l.p == ':') {
            const char *name = l.p + 1;
            dtype = cli_dtype_from_name(name);
            if (!dtype) {
                snprintf(msg, msg_size, "literal '%.60s': unknown dtype '%s' (e.g. float, int64, "
                         "bool, string, float16)", text, name);
                rc = 1;
            }
        } else if (*l.p) {
            rc = fail(&l, "unexpected characters");
        }
    }
    if (!rc && !dtype) dtype = model_dtype ? model_dtype : natural_dtype(&l);
    if (!rc) rc = convert(&l, dtype, t);
    free(l.items);
    return rc;
}

int cli_looks_like_literal(const char *text) {
    int is_float;
    if (text[0] == '[') return 1;
    size_t n = number_len(text, &is_float);
    if (!n && (!strncasecmp(text, "true", 4) || !strncasecmp(text, "false", 5)))
        n = tolower((unsigned char)text[0]) == 't' ? 4 : 5;
    if (!n) return 0;
    text += n;
    if (*text == 'j' || *text == 'J') text++;
    else if ((*text == '+' || *text == '-') && (n = number_len(text, &is_float)) != 0 &&
             (text[n] == 'j' || text[n] == 'J'))
        text += n + 1;
    return *text == '\0' || *text == ':';
}
