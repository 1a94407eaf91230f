# Runtime unit tests: dtypes, the planner, sessions end to end.
osc_unit_test(test_dtype unit/test_dtype.c)
osc_unit_test(test_plan unit/test_plan.c)
osc_unit_test(test_session unit/test_session.c)
target_link_libraries(test_session PRIVATE osc_test_support)
osc_unit_test(test_tpool unit/test_tpool.c)
set_tests_properties(test_tpool PROPERTIES LABELS "unit;threads")
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_tpool)
# Over 4 GiB of memory and a few seconds: 64-bit sizes and offsets end to end.
osc_unit_test(test_large unit/test_large.c)
target_link_libraries(test_large PRIVATE osc_test_support)
set_tests_properties(test_large PROPERTIES LABELS "unit;large" TIMEOUT 600)
# opts.dim_pins: symbolic dims taken as static at load (fusion, plan, run-time checks).
osc_unit_test(test_pins unit/test_pins.c)
target_link_libraries(test_pins PRIVATE osc_test_support)
# If, Loop and Scan: subgraphs, names read from around them, limits, cancelling (from a thread).
osc_unit_test(test_control unit/test_control.c)
target_link_libraries(test_control PRIVATE osc_test_support Threads::Threads)
set_tests_properties(test_control PROPERTIES LABELS "unit;threads")
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_control)
# Sequences and optionals: packed values, their .pb files, sessions binding and returning them.
osc_unit_test(test_values unit/test_values.c)
target_link_libraries(test_values PRIVATE osc_test_support)
