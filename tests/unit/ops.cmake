# Kernel unit tests: each kernel run directly through tests/unit/kharness.c.
osc_unit_test(test_ops_elements unit/test_ops_elements.c unit/kharness.c)
osc_unit_test(test_ops_nd unit/test_ops_nd.c unit/kharness.c)
osc_unit_test(test_reduce unit/test_reduce.c)
osc_unit_test(test_ops_elementwise unit/test_ops_elementwise.c unit/kharness.c)
osc_unit_test(test_ops_shape unit/test_ops_shape.c unit/kharness.c)
osc_unit_test(test_scatter_loops unit/test_scatter_loops.c)
