/* SPDX-License-Identifier: Apache-2.0 */
/*
 * daemon/supervisor/pressure.c's second source (pressure_report, the eBPF probes' events): a report
 * pauses admission at once, further reports while paused only restart the quiet time,
 * admission resumes resume_usec after the last one, and the counts are kept per source.
 * No PSI here: the "system file" is a regular file, where no trigger can be armed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "daemon/supervisor/pressure.h"

#define RESUME_USEC 200000

static struct {
        unsigned pauses, resumes;
        uint64_t resumed_at_usec;
} seen;

static struct pressure *pressure;

/* 10 ms after the resume: a new report pauses again; the test ends. */
static int on_report_after_resume(sd_event_source *s, uint64_t usec, void *userdata) {
        (void)usec;
        (void)userdata;
        assert_int_equal(
                pressure_report(pressure, PRESSURE_SOURCE_BPF, "reclaim in prover-0 (BPF)"), 0);
        assert_true(pressure_paused(pressure));
        return sd_event_exit(sd_event_source_get_event(s), 0);
}

static void on_changed(void *userdata, bool paused) {
        sd_event *event = userdata;

        if (paused) {
                seen.pauses++;
                return;
        }
        seen.resumes++;
        seen.resumed_at_usec = clock_now_usec();
        assert_false(pressure_paused(pressure));
        assert_int_equal(sd_event_add_time_relative(event, NULL, CLOCK_MONOTONIC, 10000, 0,
                                                    on_report_after_resume, NULL),
                         0);
}

/* Reports again 100 ms after the first: the resume must wait RESUME_USEC after this one. */
static int on_second_report(sd_event_source *s, uint64_t usec, void *userdata) {
        (void)s;
        (void)usec;
        assert_int_equal(
                pressure_report(userdata, PRESSURE_SOURCE_BPF, "reclaim in synth/w1 (BPF)"), 0);
        return 0;
}

static void test_report_pauses_and_resumes(void **state) {
        char no_psi[] = "/tmp/test-pressure-XXXXXX";
        struct pressure_options options = {
                .stall_usec = 100000,
                .window_usec = 1000000,
                .resume_usec = RESUME_USEC,
                .system_file = no_psi,
        };
        sd_event *event = NULL;
        struct pressure *p;
        uint64_t second_usec;
        int fd;

        (void)state;
        fd = mkstemp(no_psi);
        assert_true(fd >= 0);
        close(fd);
        assert_int_equal(sd_event_new(&event), 0);
        assert_int_equal(pressure_new(event, &options, on_changed, event, &pressure), 0);
        p = pressure;
        assert_int_equal(pressure_trigger_count(p), 0);
        assert_false(pressure_paused(p));

        /* A report pauses at once, from inside the call (no loop iteration needed). */
        assert_int_equal(pressure_report(p, PRESSURE_SOURCE_BPF, "reclaim in synth/w0 (BPF)"), 0);
        assert_true(pressure_paused(p));
        assert_int_equal(seen.pauses, 1);
        /* Another while paused: counted, no second pause. */
        assert_int_equal(pressure_report(p, PRESSURE_SOURCE_BPF, "reclaim in synth/w0 (BPF)"), 0);
        assert_int_equal(seen.pauses, 1);

        second_usec = clock_now_usec() + 100000;
        assert_int_equal(sd_event_add_time(event, NULL, CLOCK_MONOTONIC, second_usec, 0,
                                           on_second_report, p),
                         0);
        assert_int_equal(sd_event_loop(event), 0);
        assert_int_equal(seen.resumes, 1);
        /* Resumed RESUME_USEC after the last report before it, not after the first. */
        assert_true(seen.resumed_at_usec >= second_usec + RESUME_USEC);
        /* ... and the report after the resume paused again. */
        assert_true(pressure_paused(p));
        assert_int_equal(seen.pauses, 2);

        assert_int_equal(pressure_event_count(p), 4);
        assert_int_equal(pressure_pause_count(p), 2);
        assert_int_equal(pressure_source_event_count(p, PRESSURE_SOURCE_BPF), 4);
        assert_int_equal(pressure_source_pause_count(p, PRESSURE_SOURCE_BPF), 2);
        assert_int_equal(pressure_source_event_count(p, PRESSURE_SOURCE_PSI), 0);
        assert_int_equal(pressure_source_pause_count(p, PRESSURE_SOURCE_PSI), 0);
        assert_string_equal(pressure_source_kind_name(PRESSURE_SOURCE_PSI), "psi");
        assert_string_equal(pressure_source_kind_name(PRESSURE_SOURCE_BPF), "bpf");

        pressure_free(p);
        sd_event_unref(event);
        unlink(no_psi);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_report_pauses_and_resumes),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
