/* rows_shape.h: registry rows of the shape and data-movement ops (included inside ops/registry.c's
 * table). Every version in effect from opset 7 on; .infer_reads has bit i set when infer needs the
 * values of input i (a shape, axes, K, depth, ...); .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_constant) /* Constant (ops/constant.c) */
OSC_KERNEL_DECLARE(osc_cofshape) /* ConstantOfShape (ops/constant.c) */
OSC_KERNEL_DECLARE(osc_shape) /* Shape (ops/shape.c) */
OSC_KERNEL_DECLARE(osc_size) /* Size (ops/shape.c) */
OSC_KERNEL_DECLARE(osc_reshape) /* Reshape (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_flatten) /* Flatten (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_squeeze) /* Squeeze (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_unsqueeze) /* Unsqueeze (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_expand) /* Expand (ops/expand.c) */
OSC_KERNEL_DECLARE(osc_tile) /* Tile (ops/expand.c) */
OSC_KERNEL_DECLARE(osc_concat) /* Concat (ops/concat.c) */
OSC_KERNEL_DECLARE(osc_gather) /* Gather (ops/gather.c) */
/* its fuse hook: an index that is a Concat of pieces is read in place (ops/gather.c) */
bool osc_fuse_gather_pieces(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f);
OSC_KERNEL_DECLARE(osc_slice) /* Slice (ops/slice.c) */
OSC_KERNEL_DECLARE(osc_transpose) /* Transpose (ops/transpose.c) */
OSC_KERNEL_DECLARE(osc_range) /* Range (ops/range.c) */
OSC_KERNEL_DECLARE(osc_nonzero) /* NonZero (ops/nonzero.c) */
OSC_KERNEL_DECLARE(osc_cumsum) /* CumSum (ops/cumsum.c) */
OSC_KERNEL_DECLARE(osc_topk) /* TopK, two outputs (ops/topk.c) */
OSC_KERNEL_DECLARE(osc_onehot) /* OneHot (ops/onehot.c) */
#else
#if OSC_OP_Constant
    {.op = "Constant", .since = 1, .until = 8, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 9, .until = 10, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 11, .until = 11, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 12, .until = 12, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 13, .until = 18, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 19, .until = 20, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 21, .until = 22, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 23, .until = 23, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 24, .until = 24, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
    {.op = "Constant", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {0, 0}, .outputs = 1,
     .init = osc_constant_init, .infer = osc_constant_infer, .run = osc_constant_run},
#endif
#if OSC_OP_ConstantOfShape
    {.op = "ConstantOfShape", .since = 9, .until = 19, .inputs = {1, 1}, .outputs = 1,
     .infer_reads = 0x1, .types = {OSC_TS(OSC_INT64)}, .init = osc_cofshape_init,
     .infer = osc_cofshape_infer, .run = osc_cofshape_run},
    {.op = "ConstantOfShape", .since = 20, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .infer_reads = 0x1, .types = {OSC_TS(OSC_INT64)}, .init = osc_cofshape_init,
     .infer = osc_cofshape_infer, .run = osc_cofshape_run},
    {.op = "ConstantOfShape", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .infer_reads = 0x1, .types = {OSC_TS(OSC_INT64)}, .init = osc_cofshape_init,
     .infer = osc_cofshape_infer, .run = osc_cofshape_run},
    {.op = "ConstantOfShape", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .infer_reads = 0x1, .types = {OSC_TS(OSC_INT64)}, .init = osc_cofshape_init,
     .infer = osc_cofshape_infer, .run = osc_cofshape_run},
    {.op = "ConstantOfShape", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .infer_reads = 0x1, .types = {OSC_TS(OSC_INT64)}, .init = osc_cofshape_init,
     .infer = osc_cofshape_infer, .run = osc_cofshape_run},
    {.op = "ConstantOfShape", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1},
     .outputs = 1, .infer_reads = 0x1, .types = {OSC_TS(OSC_INT64)}, .init = osc_cofshape_init,
     .infer = osc_cofshape_infer, .run = osc_cofshape_run},
#endif
#if OSC_OP_Shape
    {.op = "Shape", .since = 1, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V1}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 13, .until = 14, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V13}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 15, .until = 18, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V13}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 19, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V19}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V21}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V23}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V24}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
    {.op = "Shape", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V25}, .init = osc_shape_init,
     .infer = osc_shape_infer, .run = osc_shape_run},
#endif
#if OSC_OP_Size
    {.op = "Size", .since = 1, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V1}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
    {.op = "Size", .since = 13, .until = 18, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V13}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
    {.op = "Size", .since = 19, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V19}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
    {.op = "Size", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V21}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
    {.op = "Size", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V23}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
    {.op = "Size", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V24}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
    {.op = "Size", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_SHAPE_ONLY, .types = {OSC_TS_ALL_V25}, .init = osc_size_init,
     .infer = osc_size_infer, .run = osc_size_run},
#endif
    /* same bytes, new shape: output 0 may take input 0's buffer */
#if OSC_OP_Reshape
    {.op = "Reshape", .since = 5, .until = 12, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V1, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 13, .until = 13, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 14, .until = 18, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 19, .until = 20, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V19, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 21, .until = 22, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V21, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 23, .until = 23, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V23, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 24, .until = 24, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V24, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
    {.op = "Reshape", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V25, OSC_TS(OSC_INT64)},
     .init = osc_reshape_init, .infer = osc_reshape_infer, .run = osc_reshape_run},
#endif
#if OSC_OP_Flatten
    {.op = "Flatten", .since = 1, .until = 8, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))},
     .init = osc_flatten_init, .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 9, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 13, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V13}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V21}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V23}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V24}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
    {.op = "Flatten", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V25}, .init = osc_flatten_init,
     .infer = osc_flatten_infer, .run = osc_flatten_run},
#endif
#if OSC_OP_Squeeze
    {.op = "Squeeze", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_squeeze_init,
     .infer = osc_squeeze_infer, .run = osc_squeeze_run},
    {.op = "Squeeze", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_squeeze_init,
     .infer = osc_squeeze_infer, .run = osc_squeeze_run},
    {.op = "Squeeze", .since = 13, .until = 20, .inputs = {1, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)},
     .init = osc_squeeze_init, .infer = osc_squeeze_infer, .run = osc_squeeze_run},
    {.op = "Squeeze", .since = 21, .until = 22, .inputs = {1, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V21, OSC_TS(OSC_INT64)},
     .init = osc_squeeze_init, .infer = osc_squeeze_infer, .run = osc_squeeze_run},
    {.op = "Squeeze", .since = 23, .until = 23, .inputs = {1, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V23, OSC_TS(OSC_INT64)},
     .init = osc_squeeze_init, .infer = osc_squeeze_infer, .run = osc_squeeze_run},
    {.op = "Squeeze", .since = 24, .until = 24, .inputs = {1, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V24, OSC_TS(OSC_INT64)},
     .init = osc_squeeze_init, .infer = osc_squeeze_infer, .run = osc_squeeze_run},
    {.op = "Squeeze", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V25, OSC_TS(OSC_INT64)},
     .init = osc_squeeze_init, .infer = osc_squeeze_infer, .run = osc_squeeze_run},
#endif
#if OSC_OP_Unsqueeze
    {.op = "Unsqueeze", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_unsqueeze_init,
     .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
    {.op = "Unsqueeze", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_unsqueeze_init,
     .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
    {.op = "Unsqueeze", .since = 13, .until = 20, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)},
     .init = osc_unsqueeze_init, .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
    {.op = "Unsqueeze", .since = 21, .until = 22, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V21, OSC_TS(OSC_INT64)},
     .init = osc_unsqueeze_init, .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
    {.op = "Unsqueeze", .since = 23, .until = 23, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V23, OSC_TS(OSC_INT64)},
     .init = osc_unsqueeze_init, .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
    {.op = "Unsqueeze", .since = 24, .until = 24, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V24, OSC_TS(OSC_INT64)},
     .init = osc_unsqueeze_init, .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
    {.op = "Unsqueeze", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .infer_reads = 0x2, .types = {OSC_TS_ALL_V25, OSC_TS(OSC_INT64)},
     .init = osc_unsqueeze_init, .infer = osc_unsqueeze_infer, .run = osc_unsqueeze_run},
#endif
#if OSC_OP_Expand
    {.op = "Expand", .since = 8, .until = 12, .inputs = {2, 2}, .outputs = 1, .infer_reads = 0x2,
     .types = {OSC_TS_ALL_V1, OSC_TS(OSC_INT64)}, .init = osc_expand_init,
     .infer = osc_expand_infer, .run = osc_expand_run},
    {.op = "Expand", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)}, .init = osc_expand_init,
     .infer = osc_expand_infer, .run = osc_expand_run},
#endif
#if OSC_OP_Tile
    {.op = "Tile", .since = 6, .until = 12, .inputs = {2, 2}, .outputs = 1, .infer_reads = 0x2,
     .types = {OSC_TS_ALL_V1, OSC_TS(OSC_INT64)}, .init = osc_tile_init, .infer = osc_tile_infer,
     .run = osc_tile_run},
    {.op = "Tile", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .infer_reads = 0x2, .types = {OSC_TS_ALL_V13, OSC_TS(OSC_INT64)}, .init = osc_tile_init,
     .infer = osc_tile_infer, .run = osc_tile_run},
#endif
#if OSC_OP_Concat
    {.op = "Concat", .since = 4, .until = 10, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {OSC_TS_ALL_V1}, .init = osc_concat_init, .infer = osc_concat_infer,
     .run = osc_concat_run},
    {.op = "Concat", .since = 11, .until = 12, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {OSC_TS_ALL_V1}, .init = osc_concat_init, .infer = osc_concat_infer,
     .run = osc_concat_run},
    {.op = "Concat", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, OSC_VARIADIC},
     .outputs = 1, .types = {OSC_TS_ALL_V13}, .init = osc_concat_init, .infer = osc_concat_infer,
     .run = osc_concat_run},
#endif
#if OSC_OP_Gather
    {.op = "Gather", .since = 1, .until = 10, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX}, .init = osc_gather_init, .infer = osc_gather_infer,
     .run = osc_gather_run, .fuse = OSC_FUSE_HOOK(osc_fuse_gather_pieces),
     .flags = OSC_KF_FUSE_LATE},
    {.op = "Gather", .since = 11, .until = 12, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX}, .init = osc_gather_init, .infer = osc_gather_infer,
     .run = osc_gather_run, .fuse = OSC_FUSE_HOOK(osc_fuse_gather_pieces),
     .flags = OSC_KF_FUSE_LATE},
    {.op = "Gather", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .types = {OSC_TS_ALL_V13, OSC_TS_INDEX}, .init = osc_gather_init, .infer = osc_gather_infer,
     .run = osc_gather_run, .fuse = OSC_FUSE_HOOK(osc_fuse_gather_pieces),
     .flags = OSC_KF_FUSE_LATE},
#endif
#if OSC_OP_Slice
    {.op = "Slice", .since = 1, .until = 9, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V1}, .init = osc_slice_init, .infer = osc_slice_infer,
     .run = osc_slice_run},
    {.op = "Slice", .since = 10, .until = 10, .inputs = {3, 5}, .outputs = 1, .infer_reads = 0x1e,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX}, .init = osc_slice_init, .infer = osc_slice_infer,
     .run = osc_slice_run},
    {.op = "Slice", .since = 11, .until = 12, .inputs = {3, 5}, .outputs = 1, .infer_reads = 0x1e,
     .types = {OSC_TS_ALL_V1, OSC_TS_INDEX}, .init = osc_slice_init, .infer = osc_slice_infer,
     .run = osc_slice_run},
    {.op = "Slice", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {3, 5}, .outputs = 1,
     .infer_reads = 0x1e, .types = {OSC_TS_ALL_V13, OSC_TS_INDEX}, .init = osc_slice_init,
     .infer = osc_slice_infer, .run = osc_slice_run},
#endif
#if OSC_OP_Transpose
    {.op = "Transpose", .since = 1, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V1}, .init = osc_transpose_init, .infer = osc_transpose_infer,
     .run = osc_transpose_run},
    {.op = "Transpose", .since = 13, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V13}, .init = osc_transpose_init, .infer = osc_transpose_infer,
     .run = osc_transpose_run},
    {.op = "Transpose", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V21}, .init = osc_transpose_init, .infer = osc_transpose_infer,
     .run = osc_transpose_run},
    {.op = "Transpose", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V23}, .init = osc_transpose_init, .infer = osc_transpose_infer,
     .run = osc_transpose_run},
    {.op = "Transpose", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V24}, .init = osc_transpose_init, .infer = osc_transpose_infer,
     .run = osc_transpose_run},
    {.op = "Transpose", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_ALL_V25}, .init = osc_transpose_init, .infer = osc_transpose_infer,
     .run = osc_transpose_run},
#endif
#if OSC_OP_Range
    {.op = "Range", .since = 11, .until = 26, .inputs = {3, 3}, .outputs = 1, .infer_reads = 0x7,
     .types = {(OSC_TS_IEEE | OSC_TS(OSC_INT16) | OSC_TS(OSC_INT32) | OSC_TS(OSC_INT64))},
     .init = osc_range_init, .infer = osc_range_infer, .run = osc_range_run},
    {.op = "Range", .since = 27, .until = OSC_OPSET_NEWEST, .inputs = {3, 3}, .outputs = 1,
     .infer_reads = 0x7, .types = {(OSC_TS_SIGNED & ~(OSC_TS(OSC_INT8)))}, .init = osc_range_init,
     .infer = osc_range_infer, .run = osc_range_run},
#endif
    /* the output's shape depends on the input's own values */
#if OSC_OP_NonZero
    {.op = "NonZero", .since = 9, .until = 12, .inputs = {1, 1}, .outputs = 1, .infer_reads = 0x1,
     .types = {OSC_TS_ALL_V1}, .init = osc_nonzero_init, .infer = osc_nonzero_infer,
     .run = osc_nonzero_run},
    {.op = "NonZero", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .infer_reads = 0x1, .types = {OSC_TS_ALL_V13}, .init = osc_nonzero_init,
     .infer = osc_nonzero_infer, .run = osc_nonzero_run},
#endif
    /* each x[p] is read before y[p] is written, so y may take x's buffer */
#if OSC_OP_CumSum
    {.op = "CumSum", .since = 11, .until = 13, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_ARITH_V7 & ~(OSC_TS(OSC_FLOAT16))), OSC_TS_INDEX},
     .init = osc_cumsum_init, .infer = osc_cumsum_infer, .run = osc_cumsum_run},
    {.op = "CumSum", .since = 14, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ARITH_V13, OSC_TS_INDEX}, .init = osc_cumsum_init,
     .infer = osc_cumsum_infer, .run = osc_cumsum_run},
#endif
#if OSC_OP_TopK
    {.op = "TopK", .since = 1, .until = 9, .inputs = {1, 1}, .outputs = 2,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_topk_init,
     .infer = osc_topk_infer, .run = osc_topk_run},
    {.op = "TopK", .since = 10, .until = 10, .inputs = {2, 2}, .outputs = 2, .infer_reads = 0x2,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16))), OSC_TS(OSC_INT64)}, .init = osc_topk_init,
     .infer = osc_topk_infer, .run = osc_topk_run},
    {.op = "TopK", .since = 11, .until = 23, .inputs = {2, 2}, .outputs = 2, .infer_reads = 0x2,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16))), OSC_TS(OSC_INT64)}, .init = osc_topk_init,
     .infer = osc_topk_infer, .run = osc_topk_run},
    {.op = "TopK", .since = 24, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 2,
     .infer_reads = 0x2, .types = {OSC_TS_REAL, OSC_TS(OSC_INT64)}, .init = osc_topk_init,
     .infer = osc_topk_infer, .run = osc_topk_run},
#endif
#if OSC_OP_OneHot
    {.op = "OneHot", .since = 9, .until = 10, .inputs = {3, 3}, .outputs = 1, .infer_reads = 0x2,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16))), (OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16))), OSC_TS_ALL_V1},
     .init = osc_onehot_init, .infer = osc_onehot_infer, .run = osc_onehot_run},
    {.op = "OneHot", .since = 11, .until = OSC_OPSET_NEWEST, .inputs = {3, 3}, .outputs = 1,
     .infer_reads = 0x2,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16))), (OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16))), OSC_TS_ALL_V1},
     .init = osc_onehot_init, .infer = osc_onehot_infer, .run = osc_onehot_run},
#endif
#endif
