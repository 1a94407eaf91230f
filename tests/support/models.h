/* models.h: models more than one test builds (test-support library, not the library). */
#ifndef OSC_TEST_MODELS_H
#define OSC_TEST_MODELS_H

#include "writer.h"

/* The hardening issue's stage model: `stages` times NonZero -> Reshape -> Cast -> Add on an
 * 8-element float input "v0", each NonZero reading the previous stage's output (so every group
 * is a stage of its own); with no zero in the input every stage's shapes are [1,8], [8], [8],
 * [8]. The last value is the graph output. */
osc_mw *osc_test_stage_model(int stages);

/* The start of a scatter model (osc_mw_graph at opset): inputs "data" of dtype [rank, dims],
 * "indices" (int64) and "updates" of dtype, both [irank, idims]; nodes and outputs to add. */
osc_mw *osc_test_scatter_graph(int64_t opset, int32_t dtype, int32_t rank, const int64_t *dims,
                               int32_t irank, const int64_t *idims);

/* osc_test_scatter_graph, then y = op(data, indices, updates) (node `name`) and g =
 * GatherElements(y, indices) (node "gather"): outputs y (data's shape) and g (indices'). */
osc_mw *osc_test_scatter_gather_model(int64_t opset, const char *op, const char *name,
                                      int32_t dtype, int32_t rank, const int64_t *dims,
                                      int32_t irank, const int64_t *idims);

/* A chain x -> Op0 -> Op1 -> ... -> y of n nodes with n distinct op types no runtime has (opset
 * 18, float [2]): a load refuses it, naming every op once. */
osc_mw *osc_test_unknown_ops_model(int n);

#endif
