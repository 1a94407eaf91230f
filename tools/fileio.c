/* fileio.c: whole-file reads and writes with plain stdio, and TensorProto .pb files on top. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int cli_read_file(const char *path, void **buf, size_t *len, char *msg, size_t msg_size) {
    *buf = NULL, *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msg_size, "cannot open '%s': %s", path, strerror(errno));
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *p = malloc(cap);
    while (p) {
        n += fread(p + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char *q = cap > SIZE_MAX / 2 ? NULL : realloc(p, cap * 2);
        if (!q) { free(p); p = NULL; break; }
        p = q, cap *= 2;
    }
    int bad = !p || ferror(f);
    fclose(f);
    if (bad) {
        snprintf(msg, msg_size, "cannot read '%s': %s", path, p ? "read error" : "out of memory");
        free(p);
        return 1;
    }
    *buf = p, *len = n;
    return 0;
}

int cli_write_file(const char *path, const void *buf, size_t len, char *msg, size_t msg_size) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(msg, msg_size, "cannot create '%s': %s", path, strerror(errno));
        return 1;
    }
    int bad = fwrite(buf, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad) snprintf(msg, msg_size, "cannot write '%s'", path);
    return bad;
}

osc_status cli_load_tensor(const char *path, osc_tensor *t, char *name, size_t name_size, char *msg,
                           size_t msg_size) {
    void *buf;
    size_t len;
    char why[512];
    memset(t, 0, sizeof *t);
    if (cli_read_file(path, &buf, &len, msg, msg_size)) return OSC_ERR_IO;
    osc_status st = osc_tensor_decode_pb(buf, len, t, name, name_size, why, sizeof why);
    free(buf);
    if (st != OSC_OK) snprintf(msg, msg_size, "'%s': %s", path, why);
    return st;
}

osc_status cli_save_tensor(const char *path, const osc_tensor *t, const char *name, char *msg,
                           size_t msg_size) {
    void *buf = NULL;
    size_t len = 0;
    char why[512];
    osc_status st = osc_tensor_encode_pb(t, name, &buf, &len, why, sizeof why);
    if (st != OSC_OK) {
        snprintf(msg, msg_size, "cannot encode output '%s': %s", name, why);
        return st;
    }
    if (cli_write_file(path, buf, len, msg, msg_size)) st = OSC_ERR_IO;
    free(buf);
    return st;
}

int cli_is_dir(const char *path) {
    struct stat s;
    return stat(path, &s) == 0 && S_ISDIR(s.st_mode);
}

int cli_is_file(const char *path) {
    struct stat s;
    return stat(path, &s) == 0 && S_ISREG(s.st_mode);
}

char *cli_join(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    while (la > 1 && a[la - 1] == '/') la--; /* "dir/" + "x" is "dir/x" */
    char *p = malloc(la + lb + 2);
    if (!p) return NULL;
    memcpy(p, a, la);
    p[la] = '/';
    memcpy(p + la + 1, b, lb + 1);
    return p;
}
