/* rows_elementwise.h: registry rows of the elementwise ops (included inside ops/registry.c's
 * table). Every version in effect from opset 7 on; a version older than 7 is listed when it is
 * still the current one at opset 7 (Neg-6, Abs-6, Min-6, Max-6, Not-1, Cast-6, Identity-1).
 * Rows of one op share init/infer/run; init reads k->since_version. .types from
 * ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_bin) /* Add, Sub, Mul, Div, Mod, Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or (ops/binary.c): two inputs broadcast together. */
OSC_KERNEL_DECLARE(osc_unary) /* Neg, Abs, Not (ops/unary.c) */
OSC_KERNEL_DECLARE(osc_minmax) /* Min, Max (ops/minmax.c): 1..N inputs. */
OSC_KERNEL_DECLARE(osc_where) /* Where (ops/where.c) */
OSC_KERNEL_DECLARE(osc_cast) /* Cast (ops/cast.c) */
OSC_KERNEL_DECLARE(osc_ident) /* Identity (ops/unary.c): tensors of every dtype the version lists, packed ones included. */
/* the fuse hook of the ops that broadcast their inputs together (ops/fuse_match.c) */
bool osc_fuse_broadcast(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f);
#else
#if OSC_OP_Add
    {.op = "Add", .since = 7, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V7}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Add", .since = 13, .until = 13, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V13}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Add", .since = 14, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Sub
    {.op = "Sub", .since = 7, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V7}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Sub", .since = 13, .until = 13, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V13}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Sub", .since = 14, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Mul
    {.op = "Mul", .since = 7, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V7}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Mul", .since = 13, .until = 13, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V13}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Mul", .since = 14, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Div
    {.op = "Div", .since = 7, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V7}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Div", .since = 13, .until = 13, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_ARITH_V13}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Div", .since = 14, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Mod
    {.op = "Mod", .since = 10, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Mod", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Equal
    {.op = "Equal", .since = 7, .until = 10, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_INDEX | OSC_TS(OSC_BOOL))}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Equal", .since = 11, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {((OSC_TS_REAL | OSC_TS(OSC_BOOL)) & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Equal", .since = 13, .until = 18, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_REAL | OSC_TS(OSC_BOOL))}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Equal", .since = 19, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_ALL_V13 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Less
    {.op = "Less", .since = 7, .until = 8, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Less", .since = 9, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Less", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Greater
    {.op = "Greater", .since = 7, .until = 8, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Greater", .since = 9, .until = 12, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Greater", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_LessOrEqual
    {.op = "LessOrEqual", .since = 12, .until = 15, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "LessOrEqual", .since = 16, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_GreaterOrEqual
    {.op = "GreaterOrEqual", .since = 12, .until = 15, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_bin_init,
     .infer = osc_bin_infer, .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "GreaterOrEqual", .since = 16, .until = OSC_OPSET_NEWEST, .inputs = {2, 2},
     .outputs = 1, .flags = OSC_KF_INPLACE_SAME, .types = {OSC_TS_REAL}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_And
    {.op = "And", .since = 7, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS(OSC_BOOL)}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Or
    {.op = "Or", .since = 7, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1, .flags = OSC_KF_INPLACE_SAME,
     .types = {OSC_TS(OSC_BOOL)}, .init = osc_bin_init, .infer = osc_bin_infer,
     .run = osc_bin_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Neg
    {.op = "Neg", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1, .flags = OSC_KF_INPLACE,
     .types = {(OSC_TS_SIGNED & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_unary_init,
     .infer = osc_unary_infer, .run = osc_unary_run},
    {.op = "Neg", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_SIGNED}, .init = osc_unary_init,
     .infer = osc_unary_infer, .run = osc_unary_run},
#endif
#if OSC_OP_Abs
    {.op = "Abs", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1, .flags = OSC_KF_INPLACE,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_unary_init,
     .infer = osc_unary_infer, .run = osc_unary_run},
    {.op = "Abs", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_REAL}, .init = osc_unary_init,
     .infer = osc_unary_infer, .run = osc_unary_run},
#endif
#if OSC_OP_Not
    {.op = "Not", .since = 1, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS(OSC_BOOL)}, .init = osc_unary_init,
     .infer = osc_unary_infer, .run = osc_unary_run},
#endif
#if OSC_OP_Min
    {.op = "Min", .since = 6, .until = 7, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_minmax_init,
     .infer = osc_minmax_infer, .run = osc_minmax_run},
    {.op = "Min", .since = 8, .until = 11, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_minmax_init,
     .infer = osc_minmax_infer, .run = osc_minmax_run},
    {.op = "Min", .since = 12, .until = 12, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_minmax_init,
     .infer = osc_minmax_infer, .run = osc_minmax_run},
    {.op = "Min", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, OSC_VARIADIC},
     .outputs = 1, .types = {OSC_TS_REAL}, .init = osc_minmax_init, .infer = osc_minmax_infer,
     .run = osc_minmax_run},
#endif
#if OSC_OP_Max
    {.op = "Max", .since = 6, .until = 7, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_minmax_init,
     .infer = osc_minmax_infer, .run = osc_minmax_run},
    {.op = "Max", .since = 8, .until = 11, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {(OSC_TS_FLOAT & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_minmax_init,
     .infer = osc_minmax_infer, .run = osc_minmax_run},
    {.op = "Max", .since = 12, .until = 12, .inputs = {1, OSC_VARIADIC}, .outputs = 1,
     .types = {(OSC_TS_REAL & ~(OSC_TS(OSC_BFLOAT16)))}, .init = osc_minmax_init,
     .infer = osc_minmax_infer, .run = osc_minmax_run},
    {.op = "Max", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, OSC_VARIADIC},
     .outputs = 1, .types = {OSC_TS_REAL}, .init = osc_minmax_init, .infer = osc_minmax_infer,
     .run = osc_minmax_run},
#endif
#if OSC_OP_Where
    {.op = "Where", .since = 9, .until = 15, .inputs = {3, 3}, .outputs = 1,
     .types = {OSC_TS(OSC_BOOL), OSC_TS_ALL_V1}, .init = osc_where_init, .infer = osc_where_infer,
     .run = osc_where_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
    {.op = "Where", .since = 16, .until = OSC_OPSET_NEWEST, .inputs = {3, 3}, .outputs = 1,
     .types = {OSC_TS(OSC_BOOL), OSC_TS_ALL_V13}, .init = osc_where_init, .infer = osc_where_infer,
     .run = osc_where_run, .fuse = OSC_FUSE_HOOK(osc_fuse_broadcast)},
#endif
#if OSC_OP_Cast
    {.op = "Cast", .since = 6, .until = 8, .inputs = {1, 1}, .outputs = 1,
     .types = {((OSC_TS_REAL | OSC_TS(OSC_BOOL)) & ~(OSC_TS(OSC_BFLOAT16)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 9, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V1 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 13, .until = 18, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V13 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 19, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V19 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V21 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V23 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V24 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
    {.op = "Cast", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_ALL_V25 & ~(OSC_TS(OSC_COMPLEX64) | OSC_TS(OSC_COMPLEX128)))},
     .init = osc_cast_init, .infer = osc_cast_infer, .run = osc_cast_run},
#endif
#if OSC_OP_Identity
    {.op = "Identity", .since = 1, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V1}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 13, .until = 13, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V13}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 14, .until = 15, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V13}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 16, .until = 18, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V13}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 19, .until = 20, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V19}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 21, .until = 22, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V21}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 23, .until = 23, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V23}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 24, .until = 24, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V24}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
    {.op = "Identity", .since = 25, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ALL_V25}, .init = osc_ident_init,
     .infer = osc_ident_infer, .run = osc_ident_run},
#endif
#endif
