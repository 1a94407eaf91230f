/* dcase.c: generates random scatter-family cases and runs them through the public API. */
#include "dcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/writer.h"
#include "core/dtype.h"

/* ---- random numbers ---- */

void dr_seed(drng *r, uint64_t run_seed, uint64_t case_no) {
    r->s = run_seed ^ (case_no * 0xD1B54A32D192ED03ull);
    dr_next(r);
}

uint64_t dr_next(drng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t dr_range(drng *r, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    return span == 0 ? (int64_t)dr_next(r) : (int64_t)((uint64_t)lo + dr_next(r) % span);
}

bool dr_chance(drng *r, int percent) { return dr_range(r, 0, 99) < percent; }

/* ---- combos ---- */

static const struct {
    dop op;
    int64_t version, opset_lo, opset_hi;
} k_versions[] = {
    {D_SCATTER, 9, 9, 10}, {D_SCATTER, 11, 11, 12}, {D_SE, 11, 11, 12},  {D_SE, 13, 13, 15},
    {D_SE, 16, 16, 17},    {D_SE, 18, 18, 24},      {D_SND, 11, 11, 12}, {D_SND, 13, 13, 15},
    {D_SND, 16, 16, 17},   {D_SND, 18, 18, 24},     {D_TS, 24, 24, 24},  {D_GE, 11, 11, 12},
    {D_GE, 13, 13, 24},    {D_GND, 11, 11, 11},     {D_GND, 12, 12, 12}, {D_GND, 13, 13, 24},
};
#define N_VERSIONS (sizeof k_versions / sizeof k_versions[0])

const char *dc_op_name(dop op) {
    static const char *const names[D_OP_COUNT] = {"Scatter",       "ScatterElements", "ScatterND",
                                                  "TensorScatter", "GatherElements",  "GatherND"};
    return names[op];
}

const dcombo *dc_combos(size_t *n) {
    static dcombo list[2048];
    static size_t count;
    if (!count) {
        for (size_t v = 0; v < N_VERSIONS; v++) {
            dop op = k_versions[v].op;
            int64_t ver = k_versions[v].version;
            bool scatter = op == D_SCATTER || op == D_SE || op == D_SND;
            int n_red = !scatter ? 1 : ver >= 18 ? 5 : ver >= 16 ? 3 : 1;
            if (op == D_TS) n_red = 2; /* linear, circular */
            int n_idx = (op == D_SCATTER || op == D_SE || op == D_GE) ? 2 : 1;
            for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
                if (op == D_TS ? !osc_dtype_valid(dt) : !osc_dtype_get(dt)->standard) continue;
                /* outside the version's type constraint: refused at load (tests/bad) */
                if (ver < 13 && dt == OSC_BFLOAT16) continue;
                if (op == D_TS && (dt == OSC_UINT2 || dt == OSC_INT2)) continue;
                for (int red = 0; red < n_red; red++) {
                    if (scatter && dt == OSC_STRING && red == ORA_MUL) continue;
                    for (int ix = 0; ix < n_idx; ix++)
                        list[count++] = (dcombo){op, ver, dt, ix ? OSC_INT32 : OSC_INT64, red};
                }
            }
        }
    }
    *n = count;
    return list;
}

/* ---- memory ---- */

struct dc_mem {
    dc_mem *next;
    max_align_t align; /* the block's bytes follow, aligned for any type */
};

static void *dc_alloc(dcase *c, size_t n) {
    dc_mem *m = calloc(1, sizeof *m + n + 1);
    if (!m) abort(); /* test helper: out of memory is not a result */
    m->next = c->mem;
    c->mem = m;
    return m + 1;
}

void dc_free(dcase *c) {
    while (c->mem) {
        dc_mem *m = c->mem;
        c->mem = m->next;
        free(m);
    }
}

static int64_t prod(const int64_t *d, int32_t n) {
    int64_t p = 1;
    for (int32_t i = 0; i < n; i++) p *= d[i];
    return p;
}

static osc_tensor *mk(dcase *c, int i, int32_t dtype, int32_t rank, const int64_t *dims) {
    osc_tensor *t = &c->in[i];
    memset(t, 0, sizeof *t);
    t->dtype = dtype;
    t->rank = rank;
    memcpy(t->dims, dims, (size_t)rank * sizeof *dims);
    size_t nbytes = 0;
    osc_dtype_bytes(dtype, prod(dims, rank), &nbytes);
    t->nbytes = nbytes;
    t->data = dc_alloc(c, nbytes);
    if (i >= c->n_in) c->n_in = i + 1;
    return t;
}

/* ---- values ---- */

static uint32_t f32_special(drng *r) {
    static const uint32_t sp[] = {0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0x7f800001u, 0x7f800000u,
                                  0xff800000u, 0x80000000u, 0x00000000u, 0x00000001u, 0x807fffffu,
                                  0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0x33800000u, 0x4b800000u};
    if (dr_chance(r, 30)) return (uint32_t)dr_next(r); /* any bits */
    if (dr_chance(r, 20))
        return (uint32_t)dr_range(r, 1, 0x7fffff) | (dr_chance(r, 50) ? 0x80000000u : 0);
    return sp[dr_range(r, 0, sizeof sp / sizeof sp[0] - 1)];
}

static uint64_t f64_special(drng *r) {
    static const uint64_t sp[] = {
        0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff800000000beefull, 0x7ff0000000000000ull,
        0xfff0000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
        0x7fefffffffffffffull, 0x3ff0000000000000ull, 0x3ca0000000000000ull};
    if (dr_chance(r, 30)) return dr_next(r);
    if (dr_chance(r, 20)) return (dr_next(r) & 0x000fffffffffffffull) | 1u;
    return sp[dr_range(r, 0, sizeof sp / sizeof sp[0] - 1)];
}

static uint16_t half_special(drng *r, bool bf) {
    static const uint16_t h16[] = {0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x8000, 0x0000, 0x0001,
                                   0x83ff, 0x7bff, 0x6800, 0x3c00, 0x3c01, 0x1400, 0x0400};
    static const uint16_t b16[] = {0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x8000, 0x0000, 0x0001,
                                   0x807f, 0x7f7f, 0x4380, 0x3f80, 0x3f81, 0x3b80, 0x0080};
    if (dr_chance(r, 40)) return (uint16_t)dr_next(r);
    return bf ? b16[dr_range(r, 0, 14)] : h16[dr_range(r, 0, 14)];
}

static osc_string gen_string(dcase *c, drng *r) {
    static const char *const pool[] = {"", "a", "ab", "b", "ba", "abc", "z", "\xff", "a\xff"};
    if (dr_chance(r, 60)) {
        const char *s = pool[dr_range(r, 0, 8)];
        return (osc_string){s, strlen(s)};
    }
    size_t n = (size_t)dr_range(r, 0, 4);
    char *b = dc_alloc(c, n);
    static const char alpha[] = {'a', 'b', '\0', '\x80', '\xff'};
    for (size_t i = 0; i < n; i++) b[i] = alpha[dr_range(r, 0, 4)];
    return (osc_string){b, n};
}

/* One element of dtype into out. wild: percentage of special or arbitrary values; the rest are
 * small integers, so ties, exact sums and equal strings are common. */
static void gen_elem(dcase *c, drng *r, int32_t dtype, int wild, void *out) {
    bool w = dr_chance(r, wild);
    int64_t small = dr_range(r, -4, 4);
    switch (dtype) {
    case OSC_FLOAT: {
        float f = (float)small / (dr_chance(r, 25) ? 2.0f : 1.0f);
        uint32_t u = f32_special(r);
        if (w) memcpy(&f, &u, 4);
        memcpy(out, &f, 4);
        return;
    }
    case OSC_DOUBLE: {
        double d = (double)small / (dr_chance(r, 25) ? 2.0 : 1.0);
        uint64_t u = f64_special(r);
        if (w) memcpy(&d, &u, 8);
        memcpy(out, &d, 8);
        return;
    }
    case OSC_FLOAT16:
    case OSC_BFLOAT16: {
        bool bf = dtype == OSC_BFLOAT16;
        uint16_t h = bf ? osc_f32_to_bf16((float)small) : osc_f32_to_f16((float)small);
        if (w) h = half_special(r, bf);
        memcpy(out, &h, 2);
        return;
    }
    case OSC_COMPLEX64: {
        float v[2] = {(float)small, (float)dr_range(r, -2, 2)};
        for (int i = 0; i < 2; i++)
            if (w && dr_chance(r, 60)) {
                uint32_t u = f32_special(r);
                memcpy(&v[i], &u, 4);
            }
        memcpy(out, v, 8);
        return;
    }
    case OSC_COMPLEX128: {
        double v[2] = {(double)small, (double)dr_range(r, -2, 2)};
        for (int i = 0; i < 2; i++)
            if (w && dr_chance(r, 60)) {
                uint64_t u = f64_special(r);
                memcpy(&v[i], &u, 8);
            }
        memcpy(out, v, 16);
        return;
    }
    case OSC_BOOL: *(uint8_t *)out = (uint8_t)dr_range(r, 0, 1); return;
    case OSC_STRING: {
        osc_string s = gen_string(c, r);
        memcpy(out, &s, sizeof s);
        return;
    }
    default: { /* integers */
        unsigned bytes = osc_dtype_get(dtype)->bits / 8;
        bool is_unsigned =
            dtype == OSC_UINT8 || dtype == OSC_UINT16 || dtype == OSC_UINT32 || dtype == OSC_UINT64;
        uint64_t u = (uint64_t)(is_unsigned && small < 0 ? -small : small);
        if (w) {
            int pick = (int)dr_range(r, 0, 5);
            uint64_t top = 1ull << (bytes * 8 - 1); /* the sign bit */
            u = pick == 0 ? top - 1 : pick == 1 ? top : pick == 2 ? ~0ull : dr_next(r);
        }
        /* the low bytes of u, by value (any byte order) */
        const uint8_t u8 = (uint8_t)u;
        const uint16_t u16 = (uint16_t)u;
        const uint32_t u32 = (uint32_t)u;
        memcpy(out, bytes == 1 ? (const void *)&u8 : bytes == 2 ? (const void *)&u16
                    : bytes == 4 ? (const void *)&u32 : (const void *)&u, bytes);
        return;
    }
    }
}

static void fill(dcase *c, drng *r, osc_tensor *t, int wild) {
    int64_t n = prod(t->dims, t->rank);
    unsigned bits = osc_dtype_get(t->dtype)->bits;
    if (!osc_dtype_get(t->dtype)->standard) { /* float8, int4, uint2...: any bits */
        for (size_t i = 0; i < t->nbytes; i++) ((uint8_t *)t->data)[i] = (uint8_t)dr_next(r);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        gen_elem(c, r, t->dtype, wild, (char *)t->data + i * (bits / 8));
}

static void set_index(osc_tensor *t, int64_t i, int64_t v) {
    if (t->dtype == OSC_INT32) {
        int32_t x = (int32_t)v;
        memcpy((char *)t->data + i * 4, &x, 4);
    } else {
        memcpy((char *)t->data + i * 8, &v, 8);
    }
}

/* Random dims of the given rank with every dim in [1, maxd] and at most `budget` elements. */
static void gen_dims(drng *r, int32_t rank, int64_t maxd, int64_t budget, int64_t *d) {
    for (int32_t i = 0; i < rank; i++) d[i] = dr_range(r, 1, maxd);
    while (prod(d, rank) > budget) {
        int32_t i = (int32_t)dr_range(r, 0, rank - 1);
        if (d[i] > 1) d[i]--;
    }
}

static int64_t maxdim_for(int32_t rank) {
    return rank <= 1 ? 6 : rank <= 2 ? 4 : rank <= 4 ? 3 : 2;
}

/* Data dims: mostly tiny (every corner at low cost), one case in ten larger (long dims and
 * uneven strides, up to 400 elements). */
static void gen_data_dims(drng *r, int32_t rank, int64_t *d) {
    if (dr_chance(r, 10))
        gen_dims(r, rank, rank <= 2 ? 20 : rank <= 4 ? 6 : 4, 400, d);
    else
        gen_dims(r, rank, maxdim_for(rank), 48, d);
}

/* An out-of-range value for a dim of size s, stored in the index dtype. */
static int64_t bad_index(drng *r, int64_t s, int32_t idx_dtype) {
    switch (dr_range(r, 0, 5)) {
    case 0: return s;
    case 1: return -s - 1;
    case 2: return s + dr_range(r, 1, 3);
    case 3: return -s - 1 - dr_range(r, 1, 3);
    case 4: return idx_dtype == OSC_INT32 ? INT32_MAX : INT64_MAX;
    default: return idx_dtype == OSC_INT32 ? INT32_MIN : INT64_MIN;
    }
}

/* position for the bad value: first, last, middle or anywhere (error tests name them) */
static int64_t bad_position(drng *r, int64_t n) {
    switch (dr_range(r, 0, 3)) {
    case 0: return 0;
    case 1: return n - 1;
    case 2: return n / 2;
    default: return dr_range(r, 0, n - 1);
    }
}

/* Writes the axis attribute: absent when it equals the default and a coin says so, else as
 * written positive or negative. */
static void pick_axis(dcase *c, drng *r, int32_t a, int32_t rank, int32_t def) {
    c->axis = dr_chance(r, 50) ? a - rank : a;
    c->has_axis = !(a == (def < 0 ? def + rank : def) && dr_chance(r, 40));
}

static int pick_wild(drng *r) {
    static const int levels[] = {0, 10, 35, 80};
    return levels[dr_range(r, 0, 3)];
}

/* ScatterElements and Scatter: updates and indices share a shape that fits data in every dim
 * but axis; along axis the indices pick targets (distinct per line unless duplicates are
 * wanted). */
static void gen_se(dcase *c, drng *r, bool unique) {
    int32_t rank = (int32_t)dr_range(r, 1, 6), a = (int32_t)dr_range(r, 0, rank - 1);
    int64_t dd[OSC_MAX_RANK], id[OSC_MAX_RANK];
    gen_data_dims(r, rank, dd);
    if (dr_chance(r, 6)) dd[dr_range(r, 0, rank - 1)] = 0;
    pick_axis(c, r, a, rank, 0);
    int64_t s = dd[a];
    bool dups = !unique && (c->k.red != ORA_NONE || dr_chance(r, 6));
    c->dup_none = dups && c->k.red == ORA_NONE;
    for (int32_t d = 0; d < rank; d++)
        id[d] = d == a ? 0 : dr_chance(r, 70) ? dd[d] : dr_range(r, 0, dd[d]);
    if (s > 0) id[a] = dups ? dr_range(r, 1, 2 * s + 1) : dr_range(r, unique ? 1 : 0, s);
    if (dr_chance(r, 3)) id[dr_range(r, 0, rank - 1)] = 0;
    osc_tensor *ti = mk(c, 1, c->k.idx_dtype, rank, id);
    int64_t n = prod(id, rank);
    /* one permutation of [0, s) per line (a line: every coordinate but axis fixed) */
    int64_t lines = id[a] ? n / id[a] : 0;
    int64_t *perm = dc_alloc(c, (size_t)(lines * s + 1) * sizeof *perm);
    for (int64_t l = 0; l < lines; l++) {
        int64_t *p = perm + l * s;
        for (int64_t j = 0; j < s; j++) p[j] = j;
        for (int64_t j = s - 1; j > 0; j--) {
            int64_t m = dr_range(r, 0, j), t = p[j];
            p[j] = p[m];
            p[m] = t;
        }
    }
    int64_t narrow = dr_chance(r, 50) ? (s < 2 ? s : 2) : s; /* few targets: many duplicates */
    int neg = (int)dr_range(r, 0, 60);
    for (int64_t p = 0; p < n; p++) {
        int64_t cc[OSC_MAX_RANK], q = p, line = 0;
        for (int32_t d = rank - 1; d >= 0; d--) {
            cc[d] = q % id[d];
            q /= id[d];
        }
        for (int32_t d = 0; d < rank; d++)
            if (d != a) line = line * id[d] + cc[d];
        int64_t v = dups ? dr_range(r, 0, narrow - 1) : perm[line * s + cc[a]];
        if (dr_chance(r, neg)) v -= s;
        set_index(ti, p, v);
    }
    if (!unique && n > 0 && dr_chance(r, 3)) {
        set_index(ti, bad_position(r, n), bad_index(r, s, c->k.idx_dtype));
        c->invalid = true;
    }
    mk(c, 0, c->k.dtype, rank, dd);
    mk(c, 2, c->k.dtype, rank, id);
}

/* ScatterND: q - 1 dims of k-tuples into data.shape[:k]; updates indices.shape[:-1] ++
 * data.shape[k:]. Tuples are distinct unless duplicates are wanted. */
static void gen_snd(dcase *c, drng *r, bool unique) {
    int32_t rank = (int32_t)dr_range(r, 1, 6);
    int64_t dd[OSC_MAX_RANK], id[OSC_MAX_RANK], ud[2 * OSC_MAX_RANK];
    gen_data_dims(r, rank, dd);
    if (dr_chance(r, 5)) dd[dr_range(r, 0, rank - 1)] = 0;
    int32_t k = (int32_t)dr_range(r, 0, rank);
    int64_t space = prod(dd, k); /* distinct tuples */
    bool dups = !unique && (c->k.red != ORA_NONE || dr_chance(r, 6));
    int32_t q = (int32_t)dr_range(r, 1, 3);
    int64_t n;
    if (q == 1 && space == 0) q = 2; /* the one tuple would have to be out of range */
    if (q == 1) {
        n = 1;
    } else {
        int64_t hi = dups ? 6 : (space < 6 ? space : 6);
        n = space == 0 ? 0 : dr_range(r, unique && hi > 0 ? 1 : 0, hi);
        if (dr_chance(r, 3)) n = 0;
    }
    if (q == 2) {
        id[0] = n;
    } else if (q == 3) {
        int64_t f = 1;
        for (int64_t t = 2; t <= n; t++)
            if (n % t == 0 && dr_chance(r, 50)) f = t;
        id[0] = n ? n / f : dr_range(r, 0, 2);
        id[1] = n ? f : (id[0] ? 0 : dr_range(r, 0, 2));
    }
    id[q - 1] = k;
    c->dup_none = dups && c->k.red == ORA_NONE;
    osc_tensor *ti = mk(c, 1, OSC_INT64, q, id);
    int64_t *pick = dc_alloc(c, (size_t)(space + 1) * sizeof *pick);
    for (int64_t j = 0; j < space; j++) pick[j] = j;
    for (int64_t j = space - 1; j > 0; j--) {
        int64_t m = dr_range(r, 0, j), t = pick[j];
        pick[j] = pick[m];
        pick[m] = t;
    }
    int64_t narrow = dr_chance(r, 50) ? (space < 2 ? space : 2) : space;
    int neg = (int)dr_range(r, 0, 60);
    for (int64_t t = 0; t < n; t++) {
        int64_t flat = dups ? dr_range(r, 0, narrow - 1) : pick[t];
        for (int32_t j = k - 1; j >= 0; j--) {
            int64_t v = flat % dd[j];
            flat /= dd[j];
            if (dr_chance(r, neg)) v -= dd[j];
            set_index(ti, t * k + j, v);
        }
    }
    if (!unique && n * k > 0 && dr_chance(r, 3)) {
        int64_t pos = bad_position(r, n * k);
        set_index(ti, pos, bad_index(r, dd[pos % k], OSC_INT64));
        c->invalid = true;
    }
    int32_t ur = 0;
    for (int32_t i = 0; i < q - 1; i++) ud[ur++] = id[i];
    for (int32_t i = k; i < rank; i++) ud[ur++] = dd[i];
    mk(c, 0, c->k.dtype, rank, dd);
    mk(c, 2, c->k.dtype, ur, ud);
}

/* TensorScatter: cache [batch, ..., max_seq (axis), ...], update with seq <= max_seq there. */
static void gen_ts(dcase *c, drng *r) {
    int32_t rank = (int32_t)dr_range(r, 2, 6), a = (int32_t)dr_range(r, 1, rank - 1);
    int64_t pd[OSC_MAX_RANK], ud[OSC_MAX_RANK];
    gen_data_dims(r, rank, pd);
    bool circular = c->k.red == 1;
    c->mode = circular ? 1 : dr_chance(r, 30) ? -1 : 0;
    pick_axis(c, r, a, rank, -2);
    pd[a] = dr_range(r, dr_chance(r, 5) ? 0 : 1, 5); /* max_seq */
    pd[0] = dr_chance(r, 8) ? 0 : dr_chance(r, 40) ? pd[a] + dr_range(r, 0, 2) : dr_range(r, 1, 3);
    memcpy(ud, pd, sizeof ud);
    ud[a] = dr_range(r, 0, pd[a]); /* seq */
    fill(c, r, mk(c, 0, c->k.dtype, rank, pd), pick_wild(r));
    fill(c, r, mk(c, 1, c->k.dtype, rank, ud), pick_wild(r));
    if (dr_chance(r, 80)) {
        osc_tensor *wi = mk(c, 2, OSC_INT64, 1, pd);
        for (int64_t b = 0; b < pd[0]; b++) {
            int64_t w = circular ? dr_range(r, -12, 12) : dr_range(r, 0, pd[a] - ud[a]);
            if (circular && dr_chance(r, 5))
                w = dr_chance(r, 50) ? INT64_MAX - dr_range(r, 0, 3)
                                     : INT64_MIN + dr_range(r, 0, 3);
            set_index(wi, b, w);
        }
        if (!circular && pd[0] > 0 && dr_chance(r, 4)) {
            int64_t gap = pd[a] - ud[a];
            set_index(wi, bad_position(r, pd[0]),
                      dr_chance(r, 50) ? gap + dr_range(r, 1, 3) : -dr_range(r, 1, 3));
            c->invalid = true;
        }
    }
}

/* GatherElements: indices fit data in every dim but axis, any length along axis. */
static void gen_ge(dcase *c, drng *r) {
    int32_t rank = (int32_t)dr_range(r, 1, 6), a = (int32_t)dr_range(r, 0, rank - 1);
    int64_t dd[OSC_MAX_RANK], id[OSC_MAX_RANK];
    gen_data_dims(r, rank, dd);
    if (dr_chance(r, 6)) dd[dr_range(r, 0, rank - 1)] = 0;
    pick_axis(c, r, a, rank, 0);
    int64_t s = dd[a];
    for (int32_t d = 0; d < rank; d++)
        id[d] = d == a             ? (s ? dr_range(r, 0, 4) : 0)
                : dr_chance(r, 70) ? dd[d]
                                   : dr_range(r, 0, dd[d]);
    osc_tensor *ti = mk(c, 1, c->k.idx_dtype, rank, id);
    int64_t n = prod(id, rank);
    int neg = (int)dr_range(r, 0, 60);
    for (int64_t p = 0; p < n; p++) {
        int64_t v = dr_range(r, 0, s - 1);
        set_index(ti, p, dr_chance(r, neg) ? v - s : v);
    }
    if (n > 0 && dr_chance(r, 3)) {
        set_index(ti, bad_position(r, n), bad_index(r, s, c->k.idx_dtype));
        c->invalid = true;
    }
    fill(c, r, mk(c, 0, c->k.dtype, rank, dd), pick_wild(r));
}

/* GatherND: indices [data.shape[:b]] ++ extra dims ++ [k], k in [0, r - b]. */
static void gen_gnd(dcase *c, drng *r) {
    int32_t rank = (int32_t)dr_range(r, 1, 6);
    int64_t dd[OSC_MAX_RANK], id[OSC_MAX_RANK];
    gen_data_dims(r, rank, dd);
    if (dr_chance(r, 5)) dd[dr_range(r, 0, rank - 1)] = 0;
    int32_t b = c->k.version >= 12 && dr_chance(r, 50) ? (int32_t)dr_range(r, 0, rank - 1) : 0;
    c->batch_dims = b;
    c->has_batch_dims = c->k.version >= 12 && (b > 0 || dr_chance(r, 30));
    int32_t k = (int32_t)dr_range(r, 0, rank - b), extra = (int32_t)dr_range(r, 0, 2);
    int32_t q = b + extra + 1;
    for (int32_t i = 0; i < b; i++) id[i] = dd[i];
    for (int32_t i = b; i < q - 1; i++) id[i] = dr_range(r, dr_chance(r, 5) ? 0 : 1, 3);
    id[q - 1] = k;
    osc_tensor *ti = mk(c, 1, OSC_INT64, q, id);
    int64_t n = prod(id, q - 1);
    int neg = (int)dr_range(r, 0, 60);
    for (int64_t t = 0; t < n; t++)
        for (int32_t j = 0; j < k; j++) {
            int64_t s = dd[b + j], v = dr_range(r, 0, s - 1);
            set_index(ti, t * k + j, dr_chance(r, neg) ? v - s : v);
        }
    if (n * k > 0 && dr_chance(r, 3)) {
        int64_t pos = bad_position(r, n * k);
        set_index(ti, pos, bad_index(r, dd[b + pos % k], OSC_INT64));
        c->invalid = true;
    }
    fill(c, r, mk(c, 0, c->k.dtype, rank, dd), pick_wild(r));
}

static void generate(dcase *c, const dcombo *k, drng *r, bool unique) {
    memset(c, 0, sizeof *c);
    c->k = *k;
    c->mode = -1;
    for (size_t v = 0; v < N_VERSIONS; v++)
        if (k_versions[v].op == k->op && k_versions[v].version == k->version)
            c->opset = dr_range(r, k_versions[v].opset_lo, k_versions[v].opset_hi);
    /* before 16 the attribute does not exist; none may be written or left out from 16 on */
    c->red = k->version < 16 || (k->red == ORA_NONE && dr_chance(r, 50)) ? -1 : k->red;
    if (k->op == D_TS || k->op == D_GE || k->op == D_GND) c->red = -1;
    c->symbolic = dr_chance(r, 40);
    switch (k->op) {
    case D_SCATTER:
    case D_SE: gen_se(c, r, unique); break;
    case D_SND: gen_snd(c, r, unique); break;
    case D_TS: gen_ts(c, r); break;
    case D_GE: gen_ge(c, r); break;
    default: gen_gnd(c, r); break;
    }
    if (k->op == D_SCATTER || k->op == D_SE || k->op == D_SND) {
        int wild = pick_wild(r);
        fill(c, r, &c->in[0], wild);
        fill(c, r, &c->in[2], wild);
        c->chain = !unique && dr_chance(r, 20);
    }
    if (k->op == D_TS) c->chain = dr_chance(r, 20);
}

void dc_generate(dcase *c, const dcombo *k, drng *r) { generate(c, k, r, false); }

void dc_generate_unique(dcase *c, const dcombo *k, drng *r) {
    dcombo u = *k;
    u.red = ORA_NONE;
    generate(c, &u, r, true);
}

/* ---- oracle ---- */

static osc_status oracle_once(const dcase *c, const osc_tensor *x, ora_result *res) {
    const osc_tensor *in = c->in;
    int64_t axis = c->has_axis ? c->axis : c->k.op == D_TS ? -2 : 0;
    switch (c->k.op) {
    case D_SCATTER:
    case D_SE: return ora_scatter_elements(c->k.version, x, &in[1], &in[2], axis, c->red, res);
    case D_SND: return ora_scatter_nd(c->k.version, x, &in[1], &in[2], c->red, res);
    case D_TS:
        return ora_tensor_scatter(x, &in[1], c->n_in > 2 ? &in[2] : NULL, axis, c->mode == 1, res);
    case D_GE: return ora_gather_elements(c->k.version, x, &in[1], axis, res);
    default:
        return ora_gather_nd(c->k.version, x, &in[1], c->has_batch_dims ? c->batch_dims : 0, res);
    }
}

osc_status dc_oracle(const dcase *c, ora_result *res, ora_result *res2) {
    memset(res2, 0, sizeof *res2);
    if (!c->chain) return oracle_once(c, &c->in[0], res);
    osc_status st = oracle_once(c, &c->in[0], res2);
    if (st) {
        *res = *res2;
        memset(res2, 0, sizeof *res2);
        return st;
    }
    st = oracle_once(c, &res2->t, res);
    res->saw |= res2->saw;
    return st;
}

/* ---- runtime through the public API ---- */

static const char *const k_names[D_OP_COUNT][3] = {
    {"data", "indices", "updates"}, {"data", "indices", "updates"},
    {"data", "indices", "updates"}, {"past_cache", "update", "write_indices"},
    {"data", "indices", NULL},      {"data", "indices", NULL}};

static void add_node(osc_mw *mw, const dcase *c, const char *first, const char *out) {
    const char *in[3] = {first, k_names[c->k.op][1], k_names[c->k.op][2]};
    const char *outs[1] = {out};
    int n = osc_mw_node(mw, dc_op_name(c->k.op), out, c->n_in, in, 1, outs);
    if (c->has_axis) osc_mw_attr_int(mw, n, "axis", c->axis);
    if (c->red >= 0) osc_mw_attr_string(mw, n, "reduction", ora_reduction_name(c->red));
    if (c->has_batch_dims) osc_mw_attr_int(mw, n, "batch_dims", c->batch_dims);
    if (c->mode >= 0) osc_mw_attr_string(mw, n, "mode", c->mode ? "circular" : "linear");
}

int32_t dc_threads(void) {
    const char *v = getenv("OSC_DIFF_THREADS");
    return v ? (int32_t)atoi(v) : 0;
}

void dc_exec_run(const dcase *c, dc_exec *x) {
    memset(x, 0, sizeof *x);
    osc_mw *mw = osc_mw_new(10);
    osc_mw_opset(mw, "", c->opset);
    int64_t unknown[OSC_MAX_RANK];
    for (int i = 0; i < OSC_MAX_RANK; i++) unknown[i] = -1;
    for (int i = 0; i < c->n_in; i++)
        osc_mw_input(mw, k_names[c->k.op][i], c->in[i].dtype, c->in[i].rank,
                     c->symbolic ? unknown : c->in[i].dims, NULL);
    if (c->chain) {
        add_node(mw, c, k_names[c->k.op][0], "mid");
        add_node(mw, c, "mid", "y");
    } else {
        add_node(mw, c, k_names[c->k.op][0], "y");
    }
    osc_mw_output(mw, "y", c->k.dtype, -1, NULL, NULL);
    void *buf;
    size_t len;
    if ((x->st = osc_mw_serialize(mw, &buf, &len)) != OSC_OK) {
        snprintf(x->msg, sizeof x->msg, "writer: %s", osc_mw_error(mw));
        osc_mw_free(mw);
        x->failed_at_load = true;
        return;
    }
    osc_mw_free(mw);
    osc_options o;
    osc_options_init(&o);
    o.threads = dc_threads();
    x->st = osc_model_load_buffer(buf, len, NULL, &o, &x->m, x->msg, sizeof x->msg);
    free(buf);
    if (x->st) {
        x->failed_at_load = true;
        return;
    }
    if ((x->st = osc_session_create(x->m, &x->s)) != OSC_OK) {
        snprintf(x->msg, sizeof x->msg, "session_create failed");
        return;
    }
    if (osc_session_threads(x->s) != (o.threads > 1 ? o.threads : 1)) { /* no quiet fallback */
        x->st = OSC_ERR_STATE;
        snprintf(x->msg, sizeof x->msg, "the session runs %d threads, not %d",
                 (int)osc_session_threads(x->s), (int)o.threads);
        return;
    }
    for (int i = 0; i < c->n_in && !x->st; i++)
        if ((x->st = osc_session_set_input(x->s, k_names[c->k.op][i], &c->in[i])))
            snprintf(x->msg, sizeof x->msg, "set_input: %s", osc_session_error(x->s));
    if (!x->st && (x->st = osc_session_run(x->s)))
        snprintf(x->msg, sizeof x->msg, "%s", osc_session_error(x->s));
    if (!x->st && (x->st = osc_session_output(x->s, 0, &x->out)))
        snprintf(x->msg, sizeof x->msg, "output: %s", osc_session_error(x->s));
}

void dc_exec_free(dc_exec *x) {
    osc_session_free(x->s);
    osc_model_free(x->m);
    x->s = NULL;
    x->m = NULL;
}

/* ---- snapshots and comparison ---- */

static size_t snap_size(const dcase *c) {
    size_t n = 0;
    for (int i = 0; i < c->n_in; i++) {
        n += c->in[i].nbytes;
        if (c->in[i].dtype == OSC_STRING) {
            const osc_string *s = c->in[i].data;
            for (int64_t j = 0; j < prod(c->in[i].dims, c->in[i].rank); j++) n += s[j].len;
        }
    }
    return n;
}

static void snap_write(const dcase *c, unsigned char *p) {
    for (int i = 0; i < c->n_in; i++) {
        if (c->in[i].nbytes) memcpy(p, c->in[i].data, c->in[i].nbytes);
        p += c->in[i].nbytes;
        if (c->in[i].dtype == OSC_STRING) {
            const osc_string *s = c->in[i].data;
            for (int64_t j = 0; j < prod(c->in[i].dims, c->in[i].rank); j++) {
                if (s[j].len) memcpy(p, s[j].ptr, s[j].len);
                p += s[j].len;
            }
        }
    }
}

void dc_snap_take(const dcase *c, dc_snap *s) {
    s->len = snap_size(c);
    s->bytes = malloc(s->len + 1);
    if (!s->bytes) abort();
    snap_write(c, s->bytes);
}

bool dc_snap_same(const dcase *c, const dc_snap *s) {
    if (snap_size(c) != s->len) return false;
    unsigned char *now = malloc(s->len + 1);
    if (!now) abort();
    snap_write(c, now);
    bool same = memcmp(now, s->bytes, s->len) == 0;
    free(now);
    return same;
}

void dc_snap_free(dc_snap *s) {
    free(s->bytes);
    s->bytes = NULL;
}

static size_t print_elem(char *buf, size_t size, const osc_tensor *t, int64_t i) {
    unsigned bits = osc_dtype_get(t->dtype)->bits;
    if (t->dtype == OSC_STRING) {
        const osc_string *s = (const osc_string *)t->data + i;
        size_t p = (size_t)snprintf(buf, size, "\"");
        for (size_t j = 0; j < s->len && p < size; j++) {
            unsigned char ch = (unsigned char)s->ptr[j];
            p += (size_t)snprintf(buf + p, size - p, ch >= 32 && ch < 127 ? "%c" : "\\x%02x", ch);
        }
        if (p < size) p += (size_t)snprintf(buf + p, size - p, "\"");
        return p;
    }
    if (bits < 8) {
        unsigned per = 8 / bits;
        unsigned v = (((const uint8_t *)t->data)[i / per] >> ((unsigned)(i % per) * bits)) &
                     ((1u << bits) - 1);
        return (size_t)snprintf(buf, size, "0x%x", v);
    }
    const unsigned char *e = (const unsigned char *)t->data + i * (bits / 8);
    size_t p = (size_t)snprintf(buf, size, "0x");
    for (unsigned k = 0; k < bits / 8 && p < size; k++) { /* high byte first */
        const unsigned j = OSC_BIG_ENDIAN ? k : bits / 8 - 1 - k;
        p += (size_t)snprintf(buf + p, size - p, "%02x", e[j]);
    }
    if (t->dtype == OSC_FLOAT || t->dtype == OSC_DOUBLE || t->dtype == OSC_FLOAT16 ||
        t->dtype == OSC_BFLOAT16) {
        double v;
        if (t->dtype == OSC_FLOAT) {
            float f;
            memcpy(&f, e, 4);
            v = f;
        } else if (t->dtype == OSC_DOUBLE)
            memcpy(&v, e, 8);
        else {
            uint16_t h;
            memcpy(&h, e, 2);
            v = t->dtype == OSC_FLOAT16 ? osc_f16_to_f32(h) : osc_bf16_to_f32(h);
        }
        if (p < size) p += (size_t)snprintf(buf + p, size - p, "(%g)", v);
    }
    return p;
}

/* Element i of two float-class tensors: every component equal in bits, or NaN on both sides. */
static bool nan_parts_equal(const osc_tensor *x, const osc_tensor *y, int64_t i) {
    int parts = 1;
    unsigned width;
    switch (x->dtype) {
    case OSC_FLOAT:
    case OSC_DOUBLE:
    case OSC_FLOAT16:
    case OSC_BFLOAT16: break;
    case OSC_COMPLEX64:
    case OSC_COMPLEX128: parts = 2; break;
    default: return false;
    }
    width = osc_dtype_get(x->dtype)->bits / 8 / (unsigned)parts;
    for (int j = 0; j < parts; j++) {
        const unsigned char *p =
            (const unsigned char *)x->data + (size_t)i * width * parts + j * width;
        const unsigned char *q =
            (const unsigned char *)y->data + (size_t)i * width * parts + j * width;
        if (memcmp(p, q, width) == 0) continue;
        double u, v;
        if (width == 8) {
            memcpy(&u, p, 8);
            memcpy(&v, q, 8);
        } else if (width == 4) {
            float f, g;
            memcpy(&f, p, 4);
            memcpy(&g, q, 4);
            u = f;
            v = g;
        } else {
            uint16_t h, k;
            memcpy(&h, p, 2);
            memcpy(&k, q, 2);
            bool bf = x->dtype == OSC_BFLOAT16;
            u = bf ? osc_bf16_to_f32(h) : osc_f16_to_f32(h);
            v = bf ? osc_bf16_to_f32(k) : osc_f16_to_f32(k);
        }
        if (!(u != u && v != v)) return false;
    }
    return true;
}

bool dc_equal(const osc_tensor *want, const osc_tensor *got, bool arith_nan, char *why,
              size_t size) {
    char a[128], b[128];
    if (want->dtype != got->dtype || want->rank != got->rank ||
        memcmp(want->dims, got->dims, (size_t)want->rank * sizeof want->dims[0]) != 0) {
        snprintf(why, size, "dtype/shape differ: want %s rank %d, got %s rank %d",
                 osc_dtype_name(want->dtype), (int)want->rank, osc_dtype_name(got->dtype),
                 (int)got->rank);
        return false;
    }
    int64_t n = prod(want->dims, want->rank);
    if (want->dtype == OSC_STRING) {
        const osc_string *w = want->data, *g = got->data;
        for (int64_t i = 0; i < n; i++)
            if (w[i].len != g[i].len || (w[i].len && memcmp(w[i].ptr, g[i].ptr, w[i].len))) {
                print_elem(a, sizeof a, want, i);
                print_elem(b, sizeof b, got, i);
                snprintf(why, size, "element %lld: want %s, got %s", (long long)i, a, b);
                return false;
            }
        return true;
    }
    if (want->nbytes != got->nbytes) {
        snprintf(why, size, "nbytes differ: want %zu, got %zu", want->nbytes, got->nbytes);
        return false;
    }
    if (!want->nbytes || memcmp(want->data, got->data, want->nbytes) == 0) return true;
    unsigned bits = osc_dtype_get(want->dtype)->bits;
    for (int64_t i = 0; i < n; i++) {
        if (arith_nan && nan_parts_equal(want, got, i)) continue;
        print_elem(a, sizeof a, want, i);
        print_elem(b, sizeof b, got, i);
        if (strcmp(a, b) != 0) {
            snprintf(why, size, "element %lld: want %s, got %s", (long long)i, a, b);
            return false;
        }
    }
    if (bits >= 8) return true; /* every element equal, NaNs of add/mul as allowed */
    snprintf(why, size, "padding bits differ (%u-bit elements)", bits);
    return false;
}

static size_t describe_tensor(char *buf, size_t size, const char *name, const osc_tensor *t) {
    size_t p = (size_t)snprintf(buf, size, "\n  %s %s [", name, osc_dtype_name(t->dtype));
    for (int32_t i = 0; i < t->rank && p < size; i++)
        p += (size_t)snprintf(buf + p, size - p, i ? ",%lld" : "%lld", (long long)t->dims[i]);
    if (p < size) p += (size_t)snprintf(buf + p, size - p, "] =");
    int64_t n = prod(t->dims, t->rank);
    for (int64_t i = 0; i < n && i < 48 && p < size; i++) {
        if (t->dtype == OSC_INT32 || t->dtype == OSC_INT64) {
            int64_t v;
            if (t->dtype == OSC_INT32) {
                int32_t x;
                memcpy(&x, (char *)t->data + i * 4, 4);
                v = x;
            } else
                memcpy(&v, (char *)t->data + i * 8, 8);
            p += (size_t)snprintf(buf + p, size - p, " %lld", (long long)v);
        } else {
            p += (size_t)snprintf(buf + p, size - p, " ");
            if (p < size) p += print_elem(buf + p, size - p, t, i);
        }
    }
    if (n > 48 && p < size) p += (size_t)snprintf(buf + p, size - p, " ...");
    return p;
}

void dc_describe(const dcase *c, char *buf, size_t size) {
    size_t p =
        (size_t)snprintf(buf, size, "%s-%lld (opset %lld) dtype %s indices %s", dc_op_name(c->k.op),
                         (long long)c->k.version, (long long)c->opset, osc_dtype_name(c->k.dtype),
                         c->k.op == D_TS ? "int64" : osc_dtype_name(c->in[1].dtype));
    if (p < size && c->red >= 0)
        p += (size_t)snprintf(buf + p, size - p, " reduction=%s", ora_reduction_name(c->red));
    if (p < size && c->has_axis)
        p += (size_t)snprintf(buf + p, size - p, " axis=%lld", (long long)c->axis);
    if (p < size && c->has_batch_dims)
        p += (size_t)snprintf(buf + p, size - p, " batch_dims=%lld", (long long)c->batch_dims);
    if (p < size && c->mode >= 0)
        p += (size_t)snprintf(buf + p, size - p, " mode=%s", c->mode ? "circular" : "linear");
    if (p < size)
        p += (size_t)snprintf(buf + p, size - p, "%s%s%s%s", c->symbolic ? " [symbolic dims]" : "",
                              c->chain ? " [chained: second node in place]" : "",
                              c->dup_none ? " [none with duplicates]" : "",
                              c->invalid ? " [one index out of range]" : "");
    for (int i = 0; i < c->n_in && p < size; i++)
        p += describe_tensor(buf + p, size - p, k_names[c->k.op][i], &c->in[i]);
}
