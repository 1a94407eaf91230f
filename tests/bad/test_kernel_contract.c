/* test_kernel_contract.c: every kernel row of the dispatch table, called directly as the executor
 * never would: infer and run with no outputs, with no inputs, and run with an output whose shape
 * or buffer does not match what infer computes. Each call must fail with a status and a message
 * naming the node; none may write through a NULL or too small output. These are the kernels'
 * second line of defence behind dispatch and inference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ops/kernel.h"

static const char *const k_ops[] = {
    "Scatter", "ScatterElements", "ScatterND", "TensorScatter", "GatherElements", "GatherND",
    "Constant", "ConstantOfShape", "Shape", "Size", "Reshape", "Flatten", "Squeeze",
    "Unsqueeze", "Expand", "Tile", "Concat", "Gather", "Slice", "Transpose", "Range", "NonZero",
    "CumSum", "ReduceSum", "ArgMax", "TopK", "OneHot", "Add", "Sub", "Mul", "Div", "Mod",
    "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Neg", "Abs",
    "Not", "Min", "Max", "Where", "Cast", "Identity"};

typedef struct fixture {
    osc_graph g;
    osc_value values[4];
    osc_node node;
    int32_t inputs[4];
    osc_err err;
} fixture;

/* A node of the row's op with n_in inputs named a..d (all float [2]) and one output. */
static void setup_node(fixture *f, const osc_kernel *row, int32_t n_in) {
    memset(f, 0, sizeof *f);
    static const char *const names[4] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++) {
        f->values[i].name = names[i];
        f->values[i].producer = -1;
        f->inputs[i] = i;
    }
    f->g.values = f->values;
    f->g.n_values = 4;
    f->node.name = "n";
    f->node.op_type = row->op_type;
    f->node.domain = "";
    f->node.n_inputs = n_in;
    f->node.inputs = f->inputs;
    f->node.kernel = row;
    f->node.opset = row->since_version;
}

static osc_kctx kctx(fixture *f, const osc_kernel *row) {
    osc_kctx k = {.err = &f->err, .graph = &f->g, .node = &f->node,
                  .since_version = row->since_version};
    return k;
}

/* Fails unless a call failed with a message naming node 'n'. */
static void refused(osc_status st, const fixture *f, const char *what, const osc_kernel *row) {
    if (st == OSC_OK || !strstr(f->err.msg, "'n'"))
        fail_msg("%s-%lld %s: status %d, message '%s'", row->op_type,
                 (long long)row->since_version, what, (int)st, f->err.msg);
}

static void every_row(void **state) {
    (void)state;
    int rows = 0;
    for (size_t o = 0; o < sizeof k_ops / sizeof k_ops[0]; o++) {
        const osc_kernel *prev = NULL;
        for (int64_t v = 1; v <= 30; v++) {
            const osc_kernel *row = osc_kernel_find("", k_ops[o], v);
            if (!row || row == prev) continue;
            prev = row;
            rows++;
            fixture f;
            float a[2] = {1, 2}, b[2] = {0, 0};
            osc_tensor x = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = a, .nbytes = 8};
            osc_tensor y = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = b, .nbytes = 8};
            /* indices for the scatter family: int64 [2] (elements) or [2, 1] (ND) */
            int64_t iv[2] = {0, 1};
            osc_tensor idx = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = iv,
                              .nbytes = 16};
            if (strstr(row->op_type, "ND")) idx.rank = 2, idx.dims[1] = 1;
            const osc_tensor *ins[4] = {&x, &x, &x, &x};
            if (strstr(row->op_type, "Scatter") || strstr(row->op_type, "Gather"))
                ins[1] = &idx;
            /* no outputs */
            setup_node(&f, row, row->min_inputs);
            osc_kctx k = kctx(&f, row);
            refused(row->infer(&k, ins, row->min_inputs, NULL, 0), &f, "infer without outputs",
                    row);
            osc_err_clear(&f.err);
            refused(row->run(&k, ins, row->min_inputs, NULL, 0), &f, "run without outputs", row);
            /* no inputs, where the op needs some (Constant needs none) */
            if (row->min_inputs > 0) {
                osc_tensor outs[2] = {y, y};
                setup_node(&f, row, 0);
                k = kctx(&f, row);
                refused(row->infer(&k, ins, 0, outs, row->n_outputs), &f, "infer without inputs",
                        row);
                osc_err_clear(&f.err);
                refused(row->run(&k, ins, 0, outs, row->n_outputs), &f, "run without inputs", row);
            }
            /* an output that cannot hold what infer computes: a one-byte buffer of rank 3 */
            setup_node(&f, row, row->min_inputs);
            k = kctx(&f, row);
            osc_tensor out[2];
            memset(out, 0, sizeof out);
            if (row->infer(&k, ins, row->min_inputs, out, row->n_outputs) != OSC_OK) continue;
            uint8_t tiny[1] = {0xA5};
            for (int32_t j = 0; j < row->n_outputs; j++) {
                out[j].rank = 3;
                out[j].dims[0] = out[j].dims[1] = out[j].dims[2] = 5;
                out[j].data = tiny;
                out[j].nbytes = 1;
            }
            osc_err_clear(&f.err);
            refused(row->run(&k, ins, row->min_inputs, out, row->n_outputs), &f,
                    "run with a mismatched output", row);
            assert_int_equal(tiny[0], 0xA5);
        }
    }
    assert_true(rows > 100); /* every version row of the table was found */
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_row)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
