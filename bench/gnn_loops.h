/* gnn_loops.h: the hand-written C layers that the GNN benchmark (gnn_harness.c) compares with. */
#ifndef OSC_BENCH_GNN_LOOPS_H
#define OSC_BENCH_GNN_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"

/* What tests/models/gen_models.py writes into CASE/layer/layer.txt: the layer's name (gcn, gcn2, sage,
 * gat, edgeconv) and the bytes of the model's initializers and Constant nodes. 0 on success;
 * else 1 with msg set. */
int gnn_layer_info(const char *case_dir, char *layer, size_t layer_size, uint64_t *constant_bytes,
                   char *msg, size_t msg_size);

typedef struct gnn_loop gnn_loop;

/* Reads CASE/layer/ (the module's parameters) for the layer it names, checks them against x
 * float[n, c_in] and edge_index int64[2, e] (borrowed: they must outlive the loop), and allocates
 * the output and every temporary, so that a run only computes. NULL on failure, msg set. */
gnn_loop *gnn_loop_load(const char *case_dir, const osc_tensor *x, const osc_tensor *edge_index,
                        char *msg, size_t msg_size);
/* One forward pass of the layer; single-threaded. It checks no index: the case is trusted. */
void gnn_loop_run(gnn_loop *g);
/* The output of the last run (float[n, c_out]); owned by the loop. */
const osc_tensor *gnn_loop_output(const gnn_loop *g);
void gnn_loop_free(gnn_loop *g);

#endif
