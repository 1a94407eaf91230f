/* filenames.c: the file names the -o, --dump and --save-inputs writers give values (one
 * mapping for all three), and the note when a name got a suffix. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_file_stem(cli_nameset *taken, const char *name, char *stem, size_t size, char *msg,
                  size_t msg_size) {
    const size_t n = strlen(name);
    if (n + 12 > size) { /* room for "~N" */
        snprintf(msg, msg_size, "the name has %zu bytes: too long for a file name", n);
        return 1;
    }
    for (size_t k = 0; k <= n; k++) stem[k] = name[k] == '/' ? '_' : name[k];
    for (int v = 2; cli_nameset_has(taken, stem); v++) snprintf(stem + n, size - n, "~%d", v);
    if (cli_nameset_add(taken, stem)) {
        snprintf(msg, msg_size, "out of memory");
        return 1;
    }
    return 0;
}

void cli_note_renamed(const char *what, const char *name, const char *file) {
    char esc[512];
    if (file[strlen(name)] != '~') return; /* the stem is the name, '/' as '_' */
    fprintf(stderr, "onnx-scatter: note: %s '%s' is written as %s: an earlier %s has its file "
            "name ('/' becomes '_')\n", what, cli_esc(name, esc, sizeof esc), file, what);
}
