/* model.c: placeholder. */
typedef int osc_placeholder_model;
