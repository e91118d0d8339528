/* SPDX-License-Identifier: Apache-2.0 */
/* TotalBudget=auto: MemTotal less the safety margin, capped by our cgroup's limit (the
 * smallest of its own and its ancestors'). */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cgroup/cg-files.h"
#include "cgroup/cg-limit.h"
#include "cgroup/hierarchy.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/budget.h"

uint64_t budget_auto_compute(uint64_t mem_total_bytes, uint64_t cgroup_limit_bytes,
                             uint64_t safety_margin_bytes) {
        uint64_t budget =
                mem_total_bytes > safety_margin_bytes ? mem_total_bytes - safety_margin_bytes : 0;

        return cgroup_limit_bytes < budget ? cgroup_limit_bytes : budget;
}

int budget_parse_meminfo(const char *text, uint64_t *ret_bytes) {
        const char *line;
        unsigned long long kib;

        assert(text);
        assert(ret_bytes);
        for (line = text; line; line = strchr(line, '\n')) {
                if (*line == '\n')
                        line++;
                if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
                        *ret_bytes = (uint64_t)kib * 1024;
                        return 0;
                }
        }
        return -EBADMSG;
}

static int read_mem_total(uint64_t *ret_bytes) {
        char text[4096];
        size_t n;
        FILE *f;
        int r;

        f = fopen("/proc/meminfo", "re");
        if (!f)
                return log_error_errno(errno, "Failed to open /proc/meminfo: %m");
        n = fread(text, 1, sizeof(text) - 1, f);
        fclose(f);
        text[n] = '\0';
        r = budget_parse_meminfo(text, ret_bytes);
        if (r < 0)
                return log_error_errno(r, "/proc/meminfo: no MemTotal line");
        return 0;
}

uint64_t budget_cgroup_limit(const cg_hierarchy_t *hierarchy, char *ret_file, size_t file_size) {
        _cleanup_close_ int fd = -EBADF;
        uint64_t limit = CG_LIMIT_MAX;
        int r;

        assert(hierarchy);
        assert(ret_file);
        assert(file_size > 0);

        ret_file[0] = '\0';
        if (hierarchy->kind == CG_HIERARCHY_V1_MEMORY) {
                cg_keyed_value_t value = {.key = "hierarchical_memory_limit"};

                fd = open(hierarchy->v1_memory_dir, O_DIRECTORY | O_PATH | O_CLOEXEC);
                if (fd >= 0 && cg_read_keyed(fd, "memory.stat", &value, 1) >= 0 && value.found) {
                        limit = value.value;
                        snprintf(ret_file, file_size, "%s/memory.stat hierarchical_memory_limit",
                                 hierarchy->v1_memory_dir);
                }
        } else if (hierarchy->v2_dir[0]) {
                assert(strncmp(hierarchy->v2_dir, hierarchy->v2_mount,
                               strlen(hierarchy->v2_mount)) == 0);
                /* Every ancestor, not our cgroup alone: cuzkd moves itself into supervisor/
                 * before the budget is computed (and a reload computes it again there), and
                 * a limit is usually set above us (MemoryMax= on cuzkd.service, a cgroup a
                 * benchmark made for us), so our own memory.max reads "max". Also when our
                 * cgroup has no memory controller: an ancestor's limit still holds for us.
                 * Not memory.high: it is a point where the kernel throttles, which may be
                 * breached and which tools move (senpai sets it to the working set); the
                 * throttling shows as memory pressure, which pauses admission. */
                r = cg_limit_smallest(hierarchy->v2_mount,
                                      hierarchy->v2_dir + strlen(hierarchy->v2_mount), "memory.max",
                                      &limit, ret_file, file_size);
                if (r < 0) {
                        log_warning("TotalBudget=auto: the memory.max of %s and its ancestors "
                                    "could not be read; the budget follows MemTotal alone",
                                    hierarchy->v2_dir);
                        ret_file[0] = '\0';
                        limit = CG_LIMIT_MAX;
                }
        }
        return limit;
}

int budget_auto_detect(uint64_t safety_margin_bytes, uint64_t *ret_bytes, char *ret_source,
                       size_t source_size) {
        char limit_file[PATH_MAX + 64] = "";
        uint64_t mem_total, limit = CG_LIMIT_MAX;
        cg_hierarchy_t hierarchy;
        int r;

        assert(ret_bytes);
        assert(ret_source);
        r = read_mem_total(&mem_total);
        if (r < 0)
                return r;
        if (cg_hierarchy_detect(&hierarchy) >= 0)
                limit = budget_cgroup_limit(&hierarchy, limit_file, sizeof(limit_file));
        *ret_bytes = budget_auto_compute(mem_total, limit, safety_margin_bytes);
        if (limit_file[0] &&
            limit < budget_auto_compute(mem_total, CG_LIMIT_MAX, safety_margin_bytes))
                snprintf(ret_source, source_size, "%s", limit_file);
        else
                snprintf(ret_source, source_size, "MemTotal %" PRIu64 " - SafetyMargin %" PRIu64,
                         mem_total, safety_margin_bytes);
        if (*ret_bytes == 0)
                return log_error_errno(-ERANGE,
                                       "TotalBudget=auto: MemTotal %" PRIu64
                                       " bytes is not above SafetyMargin=%" PRIu64
                                       " bytes: set a smaller SafetyMargin or a TotalBudget",
                                       mem_total, safety_margin_bytes);
        return 0;
}
