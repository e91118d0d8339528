/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-domain.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cg-tree.h"
#include "cgroup/cg-v1.h"
#include "common/cleanup.h"
#include "common/log.h"

const char *cg_enforcement_name(cg_enforcement_t enforcement) {
        switch (enforcement) {
        case CG_ENFORCEMENT_V2:
                return "cgroup v2";
        case CG_ENFORCEMENT_V1_MEMORY:
                return "cgroup v1 memory";
        case CG_ENFORCEMENT_RLIMIT_DATA:
                break;
        }
        return "RLIMIT_DATA";
}

const char *cg_domain_enforcement_name(const cg_domain_t *domain) {
        assert(domain);
        return cg_enforcement_name(domain->enforcement);
}

/* Whether we may create children in the cgroup and write control_file there: EROFS in
 * containers, EACCES without delegation. */
static int check_writable(const char *dir, const char *control_file, int *ret_dirfd) {
        _cleanup_close_ int fd = -EBADF;
        int r;

        fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return log_warning_errno(errno, "Cannot open our cgroup %s: %m", dir);
        if (faccessat(fd, ".", W_OK, AT_EACCESS) < 0 ||
            faccessat(fd, control_file, W_OK, AT_EACCESS) < 0) {
                r = errno;
                return log_warning_errno(r, "Our cgroup %s is not writable (%s): %m", dir,
                                         control_file);
        }
        *ret_dirfd = TAKE_FD(fd);
        return 0;
}

int cg_domain_open(const cg_hierarchy_t *hierarchy, cg_domain_t *ret) {
        cg_domain_t domain = {.enforcement = CG_ENFORCEMENT_RLIMIT_DATA, .own_dirfd = -EBADF};
        int fd = -EBADF;

        assert(hierarchy);
        assert(ret);

        if (hierarchy->kind == CG_HIERARCHY_V2 &&
            check_writable(hierarchy->v2_dir, "cgroup.subtree_control", &fd) >= 0) {
                domain.enforcement = CG_ENFORCEMENT_V2;
                snprintf(domain.own_path, sizeof(domain.own_path), "%s", hierarchy->v2_dir);
        } else if (hierarchy->kind == CG_HIERARCHY_V1_MEMORY &&
                   check_writable(hierarchy->v1_memory_dir, "cgroup.procs", &fd) >= 0) {
                domain.enforcement = CG_ENFORCEMENT_V1_MEMORY;
                snprintf(domain.own_path, sizeof(domain.own_path), "%s", hierarchy->v1_memory_dir);
        }
        domain.own_dirfd = fd;

        if (domain.enforcement == CG_ENFORCEMENT_RLIMIT_DATA)
                log_warning("Memory enforcement: RLIMIT_DATA per worker only (no writable "
                            "cgroup memory controller; hierarchy: %s). Budget and PSI "
                            "admission stay on; the kernel does not enforce worker limits "
                            "on page cache, shared memory or memfds.",
                            cg_hierarchy_kind_name(hierarchy->kind));
        else
                log_info("Memory enforcement: %s, workers below %s",
                         cg_enforcement_name(domain.enforcement), domain.own_path);
        *ret = domain;
        return 0;
}

void cg_domain_close(cg_domain_t *domain) {
        assert(domain);
        if (domain->own_dirfd >= 0)
                close(domain->own_dirfd);
        domain->own_dirfd = -EBADF;
}

int cg_domain_set_limits(const cg_domain_t *domain, int worker_dirfd,
                         const cg_worker_limits_t *limits) {
        int r;

        assert(domain);
        assert(limits);
        assert(limits->high_bytes == CG_LIMIT_MAX || limits->high_bytes <= limits->max_bytes);

        switch (domain->enforcement) {
        case CG_ENFORCEMENT_V2:
                assert(worker_dirfd >= 0);
                /* high first: a lowered high reclaims (and throttles) before a lowered
                 * max would OOM-kill. */
                r = cg_memory_set_high(worker_dirfd, limits->high_bytes);
                if (r < 0)
                        return r;
                r = cg_memory_set_max(worker_dirfd, limits->max_bytes);
                if (r < 0)
                        return r;
                return cg_memory_set_oom_group(worker_dirfd, true);
        case CG_ENFORCEMENT_V1_MEMORY:
                assert(worker_dirfd >= 0);
                r = cg_v1_memory_set_limit(worker_dirfd, limits->max_bytes);
                if (r < 0)
                        return r;
                return cg_v1_memory_set_soft_limit(worker_dirfd, limits->high_bytes);
        case CG_ENFORCEMENT_RLIMIT_DATA:
                break;
        }
        return 0;
}

int cg_domain_read_usage(const cg_domain_t *domain, int worker_dirfd, cg_worker_usage_t *ret) {
        cg_worker_usage_t usage = {0};
        int r;

        assert(domain);
        assert(ret);

        switch (domain->enforcement) {
        case CG_ENFORCEMENT_V2:
                assert(worker_dirfd >= 0);
                r = cg_memory_current(worker_dirfd, &usage.current_bytes);
                if (r < 0)
                        return r;
                r = cg_memory_peak(worker_dirfd, &usage.peak_bytes);
                if (r < 0 && r != -ENOENT)
                        return r;
                r = cg_memory_read_events(worker_dirfd, false, &usage.events);
                break;
        case CG_ENFORCEMENT_V1_MEMORY:
                assert(worker_dirfd >= 0);
                r = cg_v1_memory_usage(worker_dirfd, &usage.current_bytes);
                if (r < 0)
                        return r;
                r = cg_v1_memory_max_usage(worker_dirfd, &usage.peak_bytes);
                if (r < 0)
                        return r;
                r = cg_v1_memory_read_events(worker_dirfd, &usage.events);
                break;
        case CG_ENFORCEMENT_RLIMIT_DATA:
        default:
                return -EOPNOTSUPP;
        }
        if (r < 0)
                return r;
        *ret = usage;
        return 0;
}

cg_events_source_t cg_domain_events_source(const cg_domain_t *domain) {
        assert(domain);
        return domain->enforcement == CG_ENFORCEMENT_V1_MEMORY ? CG_EVENTS_V1 : CG_EVENTS_V2;
}

void cg_domain_spawn_params(const cg_domain_t *domain, int worker_dirfd,
                            const cg_worker_limits_t *limits, cg_spawn_params_t *params) {
        assert(domain);
        assert(limits);
        assert(params);

        params->cgroup_dirfd = -EBADF;
        params->cgroup_is_v2 = false;
        params->rlimit_data_bytes = 0;
        switch (domain->enforcement) {
        case CG_ENFORCEMENT_V2:
                params->cgroup_dirfd = worker_dirfd;
                params->cgroup_is_v2 = true;
                break;
        case CG_ENFORCEMENT_V1_MEMORY:
                params->cgroup_dirfd = worker_dirfd;
                break;
        case CG_ENFORCEMENT_RLIMIT_DATA:
                if (limits->max_bytes != CG_LIMIT_MAX)
                        params->rlimit_data_bytes = limits->max_bytes;
                break;
        }
}
