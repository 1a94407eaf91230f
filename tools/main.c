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
    if (cli_is_help(cmd) || !strcmp(cmd, "help")) {
        usage_main(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version")) {
        /* The library's version too: a tool linked against another build says so. */
        printf("onnx-scatter %s (library %s)\n", OSC_VERSION_STRING, osc_version());
        return CLI_OK;
    }
    if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "test")) return cmd_test(argc - 1, argv + 1);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 1, argv + 1);
    if (cmd[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", cmd);
    return cli_usage_error(NULL, "unknown command '%s': use run, test or info", cmd);
}
