/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-v1.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"

/* v1 shows "no limit" as PAGE_COUNTER_MAX pages: LONG_MAX rounded down to a page. */
#define CG_V1_UNLIMITED_FROM (UINT64_C(0x7fffffffffffffff) & ~UINT64_C(0xffff))

static int write_v1_limit(int cg_dirfd, const char *file, uint64_t bytes) {
        if (bytes == CG_LIMIT_MAX)
                return cg_write_string(cg_dirfd, file, "-1");
        return cg_write_u64(cg_dirfd, file, bytes);
}

int cg_v1_memory_set_limit(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return write_v1_limit(cg_dirfd, "memory.limit_in_bytes", bytes);
}

int cg_v1_memory_set_soft_limit(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return write_v1_limit(cg_dirfd, "memory.soft_limit_in_bytes", bytes);
}

int cg_v1_memory_limit(int cg_dirfd, uint64_t *ret_bytes) {
        int r;

        assert(cg_dirfd >= 0);
        assert(ret_bytes);

        r = cg_read_u64(cg_dirfd, "memory.limit_in_bytes", ret_bytes);
        if (r < 0)
                return r;
        if (*ret_bytes >= CG_V1_UNLIMITED_FROM)
                *ret_bytes = CG_LIMIT_MAX;
        return 0;
}

int cg_v1_memory_usage(int cg_dirfd, uint64_t *ret_bytes) {
        assert(cg_dirfd >= 0);
        assert(ret_bytes);
        return cg_read_u64(cg_dirfd, "memory.usage_in_bytes", ret_bytes);
}

int cg_v1_memory_max_usage(int cg_dirfd, uint64_t *ret_bytes) {
        assert(cg_dirfd >= 0);
        assert(ret_bytes);
        return cg_read_u64(cg_dirfd, "memory.max_usage_in_bytes", ret_bytes);
}

int cg_v1_memory_failcnt(int cg_dirfd, uint64_t *ret) {
        assert(cg_dirfd >= 0);
        assert(ret);
        return cg_read_u64(cg_dirfd, "memory.failcnt", ret);
}

int cg_v1_memory_read_oom_control(int cg_dirfd, cg_v1_oom_control_t *ret) {
        cg_keyed_value_t v[] = {
                {.key = "oom_kill_disable"}, {.key = "under_oom"}, {.key = "oom_kill"}};
        char path[PATH_MAX + 64];
        int r;

        assert(cg_dirfd >= 0);
        assert(ret);

        r = cg_read_keyed(cg_dirfd, "memory.oom_control", v, ELEMENTSOF(v));
        if (r < 0)
                return r;
        if (!v[0].found || !v[1].found || v[0].value > 1 || v[1].value > 1)
                return log_error_errno(
                        EBADMSG, "%s: expected 'oom_kill_disable 0|1' and 'under_oom 0|1'",
                        cg_path_for_message(cg_dirfd, "memory.oom_control", path, sizeof(path)));
        *ret = (cg_v1_oom_control_t){
                .oom_kill_disable = v[0].value,
                .under_oom = v[1].value,
                .has_oom_kill = v[2].found,
                .oom_kill = v[2].value,
        };
        return 0;
}

int cg_v1_memory_read_events(int cg_dirfd, cg_memory_events_t *ret) {
        cg_v1_oom_control_t oom;
        uint64_t failcnt, memsw_failcnt = 0;
        int r;

        assert(cg_dirfd >= 0);
        assert(ret);

        r = cg_v1_memory_failcnt(cg_dirfd, &failcnt);
        if (r < 0)
                return r;
        /* With swap accounting the memory+swap counter is charged first: a worker stopped
         * by memory.memsw.limit_in_bytes never moves memory.failcnt. */
        if (faccessat(cg_dirfd, "memory.memsw.failcnt", F_OK, 0) == 0) {
                r = cg_read_u64(cg_dirfd, "memory.memsw.failcnt", &memsw_failcnt);
                if (r < 0)
                        return r;
        }
        r = cg_v1_memory_read_oom_control(cg_dirfd, &oom);
        if (r < 0)
                return r;
        *ret = (cg_memory_events_t){.max = failcnt + memsw_failcnt, .oom_kill = oom.oom_kill};
        return 0;
}

int cg_v1_memory_oom_eventfd(int cg_dirfd, int *ret_eventfd) {
        _cleanup_close_ int efd = -EBADF, oom_fd = -EBADF;
        char path[PATH_MAX + 64], request[64];
        int r;

        assert(cg_dirfd >= 0);
        assert(ret_eventfd);

        efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (efd < 0)
                return log_error_errno(errno, "Failed to create an eventfd: %m");
        oom_fd = openat(cg_dirfd, "memory.oom_control", O_RDONLY | O_CLOEXEC);
        if (oom_fd < 0)
                return log_error_errno(
                        errno, "Failed to open %s: %m",
                        cg_path_for_message(cg_dirfd, "memory.oom_control", path, sizeof(path)));
        /* "<event fd> <control file fd>": the kernel keeps its own references. */
        snprintf(request, sizeof(request), "%d %d", efd, oom_fd);
        r = cg_write_string(cg_dirfd, "cgroup.event_control", request);
        if (r < 0)
                return r;
        *ret_eventfd = TAKE_FD(efd);
        return 0;
}
