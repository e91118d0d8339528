/* SPDX-License-Identifier: Apache-2.0 */
/* cgroup/ read, parse and write paths against fixture trees: temp directories holding the
 * files cgroupfs would (memory.max, memory.events, cgroup.controllers ...), including their
 * error messages for missing files, garbage and out-of-range values. Runs unprivileged. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cg-domain.h"
#include "cgroup/cg-files.h"
#include "cgroup/cg-limit.h"
#include "cgroup/cg-memory.h"
#include "cgroup/cg-tree.h"
#include "cgroup/cg-v1.h"
#include "cgroup/memory-events.h"
#include "cgroup/psi.h"
#include "tests/lib/cgroup-common.h"

#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static cgt_fixture_t *fixture(void **state) {
        return *state;
}

static void assert_file_is(int dirfd, const char *file, const char *expected) {
        char buf[256];
        cgt_read_file(dirfd, file, buf, sizeof(buf));
        assert_string_equal(buf, expected);
}

static void test_write_values(void **state) {
        int fd = fixture(state)->dirfd;

        cgt_write_file(fd, "memory.max", "max\n");
        assert_int_equal(cg_write_u64(fd, "memory.max", 64 * MiB), 0);
        assert_file_is(fd, "memory.max", "67108864");
        assert_int_equal(cg_write_u64(fd, "memory.max", CG_LIMIT_MAX), 0);
        assert_file_is(fd, "memory.max", "max");
        assert_int_equal(cgt_log_count(), 0);
}

static void test_write_missing_file(void **state) {
        cgt_fixture_t *f = fixture(state);
        char path[512];

        /* cgroupfs files are never created by writing: a missing one is an error. */
        assert_int_equal(cg_write_u64(f->dirfd, "memory.high", 123), -ENOENT);
        snprintf(path, sizeof(path), "%s/memory.high", f->path);
        cgt_assert_log_contains(path, "'123'", "No such file or directory");
        assert_int_equal(faccessat(f->dirfd, "memory.high", F_OK, 0), -1);
}

static void test_read_u64(void **state) {
        int fd = fixture(state)->dirfd;
        uint64_t v = 0;

        cgt_write_file(fd, "memory.current", "123456789\n");
        assert_int_equal(cg_read_u64(fd, "memory.current", &v), 0);
        assert_int_equal(v, 123456789);
        cgt_write_file(fd, "memory.max", "max\n");
        assert_int_equal(cg_read_u64(fd, "memory.max", &v), 0);
        assert_true(v == CG_LIMIT_MAX);
        cgt_write_file(fd, "memory.current", "18446744073709551615\n");
        assert_int_equal(cg_read_u64(fd, "memory.current", &v), 0);
        assert_true(v == UINT64_MAX);
}

static void test_read_u64_errors(void **state) {
        cgt_fixture_t *f = fixture(state);
        char path[512];
        uint64_t v = 7;

        snprintf(path, sizeof(path), "%s/memory.current", f->path);
        assert_int_equal(cg_read_u64(f->dirfd, "memory.current", &v), -ENOENT);
        cgt_assert_log_contains("Failed to open", path, "No such file or directory");

        cgt_write_file(f->dirfd, "memory.current", "18446744073709551616\n");
        assert_int_equal(cg_read_u64(f->dirfd, "memory.current", &v), -ERANGE);
        cgt_assert_log_contains(path, "'18446744073709551616'", "out of range");

        cgt_write_file(f->dirfd, "memory.current", "12abc\n");
        assert_int_equal(cg_read_u64(f->dirfd, "memory.current", &v), -EBADMSG);
        cgt_assert_log_contains(path, "'12abc'", "not a number");

        cgt_write_file(f->dirfd, "memory.current", "");
        assert_int_equal(cg_read_u64(f->dirfd, "memory.current", &v), -EBADMSG);
        cgt_write_file(f->dirfd, "memory.current", "-5\n");
        assert_int_equal(cg_read_u64(f->dirfd, "memory.current", &v), -EBADMSG);
        assert_int_equal(v, 7);
}

static void test_read_string_too_long(void **state) {
        int fd = fixture(state)->dirfd;
        char buf[8];

        cgt_write_file(fd, "cgroup.controllers", "cpu io memory pids\n");
        assert_int_equal(cg_read_string(fd, "cgroup.controllers", buf, sizeof(buf)), -EFBIG);
        cgt_assert_log_contains("cgroup.controllers", "longer than 7 bytes");
        cgt_write_file(fd, "cgroup.controllers", "memory\n");
        assert_int_equal(cg_read_string(fd, "cgroup.controllers", buf, sizeof(buf)), 0);
        assert_string_equal(buf, "memory");
}

static void test_memory_knobs(void **state) {
        int fd = fixture(state)->dirfd;
        static const char *const files[] = {"memory.high", "memory.max",      "memory.min",
                                            "memory.low",  "memory.swap.max", "memory.oom.group"};

        for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
                cgt_write_file(fd, files[i], "0\n");
        assert_int_equal(cg_memory_set_high(fd, 48 * MiB), 0);
        assert_int_equal(cg_memory_set_max(fd, 64 * MiB), 0);
        assert_int_equal(cg_memory_set_min(fd, 1 * MiB), 0);
        assert_int_equal(cg_memory_set_low(fd, CG_LIMIT_MAX), 0);
        assert_int_equal(cg_memory_set_swap_max(fd, 0), 0);
        assert_int_equal(cg_memory_set_oom_group(fd, true), 0);
        assert_file_is(fd, "memory.high", "50331648");
        assert_file_is(fd, "memory.max", "67108864");
        assert_file_is(fd, "memory.min", "1048576");
        assert_file_is(fd, "memory.low", "max");
        assert_file_is(fd, "memory.swap.max", "0");
        assert_file_is(fd, "memory.oom.group", "1");
        assert_int_equal(cg_memory_set_oom_group(fd, false), 0);
        assert_file_is(fd, "memory.oom.group", "0");
}

static void test_memory_current_peak(void **state) {
        int fd = fixture(state)->dirfd;
        uint64_t v;

        cgt_write_file(fd, "memory.current", "4096\n");
        assert_int_equal(cg_memory_current(fd, &v), 0);
        assert_int_equal(v, 4096);
        /* memory.peak is new in 5.19: its absence is a normal answer, not an error. */
        assert_int_equal(cg_memory_peak(fd, &v), -ENOENT);
        assert_int_equal(cgt_log_count(), 0);
        cgt_write_file(fd, "memory.peak", "8192\n");
        assert_int_equal(cg_memory_peak(fd, &v), 0);
        assert_int_equal(v, 8192);
}

static void test_memory_events(void **state) {
        int fd = fixture(state)->dirfd;
        cg_memory_events_t e;

        cgt_write_file(fd, "memory.events",
                       "low 1\nhigh 22\nmax 333\noom 4\noom_kill 5\noom_group_kill 6\n");
        assert_int_equal(cg_memory_read_events(fd, false, &e), 0);
        assert_int_equal(e.low, 1);
        assert_int_equal(e.high, 22);
        assert_int_equal(e.max, 333);
        assert_int_equal(e.oom, 4);
        assert_int_equal(e.oom_kill, 5);
        assert_int_equal(e.oom_group_kill, 6);

        /* A 5.15 kernel: no oom_group_kill yet. */
        cgt_write_file(fd, "memory.events.local", "low 0\nhigh 7\nmax 0\noom 0\noom_kill 2\n");
        assert_int_equal(cg_memory_read_events(fd, true, &e), 0);
        assert_int_equal(e.high, 7);
        assert_int_equal(e.oom_kill, 2);
        assert_int_equal(e.oom_group_kill, 0);
}

static void test_memory_events_garbage(void **state) {
        cgt_fixture_t *f = fixture(state);
        cg_memory_events_t e;
        char path[512];

        snprintf(path, sizeof(path), "%s/memory.events", f->path);
        cgt_write_file(f->dirfd, "memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill lots\n");
        assert_int_equal(cg_memory_read_events(f->dirfd, false, &e), -EBADMSG);
        cgt_assert_log_contains(path, "key 'oom_kill'", "'lots'", "unsigned number");

        cgt_write_file(f->dirfd, "memory.events", "low 0\nhigh 0\nmax 0\noom_kill 1\n");
        assert_int_equal(cg_memory_read_events(f->dirfd, false, &e), -EBADMSG);
        cgt_assert_log_contains(path, "no 'oom' counter");

        cgt_write_file(f->dirfd, "memory.events", "\x01\x02garbage\xff\n\n  \n");
        assert_int_equal(cg_memory_read_events(f->dirfd, false, &e), -EBADMSG);
        cgt_assert_log_contains(path, "no 'low' counter");

        cgt_write_file(f->dirfd, "memory.events",
                       "low 0\nhigh 0\nmax 99999999999999999999\noom 0\noom_kill 0\n");
        assert_int_equal(cg_memory_read_events(f->dirfd, false, &e), -EBADMSG);
        cgt_assert_log_contains(path, "key 'max'");
}

static void test_memory_stat_streamed(void **state) {
        int fd = fixture(state)->dirfd;
        char big[12000];
        size_t used = 0;
        cg_memory_stat_t s;

        /* Keys beyond the first read chunk, and an overlong line, as a future kernel may
         * print: the reader streams lines and skips what it does not want. */
        used += (size_t)snprintf(big + used, sizeof(big) - used, "anon 1000\n");
        for (int i = 0; i < 300; i++)
                used += (size_t)snprintf(big + used, sizeof(big) - used, "filler_key_%03d %d\n", i,
                                         i);
        big[used++] = 'x';
        memset(big + used, 'y', 400);
        used += 400;
        used += (size_t)snprintf(big + used, sizeof(big) - used,
                                 " 5\nfile 2000\nshmem 3\nunevictable 4\nkernel 5\n"
                                 "workingset_refault_anon 6\nworkingset_refault_file 7\n"
                                 "pgscan 8\npgsteal 9\npgscan_direct 10\npgmajfault 11");
        assert_true(used > 4096 && used < sizeof(big));
        cgt_write_file(fd, "memory.stat", big);
        assert_int_equal(cg_memory_read_stat(fd, &s), 0);
        assert_int_equal(s.anon, 1000);
        assert_int_equal(s.file, 2000);
        assert_int_equal(s.shmem, 3);
        assert_int_equal(s.unevictable, 4);
        assert_int_equal(s.kernel, 5);
        assert_int_equal(s.workingset_refault_anon, 6);
        assert_int_equal(s.workingset_refault_file, 7);
        assert_int_equal(s.pgscan, 8);
        assert_int_equal(s.pgsteal, 9);
        assert_int_equal(s.pgscan_direct, 10);
        assert_int_equal(s.pgmajfault, 11); /* last line without newline */

        cgt_write_file(fd, "memory.stat", "rss 5\ncache 6\n"); /* a v1 memory.stat */
        assert_int_equal(cg_memory_read_stat(fd, &s), -EBADMSG);
        cgt_assert_log_contains("memory.stat", "no anon/file");
}

static void test_child_create_open_remove(void **state) {
        cgt_fixture_t *f = fixture(state);
        int child = -1, again = -1, grandchild = -1;
        char path[512];

        assert_int_equal(cg_child_create(f->dirfd, "synth", &child), 0);
        cgt_write_file(child, "marker", "1");
        /* Worker cgroups are reused: creating an existing one opens it. */
        assert_int_equal(cg_child_create(f->dirfd, "synth", &again), 0);
        assert_file_is(again, "marker", "1");
        close(again);
        assert_int_equal(cg_child_create(child, "w0", &grandchild), 0);
        close(grandchild);
        close(child);

        snprintf(path, sizeof(path), "%s/prover", f->path);
        assert_int_equal(cg_child_open(f->dirfd, "prover", &again), -ENOENT);
        cgt_assert_log_contains("Failed to open cgroup", path);

        assert_int_equal(cg_child_open(f->dirfd, "synth", &child), 0);
        assert_int_equal(cg_child_remove(child, "w0"), 0);
        assert_int_equal(faccessat(child, "w0", F_OK, 0), -1);
        close(child);
        assert_int_equal(cg_child_remove(f->dirfd, "missing"), -ENOENT);
        cgt_assert_log_contains("Failed to remove cgroup", "missing");
}

static void test_enable_controllers(void **state) {
        int fd = fixture(state)->dirfd;

        cgt_write_file(fd, "cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
        cgt_write_file(fd, "cgroup.subtree_control", "");
        assert_int_equal(cg_enable_controllers(fd, CG_CONTROLLER_MEMORY | CG_CONTROLLER_PIDS |
                                                           CG_CONTROLLER_CPU),
                         CG_CONTROLLER_MEMORY | CG_CONTROLLER_PIDS | CG_CONTROLLER_CPU);
        assert_file_is(fd, "cgroup.subtree_control", "+memory +pids +cpu");

        /* Delegate=memory only: cpu and pids are not ours to enable, and are left out. */
        cgt_write_file(fd, "cgroup.controllers", "memory\n");
        cgt_write_file(fd, "cgroup.subtree_control", "");
        assert_int_equal(cg_enable_controllers(fd, CG_CONTROLLER_MEMORY | CG_CONTROLLER_PIDS |
                                                           CG_CONTROLLER_CPU),
                         CG_CONTROLLER_MEMORY);
        assert_file_is(fd, "cgroup.subtree_control", "+memory");
        cgt_assert_log_contains("cpu not available");

        cgt_write_file(fd, "cgroup.controllers", "cpuset io\n");
        cgt_write_file(fd, "cgroup.subtree_control", "untouched");
        assert_int_equal(cg_enable_controllers(fd, CG_CONTROLLER_MEMORY), 0);
        assert_file_is(fd, "cgroup.subtree_control", "untouched");
}

static void test_move_pid_and_self(void **state) {
        int fd = fixture(state)->dirfd, supervisor = -1;
        char expected[32];

        cgt_write_file(fd, "cgroup.procs", "");
        assert_int_equal(cg_move_pid(fd, 4242), 0);
        assert_file_is(fd, "cgroup.procs", "4242");

        /* On a real cgroupfs mkdir creates cgroup.procs; here the test provides it. */
        cgt_mkdir(fd, "supervisor");
        assert_int_equal(cg_child_open(fd, "supervisor", &supervisor), 0);
        cgt_write_file(supervisor, "cgroup.procs", "");
        close(supervisor);
        assert_int_equal(cg_move_self_into(fd, "supervisor", &supervisor), 0);
        snprintf(expected, sizeof(expected), "%d", (int)getpid());
        assert_file_is(supervisor, "cgroup.procs", expected);
        close(supervisor);

        assert_int_equal(cg_move_self_into(fd, "prover", &supervisor), -ENOENT);
        cgt_assert_log_contains("prover/cgroup.procs");
}

static void test_kill_writes_cgroup_kill(void **state) {
        int fd = fixture(state)->dirfd;

        cgt_write_file(fd, "cgroup.kill", "");
        assert_int_equal(cg_kill(fd), 0);
        assert_file_is(fd, "cgroup.kill", "1");
}

static void test_populated_and_dying(void **state) {
        int fd = fixture(state)->dirfd;
        uint64_t dying = 0;

        cgt_write_file(fd, "cgroup.events", "populated 1\nfrozen 0\n");
        assert_int_equal(cg_is_populated(fd), 1);
        cgt_write_file(fd, "cgroup.events", "populated 0\nfrozen 0\n");
        assert_int_equal(cg_is_populated(fd), 0);
        cgt_write_file(fd, "cgroup.events", "populated 7\n");
        assert_int_equal(cg_is_populated(fd), -EBADMSG);
        cgt_assert_log_contains("cgroup.events", "populated 0|1");

        cgt_write_file(fd, "cgroup.stat", "nr_descendants 3\nnr_dying_descendants 2\n");
        assert_int_equal(cg_nr_dying_descendants(fd, &dying), 0);
        assert_int_equal(dying, 2);
        cgt_write_file(fd, "cgroup.stat", "nr_descendants 3\n");
        assert_int_equal(cg_nr_dying_descendants(fd, &dying), -EBADMSG);
}

static void test_populated_v1(void **state) {
        int fd = fixture(state)->dirfd;

        /* v1 has no cgroup.events: a pid in cgroup.procs means populated. */
        cgt_write_file(fd, "cgroup.procs", "");
        assert_int_equal(cg_is_populated(fd), 0);
        cgt_write_file(fd, "cgroup.procs", "123\n456\n");
        assert_int_equal(cg_is_populated(fd), 1);
}

static void test_v1_limits(void **state) {
        int fd = fixture(state)->dirfd;
        uint64_t v;

        cgt_write_file(fd, "memory.limit_in_bytes", "");
        cgt_write_file(fd, "memory.soft_limit_in_bytes", "");
        assert_int_equal(cg_v1_memory_set_limit(fd, 64 * MiB), 0);
        assert_file_is(fd, "memory.limit_in_bytes", "67108864");
        assert_int_equal(cg_v1_memory_set_soft_limit(fd, CG_LIMIT_MAX), 0);
        assert_file_is(fd, "memory.soft_limit_in_bytes", "-1");

        cgt_write_file(fd, "memory.limit_in_bytes", "9223372036854771712\n");
        assert_int_equal(cg_v1_memory_limit(fd, &v), 0);
        assert_true(v == CG_LIMIT_MAX);
        cgt_write_file(fd, "memory.limit_in_bytes", "134217728\n");
        assert_int_equal(cg_v1_memory_limit(fd, &v), 0);
        assert_int_equal(v, 128 * MiB);

        cgt_write_file(fd, "memory.usage_in_bytes", "1000\n");
        cgt_write_file(fd, "memory.max_usage_in_bytes", "2000\n");
        assert_int_equal(cg_v1_memory_usage(fd, &v), 0);
        assert_int_equal(v, 1000);
        assert_int_equal(cg_v1_memory_max_usage(fd, &v), 0);
        assert_int_equal(v, 2000);
}

static void test_v1_oom_control(void **state) {
        int fd = fixture(state)->dirfd;
        cg_v1_oom_control_t oom;
        cg_memory_events_t e;

        cgt_write_file(fd, "memory.oom_control", "oom_kill_disable 0\nunder_oom 1\noom_kill 3\n");
        assert_int_equal(cg_v1_memory_read_oom_control(fd, &oom), 0);
        assert_false(oom.oom_kill_disable);
        assert_true(oom.under_oom);
        assert_true(oom.has_oom_kill);
        assert_int_equal(oom.oom_kill, 3);

        /* Before 4.13 there is no oom_kill counter. */
        cgt_write_file(fd, "memory.oom_control", "oom_kill_disable 1\nunder_oom 0\n");
        assert_int_equal(cg_v1_memory_read_oom_control(fd, &oom), 0);
        assert_true(oom.oom_kill_disable);
        assert_false(oom.has_oom_kill);

        cgt_write_file(fd, "memory.oom_control", "oom_kill_disable 0\nunder_oom 5\n");
        assert_int_equal(cg_v1_memory_read_oom_control(fd, &oom), -EBADMSG);
        cgt_assert_log_contains("memory.oom_control", "under_oom 0|1");

        cgt_write_file(fd, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 9\n");
        cgt_write_file(fd, "memory.failcnt", "17\n");
        assert_int_equal(cg_v1_memory_read_events(fd, &e), 0);
        assert_int_equal(e.max, 17);
        assert_int_equal(e.oom_kill, 9);
        assert_int_equal(e.high, 0);
}

static void test_events_watch_deltas(void **state) {
        int fd = fixture(state)->dirfd;
        cg_events_watch_t watch;
        cg_memory_events_t delta;

        cgt_write_file(fd, "memory.events",
                       "low 0\nhigh 10\nmax 2\noom 1\noom_kill 1\noom_group_kill 0\n");
        assert_int_equal(cg_events_watch_open(fd, CG_EVENTS_V2, &watch), 0);
        assert_int_equal(cg_events_watch_poll_events(&watch), POLLPRI);
        assert_int_equal(cg_events_watch_update(&watch, &delta), 0);
        assert_int_equal(delta.oom_kill, 0);

        cgt_write_file(fd, "memory.events",
                       "low 0\nhigh 13\nmax 2\noom 2\noom_kill 2\noom_group_kill 1\n");
        assert_int_equal(cg_events_watch_update(&watch, &delta), 1);
        assert_int_equal(delta.high, 3);
        assert_int_equal(delta.max, 0);
        assert_int_equal(delta.oom, 1);
        assert_int_equal(delta.oom_kill, 1);
        assert_int_equal(delta.oom_group_kill, 1);
        assert_int_equal(watch.last.high, 13);

        /* Counters went down: the cgroup was recreated, its new counts are all news. */
        cgt_write_file(fd, "memory.events", "low 0\nhigh 1\nmax 0\noom 0\noom_kill 0\n");
        assert_int_equal(cg_events_watch_update(&watch, &delta), 1);
        assert_int_equal(delta.high, 1);
        assert_int_equal(delta.oom_kill, 0);

        cgt_write_file(fd, "memory.events", "garbage\n");
        assert_int_equal(cg_events_watch_update(&watch, &delta), -EBADMSG);

        /* The cgroup went away (its files with it). */
        assert_int_equal(unlinkat(fd, "memory.events", 0), 0);
        assert_int_equal(cg_events_watch_update(&watch, &delta), -ENODEV);
        cg_events_watch_close(&watch);
        assert_int_equal(watch.fd, -EBADF);
}

static void test_events_watch_open_missing(void **state) {
        int fd = fixture(state)->dirfd;
        cg_events_watch_t watch;

        assert_int_equal(cg_events_watch_open(fd, CG_EVENTS_V2_LOCAL, &watch), -ENOENT);
        cgt_assert_log_contains("memory.events.local", "No such file");
}

static void test_domain_choice(void **state) {
        cgt_fixture_t *f = fixture(state);
        cg_hierarchy_t h = {.kind = CG_HIERARCHY_V2};
        cg_domain_t d;

        snprintf(h.v2_dir, sizeof(h.v2_dir), "%s", f->path);
        cgt_write_file(f->dirfd, "cgroup.subtree_control", "");
        assert_int_equal(cg_domain_open(&h, &d), 0);
        assert_int_equal(d.enforcement, CG_ENFORCEMENT_V2);
        assert_string_equal(cg_domain_enforcement_name(&d), "cgroup v2");
        assert_string_equal(d.own_path, f->path);
        cgt_assert_log_contains("Memory enforcement: cgroup v2", f->path);
        cg_domain_close(&d);

        h = (cg_hierarchy_t){.kind = CG_HIERARCHY_V1_MEMORY};
        snprintf(h.v1_memory_dir, sizeof(h.v1_memory_dir), "%s", f->path);
        cgt_write_file(f->dirfd, "cgroup.procs", "");
        assert_int_equal(cg_domain_open(&h, &d), 0);
        assert_string_equal(cg_domain_enforcement_name(&d), "cgroup v1 memory");
        assert_int_equal(cg_domain_events_source(&d), CG_EVENTS_V1);
        cg_domain_close(&d);

        /* A v2 hierarchy whose cgroup we may not write (here: its control file is missing). */
        h = (cg_hierarchy_t){.kind = CG_HIERARCHY_V2};
        snprintf(h.v2_dir, sizeof(h.v2_dir), "%s/nonexistent", f->path);
        assert_int_equal(cg_domain_open(&h, &d), 0);
        assert_string_equal(cg_domain_enforcement_name(&d), "RLIMIT_DATA");
        assert_true(d.own_dirfd < 0);
        cgt_assert_log_contains("RLIMIT_DATA", "cgroup v2");
        cg_domain_close(&d);

        h = (cg_hierarchy_t){.kind = CG_HIERARCHY_NONE};
        assert_int_equal(cg_domain_open(&h, &d), 0);
        assert_int_equal(d.enforcement, CG_ENFORCEMENT_RLIMIT_DATA);
        cgt_assert_log_contains("RLIMIT_DATA", "hierarchy: none");
}

/* cuzkd's cgroup and its parents: <fixture>/a/b/c/supervisor; the fixture's top stands for
 * the real root, with no memory.max. */
static void make_limit_tree(int dirfd) {
        cgt_mkdir(dirfd, "a");
        cgt_mkdir(dirfd, "a/b");
        cgt_mkdir(dirfd, "a/b/c");
        cgt_mkdir(dirfd, "a/b/c/supervisor");
        cgt_write_file(dirfd, "a/memory.max", "68719476736\n");
        cgt_write_file(dirfd, "a/b/memory.max", "max\n");
        cgt_write_file(dirfd, "a/b/c/memory.max", "max\n");
        cgt_write_file(dirfd, "a/b/c/supervisor/memory.max", "max\n");
}

/* The limit of a cgroup is the smallest of its ancestors': the benchmark's 64G on a/ holds
 * for cuzkd in a/b/c, before and after it moves itself into supervisor/. */
static void test_limit_smallest_ancestor(void **state) {
        cgt_fixture_t *f = fixture(state);
        char file[512], expect[512];
        uint64_t v = 0;

        make_limit_tree(f->dirfd);
        snprintf(expect, sizeof(expect), "%s/a/memory.max", f->path);
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c", "memory.max", &v, file, sizeof(file)),
                         0);
        assert_true(v == 64 * GiB);
        assert_string_equal(file, expect);
        assert_int_equal(cg_limit_smallest(f->path, "a/b/c/supervisor/", "memory.max", &v, file,
                                           sizeof(file)),
                         0);
        assert_true(v == 64 * GiB);
        assert_string_equal(file, expect);

        /* A smaller limit deeper down wins; of equal ones the outermost is named. */
        cgt_write_file(f->dirfd, "a/b/c/memory.max", "8589934592\n");
        snprintf(expect, sizeof(expect), "%s/a/b/c/memory.max", f->path);
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c/supervisor", "memory.max", &v, file,
                                           sizeof(file)),
                         0);
        assert_true(v == 8 * GiB);
        assert_string_equal(file, expect);
        cgt_write_file(f->dirfd, "a/b/c/supervisor/memory.max", "8589934592\n");
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c/supervisor", "memory.max", &v, file,
                                           sizeof(file)),
                         0);
        assert_string_equal(file, expect);
        /* cuzkd in the root cgroup: it has no memory.max, so there is no limit. */
        assert_int_equal(cg_limit_smallest(f->path, "/", "memory.max", &v, file, sizeof(file)), 0);
        assert_true(v == CG_LIMIT_MAX);
        assert_int_equal(cgt_log_count(), 0);
}

static void test_limit_smallest_none(void **state) {
        cgt_fixture_t *f = fixture(state);
        char file[512], expect[512];
        uint64_t v = 0;

        make_limit_tree(f->dirfd);
        cgt_write_file(f->dirfd, "a/memory.max", "max\n");
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c", "memory.max", &v, file, sizeof(file)),
                         0);
        assert_true(v == CG_LIMIT_MAX);
        assert_string_equal(file, "");

        /* No memory.max where the parent does not enable the controller: skipped. */
        assert_int_equal(unlinkat(f->dirfd, "a/b/memory.max", 0), 0);
        assert_int_equal(unlinkat(f->dirfd, "a/b/c/memory.max", 0), 0);
        cgt_write_file(f->dirfd, "a/memory.max", "1073741824\n");
        snprintf(expect, sizeof(expect), "%s/a/memory.max", f->path);
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c/supervisor", "memory.max", &v, file,
                                           sizeof(file)),
                         0);
        assert_true(v == GiB);
        assert_string_equal(file, expect);
        /* The top of a cgroup namespace is a cgroup, whose limit counts. */
        cgt_write_file(f->dirfd, "memory.max", "4096\n");
        snprintf(expect, sizeof(expect), "%s/memory.max", f->path);
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c", "memory.max", &v, file, sizeof(file)),
                         0);
        assert_true(v == 4096);
        assert_string_equal(file, expect);
        assert_int_equal(cgt_log_count(), 0);
}

static void test_limit_smallest_errors(void **state) {
        cgt_fixture_t *f = fixture(state);
        char file[512], path[512];
        uint64_t v = 7;

        make_limit_tree(f->dirfd);
        snprintf(path, sizeof(path), "%s/a/b/x", f->path);
        assert_int_equal(
                cg_limit_smallest(f->path, "/a/b/x/y", "memory.max", &v, file, sizeof(file)),
                -ENOENT);
        cgt_assert_log_contains("Failed to open cgroup", path, "No such file or directory");
        cgt_write_file(f->dirfd, "a/b/memory.max", "lots\n");
        snprintf(path, sizeof(path), "%s/a/b/memory.max", f->path);
        assert_int_equal(cg_limit_smallest(f->path, "/a/b/c", "memory.max", &v, file, sizeof(file)),
                         -EBADMSG);
        cgt_assert_log_contains(path, "'lots'");
        assert_int_equal(
                cg_limit_smallest(f->path, "/a/../a/b", "memory.max", &v, file, sizeof(file)),
                -EINVAL);
        cgt_assert_log_contains("'..'", "expected a cgroup name");
        assert_int_equal(v, 7);
}

static void test_domain_limits(void **state) {
        int fd = fixture(state)->dirfd;
        cg_domain_t d = {.enforcement = CG_ENFORCEMENT_V2, .own_dirfd = fd};
        cg_worker_limits_t limits = {.high_bytes = 48 * MiB, .max_bytes = 64 * MiB};
        cg_spawn_params_t params = {.rlimit_data_bytes = 1};
        cg_worker_usage_t usage;

        cgt_write_file(fd, "memory.high", "max\n");
        cgt_write_file(fd, "memory.max", "max\n");
        cgt_write_file(fd, "memory.oom.group", "0\n");
        assert_int_equal(cg_domain_set_limits(&d, fd, &limits), 0);
        assert_file_is(fd, "memory.high", "50331648");
        assert_file_is(fd, "memory.max", "67108864");
        assert_file_is(fd, "memory.oom.group", "1");
        cg_domain_spawn_params(&d, fd, &limits, &params);
        assert_int_equal(params.cgroup_dirfd, fd);
        assert_true(params.cgroup_is_v2);
        assert_int_equal(params.rlimit_data_bytes, 0);

        cgt_write_file(fd, "memory.current", "1000\n");
        cgt_write_file(fd, "memory.events", "low 0\nhigh 4\nmax 1\noom 1\noom_kill 1\n");
        assert_int_equal(cg_domain_read_usage(&d, fd, &usage), 0);
        assert_int_equal(usage.current_bytes, 1000);
        assert_int_equal(usage.peak_bytes, 0); /* no memory.peak before 5.19 */
        assert_int_equal(usage.events.oom_kill, 1);

        d.enforcement = CG_ENFORCEMENT_V1_MEMORY;
        cgt_write_file(fd, "memory.limit_in_bytes", "");
        cgt_write_file(fd, "memory.soft_limit_in_bytes", "");
        assert_int_equal(cg_domain_set_limits(&d, fd, &limits), 0);
        assert_file_is(fd, "memory.limit_in_bytes", "67108864");
        assert_file_is(fd, "memory.soft_limit_in_bytes", "50331648");
        cg_domain_spawn_params(&d, fd, &limits, &params);
        assert_int_equal(params.cgroup_dirfd, fd);
        assert_false(params.cgroup_is_v2);

        d = (cg_domain_t){.enforcement = CG_ENFORCEMENT_RLIMIT_DATA, .own_dirfd = -EBADF};
        assert_int_equal(cg_domain_set_limits(&d, -EBADF, &limits), 0);
        assert_int_equal(cg_domain_read_usage(&d, -EBADF, &usage), -EOPNOTSUPP);
        cg_domain_spawn_params(&d, -EBADF, &limits, &params);
        assert_true(params.cgroup_dirfd < 0);
        assert_int_equal(params.rlimit_data_bytes, 64 * MiB);
}

static void test_psi_trigger_bytes(void **state) {
        int fd = fixture(state)->dirfd;
        psi_trigger_t t;
        char buf[64];
        size_t n;

        /* A regular file accepts any write: this checks the exact request bytes. */
        cgt_write_file(fd, "memory.pressure", "");
        assert_int_equal(psi_trigger_arm(fd, "memory.pressure", PSI_SOME, 150000, 2000000, &t), 0);
        assert_false(t.rounded);
        assert_int_equal(t.stall_us, 150000);
        assert_int_equal(t.window_us, 2000000);
        close(t.fd);
        n = cgt_read_file(fd, "memory.pressure", buf, sizeof(buf));
        assert_int_equal(n, strlen("some 150000 2000000") + 1); /* with its trailing NUL */
        assert_memory_equal(buf, "some 150000 2000000", n);

        cgt_write_file(fd, "memory.pressure", "");
        assert_int_equal(psi_trigger_arm(fd, "memory.pressure", PSI_FULL, 1, 500000, &t), 0);
        close(t.fd);
        n = cgt_read_file(fd, "memory.pressure", buf, sizeof(buf));
        assert_memory_equal(buf, "full 1 500000", n);
}

static void test_psi_trigger_arguments(void **state) {
        int fd = fixture(state)->dirfd;
        psi_trigger_t t;

        cgt_write_file(fd, "memory.pressure", "");
        assert_int_equal(psi_trigger_arm(fd, "memory.pressure", PSI_SOME, 1000, 100000, &t),
                         -EINVAL);
        cgt_assert_log_contains("memory.pressure", "window 100000 us", "500000..10000000");
        assert_int_equal(psi_trigger_arm(fd, "memory.pressure", PSI_SOME, 3000000, 2000000, &t),
                         -EINVAL);
        cgt_assert_log_contains("stall 3000000 us");
        assert_int_equal(psi_trigger_arm(fd, "memory.pressure", PSI_SOME, 0, 2000000, &t), -EINVAL);
        assert_int_equal(psi_trigger_arm(fd, "nonexistent.pressure", PSI_SOME, 1, 2000000, &t),
                         -ENOENT);
        cgt_assert_log_contains("nonexistent.pressure", "No such file");
}

int main(void) {
#define FIXTURE_TEST(f) cmocka_unit_test_setup_teardown(f, cgt_fixture_setup, cgt_fixture_teardown)
        const struct CMUnitTest tests[] = {
                FIXTURE_TEST(test_write_values),
                FIXTURE_TEST(test_write_missing_file),
                FIXTURE_TEST(test_read_u64),
                FIXTURE_TEST(test_read_u64_errors),
                FIXTURE_TEST(test_read_string_too_long),
                FIXTURE_TEST(test_memory_knobs),
                FIXTURE_TEST(test_memory_current_peak),
                FIXTURE_TEST(test_memory_events),
                FIXTURE_TEST(test_memory_events_garbage),
                FIXTURE_TEST(test_memory_stat_streamed),
                FIXTURE_TEST(test_child_create_open_remove),
                FIXTURE_TEST(test_enable_controllers),
                FIXTURE_TEST(test_move_pid_and_self),
                FIXTURE_TEST(test_kill_writes_cgroup_kill),
                FIXTURE_TEST(test_populated_and_dying),
                FIXTURE_TEST(test_populated_v1),
                FIXTURE_TEST(test_v1_limits),
                FIXTURE_TEST(test_v1_oom_control),
                FIXTURE_TEST(test_events_watch_deltas),
                FIXTURE_TEST(test_events_watch_open_missing),
                FIXTURE_TEST(test_domain_choice),
                FIXTURE_TEST(test_domain_limits),
                FIXTURE_TEST(test_limit_smallest_ancestor),
                FIXTURE_TEST(test_limit_smallest_none),
                FIXTURE_TEST(test_limit_smallest_errors),
                FIXTURE_TEST(test_psi_trigger_bytes),
                FIXTURE_TEST(test_psi_trigger_arguments),
        };
        return cgt_run("cgroup-fixtures", tests, sizeof(tests) / sizeof(tests[0]));
}
