/* models.h: models more than one test builds (test-support library, not the library). */
#ifndef OSC_TEST_MODELS_H
#define OSC_TEST_MODELS_H

#include "writer.h"

/* The hardening issue's stage model: `stages` times NonZero -> Reshape -> Cast -> Add on an
 * 8-element float input "v0", each NonZero reading the previous stage's output (so every group
 * is a stage of its own); with no zero in the input every stage's shapes are [1,8], [8], [8],
 * [8]. The last value is the graph output. */
osc_mw *osc_test_stage_model(int stages);

/* A chain x -> Op0 -> Op1 -> ... -> y of n nodes with n distinct op types no runtime has (opset
 * 18, float [2]): a load refuses it, naming every op once. */
osc_mw *osc_test_unknown_ops_model(int n);

#endif
