/* rows_math.h: registry rows of the activations and the elementwise math ops (included inside
 * ops/registry.c's table). Every version from the op's first one up to OSC_OPSET_NEWEST; rows of
 * one op share init/infer/run, which read k->since_version where versions differ (Clip's
 * attributes before 11, Pow's legacy broadcast before 7, PRelu's slope before 7, the version-1
 * rows' consumed_inputs). OSC_KF_INPLACE where the output has input 0's dtype and shape.
 * .types from ../shared/spec/onnx-Changelog.md. */
#ifdef OSC_ROWS_DECLARE /* the kernels of these rows (each defined in the file named) */
OSC_KERNEL_DECLARE(osc_act) /* Relu, LeakyRelu, Elu, Selu, Celu, Sigmoid, HardSigmoid, HardSwish, Tanh, Softplus, Softsign, Gelu, Erf (ops/activation.c) */
OSC_KERNEL_DECLARE(osc_math) /* Exp, Log, Sqrt, Reciprocal, Floor, Ceil, Round, Sign, Sin, Cos (ops/math.c) */
OSC_KERNEL_DECLARE(osc_prelu) /* PRelu (ops/prelu.c): slope broadcast to X */
OSC_KERNEL_DECLARE(osc_pow) /* Pow (ops/pow.c): base and exponent dtypes may differ from 12 */
OSC_KERNEL_DECLARE(osc_isinf) /* IsInf, IsNaN (ops/isinf.c): bool output */
OSC_KERNEL_DECLARE(osc_clip) /* Clip (ops/clip.c): attributes before 11, inputs from 11 */
#else
#if OSC_OP_Relu
    {.op = "Relu", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Relu", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Relu", .since = 13, .until = 13, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Relu", .since = 14, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT | OSC_TS_SINT)}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_LeakyRelu
    {.op = "LeakyRelu", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "LeakyRelu", .since = 6, .until = 15, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "LeakyRelu", .since = 16, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Elu
    {.op = "Elu", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Elu", .since = 6, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Elu", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Selu
    {.op = "Selu", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Selu", .since = 6, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Selu", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Celu
    {.op = "Celu", .since = 12, .until = 27, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS(OSC_FLOAT)}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Celu", .since = 28, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Sigmoid
    {.op = "Sigmoid", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Sigmoid", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Sigmoid", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_HardSigmoid
    {.op = "HardSigmoid", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "HardSigmoid", .since = 6, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "HardSigmoid", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_HardSwish
    {.op = "HardSwish", .since = 14, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "HardSwish", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Tanh
    {.op = "Tanh", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Tanh", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Tanh", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Softplus
    {.op = "Softplus", .since = 1, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Softplus", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Softsign
    {.op = "Softsign", .since = 1, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Softsign", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Gelu
    {.op = "Gelu", .since = 20, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_Erf
    {.op = "Erf", .since = 9, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {((OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16)) | OSC_TS_INT)},
     .init = osc_act_init, .infer = osc_act_infer, .run = osc_act_run},
    {.op = "Erf", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_act_init,
     .infer = osc_act_infer, .run = osc_act_run},
#endif
#if OSC_OP_PRelu
    {.op = "PRelu", .since = 1, .until = 5, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_prelu_init, .infer = osc_prelu_infer, .run = osc_prelu_run},
    {.op = "PRelu", .since = 6, .until = 6, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_prelu_init, .infer = osc_prelu_infer, .run = osc_prelu_run},
    {.op = "PRelu", .since = 7, .until = 8, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_prelu_init, .infer = osc_prelu_infer, .run = osc_prelu_run},
    {.op = "PRelu", .since = 9, .until = 15, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ARITH_V7}, .init = osc_prelu_init,
     .infer = osc_prelu_infer, .run = osc_prelu_run},
    {.op = "PRelu", .since = 16, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_ARITH_V13}, .init = osc_prelu_init,
     .infer = osc_prelu_infer, .run = osc_prelu_run},
#endif
#if OSC_OP_Exp
    {.op = "Exp", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Exp", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Exp", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Log
    {.op = "Log", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Log", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Log", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Sqrt
    {.op = "Sqrt", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Sqrt", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Sqrt", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Reciprocal
    {.op = "Reciprocal", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Reciprocal", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Reciprocal", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Floor
    {.op = "Floor", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Floor", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Floor", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Ceil
    {.op = "Ceil", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Ceil", .since = 6, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Ceil", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Pow
    {.op = "Pow", .since = 1, .until = 6, .inputs = {2, 2}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_pow_init, .infer = osc_pow_infer, .run = osc_pow_run},
    {.op = "Pow", .since = 7, .until = 11, .inputs = {2, 2}, .outputs = 1,
     .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_pow_init,
     .infer = osc_pow_infer, .run = osc_pow_run},
    {.op = "Pow", .since = 12, .until = 12, .inputs = {2, 2}, .outputs = 1,
     .types = {(OSC_TS_INDEX | (OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))),
               (OSC_TS_INT | (OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16)))},
     .init = osc_pow_init, .infer = osc_pow_infer, .run = osc_pow_run},
    {.op = "Pow", .since = 13, .until = 14, .inputs = {2, 2}, .outputs = 1,
     .types = {(OSC_TS_INDEX | OSC_TS_FLOAT),
               (OSC_TS_INT | (OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16)))},
     .init = osc_pow_init, .infer = osc_pow_infer, .run = osc_pow_run},
    {.op = "Pow", .since = 15, .until = OSC_OPSET_NEWEST, .inputs = {2, 2}, .outputs = 1,
     .types = {(OSC_TS_INDEX | OSC_TS_FLOAT), OSC_TS_REAL}, .init = osc_pow_init,
     .infer = osc_pow_infer, .run = osc_pow_run},
#endif
#if OSC_OP_Round
    {.op = "Round", .since = 11, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Round", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Sign
    {.op = "Sign", .since = 9, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Sign", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_REAL}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Sin
    {.op = "Sin", .since = 7, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Sin", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_Cos
    {.op = "Cos", .since = 7, .until = 21, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_math_init, .infer = osc_math_infer, .run = osc_math_run},
    {.op = "Cos", .since = 22, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_FLOAT}, .init = osc_math_init,
     .infer = osc_math_infer, .run = osc_math_run},
#endif
#if OSC_OP_IsInf
    {.op = "IsInf", .since = 10, .until = 19, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_IEEE}, .init = osc_isinf_init, .infer = osc_isinf_infer,
     .run = osc_isinf_run},
    {.op = "IsInf", .since = 20, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_FLOAT | OSC_TS_FLOAT8)}, .init = osc_isinf_init, .infer = osc_isinf_infer,
     .run = osc_isinf_run},
#endif
#if OSC_OP_IsNaN
    {.op = "IsNaN", .since = 9, .until = 12, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))}, .init = osc_isinf_init,
     .infer = osc_isinf_infer, .run = osc_isinf_run},
    {.op = "IsNaN", .since = 13, .until = 19, .inputs = {1, 1}, .outputs = 1,
     .types = {OSC_TS_FLOAT}, .init = osc_isinf_init, .infer = osc_isinf_infer,
     .run = osc_isinf_run},
    {.op = "IsNaN", .since = 20, .until = OSC_OPSET_NEWEST, .inputs = {1, 1}, .outputs = 1,
     .types = {(OSC_TS_FLOAT | OSC_TS_FLOAT8)}, .init = osc_isinf_init, .infer = osc_isinf_infer,
     .run = osc_isinf_run},
#endif
#if OSC_OP_Clip
    {.op = "Clip", .since = 1, .until = 5, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_clip_init, .infer = osc_clip_infer, .run = osc_clip_run},
    {.op = "Clip", .since = 6, .until = 10, .inputs = {1, 1}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_clip_init, .infer = osc_clip_infer, .run = osc_clip_run},
    {.op = "Clip", .since = 11, .until = 11, .inputs = {1, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_FLOAT & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_clip_init, .infer = osc_clip_infer, .run = osc_clip_run},
    {.op = "Clip", .since = 12, .until = 12, .inputs = {1, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {(OSC_TS_REAL & ~OSC_TS(OSC_BFLOAT16))},
     .init = osc_clip_init, .infer = osc_clip_infer, .run = osc_clip_run},
    {.op = "Clip", .since = 13, .until = OSC_OPSET_NEWEST, .inputs = {1, 3}, .outputs = 1,
     .flags = OSC_KF_INPLACE, .types = {OSC_TS_REAL}, .init = osc_clip_init,
     .infer = osc_clip_infer, .run = osc_clip_run},
#endif
#endif
