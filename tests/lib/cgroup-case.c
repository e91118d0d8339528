/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/cgroup-case.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "cgroup/cg-tree.h"
#include "tests/lib/cgroup-common.h"

cg_hierarchy_t cgt_hierarchy;
bool cgt_hierarchy_known;
char cgt_test_cgroup_name[64];

void cgt_case_init(const char *name_prefix, const char *note) {
        snprintf(cgt_test_cgroup_name, sizeof(cgt_test_cgroup_name), "%s-%d", name_prefix,
                 (int)getpid());
        cgt_hierarchy_known = cg_hierarchy_detect(&cgt_hierarchy) >= 0;
        printf("# hierarchy: %s (v2 %s, v1 memory %s)%s\n",
               cg_hierarchy_kind_name(cgt_hierarchy.kind),
               cgt_hierarchy.v2_dir[0] ? cgt_hierarchy.v2_dir : "-",
               cgt_hierarchy.v1_memory_dir[0] ? cgt_hierarchy.v1_memory_dir : "-", note);
}

void cgt_case_open_domain(cg_domain_t *domain) {
        domain->own_dirfd = -EBADF;
        if (geteuid() == 0 && cgt_hierarchy_known)
                (void)cg_domain_open(&cgt_hierarchy, domain);
}

bool cgt_have_capability(int cap) {
        char status[8192], *line;
        unsigned long long eff;

        if (cg_read_string(AT_FDCWD, "/proc/self/status", status, sizeof(status)) < 0)
                return false;
        line = strstr(status, "CapEff:");
        return line && sscanf(line, "CapEff: %llx", &eff) == 1 && (eff & (1ull << cap));
}

int cgt_create_memory_cgroup(const cg_domain_t *domain) {
        int fd, r;

        if (geteuid() != 0)
                cgt_skip("needs root");
        if (domain->enforcement == CG_ENFORCEMENT_RLIMIT_DATA)
                cgt_skip("no writable memory cgroup here (%s)",
                         cg_hierarchy_kind_name(cgt_hierarchy.kind));
        r = cg_child_create(domain->own_dirfd, cgt_test_cgroup_name, &fd);
        if (r == -EACCES || r == -EPERM || r == -EROFS)
                cgt_skip("cannot create cgroups below %s", domain->own_path);
        assert_int_equal(r, 0);
        if (domain->enforcement == CG_ENFORCEMENT_V2) {
                if (faccessat(fd, "memory.max", F_OK, 0) < 0) {
                        close(fd);
                        cgt_skip("our cgroup %s does not enable memory for its children",
                                 domain->own_path);
                }
                assert_int_equal(cg_enable_controllers(fd, CG_CONTROLLER_MEMORY),
                                 CG_CONTROLLER_MEMORY);
        }
        return fd;
}

void cgt_remove_test_cgroup(int own_dirfd) {
        int fd;

        if (own_dirfd < 0 || faccessat(own_dirfd, cgt_test_cgroup_name, F_OK, 0) < 0)
                return;
        if (cg_child_open(own_dirfd, cgt_test_cgroup_name, &fd) == 0) {
                (void)cg_kill(fd);
                /* Killed children of ours would stay zombies (and the cgroup populated). */
                for (int i = 0; i < 100 && cg_is_populated(fd) > 0; i++) {
                        while (waitpid(-1, NULL, WNOHANG) > 0)
                                ;
                        usleep(10000);
                }
                close(fd);
        }
        (void)cg_child_remove_tree(own_dirfd, cgt_test_cgroup_name);
}
