/* rows_matmul.h: registry rows of the matrix products (included inside ops/registry.c's table):
 * MatMul and Gemm, every version from 1. .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_matmul) /* MatMul (ops/matmul.c): numpy.matmul, batch broadcasting, 1-D operands. */
OSC_KERNEL_DECLARE(osc_gemm) /* Gemm (ops/gemm.c): alpha * A' * B' + beta * C. */
#else
#define OSC_TS_MM_V1 (OSC_TS(OSC_FLOAT16) | OSC_TS(OSC_FLOAT) | OSC_TS(OSC_DOUBLE))
#define OSC_TS_MM_V9                                                                           \
    (OSC_TS_MM_V1 | OSC_TS(OSC_UINT32) | OSC_TS(OSC_UINT64) | OSC_TS(OSC_INT32) |              \
     OSC_TS(OSC_INT64))
#define OSC_TS_MM_V13 (OSC_TS_MM_V9 | OSC_TS(OSC_BFLOAT16))
#if OSC_OP_MatMul
    {.op = "MatMul", .since = 1, .until = 8, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_MM_V1}, .init = osc_matmul_init, .infer = osc_matmul_infer,
     .run = osc_matmul_run},
    {.op = "MatMul", .since = 9, .until = 12, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_MM_V9}, .init = osc_matmul_init, .infer = osc_matmul_infer,
     .run = osc_matmul_run},
    {.op = "MatMul", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_MM_V13}, .init = osc_matmul_init, .infer = osc_matmul_infer,
     .run = osc_matmul_run},
#endif
#if OSC_OP_Gemm
    {.op = "Gemm", .since = 1, .until = 5, .inputs = {3, 3}, .outputs = 1,
     .types = {OSC_TS_MM_V1}, .init = osc_gemm_init, .infer = osc_gemm_infer,
     .run = osc_gemm_run},
    {.op = "Gemm", .since = 6, .until = 6, .inputs = {3, 3}, .outputs = 1,
     .types = {OSC_TS_MM_V1}, .init = osc_gemm_init, .infer = osc_gemm_infer,
     .run = osc_gemm_run},
    {.op = "Gemm", .since = 7, .until = 8, .inputs = {3, 3}, .outputs = 1,
     .types = {OSC_TS_MM_V1}, .init = osc_gemm_init, .infer = osc_gemm_infer,
     .run = osc_gemm_run},
    {.op = "Gemm", .since = 9, .until = 10, .inputs = {3, 3}, .outputs = 1,
     .types = {OSC_TS_MM_V9}, .init = osc_gemm_init, .infer = osc_gemm_infer,
     .run = osc_gemm_run},
    {.op = "Gemm", .since = 11, .until = 12, .inputs = {2, 3}, .outputs = 1,
     .types = {OSC_TS_MM_V9}, .init = osc_gemm_init, .infer = osc_gemm_infer,
     .run = osc_gemm_run},
    {.op = "Gemm", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 3}, .outputs = 1,
     .types = {OSC_TS_MM_V13}, .init = osc_gemm_init, .infer = osc_gemm_infer,
     .run = osc_gemm_run},
#endif
#undef OSC_TS_MM_V1
#undef OSC_TS_MM_V9
#undef OSC_TS_MM_V13
#endif
