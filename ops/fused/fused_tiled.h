/* fused_tiled.h: the tiled scatter node (ops/fused/fused_tiled.c), made by the gather_scatter
 * rules (rewrite/gather_scatter.c, region.c) when the scatter's updates, or the operand
 * of a gather-scatter's step, come out of a subgraph that works row by row on the edges
 * (EdgeConv's Gather, Sub, Concat, Gemm, Relu, Gemm; GAT's attention weights), never named by
 * a model.
 *
 * The subgraph ("region") is run on tiles of edges: each of its nodes runs its own kernel on
 * the tile's rows, into buffers of a tile's size, and the tile's update rows are combined into
 * the output at once, so no E x C intermediate exists. Every node of a region computes row e
 * of its output from row e of its row inputs and from whole inputs (weights, a Gather's table)
 * alone, in an order that does not depend on how many rows it is given (the product kernels'
 * summation order depends only on K, gemm_kernel.h), so tiles give the unfused bits.
 * Two forms:
 *  - "TiledScatter": the region computes the updates. Inputs: 0 data (omitted: the output
 *    starts as zeros), 1 dst (one index per update row), 2.. the region's external inputs.
 *  - "TiledGatherScatter": a GatherScatter (fused_scatter.h) whose tiled step's operand the
 *    region computes, a tile at a time, right before the tile's edges are applied. Inputs:
 *    those of the GatherScatter (the tiled operand's omitted), then the region's external
 *    inputs. The region may recompute nodes the graph still runs for other readers (cheap
 *    elementwise ops and Gathers: GAT's scores), so that no E-row value outlives them.
 * A region's Gather whose index is the scatter's own destination (or source) index reads the
 * tile's destinations (sources), already checked and made non-negative.
 *
 * Symbolic shapes (a dynamic-axes export, fused.h): the rows E of the region's values may be a
 * symbol, as may a Gather table's rows and any dim of the scatter's parameters (fs); every other
 * dim of a row value is a size (rows of a static size), and so is every dim of a whole value
 * but a table's rows. The kernel reads each symbol of osc_ft_params.syms from its inputs at
 * every run and checks every input's dims against the parameters with them in place before
 * its first write. */
#ifndef OSC_FUSED_TILED_H
#define OSC_FUSED_TILED_H

#include "fused_scatter.h"

#define OSC_FT_MAX_NODES 16 /* nodes of a region */
#define OSC_FT_MAX_NIN 8    /* inputs of one of its nodes */
/* TiledScatter's inputs: 0 data, 1 dst, then the region's external inputs (TiledGatherScatter's:
 * GatherScatter's, then the region's external inputs from osc_ft_params.ext_base). */
#define OSC_FT_IN_EXT 2
#define OSC_FT_MAX_EXT (OSC_FUSE_MAX_IN - OSC_FT_IN_EXT)
/* Tiles take about this many bytes of buffers (all the region's rows of a tile), so that a
 * tile stays in L2 from one node to the next. */
#ifndef OSC_FT_TILE_BYTES /* (the tiny-threshold test library makes tiles of one or two edges) */
#define OSC_FT_TILE_BYTES ((size_t)512 << 10)
#endif

/* Where a region node's input comes from: an external input (the fused node's input
 * ext_base + at), the output of region node `at`, or nothing (an omitted optional input). */
enum { OSC_FT_NONE, OSC_FT_EXT, OSC_FT_SLOT };
/* What a region's Gather is indexed by: its input 1, the tile's destination rows, the tile's
 * source rows (the gather-scatter's Gather's). */
enum { OSC_FT_BY_INPUT, OSC_FT_BY_DST, OSC_FT_BY_SRC };
typedef struct osc_ft_ref {
    int32_t kind, at;
} osc_ft_ref;

/* A value of the region, as the fusion saw it: a row value has E rows (a tile takes some of
 * them), a whole value is read as it is. dims[0] and src_dims may hold symbols (OSC_SYM_DIM),
 * replaced at run time; row_bytes never depends on one. */
typedef struct osc_ft_value {
    int32_t dtype, rank;
    int64_t dims[OSC_FUSED_MAX_RANK];
    bool row;
    size_t row_bytes; /* row values: bytes of one row */
    /* External inputs: the shape the input has (src_*), and where the value starts in it: a
     * Gather of one row of a whole [K, E, ...] tensor (edge_index[0]) is read in place, from
     * row `view` of the input on (its byte offset taken at run time from the input's dims),
     * never copied out; -1: the input is the value. */
    int32_t src_rank;
    int64_t src_dims[OSC_FUSED_MAX_RANK];
    int64_t view;
} osc_ft_value;

typedef struct osc_ft_node {
    osc_node node;  /* a copy: name and op type for messages, kernel row and params to run */
    int32_t n_in;
    osc_ft_ref in[OSC_FT_MAX_NIN];
    bool gather;    /* a Gather: its indices (an external row input) are checked up front, */
    int32_t by;     /* unless it reads the tile's destinations or sources (OSC_FT_BY_*) */
    /* An Expand of a whole value along the rows: every row of its output is the same, so it
     * runs once per part, for a whole tile (the shape with `tile` rows; input 1 is that; its
     * dims past the first are sizes). */
    bool once;
    int32_t shape_rank;
    int64_t shape[OSC_FUSED_MAX_RANK];
    /* A Relu whose input is the output of product node `alias` (MatMul or Gemm) and nothing
     * else's: that node's parameters apply Relu as it stores its rows (the rewrite's epilogue)
     * and this one does not run, its slot being the product's (-1: not such a Relu). */
    int32_t alias;
} osc_ft_node;

typedef struct osc_ft_params {
    /* The scatter: TiledScatter, no Gather nor steps, its updates slot `updates`; else a
     * gather-scatter, a step `tiled` (updates -1). */
    osc_fs_params fs;
    int32_t dtype;
    int32_t ext_base;   /* the fused node's input of external input 0 */
    bool need_src;      /* a Gather reads the tile's sources */
    /* The arrays below hold n_nodes, n_nodes and n_ext entries, allocated with the parameters
     * (osc_ft_params_dup); a matcher's capture points them at arrays of the maximal size. */
    int32_t n_nodes;    /* in graph order; node i writes slot i */
    osc_ft_node *nodes;
    osc_ft_value *slots;
    int32_t n_ext;
    osc_ft_value *ext;
    int32_t updates;
    size_t pack_bytes;  /* scratch a product of the region takes (osc_gemm_pack_bytes) */
    int64_t tile;       /* edges per tile (at most E, at run time when E is a symbol) */
    /* Where the node reads each symbol of its parameters, fs's included (this, not fs.syms,
     * is what the kernel resolves): none with static shapes. */
    osc_sym_binds syms;
} osc_ft_params;

#endif
