/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-spawn.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "common/cleanup.h"
#include "common/log.h"

extern char **environ;

/* Set once clone3 or CLONE_INTO_CGROUP turned out to be missing (seccomp, old kernel). */
static atomic_bool clone3_unavailable;

/* What the child failed at, sent up the error pipe. */
typedef enum child_stage {
        STAGE_CGROUP,
        STAGE_OOM_SCORE_ADJ,
        STAGE_RLIMIT,
        STAGE_PDEATHSIG,
        STAGE_EXEC,
} child_stage_t;

typedef struct child_failure {
        int stage;
        int error;
} child_failure_t;

static const char *stage_name(int stage) {
        static const char *const names[] = {
                [STAGE_CGROUP] = "joining the cgroup (cgroup.procs)",
                [STAGE_OOM_SCORE_ADJ] = "setting oom_score_adj",
                [STAGE_RLIMIT] = "setting RLIMIT_DATA",
                [STAGE_PDEATHSIG] = "setting the parent-death signal",
                [STAGE_EXEC] = "exec",
        };
        if (stage < 0 || (size_t)stage >= ELEMENTSOF(names))
                return "an unknown step";
        return names[stage];
}

/* Everything the child needs, prepared by the parent: after fork only async-signal-safe
 * calls are allowed, so no formatting or allocation happens there. */
typedef struct child_plan {
        const cg_spawn_params_t *params;
        char *const *envp;
        bool join_cgroup; /* fork path: write ourselves into cgroup.procs */
        char oom_score_adj[16];
        pid_t parent;
        int error_pipe;
} child_plan_t;

static void write_all_quietly(int fd, const void *buf, size_t len) {
        while (len > 0) {
                ssize_t n = write(fd, buf, len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return;
                buf = (const char *)buf + n;
                len -= (size_t)n;
        }
}

static _Noreturn void child_fail(const child_plan_t *plan, child_stage_t stage, int error) {
        child_failure_t failure = {.stage = stage, .error = error};
        write_all_quietly(plan->error_pipe, &failure, sizeof(failure));
        _exit(127);
}

/* Writes a short string to a file; returns 0 or an errno. */
static int child_write_file(int dirfd, const char *file, const char *value) {
        int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
        ssize_t n;
        int error;

        if (fd < 0)
                return errno;
        n = write(fd, value, strlen(value));
        error = n < 0 ? errno : 0;
        close(fd);
        return error;
}

static _Noreturn void child_run(const child_plan_t *plan) {
        const cg_spawn_params_t *p = plan->params;
        sigset_t all;
        int error;

        if (plan->join_cgroup) {
                /* "0" is the writing process itself, on v1 and v2 alike. */
                error = child_write_file(p->cgroup_dirfd, "cgroup.procs", "0");
                if (error)
                        child_fail(plan, STAGE_CGROUP, error);
        }
        if (plan->oom_score_adj[0]) {
                error = child_write_file(AT_FDCWD, "/proc/self/oom_score_adj", plan->oom_score_adj);
                if (error)
                        child_fail(plan, STAGE_OOM_SCORE_ADJ, error);
        }
        if (p->rlimit_data_bytes > 0) {
                struct rlimit limit = {.rlim_cur = p->rlimit_data_bytes,
                                       .rlim_max = p->rlimit_data_bytes};
                if (setrlimit(RLIMIT_DATA, &limit) < 0)
                        child_fail(plan, STAGE_RLIMIT, errno);
        }
        if (p->parent_death_signal) {
                if (prctl(PR_SET_PDEATHSIG, p->parent_death_signal) < 0)
                        child_fail(plan, STAGE_PDEATHSIG, errno);
                /* The parent may have died before prctl: then nobody would signal us. */
                if (getppid() != plan->parent)
                        _exit(127);
        }
        /* The daemon blocks signals for signalfd; the new program must not inherit that. */
        sigemptyset(&all);
        sigprocmask(SIG_SETMASK, &all, NULL);
        execve(p->path, p->argv, plan->envp);
        child_fail(plan, STAGE_EXEC, errno);
}

/* clone3 into the cgroup; returns the pid, 0 in the child, or -errno. */
static pid_t clone3_into_cgroup(int cgroup_dirfd, int *pidfd) {
        struct clone_args args = {
                .flags = CLONE_INTO_CGROUP | CLONE_PIDFD,
                .pidfd = (uint64_t)(uintptr_t)pidfd,
                .exit_signal = SIGCHLD,
                .cgroup = (uint64_t)cgroup_dirfd,
        };
        long pid = syscall(SYS_clone3, &args, sizeof(args));
        return pid < 0 ? -errno : (pid_t)pid;
}

/* Waits for the child's exec: EOF on the pipe means it happened. */
static int wait_for_exec(const cg_spawn_params_t *p, int read_end, pid_t pid) {
        child_failure_t failure;
        ssize_t n;

        do
                n = read(read_end, &failure, sizeof(failure));
        while (n < 0 && errno == EINTR);
        if (n == 0)
                return 0;
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
        if (n != (ssize_t)sizeof(failure))
                return log_error_errno(EIO, "Child %d for %s died before exec", (int)pid, p->path);
        return log_error_errno(failure.error, "Starting %s failed at %s: %m", p->path,
                               stage_name(failure.stage));
}

int cg_spawn(const cg_spawn_params_t *p, cg_spawned_t *ret) {
        _cleanup_close_ int read_end = -EBADF, write_end = -EBADF, pidfd = -EBADF;
        child_plan_t plan = {.params = p, .parent = getpid()};
        bool via_clone3 = false;
        int pipe_fds[2], r;
        pid_t pid = -1;

        assert(p);
        assert(p->path);
        assert(p->argv && p->argv[0]);
        assert(p->oom_score_adj == CG_OOM_SCORE_ADJ_INHERIT ||
               (p->oom_score_adj >= -1000 && p->oom_score_adj <= 1000));
        assert(ret);

        if (pipe2(pipe_fds, O_CLOEXEC) < 0)
                return log_error_errno(errno, "Failed to create a pipe: %m");
        read_end = pipe_fds[0];
        write_end = pipe_fds[1];
        plan.error_pipe = write_end;
        plan.envp = p->envp ? p->envp : environ;
        if (p->oom_score_adj != CG_OOM_SCORE_ADJ_INHERIT)
                snprintf(plan.oom_score_adj, sizeof(plan.oom_score_adj), "%d", p->oom_score_adj);

        if (p->cgroup_dirfd >= 0 && p->cgroup_is_v2 && !atomic_load(&clone3_unavailable)) {
                pid = clone3_into_cgroup(p->cgroup_dirfd, &pidfd);
                if (pid == 0)
                        child_run(&plan);
                if (pid == -ENOSYS || pid == -EINVAL || pid == -E2BIG) {
                        log_info("clone3(CLONE_INTO_CGROUP) unavailable (%s), using fork and "
                                 "cgroup.procs",
                                 strerror(-pid));
                        atomic_store(&clone3_unavailable, true);
                } else if (pid < 0) {
                        char path[PATH_MAX + 64];
                        return log_error_errno(
                                -pid, "clone3 into cgroup %s for %s failed: %m",
                                cg_path_for_message(p->cgroup_dirfd, ".", path, sizeof(path)),
                                p->path);
                } else
                        via_clone3 = true;
        }
        if (!via_clone3) {
                plan.join_cgroup = p->cgroup_dirfd >= 0;
                pid = fork();
                if (pid < 0)
                        return log_error_errno(errno, "fork for %s failed: %m", p->path);
                if (pid == 0)
                        child_run(&plan);
                /* The child is not reaped yet, so this pid cannot have been reused. */
                pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
                if (pidfd < 0)
                        pidfd = -EBADF;
        }

        /* Our copy of the write end must go, or EOF never comes. */
        close(TAKE_FD(write_end));
        r = wait_for_exec(p, read_end, pid);
        if (r < 0)
                return r;
        *ret = (cg_spawned_t){.pid = pid, .pidfd = TAKE_FD(pidfd), .via_clone3 = via_clone3};
        return 0;
}
