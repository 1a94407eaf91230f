/* npy.c: numpy .npy files (format 1.0, 2.0, 3.0) <-> osc_tensor; writes the bytes np.save writes. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The numeric dtypes .npy holds, by numpy kind letter and item size. */
static const struct npy_type {
    int32_t dtype;
    char kind;
    int size;
} k_types[] = {
    {OSC_BOOL, 'b', 1},      {OSC_INT8, 'i', 1},       {OSC_INT16, 'i', 2},  {OSC_INT32, 'i', 4},
    {OSC_INT64, 'i', 8},     {OSC_UINT8, 'u', 1},      {OSC_UINT16, 'u', 2}, {OSC_UINT32, 'u', 4},
    {OSC_UINT64, 'u', 8},    {OSC_FLOAT16, 'f', 2},    {OSC_FLOAT, 'f', 4},  {OSC_DOUBLE, 'f', 8},
    {OSC_COMPLEX64, 'c', 8}, {OSC_COMPLEX128, 'c', 16},
};
#define N_TYPES (sizeof k_types / sizeof k_types[0])

static const struct npy_type *type_of_dtype(int32_t dtype) {
    for (size_t i = 0; i < N_TYPES; i++)
        if (k_types[i].dtype == dtype) return &k_types[i];
    return NULL;
}

int cli_is_npy(const void *buf, size_t len) { return len >= 6 && !memcmp(buf, "\x93NUMPY", 6); }

/* ---- header parsing: a Python dict literal with exactly descr, fortran_order, shape ---- */

typedef struct hdr {
    const char *p, *end;
    char descr[64];
    int have_descr, have_fortran, have_shape, fortran;
    int32_t rank;
    int64_t dims[OSC_MAX_RANK];
    char *msg;
    size_t msg_size;
    const char *text; /* the whole header, quoted in messages */
    size_t text_len;
} hdr;

static void ws(hdr *h) {
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) h->p++;
}

static int eat(hdr *h, char c) {
    ws(h);
    if (h->p < h->end && *h->p == c) return h->p++, 1;
    return 0;
}

/* Fails with "malformed .npy header {...}: WHY" (the header shown up to 120 bytes). */
static int bad(hdr *h, const char *why) {
    char shown[128];
    size_t n = 0;
    for (size_t i = 0; i < h->text_len && n < 120; i++) {
        char c = h->text[i];
        if (c == '\n' && i + 1 == h->text_len) break;
        shown[n++] = (c >= 32 && c < 127) ? c : '?';
    }
    while (n && shown[n - 1] == ' ') n--; /* numpy pads the header with blanks */
    shown[n] = '\0';
    snprintf(h->msg, h->msg_size, "malformed .npy header %s%s: %s", shown,
             h->text_len > 120 ? "..." : "", why);
    return 1;
}

/* A quoted Python string without escapes (numpy never writes any into a header). */
static int pystr(hdr *h, char *out, size_t size, const char *what) {
    char why[96];
    ws(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"')) {
        snprintf(why, sizeof why, "expected a quoted %s", what);
        return bad(h, why);
    }
    char q = *h->p++;
    size_t n = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || n + 1 >= size) {
            snprintf(why, sizeof why, "%s is too long or has escapes", what);
            return bad(h, why);
        }
        out[n++] = *h->p++;
    }
    if (h->p >= h->end) return bad(h, "unterminated string");
    h->p++;
    out[n] = '\0';
    return 0;
}

static int parse_bool(hdr *h) {
    ws(h);
    size_t left = (size_t)(h->end - h->p);
    if (left >= 4 && !memcmp(h->p, "True", 4)) return h->p += 4, h->fortran = 1, 0;
    if (left >= 5 && !memcmp(h->p, "False", 5)) return h->p += 5, h->fortran = 0, 0;
    return bad(h, "fortran_order must be True or False");
}

/* (), (N,), (A, B, ...): non-negative integers (a Python 2 'L' suffix is accepted). */
static int parse_shape(hdr *h) {
    int commas_after_last = 0;
    if (!eat(h, '(')) return bad(h, "shape must be a tuple such as (2, 3)");
    h->rank = 0;
    for (;;) {
        if (eat(h, ')')) break;
        ws(h);
        if (h->p < h->end && *h->p == '-') return bad(h, "shape has a negative dim");
        if (h->p >= h->end || *h->p < '0' || *h->p > '9')
            return bad(h, "shape must hold non-negative integers");
        if (h->rank == OSC_MAX_RANK) return bad(h, "shape has more than 32 dims");
        int64_t v = 0;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
            int digit = *h->p - '0';
            if (v > (INT64_MAX - digit) / 10)
                return bad(h, "a shape dim is larger than int64 allows (9223372036854775807)");
            v = v * 10 + digit, h->p++;
        }
        if (h->p < h->end && *h->p == 'L') h->p++;
        h->dims[h->rank++] = v;
        commas_after_last = eat(h, ',');
        if (!commas_after_last && !eat(h, ')')) return bad(h, "expected ',' or ')' in shape");
        if (!commas_after_last) break;
    }
    if (h->rank == 1 && !commas_after_last) return bad(h, "shape (N) is not a tuple; write (N,)");
    return 0;
}

static int parse_header(hdr *h) {
    char key[32];
    if (!eat(h, '{')) return bad(h, "expected a dict starting with '{'");
    while (!eat(h, '}')) {
        if (pystr(h, key, sizeof key, "key")) return 1;
        if (!eat(h, ':')) return bad(h, "expected ':' after a key");
        int *seen = !strcmp(key, "descr")           ? &h->have_descr
                    : !strcmp(key, "fortran_order") ? &h->have_fortran
                    : !strcmp(key, "shape")         ? &h->have_shape
                                                    : NULL;
        if (!seen) return bad(h, "unknown key (allowed: descr, fortran_order, shape)");
        if (*seen) return bad(h, "a key appears twice");
        *seen = 1;
        if (seen == &h->have_descr) {
            if (eat(h, '['))
                return bad(h, "structured dtypes (a list descr) are not supported");
            if (pystr(h, h->descr, sizeof h->descr, "descr")) return 1;
        } else if (seen == &h->have_fortran) {
            if (parse_bool(h)) return 1;
        } else if (parse_shape(h)) {
            return 1;
        }
        if (!eat(h, ',')) {
            if (!eat(h, '}')) return bad(h, "expected ',' or '}' after a value");
            break;
        }
    }
    ws(h);
    if (h->p != h->end) return bad(h, "characters after the closing '}'");
    if (!h->have_descr) return bad(h, "no 'descr' key");
    if (!h->have_fortran) return bad(h, "no 'fortran_order' key");
    if (!h->have_shape) return bad(h, "no 'shape' key");
    return 0;
}

/* ---- descr: byte order, kind, size ---- */

typedef struct elem_type {
    int32_t dtype;
    int big;       /* the file's scalars are big-endian ('>', or '=' on a big-endian machine) */
    int swap;      /* the file's order is not the machine's: reverse each scalar (each half of a
                    * complex) */
    char strkind;  /* 'U' (UTF-32 code units), 'S' (bytes) or 0 */
    size_t itemsize;
} elem_type;

static int host_is_big_endian(void) {
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

static int parse_descr(const char *descr, elem_type *et, char *msg, size_t msg_size) {
    const char *d = descr;
    char order = '=';
    memset(et, 0, sizeof *et);
    if (*d == '<' || *d == '>' || *d == '|' || *d == '=') order = *d++;
    char kind = *d ? *d++ : '\0';
    long size = -1;
    if (kind == '?' && !*d) kind = 'b', size = 1;
    else if (*d >= '0' && *d <= '9') {
        char *end;
        size = strtol(d, &end, 10);
        if (*end || size > 1 << 24) size = -2;
    }
    const char *why = NULL;
    if (kind == 'O')
        why = "holds Python objects (pickled), which onnx-scatter does not read: save a fixed "
              "dtype, e.g. np.save(f, a.astype(np.float32)) or a.astype(str)";
    else if (kind == 'V')
        why = "is raw bytes (e.g. ml_dtypes bfloat16): save such tensors as TensorProto .pb";
    else if (kind == 'M' || kind == 'm')
        why = "is a datetime/timedelta, which ONNX has no dtype for";
    else if (size < 0)
        why = "is not a valid descr";
    else if (kind == 'U' || kind == 'S' || kind == 'a') {
        et->dtype = OSC_STRING;
        et->strkind = kind == 'U' ? 'U' : 'S';
        et->itemsize = (size_t)size * (kind == 'U' ? 4 : 1);
    } else {
        for (size_t i = 0; i < N_TYPES; i++)
            if (k_types[i].kind == kind && k_types[i].size == size) et->dtype = k_types[i].dtype;
        if (!et->dtype)
            why = (kind == 'f' || kind == 'c') && size > 8
                      ? "is a long double, which ONNX has no dtype for"
                      : "is not a dtype onnx-scatter reads";
        et->itemsize = (size_t)size;
    }
    if (why) {
        snprintf(msg, msg_size, "descr '%s' %s", descr, why);
        return 1;
    }
    et->big = order == '>' || (order != '<' && host_is_big_endian());
    et->swap = et->big != host_is_big_endian() && et->itemsize > 1 && et->strkind == 0;
    return 0;
}

/* ---- data ---- */

/* Source element of C-order element i when the file is in Fortran order: an odometer over the
 * C-order index that tracks the Fortran-order offset. */
typedef struct fortran_walk {
    int32_t rank;
    int64_t dims[OSC_MAX_RANK], idx[OSC_MAX_RANK], fstride[OSC_MAX_RANK], off;
} fortran_walk;

static void fw_init(fortran_walk *w, int32_t rank, const int64_t *dims) {
    memset(w, 0, sizeof *w);
    w->rank = rank;
    int64_t s = 1;
    /* The caller checked the element count: a product can only overflow when a later dim is 0,
     * and then the walk never steps. */
    for (int32_t d = 0; d < rank; d++) {
        w->dims[d] = dims[d], w->fstride[d] = s;
        if (__builtin_mul_overflow(s, dims[d], &s)) s = 0;
    }
}

static void fw_next(fortran_walk *w) {
    for (int32_t d = w->rank - 1; d >= 0; d--) {
        w->off += w->fstride[d];
        if (++w->idx[d] < w->dims[d]) return;
        w->off -= w->idx[d] * w->fstride[d];
        w->idx[d] = 0;
    }
}

static void copy_swapped(unsigned char *dst, const unsigned char *src, size_t size, int swap,
                         int complex_kind) {
    if (!swap) {
        memcpy(dst, src, size);
        return;
    }
    size_t part = complex_kind ? size / 2 : size;
    for (size_t o = 0; o < size; o += part)
        for (size_t k = 0; k < part; k++) dst[o + k] = src[o + part - 1 - k];
}

/* UTF-8 bytes of code point cp into out (room for 4); 0 when cp is not a scalar value. */
static size_t utf8_put(uint32_t cp, unsigned char *out) {
    if (cp < 0x80) return out[0] = (unsigned char)cp, 1;
    if (cp < 0x800) return out[0] = (unsigned char)(0xC0 | cp >> 6), out[1] = (unsigned char)(0x80 | (cp & 63)), 2;
    if (cp >= 0xD800 && cp < 0xE000) return 0;
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 63));
        out[2] = (unsigned char)(0x80 | (cp & 63));
        return 3;
    }
    if (cp >= 0x110000) return 0;
    out[0] = (unsigned char)(0xF0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 63));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 63));
    out[3] = (unsigned char)(0x80 | (cp & 63));
    return 4;
}

static uint32_t load_u32(const unsigned char *p, int big) {
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Converts one fixed-width string item to UTF-8 into out (NULL: only measures). numpy drops
 * trailing NULs. Returns the byte count, or (size_t)-1 for an invalid code point. */
static size_t string_item(const elem_type *et, const unsigned char *src, unsigned char *out) {
    size_t n = 0;
    if (et->strkind == 'S') {
        size_t len = et->itemsize;
        while (len && src[len - 1] == 0) len--;
        if (out) memcpy(out, src, len);
        return len;
    }
    size_t units = et->itemsize / 4;
    while (units && load_u32(src + 4 * (units - 1), et->big) == 0) units--;
    for (size_t k = 0; k < units; k++) {
        unsigned char tmp[4];
        size_t w = utf8_put(load_u32(src + 4 * k, et->big), tmp);
        if (!w) return (size_t)-1;
        if (out) memcpy(out + n, tmp, w);
        n += w;
    }
    return n;
}

/* count: the element count of dims, already checked (osc_tensor_count: no overflow, 0 when a dim
 * is 0). */
static int decode_strings(const elem_type *et, const unsigned char *data, int fortran,
                          osc_tensor *t, int32_t rank, const int64_t *dims, int64_t count,
                          char *msg, size_t msg_size) {
    size_t total = 0;
    /* Zero-width items (<U0, |S0) are all empty and take no file bytes, so the file does not
     * bound their count: a tiny header could claim billions. Such arrays are degenerate; read at
     * most 2^20 of them (16 MiB of osc_string). */
    if (et->itemsize == 0 && count > ((int64_t)1 << 20)) {
        snprintf(msg, msg_size, "zero-width strings: %lld elements claimed; at most %lld are read",
                 (long long)count, (long long)1 << 20);
        return 1;
    }
    for (int64_t i = 0; i < count; i++) {
        size_t n = string_item(et, data + (size_t)i * et->itemsize, NULL);
        if (n == (size_t)-1) {
            snprintf(msg, msg_size, "string element %lld holds an invalid code point", (long long)i);
            return 1;
        }
        total += n;
    }
    if (cli_tensor_alloc(t, OSC_STRING, rank, dims, total, msg, msg_size)) return 1;
    osc_string *s = t->data;
    unsigned char *bytes = (unsigned char *)t->data + t->nbytes;
    fortran_walk w;
    fw_init(&w, rank, dims);
    for (int64_t i = 0; i < count; i++, fw_next(&w)) {
        int64_t src = fortran ? w.off : i;
        size_t n = string_item(et, data + (size_t)src * et->itemsize, bytes);
        s[i].ptr = (const char *)bytes, s[i].len = n;
        bytes += n;
    }
    return 0;
}

int cli_npy_decode(const void *buf, size_t len, osc_tensor *t, char *msg, size_t msg_size) {
    return cli_npy_decode_max(buf, len, 0, t, msg, msg_size);
}

int cli_npy_decode_max(const void *buf, size_t len, uint64_t max_bytes, osc_tensor *t, char *msg,
                       size_t msg_size) {
    const unsigned char *b = buf;
    memset(t, 0, sizeof *t);
    if (!cli_is_npy(buf, len)) {
        snprintf(msg, msg_size, "not a .npy file (it does not start with \\x93NUMPY)");
        return 1;
    }
    if (len < 10) {
        snprintf(msg, msg_size, "file ends inside the .npy header (%zu bytes)", len);
        return 1;
    }
    int major = b[6], minor = b[7];
    if (major < 1 || major > 3 || minor != 0) {
        snprintf(msg, msg_size, ".npy format version %d.%d is unknown (known: 1.0, 2.0, 3.0)",
                 major, minor);
        return 1;
    }
    size_t pre = major == 1 ? 10 : 12;
    if (len < pre) {
        snprintf(msg, msg_size, "file ends inside the .npy header (%zu bytes)", len);
        return 1;
    }
    size_t hlen = major == 1 ? (size_t)b[8] | (size_t)b[9] << 8 : load_u32(b + 8, 0);
    if (hlen > len - pre) {
        snprintf(msg, msg_size, ".npy header length %zu runs past the end of the file (%zu bytes)",
                 hlen, len);
        return 1;
    }
    hdr h = {.p = (const char *)b + pre, .end = (const char *)b + pre + hlen, .msg = msg,
             .msg_size = msg_size, .text = (const char *)b + pre, .text_len = hlen};
    if (parse_header(&h)) return 1;
    elem_type et;
    char why[256];
    if (parse_descr(h.descr, &et, why, sizeof why)) {
        snprintf(msg, msg_size, ".npy %s", why);
        return 1;
    }
    osc_tensor shape = {.rank = h.rank};
    memcpy(shape.dims, h.dims, sizeof h.dims);
    int64_t count = osc_tensor_count(&shape);
    size_t data_len = len - pre - hlen;
    char s[256];
    cli_format_shape(h.rank, h.dims, NULL, s, sizeof s);
    if (count < 0) {
        snprintf(msg, msg_size, ".npy shape %s has more elements than int64 holds", s);
        return 1;
    }
    /* the tensor it makes, against the byte limit, before anything is allocated: the elements
     * (strings: an osc_string each, and their bytes, at most the data's) */
    uint64_t isz = et.dtype == OSC_STRING ? sizeof(osc_string) : et.itemsize;
    uint64_t need = isz && (uint64_t)count > UINT64_MAX / isz ? UINT64_MAX : (uint64_t)count * isz;
    if (et.dtype == OSC_STRING) need = need > UINT64_MAX - data_len ? UINT64_MAX : need + data_len;
    if (max_bytes && need > max_bytes) {
        snprintf(msg, msg_size, ".npy shape %s of '%s' makes a tensor of %s%llu bytes, over the "
                 "byte limit of %llu bytes (opts.max_bytes)", s, h.descr,
                 need == UINT64_MAX ? "more than " : "", (unsigned long long)need,
                 (unsigned long long)max_bytes);
        return 1;
    }
    if (et.itemsize && (uint64_t)count > UINT64_MAX / et.itemsize) {
        snprintf(msg, msg_size, ".npy shape %s of '%s' needs more than 2^64 bytes", s, h.descr);
        return 1;
    }
    /* in 64 bits: the same message where size_t has 32 (the data in memory fits size_t) */
    const uint64_t want = (uint64_t)count * et.itemsize;
    if (want != data_len) {
        snprintf(msg, msg_size, ".npy data is %zu bytes but shape %s of '%s' needs %llu%s", data_len,
                 s, h.descr, (unsigned long long)want,
                 data_len < want ? " (the file is truncated)" : "");
        return 1;
    }
    const unsigned char *data = b + pre + hlen;
    if (et.dtype == OSC_STRING)
        return decode_strings(&et, data, h.fortran, t, h.rank, h.dims, count, msg, msg_size);
    if (cli_tensor_alloc(t, et.dtype, h.rank, h.dims, 0, msg, msg_size)) return 1;
    unsigned char *out = t->data;
    fortran_walk w;
    fw_init(&w, h.rank, h.dims);
    int cplx = et.dtype == OSC_COMPLEX64 || et.dtype == OSC_COMPLEX128;
    for (int64_t i = 0; i < count; i++, fw_next(&w)) {
        int64_t src = h.fortran ? w.off : i;
        copy_swapped(out + (size_t)i * et.itemsize, data + (size_t)src * et.itemsize, et.itemsize,
                     et.swap, cplx);
        if (et.dtype == OSC_BOOL) out[i] = out[i] != 0; /* numpy reads any nonzero byte as True */
    }
    return 0;
}

/* ---- writing ---- */

/* Code point of the UTF-8 sequence at s[*k] (advances *k); -1 when the bytes are not valid
 * UTF-8 (overlong forms and surrogates included). */
static long utf8_get(const unsigned char *s, size_t len, size_t *k) {
    unsigned c = s[*k];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!n || *k + n > len) return -1;
    long cp = n == 1 ? (long)c : (long)(c & (0x3F >> (n - 1)));
    for (size_t j = 1; j < n; j++) {
        if ((s[*k + j] & 0xC0) != 0x80) return -1;
        cp = cp << 6 | (s[*k + j] & 0x3F);
    }
    static const long min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) return -1;
    *k += n;
    return cp;
}

int cli_npy_supports(int32_t dtype) { return dtype == OSC_STRING || type_of_dtype(dtype) != NULL; }

/* Code points of every string of t, or 1 with the reason when numpy's '<U' cannot hold them. */
static int string_widths(const osc_tensor *t, size_t *max_cps, char *msg, size_t msg_size) {
    const osc_string *s = t->data;
    int64_t count = osc_tensor_count(t);
    *max_cps = 1; /* numpy's narrowest unicode dtype is '<U1', even for empty strings */
    for (int64_t i = 0; i < count; i++) {
        size_t k = 0, cps = 0;
        long cp = 1;
        while (k < s[i].len && (cp = utf8_get((const unsigned char *)s[i].ptr, s[i].len, &k)) >= 0)
            cps++;
        if (cp < 0) {
            snprintf(msg, msg_size, "string element %lld is not valid UTF-8, which numpy's str "
                     "dtype cannot hold", (long long)i);
            return 1;
        }
        if (cp == 0) {
            snprintf(msg, msg_size, "string element %lld ends with a NUL character, which numpy "
                     "would drop", (long long)i);
            return 1;
        }
        if (cps > *max_cps) *max_cps = cps;
    }
    return 0;
}

int cli_npy_holds(const osc_tensor *t, char *msg, size_t msg_size) {
    size_t max_cps;
    if (t->dtype == OSC_STRING) return !string_widths(t, &max_cps, msg, msg_size);
    if (type_of_dtype(t->dtype)) return 1;
    snprintf(msg, msg_size, "numpy has no %s dtype", osc_dtype_name(t->dtype));
    return 0;
}

int cli_npy_encode(const osc_tensor *t, void **buf, size_t *len, char *msg, size_t msg_size) {
    const struct npy_type *nt = type_of_dtype(t->dtype);
    char descr[32], shape[40 * OSC_MAX_RANK], header[48 * OSC_MAX_RANK];
    size_t itemsize, max_cps = 0;
    *buf = NULL, *len = 0;
    if (t->dtype == OSC_STRING) {
        if (string_widths(t, &max_cps, msg, msg_size)) return 1;
        snprintf(descr, sizeof descr, "<U%zu", max_cps);
        itemsize = 4 * max_cps;
    } else if (nt) {
        snprintf(descr, sizeof descr, "%c%c%d", nt->size == 1 ? '|' : '<', nt->kind, nt->size);
        itemsize = (size_t)nt->size;
    } else {
        snprintf(msg, msg_size, "numpy has no %s dtype", osc_dtype_name(t->dtype));
        return 1;
    }
    /* repr(shape): "()", "(3,)", "(2, 3)" */
    size_t o = (size_t)snprintf(shape, sizeof shape, "(");
    for (int32_t d = 0; d < t->rank; d++)
        o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%lld", d ? ", " : "",
                              (long long)t->dims[d]);
    snprintf(shape + o, sizeof shape - o, "%s", t->rank == 1 ? ",)" : ")");
    int hn = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                      descr, shape);
    /* np.save leaves room to grow dim 0 in place: 21 digits minus those of dims[0] */
    if (t->rank > 0) {
        char first[24];
        int digits = snprintf(first, sizeof first, "%lld", (long long)t->dims[0]);
        hn += snprintf(header + hn, sizeof header - (size_t)hn, "%*s", 21 - digits, "");
    }
    size_t hlen = (size_t)hn + 1; /* with the final '\n' */
    size_t pre = 10, pad = 64 - (pre + hlen) % 64;
    if (hlen + pad > 65535) pre = 12, pad = 64 - (pre + hlen) % 64; /* format 2.0 */
    int64_t count = osc_tensor_count(t);
    if (count < 0 || (itemsize && (uint64_t)count > (SIZE_MAX - 4096) / itemsize)) {
        snprintf(msg, msg_size, "tensor is too large for a .npy file");
        return -1;
    }
    size_t data_len = (size_t)count * itemsize, total = pre + hlen + pad + data_len;
    unsigned char *p = calloc(1, total);
    if (!p) {
        snprintf(msg, msg_size, "out of memory (%zu bytes)", total);
        return -1;
    }
    memcpy(p, "\x93NUMPY", 6);
    p[6] = pre == 10 ? 1 : 2, p[7] = 0;
    size_t field = hlen + pad;
    for (size_t k = 0; k < pre - 8; k++) p[8 + k] = (unsigned char)(field >> (8 * k));
    memcpy(p + pre, header, (size_t)hn);
    memset(p + pre + hn, ' ', pad);
    p[pre + hlen + pad - 1] = '\n';
    unsigned char *data = p + pre + hlen + pad;
    if (t->dtype != OSC_STRING) {
        /* the '<' (or '|') descr written above: little-endian scalars on any machine */
        int cplx = t->dtype == OSC_COMPLEX64 || t->dtype == OSC_COMPLEX128;
        if (!host_is_big_endian() || itemsize == 1) {
            if (data_len) memcpy(data, t->data, data_len);
        } else {
            for (size_t at = 0; at < data_len; at += itemsize)
                copy_swapped(data + at, (const unsigned char *)t->data + at, itemsize, 1, cplx);
        }
    } else {
        const osc_string *s = t->data;
        for (int64_t i = 0; i < count; i++) {
            unsigned char *item = data + (size_t)i * itemsize;
            size_t k = 0;
            for (size_t u = 0; k < s[i].len; u++) {
                uint32_t cp = (uint32_t)utf8_get((const unsigned char *)s[i].ptr, s[i].len, &k);
                for (int b = 0; b < 4; b++) item[4 * u + (size_t)b] = (unsigned char)(cp >> (8 * b));
            }
        }
    }
    *buf = p, *len = total;
    return 0;
}
