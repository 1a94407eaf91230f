/* fuzz_shapes.c: structure-aware libFuzzer harness: the input is a recipe for a valid or nearly
 * valid model of one of six shapes, written with tests/support/writer.h, loaded and run once.
 *
 * Input layout: byte 0 picks the shape (byte % 6; both top bits set: 6) and flags (bit 3 strict, bit 4 symbolic dims,
 * bit 5 inplace_inputs = 2); the builder reads sizes and choices from the next bytes; the rest
 * is the input stream (fuzz_run.c's rules: dtype/rank/dim bytes when the model does not say,
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
 *   5 fusion  the exporters' message-passing pattern that the load-time fusion rewrites
 *             (rewrite/gather_scatter.c): Scatter(data, Expand(Unsqueeze(dst)), steps(Gather(x, src)))
 *             with fuzzed dtypes, sizes, reductions, axes, operand broadcasts and sides, data
 *             made every way, Reshapes, extra readers and mismatched shapes; integer inputs
 *             (dst, src) take one signed byte per element, so indices are often in range. The
 *             model is loaded and run twice, fusion on and off, with the same inputs: both must
 *             fail alike (fuzz_same_outcome) or give the same outputs, bit for bit (two NaNs
 *             count as equal whatever their payloads: tests/unit/test_fusion.c's known issue).
 *             With the symbolic flag, a byte more chooses the dynamic-axes spelling
 *             (runtime/symbolic.c, rules shape_of and gather_scatter_se on symbols): E
 *             symbolic, the data ConstantOfShape of a Shape -> Gather -> Unsqueeze -> Concat
 *             chain, the index Expanded to a Shape, and look-alikes of these (another dim read,
 *             a wider or longer shape, Shape(x)); inputs sharing a dim_param share its size.
 *   6 control (byte 0 with both top bits set) subgraphs: a Loop (trip count, condition and
 *             carried value from the bytes) whose body holds an If reading names from one and
 *             two graphs out, its branches of equal or different shapes, with a scan output;
 *             or a Scan (directions, axes) over a fuzzed tensor; or a SequenceMap over
 *             SplitToSequence's items. Bodies whose shapes change per iteration, conditions of
 *             the wrong type and trip counts past the harness's iteration cap are among them.
 * Checks: no crash, sanitizers clean, a failure has a message, a successful run's outputs have
 * nbytes == packed size of dtype and dims (every byte is read). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tests/support/writer.h"

#define MAX_NODES 2000
#define MAX_ELEMS 4096 /* per input and per initializer */
#define NAME(buf, ...) snprintf(buf, sizeof buf, __VA_ARGS__)

/* OSC_FUZZ_VERBOSE set: print each outcome; OSC_FUZZ_SAVE_MODEL=PATH: write the model built
 * there (to read a reproducer) */
static int g_verbose;
enum { F_STRICT = 8, F_SYMBOLIC = 16, F_INPLACE = 32 };

static unsigned take16(fuzz_stream *s) {
    unsigned lo = fuzz_take(s);
    return lo | (unsigned)fuzz_take(s) << 8;
}

/* A value in [0, n) (n > 0). */
static unsigned pick(fuzz_stream *s, unsigned n) {
    return (n > 256 ? take16(s) : fuzz_take(s)) % n;
}

/* A count in [1, most]: up to `usual` unless the first byte's top bit is set. Big graphs cost
 * tens of milliseconds each under the sanitizers (the planner's by-size pass is O(n^2) up to
 * 4096 buffers), so most recipes stay small and the mutator still reaches the large ones. */
static unsigned count(fuzz_stream *s, unsigned usual, unsigned most) {
    uint8_t c = fuzz_take(s);
    return 1 + (c & 0x80 ? pick(s, most) : c % usual);
}

/* A small tensor the recipe fills: int64 elements from signed bytes (so often valid indices and
 * axes), other numeric types from raw bytes. Owns its data. */
typedef struct small {
    osc_tensor t;
    int64_t buf[64];
} small;

static void small_fill(small *k, fuzz_stream *s, int32_t dtype, int32_t rank, const int64_t *dims) {
    memset(k, 0, sizeof *k);
    k->t.dtype = dtype;
    k->t.rank = rank;
    for (int32_t d = 0; d < rank; d++) k->t.dims[d] = dims[d];
    int64_t count = osc_tensor_count(&k->t);
    k->t.data = k->buf;
    k->t.nbytes = (size_t)((count * (int64_t)osc_dtype_bits(dtype) + 7) / 8);
    if (dtype == OSC_INT64)
        for (int64_t i = 0; i < count; i++) k->buf[i] = (int8_t)fuzz_take(s);
    else
        for (size_t i = 0; i < k->t.nbytes; i++) ((uint8_t *)k->buf)[i] = fuzz_take(s);
}

/* Rank and dims of at most 64 elements (rank 0..3, dims 0..4). */
static int32_t small_shape(fuzz_stream *s, int64_t *dims) {
    int32_t rank = (int32_t)pick(s, 4);
    for (int32_t d = 0; d < rank; d++) dims[d] = pick(s, 5);
    return rank;
}

/* 0 live: many values alive at once. */
static void shape_live(osc_mw *mw, fuzz_stream *s, int flags) {
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
        uint8_t c = fuzz_take(s);
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
static void shape_stages(osc_mw *mw, fuzz_stream *s, int flags) {
    unsigned n = count(s, 32, MAX_NODES / 4), wide = 0;
    int32_t xt = cast_to[pick(s, 4)];
    int64_t dims[2] = {flags & F_SYMBOLIC ? -1 : 1 + (int64_t)pick(s, 16), 1 + pick(s, 3)};
    const char *dn[2] = {"N", NULL};
    osc_mw_input(mw, "x", xt, 1 + (int32_t)pick(s, 2), dims, dn);
    static const int64_t targets[3][2] = {{-1, 0}, {-1, 1}, {1, -1}};
    char v[32] = "x", nz[32], r[32], c[32], bias[32], shp[32];
    for (unsigned i = 0; i < n; i++) {
        uint8_t ch = fuzz_take(s);
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
static void shape_strings(osc_mw *mw, fuzz_stream *s, int flags) {
    unsigned stages = count(s, 4, 16);
    int nd = fuzz_take(s) & 1, rank = 1 + (int)pick(s, 2);
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
            uint8_t b = fuzz_take(s);
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
        if (!nd && rank == 2) osc_mw_attr_int(mw, n, "axis", (int8_t)fuzz_take(s) % 3);
        memcpy(in, out, sizeof in);
    }
    osc_mw_output(mw, in, OSC_STRING, -1, NULL, NULL);
    free(idx);
}

/* 3 fields: long repeated fields; dup (1/8 of the time) makes some names repeat. */
static void shape_fields(osc_mw *mw, fuzz_stream *s) {
    unsigned opsets = count(s, 16, 300) - 1, attrs = count(s, 64, 1100) - 1;
    unsigned ios = count(s, 64, MAX_NODES), inits = count(s, 64, MAX_NODES) - 1;
    unsigned infos = count(s, 64, MAX_NODES) - 1;
    unsigned dup = (fuzz_take(s) & 7) == 7 ? 1 + pick(s, 16) : 0; /* names modulo this */
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
        osc_mw_output(mw, fuzz_take(s) & 1 ? out : name, OSC_FLOAT, 1, &one, NULL);
    }
    for (unsigned i = 0; i < inits; i++) { /* defaults of inputs, or unused constants */
        float v = (float)i;
        osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {1}, .data = &v, .nbytes = 4};
        NAME(name, "x%u", dup ? i % dup : i + (fuzz_take(s) & 1) * ios);
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
        uint8_t c = fuzz_take(s);
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
static void random_attr(osc_mw *mw, int n, fuzz_stream *s) {
    static const char *const ints[] = {"axis", "keepdims", "to", "exclusive", "reverse",
                                       "batch_dims", "largest", "sorted", "k", "transA",
                                       "select_last_index", "noop_with_empty_axes"};
    static const char *const lists[] = {"axes", "perm", "pads", "split", "shape"};
    static const char *const strs[][2] = {{"reduction", "add"}, {"reduction", "max"},
                                          {"reduction", "mul"}, {"mode", "constant"},
                                          {"mode", "reflect"}, {"equation", "ij,jk->ik"},
                                          {"equation", "i->"}, {"reduction", "min"}};
    uint8_t c = fuzz_take(s);
    int64_t v[6];
    switch (c % 4) {
    case 0: osc_mw_attr_int(mw, n, ints[c / 4 % 12], (int8_t)fuzz_take(s) % 8); break;
    case 1:
        for (int i = 0; i < 6; i++) v[i] = (int8_t)fuzz_take(s) % 5;
        osc_mw_attr_ints(mw, n, lists[c / 4 % 5], v, c / 32 % 7);
        break;
    case 2: osc_mw_attr_string(mw, n, strs[c / 4 % 8][0], strs[c / 4 % 8][1]); break;
    default: osc_mw_attr_float(mw, n, c & 4 ? "alpha" : "epsilon", (float)(int8_t)fuzz_take(s) / 8);
    }
}

static const int32_t mix_types[] = {OSC_FLOAT, OSC_INT64, OSC_INT32, OSC_STRING, OSC_BOOL,
                                    OSC_DOUBLE, OSC_FLOAT16, OSC_UINT8, OSC_INT4, OSC_BFLOAT16};

/* 4 mix: up to 8 nodes of random registry rows over a pool of inputs, initializers and earlier
 * outputs. */
static void shape_mix(osc_mw *mw, fuzz_stream *s, int flags) {
    unsigned nops = (unsigned)osc_op_count();
    int64_t v = osc_opset_newest("") - (int64_t)pick(s, 12), any = fuzz_take(s) >= 224;
    osc_mw_opset(mw, "", v);
    char pool[64][32]; /* "n%u_%d": room for any two ints */
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
        int n_in = op.min_inputs + (int)pick(s, (unsigned)(hi - op.min_inputs + 2)) -
                   (fuzz_take(s) == 255);
        if (n_in < 0) n_in = 0;
        if (n_in > 8) n_in = 8;
        int32_t ohi = op.n_outputs < 0 ? 3 : op.n_outputs;
        int n_out = op.min_outputs + (int)pick(s, (unsigned)(ohi - op.min_outputs + 1));
        if (n_out < 1) n_out = 1;
        if (n_out > 8) n_out = 8;
        if (n_out > (int)(64 - npool)) n_out = (int)(64 - npool);
        const char *ins[8], *outs[8];
        for (int k = 0; k < n_in; k++) {
            uint8_t c = fuzz_take(s);
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
        if (pool[k][0] == 'n' && (fuzz_take(s) & 3) != 0)
            osc_mw_output(mw, pool[k], 0, -1, NULL, NULL);
}

/* The data's shape as dynamic exports compute it: Concat(Unsqueeze(Gather(Shape(from), k)),
 * the other dims dd[1..rank-1]) into "dshape"; dyn (shape_fusion's) picks k and look-alikes. */
static void shape_chain(osc_mw *mw, const char *from, unsigned dyn, int rank, const int64_t *dd) {
    int64_t k = (dyn >> 4) & 3, zero = 0;
    int64_t rest[4] = {dd[1], dd[2], 1, 1};
    int32_t n_rest = rank - 1 + ((dyn & 64) != 0);
    if ((dyn & 128) && rank > 1) rest[0]++;
    osc_tensor kt = {.dtype = OSC_INT64, .rank = 0, .data = &k, .nbytes = 8};
    osc_tensor at = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = &zero, .nbytes = 8};
    osc_tensor rt = {.dtype = OSC_INT64, .rank = 1, .dims = {n_rest}, .data = rest,
                     .nbytes = (size_t)n_rest * 8};
    osc_mw_initializer(mw, "dk", &kt);
    osc_mw_initializer(mw, "daxes", &at);
    osc_mw_initializer(mw, "drest", &rt);
    osc_mw_node(mw, "Shape", "data_shape_of", 1, (const char *[]){from}, 1,
                (const char *[]){"dsh"});
    osc_mw_node(mw, "Gather", "data_rows", 2, (const char *[]){"dsh", "dk"}, 1,
                (const char *[]){"drows"});
    osc_mw_node(mw, "Unsqueeze", "data_rows_col", 2, (const char *[]){"drows", "daxes"}, 1,
                (const char *[]){"drows1"});
    int c = osc_mw_node(mw, "Concat", "data_shape", n_rest ? 2 : 1,
                        (const char *[]){"drows1", "drest"}, 1, (const char *[]){"dshape"});
    osc_mw_attr_int(mw, c, "axis", 0);
}

/* 5 fusion: what rewrite/gather_scatter.c looks for, and its boundaries. Byte by byte (0 everywhere is
 * the GCN layer: float, add, zeros, a Gather and a per-edge weight):
 *   with F_SYMBOLIC, dyn bits: 1 E symbolic (src, dst, the per-edge operands, Reshape to
 *   [-1, R]), 2 the data's shape from Shape(x or upd) -> Gather(dim k) -> Unsqueeze -> Concat
 *   (k = bits 4-5: 0 the rows, else a look-alike; 64 one dim more, 128 the second dim one
 *   wider), 4 the Expand's shape Shape(updates) (8: Shape(x or upd) instead, a look-alike);
 *   variant bits: 1 ScatterND, 2 no Gather (updates are an input), 4 the Gather's output is also a
 *   graph output, 8 the first step's output is too, 16 one destination ([1] dst), 32 a Reshape
 *   to [E, R] at the end, 64 the index Expands a wide u [E, R], 128 the Expand's shape is fuzzed;
 *   dtype, reduction, data kind, scatter and Gather axes, N, E, M, the row's rank and dims, the
 *   steps (op, side, which operand dims broadcast; or a Relu, a Tanh or a MatMul by a square
 *   weight, maybe summed with its input, which make a tiled scatter of the chain:
 *   ops/fused/fused_tiled.h). */
static void shape_fusion(osc_mw *mw, fuzz_stream *s, int flags) {
    static const int32_t types[] = {OSC_FLOAT, OSC_FLOAT, OSC_FLOAT, OSC_DOUBLE, OSC_DOUBLE,
                                    OSC_INT64, OSC_INT32, OSC_FLOAT16};
    static const char *const reds[] = {"add", "none", "mul", "max", "min", NULL};
    static const char *const ops[] = {"Mul", "Add", "Sub", "Div"};
    const unsigned v = fuzz_take(s), dyn = flags & F_SYMBOLIC ? fuzz_take(s) : 0;
    const bool nd = v & 1, gather = !(v & 2), one = v & 16, wide = v & 64, bad_shape = v & 128;
    const bool sym_e = dyn & 1;
    const char *const e_name[3] = {"E", NULL, NULL};
    const int32_t dt = types[pick(s, 8)];
    const char *red = reds[pick(s, 6)];
    const unsigned data_kind = dyn & 2 ? 2 + 2 * (pick(s, 5) == 4) : pick(s, 5);
    const int64_t axis = (int8_t)fuzz_take(s) % 3, gaxis = (int8_t)fuzz_take(s) % 3;
    const int64_t n = 1 + pick(s, 16), e = 1 + pick(s, 48), m = 1 + pick(s, 16);
    const int rrank = (int)pick(s, 3);
    int64_t row[2] = {1, 1}, r = 1;
    for (int d = 0; d < rrank; d++) r *= row[d] = (1 + pick(s, 5)) % 5; /* 4 -> a 0 dim */
    const bool reshape = (v & 32) && rrank == 2;
    /* the updates: [E, row...], or [E, R] after the Reshape */
    const int urank = reshape ? 2 : 1 + rrank;
    int64_t ud[3] = {e, reshape ? r : row[0], row[1]}, dd[3] = {n, ud[1], ud[2]};
    const char *en[3] = {"M", NULL, NULL};
    char cur[16] = "upd", name[16];
    if (gather) {
        int64_t xd[3] = {flags & F_SYMBOLIC ? -1 : m, row[0], row[1]};
        osc_mw_input(mw, "x", dt, 1 + rrank, xd, en);
        osc_mw_input(mw, "src", OSC_INT64, 1, sym_e ? (const int64_t[]){-1} : &e, e_name);
        int g = osc_mw_node(mw, "Gather", "gather", 2, (const char *[]){"x", "src"}, 1,
                            (const char *[]){"g"});
        if (gaxis) osc_mw_attr_int(mw, g, "axis", gaxis);
        if (v & 4) osc_mw_output(mw, "g", dt, -1, NULL, NULL);
        snprintf(cur, sizeof cur, "g");
    } else {
        const int64_t su[3] = {sym_e ? -1 : ud[0], ud[1], ud[2]};
        osc_mw_input(mw, "upd", dt, urank, su, e_name);
    }
    for (unsigned k = 0, steps = gather ? pick(s, 4) : 0; k < steps; k++) {
        const uint8_t c = fuzz_take(s), mask = fuzz_take(s);
        /* the operand: [E, row...] with its leading `drop` (mask bits 0-1) dims left out
         * and dim d set to 1 where mask bit 2 + d is set */
        int64_t od[3] = {e, row[0], row[1]}, full = 1 + rrank;
        const int drop = (int)((mask & 3) % (full + 1));
        for (int d = drop; d < full; d++)
            if (mask >> (2 + d) & 1) od[d] = 1;
        char w[16];
        NAME(w, "w%u", k);
        NAME(name, "s%u", k);
        if (c & 8) { /* a step a GatherScatter has no room for: the scatter gets tiled */
            const bool mm = (c & 16) && rrank >= 1;
            const int64_t l = row[rrank > 0 ? rrank - 1 : 0], wd[2] = {l, l};
            if (mm) osc_mw_input(mw, w, dt, 2, wd, NULL); /* [..., l] x [l, l] */
            /* mask bit 6: a residual sum of the product and its input, either side (rule
             * matmul_add where no tiled region takes the chain) */
            const bool res = mm && (mask & 64);
            char prod[16];
            NAME(prod, "p%u", k);
            osc_mw_node(mw, mm ? "MatMul" : c & 32 ? "Tanh" : "Relu", NULL, mm ? 2 : 1,
                        (const char *[]){cur, w}, 1, (const char *[]){res ? prod : name});
            if (res)
                osc_mw_node(mw, "Add", NULL, 2,
                            mask & 128 ? (const char *[]){cur, prod} : (const char *[]){prod, cur},
                            1, (const char *[]){name});
            if (k == 0 && (v & 8)) osc_mw_output(mw, name, dt, -1, NULL, NULL);
            memcpy(cur, name, sizeof cur);
            continue;
        }
        if (sym_e && drop == 0 && od[0] == e) od[0] = -1; /* the operand's E is the symbol */
        osc_mw_input(mw, w, dt, (int)(full - drop), od + drop, drop ? NULL : e_name);
        const char *in[2] = {c & 4 ? w : cur, c & 4 ? cur : w}, *out[1] = {name};
        osc_mw_node(mw, ops[c & 3], NULL, 2, in, 1, out);
        if (k == 0 && (v & 8)) osc_mw_output(mw, name, dt, -1, NULL, NULL);
        memcpy(cur, name, sizeof cur);
    }
    if (reshape && gather) {
        int64_t rs[2] = {sym_e ? -1 : ud[0], ud[1]};
        osc_tensor st = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = rs, .nbytes = 16};
        osc_mw_initializer(mw, "rshape", &st);
        osc_mw_node(mw, "Reshape", NULL, 2, (const char *[]){cur, "rshape"}, 1,
                    (const char *[]){"r"});
        snprintf(cur, sizeof cur, "r");
    }
    /* the data */
    osc_tensor dshape = {.dtype = OSC_INT64, .rank = 1, .dims = {urank}, .data = dd,
                         .nbytes = (size_t)urank * 8};
    if (data_kind == 3) {
        osc_mw_input(mw, "data", dt, urank, dd, NULL);
    } else if (data_kind == 0 || data_kind == 1) { /* zeros: an initializer or a Constant */
        const int64_t count = n * ud[1] * (urank > 2 ? ud[2] : 1);
        const size_t bytes = (size_t)count * osc_dtype_bits(dt) / 8;
        void *z = calloc(1, bytes ? bytes : 1);
        if (!z) return;
        osc_tensor zt = {.dtype = dt, .rank = urank, .dims = {dd[0], dd[1], dd[2]}, .data = z,
                         .nbytes = bytes};
        if (data_kind == 0) {
            osc_mw_initializer(mw, "data", &zt);
        } else {
            int k = osc_mw_node(mw, "Constant", NULL, 0, NULL, 1, (const char *[]){"data"});
            osc_mw_attr_tensor(mw, k, "value", &zt);
        }
        free(z);
    } else { /* ConstantOfShape: zeros (float: the default value) or a value from the bytes */
        if (dyn & 2) shape_chain(mw, gather ? "x" : "upd", dyn, urank, dd);
        else osc_mw_initializer(mw, "dshape", &dshape);
        int k = osc_mw_node(mw, "ConstantOfShape", NULL, 1, (const char *[]){"dshape"}, 1,
                            (const char *[]){"data"});
        small fill;
        memset(&fill, 0, sizeof fill);
        if (data_kind == 4) small_fill(&fill, s, dt, 1, (const int64_t[]){1});
        fill.t = (osc_tensor){.dtype = dt, .rank = 1, .dims = {1}, .data = fill.buf,
                              .nbytes = osc_dtype_bits(dt) / 8};
        if (data_kind == 4 || dt != OSC_FLOAT) osc_mw_attr_tensor(mw, k, "value", &fill.t);
    }
    /* the indices: dst [E] (or [1]) Unsqueezed to [E, 1, ...] and Expanded to the updates */
    const int64_t de = one ? 1 : sym_e ? -1 : e, su[3] = {sym_e ? -1 : ud[0], ud[1], ud[2]};
    osc_mw_input(mw, wide ? "u" : "dst", OSC_INT64, wide ? urank : 1, wide ? su : &de, e_name);
    const char *col = "dst";
    if (!wide && (nd || urank > 1)) {
        int64_t axes[2] = {1, 2};
        osc_tensor at = {.dtype = OSC_INT64, .rank = 1, .dims = {nd ? 1 : urank - 1},
                         .data = axes, .nbytes = (size_t)(nd ? 1 : urank - 1) * 8};
        osc_mw_initializer(mw, "axes", &at);
        osc_mw_node(mw, "Unsqueeze", NULL, 2, (const char *[]){"dst", "axes"}, 1,
                    (const char *[]){"dst_col"});
        col = "dst_col";
    }
    if (!nd) {
        int64_t sd[3] = {ud[0], ud[1], ud[2]};
        if (bad_shape)
            for (int d = 0; d < urank; d++) sd[d] = (int64_t)pick(s, 4);
        osc_tensor st = {.dtype = OSC_INT64, .rank = 1, .dims = {urank}, .data = sd,
                         .nbytes = (size_t)urank * 8};
        if (dyn & 12)
            osc_mw_node(mw, "Shape", "shape_of", 1,
                        (const char *[]){dyn & 8 ? (gather ? "x" : "upd") : cur}, 1,
                        (const char *[]){"shape"});
        else
            osc_mw_initializer(mw, "shape", &st);
        osc_mw_node(mw, "Expand", NULL, 2, (const char *[]){wide ? "u" : col, "shape"}, 1,
                    (const char *[]){"idx"});
    }
    const char *in[3] = {"data", nd ? col : "idx", cur}, *out[1] = {"y"};
    int k = osc_mw_node(mw, nd ? "ScatterND" : "ScatterElements", "scatter", 3, in, 1, out);
    if (red) osc_mw_attr_string(mw, k, "reduction", red);
    if (axis && !nd) osc_mw_attr_int(mw, k, "axis", axis);
    osc_mw_output(mw, "y", dt, -1, NULL, NULL);
}

/* One bound input: its tensor and the blocks it owns. */
typedef struct input {
    osc_tensor t;
    char *strings;
} input;

/* The sizes given to named symbolic dims so far: a later input with the same dim_param takes
 * the same size unless its dim byte has the top bit set (a disagreeing size, refused at run). */
typedef struct syms {
    int n;
    const char *name[8];
    int64_t size[8];
} syms;

static int64_t sym_dim(syms *y, const char *name, uint8_t b) {
    for (int i = 0; name && i < y->n; i++)
        if (!strcmp(y->name[i], name) && !(b & 0x80)) return y->size[i];
    if (name && y->n < 8) {
        y->name[y->n] = name;
        y->size[y->n++] = b % 17;
    }
    return b % 17;
}

/* small_ints: integer elements from one signed byte each (fusion: indices often in range). */
static int make_input(const osc_value_desc *vd, fuzz_stream *s, bool small_ints, syms *y,
                      input *in) {
    osc_tensor *t = &in->t;
    memset(in, 0, sizeof *in);
    t->dtype = vd->dtype ? vd->dtype : 1 + fuzz_take(s) % (OSC_DTYPE_COUNT - 1);
    t->rank = vd->rank >= 0 ? vd->rank : fuzz_take(s) % 4;
    int64_t count = 1;
    for (int32_t d = 0; d < t->rank; d++) {
        t->dims[d] = vd->rank >= 0 && vd->dims[d] >= 0 ? vd->dims[d]
                     : vd->rank >= 0 ? sym_dim(y, vd->dim_names[d], fuzz_take(s))
                                     : fuzz_take(s) % 17;
        if (t->dims[d] > MAX_ELEMS || (count *= t->dims[d]) > MAX_ELEMS) return -1;
    }
    t->nbytes = (size_t)((count * (int64_t)osc_dtype_bits(t->dtype) + 7) / 8);
    t->data = calloc(1, t->nbytes ? t->nbytes : 1);
    if (!t->data) return -1;
    if (small_ints && (t->dtype == OSC_INT64 || t->dtype == OSC_INT32)) {
        for (int64_t i = 0; i < count; i++) {
            if (t->dtype == OSC_INT64) ((int64_t *)t->data)[i] = (int8_t)fuzz_take(s);
            else ((int32_t *)t->data)[i] = (int8_t)fuzz_take(s);
        }
        return 0;
    }
    if (t->dtype != OSC_STRING) {
        for (size_t i = 0; i < t->nbytes; i++) ((uint8_t *)t->data)[i] = fuzz_take(s);
        return 0;
    }
    in->strings = malloc((size_t)count * 16 + 1); /* each string 0..16 bytes */
    if (!in->strings) return -1;
    osc_string *str = t->data;
    char *p = in->strings;
    for (int64_t i = 0; i < count; i++) {
        str[i].ptr = p;
        str[i].len = fuzz_take(s) % 17;
        for (size_t k = 0; k < str[i].len; k++) *p++ = (char)('a' + fuzz_take(s) % 26);
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

static osc_status load(const void *buf, size_t len, int flags, bool diff, bool no_fusion,
                       osc_model **m) {
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = FUZZ_MAX_BYTES;
    o.max_iterations = FUZZ_MAX_ITERATIONS;
    o.max_arena_bytes = FUZZ_MAX_ARENA;
    o.max_nodes = 2 * MAX_NODES + 64;
    o.strict = (flags & F_STRICT) != 0;
    o.inplace_inputs = !diff && (flags & F_INPLACE) ? 2 : 0; /* diff: both runs read them */
    o.no_fusion = no_fusion;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, &o, m, msg, sizeof msg);
    fuzz_check_msg(st, msg, sizeof msg);
    if (g_verbose) {
        int fused = 0;
        for (size_t i = 0; st == OSC_OK && i < osc_model_node_count(*m); i++) {
            osc_node_desc d;
            fused += osc_model_node(*m, i, &d) == OSC_OK && d.n_fused > 0;
        }
        fprintf(stderr, "load%s: %s %s (%d fused nodes)\n", no_fusion ? " (no fusion)" : "",
                osc_status_name(st), msg, fused);
    }
    if (st != OSC_OK && *m) __builtin_trap();
    return st;
}

/* Loads and runs the model; diff (the fusion shape): also with fusion off, the same inputs
 * bound, and both must agree. */
static void load_and_run(const void *buf, size_t len, fuzz_stream *s, int flags, bool diff) {
    osc_model *m = NULL, *m2 = NULL;
    osc_status st = load(buf, len, flags, diff, false, &m);
    if (diff) {
        osc_status st2 = load(buf, len, flags, diff, true, &m2);
        if (st != st2 && !fuzz_resource_status(st) && !fuzz_resource_status(st2)) {
            fprintf(stderr, "fuzz_shapes: load %s fused, %s not\n", osc_status_name(st),
                    osc_status_name(st2));
            __builtin_trap();
        }
        if (st == OSC_OK && st2 != OSC_OK) st = st2;
    }
    if (st != OSC_OK) {
        osc_model_free(m);
        osc_model_free(m2);
        return;
    }
    osc_session *sess = NULL, *sess2 = NULL;
    size_t n_in = osc_model_input_count(m);
    syms y = {0};
    input *ins = calloc(n_in + 1, sizeof *ins);
    if (!ins || osc_session_create(m, &sess) != OSC_OK) goto done;
    if (diff && osc_session_create(m2, &sess2) != OSC_OK) goto done;
    for (size_t i = 0; i < n_in; i++) {
        osc_value_desc vd;
        if (osc_model_input(m, i, &vd) != OSC_OK) __builtin_trap();
        if (vd.has_default && !(fuzz_take(s) & 1)) continue;
        if (make_input(&vd, s, diff, &y, &ins[i]) != 0) goto done; /* too large for a run */
        osc_status b1 = osc_session_set_input_at(sess, i, &ins[i].t);
        if (diff && osc_session_set_input_at(sess2, i, &ins[i].t) != b1) __builtin_trap();
    }
    st = osc_session_run(sess);
    const char *err = osc_session_error(sess);
    fuzz_check_msg(st, err, strlen(err) + 1);
    if (g_verbose) fprintf(stderr, "run: %s %s\n", osc_status_name(st), err);
    if (st == OSC_OK) check_outputs(sess, osc_model_output_count(m));
    if (diff) {
        osc_status st2 = osc_session_run(sess2);
        err = osc_session_error(sess2);
        fuzz_check_msg(st2, err, strlen(err) + 1);
        if (g_verbose) fprintf(stderr, "run (no fusion): %s %s\n", osc_status_name(st2), err);
        if (!fuzz_same_outcome(st, st2)) {
            fprintf(stderr, "fuzz_shapes: run %s fused, %s not\n", osc_status_name(st),
                    osc_status_name(st2));
            __builtin_trap();
        }
        if (st == OSC_OK && st2 == OSC_OK)
            fuzz_same_outputs(sess, sess2, osc_model_output_count(m));
    }
done:
    osc_session_free(sess);
    osc_session_free(sess2);
    for (size_t i = 0; ins && i < n_in; i++) {
        free(ins[i].t.data);
        free(ins[i].strings);
    }
    free(ins);
    osc_model_free(m);
    osc_model_free(m2);
}

/* A subgraph writer (its opsets are the model's). */
static osc_mw *subgraph(const char *name) {
    osc_mw *g = osc_mw_new(8);
    if (g) osc_mw_names(g, NULL, name);
    return g;
}

/* Attaches sub as graph attribute `name` of node n, then frees it. */
static void attach(osc_mw *mw, int n, const char *name, osc_mw *sub) {
    if (sub) osc_mw_attr_graph(mw, n, name, sub);
    osc_mw_free(sub);
}

/* 6 control, a: y, scan = Loop(M, c0, x) with body (i, c, acc): t = If(Less(i, k)) then
 * Add(acc, x) (x from two graphs out) else Neg(acc) or Concat(acc, x) (a growing shape); the
 * condition out is Less(i, lim) or the input's, or a float (refused). */
static void control_loop(osc_mw *mw, fuzz_stream *s, const int64_t *dim, const char *const *dn) {
    uint8_t c = fuzz_take(s);
    int64_t m = (int8_t)fuzz_take(s), k = pick(s, 8), lim = pick(s, 16);
    if (c & 0x40) m *= 100; /* past the harness's iteration cap, sometimes */
    uint8_t c0 = fuzz_take(s) & 1;
    osc_tensor tm = {.dtype = OSC_INT64, .data = &m, .nbytes = 8};
    osc_tensor tk = {.dtype = OSC_INT64, .data = &k, .nbytes = 8};
    osc_tensor tl = {.dtype = OSC_INT64, .data = &lim, .nbytes = 8};
    osc_tensor tc = {.dtype = OSC_BOOL, .data = &c0, .nbytes = 1};
    osc_mw_initializer(mw, "M", &tm);
    osc_mw_initializer(mw, "c0", &tc);
    osc_mw *then_g = subgraph("then"), *else_g = subgraph("else"), *body = subgraph("body");
    osc_mw_node(then_g, "Add", NULL, 2, (const char *[]){"acc", "x"}, 1,
                (const char *[]){"t_out"});
    osc_mw_output(then_g, "t_out", OSC_FLOAT, -1, NULL, NULL);
    if (c & 1) {
        int n = osc_mw_node(else_g, "Concat", NULL, 2, (const char *[]){"acc", "x"}, 1,
                            (const char *[]){"e_out"});
        osc_mw_attr_int(else_g, n, "axis", 0);
    } else {
        osc_mw_node(else_g, "Neg", NULL, 1, (const char *[]){"acc"}, 1,
                    (const char *[]){"e_out"});
    }
    osc_mw_output(else_g, "e_out", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_inputs(body, 3, (const osc_mw_value[]){{"i", OSC_INT64, 0, NULL, NULL},
                                                  {"c", OSC_BOOL, 0, NULL, NULL},
                                                  {"acc", OSC_FLOAT, 1, (const int64_t[]){-1},
                                                   NULL}});
    osc_mw_initializer(body, "k", &tk);
    osc_mw_initializer(body, "lim", &tl);
    osc_mw_node(body, "Less", NULL, 2, (const char *[]){"i", "k"}, 1, (const char *[]){"p"});
    int n = osc_mw_node(body, "If", "pick", 1, (const char *[]){"p"}, 1,
                        (const char *[]){"t"});
    attach(body, n, "then_branch", then_g);
    attach(body, n, "else_branch", else_g);
    if (c & 2) osc_mw_node(body, "Less", NULL, 2, (const char *[]){"i", "lim"}, 1,
                           (const char *[]){"c_out"});
    else if (c & 4) osc_mw_node(body, "Identity", NULL, 1, (const char *[]){"t"}, 1,
                                (const char *[]){"c_out"}); /* a float condition */
    else osc_mw_node(body, "Identity", NULL, 1, (const char *[]){"c"}, 1,
                     (const char *[]){"c_out"});
    osc_mw_node(body, "Identity", NULL, 1, (const char *[]){"t"}, 1, (const char *[]){"sc"});
    osc_mw_output(body, "c_out", c & 4 ? OSC_FLOAT : OSC_BOOL, -1, NULL, NULL);
    osc_mw_output(body, "t", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(body, "sc", OSC_FLOAT, -1, NULL, NULL);
    n = osc_mw_node(mw, "Loop", "loop", 3, (const char *[]){c & 8 ? "" : "M", c & 16 ? "" : "c0",
                    "x"}, 2, (const char *[]){"y", "scan"});
    attach(mw, n, "body", body);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dim, dn);
    osc_mw_output(mw, "scan", 0, -1, NULL, NULL);
}

/* 6 control, b: Scan over x2 = Reshape(x, [-1, w]) with state s [w]: s' = s + xi, out s' * xi;
 * direction and axes from the bytes (an axis out of range is refused). */
static void control_scan(osc_mw *mw, fuzz_stream *s) {
    uint8_t c = fuzz_take(s);
    int64_t shape[2] = {-1, 1 + pick(s, 4)};
    osc_tensor ts = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = shape, .nbytes = 16};
    osc_mw_initializer(mw, "shape", &ts);
    osc_mw_node(mw, "Reshape", NULL, 2, (const char *[]){"x", "shape"}, 1,
                (const char *[]){"x2"});
    float zeros[4] = {0};
    osc_tensor tz = {.dtype = OSC_FLOAT, .rank = 1, .dims = {shape[1]}, .data = zeros,
                     .nbytes = (size_t)shape[1] * 4};
    osc_mw_initializer(mw, "s0", &tz);
    osc_mw *body = subgraph("step");
    osc_mw_inputs(body, 2, (const osc_mw_value[]){{"s", OSC_FLOAT, -1, NULL, NULL},
                                                  {"xi", OSC_FLOAT, -1, NULL, NULL}});
    osc_mw_node(body, "Add", NULL, 2, (const char *[]){"s", "xi"}, 1, (const char *[]){"s2"});
    osc_mw_node(body, "Mul", NULL, 2, (const char *[]){"s2", "xi"}, 1, (const char *[]){"o"});
    osc_mw_output(body, "s2", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(body, "o", OSC_FLOAT, -1, NULL, NULL);
    int n = osc_mw_node(mw, "Scan", "scan", 2, (const char *[]){"s0", "x2"}, 2,
                        (const char *[]){"sN", "outs"});
    osc_mw_attr_int(mw, n, "num_scan_inputs", 1);
    const int64_t dir = c & 1, in_axis = (int8_t)(c >> 1) % 3, out_axis = (int8_t)(c >> 3) % 3;
    osc_mw_attr_ints(mw, n, "scan_input_directions", &dir, 1);
    osc_mw_attr_ints(mw, n, "scan_output_directions", &dir, 1);
    if (c & 0x20) osc_mw_attr_ints(mw, n, "scan_input_axes", &in_axis, 1);
    if (c & 0x40) osc_mw_attr_ints(mw, n, "scan_output_axes", &out_axis, 1);
    attach(mw, n, "body", body);
    osc_mw_output(mw, "sN", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(mw, "outs", OSC_FLOAT, -1, NULL, NULL);
}

/* 6 control, c: SequenceMap over SplitToSequence(x) (chunks of a fuzzed size), body
 * y = Add(item, scale) with scale read from the graph around it, or a dtype that changes. */
static void control_seqmap(osc_mw *mw, fuzz_stream *s) {
    uint8_t c = fuzz_take(s);
    int64_t chunk = (int8_t)fuzz_take(s);
    float scale = 2;
    osc_tensor tc = {.dtype = OSC_INT64, .data = &chunk, .nbytes = 8};
    osc_tensor tsc = {.dtype = OSC_FLOAT, .data = &scale, .nbytes = 4};
    osc_mw_initializer(mw, "chunk", &tc);
    osc_mw_initializer(mw, "scale", &tsc);
    osc_mw_node(mw, "SplitToSequence", NULL, 2, (const char *[]){"x", c & 1 ? "" : "chunk"}, 1,
                (const char *[]){"seq"});
    osc_mw *body = subgraph("map");
    osc_mw_input(body, "item", OSC_FLOAT, -1, NULL, NULL);
    if (c & 2) /* int64 items: ConcatFromSequence then joins shapes */
        osc_mw_node(body, "Shape", NULL, 1, (const char *[]){"item"}, 1, (const char *[]){"y"});
    else
        osc_mw_node(body, "Add", NULL, 2, (const char *[]){"item", "scale"}, 1,
                    (const char *[]){"y"});
    osc_mw_output(body, "y", 0, -1, NULL, NULL);
    int n = osc_mw_node(mw, "SequenceMap", "map", 1, (const char *[]){"seq"}, 1,
                        (const char *[]){"mapped"});
    attach(mw, n, "body", body);
    int k = osc_mw_node(mw, "ConcatFromSequence", NULL, 1, (const char *[]){"mapped"}, 1,
                        (const char *[]){"y"});
    osc_mw_attr_int(mw, k, "axis", 0);
    osc_mw_attr_int(mw, k, "new_axis", (c >> 2) & 1);
    osc_mw_output(mw, "y", 0, -1, NULL, NULL);
}

static void shape_control(osc_mw *mw, fuzz_stream *s, int flags) {
    int64_t dim = flags & F_SYMBOLIC ? -1 : 1 + (int64_t)pick(s, 6);
    const char *dn[1] = {"N"};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &dim, dn);
    switch (fuzz_take(s) % 3) {
    case 0: control_loop(mw, s, &dim, dn); break;
    case 1: control_scan(mw, s); break;
    default: control_seqmap(mw, s); break;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    g_verbose = getenv("OSC_FUZZ_VERBOSE") != NULL;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    fuzz_stream s = {data + 1, size - 1};
    int flags = data[0];
    osc_mw *mw = osc_mw_new(10);
    if (!mw) return 0;
    const int shape = (data[0] & 0xc0) == 0xc0 ? 6 : data[0] % 6;
    if (shape == 6) osc_mw_opset(mw, "", 17);
    else if (shape == 2) osc_mw_opset(mw, "", 16 + fuzz_take(&s) % 3);
    else if (shape == 5) osc_mw_opset(mw, "", 18 - (fuzz_take(&s) & 2)); /* 16: add and mul only */
    else if (shape != 4) osc_mw_opset(mw, "", 18);
    switch (shape) {
    case 0: shape_live(mw, &s, flags); break;
    case 1: shape_stages(mw, &s, flags); break;
    case 2: shape_strings(mw, &s, flags); break;
    case 3: shape_fields(mw, &s); break;
    case 4: shape_mix(mw, &s, flags); break;
    case 6: shape_control(mw, &s, flags); break;
    default: shape_fusion(mw, &s, flags); break;
    }
    void *buf = NULL;
    size_t len = 0;
    osc_status st = osc_mw_serialize(mw, &buf, &len);
    if (st != OSC_OK && st != OSC_ERR_NOMEM) {
        fprintf(stderr, "fuzz_shapes: writer: %s\n", osc_mw_error(mw));
        __builtin_trap(); /* the recipe wrote something the writer refuses: a harness bug */
    }
    osc_mw_free(mw);
    const char *save = getenv("OSC_FUZZ_SAVE_MODEL"); /* the model, to read a reproducer */
    FILE *f = st == OSC_OK && save ? fopen(save, "wb") : NULL;
    if (f) {
        fwrite(buf, 1, len, f);
        fclose(f);
    }
    if (st == OSC_OK) load_and_run(buf, len, &s, flags, shape == 5);
    free(buf);
    return 0;
}
