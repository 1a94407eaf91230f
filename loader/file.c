/* file.c: model files: opening one (a regular file), reading a range of a source. */
#define _XOPEN_SOURCE 700 /* pread */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "pb.h"

enum { CHUNK = 1 << 30 }; /* bytes read by one call */

static const char *errstr(int e, char *buf, size_t size) {
    if (strerror_r(e, buf, size) != 0) snprintf(buf, size, "error %d", e);
    return buf;
}

osc_status osc_open_file(const char *path, int *fd_out, uint64_t *len, osc_err *err) {
    char eb[128];
    /* O_NONBLOCK: opening a FIFO (refused below) must not wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return osc_fail(err, OSC_ERR_IO, "cannot open '%.300s': %s", path,
                        errstr(errno, eb, sizeof eb));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return osc_fail(err, OSC_ERR_IO, "cannot read '%.300s': %s", path,
                        errstr(e, eb, sizeof eb));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return osc_fail(err, OSC_ERR_IO, "cannot read '%.300s': %s", path,
                        S_ISDIR(sb.st_mode) ? "it is a directory" : "not a regular file");
    }
    if ((uint64_t)sb.st_size > SIZE_MAX - 1) {
        close(fd);
        return osc_fail(err, OSC_ERR_LIMIT, "'%.300s' is too large (%lld bytes)", path,
                        (long long)sb.st_size);
    }
    *fd_out = fd;
    *len = (uint64_t)sb.st_size;
    return OSC_OK;
}

osc_status osc_src_read(const osc_src *src, uint64_t at, void *dst, size_t n, osc_err *err) {
    char eb[128];
    if (src->fd < 0) {
        memcpy(dst, src->mem + at, n);
        return OSC_OK;
    }
    for (size_t done = 0; done < n;) {
        ssize_t r = pread(src->fd, (char *)dst + done, n - done > CHUNK ? CHUNK : n - done,
                          (off_t)(at + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            return osc_fail(err, OSC_ERR_IO, "cannot read '%.300s': %s at byte %llu",
                            src->name, r < 0 ? errstr(errno, eb, sizeof eb)
                                             : "the file shrank while it was read",
                            (unsigned long long)(at + done));
        done += (size_t)r;
    }
    return OSC_OK;
}
