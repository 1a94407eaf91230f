/* abi_layout.c: prints the C layout of every struct the Python package mirrors (test_abi.py). */
#include <stddef.h>
#include <stdio.h>

#include "onnx_scatter.h"

/* Output, one line each: "struct NAME SIZE", then "field NAME FIELD OFFSET SIZE" for every
 * field in declaration order (test_abi.py checks that order against the header, so a field
 * left out here fails there too). */
#define S(T) printf("struct %s %zu\n", #T, sizeof(T))
#define F(T, f) printf("field %s %s %zu %zu\n", #T, #f, offsetof(T, f), sizeof(((T *)0)->f))

int main(void) {
    S(osc_string), F(osc_string, ptr), F(osc_string, len);
    S(osc_tensor), F(osc_tensor, dtype), F(osc_tensor, rank), F(osc_tensor, dims);
    F(osc_tensor, data), F(osc_tensor, nbytes);
    S(osc_options), F(osc_options, alloc), F(osc_options, alloc_ud), F(osc_options, max_bytes);
    F(osc_options, strict), F(osc_options, profile), F(osc_options, inplace_inputs);
    F(osc_options, threads), F(osc_options, max_arena_bytes), F(osc_options, max_nodes);
    F(osc_options, max_rank), F(osc_options, max_string_mib), F(osc_options, newer_opsets);
    F(osc_options, no_fusion), F(osc_options, fuse_recompute), F(osc_options, reserved);
    F(osc_options, dim_pins), F(osc_options, n_dim_pins), F(osc_options, max_iterations),
        F(osc_options, max_fold_bytes), F(osc_options, reserved_ext);
    S(osc_dim_pin), F(osc_dim_pin, name), F(osc_dim_pin, size);
    S(osc_value_desc), F(osc_value_desc, name), F(osc_value_desc, dtype);
    F(osc_value_desc, rank), F(osc_value_desc, dims), F(osc_value_desc, dim_names);
    F(osc_value_desc, has_default);
    S(osc_node_desc), F(osc_node_desc, name), F(osc_node_desc, op_type);
    F(osc_node_desc, domain), F(osc_node_desc, since_version), F(osc_node_desc, opset);
    F(osc_node_desc, n_inputs), F(osc_node_desc, inputs), F(osc_node_desc, n_outputs);
    F(osc_node_desc, outputs), F(osc_node_desc, folded), F(osc_node_desc, n_fused);
    F(osc_node_desc, fused_names), F(osc_node_desc, fused_ops);
    F(osc_node_desc, fused_rule), F(osc_node_desc, not_fused),
    F(osc_node_desc, reserved);
    S(osc_meta_desc), F(osc_meta_desc, producer_name), F(osc_meta_desc, producer_version);
    F(osc_meta_desc, domain), F(osc_meta_desc, model_version), F(osc_meta_desc, doc_string);
    F(osc_meta_desc, graph_name), F(osc_meta_desc, graph_doc_string);
    F(osc_meta_desc, n_props);
    S(osc_op_desc), F(osc_op_desc, domain), F(osc_op_desc, op_type);
    F(osc_op_desc, since_version), F(osc_op_desc, until_version), F(osc_op_desc, min_inputs);
    F(osc_op_desc, max_inputs), F(osc_op_desc, n_outputs), F(osc_op_desc, deprecated);
    F(osc_op_desc, min_outputs), F(osc_op_desc, reserved);
    return 0;
}
