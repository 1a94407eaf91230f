/* fuzz_shapes.c: structure-aware libFuzzer harness: the input is a recipe for a valid or nearly
 * valid model of one of five shapes, written with tests/support/writer.h, loaded and run once.
 *
 * Input layout: byte 0 picks the shape (byte % 5) and flags (bit 3 strict, bit 4 symbolic dims,
 * bit 5 inplace_inputs); the builder reads sizes and choices from the next bytes; the bytes left
 * over are the input stream (fuzz_run.c's rules: dtype/rank/dim bytes when the model does not say,
 * then the elements). Past the end every byte reads as 0, which the recipes read as the common,
 * valid choice. Every size is clamped (at most
 * MAX_NODES nodes, MAX_ELEMS elements per input), so one input stays fast.
 *   0 live    b_i = Neg(x) for many i, then Add(x or the last sum, b_j) in an order from the
 *             bytes: many values alive at once (the arena planner's worst case)
 *   1 stages  NonZero -> Reshape -> Cast -> Add, repeated: every stage's shape is known at run only
 *   2 strings ScatterElements / ScatterND on string tensors, chained, indices with many
 *             duplicates (reduction add concatenates), some out of range
 *   3 fields  long repeated fields: opset imports, attributes of one node, graph inputs, outputs,
 *             initializers, value_info; sometimes over the fixed limits, sometimes duplicate names
 *   4 mix     a few nodes of random registry rows (osc_op_at) with random input and output
 *             counts, attributes and small tensors: the kernels' error paths
 * Checks: no crash, sanitizers clean, a failure has a message, a successful run's outputs have
 * nbytes == packed size of dtype and dims (every byte is read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tests/support/writer.h"

#define MAX_NODES 2000
#define MAX_ELEMS 4096 /* per input and per initializer */
#define NAME(buf, ...) snprintf(buf, sizeof buf, __VA_ARGS__)

static int g_verbose; /* OSC_FUZZ_VERBOSE set: print each outcome (to read a reproducer) */

enum { F_STRICT = 8, F_SYMBOLIC = 16, F_INPLACE = 32 };

typedef struct stream {
    const uint8_t *p;
    size_t n;
} stream;

static uint8_t take(stream *s) {
    if (!s->n) return 0;
    s->n--;
    return *s->p++;
}

static unsigned take16(stream *s) {
    unsigned lo = take(s);
    return lo | (unsigned)take(s) << 8;
}

/* A value in [0, n) (n > 0). */
static unsigned pick(stream *s, unsigned n) {
    return (n > 256 ? take16(s) : take(s)) % n;
}

/* A count in [1, most]: up to `usual` unless the first byte's top bit is set. Big graphs cost
 * tens of milliseconds each under the sanitizers (the planner's by-size pass is O(n^2) up to
 * 4096 buffers), so most recipes stay small and the mutator still reaches the large ones. */
static unsigned count(stream *s, unsigned usual, unsigned most) {
    uint8_t c = take(s);
    return 1 + (c & 0x80 ? pick(s, most) : c % usual);
}

/* A small tensor the recipe fills: int64 elements from signed bytes (so often valid indices and
 * axes), other numeric types from raw bytes. Owns its data. */
typedef struct small {
    osc_tensor t;
    int64_t buf[64];
} small;

static void small_fill(small *k, stream *s, int32_t dtype, int32_t rank, const int64_t *dims) {
    memset(k, 0, sizeof *k);
    k->t.dtype = dtype;
    k->t.rank = rank;
    for (int32_t d = 0; d < rank; d++) k->t.dims[d] = dims[d];
    int64_t count = osc_tensor_count(&k->t);
    k->t.data = k->buf;
    k->t.nbytes = (size_t)((count * (int64_t)osc_dtype_bits(dtype) + 7) / 8);
    if (dtype == OSC_INT64)
        for (int64_t i = 0; i < count; i++) k->buf[i] = (int8_t)take(s);
    else
        for (size_t i = 0; i < k->t.nbytes; i++) ((uint8_t *)k->buf)[i] = take(s);
}

/* Rank and dims of at most 64 elements (rank 0..3, dims 0..4). */
static int32_t small_shape(stream *s, int64_t *dims) {
    int32_t rank = (int32_t)pick(s, 4);
    for (int32_t d = 0; d < rank; d++) dims[d] = pick(s, 5);
    return rank;
}

/* 0 live: many values alive at once. */
static void shape_live(osc_mw *mw, stream *s, int flags) {
    unsigned n = count(s, 64, MAX_NODES / 2);
    int64_t dim = flags & F_SYMBOLIC ? -1 : 1 + (int64_t)pick(s, 8);
    const char *dn[1] = {"N"};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &dim, dn);
    char name[32], prev[32] = "x", out[32];
    for (unsigned i = 0; i < n; i++) {
        const char *in[1] = {"x"}, *o[1] = {name};
        NAME(name, "b%u", i);
        osc_mw_node(mw, "Neg", NULL, 1, in, 1, o);
    }
    unsigned *order = malloc(n * sizeof *order);
    if (!order) return;
    for (unsigned i = 0; i < n; i++) order[i] = i;
    for (unsigned i = n - 1; i > 0; i--) { /* Fisher-Yates from the bytes */
        unsigned j = pick(s, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (unsigned i = 0; i < n; i++) {
        uint8_t c = take(s);
        char b[32];
        NAME(b, "b%u", c & 1 ? order[c % n] : order[i]); /* sometimes a b read twice */
        NAME(out, "y%u", i);
        const char *in[2] = {c & 2 ? prev : "x", b}, *o[1] = {out};
        osc_mw_node(mw, "Add", NULL, 2, in, 1, o);
        if ((c & 12) == 0 || i == n - 1) osc_mw_output(mw, out, OSC_FLOAT, 1, &dim, dn);
        memcpy(prev, out, sizeof prev);
    }
    free(order);
}

static const int32_t cast_to[] = {OSC_FLOAT, OSC_INT64, OSC_INT32, OSC_DOUBLE, OSC_INT8,
                                  OSC_UINT8, OSC_FLOAT16, OSC_BOOL};

/* 1 stages: NonZero -> Reshape -> Cast -> Add chains. A reshape to rank 2 doubles the next
 * stage's elements at most; at most 10 of those keep every value under MAX_ELEMS * 1024. */
static void shape_stages(osc_mw *mw, stream *s, int flags) {
    unsigned n = count(s, 32, MAX_NODES / 4), wide = 0;
    int32_t xt = cast_to[pick(s, 4)];
    int64_t dims[2] = {flags & F_SYMBOLIC ? -1 : 1 + (int64_t)pick(s, 16), 1 + pick(s, 3)};
    const char *dn[2] = {"N", NULL};
    osc_mw_input(mw, "x", xt, 1 + (int32_t)pick(s, 2), dims, dn);
    static const int64_t targets[3][2] = {{-1, 0}, {-1, 1}, {1, -1}};
    char v[32] = "x", nz[32], r[32], c[32], bias[32], shp[32];
    for (unsigned i = 0; i < n; i++) {
        uint8_t ch = take(s);
        unsigned ti = ch % 3;
        if (ti && ++wide > 10) ti = 0;
        int32_t to = cast_to[(ch >> 2) % 8];
        NAME(nz, "nz%u", i);
        NAME(r, "r%u", i);
        NAME(c, "c%u", i);
        NAME(bias, "k%u", i);
        NAME(shp, "s%u", i);
        osc_tensor st = {.dtype = OSC_INT64, .rank = 1, .dims = {ti ? 2 : 1},
                         .data = (void *)targets[ti], .nbytes = ti ? 16 : 8};
        osc_mw_initializer(mw, shp, &st);
        small k;
        small_fill(&k, s, to, 0, NULL);
        osc_mw_initializer(mw, bias, &k.t);
        const char *i1[1] = {v}, *o1[1] = {nz}, *i2[2] = {nz, shp}, *o2[1] = {r};
        const char *i3[1] = {r}, *o3[1] = {c}, *i4[2] = {c, bias};
        osc_mw_node(mw, "NonZero", NULL, 1, i1, 1, o1);
        osc_mw_node(mw, "Reshape", NULL, 2, i2, 1, o2);
        int cn = osc_mw_node(mw, "Cast", NULL, 1, i3, 1, o3);
        osc_mw_attr_int(mw, cn, "to", to);
        NAME(v, "v%u", i);
        const char *o4[1] = {v};
        osc_mw_node(mw, "Add", NULL, 2, i4, 1, o4);
        if (ch & 0x80 || i == n - 1) osc_mw_output(mw, v, 0, -1, NULL, NULL);
    }
}

/* 2 strings: chained string scatters whose indices repeat few positions. */
static void shape_strings(osc_mw *mw, stream *s, int flags) {
    unsigned stages = count(s, 4, 16);
    int nd = take(s) & 1, rank = 1 + (int)pick(s, 2);
    int64_t d[2] = {1 + pick(s, 32), 1 + pick(s, 4)};
    const char *dn[2] = {"N", NULL};
    /* m index tuples over `range` positions (range small: many duplicates; some out of range).
     * ScatterND: indices [m, 1], updates [m] + data dims after the first; ScatterElements:
     * indices and updates [m] or [m, w]. */
    unsigned m = count(s, 64, 4096 / stages > 1024 ? 1024 : 4096 / stages);
    int range = 1 + (int)pick(s, 8);
    int64_t ud[2] = {m, nd ? d[1] : 1 + pick(s, (unsigned)d[1])};
    unsigned n_idx = nd || rank == 1 ? m : m * (unsigned)ud[1];
    if (flags & F_SYMBOLIC) d[0] = -1;
    osc_mw_input(mw, "data", OSC_STRING, rank, d, dn);
    osc_mw_input(mw, "upd", OSC_STRING, rank, ud, NULL);
    int64_t *idx = malloc(n_idx * sizeof *idx);
    if (!idx) return;
    static const char *const red[] = {"add", "none", "mul", "max", NULL};
    char in[32] = "data", out[32], iname[32];
    for (unsigned k = 0; k < stages; k++) {
        for (unsigned i = 0; i < n_idx; i++) {
            uint8_t b = take(s);
            idx[i] = b < 240 ? b % range : (int8_t)b; /* mostly in range */
        }
        osc_tensor it = {.dtype = OSC_INT64, .rank = nd ? 2 : rank, .dims = {m, nd ? 1 : ud[1]},
                         .data = idx, .nbytes = n_idx * sizeof *idx};
        NAME(iname, "i%u", k);
        osc_mw_initializer(mw, iname, &it);
        NAME(out, "s%u", k);
        const char *ins[3] = {in, iname, "upd"}, *outs[1] = {out};
        int n = osc_mw_node(mw, nd ? "ScatterND" : "ScatterElements", NULL, 3, ins, 1, outs);
        const char *r = red[pick(s, 5)];
        if (r) osc_mw_attr_string(mw, n, "reduction", r);
        if (!nd && rank == 2) osc_mw_attr_int(mw, n, "axis", (int8_t)take(s) % 3);
        memcpy(in, out, sizeof in);
    }
    osc_mw_output(mw, in, OSC_STRING, -1, NULL, NULL);
    free(idx);
}

/* 3 fields: long repeated fields; dup (1/8 of the time) makes some names repeat. */
static void shape_fields(osc_mw *mw, stream *s) {
    unsigned opsets = count(s, 16, 300) - 1, attrs = count(s, 64, 1100) - 1;
    unsigned ios = count(s, 64, MAX_NODES), inits = count(s, 64, MAX_NODES) - 1;
    unsigned infos = count(s, 64, MAX_NODES) - 1;
    unsigned dup = (take(s) & 7) == 7 ? 1 + pick(s, 16) : 0; /* names modulo this */
    char name[32];
    for (unsigned i = 0; i < opsets; i++) {
        NAME(name, "d%u", dup ? i % dup : i);
        osc_mw_opset(mw, dup && i % 7 == 3 ? "" : name, 1 + (int64_t)pick(s, 30));
    }
    int64_t one = 1;
    for (unsigned i = 0; i < ios; i++) {
        NAME(name, "x%u", dup ? i % dup : i);
        osc_mw_input(mw, name, OSC_FLOAT, 1, &one, NULL);
        char out[32];
        NAME(out, "y%u", i);
        const char *in[1] = {name}, *o[1] = {out};
        osc_mw_node(mw, "Identity", NULL, 1, in, 1, o);
        osc_mw_output(mw, take(s) & 1 ? out : name, OSC_FLOAT, 1, &one, NULL);
    }
    for (unsigned i = 0; i < inits; i++) { /* defaults of inputs, or unused constants */
        float v = (float)i;
        osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {1}, .data = &v, .nbytes = 4};
        NAME(name, "x%u", dup ? i % dup : i + (take(s) & 1) * ios);
        osc_mw_initializer(mw, name, &t);
    }
    for (unsigned i = 0; i < infos; i++) {
        NAME(name, "y%u", dup ? i % dup : i);
        osc_mw_value_info(mw, name, OSC_FLOAT, 1, &one, NULL);
    }
    /* many attributes on one node */
    const char *in[2] = {"x0", "x0"}, *o[1] = {"z"};
    int n = osc_mw_node(mw, "Add", NULL, 2, in, 1, o);
    int64_t iv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float fv[4] = {1, 2, 3, 4};
    for (unsigned i = 0; i < attrs; i++) {
        uint8_t c = take(s);
        NAME(name, "a%u", dup ? i % dup : i);
        switch (c % 5) {
        case 0: osc_mw_attr_int(mw, n, name, (int8_t)c); break;
        case 1: osc_mw_attr_ints(mw, n, name, iv, c % 9); break;
        case 2: osc_mw_attr_float(mw, n, name, (float)c); break;
        case 3: osc_mw_attr_floats(mw, n, name, fv, c % 5); break;
        default: osc_mw_attr_string(mw, n, name, "s"); break;
        }
    }
    osc_mw_output(mw, "z", OSC_FLOAT, 1, &one, NULL);
}

/* Attributes the mix shape sets at random (names many kernels read). */
static void random_attr(osc_mw *mw, int n, stream *s) {
    static const char *const ints[] = {"axis", "keepdims", "to", "exclusive", "reverse",
                                       "batch_dims", "largest", "sorted", "k", "transA",
                                       "select_last_index", "noop_with_empty_axes"};
    static const char *const lists[] = {"axes", "perm", "pads", "split", "shape"};
    static const char *const strs[][2] = {{"reduction", "add"}, {"reduction", "max"},
                                          {"reduction", "mul"}, {"mode", "constant"},
                                          {"mode", "reflect"}, {"equation", "ij,jk->ik"},
                                          {"equation", "i->"}, {"reduction", "min"}};
    uint8_t c = take(s);
    int64_t v[6];
    switch (c % 4) {
    case 0: osc_mw_attr_int(mw, n, ints[c / 4 % 12], (int8_t)take(s) % 8); break;
    case 1:
        for (int i = 0; i < 6; i++) v[i] = (int8_t)take(s) % 5;
        osc_mw_attr_ints(mw, n, lists[c / 4 % 5], v, c / 32 % 7);
        break;
    case 2: osc_mw_attr_string(mw, n, strs[c / 4 % 8][0], strs[c / 4 % 8][1]); break;
    default: osc_mw_attr_float(mw, n, c & 4 ? "alpha" : "epsilon", (float)(int8_t)take(s) / 8);
    }
}

static const int32_t mix_types[] = {OSC_FLOAT, OSC_INT64, OSC_INT32, OSC_STRING, OSC_BOOL,
                                    OSC_DOUBLE, OSC_FLOAT16, OSC_UINT8, OSC_INT4, OSC_BFLOAT16};

/* 4 mix: up to 8 nodes of random registry rows over a pool of inputs, initializers and earlier
 * outputs. */
static void shape_mix(osc_mw *mw, stream *s, int flags) {
    unsigned nops = (unsigned)osc_op_count();
    int64_t v = osc_opset_newest("") - (int64_t)pick(s, 12), any = take(s) >= 224;
    osc_mw_opset(mw, "", v);
    char pool[64][16];
    unsigned npool = 0;
    for (unsigned i = 0, n = 1 + pick(s, 4); i < n; i++, npool++) { /* graph inputs */
        int64_t dims[OSC_MAX_RANK];
        int32_t rank = small_shape(s, dims);
        if (flags & F_SYMBOLIC) rank = -1;
        NAME(pool[npool], "in%u", i);
        osc_mw_input(mw, pool[npool], mix_types[pick(s, 10)], rank, dims, NULL);
    }
    for (unsigned i = 0, n = pick(s, 4); i < n; i++, npool++) { /* small constants */
        int64_t dims[OSC_MAX_RANK];
        int32_t rank = small_shape(s, dims);
        int32_t dt = mix_types[pick(s, 10)];
        if (dt == OSC_STRING) dt = OSC_INT64; /* small_fill writes no osc_string */
        small k;
        small_fill(&k, s, dt, rank, dims);
        NAME(pool[npool], "k%u", i);
        osc_mw_initializer(mw, pool[npool], &k.t);
    }
    for (unsigned i = 0, nodes = 1 + pick(s, 8); i < nodes && npool < 56; i++) {
        osc_op_desc op;
        unsigned r = pick(s, nops);
        for (unsigned j = 0; j < nops; j++) { /* the next row valid at v, unless any */
            if (osc_op_at((r + j) % nops, &op) != OSC_OK) __builtin_trap();
            if (any || op.domain[0] || (op.since_version <= v && v <= op.until_version)) break;
        }
        int32_t hi = op.max_inputs < 0 ? op.min_inputs + 3 : op.max_inputs;
        int n_in = op.min_inputs + (int)pick(s, (unsigned)(hi - op.min_inputs + 2)) - (take(s) == 255);
        if (n_in < 0) n_in = 0;
        if (n_in > 8) n_in = 8;
        int32_t ohi = op.n_outputs < 0 ? 3 : op.n_outputs;
        int n_out = op.min_outputs + (int)pick(s, (unsigned)(ohi - op.min_outputs + 1));
        if (n_out < 1) n_out = 1;
        if (n_out > 8) n_out = 8;
        if (n_out > (int)(64 - npool)) n_out = (int)(64 - npool);
        const char *ins[8], *outs[8];
        for (int k = 0; k < n_in; k++) {
            uint8_t c = take(s);
            ins[k] = c == 255 ? "" : pool[c % npool]; /* sometimes an omitted optional input */
        }
        for (int k = 0; k < n_out; k++) {
            NAME(pool[npool], "n%u_%d", i, k);
            outs[k] = pool[npool++];
        }
        int n = osc_mw_node(mw, op.op_type, NULL, n_in, ins, n_out, outs);
        if (op.domain[0]) {
            osc_mw_node_domain(mw, n, op.domain);
            osc_mw_opset(mw, op.domain, op.since_version);
        }
        for (unsigned a = 0, na = pick(s, 4); a < na; a++) random_attr(mw, n, s);
    }
    for (unsigned k = 0; k < npool; k++) /* every node output may be a graph output */
        if (pool[k][0] == 'n' && (take(s) & 3) != 0) osc_mw_output(mw, pool[k], 0, -1, NULL, NULL);
}

/* One bound input: its tensor and the blocks it owns. */
typedef struct input {
    osc_tensor t;
    char *strings;
} input;

static int make_input(const osc_value_desc *vd, stream *s, input *in) {
    osc_tensor *t = &in->t;
    memset(in, 0, sizeof *in);
    t->dtype = vd->dtype ? vd->dtype : 1 + take(s) % (OSC_DTYPE_COUNT - 1);
    t->rank = vd->rank >= 0 ? vd->rank : take(s) % 4;
    int64_t count = 1;
    for (int32_t d = 0; d < t->rank; d++) {
        t->dims[d] = vd->rank >= 0 && vd->dims[d] >= 0 ? vd->dims[d] : take(s) % 17;
        if (t->dims[d] > MAX_ELEMS || (count *= t->dims[d]) > MAX_ELEMS) return -1;
    }
    t->nbytes = (size_t)((count * (int64_t)osc_dtype_bits(t->dtype) + 7) / 8);
    t->data = calloc(1, t->nbytes ? t->nbytes : 1);
    if (!t->data) return -1;
    if (t->dtype != OSC_STRING) {
        for (size_t i = 0; i < t->nbytes; i++) ((uint8_t *)t->data)[i] = take(s);
        return 0;
    }
    in->strings = malloc((size_t)count * 16 + 1); /* each string 0..16 bytes */
    if (!in->strings) return -1;
    osc_string *str = t->data;
    char *p = in->strings;
    for (int64_t i = 0; i < count; i++) {
        str[i].ptr = p;
        str[i].len = take(s) % 17;
        for (size_t k = 0; k < str[i].len; k++) *p++ = (char)('a' + take(s) % 26);
    }
    return 0;
}

/* Reads every byte of every output and checks nbytes against dtype and dims. */
static void check_outputs(osc_session *sess, size_t n_out) {
    volatile uint8_t sink = 0;
    for (size_t o = 0; o < n_out; o++) {
        osc_tensor t;
        if (osc_session_output(sess, o, &t) != OSC_OK) __builtin_trap();
        int64_t count = osc_tensor_count(&t);
        size_t bits = osc_dtype_bits(t.dtype);
        if (count < 0 || !bits || t.nbytes != (size_t)((count * (int64_t)bits + 7) / 8))
            __builtin_trap();
        for (size_t i = 0; i < t.nbytes; i++) sink ^= ((const uint8_t *)t.data)[i];
        for (int64_t i = 0; t.dtype == OSC_STRING && i < count; i++) {
            const osc_string *str = &((const osc_string *)t.data)[i];
            for (size_t k = 0; k < str->len; k++) sink ^= (uint8_t)str->ptr[k];
        }
    }
    (void)sink;
}

static void load_and_run(const void *buf, size_t len, stream *s, int flags) {
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = FUZZ_MAX_BYTES;
    o.max_arena_bytes = FUZZ_MAX_ARENA;
    o.max_nodes = 2 * MAX_NODES + 64;
    o.strict = (flags & F_STRICT) != 0;
    o.inplace_inputs = (flags & F_INPLACE) != 0;
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg);
    fuzz_check_msg(st, msg, sizeof msg);
    if (g_verbose) fprintf(stderr, "load: %s %s\n", osc_status_name(st), msg);
    if (st != OSC_OK) {
        if (m) __builtin_trap();
        return;
    }
    osc_session *sess = NULL;
    size_t n_in = osc_model_input_count(m);
    input *ins = calloc(n_in + 1, sizeof *ins);
    if (!ins || osc_session_create(m, &sess) != OSC_OK) goto done;
    for (size_t i = 0; i < n_in; i++) {
        osc_value_desc vd;
        if (osc_model_input(m, i, &vd) != OSC_OK) __builtin_trap();
        if (vd.has_default && !(take(s) & 1)) continue;
        if (make_input(&vd, s, &ins[i]) != 0) goto done; /* too large for a fast run */
        (void)osc_session_set_input_at(sess, i, &ins[i].t);
    }
    st = osc_session_run(sess);
    const char *err = osc_session_error(sess);
    fuzz_check_msg(st, err, strlen(err) + 1);
    if (g_verbose) fprintf(stderr, "run: %s %s\n", osc_status_name(st), err);
    if (st == OSC_OK) check_outputs(sess, osc_model_output_count(m));
done:
    osc_session_free(sess);
    for (size_t i = 0; ins && i < n_in; i++) {
        free(ins[i].t.data);
        free(ins[i].strings);
    }
    free(ins);
    osc_model_free(m);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    g_verbose = getenv("OSC_FUZZ_VERBOSE") != NULL;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    stream s = {data + 1, size - 1};
    int flags = data[0];
    osc_mw *mw = osc_mw_new(10);
    if (!mw) return 0;
    if (data[0] % 5 != 4) osc_mw_opset(mw, "", data[0] % 5 == 2 ? 16 + take(&s) % 3 : 18);
    switch (data[0] % 5) {
    case 0: shape_live(mw, &s, flags); break;
    case 1: shape_stages(mw, &s, flags); break;
    case 2: shape_strings(mw, &s, flags); break;
    case 3: shape_fields(mw, &s); break;
    default: shape_mix(mw, &s, flags); break;
    }
    void *buf = NULL;
    size_t len = 0;
    osc_status st = osc_mw_serialize(mw, &buf, &len);
    if (st != OSC_OK && st != OSC_ERR_NOMEM) {
        fprintf(stderr, "fuzz_shapes: writer: %s\n", osc_mw_error(mw));
        __builtin_trap(); /* the recipe wrote something the writer refuses: a harness bug */
    }
    osc_mw_free(mw);
    if (st == OSC_OK) load_and_run(buf, len, &s, flags);
    free(buf);
    return 0;
}
