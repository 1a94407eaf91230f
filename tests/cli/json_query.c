/* json_query.c: a strict JSON checker for the CLI tests: validates, then prints one value. */
/* usage: json_query [-l] [-n] FILE [PATH]
 *   Checks that FILE is exactly one JSON value (RFC 8259: no NaN, no trailing commas, no
 *   duplicate keys, valid escapes and UTF-8), or with -l that every line is one. PATH is
 *   dot-separated keys and array indices ("outputs.0.shape"); the value there is printed
 *   compactly (blanks outside strings removed), or with -n its element count.
 * exit: 0 ok; 1 invalid JSON (the message gives the offset); 3 PATH not found; 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATH 32

typedef struct parser {
    const char *s, *p, *end;
    char *path[MAX_PATH];
    int npath;
    const char *hit_b, *hit_e; /* span of the value at PATH */
    long hit_count;            /* its elements or members */
    const char *err;
} parser;

static int fail(parser *p, const char *why) {
    if (!p->err) p->err = why;
    return 1;
}

static void ws(parser *p) {
    while (p->p < p->end && (*p->p == ' ' || *p->p == '\t' || *p->p == '\n' || *p->p == '\r')) p->p++;
}

static int utf8_ok(parser *p) {
    unsigned char c = (unsigned char)*p->p;
    int n = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
    if (!n || p->p + n > p->end) return fail(p, "invalid UTF-8");
    for (int k = 1; k < n; k++)
        if (((unsigned char)p->p[k] & 0xC0) != 0x80) return fail(p, "invalid UTF-8");
    p->p += n;
    return 0;
}

/* A string; its raw text (between the quotes, escapes kept) in [*b, *e). */
static int string(parser *p, const char **b, const char **e) {
    if (p->p >= p->end || *p->p != '"') return fail(p, "expected a string");
    *b = ++p->p;
    while (p->p < p->end && *p->p != '"') {
        unsigned char c = (unsigned char)*p->p;
        if (c < 0x20) return fail(p, "control character in a string");
        if (c == '\\') {
            p->p++;
            if (p->p >= p->end) return fail(p, "unterminated string");
            if (*p->p == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (p->p + k >= p->end || !strchr("0123456789abcdefABCDEF", p->p[k]) || !p->p[k])
                        return fail(p, "bad \\u escape");
                p->p += 5;
            } else if (strchr("\"\\/bfnrt", *p->p) && *p->p) {
                p->p++;
            } else {
                return fail(p, "bad escape");
            }
        } else if (utf8_ok(p)) {
            return 1;
        }
    }
    if (p->p >= p->end) return fail(p, "unterminated string");
    *e = p->p++;
    return 0;
}

static int digits(parser *p) {
    const char *b = p->p;
    while (p->p < p->end && *p->p >= '0' && *p->p <= '9') p->p++;
    return p->p == b;
}

static int number(parser *p) {
    if (p->p < p->end && *p->p == '-') p->p++;
    if (p->p < p->end && *p->p == '0') p->p++;
    else if (digits(p)) return fail(p, "bad number");
    if (p->p < p->end && *p->p == '.') {
        p->p++;
        if (digits(p)) return fail(p, "bad number fraction");
    }
    if (p->p < p->end && (*p->p == 'e' || *p->p == 'E')) {
        p->p++;
        if (p->p < p->end && (*p->p == '+' || *p->p == '-')) p->p++;
        if (digits(p)) return fail(p, "bad number exponent");
    }
    return 0;
}

static int literal(parser *p, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(p->end - p->p) < n || memcmp(p->p, word, n)) return fail(p, "unexpected character");
    p->p += n;
    return 0;
}

/* Parses one value; on_path: it is the value at the first `depth` PATH components. */
static int value(parser *p, int depth, int on_path) {
    ws(p);
    if (depth > 200) return fail(p, "nested too deep");
    if (p->p >= p->end) return fail(p, "unexpected end");
    const char *start = p->p;
    long count = 0;
    int rc;
    if (*p->p == '{') {
        p->p++;
        ws(p);
        const char *keys[256][2];
        int nkeys = 0;
        if (p->p < p->end && *p->p == '}') p->p++;
        else
            for (;;) {
                const char *kb, *ke;
                ws(p);
                if (string(p, &kb, &ke)) return 1;
                for (int k = 0; k < nkeys; k++)
                    if (keys[k][1] - keys[k][0] == ke - kb && !memcmp(keys[k][0], kb, (size_t)(ke - kb)))
                        return fail(p, "duplicate key");
                if (nkeys < 256) keys[nkeys][0] = kb, keys[nkeys++][1] = ke;
                ws(p);
                if (p->p >= p->end || *p->p != ':') return fail(p, "expected ':'");
                p->p++;
                int child = on_path && depth < p->npath && strlen(p->path[depth]) == (size_t)(ke - kb) &&
                            !memcmp(p->path[depth], kb, (size_t)(ke - kb));
                if (value(p, depth + 1, child)) return 1;
                count++;
                ws(p);
                if (p->p < p->end && *p->p == ',') { p->p++; continue; }
                if (p->p < p->end && *p->p == '}') { p->p++; break; }
                return fail(p, "expected ',' or '}'");
            }
    } else if (*p->p == '[') {
        p->p++;
        ws(p);
        if (p->p < p->end && *p->p == ']') p->p++;
        else
            for (;;) {
                char idx[24];
                snprintf(idx, sizeof idx, "%ld", count);
                int child = on_path && depth < p->npath && !strcmp(p->path[depth], idx);
                if (value(p, depth + 1, child)) return 1;
                count++;
                ws(p);
                if (p->p < p->end && *p->p == ',') { p->p++; continue; }
                if (p->p < p->end && *p->p == ']') { p->p++; break; }
                return fail(p, "expected ',' or ']'");
            }
    } else if (*p->p == '"') {
        const char *b, *e;
        if ((rc = string(p, &b, &e))) return rc;
    } else if (*p->p == '-' || (*p->p >= '0' && *p->p <= '9')) {
        if ((rc = number(p))) return rc;
    } else if (*p->p == 't') {
        if ((rc = literal(p, "true"))) return rc;
    } else if (*p->p == 'f') {
        if ((rc = literal(p, "false"))) return rc;
    } else if (*p->p == 'n') {
        if ((rc = literal(p, "null"))) return rc;
    } else {
        return fail(p, "unexpected character");
    }
    if (on_path && depth == p->npath) p->hit_b = start, p->hit_e = p->p, p->hit_count = count;
    return 0;
}

/* Prints [b, e) without the blanks outside strings. */
static void print_compact(const char *b, const char *e) {
    int in_str = 0;
    for (const char *c = b; c < e; c++) {
        if (in_str) {
            putchar(*c);
            if (*c == '\\') putchar(*++c);
            else if (*c == '"') in_str = 0;
        } else if (*c == '"') {
            in_str = 1, putchar('"');
        } else if (*c != ' ' && *c != '\n' && *c != '\t' && *c != '\r') {
            putchar(*c);
        }
    }
    putchar('\n');
}

/* Checks [b, e) as one JSON document and prints the PATH value. 0, 1 or 3 (see above). */
static int check(const char *b, const char *e, char *path, int count, const char *label) {
    parser p = {.s = b, .p = b, .end = e};
    char *copy = path ? strdup(path) : NULL;
    for (char *tok = copy ? strtok(copy, ".") : NULL; tok && p.npath < MAX_PATH; tok = strtok(NULL, "."))
        p.path[p.npath++] = tok;
    int rc = value(&p, 0, 1);
    if (!rc) {
        ws(&p);
        if (p.p != p.end) rc = fail(&p, "characters after the value");
    }
    if (rc) {
        fprintf(stderr, "json_query: %s: invalid JSON at offset %ld: %s\n", label, (long)(p.p - b), p.err);
        free(copy);
        return 1;
    }
    free(copy);
    if (!p.hit_b) {
        fprintf(stderr, "json_query: %s: no value at '%s'\n", label, path);
        return 3;
    }
    if (count) printf("%ld\n", p.hit_count);
    else print_compact(p.hit_b, p.hit_e);
    return 0;
}

int main(int argc, char **argv) {
    int lines = 0, count = 0, i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "-l")) lines = 1;
        else if (!strcmp(argv[i], "-n")) count = 1;
        else break;
    }
    if (i >= argc || argc - i > 2) {
        fprintf(stderr, "usage: json_query [-l] [-n] FILE [PATH]\n");
        return 2;
    }
    const char *file = argv[i];
    char *path = i + 1 < argc ? argv[i + 1] : NULL;
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "json_query: cannot open %s\n", file);
        return 2;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf && (n += fread(buf + n, 1, cap - n, f)) == cap) {
        char *q = realloc(buf, cap *= 2);
        if (!q) free(buf);
        buf = q;
    }
    fclose(f);
    if (!buf) return 2;
    int rc = 0;
    if (!lines) {
        rc = check(buf, buf + n, path, count, file);
    } else {
        long line = 0;
        for (char *b = buf; b < buf + n && !rc; line++) {
            char *e = memchr(b, '\n', (size_t)(buf + n - b));
            if (!e) e = buf + n;
            char label[64];
            snprintf(label, sizeof label, "line %ld", line + 1);
            rc = check(b, e, path, count, label);
            b = e + 1;
        }
        if (!rc && line == 0) {
            fprintf(stderr, "json_query: %s: no lines\n", file);
            rc = 1;
        }
    }
    free(buf);
    return rc;
}
