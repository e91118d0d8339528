/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cgroup/ against the running kernel (kernel selftest style: set up exactly the state a case
 * needs, check the kernel's answer, clean up even on failure). Needs root and a writable
 * cgroup; cases that cannot run here skip, and the program exits 77 when all of them do.
 *  - memory limit: a 64 MiB worker cgroup (v2, or v1 memory on hybrid hosts) OOM-kills a
 *    200 MiB allocator started with cg_spawn, and its counters show it; a 32 MiB allocator
 *    survives in a 128 MiB cgroup;
 *  - v1: cg_kill without cgroup.kill;
 *  - v2: clone3(CLONE_INTO_CGROUP) and the fork fallback place the child, cgroup.kill,
 *    populated, moving ourselves into supervisor/, a PSI trigger on a removed cgroup;
 *  - PSI triggers on /proc/pressure/memory, 2 s windows and the rounding of 1 s;
 *  - RLIMIT_DATA fallback and spawn error reporting.
 * The program is also its own child: "alloc <MiB> <oom_score_adj> <cgroup suffix>",
 * "cgcheck <cgroup suffix>", "sleep".
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cg-domain.h"
#include "cgroup/cg-files.h"
#include "cgroup/cg-memory.h"
#include "cgroup/cg-spawn.h"
#include "cgroup/cg-tree.h"
#include "cgroup/cg-v1.h"
#include "cgroup/hierarchy.h"
#include "cgroup/memory-events.h"
#include "cgroup/psi.h"
#include "common/log.h"
#include "tests/lib/cgroup-case.h"
#include "tests/lib/cgroup-common.h"

#define MiB (UINT64_C(1) << 20)

/* Exit codes of the allocator child. */
enum {
        CHILD_OK = 0,
        CHILD_ALLOC_FAILED = 2,
        CHILD_WRONG_OOM_SCORE_ADJ = 3,
        CHILD_WRONG_CGROUP = 4,
        CHILD_USAGE = 5,
};

/* ---- the child side ---------------------------------------------------------------- */

/* Whether a line of /proc/self/cgroup ends with suffix (the memory line on v1, 0:: on v2). */
static bool in_cgroup_with_suffix(const char *suffix) {
        char text[4096], *line, *save = NULL;
        size_t suffix_len = strlen(suffix);

        if (cg_read_string(AT_FDCWD, "/proc/self/cgroup", text, sizeof(text)) < 0)
                return false;
        for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                size_t len = strlen(line);
                if (len >= suffix_len && strcmp(line + len - suffix_len, suffix) == 0)
                        return true;
        }
        return false;
}

static int child_alloc(int argc, char **argv) {
        size_t bytes;
        char adj[16], *memory;

        if (argc != 5)
                return CHILD_USAGE;
        bytes = (size_t)strtoull(argv[2], NULL, 10) * MiB;
        if (cg_read_string(AT_FDCWD, "/proc/self/oom_score_adj", adj, sizeof(adj)) < 0 ||
            strcmp(adj, argv[3]) != 0)
                return CHILD_WRONG_OOM_SCORE_ADJ;
        if (strcmp(argv[4], "-") != 0 && !in_cgroup_with_suffix(argv[4]))
                return CHILD_WRONG_CGROUP;
        memory = malloc(bytes);
        if (!memory)
                return CHILD_ALLOC_FAILED;
        /* Touch every page so that it is charged; volatile, or -O2 drops the stores (and
         * the allocation with them) as dead. */
        for (size_t i = 0; i < bytes; i += 4096)
                ((volatile char *)memory)[i] = 1;
        free(memory);
        return CHILD_OK;
}

static int child_main(int argc, char **argv) {
        if (strcmp(argv[1], "alloc") == 0)
                return child_alloc(argc, argv);
        if (strcmp(argv[1], "cgcheck") == 0 && argc == 3)
                return in_cgroup_with_suffix(argv[2]) ? CHILD_OK : CHILD_WRONG_CGROUP;
        if (strcmp(argv[1], "sleep") == 0) {
                for (;;)
                        pause();
        }
        return CHILD_USAGE;
}

/* ---- helpers of the parent side ---------------------------------------------------- */

static bool defined_x86_64(void) {
#if defined(__x86_64__)
        return true;
#else
        return false;
#endif
}

/* Starts this program as a child: argv after the program name, NULL-terminated. */
static int spawn_self(const cg_spawn_params_t *base, char **child_argv, cg_spawned_t *ret) {
        cg_spawn_params_t p = *base;
        p.path = "/proc/self/exe";
        p.argv = child_argv;
        return cg_spawn(&p, ret);
}

/* Waits for the child and returns its raw wait status. */
static int wait_child(cg_spawned_t *child) {
        int status = 0;
        assert_int_equal(waitpid(child->pid, &status, 0), child->pid);
        if (child->pidfd >= 0)
                close(child->pidfd);
        child->pidfd = -EBADF;
        return status;
}

/* Waits up to timeout_ms for cg_is_populated to answer 0. */
static int wait_unpopulated(int cg_dirfd, int timeout_ms) {
        int r = 0;
        for (int waited = 0; waited <= timeout_ms; waited += 10) {
                r = cg_is_populated(cg_dirfd);
                if (r <= 0)
                        return r;
                usleep(10000);
        }
        return r;
}

/* ---- memory limit, on whichever controller this host enforces with ---------------- */

typedef struct memory_case {
        cg_domain_t domain;
        int test_fd;
} memory_case_t;

static int memory_case_setup(void **state) {
        memory_case_t *c = calloc(1, sizeof(*c));

        if (!c)
                return -1;
        c->test_fd = -EBADF;
        cgt_case_open_domain(&c->domain);
        *state = c;
        return 0;
}

static int memory_case_teardown(void **state) {
        memory_case_t *c = *state;

        if (c->test_fd >= 0)
                close(c->test_fd);
        cgt_remove_test_cgroup(c->domain.own_dirfd);
        cg_domain_close(&c->domain);
        free(c);
        return 0;
}

/* Creates cuzk-test-<pid> with memory enabled for its children, or skips. */
static void memory_case_create(memory_case_t *c) {
        c->test_fd = cgt_create_memory_cgroup(&c->domain);
}

static bool host_has_swap(void) {
        char meminfo[8192], *swap;
        unsigned long long kib = 0;

        if (cg_read_string(AT_FDCWD, "/proc/meminfo", meminfo, sizeof(meminfo)) < 0)
                return false;
        swap = strstr(meminfo, "SwapTotal:");
        return swap && sscanf(swap, "SwapTotal: %llu", &kib) == 1 && kib > 0;
}

/* A worker cgroup below the test cgroup with max_bytes and no swap to escape into. Sets
 * *ret_memsw_limited when v1's memory+swap limit had to be set too: the kernel then fails
 * charges on that counter, and 6.18 does not count those in memory.memsw.failcnt. */
static int memory_worker(memory_case_t *c, const char *name, uint64_t max_bytes,
                         bool *ret_memsw_limited) {
        cg_worker_limits_t limits = {.high_bytes = CG_LIMIT_MAX, .max_bytes = max_bytes};
        int fd;

        assert_int_equal(cg_child_create(c->test_fd, name, &fd), 0);
        assert_int_equal(cg_domain_set_limits(&c->domain, fd, &limits), 0);
        if (c->domain.enforcement == CG_ENFORCEMENT_V2 &&
            faccessat(fd, "memory.swap.max", F_OK, 0) == 0)
                assert_int_equal(cg_memory_set_swap_max(fd, 0), 0);
        *ret_memsw_limited = false;
        if (c->domain.enforcement == CG_ENFORCEMENT_V1_MEMORY && host_has_swap() &&
            faccessat(fd, "memory.memsw.limit_in_bytes", F_OK, 0) == 0) {
                assert_int_equal(cg_write_u64(fd, "memory.memsw.limit_in_bytes", max_bytes), 0);
                *ret_memsw_limited = true;
        }
        return fd;
}

static void test_memory_limit_kills_big_allocator(void **state) {
        memory_case_t *c = *state;
        cg_spawn_params_t params = {.oom_score_adj = 500};
        cg_worker_limits_t limits = {.high_bytes = CG_LIMIT_MAX, .max_bytes = 64 * MiB};
        char suffix[128];
        char *child_argv[] = {"test-cgroup-real", "alloc", "200", "500", suffix, NULL};
        cg_events_watch_t watch;
        cg_memory_events_t delta;
        cg_worker_usage_t usage;
        cg_spawned_t child;
        struct pollfd pfd;
        bool memsw_limited;
        int worker, status;

        memory_case_create(c);
        worker = memory_worker(c, "small", 64 * MiB, &memsw_limited);
        assert_int_equal(cg_events_watch_open(worker, cg_domain_events_source(&c->domain), &watch),
                         0);

        snprintf(suffix, sizeof(suffix), "/%s/small", cgt_test_cgroup_name);
        cg_domain_spawn_params(&c->domain, worker, &limits, &params);
        assert_int_equal(spawn_self(&params, child_argv, &child), 0);
        assert_int_equal(child.via_clone3, c->domain.enforcement == CG_ENFORCEMENT_V2);
        status = wait_child(&child);
        if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
                print_error("allocator ended with status 0x%x, expected SIGKILL\n", status);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        assert_int_equal(cg_domain_read_usage(&c->domain, worker, &usage), 0);
        print_message("  small: oom_kill %llu, max/failcnt %llu, peak %llu MiB (%s)\n",
                      (unsigned long long)usage.events.oom_kill,
                      (unsigned long long)usage.events.max,
                      (unsigned long long)(usage.peak_bytes / MiB),
                      cg_domain_enforcement_name(&c->domain));
        assert_true(usage.events.oom_kill >= 1);
        if (!memsw_limited)
                assert_true(usage.events.max >= 1);
        assert_true(usage.peak_bytes <= 64 * MiB);

        /* The watch fd woke up (POLLPRI on memory.events, or the v1 OOM eventfd). */
        pfd = (struct pollfd){.fd = watch.fd, .events = cg_events_watch_poll_events(&watch)};
        assert_int_equal(poll(&pfd, 1, 2000), 1);
        assert_int_equal(cg_events_watch_update(&watch, &delta), 1);
        assert_true(delta.oom_kill >= 1);
        if (!memsw_limited)
                assert_true(delta.max >= 1);

        /* Removing the worker's cgroup ends the watch with -ENODEV, quietly (the watch
         * borrows worker's fd, which stays open until the watch is closed). */
        assert_int_equal(cg_child_remove(c->test_fd, "small"), 0);
        cgt_log_reset();
        assert_int_equal(cg_events_watch_update(&watch, &delta), -ENODEV);
        assert_int_equal(cgt_log_count(), 0);
        cg_events_watch_close(&watch);
        close(worker);
}

static void test_memory_limit_spares_small_allocator(void **state) {
        memory_case_t *c = *state;
        cg_spawn_params_t params = {.oom_score_adj = 300};
        cg_worker_limits_t limits = {.high_bytes = CG_LIMIT_MAX, .max_bytes = 128 * MiB};
        char suffix[128];
        char *child_argv[] = {"test-cgroup-real", "alloc", "32", "300", suffix, NULL};
        cg_worker_usage_t usage;
        cg_spawned_t child;
        bool memsw_limited;
        int worker, status;

        memory_case_create(c);
        worker = memory_worker(c, "roomy", 128 * MiB, &memsw_limited);
        snprintf(suffix, sizeof(suffix), "/%s/roomy", cgt_test_cgroup_name);
        cg_domain_spawn_params(&c->domain, worker, &limits, &params);
        assert_int_equal(spawn_self(&params, child_argv, &child), 0);
        status = wait_child(&child);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_OK)
                print_error("allocator ended with status 0x%x, expected exit 0\n", status);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_OK);

        assert_int_equal(cg_domain_read_usage(&c->domain, worker, &usage), 0);
        print_message("  roomy: oom_kill %llu, peak %llu MiB\n",
                      (unsigned long long)usage.events.oom_kill,
                      (unsigned long long)(usage.peak_bytes / MiB));
        assert_int_equal(usage.events.oom_kill, 0);
        /* memory.peak is missing before 5.19 (reads 0); v1 always has max_usage. */
        if (usage.peak_bytes)
                assert_true(usage.peak_bytes >= 32 * MiB && usage.peak_bytes < 128 * MiB);
        close(worker);
}

static void test_v1_kill_by_listing(void **state) {
        memory_case_t *c = *state;
        char *child_argv[] = {"test-cgroup-real", "sleep", NULL};
        cg_spawn_params_t params = {.oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT};
        cg_spawned_t sleepers[2];
        int victims;

        if (geteuid() != 0)
                cgt_skip("needs root");
        if (c->domain.enforcement != CG_ENFORCEMENT_V1_MEMORY)
                cgt_skip("no writable v1 memory cgroup here");
        memory_case_create(c);
        assert_int_equal(cg_child_create(c->test_fd, "victims", &victims), 0);
        params.cgroup_dirfd = victims;
        for (size_t i = 0; i < 2; i++)
                assert_int_equal(spawn_self(&params, child_argv, &sleepers[i]), 0);
        assert_int_equal(cg_is_populated(victims), 1);
        /* v1 has no cgroup.kill: cg_kill lists cgroup.procs and kills each. */
        assert_int_equal(faccessat(victims, "cgroup.kill", F_OK, 0), -1);
        assert_int_equal(cg_kill(c->test_fd), 0);
        for (size_t i = 0; i < 2; i++) {
                int status = wait_child(&sleepers[i]);
                assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        }
        assert_int_equal(wait_unpopulated(victims, 1000), 0);
        close(victims);
        assert_int_equal(cg_child_remove(c->test_fd, "victims"), 0);
}

/* ---- v2 without memory: the unified hierarchy of hybrid hosts, or a v2 host -------- */

typedef struct v2_case {
        int own_fd;
        int test_fd;
} v2_case_t;

static int v2_case_setup(void **state) {
        v2_case_t *c = calloc(1, sizeof(*c));

        if (!c)
                return -1;
        c->own_fd = -EBADF;
        c->test_fd = -EBADF;
        if (geteuid() == 0 && cgt_hierarchy_known && cgt_hierarchy.v2_dir[0])
                (void)cg_open_path(cgt_hierarchy.v2_dir, &c->own_fd);
        *state = c;
        return 0;
}

static int v2_case_teardown(void **state) {
        v2_case_t *c = *state;

        if (c->test_fd >= 0)
                close(c->test_fd);
        cgt_remove_test_cgroup(c->own_fd);
        if (c->own_fd >= 0)
                close(c->own_fd);
        free(c);
        return 0;
}

static void v2_case_create(v2_case_t *c) {
        int r;

        if (geteuid() != 0)
                cgt_skip("needs root");
        if (c->own_fd < 0)
                cgt_skip("no cgroup v2 hierarchy here");
        r = cg_child_create(c->own_fd, cgt_test_cgroup_name, &c->test_fd);
        if (r == -EACCES || r == -EPERM || r == -EROFS)
                cgt_skip("cannot create cgroups below %s", cgt_hierarchy.v2_dir);
        assert_int_equal(r, 0);
}

static void spawn_checked_into(v2_case_t *c, const char *name, bool try_clone3) {
        char suffix[128];
        char *child_argv[] = {"test-cgroup-real", "cgcheck", suffix, NULL};
        cg_spawn_params_t params = {.oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT,
                                    .cgroup_is_v2 = try_clone3,
                                    .parent_death_signal = SIGKILL};
        cg_spawned_t child;
        struct pollfd pfd;
        int fd, status;

        assert_int_equal(cg_child_create(c->test_fd, name, &fd), 0);
        params.cgroup_dirfd = fd;
        /* Only the tail is compared: our own cgroup's path differs per host. */
        snprintf(suffix, sizeof(suffix), "/%s/%s", cgt_test_cgroup_name, name);
        assert_int_equal(spawn_self(&params, child_argv, &child), 0);
        assert_int_equal(child.via_clone3, try_clone3);
        if (child.pidfd >= 0) {
                pfd = (struct pollfd){.fd = child.pidfd, .events = POLLIN};
                assert_int_equal(poll(&pfd, 1, 5000), 1); /* a pidfd is readable on exit */
        }
        status = wait_child(&child);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), CHILD_OK);
        close(fd);
}

static void test_v2_spawn_clone3(void **state) {
        v2_case_t *c = *state;
        v2_case_create(c);
        spawn_checked_into(c, "clone3", true);
}

static void test_v2_spawn_fork_fallback(void **state) {
        v2_case_t *c = *state;
        v2_case_create(c);
        spawn_checked_into(c, "forked", false);
}

/* Makes clone3 fail with ENOSYS in this process, as Docker's default seccomp profile does. */
static int block_clone3(void) {
        struct sock_filter filter[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog program = {.len = sizeof(filter) / sizeof(filter[0]), .filter = filter};

        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return -errno;
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) < 0)
                return -errno;
        return 0;
}

static void test_v2_spawn_clone3_enosys_falls_back(void **state) {
        v2_case_t *c = *state;
        char suffix[128];
        char *child_argv[] = {"test-cgroup-real", "cgcheck", suffix, NULL};
        int fd, status;
        pid_t pid;

        if (!defined_x86_64())
                cgt_skip("the seccomp filter here is written for x86-64");
        v2_case_create(c);
        assert_int_equal(cg_child_create(c->test_fd, "seccomp", &fd), 0);
        snprintf(suffix, sizeof(suffix), "/%s/seccomp", cgt_test_cgroup_name);
        /* The filter stays with the process that installs it: a child of ours takes it. */
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                cg_spawn_params_t params = {.path = "/proc/self/exe",
                                            .argv = child_argv,
                                            .cgroup_dirfd = fd,
                                            .cgroup_is_v2 = true,
                                            .oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT};
                cg_spawned_t spawned;
                int child_status;

                if (block_clone3() < 0)
                        _exit(10);
                if (cg_spawn(&params, &spawned) < 0)
                        _exit(11);
                if (spawned.via_clone3)
                        _exit(12);
                if (waitpid(spawned.pid, &child_status, 0) != spawned.pid)
                        _exit(13);
                _exit(WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 14);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        /* 0: placed by fork + cgroup.procs after clone3 said ENOSYS; 4: wrong cgroup. */
        assert_int_equal(WEXITSTATUS(status), CHILD_OK);
        close(fd);
}

static void test_v2_kill_and_populated(void **state) {
        v2_case_t *c = *state;
        char *child_argv[] = {"test-cgroup-real", "sleep", NULL};
        cg_spawn_params_t params = {.oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT,
                                    .cgroup_is_v2 = true};
        cg_spawned_t sleeper;
        uint64_t dying;
        int victims, status;

        v2_case_create(c);
        assert_int_equal(cg_child_create(c->test_fd, "victims", &victims), 0);
        assert_int_equal(cg_is_populated(victims), 0);
        params.cgroup_dirfd = victims;
        assert_int_equal(spawn_self(&params, child_argv, &sleeper), 0);
        assert_int_equal(cg_is_populated(victims), 1);
        assert_int_equal(cg_is_populated(c->test_fd), 1); /* populated counts descendants */
        assert_int_equal(cg_kill(c->test_fd), 0);
        status = wait_child(&sleeper);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        assert_int_equal(wait_unpopulated(victims, 2000), 0);
        assert_int_equal(cg_nr_dying_descendants(c->test_fd, &dying), 0);
        close(victims);
        assert_int_equal(cg_child_remove(c->test_fd, "victims"), 0);
}

static void test_v2_move_self_into_supervisor(void **state) {
        v2_case_t *c = *state;
        char suffix[128];
        pid_t pid;
        int status;

        v2_case_create(c);
        snprintf(suffix, sizeof(suffix), "/%s/supervisor", cgt_test_cgroup_name);
        /* A child moves itself, so that this test process stays where it is. */
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                int fd;
                if (cg_move_self_into(c->test_fd, "supervisor", &fd) < 0)
                        _exit(1);
                _exit(in_cgroup_with_suffix(suffix) ? 0 : 2);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_v2_psi_trigger_gone(void **state) {
        v2_case_t *c = *state;
        psi_trigger_t trigger;
        struct pollfd pfd;
        int fd;

        v2_case_create(c);
        assert_int_equal(cg_child_create(c->test_fd, "pressure", &fd), 0);
        if (faccessat(fd, "memory.pressure", F_OK, 0) < 0)
                cgt_skip("no memory.pressure in cgroups (PSI off)");
        assert_int_equal(
                psi_trigger_arm(fd, "memory.pressure", PSI_SOME, 150000, 2000000, &trigger), 0);
        close(fd);
        pfd = (struct pollfd){.fd = trigger.fd, .events = POLLPRI};
        assert_int_equal(poll(&pfd, 1, 0), 0); /* nothing stalls in an empty cgroup */
        assert_int_equal(cg_child_remove(c->test_fd, "pressure"), 0);
        assert_int_equal(poll(&pfd, 1, 1000), 1);
        assert_int_equal(psi_trigger_event(pfd.revents), -ENODEV);
        close(trigger.fd);
}

/* ---- PSI on the system-wide file --------------------------------------------------- */

static void test_psi_proc_pressure_memory(void **state) {
        psi_trigger_t two_s, one_s;
        psi_stats_t stats;
        (void)state;

        if (access("/proc/pressure/memory", R_OK) < 0)
                cgt_skip("no /proc/pressure/memory (kernel without PSI, or psi=0)");
        if (access("/proc/pressure/memory", W_OK) < 0)
                cgt_skip("/proc/pressure/memory is not writable for us");
        assert_int_equal(psi_read(AT_FDCWD, "/proc/pressure/memory", &stats), 0);
        assert_true(stats.some.present);

        assert_int_equal(psi_trigger_arm(AT_FDCWD, "/proc/pressure/memory", PSI_SOME, 150000,
                                         2000000, &two_s),
                         0);
        assert_false(two_s.rounded);
        assert_int_equal(two_s.window_us, 2000000);

        /* 1 s: accepted with CAP_SYS_RESOURCE, otherwise rounded up to 2 s, ratio kept. */
        assert_int_equal(psi_trigger_arm(AT_FDCWD, "/proc/pressure/memory", PSI_SOME, 100000,
                                         1000000, &one_s),
                         0);
        print_message("  CAP_SYS_RESOURCE %s: 1 s window armed as '%llu %llu'\n",
                      cgt_have_capability(24 /* CAP_SYS_RESOURCE */) ? "held" : "withheld",
                      (unsigned long long)one_s.stall_us, (unsigned long long)one_s.window_us);
        if (cgt_have_capability(24 /* CAP_SYS_RESOURCE */)) {
                assert_false(one_s.rounded);
                assert_int_equal(one_s.window_us, 1000000);
        } else {
                assert_true(one_s.rounded);
                assert_int_equal(one_s.window_us, 2000000);
                assert_int_equal(one_s.stall_us, 200000);
        }
        close(two_s.fd);
        close(one_s.fd);
}

/* ---- RLIMIT_DATA fallback and spawn errors (no root needed) ------------------------ */

static void test_rlimit_data_fallback(void **state) {
        cg_domain_t domain = {.enforcement = CG_ENFORCEMENT_RLIMIT_DATA, .own_dirfd = -EBADF};
        cg_worker_limits_t small = {.high_bytes = CG_LIMIT_MAX, .max_bytes = 64 * MiB};
        cg_worker_limits_t roomy = {.high_bytes = CG_LIMIT_MAX, .max_bytes = 128 * MiB};
        char *big_argv[] = {"test-cgroup-real", "alloc", "200", "700", "-", NULL};
        char *fits_argv[] = {"test-cgroup-real", "alloc", "32", "700", "-", NULL};
        cg_spawn_params_t params = {.oom_score_adj = 700};
        cg_spawned_t child;
        int status;
        (void)state;

#if defined(__SANITIZE_ADDRESS__)
        /* The child is this test binary: under AddressSanitizer it cannot map
         * its shadow memory within a 64 MiB RLIMIT_DATA, allocator or not. */
        skip();
#endif

        assert_string_equal(cg_domain_enforcement_name(&domain), "RLIMIT_DATA");
        cg_domain_spawn_params(&domain, -EBADF, &small, &params);
        assert_int_equal(spawn_self(&params, big_argv, &child), 0);
        status = wait_child(&child);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), CHILD_ALLOC_FAILED);

        cg_domain_spawn_params(&domain, -EBADF, &roomy, &params);
        assert_int_equal(spawn_self(&params, fits_argv, &child), 0);
        status = wait_child(&child);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), CHILD_OK);
}

static void test_spawn_errors(void **state) {
        char *argv[] = {"missing", NULL};
        char dir[] = "/tmp/cuzk-cgroup-notcg-XXXXXX";
        cg_spawn_params_t params = {.path = "/nonexistent/cuzk-worker",
                                    .argv = argv,
                                    .cgroup_dirfd = -EBADF,
                                    .oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT};
        cg_spawned_t child;
        int fd;
        (void)state;

        assert_int_equal(cg_spawn(&params, &child), -ENOENT);
        cgt_assert_log_contains("/nonexistent/cuzk-worker", "at exec", "No such file");

        /* A directory that is not a cgroup: the child cannot join it and says so. */
        assert_non_null(mkdtemp(dir));
        fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);
        params.path = "/bin/true";
        params.cgroup_dirfd = fd;
        assert_int_equal(cg_spawn(&params, &child), -ENOENT);
        cgt_assert_log_contains("/bin/true", "joining the cgroup");
        close(fd);
        rmdir(dir);
}

int main(int argc, char **argv) {
        if (argc >= 2)
                return child_main(argc, argv);

        cgt_case_init("cuzk-test", "");

#define MEMORY_TEST(f) cmocka_unit_test_setup_teardown(f, memory_case_setup, memory_case_teardown)
#define V2_TEST(f) cmocka_unit_test_setup_teardown(f, v2_case_setup, v2_case_teardown)
        const struct CMUnitTest tests[] = {
                MEMORY_TEST(test_memory_limit_kills_big_allocator),
                MEMORY_TEST(test_memory_limit_spares_small_allocator),
                MEMORY_TEST(test_v1_kill_by_listing),
                V2_TEST(test_v2_spawn_clone3),
                V2_TEST(test_v2_spawn_fork_fallback),
                V2_TEST(test_v2_spawn_clone3_enosys_falls_back),
                V2_TEST(test_v2_kill_and_populated),
                V2_TEST(test_v2_move_self_into_supervisor),
                V2_TEST(test_v2_psi_trigger_gone),
                cmocka_unit_test(test_psi_proc_pressure_memory),
                cmocka_unit_test(test_rlimit_data_fallback),
                cmocka_unit_test(test_spawn_errors),
        };
        return cgt_run("cgroup-real", tests, sizeof(tests) / sizeof(tests[0]));
}
