/* rows_layout.h: registry rows of Split, Pad and Einsum (included inside ops/registry.c's table).
 * Every version from the op's first one up to OSC_OPSET_NEWEST; rows of one op share
 * init/infer/run, which read k->since_version where versions differ (Split's split attribute
 * before 13 and num_outputs from 18; Pad's attributes before 11, its axes input from 18 and wrap
 * mode from 19). .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_split) /* Split (ops/split.c): variadic outputs */
OSC_KERNEL_DECLARE(osc_pad) /* Pad (ops/pad.c): constant, reflect, edge, wrap; negative pads crop */
OSC_KERNEL_DECLARE(osc_einsum) /* Einsum (ops/einsum.c, einsum_parse.c): one or two operands */
#else
#define OSC_TS_LAYOUT_F (OSC_TS(OSC_FLOAT16) | OSC_TS(OSC_FLOAT) | OSC_TS(OSC_DOUBLE))
#define OSC_TS_LAYOUT_NUM (OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))
#if OSC_OP_Split
    {.op = "Split", .since = 1, .until = 1, .inputs = {1, 2}, .outputs = OSC_VARIADIC,
     .outputs_min = 1, .infer_reads = 0x2, .types = {OSC_TS_LAYOUT_F},
     .init = osc_split_init, .infer = osc_split_infer, .run = osc_split_run},
    {.op = "Split", .since = 2, .until = 10, .inputs = {1, 1}, .outputs = OSC_VARIADIC,
     .outputs_min = 1, .types = {OSC_TS_ALL_V1}, .init = osc_split_init,
     .infer = osc_split_infer, .run = osc_split_run},
    {.op = "Split", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = OSC_VARIADIC,
     .outputs_min = 1, .types = {OSC_TS_ALL_V1}, .init = osc_split_init,
     .infer = osc_split_infer, .run = osc_split_run},
    {.op = "Split", .since = 13, .until = 17, .inputs = {1, 2}, .outputs = OSC_VARIADIC,
     .outputs_min = 1, .infer_reads = 0x2,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)}, .init = osc_split_init,
     .infer = osc_split_infer, .run = osc_split_run},
    {.op = "Split", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = OSC_VARIADIC,
     .outputs_min = 1, .infer_reads = 0x2,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)}, .init = osc_split_init,
     .infer = osc_split_infer, .run = osc_split_run},
#endif
#if OSC_OP_Pad
    {.op = "Pad", .since = 1, .until = 1, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_LAYOUT_F}, .init = osc_pad_init, .infer = osc_pad_infer,
     .run = osc_pad_run},
    {.op = "Pad", .since = 2, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_LAYOUT_F}, .init = osc_pad_init, .infer = osc_pad_infer,
     .run = osc_pad_run},
    {.op = "Pad", .since = 11, .until = 12, .inputs = {2, 3}, .outputs = 1, .infer_reads = 0x2,
     .types = {OSC_TS_LAYOUT_NUM, OSC_TS(OSC_INT64), OSC_TS_LAYOUT_NUM}, .init = osc_pad_init,
     .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 13, .until = 17, .inputs = {2, 3}, .outputs = 1, .infer_reads = 0x2,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64), OSC_TS_ALL_V13}, .init = osc_pad_init,
     .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 18, .until = 18, .inputs = {2, 4}, .outputs = 1, .infer_reads = 0xa,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64), OSC_TS_ALL_V13, OSC_TS_INDEX},
     .init = osc_pad_init, .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 19, .until = 20, .inputs = {2, 4}, .outputs = 1, .infer_reads = 0xa,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64), OSC_TS_ALL_V13, OSC_TS_INDEX},
     .init = osc_pad_init, .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 21, .until = 22, .inputs = {2, 4}, .outputs = 1, .infer_reads = 0xa,
     .types = {OSC_TS_ALL_V21, OSC_TS(OSC_INT64), OSC_TS_ALL_V21, OSC_TS_INDEX},
     .init = osc_pad_init, .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 23, .until = 23, .inputs = {2, 4}, .outputs = 1, .infer_reads = 0xa,
     .types = {OSC_TS_ALL_V23, OSC_TS(OSC_INT64), OSC_TS_ALL_V23, OSC_TS_INDEX},
     .init = osc_pad_init, .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 24, .until = 24, .inputs = {2, 4}, .outputs = 1, .infer_reads = 0xa,
     .types = {OSC_TS_ALL_V24, OSC_TS(OSC_INT64), OSC_TS_ALL_V24, OSC_TS_INDEX},
     .init = osc_pad_init, .infer = osc_pad_infer, .run = osc_pad_run},
    {.op = "Pad", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {2, 4}, .outputs = 1,
     .infer_reads = 0xa,
     .types = {OSC_TS_ALL_V25, OSC_TS(OSC_INT64), OSC_TS_ALL_V25, OSC_TS_INDEX},
     .init = osc_pad_init, .infer = osc_pad_infer, .run = osc_pad_run},
#endif
#if OSC_OP_Einsum
    {.op = "Einsum", .since = 12, .until = OSC_OPSET_NEWEST, .inputs = {1, OSC_VARIADIC},
     .outputs = 1, .types = {OSC_TS_LAYOUT_NUM}, .init = osc_einsum_init,
     .infer = osc_einsum_infer, .run = osc_einsum_run},
#endif
#undef OSC_TS_LAYOUT_F
#undef OSC_TS_LAYOUT_NUM
#endif
