/* gen_scaling.c: writes one model of tests/scaling's families, to reproduce a load-time attack
 * or time a phase by hand. Usage: gen_scaling KIND N [ELEMS] OUT.onnx (README.md beside it). */
#include <stdio.h>
#include <stdlib.h>

#include "scaling_models.h"
#include "tests/support/testutil.h"

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: gen_scaling KIND N [ELEMS] OUT.onnx; KIND:");
        for (int k = 0; osc_scaling_kinds[k]; k++) fprintf(stderr, " %s", osc_scaling_kinds[k]);
        fputc('\n', stderr);
        return 2;
    }
    int n = atoi(argv[2]), elems = argc == 5 ? atoi(argv[3]) : 0;
    osc_mw *mw = n > 0 && elems >= 0 ? osc_scaling_model(argv[1], n, elems) : NULL;
    if (!mw) {
        fprintf(stderr, "gen_scaling: unknown kind '%s' or bad size\n", argv[1]);
        return 2;
    }
    void *buf;
    size_t len;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) {
        fprintf(stderr, "gen_scaling: %s\n", osc_mw_error(mw));
        osc_mw_free(mw);
        return 1;
    }
    osc_mw_free(mw);
    const char *out = argv[argc - 1];
    FILE *f = fopen(out, "wb");
    int bad = !f || fwrite(buf, 1, len, f) != len;
    if (f && fclose(f)) bad = 1;
    free(buf);
    if (bad) fprintf(stderr, "gen_scaling: cannot write '%s'\n", out);
    return bad;
}
