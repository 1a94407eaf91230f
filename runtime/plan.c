/* plan.c: placeholder. */
typedef int osc_placeholder_plan;
