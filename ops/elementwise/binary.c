/* binary.c: Add, Sub, Mul, Div, Mod, Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or,
 * Xor, BitShift, BitwiseAnd, BitwiseOr, BitwiseXor: two inputs, multidirectional broadcasting
 * (Xor-1: version 1's broadcast/axis attributes), loops generated for every dtype from
 * OSC_STD_TYPES. */
#include <math.h>
#include <string.h>

#include "binary.h"
#include "ew_common.h"

OSC_KERNEL_DECLARE(osc_bin)

enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_FMOD, OP_EQ, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND,
    OP_OR, OP_XOR, OP_SHL, OP_SHR, OP_BAND, OP_BOR, OP_BXOR, OP_COUNT
};

typedef struct bin_op {
    const char *name; /* for messages */
    int32_t op;      /* Mod: OP_MOD, turned into OP_FMOD by the attribute; BitShift: OP_SHL,
                      * turned into OP_SHR by the attribute */
    bool to_bool;    /* output dtype is bool, not the inputs' */
} bin_op;

/* by the row's variant (binary.h) */
static const bin_op k_ops[OSC_BIN_END] = {
    [OSC_BIN_ADD] = {"Add", OP_ADD, false},
    [OSC_BIN_SUB] = {"Sub", OP_SUB, false},
    [OSC_BIN_MUL] = {"Mul", OP_MUL, false},
    [OSC_BIN_DIV] = {"Div", OP_DIV, false},
    [OSC_BIN_MOD] = {"Mod", OP_MOD, false},
    [OSC_BIN_EQUAL] = {"Equal", OP_EQ, true},
    [OSC_BIN_LESS] = {"Less", OP_LT, true},
    [OSC_BIN_LESS_EQUAL] = {"LessOrEqual", OP_LE, true},
    [OSC_BIN_GREATER] = {"Greater", OP_GT, true},
    [OSC_BIN_GREATER_EQUAL] = {"GreaterOrEqual", OP_GE, true},
    [OSC_BIN_AND] = {"And", OP_AND, true},
    [OSC_BIN_OR] = {"Or", OP_OR, true},
    [OSC_BIN_XOR] = {"Xor", OP_XOR, true},
    [OSC_BIN_BITSHIFT] = {"BitShift", OP_SHL, false},
    [OSC_BIN_BITAND] = {"BitwiseAnd", OP_BAND, false},
    [OSC_BIN_BITOR] = {"BitwiseOr", OP_BOR, false},
    [OSC_BIN_BITXOR] = {"BitwiseXor", OP_BXOR, false},
};

static const char *const k_what[2] = {"A", "B"};

/* ---- Scalar rules per dtype class: S_<CLS>_<OP>(T, x, y). ---- */

/* Integers: add/sub/mul wrap modulo 2^bits (computed in uint64_t, no signed overflow). Division
 * truncates toward zero as C does; a zero divisor never gets here (run scans for it first);
 * INT_MIN / -1 wraps to INT_MIN and INT_MIN % -1 is 0, both without the C trap. */
#define S_SINT_ADD(T, x, y) ((T)((uint64_t)(x) + (uint64_t)(y)))
#define S_SINT_SUB(T, x, y) ((T)((uint64_t)(x) - (uint64_t)(y)))
#define S_SINT_MUL(T, x, y) ((T)((uint64_t)(x) * (uint64_t)(y)))
#define S_SINT_DIV(T, x, y) ((y) == -1 ? (T)(0 - (uint64_t)(x)) : (T)((x) / (y)))
#define S_SINT_MOD(T, x, y) ((T)mod_floor((int64_t)(x), (int64_t)(y)))
#define S_SINT_FMOD(T, x, y) ((y) == -1 ? (T)0 : (T)((x) % (y)))
#define S_SINT_EQ(T, x, y) ((uint8_t)((x) == (y)))
#define S_SINT_LT(T, x, y) ((uint8_t)((x) < (y)))
#define S_SINT_LE(T, x, y) ((uint8_t)((x) <= (y)))
#define S_SINT_GT(T, x, y) ((uint8_t)((x) > (y)))
#define S_SINT_GE(T, x, y) ((uint8_t)((x) >= (y)))
#define S_UINT_ADD S_SINT_ADD
#define S_UINT_SUB S_SINT_SUB
#define S_UINT_MUL S_SINT_MUL
#define S_UINT_DIV(T, x, y) ((T)((x) / (y)))
#define S_UINT_MOD(T, x, y) ((T)((x) % (y)))
#define S_UINT_FMOD S_UINT_MOD
#define S_UINT_EQ S_SINT_EQ
#define S_UINT_LT S_SINT_LT
#define S_UINT_LE S_SINT_LE
#define S_UINT_GT S_SINT_GT
#define S_UINT_GE S_SINT_GE

/* Bitwise ops on the two's complement bits; shifts (unsigned types only) by Y >= the bit width
 * give 0 in both directions (every bit shifted out, as numpy does; C leaves it undefined). */
#define S_SINT_BAND(T, x, y) ((T)((x) & (y)))
#define S_SINT_BOR(T, x, y) ((T)((x) | (y)))
#define S_SINT_BXOR(T, x, y) ((T)((x) ^ (y)))
#define S_UINT_BAND S_SINT_BAND
#define S_UINT_BOR S_SINT_BOR
#define S_UINT_BXOR S_SINT_BXOR
#define S_UINT_SHL(T, x, y) ((y) >= sizeof(T) * 8 ? (T)0 : (T)((uint64_t)(x) << (y)))
#define S_UINT_SHR(T, x, y) ((y) >= sizeof(T) * 8 ? (T)0 : (T)((x) >> (y)))

/* numpy's integer mod: the remainder takes the divisor's sign. */
static inline int64_t mod_floor(int64_t x, int64_t y) {
    if (y == -1) return 0;
    int64_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
}

/* IEEE float/double; a zero divisor gives Inf/NaN as IEEE says. fmod is exact, so computing
 * it in double is exact for float too. */
#define S_FLOAT_ADD(T, x, y) ((T)((x) + (y)))
#define S_FLOAT_SUB(T, x, y) ((T)((x) - (y)))
#define S_FLOAT_MUL(T, x, y) ((T)((x) * (y)))
#define S_FLOAT_DIV(T, x, y) ((T)((x) / (y)))
#define S_FLOAT_FMOD(T, x, y) ((T)fmod((double)(x), (double)(y)))
#define S_FLOAT_EQ S_SINT_EQ
#define S_FLOAT_LT S_SINT_LT
#define S_FLOAT_LE S_SINT_LE
#define S_FLOAT_GT S_SINT_GT
#define S_FLOAT_GE S_SINT_GE

/* float16/bfloat16: the float rule on the widened values, rounded back to nearest even (exact:
 * float's 24 bits are >= 2p+2 for both, so the double rounding is innocuous). */
#define HALF(TO, FROM, OP, x, y) TO(S_FLOAT_##OP(float, FROM(x), FROM(y)))
#define HCMP(FROM, OP, x, y) S_FLOAT_##OP(float, FROM(x), FROM(y))
#define S_F16_ADD(T, x, y) HALF(OSC_F2H, OSC_H2F, ADD, x, y)
#define S_F16_SUB(T, x, y) HALF(OSC_F2H, OSC_H2F, SUB, x, y)
#define S_F16_MUL(T, x, y) HALF(OSC_F2H, OSC_H2F, MUL, x, y)
#define S_F16_DIV(T, x, y) HALF(OSC_F2H, OSC_H2F, DIV, x, y)
#define S_F16_FMOD(T, x, y) HALF(OSC_F2H, OSC_H2F, FMOD, x, y)
#define S_F16_EQ(T, x, y) HCMP(OSC_H2F, EQ, x, y)
#define S_F16_LT(T, x, y) HCMP(OSC_H2F, LT, x, y)
#define S_F16_LE(T, x, y) HCMP(OSC_H2F, LE, x, y)
#define S_F16_GT(T, x, y) HCMP(OSC_H2F, GT, x, y)
#define S_F16_GE(T, x, y) HCMP(OSC_H2F, GE, x, y)
#define S_BF16_ADD(T, x, y) HALF(OSC_F2B, OSC_B2F, ADD, x, y)
#define S_BF16_SUB(T, x, y) HALF(OSC_F2B, OSC_B2F, SUB, x, y)
#define S_BF16_MUL(T, x, y) HALF(OSC_F2B, OSC_B2F, MUL, x, y)
#define S_BF16_DIV(T, x, y) HALF(OSC_F2B, OSC_B2F, DIV, x, y)
#define S_BF16_FMOD(T, x, y) HALF(OSC_F2B, OSC_B2F, FMOD, x, y)
#define S_BF16_EQ(T, x, y) HCMP(OSC_B2F, EQ, x, y)
#define S_BF16_LT(T, x, y) HCMP(OSC_B2F, LT, x, y)
#define S_BF16_LE(T, x, y) HCMP(OSC_B2F, LE, x, y)
#define S_BF16_GT(T, x, y) HCMP(OSC_B2F, GT, x, y)
#define S_BF16_GE(T, x, y) HCMP(OSC_B2F, GE, x, y)

/* bool (bytes 0/1; any nonzero byte counts as true) */
#define S_BOOL_EQ(T, x, y) ((uint8_t)(!(x) == !(y)))
#define S_BOOL_AND(T, x, y) ((uint8_t)((x) && (y)))
#define S_BOOL_OR(T, x, y) ((uint8_t)((x) || (y)))
#define S_BOOL_XOR(T, x, y) ((uint8_t)(!(x) != !(y)))

/* strings: equal bytes */
static inline uint8_t str_eq(osc_string x, osc_string y) {
    return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}
#define S_STRING_EQ(T, x, y) str_eq(x, y)

/* ---- Loops: one per (dtype, op) the class defines, from the type list. ---- */
#define DEF(E, T, CLS, OP, OT) OSC_EW_LOOP2(bin_##E##_##OP, T, OT, S_##CLS##_##OP(T, x, y))
/* float and double arithmetic: rows with one side a single value split out (ew_common.h) */
#define DEF_ARITH_FLOAT(E, T, OP) OSC_EW_LOOP2_SPLIT(bin_##E##_##OP, T, T, S_FLOAT_##OP(T, x, y))
#define DEF_ARITH_F16(E, T, OP) DEF(E, T, F16, OP, T)
#define DEF_ARITH_BF16(E, T, OP) DEF(E, T, BF16, OP, T)
#define DEF_ARITH_SINT(E, T, OP) DEF(E, T, SINT, OP, T)
#define DEF_ARITH_UINT(E, T, OP) DEF(E, T, UINT, OP, T)
#define DEF_NUM(E, T, CLS)                                                                  \
    DEF_ARITH_##CLS(E, T, ADD) DEF_ARITH_##CLS(E, T, SUB) DEF_ARITH_##CLS(E, T, MUL)        \
    DEF_ARITH_##CLS(E, T, DIV) DEF(E, T, CLS, FMOD, T) DEF(E, T, CLS, EQ, uint8_t)          \
    DEF(E, T, CLS, LT, uint8_t) DEF(E, T, CLS, LE, uint8_t) DEF(E, T, CLS, GT, uint8_t)     \
    DEF(E, T, CLS, GE, uint8_t)
#define DEFINE_FLOAT(E, T) DEF_NUM(E, T, FLOAT)
#define DEFINE_F16(E, T) DEF_NUM(E, T, F16)
#define DEFINE_BF16(E, T) DEF_NUM(E, T, BF16)
#define DEF_INT(E, T, CLS)                                                                  \
    DEF_NUM(E, T, CLS) DEF(E, T, CLS, MOD, T) DEF(E, T, CLS, BAND, T) DEF(E, T, CLS, BOR, T) \
    DEF(E, T, CLS, BXOR, T)
#define DEFINE_SINT(E, T) DEF_INT(E, T, SINT)
#define DEFINE_UINT(E, T) DEF_INT(E, T, UINT) DEF(E, T, UINT, SHL, T) DEF(E, T, UINT, SHR, T)
#define DEFINE_BOOL(E, T)                                                                   \
    DEF(E, T, BOOL, EQ, uint8_t) DEF(E, T, BOOL, AND, uint8_t) DEF(E, T, BOOL, OR, uint8_t) \
    DEF(E, T, BOOL, XOR, uint8_t)
#define DEFINE_STRING(E, T) DEF(E, T, STRING, EQ, uint8_t)
#define DEFINE_COMPLEX(E, T)
#define DEFINE(E, T, CLS) DEFINE_##CLS(E, T)
OSC_STD_TYPES(DEFINE)

/* Each class's loops by operation; NULL where the class has none. */
#define TAB_NUM_(E)                                                                         \
    [OP_ADD] = bin_##E##_ADD, [OP_SUB] = bin_##E##_SUB, [OP_MUL] = bin_##E##_MUL,            \
    [OP_DIV] = bin_##E##_DIV, [OP_FMOD] = bin_##E##_FMOD, [OP_EQ] = bin_##E##_EQ,            \
    [OP_LT] = bin_##E##_LT, [OP_LE] = bin_##E##_LE, [OP_GT] = bin_##E##_GT,                  \
    [OP_GE] = bin_##E##_GE
#define TAB_INT_(E)                                                                         \
    TAB_NUM_(E), [OP_MOD] = bin_##E##_MOD, [OP_BAND] = bin_##E##_BAND,                       \
    [OP_BOR] = bin_##E##_BOR, [OP_BXOR] = bin_##E##_BXOR
#define TAB_FLOAT(E) {TAB_NUM_(E)}
#define TAB_F16(E) {TAB_NUM_(E)}
#define TAB_BF16(E) {TAB_NUM_(E)}
#define TAB_SINT(E) {TAB_INT_(E)}
#define TAB_UINT(E) {TAB_INT_(E), [OP_SHL] = bin_##E##_SHL, [OP_SHR] = bin_##E##_SHR}
#define TAB_BOOL(E)                                                                         \
    {[OP_EQ] = bin_##E##_EQ, [OP_AND] = bin_##E##_AND, [OP_OR] = bin_##E##_OR,               \
     [OP_XOR] = bin_##E##_XOR}
#define TAB_STRING(E) {[OP_EQ] = bin_##E##_EQ}
#define TAB_COMPLEX(E) {NULL}

static osc_ew_loop2 loop_get(int32_t dtype, int32_t op) {
#define CASE(E, T, CLS)                                                \
    case E: {                                                          \
        static const osc_ew_loop2 fns[OP_COUNT] = TAB_##CLS(E);        \
        return fns[op];                                                \
    }
    switch (dtype) {
        OSC_STD_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

/* float, double, float16, bfloat16 */
static bool is_float(int32_t dtype) {
    return dtype >= 0 && dtype < 64 && (OSC_TS_FLOAT & OSC_TS(dtype)) != 0;
}

/* What init parses: the op (from the row's variant), the dtypes its version accepts and
 * Mod's fmod. */
typedef struct bin_params {
    const bin_op *op;
    osc_typeset types;
    bool fmod;           /* Mod: true = C fmod, false = numpy (the divisor's sign) */
    bool right;          /* BitShift: direction RIGHT */
    bool legacy;         /* version 1 (Xor-1): B broadcast by the attributes */
    osc_ew_legacy lg;
} bin_params;

/* BitShift's 'direction' (required): LEFT or RIGHT, into *right. */
static osc_status parse_direction(osc_kctx *k, const osc_node *node, bool *right) {
    const char *dir;
    if (!osc_node_attr(node, "direction"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'direction' is required but missing "
                         "(allowed: 'LEFT' or 'RIGHT')");
    osc_status st = osc_attr_str(k, node, "direction", "", &dir);
    if (st) return st;
    *right = strcmp(dir, "RIGHT") == 0;
    if (!*right && strcmp(dir, "LEFT") != 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'direction' = '%.64s'; allowed: 'LEFT' "
                         "or 'RIGHT'", dir);
    return OSC_OK;
}

osc_status osc_bin_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_mod[] = {"fmod", NULL}, *const k_shift[] = {"direction", NULL};
    const int32_t v = k->row->variant;
    if (v < OSC_BIN_ADD || v >= OSC_BIN_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no binary operation (variant %d)",
                         (int)v);
    const bin_op *op = &k_ops[v];
    bin_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->legacy = k->since_version < 7; /* only Xor has a row before 7 */
    osc_status st = op->op == OP_MOD   ? osc_attr_known(k, node, k_mod)
                    : op->op == OP_SHL ? osc_attr_known(k, node, k_shift)
                                       : osc_ew_legacy_init(k, node, p->legacy, &p->lg);
    if (st) return st;
    int64_t fmod_attr = 0;
    if (op->op == OP_MOD) {
        st = osc_attr_int(k, node, "fmod", 0, &fmod_attr);
        if (st) return st;
        if (fmod_attr != 0 && fmod_attr != 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'fmod' = %lld; allowed: 0 or 1",
                             (long long)fmod_attr);
    }
    if (op->op == OP_SHL) {
        st = parse_direction(k, node, &p->right);
        if (st) return st;
    }
    p->op = op;
    p->types = osc_kernel_types(k->row, 0);
    p->fmod = fmod_attr != 0;
    *params = p;
    return OSC_OK;
}

/* What validate hands run: the loop, the op code and B as it broadcasts (Xor-1: reshaped by
 * the version's attributes; else input 1 itself). */
typedef struct bin_plan {
    osc_ew_loop2 loop;
    int32_t op;
    osc_tensor b;
} bin_plan;

/* Everything infer promises and run relies on: dtypes, the broadcast shape (into *want), the
 * loop and the op code. O(rank), so run repeats it. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, bin_plan *plan) {
    const bin_params *p = k->params;
    const bin_op *op = p->op;
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 2 && !st; i++) st = osc_need_input(k, in, n_in, i, k_what[i]);
    if (!st) st = osc_ew_check_type(k, 0, "A", in[0], p->types);
    if (!st) st = osc_check_same_dtype(k, 0, "A", in[0], 1, "B", in[1]);
    if (st) return st;
    int32_t code = op->op;
    if (code == OP_SHL && p->right) code = OP_SHR;
    if (code == OP_MOD) {
        if (p->fmod) code = OP_FMOD;
        else if (is_float(in[0]->dtype))
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'fmod' is 0 but input 0 'A' (%s) has "
                             "dtype %s; the spec requires fmod=1 for floating-point inputs",
                             osc_kinput_name(k, 0), osc_dtype_get(in[0]->dtype)->name);
    }
    plan->b = *in[1];
    if (p->legacy) st = osc_ew_legacy_b(k, &p->lg, "A", in[0], "B", in[1], &plan->b);
    if (st) return st;
    memset(want, 0, sizeof *want);
    want->rank = in[0]->rank;
    memcpy(want->dims, in[0]->dims, sizeof want->dims);
    st = osc_bcast_merge(k, want, 1, "B", &plan->b);
    if (st) return st;
    want->dtype = op->to_bool ? OSC_BOOL : in[0]->dtype;
    plan->loop = loop_get(in[0]->dtype, code);
    if (!plan->loop)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "no %s loop for dtype %s", op->name,
                         osc_dtype_get(in[0]->dtype)->name);
    plan->op = code;
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_bin, validate, bin_plan)

/* Integer division and remainder: fails on the first zero divisor, before anything is written.
 * Every element of B feeds some output element once the output is non-empty. Zero is the
 * all-zero byte pattern for every integer dtype, so one loop serves them all. */
static osc_status check_divisor(osc_kctx *k, const osc_tensor *b) {
    const size_t esize = osc_dtype_get(b->dtype)->bits / 8;
    const int64_t n = osc_tensor_count(b);
    const unsigned char *p = b->data;
    for (int64_t i = 0; i < n; i++, p += esize) {
        size_t z = 0;
        while (z < esize && p[z] == 0) z++;
        if (z == esize)
            return osc_kfail(k, OSC_ERR_ARG, "input 1 'B' (%s): division by zero at flat "
                             "position %lld (value 0; an integer divisor must be nonzero)",
                             osc_kinput_name(k, 1), (long long)i);
    }
    return OSC_OK;
}

osc_status osc_bin_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    osc_tensor want;
    bin_plan plan;
    osc_status st = validate(k, in, n_in, &want, &plan);
    if (!st) st = osc_ew_check_io(k, in, 2, k_what, out, n_out, &want);
    if (st) return st;
    osc_bcast_it it;
    const osc_tensor *ab[2] = {in[0], &plan.b};
    if (!osc_bcast_begin(&it, out, 2, ab)) return OSC_OK; /* empty output */
    const int32_t op = plan.op;
    if ((op == OP_DIV || op == OP_MOD || op == OP_FMOD) && !is_float(in[1]->dtype)) {
        st = check_divisor(k, in[1]);
        if (st) return st;
    }
    /* Validation is complete: from here on the output is written. */
    osc_ew_run2(k, &it, plan.loop, out->data, in[0]->data, in[1]->data, out->nbytes);
    return OSC_OK;
}
