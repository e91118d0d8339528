/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-memory.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"

int cg_memory_set_high(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return cg_write_u64(cg_dirfd, "memory.high", bytes);
}

int cg_memory_set_max(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return cg_write_u64(cg_dirfd, "memory.max", bytes);
}

int cg_memory_set_min(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return cg_write_u64(cg_dirfd, "memory.min", bytes);
}

int cg_memory_set_low(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return cg_write_u64(cg_dirfd, "memory.low", bytes);
}

int cg_memory_set_swap_max(int cg_dirfd, uint64_t bytes) {
        assert(cg_dirfd >= 0);
        return cg_write_u64(cg_dirfd, "memory.swap.max", bytes);
}

int cg_memory_set_oom_group(int cg_dirfd, bool whole_group) {
        assert(cg_dirfd >= 0);
        return cg_write_string(cg_dirfd, "memory.oom.group", whole_group ? "1" : "0");
}

int cg_memory_current(int cg_dirfd, uint64_t *ret_bytes) {
        assert(cg_dirfd >= 0);
        assert(ret_bytes);
        return cg_read_u64(cg_dirfd, "memory.current", ret_bytes);
}

int cg_memory_peak(int cg_dirfd, uint64_t *ret_bytes) {
        assert(cg_dirfd >= 0);
        assert(ret_bytes);

        if (faccessat(cg_dirfd, "memory.peak", F_OK, 0) < 0)
                return -errno;
        return cg_read_u64(cg_dirfd, "memory.peak", ret_bytes);
}

int cg_memory_read_events_fd(int fd, int cg_dirfd, bool local, cg_memory_events_t *ret) {
        const char *file = local ? "memory.events.local" : "memory.events";
        cg_keyed_value_t v[] = {
                {.key = "low"}, {.key = "high"},     {.key = "max"},
                {.key = "oom"}, {.key = "oom_kill"}, {.key = "oom_group_kill"},
        };
        char path[PATH_MAX + 64];
        int r;

        assert(fd >= 0);
        assert(ret);

        r = cg_read_keyed_fd(fd, cg_dirfd, file, v, ELEMENTSOF(v));
        if (r < 0)
                return r;
        /* Every kernel with memory.events has the first five (oom_group_kill came in 5.17). */
        for (size_t i = 0; i < 5; i++)
                if (!v[i].found)
                        return log_error_errno(
                                EBADMSG, "%s has no '%s' counter",
                                cg_path_for_message(cg_dirfd, file, path, sizeof(path)), v[i].key);
        *ret = (cg_memory_events_t){
                .low = v[0].value,
                .high = v[1].value,
                .max = v[2].value,
                .oom = v[3].value,
                .oom_kill = v[4].value,
                .oom_group_kill = v[5].value,
        };
        return 0;
}

int cg_memory_read_events(int cg_dirfd, bool local, cg_memory_events_t *ret) {
        const char *file = local ? "memory.events.local" : "memory.events";
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];

        assert(cg_dirfd >= 0);
        assert(ret);

        fd = openat(cg_dirfd, file, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open %s: %m",
                                       cg_path_for_message(cg_dirfd, file, path, sizeof(path)));
        return cg_memory_read_events_fd(fd, cg_dirfd, local, ret);
}

int cg_memory_read_stat(int cg_dirfd, cg_memory_stat_t *ret) {
        cg_keyed_value_t v[] = {
                {.key = "anon"},
                {.key = "file"},
                {.key = "shmem"},
                {.key = "unevictable"},
                {.key = "kernel"},
                {.key = "workingset_refault_anon"},
                {.key = "workingset_refault_file"},
                {.key = "pgscan"},
                {.key = "pgsteal"},
                {.key = "pgscan_direct"},
                {.key = "pgmajfault"},
        };
        char path[PATH_MAX + 64];
        int r;

        assert(cg_dirfd >= 0);
        assert(ret);

        r = cg_read_keyed(cg_dirfd, "memory.stat", v, ELEMENTSOF(v));
        if (r < 0)
                return r;
        if (!v[0].found || !v[1].found)
                return log_error_errno(
                        EBADMSG, "%s has no anon/file lines",
                        cg_path_for_message(cg_dirfd, "memory.stat", path, sizeof(path)));
        *ret = (cg_memory_stat_t){
                .anon = v[0].value,
                .file = v[1].value,
                .shmem = v[2].value,
                .unevictable = v[3].value,
                .kernel = v[4].value,
                .workingset_refault_anon = v[5].value,
                .workingset_refault_file = v[6].value,
                .pgscan = v[7].value,
                .pgsteal = v[8].value,
                .pgscan_direct = v[9].value,
                .pgmajfault = v[10].value,
        };
        return 0;
}
