/* external.c: tensor payloads stored outside the model (data_location == EXTERNAL): where the
 * location may point, reading the range, or memory-mapping it. */
#define _XOPEN_SOURCE 700 /* realpath, pread */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pb.h"

/* strerror_r (XSI form): thread-safe, unlike strerror. */
static const char *errstr(int e, char *buf, size_t size) {
    if (strerror_r(e, buf, size) != 0) snprintf(buf, size, "error %d", e);
    return buf;
}

/* A non-negative decimal integer that fits int64 (offset/length are strings in the proto). */
static bool parse_i64(const char *s, int64_t *out) {
    int64_t v = 0;
    if (!s || !*s) return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        if (!osc_mul_ok(v, 10, &v) || !osc_add_ok(v, *s - '0', &v)) return false;
    }
    *out = v;
    return true;
}

/* False when the location, read lexically, is absolute or climbs above its folder. */
static bool stays_inside(const char *loc) {
    if (loc[0] == '/') return false;
    int depth = 0;
    for (const char *p = loc; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0) return false;
        } else if (n && !(n == 1 && p[0] == '.')) {
            depth++;
        }
        p += n;
        if (*p) p++;
    }
    return true;
}

osc_status osc_external_resolve(const Onnx__TensorProto *tp, const osc_tdec *d, size_t nbytes,
                                osc_extref *ref) {
    const char *loc = NULL, *off_s = NULL, *len_s = NULL;
    for (size_t i = 0; i < tp->n_external_data; i++) {
        const Onnx__StringStringEntryProto *kv = tp->external_data[i];
        const char *k = kv->key ? kv->key : "";
        const char **slot = strcmp(k, "location") == 0 ? &loc
                            : strcmp(k, "offset") == 0 ? &off_s
                            : strcmp(k, "length") == 0 ? &len_s
                                                       : NULL;
        if (!slot) continue; /* checksum and unknown keys are not needed to read */
        if (*slot)
            return osc_fail(d->err, OSC_ERR_MODEL, "%s: external_data key '%s' is given twice",
                            d->label, k);
        *slot = kv->value ? kv->value : "";
    }
    if (!d->base_dir)
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data ('%.200s') refused: no base folder to resolve it in "
                        "(loaded from memory)", d->label, loc ? loc : "");
    if (!loc || !*loc)
        return osc_fail(d->err, OSC_ERR_MODEL, "%s: external data has no 'location'", d->label);
    if (loc[0] == '/')
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data location '%.200s' is absolute; it must be relative "
                        "to the model's folder", d->label, loc);
    if (!stays_inside(loc))
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data location '%.200s' leaves the model's folder",
                        d->label, loc);
    ref->offset = 0;
    if (off_s && !parse_i64(off_s, &ref->offset))
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data offset '%.40s' is not an integer in [0, %lld]",
                        d->label, off_s, (long long)INT64_MAX);
    int64_t length = -1;
    if (len_s && !parse_i64(len_s, &length))
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data length '%.40s' is not an integer in [0, %lld]",
                        d->label, len_s, (long long)INT64_MAX);

    char joined[PATH_MAX], rbase[PATH_MAX], eb[128];
    int jn = snprintf(joined, sizeof joined, "%s/%s", d->base_dir, loc);
    if (jn < 0 || (size_t)jn >= sizeof joined)
        return osc_fail(d->err, OSC_ERR_MODEL, "%s: external data path '%.200s' is too long",
                        d->label, loc);
    if (!realpath(d->base_dir, rbase))
        return osc_fail(d->err, OSC_ERR_IO, "%s: model folder '%.200s': %s", d->label,
                        d->base_dir, errstr(errno, eb, sizeof eb));
    _Static_assert(sizeof ref->path >= PATH_MAX, "realpath needs PATH_MAX bytes");
    if (!realpath(joined, ref->path))
        return osc_fail(d->err, OSC_ERR_IO, "%s: external data file '%.200s': %s", d->label,
                        joined, errstr(errno, eb, sizeof eb));
    size_t bl = strlen(rbase);
    bool inside = strncmp(ref->path, rbase, bl) == 0 &&
                  (ref->path[bl] == '/' || (bl == 1 && rbase[0] == '/'));
    if (!inside)
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data file '%.200s' resolves to '%.200s', outside the "
                        "model's folder '%.200s'", d->label, joined, ref->path, rbase);

    struct stat sb;
    if (stat(ref->path, &sb) != 0)
        return osc_fail(d->err, OSC_ERR_IO, "%s: external data file '%.200s': %s", d->label,
                        ref->path, errstr(errno, eb, sizeof eb));
    if (!S_ISREG(sb.st_mode))
        return osc_fail(d->err, OSC_ERR_IO,
                        "%s: external data file '%.200s' is not a regular file", d->label,
                        ref->path);
    int64_t size = (int64_t)sb.st_size, end;
    if (length < 0) length = ref->offset <= size ? size - ref->offset : 0;
    if (!osc_add_ok(ref->offset, length, &end))
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data offset %lld + length %lld overflows int64", d->label,
                        (long long)ref->offset, (long long)length);
    if (end > size)
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data range [%lld, %lld) is past the end of '%.200s' (%lld "
                        "bytes)", d->label, (long long)ref->offset, (long long)end, ref->path,
                        (long long)size);
    if ((uint64_t)length != nbytes)
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s: external data in '%.200s' has %lld bytes; expected %zu", d->label,
                        ref->path, (long long)length, nbytes);
    ref->length = length;
    return OSC_OK;
}

/* Opens the resolved file again for reading. O_NOFOLLOW: the resolved path has no symlinks
 * left, so one swapped in since is refused; O_NONBLOCK: a FIFO swapped in cannot block the open.
 * The file must still be a regular file holding the range. -1 with the error reported. */
static int open_again(const osc_extref *ref, const osc_tdec *d) {
    char eb[128];
    int fd = open(ref->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        osc_fail(d->err, OSC_ERR_IO, "%s: external data file '%.200s': %s", d->label, ref->path,
                 errstr(errno, eb, sizeof eb));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        osc_fail(d->err, OSC_ERR_IO, "%s: external data file '%.200s' is no longer a regular "
                 "file", d->label, ref->path);
        close(fd);
        return -1;
    }
    if ((int64_t)sb.st_size < ref->offset + ref->length) {
        osc_fail(d->err, OSC_ERR_IO, "%s: external data file '%.200s' shrank to %lld bytes; the "
                 "range ends at %lld", d->label, ref->path, (long long)sb.st_size,
                 (long long)(ref->offset + ref->length));
        close(fd);
        return -1;
    }
    return fd;
}

static void unmap(void *addr, size_t len) { munmap(addr, len); }

osc_status osc_external_map(const osc_extref *ref, const osc_tdec *d, void **out) {
    long page = sysconf(_SC_PAGESIZE);
    if (!d->pool || page <= 0 || ref->length <= 0) return OSC_ERR_UNSUPPORTED;
    int fd = open_again(ref, d);
    if (fd < 0) return d->err->status;
    int64_t start = ref->offset - ref->offset % page;
    size_t delta = (size_t)(ref->offset - start), len = (size_t)ref->length + delta;
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
    close(fd); /* the mapping keeps the file */
    if (p == MAP_FAILED) return OSC_ERR_UNSUPPORTED; /* e.g. a file system without mmap */
    if (!osc_pool_defer(d->pool, unmap, p, len)) {
        munmap(p, len);
        return osc_pool_nomem(d->err, d->pool, 64, d->label);
    }
    *out = (char *)p + delta;
    return OSC_OK;
}

osc_status osc_external_read(const osc_extref *ref, const osc_tdec *d, void *dst) {
    char eb[128];
    int fd = open_again(ref, d);
    if (fd < 0) return d->err->status;
    char *p = dst;
    int64_t done = 0;
    while (done < ref->length) {
        size_t want = (size_t)(ref->length - done);
        if (want > ((size_t)1 << 30)) want = (size_t)1 << 30;
        ssize_t r = pread(fd, p + done, want, (off_t)(ref->offset + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            int e = r < 0 ? errno : 0;
            close(fd);
            return osc_fail(d->err, OSC_ERR_IO,
                            "%s: external data file '%.200s': %s at byte %lld", d->label,
                            ref->path, e ? errstr(e, eb, sizeof eb) : "unexpected end of file",
                            (long long)(ref->offset + done));
        }
        done += r;
    }
    close(fd);
    return OSC_OK;
}
