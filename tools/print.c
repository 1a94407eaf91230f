/* print.c: prints shapes and tensors laid out as numpy's print(array) does, and escapes text for a
 * terminal (cli_text_escape). */
/* The layout follows numpy's _formatArray (numpy >= 1.14): line width 75, a blank line less
 * per deeper dim, summarised to 3 items at each end of every long dim with "..." once the
 * tensor has more than max_elems elements; elements come from numfmt.c. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define EDGE_ITEMS 3
#define LINE_WIDTH 75

const char *cli_node_label(const osc_node_desc *d, size_t i, char *buf, size_t size) {
    if (d->name && d->name[0]) return cli_esc(d->name, buf, size);
    char op[200];
    snprintf(buf, size, "#%zu %s", i, cli_esc(d->op_type, op, sizeof op));
    return buf;
}

void cli_format_shape(int32_t rank, const int64_t *dims, const char *const *dim_names, char *buf,
                      size_t size) {
    size_t o = 0;
    if (size == 0) return;
    buf[0] = '\0';
    if (rank < 0) { snprintf(buf, size, "?"); return; }
    o += (size_t)snprintf(buf + o, size - o, "[");
    for (int32_t d = 0; d < rank && o < size; d++) {
        const char *sep = d ? ", " : "";
        char esc[256];
        if (dim_names && dim_names[d]) /* a name from the model: printable */
            o += (size_t)snprintf(buf + o, size - o, "%s%s", sep,
                                  cli_esc(dim_names[d], esc, sizeof esc));
        else if (dims[d] < 0)
            o += (size_t)snprintf(buf + o, size - o, "%s?", sep);
        else
            o += (size_t)snprintf(buf + o, size - o, "%s%lld", sep, (long long)dims[d]);
    }
    if (o < size) snprintf(buf + o, size - o, "]");
}

/* A growable string; on out of memory it stops growing and sets oom. */
typedef struct sb {
    char *p;
    size_t n, cap;
    int oom;
} sb;

static void sb_put(sb *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) { b->oom = 1; return; }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void sb_puts(sb *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_spaces(sb *b, int n) {
    for (int i = 0; i < n; i++) sb_put(b, " ", 1);
}

/* Characters (not bytes) of a UTF-8 string, for line widths. */
static size_t chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

typedef struct printer {
    const osc_tensor *t;
    int64_t strides[OSC_MAX_RANK];
    int summarise;
    cli_nfmt fmt;
    int oom;
} printer;

/* Items of dim d shown: all, or EDGE_ITEMS at each end around "...". */
static int summarised(const printer *p, int32_t d) {
    return p->summarise && p->t->dims[d] > 2 * EDGE_ITEMS;
}

/* Feeds every element that will be shown to the formatter (numpy fits the format to the
 * shown elements only). */
static void fit(printer *p, int32_t d, int64_t off) {
    if (d == p->t->rank) {
        cli_nfmt_add(&p->fmt, p->t, off);
        return;
    }
    int64_t n = p->t->dims[d];
    for (int64_t i = 0; i < n; i++) {
        if (summarised(p, d) && i == EDGE_ITEMS) i = n - EDGE_ITEMS;
        fit(p, d + 1, off + i * p->strides[d]);
    }
}

/* numpy's _extendLine: appends word to line, first moving line into s when it would pass
 * width (unless the line holds only its indent, where wrapping would not help). */
static void extend(sb *s, sb *line, size_t *line_chars, const char *word, size_t width, int indent) {
    size_t wc = chars(word, strlen(word));
    if (*line_chars + wc > width && *line_chars > (size_t)indent) {
        size_t n = line->n;
        while (n && line->p[n - 1] == ' ') n--;
        sb_put(s, line->p, n);
        sb_puts(s, "\n");
        line->n = 0;
        sb_spaces(line, indent);
        *line_chars = (size_t)indent;
    }
    sb_puts(line, word);
    *line_chars += wc;
}

/* numpy's recurser: the text of the sub-tensor at dim d, offset off, with hanging indent
 * `indent` (blanks) and `width` columns left. Returns a malloc'ed string. */
static char *rec(printer *p, int32_t d, int64_t off, int indent, int width) {
    const osc_tensor *t = p->t;
    char buf[1024];
    sb s = {0};
    if (d == t->rank) {
        cli_nfmt_format(&p->fmt, t, off, buf, sizeof buf);
        sb_puts(&s, buf);
        if (s.oom) p->oom = 1;
        return s.p;
    }
    int64_t n = t->dims[d];
    int sum = summarised(p, d);
    int64_t lead = sum ? EDGE_ITEMS : 0, trail = sum ? EDGE_ITEMS : n;
    if (d == t->rank - 1) {
        size_t elem_width = (size_t)(width - 1), line_chars = (size_t)indent;
        sb line = {0};
        sb_spaces(&line, indent);
        for (int64_t k = 0; k < lead + trail; k++) {
            int64_t i = k < lead ? k : n - (lead + trail - k);
            if (sum && k == lead) {
                extend(&s, &line, &line_chars, "...", elem_width, indent);
                sb_puts(&line, " "), line_chars++;
            }
            cli_nfmt_format(&p->fmt, t, off + i * p->strides[d], buf, sizeof buf);
            extend(&s, &line, &line_chars, buf, elem_width, indent);
            if (k + 1 < lead + trail) sb_puts(&line, " "), line_chars++;
        }
        if (line.p) sb_put(&s, line.p, line.n);
        if (line.oom) p->oom = 1;
        free(line.p);
    } else {
        int32_t blank = t->rank - d - 1; /* newlines between rows: one more per deeper dim */
        for (int64_t k = 0; k < lead + trail; k++) {
            int64_t i = k < lead ? k : n - (lead + trail - k);
            if (sum && k == lead) {
                sb_spaces(&s, indent);
                sb_puts(&s, "...");
                for (int32_t b = 0; b < blank; b++) sb_puts(&s, "\n");
            }
            char *nested = rec(p, d + 1, off + i * p->strides[d], indent + 1, width - 1);
            sb_spaces(&s, indent);
            if (nested) sb_puts(&s, nested);
            free(nested);
            if (k + 1 < lead + trail)
                for (int32_t b = 0; b < blank; b++) sb_puts(&s, "\n");
        }
    }
    /* drop the hanging indent of the first line and wrap in [] */
    sb out = {0};
    sb_puts(&out, "[");
    if (s.p && s.n >= (size_t)indent) sb_put(&out, s.p + indent, s.n - (size_t)indent);
    sb_puts(&out, "]");
    if (s.oom || out.oom) p->oom = 1;
    free(s.p);
    return out.p;
}

int cli_format_tensor(const osc_tensor *t, int64_t max_elems, char **text) {
    char buf[1024];
    *text = NULL;
    int64_t count = osc_tensor_count(t);
    sb out = {0};
    if (count < 0) sb_puts(&out, "(invalid shape)");
    else if (cli_dtype_kind(t->dtype) == CLI_KIND_OTHER) sb_puts(&out, "(values of an unknown dtype)");
    else if (t->rank == 0) {
        cli_format_scalar(t, 0, buf, sizeof buf);
        sb_puts(&out, buf);
    } else if (count == 0) {
        sb_puts(&out, "[]");
    } else {
        printer p = {.t = t, .summarise = count > max_elems};
        int64_t s = 1;
        for (int32_t d = t->rank - 1; d >= 0; d--) p.strides[d] = s, s *= t->dims[d];
        cli_nfmt_begin(&p.fmt, t->dtype);
        fit(&p, 0, 0);
        cli_nfmt_end(&p.fmt);
        char *body = rec(&p, 0, 0, 1, LINE_WIDTH);
        if (body) sb_puts(&out, body);
        free(body);
        if (p.oom) out.oom = 1;
    }
    if (out.oom) {
        free(out.p);
        return 1;
    }
    *text = out.p;
    return 0;
}

void cli_print_tensor(FILE *f, const char *name, const osc_tensor *t, int64_t max_elems) {
    char shape[512], *text;
    size_t n;
    int32_t elem;
    if ((t->dtype == OSC_SEQUENCE || t->dtype == OSC_OPTIONAL) &&
        osc_value_count(t, &n, &elem) == OSC_OK) { /* its items, as NAME[i] */
        cli_text_put(f, name);
        fprintf(f, ": %s of %zu item(s)%s%s\n", osc_dtype_name(t->dtype), n,
                elem ? ", each " : "", elem ? osc_dtype_name(elem) : "");
        for (size_t i = 0; i < n; i++) {
            osc_tensor it;
            char item[300];
            (void)osc_value_item(t, i, &it);
            snprintf(item, sizeof item, "%.200s[%zu]", name, i);
            cli_print_tensor(f, item, &it, max_elems);
        }
        return;
    }
    cli_format_shape(t->rank, t->dims, NULL, shape, sizeof shape);
    cli_text_put(f, name);
    fprintf(f, ": %s %s\n", osc_dtype_name(t->dtype), shape);
    if (cli_format_tensor(t, max_elems, &text)) {
        fputs("(out of memory formatting the values)\n", f);
        return;
    }
    fprintf(f, "%s\n", text);
    free(text);
}

/* ---- Terminal-safe text. The escaped form holds only printable ASCII and valid UTF-8 that is
 * neither a control nor a bidirectional-override code point, so a string from a model, a path
 * or an input can neither break a line, move the cursor, clear the screen nor reorder what
 * follows it. Backslashes are kept as they are, so escaping is idempotent: escaping a message
 * that embeds an escaped name changes nothing more. (Here, not in a file of its own, because
 * everything that prints links print.c.) ---- */

/* Length of the valid UTF-8 sequence at s[0..n) (overlong forms and surrogates are not valid),
 * its code point in *cp; 0 when the bytes are not one. */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned long *cp) {
    unsigned c = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xBF; /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) len = 2, *cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, *cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, *cp = c & 0x07;
    else return 0;
    if (c == 0xE0) lo = 0xA0;
    else if (c == 0xED) hi = 0x9F; /* no surrogates */
    else if (c == 0xF0) lo = 0x90;
    else if (c == 0xF4) hi = 0x8F; /* nothing past U+10FFFF */
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        *cp = *cp << 6 | (s[k] & 0x3F);
    }
    return len;
}

/* Code points a terminal acts on or that reorder the text around them. */
static int unsafe_cp(unsigned long cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
           cp == 0x200F || cp == 0x061C;
}

/* The escaped form of the piece at s (one byte or one UTF-8 sequence) into piece; returns the
 * bytes of s it covers. */
static size_t escape_one(const unsigned char *s, size_t n, char piece[16], size_t *plen) {
    unsigned long cp;
    unsigned c = s[0];
    size_t len = c >= 0x80 ? utf8_seq(s, n, &cp) : 0;
    if (len && !unsafe_cp(cp)) {
        memcpy(piece, s, len);
        *plen = len;
        return len;
    }
    if (len) {
        *plen = (size_t)snprintf(piece, 16, "\\u%04lx", cp);
        return len;
    }
    if (c >= 0x20 && c < 0x7F) piece[0] = (char)c, *plen = 1;
    else if (c == '\n') memcpy(piece, "\\n", 2), *plen = 2;
    else if (c == '\r') memcpy(piece, "\\r", 2), *plen = 2;
    else if (c == '\t') memcpy(piece, "\\t", 2), *plen = 2;
    else *plen = (size_t)snprintf(piece, 16, "\\x%02x", c);
    return 1;
}

size_t cli_text_escape(const char *s, size_t n, char *out, size_t size) {
    size_t o = 0;
    if (!size) return 0;
    for (size_t i = 0; i < n;) {
        char piece[16];
        size_t plen, used = escape_one((const unsigned char *)s + i, n - i, piece, &plen);
        if (o + plen + 1 > size) { /* cut at a piece boundary, marked when there is room */
            if (size >= 4) {
                while (o + 4 > size) o--;
                while (o > 0 && ((unsigned char)out[o] & 0xC0) == 0x80) o--; /* whole UTF-8 */
                memcpy(out + o, "...", 3), o += 3;
            }
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen, i += used;
    }
    out[o] = '\0';
    return o;
}

const char *cli_esc(const char *s, char *buf, size_t size) {
    if (!s) s = "(null)";
    cli_text_escape(s, strlen(s), buf, size);
    return buf;
}

const char *cli_fused_str(const osc_node_desc *d, char *buf, size_t size) {
    size_t o = 0;
    if (size) buf[0] = '\0';
    for (int32_t k = 0; k < d->n_fused && o < size; k++) {
        char op[256], name[520] = "", esc[512];
        if (d->fused_names[k][0]) /* an unnamed node's index is gone with it: its op says it */
            snprintf(name, sizeof name, " '%s'", cli_esc(d->fused_names[k], esc, sizeof esc));
        int w = snprintf(buf + o, size - o, "%s%s%s", k ? ", " : "",
                         cli_esc(d->fused_ops[k], op, sizeof op), name);
        if (w < 0) break;
        o += (size_t)w;
    }
    return buf;
}

void cli_text_put(FILE *f, const char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        char piece[16];
        size_t plen;
        i += escape_one((const unsigned char *)s + i, n - i, piece, &plen);
        fwrite(piece, 1, plen, f);
    }
}
