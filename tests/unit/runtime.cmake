# Runtime unit tests: dtypes, the planner, sessions end to end.
osc_unit_test(test_dtype unit/test_dtype.c)
osc_unit_test(test_plan unit/test_plan.c)
