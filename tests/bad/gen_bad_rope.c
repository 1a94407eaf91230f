/* gen_bad_rope.c: malformed-suite cases of RotaryEmbedding and RMSNormalization: a position id
 * outside the cos/sin caches (OSC_ERR_INDEX at run, naming position and range, nothing
 * written), caches of the wrong shape, num_heads missing or not dividing the hidden size, an odd
 * or too large rotary_embedding_dim, a scale that does not broadcast, a bad stash_type, and a
 * valid control of each op. A decoder's key write, RotaryEmbedding -> Reshape -> Transpose ->
 * Cast -> TensorScatter (one CacheWrite when fused), with a write index past the cache and a
 * position id past the tables. */
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_x16[16] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};
static const float k_c8[8] = {1, 0.5f, 0, -1, 0.25f, 1, 0.5f, 0};

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* RotaryEmbedding-23 named "re" over x float of the given shape, caches cos/sin of shape cd
 * (rank cr) and int64 position ids p [1, 2] when with_pos; num_heads and rotary_embedding_dim
 * when > 0. */
static Onnx__ModelProto *rope_model(int xr, const int64_t *xd, int cr, const int64_t *cd,
                                    int with_pos, int64_t heads, int64_t rot) {
    Onnx__ModelProto *m = model(23);
    input(m, "x", OSC_FLOAT, xr, xd);
    input(m, "cos", OSC_FLOAT, cr, cd);
    input(m, "sin", OSC_FLOAT, cr, cd);
    if (with_pos) input(m, "p", OSC_INT64, 2, (const int64_t[]){1, 2});
    Onnx__NodeProto *n = node(m, "RotaryEmbedding", "re", with_pos ? 4 : 3,
                              (const char *[]){"x", "cos", "sin", "p"}, 1, (const char *[]){"y"});
    if (heads > 0) attr_i(n, "num_heads", heads);
    if (rot > 0) attr_i(n, "rotary_embedding_dim", rot);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void rotary_cases(void) {
    /* x [1, 2, 2, 4] (batch, heads, seq, head), caches [4, 2] */
    static const int64_t xd[4] = {1, 2, 2, 4}, cd[2] = {4, 2};
    static const int64_t ok[2] = {3, 0}, past[2] = {1, 4}, neg[2] = {-5, 0};
    tin ins[4] = {{OSC_FLOAT, 4, {1, 2, 2, 4}, k_x16, sizeof k_x16},
                  {OSC_FLOAT, 2, {4, 2}, k_c8, sizeof k_c8},
                  {OSC_FLOAT, 2, {4, 2}, k_c8, sizeof k_c8},
                  {OSC_INT64, 2, {1, 2}, ok, sizeof ok}};
    emit_model("rope_valid", rope_model(4, xd, 2, cd, 1, 0, 0), "OSC_OK", "run",
               "RotaryEmbedding-23 with position ids 3 and 0 of a 4-row cache (control)", 4,
               ins);
    msg("node 're' (RotaryEmbedding-23)\ninput 3 'position_ids' (p) position [0, 1]: value 4 is "
        "out of range [-4, 3] for the 4 rows of input 1 'cos_cache'");
    ins[3].data = past;
    emit_model("rope_position_past_cache", rope_model(4, xd, 2, cd, 1, 0, 0), "OSC_ERR_INDEX",
               "run", "RotaryEmbedding position id 4 of a 4-row cache", 4, ins);
    msg("position [0, 0]: value -5 is out of range [-4, 3]");
    ins[3].data = neg;
    emit_model("rope_position_negative_past_cache", rope_model(4, xd, 2, cd, 1, 0, 0),
               "OSC_ERR_INDEX", "run", "RotaryEmbedding position id -5 of a 4-row cache "
               "(-4 is the first row, as Gather counts)", 4, ins);
    msg("input 1 'cos_cache' (cos) has shape [4,3]; expected (max_position_id_plus_1, 2) with "
        "input 3 'position_ids'");
    emit_model("rope_cache_wrong_width", rope_model(4, xd, 2, (const int64_t[]){4, 3}, 1, 0, 0),
               "OSC_ERR_SHAPE", "load", "RotaryEmbedding caches of 3 columns for a head of 4",
               0, NULL);
    msg("expected (batch, seq, 2) without input 3 'position_ids'");
    emit_model("rope_cache_2d_without_positions", rope_model(4, xd, 2, cd, 0, 0, 0),
               "OSC_ERR_SHAPE", "load", "RotaryEmbedding without position ids, 2-D caches "
               "(3-D needed)", 0, NULL);
    msg("input 0 'X' (x) is 3-D, so attribute 'num_heads' is required");
    emit_model("rope_3d_without_num_heads",
               rope_model(3, (const int64_t[]){1, 2, 8}, 2, cd, 1, 0, 0), "OSC_ERR_MODEL",
               "load", "RotaryEmbedding of a 3-D input without num_heads", 0, NULL);
    msg("input 0 'X' (x) has hidden size 8 (dim 2), which attribute 'num_heads' = 3 does not "
        "divide");
    emit_model("rope_num_heads_not_dividing",
               rope_model(3, (const int64_t[]){1, 2, 8}, 2, cd, 1, 3, 0), "OSC_ERR_SHAPE",
               "load", "RotaryEmbedding hidden size 8 in 3 heads", 0, NULL);
    msg("attribute 'rotary_embedding_dim' = 3 is odd");
    emit_model("rope_rotary_dim_odd", rope_model(4, xd, 2, cd, 1, 0, 3), "OSC_ERR_MODEL", "load",
               "RotaryEmbedding rotating 3 elements (pairs only)", 0, NULL);
    msg("attribute 'rotary_embedding_dim' = 6 is more than the head size 4");
    emit_model("rope_rotary_dim_past_head",
               rope_model(4, xd, 2, (const int64_t[]){4, 3}, 1, 0, 6), "OSC_ERR_SHAPE", "load",
               "RotaryEmbedding rotating 6 elements of a head of 4", 0, NULL);
}

/* The key write of a decoder step: x float [1, 1, 8] rotated ("re", 2 heads of 4, position
 * ids p [1, 1] into cos/sin [4, 2]), reshaped to [1, 1, 2, 4], transposed to [1, 2, 1, 4], cast
 * to float16 and written by TensorScatter "ts" into cache [1, 2, 3, 4] at wi [1]. */
static Onnx__ModelProto *cache_write_model(void) {
    Onnx__ModelProto *m = model(24);
    input(m, "x", OSC_FLOAT, 3, (const int64_t[]){1, 1, 8});
    input(m, "cos", OSC_FLOAT, 2, (const int64_t[]){4, 2});
    input(m, "sin", OSC_FLOAT, 2, (const int64_t[]){4, 2});
    input(m, "p", OSC_INT64, 2, (const int64_t[]){1, 1});
    input(m, "cache", OSC_FLOAT16, 4, (const int64_t[]){1, 2, 3, 4});
    input(m, "wi", OSC_INT64, 1, (const int64_t[]){1});
    static const int64_t shape[4] = {1, 1, 2, 4}, perm[4] = {0, 2, 1, 3};
    init(m, tensor("shape", OSC_INT64, 1, (const int64_t[]){4}, shape, sizeof shape));
    Onnx__NodeProto *n = node(m, "RotaryEmbedding", "re", 4,
                              (const char *[]){"x", "cos", "sin", "p"}, 1, (const char *[]){"y"});
    attr_i(n, "num_heads", 2);
    node(m, "Reshape", "rs", 2, (const char *[]){"y", "shape"}, 1, (const char *[]){"y4"});
    n = node(m, "Transpose", "tr", 1, (const char *[]){"y4"}, 1, (const char *[]){"yt"});
    attr_ints(n, "perm", 4, perm);
    n = node(m, "Cast", "cast", 1, (const char *[]){"yt"}, 1, (const char *[]){"u"});
    attr_i(n, "to", OSC_FLOAT16);
    node(m, "TensorScatter", "ts", 3, (const char *[]){"cache", "u", "wi"}, 1,
         (const char *[]){"cache_out"});
    output(m, "cache_out", OSC_FLOAT16, 4, (const int64_t[]){1, 2, 3, 4});
    return m;
}

static void cache_write_cases(void) {
    static const uint16_t cache[24];
    static const int64_t p_ok[1] = {2}, p_past[1] = {4}, w_ok[1] = {2}, w_past[1] = {3};
    tin ins[6] = {{OSC_FLOAT, 3, {1, 1, 8}, k_x16, 8 * sizeof(float)},
                  {OSC_FLOAT, 2, {4, 2}, k_c8, sizeof k_c8},
                  {OSC_FLOAT, 2, {4, 2}, k_c8, sizeof k_c8},
                  {OSC_INT64, 2, {1, 1}, p_ok, sizeof p_ok},
                  {OSC_FLOAT16, 4, {1, 2, 3, 4}, cache, sizeof cache},
                  {OSC_INT64, 1, {1}, w_ok, sizeof w_ok}};
    emit_model("cache_write_valid", cache_write_model(), "OSC_OK", "run",
               "a decoder's rotated key cast to float16 and written at the cache's last row "
               "(one CacheWrite when fused; control)", 6, ins);
    expect_msg("node 'ts' (CacheWrite-1)\ninput 5 'write_indices' (wi): value 3 at batch "
               "position 0 is out of range [0, 2]",
               "node 'ts' (TensorScatter-24)\ninput 2 'write_indices' (wi): value 3 at batch "
               "position 0 is out of range [0, 2]");
    ins[5].data = w_past;
    emit_model("cache_write_index_past_cache", cache_write_model(), "OSC_ERR_INDEX", "run",
               "a decoder's rotated key written at row 3 of a 3-row cache", 6, ins);
    expect_msg("node 'ts' (CacheWrite-1)\ninput 4 'position_ids' (p) position [0, 0]: value 4 "
               "is out of range [-4, 3] for the 4 rows of input 2 'cos_cache'",
               "node 're' (RotaryEmbedding-23)\ninput 3 'position_ids' (p) position [0, 0]: "
               "value 4 is out of range [-4, 3] for the 4 rows of input 1 'cos_cache'");
    ins[5].data = w_ok, ins[3].data = p_past;
    emit_model("cache_write_position_past_table", cache_write_model(), "OSC_ERR_INDEX", "run",
               "a decoder's key rotated by position 4 of 4-row tables, then written", 6, ins);
}

/* RMSNormalization-23 named "rn" over x float [2, 4] and scale s float of shape sd (rank sr);
 * stash_type when > 0. */
static Onnx__ModelProto *rms_model(int sr, const int64_t *sd, int64_t stash) {
    Onnx__ModelProto *m = model(23);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){2, 4});
    input(m, "s", OSC_FLOAT, sr, sd);
    Onnx__NodeProto *n = node(m, "RMSNormalization", "rn", 2, (const char *[]){"x", "s"}, 1,
                              (const char *[]){"y"});
    if (stash > 0) attr_i(n, "stash_type", stash);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void rms_cases(void) {
    const tin ins[2] = {{OSC_FLOAT, 2, {2, 4}, k_x16, 8 * sizeof(float)},
                        {OSC_FLOAT, 1, {4}, k_c8, 4 * sizeof(float)}};
    emit_model("rmsnorm_valid", rms_model(1, (const int64_t[]){4}, 0), "OSC_OK", "run",
               "RMSNormalization-23 over the last axis (control)", 2, ins);
    msg("node 'rn' (RMSNormalization-23)\ninput 1 'scale' (s) has shape [3], which does not "
        "broadcast to input 0 'X' [2,4]");
    emit_model("rmsnorm_scale_not_broadcasting", rms_model(1, (const int64_t[]){3}, 0),
               "OSC_ERR_SHAPE", "load", "RMSNormalization scale [3] for X [2, 4]", 0, NULL);
    msg("attribute 'stash_type' = 6; allowed: 1 (float), 10 (float16), 11 (double) or 16 "
        "(bfloat16)");
    emit_model("rmsnorm_stash_int32", rms_model(1, (const int64_t[]){4}, 6), "OSC_ERR_MODEL",
               "load", "RMSNormalization stash_type 6 (int32)", 0, NULL);
}

void rope_cases(void) {
    rotary_cases();
    cache_write_cases();
    rms_cases();
}
