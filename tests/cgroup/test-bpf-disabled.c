/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bpf/memwatch as built without eBPF (memwatch-disabled.c, compiled into this test
 * whatever the bpf feature): memwatch_new() returns -EOPNOTSUPP with the one line, once;
 * memwatch_free(NULL) is fine; metrics say cuzk_bpf_available 0; cgroup ids still
 * resolve.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf/memwatch.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "tests/lib/cgroup-common.h"

static void ignore_event(const memwatch_event_t *event, void *userdata) {
        (void)event;
        (void)userdata;
        fail_msg("no event can come from a build without BPF");
}

static void test_new_says_why_once(void **state) {
        memwatch_t *mw = NULL;

        (void)state;
        assert_int_equal(memwatch_new(ignore_event, NULL, &mw), -EOPNOTSUPP);
        assert_null(mw);
        assert_int_equal(cgt_log_count(), 1);
        cgt_assert_log_contains("BPF unavailable: ", "built without eBPF support",
                                "; running on PSI alone");

        /* Said once: later calls log at debug level only. */
        log_set_max_level(LOG_INFO);
        cgt_log_reset();
        assert_int_equal(memwatch_new(ignore_event, NULL, &mw), -EOPNOTSUPP);
        assert_int_equal(cgt_log_count(), 0);
        log_set_max_level(LOG_DEBUG);

        assert_null(memwatch_free(mw));
        {
                _cleanup_memwatch_ memwatch_t *none = NULL;
                (void)none;
        }
}

static void test_metrics_say_unavailable(void **state) {
        const memwatch_metrics_cgroup_t cgroups[] = {{1, "synth"}};
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);

        (void)state;
        assert_non_null(f);
        assert_int_equal(memwatch_write_metrics(NULL, cgroups, ELEMENTSOF(cgroups), f), 0);
        assert_int_equal(fclose(f), 0);
        assert_string_equal(text, "# HELP cuzk_bpf_available 1 when the eBPF memory-pressure "
                                  "probes are attached, 0 on PSI alone.\n"
                                  "# TYPE cuzk_bpf_available gauge\n"
                                  "cuzk_bpf_available 0\n");
        free(text);
}

static void test_event_lines(void **state) {
        memwatch_event_t reclaim = {.kind = MEMWATCH_MEMCG_RECLAIM,
                                    .cgroup_id = 22508,
                                    .watched_id = 22475,
                                    .pid = 4242,
                                    .tid = 4243,
                                    .comm = "cuzk-synth",
                                    .duration_ns = 93456,
                                    .pages = 256};
        memwatch_event_t oom = {.kind = MEMWATCH_OOM_KILL,
                                .cgroup_id = 7,
                                .watched_id = 7,
                                .pid = 99,
                                .pages = 34224};
        char line[160], small[12];

        (void)state;
        assert_string_equal(memwatch_event_describe(&reclaim, line, sizeof(line)),
                            "memcg_reclaim in cgroup 22508 (watched 22475): pid 4242 "
                            "(cuzk-synth) 256 pages in 93 us");
        assert_string_equal(memwatch_event_describe(&oom, line, sizeof(line)),
                            "oom_kill in cgroup 7: pid 99 killed, total_vm 34224 pages");
        /* Truncated, still terminated. */
        assert_string_equal(memwatch_event_describe(&reclaim, small, sizeof(small)), "memcg_recla");
        assert_string_equal(memwatch_kind_name(MEMWATCH_HIGH_THROTTLE), "high_throttle");
        assert_string_equal(memwatch_kind_name(0), "unknown");
}

static void test_cgroup_id_without_bpf(void **state) {
        char self[4096], path[4200], *line;
        struct stat st;
        uint64_t id;
        int fd;

        (void)state;
        fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(memwatch_cgroup_id(fd, &id), -ENOTDIR);
        close(fd);

        /* Our own memory cgroup: the v2 one where memory is enabled there, else v1's. */
        fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
        assert_true(fd >= 0);
        ssize_t n = read(fd, self, sizeof(self) - 1);
        close(fd);
        assert_true(n > 0);
        self[n] = '\0';
        line = strstr(self, ":memory:");
        if (line) {
                *strchrnul(line, '\n') = '\0';
                snprintf(path, sizeof(path), "/sys/fs/cgroup/memory%s", line + strlen(":memory:"));
        } else {
                line = strstr(self, "0::");
                if (!line)
                        cgt_skip("no memory cgroup in /proc/self/cgroup");
                *strchrnul(line, '\n') = '\0';
                snprintf(path, sizeof(path), "/sys/fs/cgroup%s", line + strlen("0::"));
        }
        fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                cgt_skip("cannot open %s", path);
        if (faccessat(fd, "memory.current", F_OK, 0) < 0 &&
            faccessat(fd, "memory.usage_in_bytes", F_OK, 0) < 0) {
                close(fd);
                cgt_skip("no memory controller in %s", path);
        }
        assert_int_equal(memwatch_cgroup_id(fd, &id), 0);
        assert_int_equal(fstat(fd, &st), 0);
        assert_true(id == st.st_ino);
        close(fd);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_new_says_why_once),
                cmocka_unit_test(test_metrics_say_unavailable),
                cmocka_unit_test(test_event_lines),
                cmocka_unit_test(test_cgroup_id_without_bpf),
        };
        return cgt_run("bpf-disabled", tests, ELEMENTSOF(tests));
}
