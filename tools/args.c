/* args.c: small command-line parsing helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt) {
    size_t n = strlen(lng);
    if (!strncmp(argv[*i], lng, n) && argv[*i][n] == '=') return argv[*i] + n + 1;
    if (strcmp(argv[*i], lng) && (!shrt || strcmp(argv[*i], shrt))) return NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

int cli_parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char *end;
    if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9'))) return 1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return 1;
    *out = v;
    return 0;
}

int cli_parse_double(const char *s, double *out) {
    char *end;
    if (!s || !*s) return 1;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= 0)) return 1;
    *out = v;
    return 0;
}

int cli_split_assign(const char *arg, char **name, const char **value) {
    const char *eq = strchr(arg, '=');
    *name = NULL, *value = NULL;
    if (!eq || eq == arg || !eq[1]) return 1;
    *name = malloc((size_t)(eq - arg) + 1);
    if (!*name) return 1;
    memcpy(*name, arg, (size_t)(eq - arg));
    (*name)[eq - arg] = '\0';
    *value = eq + 1;
    return 0;
}
