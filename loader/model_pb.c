/* model_pb.c: placeholder until the loader lands. */
typedef int osc_placeholder_model_pb;
