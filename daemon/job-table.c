/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "daemon/job-table.h"

struct job_waiter {
        struct job_waiter *next;
        struct job_table *table;
        const struct job *job;
        struct api_call *call;
        sd_event_source *timer;
        bool prove;
};

void job_table_init(struct job_table *table, sd_event *event) {
        assert(table);
        assert(event);
        *table = (struct job_table){.event = event};
}

void job_table_done(struct job_table *table) {
        assert(table);
        assert(!table->waiters);
        for (size_t i = 0; i < table->n_jobs; i++)
                job_free(table->jobs[i]);
        free(table->jobs);
        *table = (struct job_table){0};
}

int job_table_add(struct job_table *table, struct job *job) {
        assert(table);
        assert(job);
        if (table->n_jobs == table->allocated) {
                size_t n = table->allocated ? 2 * table->allocated : 64;
                struct job **jobs = realloc(table->jobs, n * sizeof(*jobs));

                if (!jobs)
                        return -ENOMEM;
                table->jobs = jobs;
                table->allocated = n;
        }
        table->jobs[table->n_jobs++] = job;
        return 0;
}

struct job *job_table_find(const struct job_table *table, const char *job_id) {
        assert(table);
        if (!job_id)
                return NULL;
        for (size_t i = 0; i < table->n_jobs; i++)
                if (!strcmp(table->jobs[i]->id, job_id))
                        return table->jobs[i];
        return NULL;
}

struct job *job_table_find_request(const struct job_table *table, const char *request_id) {
        assert(table);
        if (!request_id || !*request_id)
                return NULL;
        for (size_t i = 0; i < table->n_jobs; i++)
                if (!strcmp(table->jobs[i]->request_id, request_id))
                        return table->jobs[i];
        return NULL;
}

static int reply_result(struct api_call *call, const Cuzk__V1__AwaitProofResponse *result,
                        bool prove) {
        Cuzk__V1__ProveResponse response = CUZK__V1__PROVE_RESPONSE__INIT;

        if (!prove)
                return api_reply(call, &result->base);
        response.result = (Cuzk__V1__AwaitProofResponse *)result;
        return api_reply(call, &response.base);
}

int job_table_reply(struct api_call *call, const struct job *job, bool prove) {
        Cuzk__V1__AwaitProofResponse result;

        assert(call);
        assert(job);
        job_result(job, &result);
        return reply_result(call, &result, prove);
}

static void waiter_free(struct job_waiter *w) {
        struct job_waiter **p;

        for (p = &w->table->waiters; *p != w; p = &(*p)->next)
                assert(*p);
        *p = w->next;
        sd_event_source_disable_unref(w->timer);
        free(w);
}

static int on_timeout(sd_event_source *source, uint64_t usec, void *userdata) {
        struct job_waiter *w = userdata;
        Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;

        (void)source;
        (void)usec;
        result.job_id = (char *)w->job->id;
        result.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        result.error_message = (char *)"the job is still queued or running";
        (void)reply_result(w->call, &result, w->prove);
        waiter_free(w);
        return 0;
}

int job_table_wait(struct job_table *table, struct job *job, struct api_call *call,
                   uint64_t timeout_ms, bool prove) {
        struct job_waiter *w;
        uint64_t now;
        int r;

        assert(table);
        assert(job);
        assert(call);
        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        *w = (struct job_waiter){
                .next = table->waiters, .table = table, .job = job, .call = call, .prove = prove};
        if (timeout_ms > 0) {
                r = sd_event_now(table->event, CLOCK_MONOTONIC, &now);
                if (r >= 0)
                        r = sd_event_add_time(table->event, &w->timer, CLOCK_MONOTONIC,
                                              now + timeout_ms * 1000, 0, on_timeout, w);
                if (r < 0) {
                        free(w);
                        return log_error_errno(r, "Failed to add the AwaitProof timer: %m");
                }
        }
        table->waiters = w;
        api_call_set_userdata(call, w);
        return 0;
}

void job_table_notify(struct job_table *table, const struct job *job) {
        struct job_waiter *w, *next;

        assert(table);
        assert(job);
        for (w = table->waiters; w; w = next) {
                next = w->next;
                if (w->job != job)
                        continue;
                (void)job_table_reply(w->call, job, w->prove);
                waiter_free(w);
        }
}

void job_table_abandon(struct job_table *table, struct api_call *call) {
        struct job_waiter *w;

        assert(table);
        assert(call);
        w = api_call_get_userdata(call);
        if (!w)
                return;
        log_debug("a client stopped waiting for job %s", w->job->id);
        waiter_free(w);
}

void job_table_drop_waiters(struct job_table *table) {
        assert(table);
        while (table->waiters)
                waiter_free(table->waiters);
}

unsigned job_table_waiter_count(const struct job_table *table) {
        unsigned n = 0;

        assert(table);
        for (const struct job_waiter *w = table->waiters; w; w = w->next)
                n++;
        return n;
}
