/* fileio.c: whole-file reads (regular files only, within the byte limit), TensorProto .pb files
 * on top, and the all-or-none writing of run's output files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

int cli_read_file(const char *path, uint64_t max, void **buf, size_t *len, char *msg,
                  size_t msg_size) {
    *buf = NULL, *len = 0;
    /* O_NONBLOCK: opening a FIFO (refused below) must not wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(msg, msg_size, "cannot open '%s': %s", path, strerror(errno));
        return 1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        snprintf(msg, msg_size, "cannot read '%s': %s", path, strerror(errno));
        close(fd);
        return 1;
    }
    if (!S_ISREG(sb.st_mode)) { /* read nothing from FIFOs, devices (/dev/zero), folders */
        snprintf(msg, msg_size, "cannot read '%s': %s, not a regular file", path,
                 S_ISDIR(sb.st_mode) ? "it is a folder" : S_ISFIFO(sb.st_mode) ? "it is a FIFO"
                 : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "it is a device"
                 : "it is a socket or other special file");
        close(fd);
        return 1;
    }
    uint64_t size = (uint64_t)sb.st_size;
    if ((max && size > max) || size > SIZE_MAX - 1) {
        snprintf(msg, msg_size, "'%s' is %llu bytes, over the byte limit of %llu bytes "
                 "(opts.max_bytes)", path, (unsigned long long)size,
                 (unsigned long long)(max ? max : SIZE_MAX - 1));
        close(fd);
        return 1;
    }
    unsigned char *p = malloc(size ? (size_t)size : 1);
    if (!p) {
        snprintf(msg, msg_size, "cannot read '%s': out of memory (%llu bytes)", path,
                 (unsigned long long)size);
        close(fd);
        return 1;
    }
    size_t done = 0;
    while (done < size) {
        size_t want = size - done > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)size - done;
        ssize_t r = read(fd, p + done, want);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            snprintf(msg, msg_size, "cannot read '%s': %s at byte %zu", path,
                     r < 0 ? strerror(errno) : "the file shrank while reading", done);
            free(p);
            close(fd);
            return 1;
        }
        done += (size_t)r;
    }
    close(fd); /* a file that grew meanwhile is read as it was at fstat */
    *buf = p, *len = (size_t)size;
    return 0;
}

osc_status cli_load_tensor(const char *path, uint64_t max, int32_t dtype, osc_tensor *t,
                           char *name, size_t name_size, char *msg, size_t msg_size) {
    void *buf;
    size_t len;
    char why[512];
    memset(t, 0, sizeof *t);
    if (cli_read_file(path, max, &buf, &len, msg, msg_size))
        return strstr(msg, "opts.max_bytes") ? OSC_ERR_LIMIT : OSC_ERR_IO;
    osc_status st = osc_value_decode_pb(buf, len, dtype, t, name, name_size, why, sizeof why);
    free(buf);
    if (st != OSC_OK) snprintf(msg, msg_size, "'%s': %s", path, why);
    return st;
}

/* ---- A set of files written into one folder, all or none (run -o DIR). ---- */

int cli_outset_open(cli_outset *o, const char *dir, char *msg, size_t msg_size) {
    memset(o, 0, sizeof *o);
    o->dirfd = -1;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(msg, msg_size, "cannot create folder '%s': %s", dir, strerror(errno));
        return 1;
    }
    o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->dirfd < 0) {
        snprintf(msg, msg_size, "cannot open folder '%s': %s", dir, strerror(errno));
        return 1;
    }
    o->dir = dir;
    return 0;
}

size_t cli_str_hash(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return (size_t)(h ^ h >> 32);
}

/* The slot holding `name`, or the empty one it would take (s->slots a power of two). */
static size_t slot_of(const cli_nameset *s, const char *name) {
    size_t i = cli_str_hash(name) & (s->slots - 1);
    while (s->slot[i] && strcmp(s->items[s->slot[i] - 1], name)) i = (i + 1) & (s->slots - 1);
    return i;
}

int cli_nameset_has(const cli_nameset *s, const char *name) {
    return s->slots && s->slot[slot_of(s, name)] != 0;
}

int cli_nameset_add(cli_nameset *s, const char *name) {
    if (2 * (s->count + 1) > s->slots) { /* grown, then filled again */
        size_t slots = s->slots ? 2 * s->slots : 64;
        size_t *slot = calloc(slots, sizeof *slot);
        char **items = slot ? realloc(s->items, slots / 2 * sizeof *items) : NULL;
        if (!items) {
            free(slot);
            return 1;
        }
        free(s->slot);
        s->items = items, s->cap = slots / 2;
        s->slot = slot, s->slots = slots;
        for (size_t k = 0; k < s->count; k++) s->slot[slot_of(s, s->items[k])] = k + 1;
    }
    char *copy = malloc(strlen(name) + 1);
    if (!copy) return 1;
    s->items[s->count++] = strcpy(copy, name);
    s->slot[slot_of(s, name)] = s->count;
    return 0;
}

void cli_nameset_free(cli_nameset *s) {
    for (size_t k = 0; k < s->count; k++) free(s->items[k]);
    free(s->items);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

/* Whether FILE can become a file of the set: a name the folder's file system takes, not taken
 * by another file of the set, no folder there. Checked as each file is added, so a name that
 * cannot be written fails the set before anything is renamed. */
static int name_fits(const cli_outset *o, const char *file, char *msg, size_t msg_size) {
    const size_t n = strlen(file);
    long max = fpathconf(o->dirfd, _PC_NAME_MAX);
    if (max <= 0) max = NAME_MAX;
    const char *more = n > 60 ? "..." : "";
    if (n > (size_t)max) {
        snprintf(msg, msg_size, "cannot write '%s/%.60s%s': the file name has %zu bytes; the "
                 "folder's file system takes at most %ld (NAME_MAX)", o->dir, file, more, n, max);
        return 1;
    }
    if (cli_nameset_has(&o->names, file)) {
        snprintf(msg, msg_size, "cannot write '%s/%.60s%s' twice", o->dir, file, more);
        return 1;
    }
    struct stat sb;
    const char *why = NULL;
    /* a folder at the final name cannot be replaced: say so before anything is renamed */
    if (fstatat(o->dirfd, file, &sb, AT_SYMLINK_NOFOLLOW) == 0)
        why = S_ISDIR(sb.st_mode) ? "a folder has that name" : NULL;
    else if (errno != ENOENT)
        why = strerror(errno);
    if (why) snprintf(msg, msg_size, "cannot write '%s/%.60s%s': %s", o->dir, file, more, why);
    return why != NULL;
}

int cli_outset_add(cli_outset *o, const char *file, const void *buf, size_t len, char *msg,
                   size_t msg_size) {
    if (name_fits(o, file, msg, msg_size)) return 1;
    if (cli_nameset_add(&o->names, file)) {
        snprintf(msg, msg_size, "out of memory");
        return 1;
    }
    if (o->count == o->cap) { /* doubled: growing by one copied the list at each file */
        size_t cap = o->cap ? 2 * o->cap : 16;
        cli_outfile *p = realloc(o->files, cap * sizeof *p);
        if (!p) {
            snprintf(msg, msg_size, "out of memory");
            return 1;
        }
        o->files = p, o->cap = cap;
    }
    cli_outfile *f = &o->files[o->count];
    memset(f, 0, sizeof *f);
    f->name = malloc(strlen(file) + 1);
    if (!f->name) {
        snprintf(msg, msg_size, "out of memory");
        return 1;
    }
    strcpy(f->name, file);
    o->count++;
    /* O_EXCL | O_NOFOLLOW: a file or symlink planted under the temporary name is never written
     * through; another name is tried instead */
    int fd = -1;
    for (unsigned k = 0; fd < 0 && k < 100; k++) {
        snprintf(f->tmp, sizeof f->tmp, ".onnx-scatter.%ld.%zu.%u.tmp", (long)getpid(),
                 o->count - 1, k);
        fd = openat(o->dirfd, f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        snprintf(msg, msg_size, "cannot create a file in '%s': %s", o->dir, strerror(errno));
        f->tmp[0] = '\0';
        return 1;
    }
    const unsigned char *p = buf;
    size_t done = 0;
    int e = 0;
    while (done < len) {
        ssize_t w = write(fd, p + done, len - done > ((size_t)1 << 30) ? (size_t)1 << 30 : len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            e = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    if (close(fd) != 0 && !e) e = errno;
    if (e) {
        snprintf(msg, msg_size, "cannot write '%s/%s': %s", o->dir, file, strerror(e));
        return 1;
    }
    return 0;
}

int cli_outset_commit(cli_outset *o, char *msg, size_t msg_size) {
    for (size_t k = 0; k < o->count; k++) {
        /* rename replaces a symlink at the final name itself, never the file it points to */
        if (renameat(o->dirfd, o->files[k].tmp, o->dirfd, o->files[k].name) != 0) {
            snprintf(msg, msg_size, "cannot rename a temporary file to '%s/%s': %s (%zu of %zu "
                     "files were replaced)", o->dir, o->files[k].name, strerror(errno), k, o->count);
            return 1;
        }
        o->files[k].tmp[0] = '\0';
    }
    return 0;
}

void cli_outset_close(cli_outset *o) {
    for (size_t k = 0; k < o->count; k++) {
        if (o->files[k].tmp[0]) unlinkat(o->dirfd, o->files[k].tmp, 0);
        free(o->files[k].name);
    }
    free(o->files);
    cli_nameset_free(&o->names);
    if (o->dirfd >= 0) close(o->dirfd);
    memset(o, 0, sizeof *o);
    o->dirfd = -1;
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
