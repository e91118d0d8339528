/* SPDX-License-Identifier: Apache-2.0 */
/* Hierarchy detection from sample /proc/self/mountinfo and /proc/self/cgroup texts (pure
 * v2, hybrid like our development machines, legacy v1, containers), and the PSI file
 * parser and unprivileged window rounding. */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "cgroup/hierarchy.h"
#include "cgroup/psi.h"
#include "tests/lib/cgroup-common.h"

/* Debian 12 with systemd 252: unified hierarchy only. */
static const char pure_v2_mountinfo[] =
        "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro\n"
        "23 22 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw\n"
        "26 23 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 "
        "cgroup2 rw,nsdelegate,memory_recursiveprot\n"
        "27 23 0:25 / /sys/fs/pstore rw,nosuid,nodev,noexec,relatime shared:5 - pstore pstore "
        "rw\n";
static const char pure_v2_cgroup[] = "0::/cuzk.slice/cuzkd.service\n";

/* Our development machines: v1 controllers plus an unnamed v2 at unified/. */
static const char hybrid_mountinfo[] =
        "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
        "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
        "32 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
        "33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
        "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
        "35 30 0:32 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices\n"
        "38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
        "39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
        "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char hybrid_cgroup[] = "9:name=systemd:/\n"
                                    "8:pids:/\n"
                                    "5:devices:/\n"
                                    "4:memory:/process_api/906dca510528c655a19ee0cfd897e78b\n"
                                    "3:cpuset:/\n"
                                    "2:cpuacct:/\n"
                                    "1:cpu:/\n"
                                    "0::/\n";

/* CentOS 7 style legacy host: no cgroup2 at all, co-mounted cpu,cpuacct. */
static const char v1_only_mountinfo[] =
        "24 18 0:20 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:6 - tmpfs tmpfs ro,mode=755\n"
        "25 24 0:21 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:7 - "
        "cgroup cgroup rw,xattr,release_agent=/usr/lib/systemd/systemd-cgroups-agent,"
        "name=systemd\n"
        "28 24 0:24 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:10 - "
        "cgroup cgroup rw,cpu,cpuacct\n"
        "30 24 0:26 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:12 - "
        "cgroup cgroup rw,memory\n";
static const char v1_only_cgroup[] = "11:memory:/system.slice/cuzkd.service\n"
                                     "4:cpu,cpuacct:/system.slice/cuzkd.service\n"
                                     "1:name=systemd:/system.slice/cuzkd.service\n";

static void test_pure_v2(void **state) {
        cg_hierarchy_t h;
        (void)state;

        assert_int_equal(cg_hierarchy_parse(pure_v2_mountinfo, pure_v2_cgroup,
                                            "cpuset cpu io memory pids\n", &h),
                         0);
        assert_int_equal(h.kind, CG_HIERARCHY_V2);
        assert_string_equal(h.v2_dir, "/sys/fs/cgroup/cuzk.slice/cuzkd.service");
        assert_string_equal(h.v2_mount, "/sys/fs/cgroup");
        assert_string_equal(h.v1_memory_dir, "");
        assert_string_equal(cg_hierarchy_kind_name(h.kind), "cgroup v2");

        /* Delegate= without memory, or cgroup_disable=memory: nothing to enforce with. */
        assert_int_equal(cg_hierarchy_parse(pure_v2_mountinfo, pure_v2_cgroup, "cpu pids\n", &h),
                         0);
        assert_int_equal(h.kind, CG_HIERARCHY_NONE);
        assert_string_equal(h.v2_dir, "/sys/fs/cgroup/cuzk.slice/cuzkd.service");
        assert_int_equal(cg_hierarchy_parse(pure_v2_mountinfo, pure_v2_cgroup, NULL, &h), 0);
        assert_int_equal(h.kind, CG_HIERARCHY_NONE);
        /* "memory" must be a whole word, not a prefix. */
        assert_int_equal(
                cg_hierarchy_parse(pure_v2_mountinfo, pure_v2_cgroup, "memoryx pids\n", &h), 0);
        assert_int_equal(h.kind, CG_HIERARCHY_NONE);
}

static void test_hybrid(void **state) {
        cg_hierarchy_t h;
        (void)state;

        /* The unified hierarchy's cgroup.controllers lists no memory on a hybrid host. */
        assert_int_equal(cg_hierarchy_parse(hybrid_mountinfo, hybrid_cgroup, "hugetlb\n", &h), 0);
        assert_int_equal(h.kind, CG_HIERARCHY_V1_MEMORY);
        assert_string_equal(h.v2_dir, "/sys/fs/cgroup/unified");
        assert_string_equal(h.v1_memory_dir,
                            "/sys/fs/cgroup/memory/process_api/906dca510528c655a19ee0cfd897e78b");
        assert_string_equal(cg_hierarchy_kind_name(h.kind), "cgroup v1 memory");
}

static void test_v1_only(void **state) {
        cg_hierarchy_t h;
        (void)state;

        assert_int_equal(cg_hierarchy_parse(v1_only_mountinfo, v1_only_cgroup, NULL, &h), 0);
        assert_int_equal(h.kind, CG_HIERARCHY_V1_MEMORY);
        assert_string_equal(h.v2_dir, "");
        assert_string_equal(h.v1_memory_dir, "/sys/fs/cgroup/memory/system.slice/cuzkd.service");

        /* Memory controller not mounted at all. */
        assert_int_equal(cg_hierarchy_parse(v1_only_mountinfo, "4:cpu,cpuacct:/\n", NULL, &h), 0);
        assert_int_equal(h.kind, CG_HIERARCHY_NONE);
        assert_int_equal(
                cg_hierarchy_parse("22 1 254:1 / / rw - ext4 /dev/vda1 rw\n", "0::/\n", NULL, &h),
                0);
        assert_int_equal(h.kind, CG_HIERARCHY_NONE);
        assert_string_equal(h.v2_dir, "");
}

static void test_container_and_subtree_mounts(void **state) {
        cg_hierarchy_t h;
        (void)state;

        /* cgroup namespace: we are at its root. */
        assert_int_equal(cg_hierarchy_parse("700 600 0:30 / /sys/fs/cgroup ro,nosuid - cgroup2 "
                                            "cgroup rw\n",
                                            "0::/\n", "memory pids\n", &h),
                         0);
        assert_int_equal(h.kind, CG_HIERARCHY_V2);
        assert_string_equal(h.v2_dir, "/sys/fs/cgroup");

        /* A bind mount of a subtree: our path is shown relative to the hierarchy's root. */
        assert_int_equal(cg_hierarchy_parse("700 600 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 "
                                            "cgroup rw\n",
                                            "0::/docker/abc/worker\n", "memory\n", &h),
                         0);
        assert_string_equal(h.v2_dir, "/sys/fs/cgroup/worker");
        assert_string_equal(h.v2_mount, "/sys/fs/cgroup");
        assert_int_equal(cg_hierarchy_parse("700 600 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 "
                                            "cgroup rw\n",
                                            "0::/docker/abcdef\n", "memory\n", &h),
                         -ENOENT);
        cgt_assert_log_contains("/docker/abcdef", "outside the subtree /docker/abc");

        /* Octal escapes in mount points (space = \040). */
        assert_int_equal(cg_hierarchy_parse("40 30 0:37 / /mnt/cg\\040root rw - cgroup2 none rw\n",
                                            "0::/a b\n", "memory\n", &h),
                         0);
        assert_string_equal(h.v2_dir, "/mnt/cg root/a b");
        assert_string_equal(h.v2_mount, "/mnt/cg root");
}

static void test_malformed(void **state) {
        cg_hierarchy_t h;
        (void)state;

        assert_int_equal(cg_hierarchy_parse("30 22 0:27 / /sys/fs/cgroup rw\n", "0::/\n", NULL, &h),
                         -EBADMSG);
        cgt_assert_log_contains("Malformed mountinfo line");
        assert_int_equal(cg_hierarchy_parse(hybrid_mountinfo, "4 memory /x\n", NULL, &h), -EBADMSG);
        cgt_assert_log_contains("Malformed /proc/self/cgroup line: 4 memory /x");
        assert_int_equal(cg_hierarchy_parse("", "", NULL, &h), 0);
        assert_int_equal(h.kind, CG_HIERARCHY_NONE);
}

static void test_psi_parse(void **state) {
        psi_stats_t s;
        (void)state;

        assert_int_equal(psi_parse("some avg10=1.50 avg60=0.25 avg300=100.00 total=123456\n"
                                   "full avg10=0.00 avg60=0.01 avg300=0.00 total=42\n",
                                   &s),
                         0);
        assert_true(s.some.present && s.full.present);
        assert_float_equal(s.some.avg10, 1.5, 1e-9);
        assert_float_equal(s.some.avg60, 0.25, 1e-9);
        assert_float_equal(s.some.avg300, 100.0, 1e-9);
        assert_int_equal(s.some.total_us, 123456);
        assert_float_equal(s.full.avg60, 0.01, 1e-9);
        assert_int_equal(s.full.total_us, 42);

        /* /proc/pressure/cpu before 5.13 has no "full" line. */
        assert_int_equal(psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &s), 0);
        assert_true(s.some.present);
        assert_false(s.full.present);

        assert_int_equal(psi_parse("", &s), -EBADMSG);
        assert_int_equal(psi_parse("some avg10=x avg60=0.00 avg300=0.00 total=0\n", &s), -EBADMSG);
        assert_int_equal(psi_parse("some avg10=0.00 avg60=0.00 total=0\n", &s), -EBADMSG);
        assert_int_equal(psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=99999999999999"
                                   "999999\n",
                                   &s),
                         -EBADMSG);
        assert_int_equal(psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nbogus\n", &s),
                         -EBADMSG);
}

static void test_psi_unprivileged_window(void **state) {
        uint64_t stall, window;
        (void)state;

        psi_unprivileged_window(100000, 1000000, &stall, &window);
        assert_int_equal(window, 2000000);
        assert_int_equal(stall, 200000);
        psi_unprivileged_window(150000, 3000000, &stall, &window);
        assert_int_equal(window, 4000000);
        assert_int_equal(stall, 200000);
        psi_unprivileged_window(500000, 500000, &stall, &window);
        assert_int_equal(window, 2000000);
        assert_int_equal(stall, 2000000); /* stall == window stays so */
        psi_unprivileged_window(1, 10000000, &stall, &window);
        assert_int_equal(window, 10000000);
        assert_int_equal(stall, 1);
        psi_unprivileged_window(9000000, 9000001, &stall, &window);
        assert_int_equal(window, 10000000);
        assert_true(stall <= window);
}

static void test_psi_event(void **state) {
        (void)state;
        assert_int_equal(psi_trigger_event(0), 0);
        assert_int_equal(psi_trigger_event(POLLPRI), 1);
        /* A removed cgroup answers POLLERR with POLLPRI: gone, not fired. */
        assert_int_equal(psi_trigger_event(POLLPRI | POLLERR), -ENODEV);
        assert_int_equal(psi_trigger_event(POLLHUP), -ENODEV);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_pure_v2),
                cmocka_unit_test(test_hybrid),
                cmocka_unit_test(test_v1_only),
                cmocka_unit_test(test_container_and_subtree_mounts),
                cmocka_unit_test(test_malformed),
                cmocka_unit_test(test_psi_parse),
                cmocka_unit_test(test_psi_unprivileged_window),
                cmocka_unit_test(test_psi_event),
        };
        return cgt_run("cgroup-parse", tests, sizeof(tests) / sizeof(tests[0]));
}
