/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-tree.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "cgroup/hierarchy.h"
#include "common/cleanup.h"
#include "common/log.h"

/* How long cg_kill waits, without cgroup.kill, for killed processes to leave the cgroup. */
#define CG_KILL_TIMEOUT_USEC (5 * 1000 * 1000)
#define CG_KILL_POLL_USEC (5 * 1000)

static const struct {
        cg_controller_t bit;
        const char *name;
} controller_names[] = {
        {CG_CONTROLLER_MEMORY, "memory"},
        {CG_CONTROLLER_PIDS, "pids"},
        {CG_CONTROLLER_CPU, "cpu"},
};

static bool name_is_single_component(const char *name) {
        return name[0] && strchr(name, '/') == NULL && strcmp(name, ".") != 0 &&
               strcmp(name, "..") != 0;
}

int cg_open_path(const char *path, int *ret_dirfd) {
        int fd;

        assert(path);
        assert(ret_dirfd);

        fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open cgroup %s: %m", path);
        *ret_dirfd = fd;
        return 0;
}

int cg_child_open(int parent_dirfd, const char *name, int *ret_dirfd) {
        char path[PATH_MAX + 64];
        int fd;

        assert(parent_dirfd >= 0);
        assert(name && name_is_single_component(name));
        assert(ret_dirfd);

        fd = openat(parent_dirfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open cgroup %s: %m",
                                       cg_path_for_message(parent_dirfd, name, path, sizeof(path)));
        *ret_dirfd = fd;
        return 0;
}

int cg_child_create(int parent_dirfd, const char *name, int *ret_dirfd) {
        char path[PATH_MAX + 64];

        assert(parent_dirfd >= 0);
        assert(name && name_is_single_component(name));
        assert(ret_dirfd);

        if (mkdirat(parent_dirfd, name, 0755) < 0 && errno != EEXIST)
                return log_error_errno(errno, "Failed to create cgroup %s: %m",
                                       cg_path_for_message(parent_dirfd, name, path, sizeof(path)));
        return cg_child_open(parent_dirfd, name, ret_dirfd);
}

int cg_child_remove(int parent_dirfd, const char *name) {
        char path[PATH_MAX + 64];

        assert(parent_dirfd >= 0);
        assert(name && name_is_single_component(name));

        if (unlinkat(parent_dirfd, name, AT_REMOVEDIR) < 0)
                return log_error_errno(errno, "Failed to remove cgroup %s: %m",
                                       cg_path_for_message(parent_dirfd, name, path, sizeof(path)));
        return 0;
}

int cg_kill_all(int cg_dirfd, unsigned timeout_ms) {
        assert(cg_dirfd >= 0);
        for (unsigned waited = 0;; waited += 10) {
                char procs[4096], *save = NULL;
                bool any = false;

                if (cg_read_string(cg_dirfd, "cgroup.procs", procs, sizeof(procs)) < 0)
                        return 0; /* gone, or not a cgroup with processes */
                for (char *pid = strtok_r(procs, "\n", &save); pid;
                     pid = strtok_r(NULL, "\n", &save)) {
                        any = true;
                        (void)kill((pid_t)atoi(pid), SIGKILL);
                }
                if (!any)
                        return 0;
                if (waited >= timeout_ms)
                        return -ETIMEDOUT;
                usleep(10000);
        }
}

int cg_child_remove_tree(int parent_dirfd, const char *name) {
        _cleanup_close_ int fd = -EBADF;
        DIR *dir;
        struct dirent *entry;
        char path[PATH_MAX + 64];
        int r = 0;

        assert(parent_dirfd >= 0);
        assert(name && name_is_single_component(name));

        fd = openat(parent_dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open cgroup %s: %m",
                                       cg_path_for_message(parent_dirfd, name, path, sizeof(path)));
        dir = fdopendir(fd);
        if (!dir)
                return log_error_errno(errno, "Failed to list cgroup %s: %m",
                                       cg_path_for_message(parent_dirfd, name, path, sizeof(path)));
        fd = -EBADF; /* owned by dir now */
        /* In cgroupfs, the subdirectories of a cgroup are exactly its child cgroups. */
        while ((entry = readdir(dir))) {
                if (entry->d_type != DT_DIR || strcmp(entry->d_name, ".") == 0 ||
                    strcmp(entry->d_name, "..") == 0)
                        continue;
                r = cg_child_remove_tree(dirfd(dir), entry->d_name);
                if (r < 0)
                        break;
        }
        closedir(dir);
        if (r < 0)
                return r;
        return cg_child_remove(parent_dirfd, name);
}

int cg_enable_controllers(int cg_dirfd, unsigned wanted) {
        char available[1024], request[128] = "";
        unsigned enabled = 0;
        int r;

        assert(cg_dirfd >= 0);

        r = cg_read_string(cg_dirfd, "cgroup.controllers", available, sizeof(available));
        if (r < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(controller_names); i++) {
                if (!(wanted & controller_names[i].bit))
                        continue;
                if (!cg_controller_listed(available, controller_names[i].name)) {
                        /* Not delegated to us: the unit lacks Delegate=<controller>. */
                        log_info("cgroup controller %s not available (cgroup.controllers: %s)",
                                 controller_names[i].name, available);
                        continue;
                }
                if (request[0])
                        strcat(request, " ");
                strcat(request, "+");
                strcat(request, controller_names[i].name);
                enabled |= controller_names[i].bit;
        }
        if (enabled == 0)
                return 0;
        /* One write: the kernel applies all of it or none. EBUSY means processes still
         * live in this cgroup (move them out first, see cg_move_self_into()). */
        r = cg_write_string(cg_dirfd, "cgroup.subtree_control", request);
        if (r < 0)
                return r;
        return (int)enabled;
}

int cg_move_pid(int cg_dirfd, pid_t pid) {
        char buf[32];

        assert(cg_dirfd >= 0);
        assert(pid >= 0);

        snprintf(buf, sizeof(buf), "%d", (int)pid);
        return cg_write_string(cg_dirfd, "cgroup.procs", buf);
}

int cg_move_self_into(int own_dirfd, const char *name, int *ret_dirfd) {
        _cleanup_close_ int fd = -EBADF;
        int r;

        assert(own_dirfd >= 0);
        assert(name);
        assert(ret_dirfd);

        r = cg_child_create(own_dirfd, name, &fd);
        if (r < 0)
                return r;
        r = cg_move_pid(fd, getpid());
        if (r < 0)
                return r;
        *ret_dirfd = TAKE_FD(fd);
        return 0;
}

/* Sends SIGKILL to every pid listed in cgroup.procs; returns how many were listed. */
static int kill_listed_pids(int cg_dirfd) {
        _cleanup_close_ int fd = -EBADF;
        _cleanup_fclose_ FILE *f = NULL;
        char path[PATH_MAX + 64];
        int pid, n = 0;

        fd = openat(cg_dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(
                        errno, "Failed to open %s: %m",
                        cg_path_for_message(cg_dirfd, "cgroup.procs", path, sizeof(path)));
        f = fdopen(fd, "r");
        if (!f)
                return log_error_errno(
                        errno, "Failed to read %s: %m",
                        cg_path_for_message(cg_dirfd, "cgroup.procs", path, sizeof(path)));
        fd = -EBADF;
        while (fscanf(f, "%d", &pid) == 1) {
                n++;
                if (kill(pid, SIGKILL) < 0 && errno != ESRCH)
                        return log_error_errno(
                                errno, "Failed to kill pid %d of %s: %m", pid,
                                cg_path_for_message(cg_dirfd, ".", path, sizeof(path)));
        }
        return n;
}

/* The pre-5.14 and v1 way: kill this cgroup's pids until none is listed (SIGKILL takes
 * effect when the target next runs; exited processes leave the list even as zombies), then
 * the children's. */
static int kill_by_listing(int cg_dirfd) {
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];
        DIR *dir;
        struct dirent *entry;
        int r = 0;

        for (long waited = 0;; waited += CG_KILL_POLL_USEC) {
                r = kill_listed_pids(cg_dirfd);
                if (r <= 0)
                        break;
                if (waited >= CG_KILL_TIMEOUT_USEC)
                        return log_error_errno(
                                EBUSY, "%d processes of %s survive SIGKILL", r,
                                cg_path_for_message(cg_dirfd, ".", path, sizeof(path)));
                usleep(CG_KILL_POLL_USEC);
        }
        if (r < 0)
                return r;
        fd = openat(cg_dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        dir = fdopendir(fd);
        if (!dir)
                return -errno;
        fd = -EBADF;
        while ((entry = readdir(dir))) {
                _cleanup_close_ int child = -EBADF;
                if (entry->d_type != DT_DIR || strcmp(entry->d_name, ".") == 0 ||
                    strcmp(entry->d_name, "..") == 0)
                        continue;
                child = openat(dirfd(dir), entry->d_name, O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (child < 0)
                        continue; /* removed meanwhile */
                r = kill_by_listing(child);
                if (r < 0)
                        break;
        }
        closedir(dir);
        return r < 0 ? r : 0;
}

int cg_kill(int cg_dirfd) {
        assert(cg_dirfd >= 0);

        if (faccessat(cg_dirfd, "cgroup.kill", F_OK, 0) == 0)
                return cg_write_string(cg_dirfd, "cgroup.kill", "1");
        return kill_by_listing(cg_dirfd);
}

int cg_is_populated(int cg_dirfd) {
        cg_keyed_value_t populated = {.key = "populated"};
        char path[PATH_MAX + 64], first[16];
        int r;

        assert(cg_dirfd >= 0);

        if (faccessat(cg_dirfd, "cgroup.events", F_OK, 0) < 0) {
                /* v1 has no cgroup.events: look for any pid (this cgroup only). */
                _cleanup_close_ int fd = openat(cg_dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
                ssize_t n;
                if (fd < 0)
                        return log_error_errno(
                                errno, "Failed to open %s: %m",
                                cg_path_for_message(cg_dirfd, "cgroup.procs", path, sizeof(path)));
                n = read(fd, first, sizeof(first));
                if (n < 0)
                        return log_error_errno(
                                errno, "Failed to read %s: %m",
                                cg_path_for_message(cg_dirfd, "cgroup.procs", path, sizeof(path)));
                return n > 0;
        }
        r = cg_read_keyed(cg_dirfd, "cgroup.events", &populated, 1);
        if (r < 0)
                return r;
        if (!populated.found || populated.value > 1)
                return log_error_errno(
                        EBADMSG, "%s: expected 'populated 0|1'",
                        cg_path_for_message(cg_dirfd, "cgroup.events", path, sizeof(path)));
        return (int)populated.value;
}

int cg_nr_dying_descendants(int cg_dirfd, uint64_t *ret) {
        cg_keyed_value_t dying = {.key = "nr_dying_descendants"};
        char path[PATH_MAX + 64];
        int r;

        assert(cg_dirfd >= 0);
        assert(ret);

        r = cg_read_keyed(cg_dirfd, "cgroup.stat", &dying, 1);
        if (r < 0)
                return r;
        if (!dying.found)
                return log_error_errno(
                        EBADMSG, "%s: no nr_dying_descendants",
                        cg_path_for_message(cg_dirfd, "cgroup.stat", path, sizeof(path)));
        *ret = dying.value;
        return 0;
}
