/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bpf/memwatch against the running kernel (kernel selftest style). Needs root, BPF and a
 * writable memory cgroup (v1 memory below our own on this hybrid host, v2 elsewhere);
 * cases that cannot run here skip, and the program exits 77 when all of them do.
 *  - cgroup ids: a memory cgroup's id is its directory's inode; other directories are
 *    refused;
 *  - memcg reclaim: a child writing 96 MiB of page cache in a 32 MiB cgroup reclaims; the
 *    events name its cgroup and pid, via a watched parent and then the cgroup itself; an
 *    unwatched cgroup's reclaim is filtered out in the kernel;
 *    the probes' run counts (BPF statistics) cover the events;
 *  - OOM kill: a child allocating 128 MiB in a 32 MiB cgroup is killed; the event names
 *    the victim's pid, comm and cgroup;
 *  - memory.high (v2, where fentry or kprobes exist): the page cache writer in a cgroup
 *    with memory.high at 32 MiB is throttled, and the events say so;
 *  - degraded path: as nobody, and as root without CAP_SYS_ADMIN/CAP_PERFMON/CAP_BPF,
 *    memwatch_new() returns -EOPNOTSUPP with the one line "BPF unavailable: ...; running
 *    on PSI alone", logged once; as nobody with CAP_BPF and CAP_PERFMON only (cuzkd.service's
 *    set), the probes load.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if HAVE_BPF
#include <bpf/bpf.h>
#endif

#include "bpf/memwatch.h"
#include "cgroup/cg-domain.h"
#include "cgroup/cg-files.h"
#include "cgroup/cg-tree.h"
#include "cgroup/hierarchy.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "tests/lib/cgroup-case.h"
#include "tests/lib/cgroup-common.h"

#define MiB (1u << 20)
#define LIMIT_BYTES (32 * MiB)
#define NOBODY 65534

/* ---- events collected by the callback ------------------------------------------------ */

static memwatch_event_t collected[4096];
static size_t n_collected;

static void collect(const memwatch_event_t *event, void *userdata) {
        (void)userdata;
        if (n_collected < ELEMENTSOF(collected))
                collected[n_collected++] = *event;
}

/* Reads events until the fd stays quiet for quiet_ms. */
static void drain(memwatch_t *mw, int quiet_ms) {
        struct pollfd pfd = {.fd = memwatch_fd(mw), .events = POLLIN};

        assert_true(pfd.fd >= 0);
        while (poll(&pfd, 1, quiet_ms) > 0)
                assert_true(memwatch_consume(mw) >= 0);
        assert_true(memwatch_consume(mw) >= 0);
}

static const memwatch_event_t *find_event(memwatch_kind_t kind, uint64_t cgroup_id, pid_t pid) {
        for (size_t i = 0; i < n_collected; i++)
                if (collected[i].kind == kind && collected[i].cgroup_id == cgroup_id &&
                    collected[i].pid == (uint32_t)pid)
                        return &collected[i];
        return NULL;
}

static size_t count_events_of_cgroup(uint64_t cgroup_id) {
        size_t n = 0;
        for (size_t i = 0; i < n_collected; i++)
                n += collected[i].cgroup_id == cgroup_id;
        return n;
}

/* ---- the case state: a test cgroup below ours and a loaded memwatch ------------------- */

typedef struct bpf_case {
        cg_domain_t domain;
        int test_fd;
        memwatch_t *mw;
} bpf_case_t;

static int bpf_case_setup(void **state) {
        bpf_case_t *c = calloc(1, sizeof(*c));

        if (!c)
                return -1;
        c->test_fd = -EBADF;
        cgt_case_open_domain(&c->domain);
        n_collected = 0;
        *state = c;
        return 0;
}

static int bpf_case_teardown(void **state) {
        bpf_case_t *c = *state;

        memwatch_free(c->mw);
        if (c->test_fd >= 0)
                close(c->test_fd);
        cgt_remove_test_cgroup(c->domain.own_dirfd);
        cg_domain_close(&c->domain);
        free(c);
        return 0;
}

/* Creates our test cgroup and loads memwatch, or skips. */
static void bpf_case_start(bpf_case_t *c) {
        int r;

        if (geteuid() != 0)
                cgt_skip("needs root");
        if (!cgt_have_capability(39 /* CAP_BPF */) && !cgt_have_capability(21 /* CAP_SYS_ADMIN */))
                cgt_skip("needs CAP_BPF");
        c->test_fd = cgt_create_memory_cgroup(&c->domain);

        r = memwatch_new(collect, NULL, &c->mw);
#if HAVE_BPF
        if (r == -EOPNOTSUPP && strstr(cgt_log_last(), "no BTF"))
                cgt_skip("%s", cgt_log_last());
        assert_int_equal(r, 0);
#else
        assert_int_equal(r, -EOPNOTSUPP);
        cgt_skip("built without BPF");
#endif
        print_message("  probes: 0x%x\n", memwatch_probes(c->mw));
}

/* A worker cgroup below the test cgroup limited to LIMIT_BYTES. */
static int make_worker(bpf_case_t *c, const char *name) {
        cg_worker_limits_t limits = {.high_bytes = CG_LIMIT_MAX, .max_bytes = LIMIT_BYTES};
        int fd;

        assert_int_equal(cg_child_create(c->test_fd, name, &fd), 0);
        assert_int_equal(cg_domain_set_limits(&c->domain, fd, &limits), 0);
        return fd;
}

/* ---- children ---------------------------------------------------------------------- */

/* Writes 96 MiB of page cache (an unlinked file on the disk of /var/tmp, synced every
 * 8 MiB so that reclaim finds clean pages): more than the limit, so the cgroup reclaims,
 * and nothing it could be OOM-killed for. */
static int child_write_page_cache(void) {
        char path[] = "/var/tmp/cuzk-test-bpf-XXXXXX";
        static char chunk[MiB];
        int fd = mkstemp(path);

        if (fd < 0)
                return 2;
        unlink(path);
        memset(chunk, 0x5a, sizeof(chunk));
        for (int i = 0; i < 96; i++) {
                if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
                        return 3;
                if (i % 8 == 7 && fdatasync(fd) < 0)
                        return 4;
        }
        close(fd);
        return 0;
}

/* Touches 128 MiB of anonymous memory: with no swap to reclaim into, OOM-killed. */
static int child_allocate(void) {
        size_t bytes = 128 * MiB;
        char *memory = malloc(bytes);

        if (!memory)
                return 2;
        for (size_t i = 0; i < bytes; i += 4096)
                ((volatile char *)memory)[i] = 1;
        free(memory);
        return 0;
}

/* Forks a child that moves itself into cg_dirfd, names itself and runs fn. */
static pid_t run_in_cgroup(int cg_dirfd, const char *comm, int (*fn)(void)) {
        pid_t pid = fork();

        assert_true(pid >= 0);
        if (pid == 0) {
                if (cg_move_pid(cg_dirfd, getpid()) < 0)
                        _exit(1);
                (void)prctl(PR_SET_NAME, comm);
                _exit(fn());
        }
        return pid;
}

static int wait_status(pid_t pid) {
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        return status;
}

/* GetMetrics text of a watched cgroup labelled "test" (and of one never watched, which is
 * left out) shows memcg_reclaim_events. */
static void check_metrics(const memwatch_t *mw, uint64_t id, uint64_t memcg_reclaim_events) {
        const memwatch_metrics_cgroup_t cgroups[] = {{id, "test"}, {1, "never-watched"}};
        char expected[128], *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);

        assert_non_null(f);
        assert_int_equal(memwatch_write_metrics(mw, cgroups, ELEMENTSOF(cgroups), f), 0);
        assert_int_equal(fclose(f), 0);
        snprintf(expected, sizeof(expected),
                 "\ncuzk_bpf_events_total{cgroup=\"test\",kind=\"memcg_reclaim\"} %llu\n",
                 (unsigned long long)memcg_reclaim_events);
        if (!strstr(text, expected))
                print_error("metrics lack '%s':\n%s", expected, text);
        assert_non_null(strstr(text, expected));
        assert_non_null(strstr(text, "\ncuzk_bpf_available 1\n"));
        assert_non_null(strstr(text, "# TYPE cuzk_bpf_seconds_total counter\n"));
        assert_non_null(strstr(text, "cuzk_bpf_dropped_events_total{cgroup=\"test\"} 0\n"));
        assert_null(strstr(text, "never-watched"));
        free(text);
}

/* BPF run-time statistics while the returned fd is open; -1 where unavailable. */
static int enable_bpf_stats(void) {
#if HAVE_BPF
        return bpf_enable_stats(BPF_STATS_RUN_TIME);
#else
        return -1;
#endif
}

/* ---- cases ------------------------------------------------------------------------- */

static void test_cgroup_ids(void **state) {
        bpf_case_t *c = *state;
        int proc_fd, cpu_fd, worker;
        struct stat st;
        uint64_t id;

        if (geteuid() != 0 || c->domain.enforcement == CG_ENFORCEMENT_RLIMIT_DATA)
                cgt_skip("needs root and a writable memory cgroup");
        assert_int_equal(cg_child_create(c->domain.own_dirfd, cgt_test_cgroup_name, &c->test_fd),
                         0);
        worker = make_worker(c, "ids");
        assert_int_equal(memwatch_cgroup_id(worker, &id), 0);
        assert_int_equal(fstat(worker, &st), 0);
        assert_true(id == st.st_ino);
        print_message("  %s/%s/ids: id %llu\n", c->domain.own_path, cgt_test_cgroup_name,
                      (unsigned long long)id);
        close(worker);

        proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(proc_fd >= 0);
        assert_int_equal(memwatch_cgroup_id(proc_fd, &id), -ENOTDIR);
        cgt_assert_log_contains("no cgroup directory");
        close(proc_fd);

        /* Another v1 hierarchy (no memory.* files): tasks are never charged there. */
        cpu_fd = open("/sys/fs/cgroup/cpu", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (c->domain.enforcement == CG_ENFORCEMENT_V1_MEMORY && cpu_fd >= 0) {
                assert_int_equal(memwatch_cgroup_id(cpu_fd, &id), -EMEDIUMTYPE);
                cgt_assert_log_contains("not a memory cgroup");
        }
        if (cpu_fd >= 0)
                close(cpu_fd);
}

static void test_memcg_reclaim_names_the_cgroup(void **state) {
        bpf_case_t *c = *state;
        uint64_t test_id, worker_id, sibling_id, probe_runs, probe_ns;
        const memwatch_event_t *e;
        memwatch_counters_t counters;
        int worker, sibling, status, stats_fd;
        pid_t pid;

        bpf_case_start(c);
        if (!(memwatch_probes(c->mw) & (1u << MEMWATCH_MEMCG_RECLAIM)))
                cgt_skip("no memcg reclaim tracepoint on this kernel");
        worker = make_worker(c, "reclaim");
        sibling = make_worker(c, "unwatched");
        assert_int_equal(memwatch_cgroup_id(worker, &worker_id), 0);
        assert_int_equal(memwatch_cgroup_id(sibling, &sibling_id), 0);

        /* Watching the parent covers the worker below it. */
        assert_int_equal(memwatch_watch(c->mw, c->test_fd, &test_id), 0);
        stats_fd = enable_bpf_stats();
        pid = run_in_cgroup(worker, "cuzk-reclaim", child_write_page_cache);
        status = wait_status(pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        drain(c->mw, 200);
        if (stats_fd >= 0) {
                /* Each event is a begin and an end run (more runs: other cgroups, other
                 * tests); run times are counted. */
                assert_int_equal(memwatch_probe_runtime(c->mw, &probe_runs, &probe_ns), 0);
                close(stats_fd);
                print_message("  probes ran %llu times, %llu us in all\n",
                              (unsigned long long)probe_runs,
                              (unsigned long long)(probe_ns / 1000));
                assert_true(probe_runs >= 2 * count_events_of_cgroup(worker_id));
                assert_true(probe_ns > 0);
        }
        e = find_event(MEMWATCH_MEMCG_RECLAIM, worker_id, pid);
        assert_non_null(e);
        assert_true(e->watched_id == test_id);
        assert_true(e->tid == (uint32_t)pid);
        assert_string_equal(e->comm, "cuzk-reclaim");
        print_message("  via parent: %zu events, first %s %llu pages in %llu us\n",
                      count_events_of_cgroup(worker_id), memwatch_kind_name(e->kind),
                      (unsigned long long)e->pages, (unsigned long long)(e->duration_ns / 1000));
        assert_int_equal(memwatch_counters(c->mw, test_id, &counters), 0);
        assert_true(counters.events[MEMWATCH_MEMCG_RECLAIM] >= 1);
        assert_true(counters.pages[MEMWATCH_MEMCG_RECLAIM] >= 1);
        assert_true(counters.duration_ns[MEMWATCH_MEMCG_RECLAIM] >= 1);
        assert_int_equal(counters.events[MEMWATCH_OOM_KILL], 0);
        check_metrics(c->mw, test_id, counters.events[MEMWATCH_MEMCG_RECLAIM]);

        /* The worker itself watched: it is the nearest watched cgroup now. */
        n_collected = 0;
        assert_int_equal(memwatch_watch(c->mw, worker, NULL), 0);
        assert_int_equal(memwatch_watch(c->mw, worker, NULL), 0); /* again: no error */
        pid = run_in_cgroup(worker, "cuzk-reclaim", child_write_page_cache);
        status = wait_status(pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        drain(c->mw, 200);
        e = find_event(MEMWATCH_MEMCG_RECLAIM, worker_id, pid);
        assert_non_null(e);
        assert_true(e->watched_id == worker_id);
        assert_int_equal(memwatch_counters(c->mw, worker_id, &counters), 0);
        assert_true(counters.events[MEMWATCH_MEMCG_RECLAIM] >= 1);

        /* A cgroup outside every watched one: filtered in the kernel. */
        n_collected = 0;
        assert_int_equal(memwatch_unwatch(c->mw, test_id), 0);
        assert_int_equal(memwatch_unwatch(c->mw, test_id), -ENOENT);
        assert_int_equal(memwatch_counters(c->mw, test_id, &counters), -ENOENT);
        pid = run_in_cgroup(sibling, "cuzk-unwatched", child_write_page_cache);
        status = wait_status(pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        drain(c->mw, 200);
        assert_int_equal(count_events_of_cgroup(sibling_id), 0);
        close(sibling);
        close(worker);
}

static void test_oom_kill_names_the_victim(void **state) {
        bpf_case_t *c = *state;
        char line[256];
        memwatch_counters_t counters;
        const memwatch_event_t *e;
        uint64_t worker_id;
        int worker, status;
        pid_t pid;

        bpf_case_start(c);
        if (!(memwatch_probes(c->mw) & (1u << MEMWATCH_OOM_KILL)))
                cgt_skip("no oom:mark_victim tracepoint on this kernel");
        worker = make_worker(c, "oom");
        assert_int_equal(memwatch_watch(c->mw, worker, &worker_id), 0);
        pid = run_in_cgroup(worker, "cuzk-oom", child_allocate);
        status = wait_status(pid);
        if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
                print_error("allocator ended with status 0x%x, expected SIGKILL\n", status);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        drain(c->mw, 200);
        e = find_event(MEMWATCH_OOM_KILL, worker_id, pid);
        assert_non_null(e);
        assert_true(e->watched_id == worker_id);
        assert_int_equal(e->duration_ns, 0);
        print_message("  %s\n", memwatch_event_describe(e, line, sizeof(line)));
        if (e->comm[0]) { /* empty where mark_victim passes the pid only: no task to read */
                assert_string_equal(e->comm, "cuzk-oom");
                assert_true(e->pages > 0);
        }
        assert_int_equal(memwatch_counters(c->mw, worker_id, &counters), 0);
        assert_int_equal(counters.events[MEMWATCH_OOM_KILL], 1);
        /* The allocator reclaimed (in vain) before it was chosen. */
        if (memwatch_probes(c->mw) & (1u << MEMWATCH_MEMCG_RECLAIM))
                assert_true(counters.events[MEMWATCH_MEMCG_RECLAIM] >= 1);
        close(worker);
}

static void test_high_throttle_names_the_cgroup(void **state) {
        cg_worker_limits_t limits = {.high_bytes = LIMIT_BYTES, .max_bytes = CG_LIMIT_MAX};
        bpf_case_t *c = *state;
        memwatch_counters_t counters;
        const memwatch_event_t *e;
        uint64_t worker_id;
        int worker, status;
        pid_t pid;

        bpf_case_start(c);
        if (c->domain.enforcement != CG_ENFORCEMENT_V2)
                cgt_skip("memory.high is cgroup v2 only (here: %s)",
                         cg_domain_enforcement_name(&c->domain));
        if (!(memwatch_probes(c->mw) & (1u << MEMWATCH_HIGH_THROTTLE)))
                cgt_skip("no memory.high throttling probe here (needs fentry or kprobes)");
        assert_int_equal(cg_child_create(c->test_fd, "high", &worker), 0);
        assert_int_equal(cg_domain_set_limits(&c->domain, worker, &limits), 0);
        assert_int_equal(memwatch_watch(c->mw, worker, &worker_id), 0);
        pid = run_in_cgroup(worker, "cuzk-high", child_write_page_cache);
        status = wait_status(pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        drain(c->mw, 200);
        e = find_event(MEMWATCH_HIGH_THROTTLE, worker_id, pid);
        assert_non_null(e);
        assert_true(e->duration_ns > 0);
        print_message("  high throttle: %llu pages over high, %llu us\n",
                      (unsigned long long)e->pages, (unsigned long long)(e->duration_ns / 1000));
        assert_int_equal(memwatch_counters(c->mw, worker_id, &counters), 0);
        assert_true(counters.events[MEMWATCH_HIGH_THROTTLE] >= 1);
        close(worker);
}

/* Exit codes of the unprivileged child. */
enum {
        UNPRIVILEGED_OK = 0,
        UNPRIVILEGED_DROP_FAILED = 2,
        UNPRIVILEGED_STILL_PRIVILEGED = 3,
        UNPRIVILEGED_WRONG_RESULT = 4,
        UNPRIVILEGED_WRONG_MESSAGE = 5,
        UNPRIVILEGED_LOGGED_TWICE = 6,
};

/* Root without CAP_SYS_ADMIN, CAP_PERFMON and CAP_BPF (a container's root), through
 * capset(2): libcap is not a dependency. */
static int drop_bpf_capabilities(void) {
        struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct data[2];
        const int caps[] = {21 /* CAP_SYS_ADMIN */, 38 /* CAP_PERFMON */, 39 /* CAP_BPF */};

        if (syscall(SYS_capget, &header, data) < 0)
                return -errno;
        for (size_t i = 0; i < ELEMENTSOF(caps); i++) {
                data[caps[i] / 32].effective &= ~(1u << (caps[i] % 32));
                data[caps[i] / 32].permitted &= ~(1u << (caps[i] % 32));
                data[caps[i] / 32].inheritable &= ~(1u << (caps[i] % 32));
        }
        return syscall(SYS_capset, &header, data) < 0 ? -errno : 0;
}

static int become_nobody(void) {
        return setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0 ? -errno : 0;
}

/* In a child: drop privileges, then memwatch_new() must say why, once, and fail. */
static int unprivileged_child(bool as_nobody) {
        memwatch_t *mw = NULL;
        int r;

        if ((as_nobody ? become_nobody() : drop_bpf_capabilities()) < 0)
                return UNPRIVILEGED_DROP_FAILED;
        if (cgt_have_capability(39) || cgt_have_capability(21) || cgt_have_capability(38))
                return UNPRIVILEGED_STILL_PRIVILEGED;
        cgt_log_reset();
        r = memwatch_new(collect, NULL, &mw);
        if (r != -EOPNOTSUPP || mw)
                return UNPRIVILEGED_WRONG_RESULT;
        printf("  %s: %s\n", as_nobody ? "as nobody" : "root without CAP_BPF", cgt_log_last());
        fflush(stdout);
        if (!strstr(cgt_log_last(), "BPF unavailable: ") ||
            !strstr(cgt_log_last(), "; running on PSI alone"))
                return UNPRIVILEGED_WRONG_MESSAGE;
        /* A second call says nothing more at the default level. */
        log_set_max_level(LOG_INFO);
        cgt_log_reset();
        if (memwatch_new(collect, NULL, &mw) != -EOPNOTSUPP)
                return UNPRIVILEGED_WRONG_RESULT;
        if (cgt_log_count() != 0)
                return UNPRIVILEGED_LOGGED_TWICE;
        memwatch_free(mw);
        return UNPRIVILEGED_OK;
}

static void run_unprivileged(bool as_nobody) {
        int status;
        pid_t pid;

        if (geteuid() != 0)
                cgt_skip("needs root to drop privileges");
        fflush(stdout);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
                _exit(unprivileged_child(as_nobody));
        status = wait_status(pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != UNPRIVILEGED_OK)
                print_error("unprivileged child ended with status 0x%x\n", status);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == UNPRIVILEGED_OK);
}

/* In a child: a user other than root holding only CAP_BPF and CAP_PERFMON, as cuzkd.service
 * runs (User=cuzk, AmbientCapabilities=), loads and attaches the probes. */
static int bpf_capabilities_child(void) {
        struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct data[2] = {};
        memwatch_t *mw = NULL;
        unsigned probes;
        int r;

        if (prctl(PR_SET_KEEPCAPS, 1) < 0 || become_nobody() < 0)
                return UNPRIVILEGED_DROP_FAILED;
        data[1].effective = data[1].permitted = 1u << (38 - 32) | 1u << (39 - 32);
        if (syscall(SYS_capset, &header, data) < 0)
                return UNPRIVILEGED_DROP_FAILED;
        if (cgt_have_capability(21) || !cgt_have_capability(38) || !cgt_have_capability(39))
                return UNPRIVILEGED_STILL_PRIVILEGED;
        r = memwatch_new(collect, NULL, &mw);
        if (r < 0)
                return UNPRIVILEGED_WRONG_RESULT;
        probes = memwatch_probes(mw);
        memwatch_free(mw);
        return probes & (1u << MEMWATCH_MEMCG_RECLAIM) ? UNPRIVILEGED_OK
                                                       : UNPRIVILEGED_WRONG_RESULT;
}

static void test_bpf_capabilities_suffice(void **state) {
        int status;
        pid_t pid;

        (void)state;
        if (!HAVE_BPF)
                cgt_skip("built without BPF");
        if (geteuid() != 0)
                cgt_skip("needs root to hand out capabilities");
        if (faccessat(AT_FDCWD, "/sys/kernel/btf/vmlinux", R_OK, 0) < 0)
                cgt_skip("the kernel has no BTF");
        fflush(stdout);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
                _exit(bpf_capabilities_child());
        status = wait_status(pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != UNPRIVILEGED_OK)
                print_error("child with CAP_BPF and CAP_PERFMON ended with status 0x%x\n", status);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == UNPRIVILEGED_OK);
}

static void test_nobody_degrades(void **state) {
        (void)state;
        run_unprivileged(true);
}

static void test_root_without_bpf_capabilities_degrades(void **state) {
        (void)state;
        run_unprivileged(false);
}

int main(void) {
        cgt_case_init("cuzk-bpf-test", HAVE_BPF ? "; built with BPF" : "; built without BPF");

#define BPF_TEST(f) cmocka_unit_test_setup_teardown(f, bpf_case_setup, bpf_case_teardown)
        const struct CMUnitTest tests[] = {
                /* First: the one line is logged once per process, and the children of
                 * these cases must be the first to call memwatch_new(). */
                cmocka_unit_test(test_nobody_degrades),
                cmocka_unit_test(test_root_without_bpf_capabilities_degrades),
                cmocka_unit_test(test_bpf_capabilities_suffice),
                BPF_TEST(test_cgroup_ids),
                BPF_TEST(test_memcg_reclaim_names_the_cgroup),
                BPF_TEST(test_oom_kill_names_the_victim),
                BPF_TEST(test_high_throttle_names_the_cgroup),
        };
        return cgt_run("bpf", tests, ELEMENTSOF(tests));
}
