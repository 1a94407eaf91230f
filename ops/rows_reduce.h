/* rows_reduce.h: registry rows of the reductions (included inside ops/registry.c's table):
 * ReduceSum, ReduceSumSquare, ReduceMean, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
 * ReduceLogSumExp, ReduceMax, ReduceMin (one kernel, ops/reduce_ops.c) and ArgMax, ArgMin (one
 * kernel, ops/argminmax.c). Every version from the op's first one up to OSC_OPSET_NEWEST; axes is
 * an attribute until ReduceSum-13 and the others' 18, then an optional int64 input (infer reads
 * it). .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_reduce) /* the Reduce* ops (ops/reduce_ops.c) */
OSC_KERNEL_DECLARE(osc_argm) /* ArgMax, ArgMin (ops/argminmax.c) */
/* ReduceMax's and ReduceMin's lists: the arithmetic one, int8/uint8 from 12, bool from 20 */
#define OSC_TS_RMINMAX_V12 (OSC_TS_ARITH_V7 | OSC_TS(OSC_INT8) | OSC_TS(OSC_UINT8))
#define OSC_TS_RMINMAX_V13 (OSC_TS_ARITH_V13 | OSC_TS(OSC_INT8) | OSC_TS(OSC_UINT8))
#define OSC_TS_RMINMAX_V20 (OSC_TS_RMINMAX_V13 | OSC_TS(OSC_BOOL))
#else
#if OSC_OP_ReduceSum
    {.op = "ReduceSum", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceSum", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceSum", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceSumSquare
    {.op = "ReduceSumSquare", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceSumSquare", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceSumSquare", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceSumSquare", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2},
     .outputs = 1, .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceMean
    {.op = "ReduceMean", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMean", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMean", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMean", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceProd
    {.op = "ReduceProd", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceProd", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceProd", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceProd", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceL1
    {.op = "ReduceL1", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceL1", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceL1", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceL1", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceL2
    {.op = "ReduceL2", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceL2", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceL2", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceL2", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceLogSum
    {.op = "ReduceLogSum", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceLogSum", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceLogSum", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceLogSum", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceLogSumExp
    {.op = "ReduceLogSumExp", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceLogSumExp", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceLogSumExp", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceLogSumExp", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2},
     .outputs = 1, .infer_reads = 0x2, .types = {OSC_TS_ARITH_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceMax
    {.op = "ReduceMax", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMax", .since = 11, .until = 11, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMax", .since = 12, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_RMINMAX_V12}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMax", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_RMINMAX_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMax", .since = 18, .until = 19, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_RMINMAX_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMax", .since = 20, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_RMINMAX_V20, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ReduceMin
    {.op = "ReduceMin", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMin", .since = 11, .until = 11, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ARITH_V7}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMin", .since = 12, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_RMINMAX_V12}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMin", .since = 13, .until = 17, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_RMINMAX_V13}, .init = osc_reduce_init,
     .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMin", .since = 18, .until = 19, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_RMINMAX_V13, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
    {.op = "ReduceMin", .since = 20, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_RMINMAX_V20, OSC_TS(OSC_INT64)},
     .init = osc_reduce_init, .infer = osc_reduce_infer, .run = osc_reduce_run},
#endif
#if OSC_OP_ArgMax
    {.op = "ArgMax", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_argm_init,
     .infer = osc_argm_infer, .run = osc_argm_run},
    {.op = "ArgMax", .since = 11, .until = 11, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_argm_init,
     .infer = osc_argm_infer, .run = osc_argm_run},
    {.op = "ArgMax", .since = 12, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_argm_init,
     .infer = osc_argm_infer, .run = osc_argm_run},
    {.op = "ArgMax", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_REAL}, .init = osc_argm_init, .infer = osc_argm_infer, .run = osc_argm_run},
#endif
#if OSC_OP_ArgMin
    {.op = "ArgMin", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_argm_init,
     .infer = osc_argm_infer, .run = osc_argm_run},
    {.op = "ArgMin", .since = 11, .until = 11, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_argm_init,
     .infer = osc_argm_infer, .run = osc_argm_run},
    {.op = "ArgMin", .since = 12, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_argm_init,
     .infer = osc_argm_infer, .run = osc_argm_run},
    {.op = "ArgMin", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_REAL}, .init = osc_argm_init, .infer = osc_argm_infer, .run = osc_argm_run},
#endif
#endif
