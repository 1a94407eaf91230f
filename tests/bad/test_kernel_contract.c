/* test_kernel_contract.c: every kernel row of the registry, called directly as the executor
 * never would: infer and run with no outputs, with no inputs, and run with an output whose shape
 * or buffer does not match what infer computes. Each call must fail with a status and a message
 * naming the node; none may write through a NULL or too small output. These are the kernels'
 * second line of defence behind dispatch and inference. The fused kernels (domain "osc") take
 * the parameters the rewrite made for a node of theirs in a model loaded first (models of
 * tests/models, one of them with dynamic axes, a RowGather graph written here, a torch
 * nn.EmbeddingBag export and a decoder's key write of tests/bad). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/dtype.h"
#include "core/kernel.h"
#include "ops/registry.h"
#include "runtime/model.h"
#include "tests/support/writer.h"

#define MAX_IO 16 /* inputs and outputs a fixture node can have (a fused node: 16) */

typedef struct fixture {
    const void *preset; /* a fused row's parameters, from a loaded model (else NULL) */
    osc_graph g;
    osc_value values[MAX_IO];
    osc_node node;
    int32_t inputs[MAX_IO];
    osc_err err;
    osc_allocator alloc;
    osc_pool pool;
} fixture;

/* A node of the row's op with n_in inputs named a..f (all float [2]) and one output. */
static void setup_node(fixture *f, const osc_kernel *row, int32_t n_in) {
    osc_allocator alloc = f->alloc; /* the pool (and its allocator) outlive the node */
    osc_pool pool = f->pool;
    const void *preset = f->preset;
    memset(f, 0, sizeof *f);
    f->alloc = alloc;
    f->pool = pool;
    f->preset = preset;
    static const char *const names[MAX_IO] = {"a", "b", "c", "d", "e", "f", "g", "h",
                                              "i", "j", "k", "l", "m", "n", "o", "p"};
    for (int i = 0; i < MAX_IO; i++) {
        f->values[i].name = names[i];
        f->values[i].producer = -1;
        f->inputs[i] = i;
    }
    f->g.values = f->values;
    f->g.n_values = MAX_IO;
    f->node.name = "n";
    f->node.op_type = row->op;
    f->node.domain = "";
    f->node.n_inputs = n_in;
    f->node.inputs = f->inputs;
    f->node.kernel = row;
    f->node.opset = row->since;
}

/* The kernel context after the row's init on the bare node (no attributes); false when init
 * refuses such a node (an op with a required attribute). */
static bool kctx(fixture *f, const osc_kernel *row, osc_kctx *k) {
    *k = (osc_kctx){.err = &f->err, .graph = &f->g, .node = &f->node,
                    .row = row, .since_version = row->since, .pool = &f->pool};
    void *params = (void *)f->preset;
    if (row->init(k, &f->node, &params) != OSC_OK) return false;
    f->node.params = k->params = params;
    return true;
}

/* Fails unless a call failed with a message naming node 'n'. */
static void refused(osc_status st, const fixture *f, const char *what, const osc_kernel *row) {
    if (st == OSC_OK || !strstr(f->err.msg, "'n'"))
        fail_msg("%s-%lld %s: status %d, message '%s'", row->op,
                 (long long)row->since, what, (int)st, f->err.msg);
}

/* The outputs the fixture gives a row's node: all of them, or the fewest of a variadic op. */
static int32_t n_outs(const osc_kernel *row) {
    return row->outputs == OSC_VARIADIC ? row->outputs_min : row->outputs;
}

/* ---- The fused rows' parameters, from nodes the rewrite made in loaded models ---- */
#define MAX_MODELS 8
static osc_model *g_models[MAX_MODELS];

/* The parameters and input count of a node of `row` in the loaded models (NULL: none). */
static const void *fused_preset(const osc_kernel *row, int32_t *n_in) {
    for (int m = 0; m < MAX_MODELS && g_models[m]; m++)
        for (int32_t i = 0; i < g_models[m]->g.n_nodes; i++)
            if (g_models[m]->g.nodes[i].kernel == row) {
                *n_in = g_models[m]->g.nodes[i].n_inputs;
                return g_models[m]->g.nodes[i].params;
            }
    return NULL;
}

static void load(int at, const char *path, const void *buf, size_t len, bool recompute) {
    osc_options o;
    osc_options_init(&o);
    o.fuse_recompute = recompute;
    char msg[512];
    osc_status st = buf ? osc_model_load_buffer(buf, len, NULL, &o, &g_models[at], msg, sizeof msg)
                        : osc_model_load_file(path, &o, &g_models[at], msg, sizeof msg);
    if (st) fail_msg("%s: %s", path ? path : "RowGather graph", msg);
}

/* GatherElements(data, Expand(Unsqueeze(u), shape)) along axis 0: RowGather. */
static void *row_gather_model(size_t *len) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t dd[2] = {5, 3}, ud[1] = {4}, od[2] = {4, 3}, one = 1, shape[2] = {4, 3};
    osc_mw_input(mw, "data", OSC_FLOAT, 2, dd, NULL);
    osc_mw_input(mw, "u", OSC_INT64, 1, ud, NULL);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, od, NULL);
    const osc_tensor axes = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)&one,
                             .nbytes = 8};
    const osc_tensor sh = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = (void *)shape,
                           .nbytes = 16};
    osc_mw_initializer(mw, "axes", &axes);
    osc_mw_initializer(mw, "shape", &sh);
    osc_mw_node(mw, "Unsqueeze", "unsq", 2, (const char *[]){"u", "axes"}, 1,
                (const char *[]){"uc"});
    osc_mw_node(mw, "Expand", "expand", 2, (const char *[]){"uc", "shape"}, 1,
                (const char *[]){"idx"});
    osc_mw_node(mw, "GatherElements", "rows", 2, (const char *[]){"data", "idx"}, 1,
                (const char *[]){"y"});
    void *buf = NULL;
    assert_int_equal(osc_mw_serialize(mw, &buf, len), OSC_OK);
    osc_mw_free(mw);
    return buf;
}

static int load_models(void **state) {
    (void)state;
    size_t len;
    void *buf = row_gather_model(&len);
    load(0, OSC_SOURCE_DIR "/tests/models/gat_opset18/model.onnx", NULL, 0, false);
    load(1, OSC_SOURCE_DIR "/tests/models/gat_opset18/model.onnx", NULL, 0, true);
    load(2, OSC_SOURCE_DIR "/tests/models/edgeconv_opset18/model.onnx", NULL, 0, false);
    load(3, NULL, buf, len, false);
    /* dynamic axes, unpinned: ShapeOf */
    load(4, OSC_SOURCE_DIR "/tests/models/gnn_gcn_small_dynamic_opset17/model.onnx", NULL, 0,
         false);
    /* a Loop over bags: SegmentReduce */
    load(5, OSC_SOURCE_DIR "/tests/torch/control/embedding_bag_sum_opset16/model.onnx", NULL, 0,
         false);
    /* SAGE's max aggregation: Where(IsInf) as ReplaceInf */
    load(6, OSC_SOURCE_DIR "/tests/models/gnn_sage_small_max_opset18/model.onnx", NULL, 0, false);
    /* a decoder's rotated key written into its cache: CacheWrite */
    load(7, OSC_SOURCE_DIR "/tests/bad/cases/cache_write_valid/model.onnx", NULL, 0, false);
    free(buf);
    return 0;
}

static int free_models(void **state) {
    (void)state;
    for (int m = 0; m < MAX_MODELS; m++) osc_model_free(g_models[m]);
    return 0;
}

static void every_row(void **state) {
    (void)state;
    int rows = 0, needs_attrs = 0, fused = 0;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        {
            const osc_kernel *row = osc_kernel_at(r);
            rows++;
            if (n_outs(row) > MAX_IO || row->inputs.min > MAX_IO)
                fail_msg("%s-%lld: more inputs or outputs than the fixture holds (MAX_IO)",
                         row->op, (long long)row->since);
            fixture f;
            float a[2] = {1, 2}, b[2] = {0, 0};
            osc_tensor x = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = a, .nbytes = 8};
            osc_tensor y = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = b, .nbytes = 8};
            /* indices for the scatter family: int64 [2] (elements) or [2, 1] (ND) */
            int64_t iv[2] = {0, 1};
            osc_tensor idx = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = iv,
                              .nbytes = 16};
            if (strstr(row->op, "ND")) idx.rank = 2, idx.dims[1] = 1;
            const osc_tensor *ins[MAX_IO];
            for (int i = 0; i < MAX_IO; i++) ins[i] = &x;
            if (strstr(row->op, "Scatter") || strstr(row->op, "Gather"))
                ins[1] = &idx;
            /* no outputs */
            osc_allocator_init(&f.alloc, NULL);
            osc_pool_init(&f.pool, &f.alloc, 0);
            f.preset = NULL;
            int32_t n_in = row->inputs.min;
            if (row->flags & OSC_KF_INTERNAL) { /* a fused row: a rewrite's parameters */
                setup_node(&f, row, n_in);
                osc_kctx bare;
                if (kctx(&f, row, &bare))
                    fail_msg("%s: init accepts a node the rewrite did not make", row->op);
                if (!(f.preset = fused_preset(row, &n_in)))
                    fail_msg("%s: no loaded model has a node of it", row->op);
                fused++;
            }
            setup_node(&f, row, n_in);
            osc_kctx k;
            if (!kctx(&f, row, &k)) {
                /* the ops whose spec makes an attribute required */
                static const char *const required[] = {
                    "BitCast",   "BitShift",     "Cast",      "Concat", "ConcatFromSequence",
                    "Constant",  "DepthToSpace", "Einsum",    "GroupNormalization", "If",
                    "Loop",      "MaxUnpool",    "Pad",       "Scan",   "SequenceMap", "Slice",
                    "SpaceToDepth", "TopK",      "Unsqueeze", "Upsample",
                    "MaxPool", "AveragePool", "LpPool", "LRN"};
                bool known = false;
                for (size_t q = 0; q < sizeof required / sizeof required[0]; q++)
                    known = known || !strcmp(row->op, required[q]);
                if (!known) fail_msg("%s-%lld: init refuses a node without attributes: %s",
                                     row->op, (long long)row->since, f.err.msg);
                needs_attrs++;
                osc_pool_free(&f.pool);
                continue;
            }
            refused(row->infer(&k, ins, n_in, NULL, 0), &f, "infer without outputs",
                    row);
            osc_err_clear(&f.err);
            refused(row->run(&k, ins, n_in, NULL, 0), &f, "run without outputs", row);
            /* no inputs, where the op needs some (Constant needs none) */
            if (n_in > 0) {
                osc_tensor outs[MAX_IO];
                for (int i = 0; i < MAX_IO; i++) outs[i] = y;
                setup_node(&f, row, 0);
                assert_true(kctx(&f, row, &k));
                refused(row->infer(&k, ins, 0, outs, n_outs(row)), &f, "infer without inputs",
                        row);
                osc_err_clear(&f.err);
                refused(row->run(&k, ins, 0, outs, n_outs(row)), &f, "run without inputs", row);
            }
            /* an output that cannot hold what infer computes: a one-byte buffer of rank 3 */
            setup_node(&f, row, n_in);
            assert_true(kctx(&f, row, &k));
            osc_tensor out[MAX_IO];
            memset(out, 0, sizeof out);
            if (row->infer(&k, ins, n_in, out, n_outs(row)) != OSC_OK) {
                osc_pool_free(&f.pool);
                continue;
            }
            uint8_t tiny[1] = {0xA5};
            for (int32_t j = 0; j < n_outs(row); j++) {
                out[j].rank = 3;
                out[j].dims[0] = out[j].dims[1] = out[j].dims[2] = 5;
                out[j].data = tiny;
                out[j].nbytes = 1;
            }
            osc_err_clear(&f.err);
            refused(row->run(&k, ins, n_in, out, n_outs(row)), &f,
                    "run with a mismatched output", row);
            assert_int_equal(tiny[0], 0xA5);
            osc_pool_free(&f.pool);
        }
    }
    assert_int_equal(rows, (int)osc_kernel_count());
    assert_true(needs_attrs < (int)osc_kernel_count() / 4);
    /* GatherScatter, RowScatter, the two tiled, RowGather, GatherPieces, ShapeOf,
     * SegmentReduce, ReplaceInf, SegmentSoftmax, RowDot, CacheWrite, MatMulAdd: in a build of
     * every op */
    assert_int_equal(fused, (osc_kernel_find("osc", "GatherScatter", 1) ? 6 : 0) +
                                (osc_kernel_find("osc", "ShapeOf", 1) ? 1 : 0) +
                                (osc_kernel_find("osc", "SegmentReduce", 1) ? 1 : 0) +
                                (osc_kernel_find("osc", "ReplaceInf", 1) ? 1 : 0) +
                                (osc_kernel_find("osc", "SegmentSoftmax", 1) ? 1 : 0) +
                                (osc_kernel_find("osc", "RowDot", 1) ? 1 : 0) +
                                (osc_kernel_find("osc", "CacheWrite", 1) ? 1 : 0) +
                                (osc_kernel_find("osc", "MatMulAdd", 1) ? 1 : 0));
}

/* Every row's infer, then run, on empty inputs whose other dims multiply past 2^63
 * ([0, 2^62, 2^62], the row's lowest allowed dtype, no data): a kernel may compute no product
 * of dims before it knows the tensor is not empty. Any status is fine; what the sanitizer
 * builds check is that nothing overflows, and the plain build that nothing crashes. */
static void empty_inputs_with_huge_dims(void **state) {
    (void)state;
    const int64_t big = (int64_t)1 << 62;
    int ran = 0;
    for (size_t r = 0; r < 2 * osc_kernel_count(); r++) {
        const osc_kernel *row = osc_kernel_at(r / 2);
        /* the required inputs only, then the optional ones too (up to MAX_IO) */
        int32_t n = r % 2 ? (row->inputs.max < MAX_IO ? row->inputs.max : MAX_IO)
                          : row->inputs.min;
        if (n > MAX_IO) continue;
        osc_tensor t[MAX_IO];
        const osc_tensor *ins[MAX_IO];
        for (int32_t i = 0; i < n; i++) {
            osc_typeset ts = osc_kernel_types(row, i);
            int32_t dt = 1;
            while (dt < OSC_DTYPE_COUNT && !(ts >> dt & 1u)) dt++;
            t[i] = (osc_tensor){.dtype = dt, .rank = 3, .dims = {0, big, big}};
            ins[i] = &t[i];
        }
        fixture f;
        int32_t n_model;
        osc_allocator_init(&f.alloc, NULL);
        osc_pool_init(&f.pool, &f.alloc, 0);
        f.preset = row->flags & OSC_KF_INTERNAL ? fused_preset(row, &n_model) : NULL;
        setup_node(&f, row, n);
        osc_kctx k;
        osc_tensor out[MAX_IO];
        memset(out, 0, sizeof out);
        if (kctx(&f, row, &k) && row->infer(&k, ins, n, out, n_outs(row)) == OSC_OK) {
            static uint64_t buf[MAX_IO][64]; /* outputs of up to 512 bytes are run */
            bool fits = true;
            for (int32_t j = 0; j < n_outs(row); j++) {
                int64_t c = osc_tensor_count(&out[j]);
                fits = fits && c >= 0 && osc_dtype_bytes(out[j].dtype, c, &out[j].nbytes) &&
                       out[j].nbytes <= sizeof buf[j];
                out[j].data = buf[j];
            }
            osc_err_clear(&f.err);
            osc_status st = fits ? row->run(&k, ins, n, out, n_outs(row)) : OSC_OK;
            if (st && !strstr(f.err.msg, "'n'"))
                fail_msg("%s-%lld: status %d without the node named: '%s'", row->op,
                         (long long)row->since, (int)st, f.err.msg);
            ran += fits;
        }
        osc_pool_free(&f.pool);
    }
    assert_true(ran > 0); /* some rows accept empty inputs and run */
}

/* CacheWrite's own checks, which a fused node of the rule never fails (static shapes), on the
 * parameters of tests/bad's cache_write_valid key write (rotated, (batch, seq, heads, head)
 * rows, one row; cache [1, 2, 3, 4] float16, X [1, 1, 8], tables [4, 2], ids [1, 1], write
 * index [1]): each input made wrong in turn fails infer naming the node and the input. */
static void cache_write_checks(void **state) {
    (void)state;
    const osc_kernel *row = osc_kernel_find("osc", "CacheWrite", 1);
    if (!row) skip(); /* (a build without the attention family) */
    fixture f;
    memset(&f, 0, sizeof f);
    osc_allocator_init(&f.alloc, NULL);
    osc_pool_init(&f.pool, &f.alloc, 0);
    int32_t n_in = 0;
    assert_non_null(f.preset = fused_preset(row, &n_in));
    assert_int_equal(n_in, 6);
    setup_node(&f, row, 6);
    osc_kctx k;
    assert_true(kctx(&f, row, &k));
    const osc_tensor cache = {.dtype = OSC_FLOAT16, .rank = 4, .dims = {1, 2, 3, 4}},
                     x = {.dtype = OSC_FLOAT, .rank = 3, .dims = {1, 1, 8}},
                     tab = {.dtype = OSC_FLOAT, .rank = 2, .dims = {4, 2}},
                     ids = {.dtype = OSC_INT64, .rank = 2, .dims = {1, 1}},
                     wi = {.dtype = OSC_INT64, .rank = 1, .dims = {1}};
    const osc_tensor bad[] = {
        {.dtype = OSC_FLOAT16, .rank = 3, .dims = {2, 3, 4}},    /* cache not 4-D */
        {.dtype = OSC_FLOAT, .rank = 3, .dims = {1, 1, 6}},      /* X of 6 elements */
        {.dtype = OSC_FLOAT, .rank = 4, .dims = {1, 2, 1, 4}},   /* X 4-D, rows (b, s, hidden) */
        {.dtype = OSC_FLOAT, .rank = 2, .dims = {4, 3}},         /* tables of 3 columns */
        {.dtype = OSC_INT64, .rank = 2, .dims = {2, 1}},         /* ids of 2 batches */
        {.dtype = OSC_INT64, .rank = 1, .dims = {2}},            /* 2 write indices */
        {.dtype = OSC_FLOAT, .rank = 1, .dims = {1}},            /* a float write index */
    };
    static const int at[] = {0, 1, 1, 2, 4, 5, 5};
    static const char *const names[] = {"'past_cache'", "'X'", "'X'", "'cos_cache'",
                                        "'position_ids'", "'write_indices'", "'write_indices'"};
    osc_tensor out[1];
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        const osc_tensor *ins[6] = {&cache, &x, &tab, &tab, &ids, &wi};
        ins[at[c]] = &bad[c];
        osc_err_clear(&f.err);
        memset(out, 0, sizeof out);
        refused(row->infer(&k, ins, 6, out, 1), &f, "infer with a wrong input", row);
        if (!strstr(f.err.msg, names[c]))
            fail_msg("case %zu: '%s' does not name input %s", c, f.err.msg, names[c]);
    }
    const osc_tensor *ins[6] = {&cache, &x, &tab, &tab, &ids, &wi};
    osc_err_clear(&f.err);
    assert_int_equal(row->infer(&k, ins, 6, out, 1), OSC_OK);
    osc_pool_free(&f.pool);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_row),
                                       cmocka_unit_test(empty_inputs_with_huge_dims),
                                       cmocka_unit_test(cache_write_checks)};
    return cmocka_run_group_tests(tests, load_models, free_models);
}
