/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where our memory controller lives: the unified (v2) hierarchy, a v1
 * "memory" hierarchy (hybrid and legacy hosts), or nowhere. Found from
 * /proc/self/mountinfo, /proc/self/cgroup and our v2 cgroup.controllers.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>

typedef enum cg_hierarchy_kind {
        CG_HIERARCHY_NONE,      /* no memory controller we can use */
        CG_HIERARCHY_V2,        /* unified hierarchy with the memory controller */
        CG_HIERARCHY_V1_MEMORY, /* memory controller on a v1 hierarchy */
} cg_hierarchy_kind_t;

typedef struct cg_hierarchy {
        cg_hierarchy_kind_t kind;
        /* Our own cgroup's directory in each hierarchy, "" where there is none. */
        char v2_dir[PATH_MAX];
        char v1_memory_dir[PATH_MAX];
        /* Where the v2 hierarchy is mounted (set with v2_dir, which starts with it): the
         * top of a walk up from our cgroup through its ancestors (cg-limit.h). */
        char v2_mount[PATH_MAX];
} cg_hierarchy_t;

/* Decides from the texts of /proc/self/mountinfo and /proc/self/cgroup and of our v2
 * cgroup's cgroup.controllers (NULL when it could not be read). -EBADMSG on malformed
 * input, -ENOENT when our cgroup lies outside the mounted subtree. */
int cg_hierarchy_parse(const char *mountinfo, const char *proc_self_cgroup,
                       const char *v2_controllers, cg_hierarchy_t *ret);

/* The same for this process, from /proc. */
int cg_hierarchy_detect(cg_hierarchy_t *ret);

/* "cgroup v2", "cgroup v1 memory", "none". */
const char *cg_hierarchy_kind_name(cg_hierarchy_kind_t kind);

/* Whether the space-separated list (cgroup.controllers format) names controller. */
bool cg_controller_listed(const char *list, const char *controller);
