/* external.c: tensor payloads stored outside the model (data_location == EXTERNAL). */
#define _XOPEN_SOURCE 700 /* realpath, pread */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

osc_status osc_external_read(const osc_extref *ref, const osc_tdec *d, void *dst) {
    /* O_NOFOLLOW: the resolved path has no symlinks left; one swapped in since is refused. */
    char eb[128];
    int fd = open(ref->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return osc_fail(d->err, OSC_ERR_IO, "%s: external data file '%.200s': %s", d->label,
                        ref->path, errstr(errno, eb, sizeof eb));
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
