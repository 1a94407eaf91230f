/* main.c: onnx-scatter embedded in a C program: load a model, run it on caller buffers, print. */
#include <inttypes.h>
#include <stdio.h>

#include <onnx_scatter.h>

/* Runs examples/scatter_elements/model.onnx: ScatterElements(data[3,3], indices[2,3],
 * updates[2,3], axis 0, reduction add) -> output[3,3]. Usage: embed MODEL.onnx */
int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL.onnx\n", argv[0]);
        return 2;
    }
    printf("onnx-scatter %s (header %s)\n", osc_version(), OSC_VERSION_STRING);

    /* 1. Load once. The model is immutable: any number of threads may share it. */
    osc_options opts;
    osc_options_init(&opts);
    opts.strict = 1;                /* deprecated ops are errors, not warnings */
    opts.max_arena_bytes = 1 << 20; /* refuse runs needing more than 1 MiB of scratch */
    char msg[OSC_MESSAGE_SIZE];
    osc_model *model;
    osc_status st = osc_model_load_file(argv[1], &opts, &model, msg, sizeof msg);
    if (st != OSC_OK) {
        fprintf(stderr, "cannot load %s: %s: %s\n", argv[1], osc_status_name(st), msg);
        return 1;
    }
    for (size_t i = 0; i < osc_model_warning_count(model); i++)
        fprintf(stderr, "warning: %s\n", osc_model_warning(model, i));

    /* 2. One session per thread: it owns the arena and the run's state. */
    osc_session *session;
    if (osc_session_create(model, &session) != OSC_OK) {
        fprintf(stderr, "out of memory\n");
        osc_model_free(model);
        return 1;
    }

    /* 3. Bind caller buffers. The session borrows them and never writes to inputs. */
    float data[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    int64_t indices[2][3] = {{1, 0, 2}, {0, 2, 1}};
    float updates[2][3] = {{1.0f, 1.1f, 1.2f}, {2.0f, 2.1f, 2.2f}};
    float output[3][3]; /* the run writes the result here directly (zero copy) */
    osc_tensor t_data = {.dtype = OSC_FLOAT, .rank = 2, .dims = {3, 3},
                         .data = data, .nbytes = sizeof data};
    osc_tensor t_indices = {.dtype = OSC_INT64, .rank = 2, .dims = {2, 3},
                            .data = indices, .nbytes = sizeof indices};
    osc_tensor t_updates = {.dtype = OSC_FLOAT, .rank = 2, .dims = {2, 3},
                            .data = updates, .nbytes = sizeof updates};
    int rc = 1;
    if (osc_session_set_input(session, "data", &t_data) != OSC_OK ||
        osc_session_set_input(session, "indices", &t_indices) != OSC_OK ||
        osc_session_set_input(session, "updates", &t_updates) != OSC_OK ||
        osc_session_set_output_buffer(session, 0, output, sizeof output) != OSC_OK) {
        fprintf(stderr, "bind: %s\n", osc_session_error(session));
        goto done;
    }

    /* 4. Run. On failure the message names the node, the input, the position and the value. */
    if (osc_session_run(session) != OSC_OK) {
        fprintf(stderr, "run: %s\n", osc_session_error(session));
        goto done;
    }

    /* 5. Read the output: dtype and shape from the session, values in our buffer. */
    osc_value_desc desc;
    osc_tensor out;
    osc_model_output(model, 0, &desc);
    osc_session_output(session, 0, &out);
    printf("%s [%" PRId64 ", %" PRId64 "]:\n", desc.name, out.dims[0], out.dims[1]);
    for (int64_t r = 0; r < out.dims[0]; r++) {
        for (int64_t c = 0; c < out.dims[1]; c++) printf(" %5g", output[r][c]);
        printf("\n");
    }
    rc = 0;
done:
    osc_session_free(session); /* sessions first, then their model */
    osc_model_free(model);
    return rc;
}
