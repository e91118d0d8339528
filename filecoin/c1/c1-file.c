/* SPDX-License-Identifier: Apache-2.0 */
/* A C1 output from a file: mapped, then parsed as c1_parse_any() does. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/c1/c1.h"

int c1_load_file(const char *path, struct c1_output **ret) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        struct stat st;
        void *map;
        int r;

        if (fd < 0)
                return log_error_errno(errno, "%s: %m", path);
        if (fstat(fd, &st) < 0)
                return log_error_errno(errno, "%s: %m", path);
        if (!S_ISREG(st.st_mode) || st.st_size == 0 || (uint64_t)st.st_size > C1_FILE_MAX_BYTES)
                return log_error_errno(EINVAL,
                                       "%s: %lld bytes, expected a regular file of 1 B to 1 GiB",
                                       path, (long long)st.st_size);
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED)
                return log_error_errno(errno, "%s: %m", path);
        r = c1_parse_any(map, (size_t)st.st_size, path, ret, NULL);
        munmap(map, (size_t)st.st_size);
        return r;
}
