/* replay.c: a main() for the harnesses in builds without libFuzzer: runs each file given (or each
 * file of each folder given) through LLVMFuzzerTestOneInput once, so the seeds and the crash
 * inputs found so far are regression tests of every build (plain, ASan, coverage, valgrind). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "fuzz.h"

/* snprintf into an array; true when the result was truncated (the caller skips that path). */
#define FMT(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__) >= (int)sizeof buf)

static int run_file(const char *path) {
    void *buf;
    size_t n;
    char msg[1200];
    /* the CLI's reader allocates exactly n bytes, so ASan sees any read past the input's end */
    if (cli_read_file(path, 0, &buf, &n, msg, sizeof msg)) {
        fprintf(stderr, "replay: %s\n", msg);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int run_path(const char *path, long *count) {
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "replay: %s does not exist\n", path);
        return 1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        ++*count;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) return 1;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        if (FMT(sub, "%s/%s", path, e->d_name)) continue;
        rc |= run_path(sub, count);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    int rc = 0;
    long count = 0;
    for (int i = 1; i < argc; i++) rc |= run_path(argv[i], &count);
    printf("replayed %ld inputs\n", count);
    return rc;
}
