/* main.c: entry point of the onnx-scatter command line; dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        usage_main(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (cli_is_help(cmd)) {
        usage_main(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "help")) {
        if (argc < 3) {
            usage_main(stdout);
            return CLI_OK;
        }
        void (*usage)(FILE *) = cli_usage_of(argv[2]);
        if (!usage) return cli_usage_error(NULL, "no help for '%s': use run, bench, test or info", argv[2]);
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version")) {
        /* The library's version too: a tool linked against another build says so. */
        printf("onnx-scatter %s (library %s)\n", OSC_VERSION_STRING, osc_version());
        return CLI_OK;
    }
    if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench")) return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "test")) return cmd_test(argc - 1, argv + 1);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 1, argv + 1);
    if (cmd[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", cmd);
    return cli_usage_error(NULL, "unknown command '%s': use run, bench, test or info", cmd);
}
