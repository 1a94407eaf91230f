/* gen_bad.h: the model builders and case writer of the malformed-suite generator (gen_bad.c), for
 * the case files besides it (gen_bad_dynamic.c). Everything lives in one bump arena: nothing is
 * freed. */
#ifndef OSC_GEN_BAD_H
#define OSC_GEN_BAD_H

#include <stddef.h>
#include <stdint.h>

#include "onnx.pb-c.h"

void *A(size_t n);                   /* zeroed arena bytes */
char *S(const char *s);              /* an arena copy of s */
char *F(const char *fmt, ...);       /* an arena string, at most 255 characters */

/* A model of the default domain at `opset` (none when <= 0) with an empty graph "g". */
Onnx__ModelProto *model(int64_t opset);
/* Graph inputs and outputs: rank -1 writes no shape; a negative dim is symbolic: -1 "N",
 * -2 "E", -3 "E2". */
void input(Onnx__ModelProto *m, const char *name, int32_t dtype, int rank, const int64_t *dims);
void output(Onnx__ModelProto *m, const char *name, int32_t dtype, int rank, const int64_t *dims);
/* A TensorProto with raw_data (string_data for strings: `raw` is then an array of C strings). */
Onnx__TensorProto *tensor(const char *name, int32_t dtype, int rank, const int64_t *dims,
                          const void *raw, size_t raw_len);
Onnx__TensorProto *init(Onnx__ModelProto *m, Onnx__TensorProto *t);
Onnx__NodeProto *node(Onnx__ModelProto *m, const char *op, const char *name, int nin,
                      const char *const *ins, int nout, const char *const *outs);
void attr_i(Onnx__NodeProto *n, const char *name, int64_t v);
void attr_s(Onnx__NodeProto *n, const char *name, const char *v);
/* A GRAPH attribute: the graph of `sub` (a model(0) used as a graph builder; its name set with
 * sub->graph->name). */
void attr_g(Onnx__NodeProto *n, const char *name, Onnx__ModelProto *sub);
void attr_ints(Onnx__NodeProto *n, const char *name, int count, const int64_t *v);

/* A run input: a tensor of `dtype` and shape with raw little-endian data. */
typedef struct tin {
    int32_t dtype;
    int rank;
    int64_t dims[4];
    const void *data;
    size_t nbytes;
} tin;

/* The texts ('\n' between them) the next case's error message must hold, with fusion and
 * without (NULL: none); the next emit writes them as `message` and `message_unfused`. */
void expect_msg(const char *fused, const char *unfused);
/* Writes case `name`: the model (bytes, or when model_bytes is NULL a symlink to `link`), its
 * inputs, `expect` ("status stage") and a MANIFEST line saying `why`. */
void emit_at(const char *name, const void *model_bytes, size_t len, const char *link,
             const char *status, const char *stage, const char *why, int n_in, const tin *ins);
void emit_model(const char *name, Onnx__ModelProto *m, const char *status, const char *stage,
                const char *why, int n_in, const tin *ins);

/* The cases of gen_bad_dynamic.c: dynamic-axes models through the symbolic fusion. */
void dynamic_cases(void);
/* The cases of gen_bad_loss.c: loss targets out of range, group normalisation shapes. */
void loss_cases(void);
/* The cases of gen_bad_control.c: If, Loop and Scan with bad subgraphs or bad data. */
void control_cases(void);
/* The cases of gen_bad_scat.c: Unique, MaxUnpool and Col2Im. */
void scat_cases(void);
/* The cases of gen_bad_layout.c: DepthToSpace, SpaceToDepth, CenterCropPad, Det and BitCast. */
void layout_cases(void);
/* The cases of gen_bad_select.c: Compress, Trilu, CumProd, EyeLike and ReverseSequence. */
void select_cases(void);
/* The cases of gen_bad_rope.c: RotaryEmbedding and RMSNormalization. */
void rope_cases(void);
/* The cases of gen_bad_attention.c: Attention's heads, masks, past caches and nonpad lengths. */
void attention_cases(void);
/* The cases of gen_bad_pool.c: the windowed and global pools and LRN. */
void pool_cases(void);
/* The cases of gen_bad_resize.c: Resize, GridSample and AffineGrid. */
void resize_cases(void);
/* The cases of gen_bad_conv.c: Conv, ConvTranspose and DeformConv shapes and attributes. */
void conv_cases(void);
/* The cases of gen_bad_detect.c: RoiAlign and NonMaxSuppression. */
void detect_cases(void);

#endif
