/* discover.c: finds node-test folders (model.onnx + test_data_set_N/) and their data sets. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_strlist_push(cli_strlist *l, const char *s) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **p = realloc(l->items, cap * sizeof *p);
        if (!p) return 1;
        l->items = p, l->cap = cap;
    }
    char *c = malloc(strlen(s) + 1);
    if (!c) return 1;
    strcpy(c, s);
    l->items[l->count++] = c;
    return 0;
}

/* Takes ownership of s (a malloc'ed string); frees it on failure. */
static int push_owned(cli_strlist *l, char *s) {
    if (!s) return 1;
    int rc = cli_strlist_push(l, s);
    free(s);
    return rc;
}

void cli_strlist_free(cli_strlist *l) {
    for (size_t i = 0; i < l->count; i++) free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

const char *cli_basename(const char *path, char *buf, size_t size) {
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/') b--;
    snprintf(buf, size, "%.*s", (int)(n - b), path + b);
    return buf;
}

static int has_model(const char *dir) {
    char *m = cli_join(dir, "model.onnx");
    int ok = m && cli_is_file(m);
    free(m);
    return ok;
}

int cli_find_tests(const char *path, int keep_empty, cli_strlist *l, char *msg, size_t msg_size) {
    if (!cli_is_dir(path)) {
        snprintf(msg, msg_size, "'%s' is not a folder: give a node-test folder or a folder of them",
                 path);
        return 1;
    }
    if (has_model(path)) return cli_strlist_push(l, path);
    DIR *d = opendir(path);
    if (!d) {
        snprintf(msg, msg_size, "cannot open folder '%s': %s", path, strerror(errno));
        return 1;
    }
    size_t before = l->count;
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char *sub = cli_join(path, e->d_name);
        if (sub && cli_is_dir(sub) && has_model(sub)) rc = push_owned(l, sub);
        else if (!sub) rc = 1;
        else free(sub);
    }
    closedir(d);
    if (rc) snprintf(msg, msg_size, "out of memory listing '%s'", path);
    else if (l->count == before && keep_empty)
        rc = cli_strlist_push(l, path);
    else if (l->count == before) {
        snprintf(msg, msg_size, "no model.onnx in '%s' nor in its subfolders", path);
        rc = 1;
    }
    return rc;
}

static int cmp_tests(const void *a, const void *b) {
    const char *pa = *(const char *const *)a, *pb = *(const char *const *)b;
    char na[512], nb[512];
    int c = strcmp(cli_basename(pa, na, sizeof na), cli_basename(pb, nb, sizeof nb));
    return c ? c : strcmp(pa, pb);
}

void cli_sort_tests(cli_strlist *l) {
    if (l->count > 1) qsort(l->items, l->count, sizeof l->items[0], cmp_tests);
}

/* N of "test_data_set_N", or -1 for any other name. */
static long data_set_number(const char *name) {
    static const char prefix[] = "test_data_set_";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0) return -1;
    const char *s = name + sizeof prefix - 1;
    char *end;
    if (*s < '0' || *s > '9') return -1;
    long n = strtol(s, &end, 10);
    return *end ? -1 : n;
}

static int cmp_data_sets(const void *a, const void *b) {
    char na[512], nb[512];
    long x = data_set_number(cli_basename(*(const char *const *)a, na, sizeof na));
    long y = data_set_number(cli_basename(*(const char *const *)b, nb, sizeof nb));
    return (x > y) - (x < y);
}

int cli_find_data_sets(const char *dir, cli_strlist *l, char *msg, size_t msg_size) {
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(msg, msg_size, "cannot open folder '%s': %s", dir, strerror(errno));
        return 1;
    }
    struct dirent *e;
    int rc = 0;
    size_t before = l->count;
    while (!rc && (e = readdir(d)) != NULL) {
        if (data_set_number(e->d_name) < 0) continue;
        char *sub = cli_join(dir, e->d_name);
        if (sub && !cli_is_dir(sub)) { free(sub); continue; }
        rc = push_owned(l, sub);
    }
    closedir(d);
    if (rc) snprintf(msg, msg_size, "out of memory listing '%s'", dir);
    else if (l->count - before > 1)
        qsort(l->items + before, l->count - before, sizeof l->items[0], cmp_data_sets);
    return rc;
}

void cli_filter_tests(const cli_strlist *filters, cli_strlist *dirs) {
    size_t kept = 0;
    for (size_t i = 0; i < dirs->count; i++) {
        char name[256];
        int match = 0;
        cli_basename(dirs->items[i], name, sizeof name);
        for (size_t f = 0; f < filters->count && !match; f++)
            match = fnmatch(filters->items[f], name, 0) == 0;
        if (match) dirs->items[kept++] = dirs->items[i];
        else free(dirs->items[i]);
    }
    dirs->count = kept;
}
