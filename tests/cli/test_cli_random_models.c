/* test_cli_random_models.c: `run --random`'s inputs (tools/inputs.c, ranges.c, random.c) make
 * every model in tests/torch and tests/models run, for seeds 1 to 20. In one process, so the
 * 800-odd runs take seconds under the sanitizers too; tests/cli/random.sh runs each model once
 * through the CLI itself. Symbolic dims get the size --random gives them without --dim. */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "tests/support/check.h"

#ifndef OSC_SOURCE_DIR
#error "OSC_SOURCE_DIR: the source tree (tests/cli.cmake defines it)"
#endif

/* Seeds 1 to 20 of one model; the number of failures, each printed. */
static int model_seeds(const char *path) {
    osc_options opts;
    osc_options_init(&opts);
    osc_model *m = NULL;
    char msg[1024];
    if (osc_model_load_file(path, &opts, &m, msg, sizeof msg) != OSC_OK) {
        print_message("%s: cannot load: %s\n", path, msg);
        return 1;
    }
    cli_input_opts o = {.random = 1, .model_path = path, .model_opts = opts};
    int failures = 0;
    for (uint64_t seed = 1; seed <= 20 && !failures; seed++) {
        cli_inputs in;
        osc_session *s = NULL;
        o.seed = seed;
        int rc = cli_inputs_load(m, &o, cli_byte_limit(&opts), "run", &in);
        if (rc == CLI_OK) assert_int_equal(osc_session_create(m, &s), OSC_OK);
        if (rc == CLI_OK) rc = cli_inputs_bind(m, s, &in);
        if (rc == CLI_OK && osc_session_run(s) != OSC_OK) {
            print_message("%s --random %llu: %s\n", path, (unsigned long long)seed,
                          osc_session_error(s));
            rc = CLI_FAIL;
        } else if (rc != CLI_OK) {
            print_message("%s --random %llu: inputs refused (message above)\n", path,
                          (unsigned long long)seed);
        }
        failures += rc != CLI_OK;
        osc_session_free(s);
        if (rc == CLI_OK) cli_inputs_free(&in);
    }
    cli_input_opts_free(&o);
    osc_model_free(m);
    return failures;
}

/* Every DIR/NAME/model.onnx; the count of models into *count. */
static int folder(const char *dir, int *count) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    cli_strlist names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') assert_int_equal(cli_strlist_push(&names, e->d_name), 0);
    closedir(d);
    int failures = 0;
    for (size_t i = 0; i < names.count; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s/model.onnx", dir, names.items[i]);
        if (!cli_is_file(path)) continue;
        (*count)++;
        failures += model_seeds(path);
    }
    cli_strlist_free(&names);
    return failures;
}

static void every_exported_model_seeds_1_to_20(void **state) {
    (void)state;
    int count = 0, failures = folder(OSC_SOURCE_DIR "/tests/torch", &count);
    failures += folder(OSC_SOURCE_DIR "/tests/models", &count);
    print_message("%d models, seeds 1 to 20: %d failed\n", count, failures);
    assert_true(count >= 40); /* the folders are there: 48 torch exports and 21 models today */
    assert_int_equal(failures, 0);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(every_exported_model_seeds_1_to_20),
)
