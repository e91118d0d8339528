/* SPDX-License-Identifier: Apache-2.0 */
/* The parts of memwatch that need no BPF: cgroup ids, kind names, the one log line. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "bpf/memwatch-internal.h"
#include "bpf/memwatch.h"
#include "common/cleanup.h"
#include "common/log.h"

int memwatch_unavailable(const char *fmt, ...) {
        static atomic_bool logged;
        char reason[512];
        va_list ap;

        assert(fmt);

        va_start(ap, fmt);
        vsnprintf(reason, sizeof(reason), fmt, ap);
        va_end(ap);
        if (!atomic_exchange(&logged, true))
                log_warning("BPF unavailable: %s; running on PSI alone", reason);
        else
                log_debug("BPF unavailable: %s", reason);
        return -EOPNOTSUPP;
}

int memwatch_cgroup_id(int cg_dirfd, uint64_t *ret_id) {
        const char *memory_file;
        struct statfs sfs;
        struct stat st;

        assert(cg_dirfd >= 0);
        assert(ret_id);

        if (fstatfs(cg_dirfd, &sfs) < 0 || fstat(cg_dirfd, &st) < 0)
                return log_error_errno(errno, "memwatch: stat of cgroup fd %d: %m", cg_dirfd);
        if (!S_ISDIR(st.st_mode) ||
            (sfs.f_type != CGROUP2_SUPER_MAGIC && sfs.f_type != CGROUP_SUPER_MAGIC))
                return log_error_errno(ENOTDIR,
                                       "memwatch: fd %d is no cgroup directory (filesystem "
                                       "0x%lx, expected cgroup2 0x%x or cgroup 0x%x)",
                                       cg_dirfd, (unsigned long)sfs.f_type, CGROUP2_SUPER_MAGIC,
                                       CGROUP_SUPER_MAGIC);
        /* Reclaim and OOM kills are attributed to a task's memory cgroup: a v2 cgroup whose
         * parent does not enable memory, or a v1 cgroup of another hierarchy, never is one. */
        memory_file =
                sfs.f_type == CGROUP2_SUPER_MAGIC ? "memory.current" : "memory.usage_in_bytes";
        if (faccessat(cg_dirfd, memory_file, F_OK, 0) < 0)
                return log_error_errno(EMEDIUMTYPE,
                                       "memwatch: cgroup inode %llu has no %s: not a memory "
                                       "cgroup, its events would name an ancestor",
                                       (unsigned long long)st.st_ino, memory_file);
        *ret_id = st.st_ino;
        return 0;
}

int memwatch_watch_path(memwatch_t *mw, const char *path, uint64_t *ret_id) {
        _cleanup_close_ int fd = -EBADF;

        assert(mw);
        assert(path);

        fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "memwatch: open cgroup %s: %m", path);
        return memwatch_watch(mw, fd, ret_id);
}

const char *memwatch_kind_name(memwatch_kind_t kind) {
        switch (kind) {
        case MEMWATCH_DIRECT_RECLAIM:
                return "direct_reclaim";
        case MEMWATCH_MEMCG_RECLAIM:
                return "memcg_reclaim";
        case MEMWATCH_HIGH_THROTTLE:
                return "high_throttle";
        case MEMWATCH_OOM_KILL:
                return "oom_kill";
        default:
                return "unknown";
        }
}

char *memwatch_event_describe(const memwatch_event_t *event, char *buf, size_t size) {
        int n;

        assert(event);
        assert(buf);
        assert(size > 0);

        n = snprintf(buf, size, "%s in cgroup %llu", memwatch_kind_name(event->kind),
                     (unsigned long long)event->cgroup_id);
        if (n >= 0 && (size_t)n < size && event->watched_id != event->cgroup_id)
                n += snprintf(buf + n, size - (size_t)n, " (watched %llu)",
                              (unsigned long long)event->watched_id);
        if (n >= 0 && (size_t)n < size)
                n += snprintf(buf + n, size - (size_t)n, ": pid %u%s%s%s", event->pid,
                              event->comm[0] ? " (" : "", event->comm, event->comm[0] ? ")" : "");
        if (n < 0 || (size_t)n >= size)
                return buf;
        switch (event->kind) {
        case MEMWATCH_OOM_KILL:
                snprintf(buf + n, size - (size_t)n, " killed, total_vm %llu pages",
                         (unsigned long long)event->pages);
                break;
        case MEMWATCH_HIGH_THROTTLE:
                snprintf(buf + n, size - (size_t)n, " %llu pages over memory.high, %llu us",
                         (unsigned long long)event->pages,
                         (unsigned long long)(event->duration_ns / 1000));
                break;
        default:
                snprintf(buf + n, size - (size_t)n, " %llu pages in %llu us",
                         (unsigned long long)event->pages,
                         (unsigned long long)(event->duration_ns / 1000));
                break;
        }
        return buf;
}
