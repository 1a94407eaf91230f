/* file.c: osc_read_file, a whole file into one block from an osc_allocator. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "pb.h"

static const char *errstr(int e, char *buf, size_t size) {
    if (strerror_r(e, buf, size) != 0) snprintf(buf, size, "error %d", e);
    return buf;
}

osc_status osc_read_file(osc_allocator *a, const char *path, void **buf, size_t *len,
                         osc_err *err) {
    char eb[128];
    if (!a || !path || !buf || !len)
        return osc_fail(err, OSC_ERR_ARG, "osc_read_file: %s is NULL",
                        !a ? "allocator" : !path ? "path" : !buf ? "buf" : "len");
    *buf = NULL;
    *len = 0;
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
    size_t size = (size_t)sb.st_size;
    char *p = osc_malloc(a, size ? size : 1);
    if (!p) {
        close(fd);
        return osc_nomem(err, a, size, path);
    }
    size_t done = 0;
    while (done < size) {
        ssize_t r = read(fd, p + done, size - done > ((size_t)1 << 30) ? (size_t)1 << 30
                                                                         : size - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            int e = r < 0 ? errno : 0;
            close(fd);
            osc_free(a, p, size);
            return osc_fail(err, OSC_ERR_IO, "cannot read '%.300s': %s at byte %zu", path,
                            e ? errstr(e, eb, sizeof eb) : "file shrank while reading", done);
        }
        done += (size_t)r;
    }
    close(fd);
    *buf = p;
    *len = size;
    return OSC_OK;
}
