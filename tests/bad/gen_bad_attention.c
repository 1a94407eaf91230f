/* gen_bad_attention.c: malformed-suite cases of Attention: q heads not a multiple of the kv
 * heads, a hidden size the head count does not divide, 3-D inputs without head counts, a mask
 * that does not broadcast, past caches that disagree or come alone, nonpad_kv_seqlen outside
 * [0, kv length], a qk_matmul_output_mode out of range, and a valid control. */
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_z[64];

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* One Attention node "at" at `opset` over float inputs q, k, v, and when their rank is not 0
 * m (the mask), pk, pv (the past) and np (int64 nonpad_kv_seqlen); output y. */
typedef struct shp {
    int rank;
    int64_t dims[4];
} shp;
static Onnx__ModelProto *attn_model(int64_t opset, shp q, shp k, shp v, shp m, shp pk, shp pv,
                                    shp np) {
    Onnx__ModelProto *mo = model(opset);
    const char *names[7] = {"q", "k", "v", "m", "pk", "pv", "np"};
    const shp s[7] = {q, k, v, m, pk, pv, np};
    const char *ins[7];
    int n_in = 3;
    for (int i = 0; i < 7; i++) {
        ins[i] = i < 3 || s[i].rank ? names[i] : "";
        if (!ins[i][0]) continue;
        input(mo, names[i], i == 6 ? OSC_INT64 : OSC_FLOAT, s[i].rank, s[i].dims);
        n_in = i + 1;
    }
    node(mo, "Attention", "at", n_in, ins, 1, (const char *[]){"y"});
    output(mo, "y", OSC_FLOAT, -1, NULL);
    return mo;
}
#define S4(a, b, c, d) ((shp){4, {a, b, c, d}})
#define S3(a, b, c) ((shp){3, {a, b, c}})
#define S2(a, b) ((shp){2, {a, b}})
#define NO ((shp){0, {0}})

static Onnx__NodeProto *first_node(Onnx__ModelProto *m) { return m->graph->node[0]; }

void attention_cases(void) {
    tin ins[7] = {{OSC_FLOAT, 4, {1, 4, 2, 4}, k_z, 128}, {OSC_FLOAT, 4, {1, 2, 3, 4}, k_z, 96},
                  {OSC_FLOAT, 4, {1, 2, 3, 4}, k_z, 96}};
    Onnx__ModelProto *m = attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4), S4(1, 2, 3, 4), NO, NO,
                                     NO, NO);
    attr_i(first_node(m), "is_causal", 1);
    emit_model("attention_valid", m, "OSC_OK", "run",
               "Attention-24, 4 q heads over 2 kv heads, causal (control)", 3, ins);
    msg("node 'at' (Attention-24)\ninput 0 'Q' (q) has 3 heads and inputs 1 'K' (k), 2 'V' (v) "
        "have 2: the q heads must be a multiple of the kv heads");
    emit_model("attention_heads_not_multiple", attn_model(24, S4(1, 3, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), NO, NO, NO, NO), "OSC_ERR_SHAPE", "load",
               "Attention with 3 q heads over 2 kv heads", 0, NULL);
    msg("input 0 'Q' (q) has shape [1,2,10]: its hidden size 10 is not a multiple of "
        "attribute 'q_num_heads' = 4");
    m = attn_model(23, S3(1, 2, 10), S3(1, 3, 10), S3(1, 3, 10), NO, NO, NO, NO);
    attr_i(first_node(m), "q_num_heads", 4);
    attr_i(first_node(m), "kv_num_heads", 2);
    emit_model("attention_hidden_not_divisible", m, "OSC_ERR_SHAPE", "load",
               "Attention of 3-D Q with hidden size 10 over 4 heads", 0, NULL);
    msg("3-D inputs need attributes 'q_num_heads' and 'kv_num_heads' (q_num_heads absent)");
    emit_model("attention_3d_without_heads", attn_model(23, S3(1, 2, 8), S3(1, 3, 8),
               S3(1, 3, 8), NO, NO, NO, NO), "OSC_ERR_MODEL", "load",
               "Attention of 3-D inputs without q_num_heads and kv_num_heads", 0, NULL);
    msg("input 3 'attn_mask' (m) has shape [3,3], which does not broadcast to (batch, "
        "q_num_heads, q_sequence_length, total_sequence_length) = (1, 4, 2, 3): dim 0 is 3; "
        "allowed: 1 or 2");
    emit_model("attention_mask_not_broadcast", attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), S2(3, 3), NO, NO, NO), "OSC_ERR_SHAPE", "load",
               "Attention with a [3,3] mask for 2 queries", 0, NULL);
    msg("input 3 'attn_mask' (m) has shape [2,4], which does not broadcast to (batch, "
        "q_num_heads, q_sequence_length, total_sequence_length) = (1, 4, 2, 3): dim 1 is 4; "
        "allowed: 0 to 3");
    emit_model("attention_mask_too_long", attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), S2(2, 4), NO, NO, NO), "OSC_ERR_SHAPE", "load",
               "Attention-24 with a mask of 4 keys over 3", 0, NULL);
    msg("input 5 'past_value' (pv) has shape [1,2,3,4]: dim 2 is 3; it must be past_key's "
        "length (2)");
    emit_model("attention_past_lengths_differ", attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), NO, S4(1, 2, 2, 4), S4(1, 2, 3, 4), NO), "OSC_ERR_SHAPE",
               "load", "Attention with past_key of 2 keys and past_value of 3", 0, NULL);
    msg("input 4 'past_key' is given without input 5 'past_value'; they are used together");
    emit_model("attention_past_key_alone", attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), NO, S4(1, 2, 2, 4), NO, NO), "OSC_ERR_MODEL", "load",
               "Attention with past_key and no past_value", 0, NULL);
    msg("attribute 'qk_matmul_output_mode' = 5; allowed: 0 to 3");
    m = attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4), S4(1, 2, 3, 4), NO, NO, NO, NO);
    attr_i(first_node(m), "qk_matmul_output_mode", 5);
    emit_model("attention_mode_out_of_range", m, "OSC_ERR_MODEL", "load",
               "Attention with qk_matmul_output_mode 5", 0, NULL);
    static const int64_t beyond[1] = {4}, negative[1] = {-1};
    ins[3] = (tin){OSC_INT64, 1, {1}, beyond, 8};
    msg("node 'at' (Attention-24)\ninput 6 'nonpad_kv_seqlen' (np) holds 4 at position 0; "
        "allowed: 0 to the kv sequence length 3");
    emit_model("attention_nonpad_beyond_kv", attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), NO, NO, NO, (shp){1, {1}}), "OSC_ERR_INDEX", "run",
               "Attention with nonpad_kv_seqlen 4 over 3 keys", 4, ins);
    ins[3] = (tin){OSC_INT64, 1, {1}, negative, 8};
    msg("input 6 'nonpad_kv_seqlen' (np) holds -1 at position 0; allowed: 0 to the kv "
        "sequence length 3");
    emit_model("attention_nonpad_negative", attn_model(24, S4(1, 4, 2, 4), S4(1, 2, 3, 4),
               S4(1, 2, 3, 4), NO, NO, NO, (shp){1, {1}}), "OSC_ERR_INDEX", "run",
               "Attention with nonpad_kv_seqlen -1", 4, ins);
}
