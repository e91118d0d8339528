/* SPDX-License-Identifier: Apache-2.0 */
#include "memory-events.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <unistd.h>

#include "cgroup/cg-v1.h"
#include "common/cleanup.h"
#include "common/log.h"

static uint64_t counter_increase(uint64_t old, uint64_t now) {
        /* If old > now, assume the cgroup was recreated and counted from zero again. */
        return now >= old ? now - old : now;
}

void cg_memory_events_delta(const cg_memory_events_t *old, const cg_memory_events_t *now,
                            cg_memory_events_t *ret_delta) {
        assert(old);
        assert(now);
        assert(ret_delta);

        *ret_delta = (cg_memory_events_t){
                .low = counter_increase(old->low, now->low),
                .high = counter_increase(old->high, now->high),
                .max = counter_increase(old->max, now->max),
                .oom = counter_increase(old->oom, now->oom),
                .oom_kill = counter_increase(old->oom_kill, now->oom_kill),
                .oom_group_kill = counter_increase(old->oom_group_kill, now->oom_group_kill),
        };
}

/* The file whose presence shows that the watched cgroup still exists. */
static const char *counts_file(cg_events_source_t source) {
        switch (source) {
        case CG_EVENTS_V2_LOCAL:
                return "memory.events.local";
        case CG_EVENTS_V1:
                return "memory.failcnt";
        case CG_EVENTS_V2:
                break;
        }
        return "memory.events";
}

static int read_counts(const cg_events_watch_t *watch, cg_memory_events_t *ret) {
        uint64_t wakeups;

        /* A removed cgroup is a normal end for a watch, not an error worth a log line. */
        if (faccessat(watch->cg_dirfd, counts_file(watch->source), F_OK, 0) < 0 &&
            (errno == ENOENT || errno == ENODEV))
                return -ENODEV;
        if (watch->source == CG_EVENTS_V1) {
                /* Drain the eventfd so that it only wakes the loop for the next OOM. */
                if (read(watch->fd, &wakeups, sizeof(wakeups)) < 0 && errno != EAGAIN)
                        return log_error_errno(errno, "Failed to read the OOM eventfd: %m");
                return cg_v1_memory_read_events(watch->cg_dirfd, ret);
        }
        return cg_memory_read_events_fd(watch->fd, watch->cg_dirfd,
                                        watch->source == CG_EVENTS_V2_LOCAL, ret);
}

int cg_events_watch_open(int cg_dirfd, cg_events_source_t source, cg_events_watch_t *ret) {
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];
        cg_events_watch_t watch;
        int r;

        assert(cg_dirfd >= 0);
        assert(source == CG_EVENTS_V2 || source == CG_EVENTS_V2_LOCAL || source == CG_EVENTS_V1);
        assert(ret);

        if (source == CG_EVENTS_V1) {
                r = cg_v1_memory_oom_eventfd(cg_dirfd, &fd);
                if (r < 0)
                        return r;
        } else {
                const char *file = counts_file(source);
                fd = openat(cg_dirfd, file, O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                        return log_error_errno(
                                errno, "Failed to open %s: %m",
                                cg_path_for_message(cg_dirfd, file, path, sizeof(path)));
        }
        watch = (cg_events_watch_t){.cg_dirfd = cg_dirfd, .fd = fd, .source = source};
        /* The first read also marks the file as seen, so poll waits for the next change. */
        r = read_counts(&watch, &watch.last);
        if (r < 0)
                return r;
        fd = -EBADF;
        *ret = watch;
        return 0;
}

void cg_events_watch_close(cg_events_watch_t *watch) {
        assert(watch);
        if (watch->fd >= 0)
                close(watch->fd);
        watch->fd = -EBADF;
}

short cg_events_watch_poll_events(const cg_events_watch_t *watch) {
        assert(watch);
        return watch->source == CG_EVENTS_V1 ? POLLIN : POLLPRI;
}

int cg_events_watch_update(cg_events_watch_t *watch, cg_memory_events_t *ret_delta) {
        cg_memory_events_t now, delta;
        int r;

        assert(watch);
        assert(watch->fd >= 0);
        assert(ret_delta);

        r = read_counts(watch, &now);
        if (r < 0)
                return r;
        cg_memory_events_delta(&watch->last, &now, &delta);
        watch->last = now;
        *ret_delta = delta;
        return (delta.low | delta.high | delta.max | delta.oom | delta.oom_kill |
                delta.oom_group_kill) != 0;
}
