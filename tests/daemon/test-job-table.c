/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The job table (daemon/supervisor/job-table.h): lookups by job id and by request id through the
 * hash index, with many jobs and after removals; request ids per owner (another user's equal
 * request id is another job); ResultRetention: ended jobs forgotten
 * once their retention is over, not before, never while a partition still runs; a
 * retention of 0 forgets a job once its result was delivered, and none is forgotten while
 * its result is being spooled; the timer on the event loop does it by itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/supervisor/job-table.h"

#define SEC UINT64_C(1000000)

struct forgotten {
        char ids[4096][40];
        size_t n;
};

static void on_forget(void *userdata, const struct job *job) {
        struct forgotten *f = userdata;

        assert_true(job_state_is_final(job->state));
        assert_true(f->n < 4096);
        snprintf(f->ids[f->n++], sizeof(f->ids[0]), "%s", job->id);
}

/* The owners of the jobs below: root (most tests), two users, and an anonymous TCP peer. */
static const struct api_peer ROOT = {.known = true};
static const struct api_peer USER_A = {.known = true, .uid = 1000, .gid = 1000};
static const struct api_peer USER_B = {.known = true, .uid = 2000, .gid = 1000};
static const struct api_peer ANONYMOUS = {.known = false};

/* A job as the table sees it: state, end time, request id ("" for none), owned by root. */
static struct job *make_job(const char *id, const char *request_id, enum job_state state,
                            uint64_t finished_usec) {
        struct job *job = calloc(1, sizeof(*job));

        assert_non_null(job);
        snprintf(job->id, sizeof(job->id), "%s", id);
        job->request_id = strdup(request_id);
        assert_non_null(job->request_id);
        job->inputs.partitions = 1;
        job->partitions = calloc(1, sizeof(*job->partitions));
        assert_non_null(job->partitions);
        job->state = state;
        job->finished_usec = finished_usec;
        job->owner = ROOT;
        return job;
}

static struct job *add(struct job_table *t, const char *id, const char *request_id,
                       enum job_state state, uint64_t finished_usec) {
        struct job *job = make_job(id, request_id, state, finished_usec);

        assert_int_equal(job_table_add(t, job), 0);
        return job;
}

static bool was_forgotten(const struct forgotten *f, const char *id) {
        for (size_t i = 0; i < f->n; i++)
                if (!strcmp(f->ids[i], id))
                        return true;
        return false;
}

static void test_lookup(void **state) {
        struct job_table t;
        sd_event *event = NULL;
        struct job *dup;
        char id[40], request[40];
        (void)state;

        assert_int_equal(sd_event_new(&event), 0);
        job_table_init(&t, event);
        /* Enough for the index to grow several times. */
        for (int i = 0; i < 3000; i++) {
                snprintf(id, sizeof(id), "job-%d-%08x", i, (unsigned)(i * 2654435761u));
                snprintf(request, sizeof(request), i % 3 ? "req-%d" : "", i);
                add(&t, id, request, JOB_QUEUED, 0);
        }
        assert_int_equal(t.n_jobs, 3000);
        for (int i = 0; i < 3000; i++) {
                struct job *job;

                snprintf(id, sizeof(id), "job-%d-%08x", i, (unsigned)(i * 2654435761u));
                job = job_table_find(&t, id);
                assert_non_null(job);
                assert_string_equal(job->id, id);
                snprintf(request, sizeof(request), "req-%d", i);
                job = job_table_find_request(&t, &ROOT, request);
                if (i % 3) {
                        assert_non_null(job);
                        assert_string_equal(job->id, id);
                } else
                        assert_null(job);
        }
        assert_null(job_table_find(&t, "job-3000-00000000"));
        assert_null(job_table_find(&t, NULL));
        assert_null(job_table_find_request(&t, &ROOT, ""));
        assert_null(job_table_find_request(&t, &ROOT, NULL));

        /* An id taken already is refused; a request id taken stays with the older job. */
        dup = make_job("job-1-9e3779b1", "", JOB_QUEUED, 0);
        assert_int_equal(job_table_add(&t, dup), -EEXIST);
        job_free(dup);
        add(&t, "job-new", "req-1", JOB_QUEUED, 0);
        assert_string_equal(job_table_find_request(&t, &ROOT, "req-1")->id, "job-1-9e3779b1");
        assert_string_equal(job_table_find(&t, "job-new")->request_id, "req-1");
        job_table_done(&t);
        sd_event_unref(event);
}

static void test_expiry(void **state) {
        static struct forgotten f;
        struct job_table t;
        sd_event *event = NULL;
        uint64_t now = 1000 * SEC;
        struct job *held;
        char id[40], request[40];
        (void)state;

        f.n = 0;
        assert_int_equal(sd_event_new(&event), 0);
        job_table_init(&t, event);
        assert_int_equal(job_table_set_retention(&t, 10 * SEC, on_forget, &f), 0);
        add(&t, "old", "r-old", JOB_COMPLETED, now - 20 * SEC);
        add(&t, "young", "r-young", JOB_FAILED, now - 5 * SEC);
        add(&t, "running", "r-running", JOB_RUNNING, 0);
        held = add(&t, "held", "", JOB_CANCELLED, now - 30 * SEC);
        held->n_running = 1; /* a cancelled partition not over yet at the executor */
        /* Many more, every other one old, so that removals shift index entries around. */
        for (int i = 0; i < 400; i++) {
                snprintf(id, sizeof(id), "bulk-%d", i);
                snprintf(request, sizeof(request), "r-bulk-%d", i);
                add(&t, id, request, JOB_COMPLETED, now - (i % 2 ? 11 : 9) * SEC);
        }

        assert_true(job_table_retention_over(&t, job_table_find(&t, "old"), now));
        assert_false(job_table_retention_over(&t, job_table_find(&t, "young"), now));
        assert_false(job_table_retention_over(&t, job_table_find(&t, "running"), now));
        assert_int_equal(job_table_expire(&t, now), 1 + 200);
        assert_int_equal(t.n_jobs, 404 - 201);
        assert_true(was_forgotten(&f, "old"));
        assert_null(job_table_find(&t, "old"));
        assert_null(job_table_find_request(&t, &ROOT, "r-old"));
        for (int i = 0; i < 400; i++) {
                snprintf(id, sizeof(id), "bulk-%d", i);
                snprintf(request, sizeof(request), "r-bulk-%d", i);
                if (i % 2) {
                        assert_null(job_table_find(&t, id));
                        assert_null(job_table_find_request(&t, &ROOT, request));
                } else {
                        assert_non_null(job_table_find(&t, id));
                        assert_ptr_equal(job_table_find_request(&t, &ROOT, request),
                                         job_table_find(&t, id));
                }
        }
        /* Arrival order is kept. */
        assert_string_equal(t.jobs[0]->id, "young");
        assert_string_equal(t.jobs[1]->id, "running");
        assert_string_equal(t.jobs[2]->id, "held");
        assert_string_equal(t.jobs[3]->id, "bulk-0");

        /* The held job goes once its last partition is over. */
        held->n_running = 0;
        assert_int_equal(job_table_expire(&t, now), 1);
        assert_true(was_forgotten(&f, "held"));
        /* The young ones when their time comes; the running one never. */
        assert_int_equal(job_table_expire(&t, now + 2 * SEC), 200);
        assert_int_equal(job_table_expire(&t, now + 6 * SEC), 1);
        assert_int_equal(t.n_jobs, 1);
        assert_string_equal(t.jobs[0]->id, "running");
        assert_int_equal(t.jobs_forgotten, 403);
        assert_int_equal(f.n, 403);
        job_table_done(&t);
        sd_event_unref(event);
}

static void test_retention_zero(void **state) {
        static struct forgotten f;
        struct job_table t;
        sd_event *event = NULL;
        struct job *job;
        (void)state;

        f.n = 0;
        assert_int_equal(sd_event_new(&event), 0);
        job_table_init(&t, event);
        assert_int_equal(job_table_set_retention(&t, 0, on_forget, &f), 0);
        job = add(&t, "ended", "", JOB_COMPLETED, 1);
        /* Not delivered: kept, however old. */
        assert_false(job_table_retention_over(&t, job, UINT64_MAX - 1));
        assert_int_equal(job_table_expire(&t, 1000 * SEC), 0);
        job->result_delivered = true;
        assert_int_equal(job_table_expire(&t, 1000 * SEC), 1);
        assert_null(job_table_find(&t, "ended"));
        assert_int_equal(f.n, 1);
        job_table_done(&t);
        sd_event_unref(event);
}

/* A job whose result is still being written to the spool is not forgotten, however old:
 * its removal from the spool would overtake the result. */
static void test_result_spooling(void **state) {
        static struct forgotten f;
        struct job_table t;
        sd_event *event = NULL;
        struct job *job;
        (void)state;

        f.n = 0;
        assert_int_equal(sd_event_new(&event), 0);
        job_table_init(&t, event);
        assert_int_equal(job_table_set_retention(&t, 10 * SEC, on_forget, &f), 0);
        job = add(&t, "writing", "", JOB_COMPLETED, 1);
        job->result_spooling = true;
        assert_int_equal(job_table_expire(&t, 1000 * SEC), 0);
        assert_non_null(job_table_find(&t, "writing"));
        job->result_spooling = false; /* written */
        assert_int_equal(job_table_expire(&t, 1000 * SEC), 1);
        assert_true(was_forgotten(&f, "writing"));
        job_table_done(&t);
        sd_event_unref(event);
}

/* Request ids are per owner: the same id from root, two users and anonymous peers names
 * four jobs; each owner finds its own, before and after another's is forgotten; the
 * unfinished counts are per owner. */
static void test_request_per_owner(void **state) {
        static struct forgotten f;
        const struct api_peer *owners[] = {&ROOT, &USER_A, &USER_B, &ANONYMOUS};
        struct job *jobs[4];
        struct job_table t;
        sd_event *event = NULL;
        size_t total, mine;
        (void)state;

        f.n = 0;
        assert_int_equal(sd_event_new(&event), 0);
        job_table_init(&t, event);
        assert_int_equal(job_table_set_retention(&t, 10 * SEC, on_forget, &f), 0);
        for (size_t i = 0; i < 4; i++) {
                char id[16];

                snprintf(id, sizeof(id), "job-%zu", i);
                jobs[i] = make_job(id, "sector-42", i == 0 ? JOB_COMPLETED : JOB_QUEUED, 1);
                jobs[i]->owner = *owners[i];
                assert_int_equal(job_table_add(&t, jobs[i]), 0);
        }
        for (size_t i = 0; i < 4; i++)
                assert_ptr_equal(job_table_find_request(&t, owners[i], "sector-42"), jobs[i]);
        /* uid 1000 in another group, or another anonymous peer: the same owners. */
        const struct api_peer user_a_again = {.known = true, .uid = 1000, .gid = 5, .pid = 9};
        const struct api_peer anonymous_again = {.known = false, .pid = 123};
        assert_ptr_equal(job_table_find_request(&t, &user_a_again, "sector-42"), jobs[1]);
        assert_ptr_equal(job_table_find_request(&t, &anonymous_again, "sector-42"), jobs[3]);
        const struct api_peer user_c = {.known = true, .uid = 3000};
        assert_null(job_table_find_request(&t, &user_c, "sector-42"));

        job_table_count_unfinished(&t, &USER_A, &total, &mine);
        assert_int_equal(total, 3);
        assert_int_equal(mine, 1);
        job_table_count_unfinished(&t, &ROOT, &total, &mine);
        assert_int_equal(mine, 0);

        /* Root's ended job is forgotten: the others keep theirs. */
        assert_int_equal(job_table_expire(&t, 100 * SEC), 1);
        assert_null(job_table_find_request(&t, &ROOT, "sector-42"));
        for (size_t i = 1; i < 4; i++)
                assert_ptr_equal(job_table_find_request(&t, owners[i], "sector-42"), jobs[i]);
        job_table_done(&t);
        sd_event_unref(event);
}

static uint64_t realtime_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec / 1000;
}

/* The timer on the loop: a job ended now is forgotten after the retention, not before. */
static void test_timer(void **state) {
        static struct forgotten f;
        struct job_table t;
        sd_event *event = NULL;
        uint64_t start = realtime_usec();
        (void)state;

        f.n = 0;
        assert_int_equal(sd_event_new(&event), 0);
        job_table_init(&t, event);
        assert_int_equal(job_table_set_retention(&t, SEC / 2, on_forget, &f), 0);
        add(&t, "soon", "", JOB_COMPLETED, start);
        add(&t, "queued", "", JOB_QUEUED, 0);
        while (f.n == 0 && realtime_usec() < start + 5 * SEC)
                assert_true(sd_event_run(event, 100 * 1000) >= 0);
        assert_int_equal(f.n, 1);
        assert_string_equal(f.ids[0], "soon");
        assert_true(realtime_usec() >= start + SEC / 2);
        assert_null(job_table_find(&t, "soon"));
        assert_non_null(job_table_find(&t, "queued"));
        job_table_done(&t);
        sd_event_unref(event);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_lookup),         cmocka_unit_test(test_expiry),
                cmocka_unit_test(test_retention_zero), cmocka_unit_test(test_request_per_owner),
                cmocka_unit_test(test_timer),          cmocka_unit_test(test_result_spooling),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
