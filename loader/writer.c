/* writer.c: placeholder until the loader lands. */
typedef int osc_placeholder_writer;
