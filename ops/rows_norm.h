/* rows_norm.h: registry rows of the normalisation ops: Softmax, LogSoftmax, BatchNormalization,
 * LayerNormalization, Dropout (included inside ops/registry.c's table). Every version from the
 * op's first one up to OSC_OPSET_NEWEST; rows of one op share init/infer/run, which read
 * k->since_version where versions differ (Softmax's 2-D coercion before 13, BatchNormalization's
 * attributes and dtype rules, Dropout's attributes before 12 and inputs from 12). .outputs_min
 * where trailing outputs are optional. .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_softmax) /* Softmax, LogSoftmax (ops/softmax.c) */
OSC_KERNEL_DECLARE(osc_bn) /* BatchNormalization (ops/batchnorm.c) */
OSC_KERNEL_DECLARE(osc_ln) /* LayerNormalization (ops/layernorm.c) */
OSC_KERNEL_DECLARE(osc_dropout) /* Dropout (ops/dropout.c) */
#else
#define OSC_TS_FLOAT_NO_BF16 (OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))
#if OSC_OP_Softmax
    {.op = "Softmax", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_softmax_init,
     .infer = osc_softmax_infer, .run = osc_softmax_run},
    {.op = "Softmax", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_softmax_init,
     .infer = osc_softmax_infer, .run = osc_softmax_run},
    {.op = "Softmax", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_softmax_init,
     .infer = osc_softmax_infer, .run = osc_softmax_run},
#endif
#if OSC_OP_LogSoftmax
    {.op = "LogSoftmax", .since = 1, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_softmax_init,
     .infer = osc_softmax_infer, .run = osc_softmax_run},
    {.op = "LogSoftmax", .since = 11, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_softmax_init,
     .infer = osc_softmax_infer, .run = osc_softmax_run},
    {.op = "LogSoftmax", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_softmax_init,
     .infer = osc_softmax_infer, .run = osc_softmax_run},
#endif
#if OSC_OP_BatchNormalization
    {.op = "BatchNormalization", .since = 1, .until = 5, .inputs = {5, 5}, .outputs = 5,
     .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16},
     .init = osc_bn_init, .infer = osc_bn_infer, .run = osc_bn_run},
    {.op = "BatchNormalization", .since = 6, .until = 6, .inputs = {5, 5}, .outputs = 5,
     .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16},
     .init = osc_bn_init, .infer = osc_bn_infer, .run = osc_bn_run},
    {.op = "BatchNormalization", .since = 7, .until = 8, .inputs = {5, 5}, .outputs = 5,
     .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16},
     .init = osc_bn_init, .infer = osc_bn_infer, .run = osc_bn_run},
    {.op = "BatchNormalization", .since = 9, .until = 13, .inputs = {5, 5}, .outputs = 5,
     .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16},
     .init = osc_bn_init, .infer = osc_bn_infer, .run = osc_bn_run},
    {.op = "BatchNormalization", .since = 14, .until = 14, .inputs = {5, 5}, .outputs = 3,
     .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT},
     .init = osc_bn_init, .infer = osc_bn_infer, .run = osc_bn_run},
    {.op = "BatchNormalization", .since = 15, .until = OSC_OPSET_NEWEST, .inputs = {5, 5},
     .outputs = 3, .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT},
     .init = osc_bn_init, .infer = osc_bn_infer, .run = osc_bn_run},
#endif
#if OSC_OP_LayerNormalization
    {.op = "LayerNormalization", .since = 17, .until = OSC_OPSET_NEWEST, .inputs = {2, 3},
     .outputs = 3, .outputs_min = 1, .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT},
     .init = osc_ln_init, .infer = osc_ln_infer, .run = osc_ln_run},
#endif
#if OSC_OP_Dropout
    {.op = "Dropout", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 2, .outputs_min = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_dropout_init,
     .infer = osc_dropout_infer, .run = osc_dropout_run},
    {.op = "Dropout", .since = 6, .until = 6, .inputs = {1, 1}, .outputs = 2, .outputs_min = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_dropout_init,
     .infer = osc_dropout_infer, .run = osc_dropout_run},
    {.op = "Dropout", .since = 7, .until = 9, .inputs = {1, 1}, .outputs = 2, .outputs_min = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_dropout_init,
     .infer = osc_dropout_infer, .run = osc_dropout_run},
    {.op = "Dropout", .since = 10, .until = 11, .inputs = {1, 1}, .outputs = 2, .outputs_min = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT_NO_BF16}, .init = osc_dropout_init,
     .infer = osc_dropout_infer, .run = osc_dropout_run},
    {.op = "Dropout", .since = 12, .until = 12, .inputs = {1, 3}, .outputs = 2, .outputs_min = 1,
     .flags = OSC_KF_INPLACE,
     .types = {OSC_TS_FLOAT_NO_BF16, OSC_TS_FLOAT_NO_BF16, OSC_TS(OSC_BOOL)},
     .init = osc_dropout_init, .infer = osc_dropout_infer, .run = osc_dropout_run},
    {.op = "Dropout", .since = 13, .until = 21, .inputs = {1, 3}, .outputs = 2, .outputs_min = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT, OSC_TS_FLOAT_NO_BF16, OSC_TS(OSC_BOOL)},
     .init = osc_dropout_init, .infer = osc_dropout_infer, .run = osc_dropout_run},
    {.op = "Dropout", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 3}, .outputs = 2,
     .outputs_min = 1, .flags = OSC_KF_INPLACE,
     .types = {(OSC_TS_FLOAT | OSC_TS_FLOAT8), (OSC_TS_FLOAT | OSC_TS_FLOAT8), OSC_TS(OSC_BOOL)},
     .init = osc_dropout_init, .infer = osc_dropout_infer, .run = osc_dropout_run},
#endif
#undef OSC_TS_FLOAT_NO_BF16
#endif
