/* rows_scatter.h: registry rows of the scatter family (included inside ops/registry.c's table).
 * One row per op version range; .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_se) /* Scatter-9/11 and ScatterElements-11/13/16/18 (ops/scatter_elements.c) */
OSC_KERNEL_DECLARE(osc_snd) /* ScatterND-11/13/16/18 (ops/scatter_nd.c) */
OSC_KERNEL_DECLARE(osc_ts) /* TensorScatter-24 (ops/tensor_scatter.c) */
OSC_KERNEL_DECLARE(osc_ge) /* GatherElements-11/13 (ops/gather_elements.c) */
OSC_KERNEL_DECLARE(osc_gnd) /* GatherND-11/12/13 (ops/gather_nd.c) */
/* the fuse hooks of ScatterElements and ScatterND, and of GatherElements (ops/fuse_match.c) */
bool osc_fuse_scatter(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f);
bool osc_fuse_gather_elements(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f);
#else
#if OSC_OP_Scatter
    {.op = "Scatter", .since = 9, .until = 10, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX, OSC_TS_ALL_V1}, .init = osc_se_init,
     .infer = osc_se_infer, .run = osc_se_run},
    {.op = "Scatter", .since = 11, .until = OSC_OPSET_NEWEST, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT | OSC_KF_DEPRECATED,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX, OSC_TS_ALL_V1}, .init = osc_se_init,
     .infer = osc_se_infer, .run = osc_se_run},
#endif
#if OSC_OP_ScatterElements
    {.op = "ScatterElements", .since = 11, .until = 12, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX, OSC_TS_ALL_V1}, .init = osc_se_init,
     .infer = osc_se_infer, .run = osc_se_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
    {.op = "ScatterElements", .since = 13, .until = 15, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V13, OSC_TS_INDEX, OSC_TS_ALL_V13}, .init = osc_se_init,
     .infer = osc_se_infer, .run = osc_se_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
    {.op = "ScatterElements", .since = 16, .until = 17, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V13, OSC_TS_INDEX, OSC_TS_ALL_V13}, .init = osc_se_init,
     .infer = osc_se_infer, .run = osc_se_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
    {.op = "ScatterElements", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {3, 3},
     .outputs = 1, .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V13, OSC_TS_INDEX, OSC_TS_ALL_V13}, .init = osc_se_init,
     .infer = osc_se_infer, .run = osc_se_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
#endif
#if OSC_OP_ScatterND
    {.op = "ScatterND", .since = 11, .until = 12, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V1, OSC_TS(OSC_INT64), OSC_TS_ALL_V1}, .init = osc_snd_init,
     .infer = osc_snd_infer, .run = osc_snd_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
    {.op = "ScatterND", .since = 13, .until = 15, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64), OSC_TS_ALL_V13}, .init = osc_snd_init,
     .infer = osc_snd_infer, .run = osc_snd_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
    {.op = "ScatterND", .since = 16, .until = 17, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64), OSC_TS_ALL_V13}, .init = osc_snd_init,
     .infer = osc_snd_infer, .run = osc_snd_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
    {.op = "ScatterND", .since = 18, .until = OSC_OPSET_NEWEST, .inputs = {3, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64), OSC_TS_ALL_V13}, .init = osc_snd_init,
     .infer = osc_snd_infer, .run = osc_snd_run, .fuse = OSC_FUSE_HOOK(osc_fuse_scatter)},
#endif
#if OSC_OP_TensorScatter
    {.op = "TensorScatter", .since = 24, .until = OSC_OPSET_NEWEST, .inputs = {2, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE | OSC_KF_INPLACE_INPUT,
     .types = {OSC_TS_ALL_V24, OSC_TS_ALL_V24, OSC_TS(OSC_INT64)}, .init = osc_ts_init,
     .infer = osc_ts_infer, .run = osc_ts_run},
#endif
#if OSC_OP_GatherElements
    {.op = "GatherElements", .since = 11, .until = 12, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX}, .init = osc_ge_init, .infer = osc_ge_infer,
     .run = osc_ge_run, .fuse = OSC_FUSE_HOOK(osc_fuse_gather_elements)},
    {.op = "GatherElements", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2},
     .outputs = 1, .types = {OSC_TS_ALL_V13, OSC_TS_INDEX}, .init = osc_ge_init,
     .infer = osc_ge_infer, .run = osc_ge_run, .fuse = OSC_FUSE_HOOK(osc_fuse_gather_elements)},
#endif
#if OSC_OP_GatherND
    {.op = "GatherND", .since = 11, .until = 11, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V1, OSC_TS(OSC_INT64)}, .init = osc_gnd_init, .infer = osc_gnd_infer,
     .run = osc_gnd_run},
    {.op = "GatherND", .since = 12, .until = 12, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V1, OSC_TS(OSC_INT64)}, .init = osc_gnd_init, .infer = osc_gnd_infer,
     .run = osc_gnd_run},
    {.op = "GatherND", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)}, .init = osc_gnd_init, .infer = osc_gnd_infer,
     .run = osc_gnd_run},
#endif
#endif
