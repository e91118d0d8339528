/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "daemon/supervisor/job-table.h"

struct job_waiter {
        struct job_waiter *next;
        struct job_table *table;
        struct job *job;
        struct api_call *call;
        sd_event_source *timer;
        bool prove;
};

/* A job held by a waiter or a running partition when its retention is over: look again
 * this much later (both go away on their own). */
#define JOB_TABLE_EXPIRY_RETRY_USEC (1000 * 1000)

void job_table_init(struct job_table *table, sd_event *event) {
        assert(table);
        assert(event);
        *table = (struct job_table){.event = event};
}

void job_table_done(struct job_table *table) {
        assert(table);
        assert(!table->waiters);
        sd_event_source_disable_unref(table->expiry_timer);
        for (size_t i = 0; i < table->n_jobs; i++)
                job_free(table->jobs[i]);
        free(table->jobs);
        job_index_done(&table->by_id);
        job_index_done(&table->by_request);
        *table = (struct job_table){0};
}

/* When the job's retention ends (CLOCK_REALTIME usec); UINT64_MAX: not yet known (the
 * job runs, or with a retention of 0 its result was not delivered yet). */
static uint64_t retention_end(const struct job_table *table, const struct job *job) {
        if (!table->retention_set || !job_state_is_final(job->state))
                return UINT64_MAX;
        if (table->retention_usec == 0)
                return job->result_delivered ? 0 : UINT64_MAX;
        return job->finished_usec + table->retention_usec;
}

/* Makes the expiry timer fire at `when` at the latest (UINT64_MAX: leaves it). */
static void expiry_schedule(struct job_table *table, uint64_t when) {
        int enabled = SD_EVENT_OFF, r;
        uint64_t armed;

        if (!table->expiry_timer || when == UINT64_MAX)
                return;
        when = when > 0 ? when : 1; /* in the past: at once */
        if (sd_event_source_get_enabled(table->expiry_timer, &enabled) >= 0 &&
            enabled != SD_EVENT_OFF && sd_event_source_get_time(table->expiry_timer, &armed) >= 0 &&
            armed <= when)
                return;
        r = sd_event_source_set_time(table->expiry_timer, when);
        if (r >= 0)
                r = sd_event_source_set_enabled(table->expiry_timer, SD_EVENT_ONESHOT);
        if (r < 0)
                log_error_errno(r, "Failed to arm the ResultRetention timer: %m");
}

static int on_expiry(sd_event_source *source, uint64_t usec, void *userdata) {
        (void)source;
        (void)usec;
        (void)job_table_expire(userdata, job_now_usec());
        return 0;
}

int job_table_set_retention(struct job_table *table, uint64_t retention_usec,
                            job_table_forget_fn forget, void *userdata) {
        int r;

        assert(table);
        assert(!table->expiry_timer);
        r = sd_event_add_time(table->event, &table->expiry_timer, CLOCK_REALTIME, 1, 0, on_expiry,
                              table);
        if (r < 0)
                return log_error_errno(r, "Failed to add the ResultRetention timer: %m");
        (void)sd_event_source_set_enabled(table->expiry_timer, SD_EVENT_OFF);
        table->retention_set = true;
        table->retention_usec = retention_usec;
        table->forget = forget;
        table->forget_userdata = userdata;
        if (table->n_jobs > 0)
                expiry_schedule(table, 0); /* a pass over the jobs there are */
        return 0;
}

void job_table_change_retention(struct job_table *table, uint64_t retention_usec) {
        assert(table);
        assert(table->retention_set);
        table->retention_usec = retention_usec;
        if (table->n_jobs > 0)
                expiry_schedule(table, 0);
}

int job_table_add(struct job_table *table, struct job *job) {
        int r;

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
        r = job_index_put(&table->by_id, 0, job->id, job);
        if (r == -EEXIST)
                return log_error_errno(r, "job %s: a job with this id exists already", job->id);
        if (r < 0)
                return r;
        /* Request ids are unique per owner too (SubmitProof answers with the job it has);
         * should two spooled jobs share one, the older keeps it, as it was first loaded. */
        if (*job->request_id) {
                uint64_t scope = job_table_owner_scope(&job->owner);

                r = job_index_put(&table->by_request, scope, job->request_id, job);
                if (r == -ENOMEM) {
                        (void)job_index_remove(&table->by_id, 0, job->id, job);
                        return r;
                }
                if (r == -EEXIST)
                        log_warning("job %s: request id %s belongs to job %s already", job->id,
                                    job->request_id,
                                    job_index_get(&table->by_request, scope, job->request_id)->id);
        }
        table->jobs[table->n_jobs++] = job;
        expiry_schedule(table, retention_end(table, job));
        return 0;
}

struct job *job_table_find(const struct job_table *table, const char *job_id) {
        assert(table);
        if (!job_id)
                return NULL;
        return job_index_get(&table->by_id, 0, job_id);
}

/* uids are 32 bits: the anonymous scope is above them all. */
#define JOB_TABLE_ANONYMOUS_SCOPE (UINT64_C(1) << 32)

uint64_t job_table_owner_scope(const struct api_peer *owner) {
        assert(owner);
        return owner->known ? (uint64_t)owner->uid : JOB_TABLE_ANONYMOUS_SCOPE;
}

struct job *job_table_find_request(const struct job_table *table, const struct api_peer *owner,
                                   const char *request_id) {
        assert(table);
        assert(owner);
        if (!request_id || !*request_id)
                return NULL;
        return job_index_get(&table->by_request, job_table_owner_scope(owner), request_id);
}

void job_table_count_unfinished(const struct job_table *table, const struct api_peer *owner,
                                size_t *ret_total, size_t *ret_owner) {
        uint64_t scope = owner ? job_table_owner_scope(owner) : 0;
        size_t total = 0, of_owner = 0;

        assert(table);
        assert(ret_total);
        for (size_t i = 0; i < table->n_jobs; i++) {
                const struct job *job = table->jobs[i];

                if (job_state_is_final(job->state))
                        continue;
                total++;
                if (owner && job_table_owner_scope(&job->owner) == scope)
                        of_owner++;
        }
        *ret_total = total;
        if (ret_owner)
                *ret_owner = of_owner;
}

bool job_table_retention_over(const struct job_table *table, const struct job *job,
                              uint64_t now_usec) {
        assert(table);
        assert(job);
        return retention_end(table, job) <= now_usec;
}

static bool job_has_waiter(const struct job_table *table, const struct job *job) {
        for (const struct job_waiter *w = table->waiters; w; w = w->next)
                if (w->job == job)
                        return true;
        return false;
}

static void job_forget(struct job_table *table, struct job *job) {
        (void)job_index_remove(&table->by_id, 0, job->id, job);
        if (*job->request_id)
                (void)job_index_remove(&table->by_request, job_table_owner_scope(&job->owner),
                                       job->request_id, job);
        if (table->forget)
                table->forget(table->forget_userdata, job);
        table->jobs_forgotten++;
        job_free(job);
}

size_t job_table_expire(struct job_table *table, uint64_t now_usec) {
        uint64_t next = UINT64_MAX;
        size_t kept = 0, forgotten = 0;

        assert(table);
        for (size_t i = 0; i < table->n_jobs; i++) {
                struct job *job = table->jobs[i];
                uint64_t end = retention_end(table, job);

                if (end <= now_usec) {
                        /* The scheduler keeps a job until its partitions are over; its
                         * removal from the spool must not overtake its result. */
                        if (job->n_running == 0 && !job->result_spooling &&
                            !job_has_waiter(table, job)) {
                                job_forget(table, job);
                                forgotten++;
                                continue;
                        }
                        end = now_usec + JOB_TABLE_EXPIRY_RETRY_USEC;
                }
                next = end < next ? end : next;
                table->jobs[kept++] = job;
        }
        table->n_jobs = kept;
        if (table->expiry_timer)
                (void)sd_event_source_set_enabled(table->expiry_timer, SD_EVENT_OFF);
        expiry_schedule(table, next);
        return forgotten;
}

static int reply_result(struct api_call *call, const Cuzk__V1__AwaitProofResponse *result,
                        bool prove) {
        Cuzk__V1__ProveResponse response = CUZK__V1__PROVE_RESPONSE__INIT;

        if (!prove)
                return api_reply(call, &result->base);
        response.result = (Cuzk__V1__AwaitProofResponse *)result;
        return api_reply(call, &response.base);
}

int job_table_reply(struct job_table *table, struct api_call *call, struct job *job, bool prove) {
        Cuzk__V1__AwaitProofResponse result;
        int r;

        assert(table);
        assert(call);
        assert(job);
        /* A result a crash could still lose is not given out: the call waits for the
         * spool's write (job_table_notify then answers it). */
        if (job->result_spooling)
                return job_table_wait(table, job, call, 0, prove);
        job_result(job, &result);
        r = reply_result(call, &result, prove);
        if (r >= 0 && job_state_is_final(job->state)) {
                job->result_delivered = true;
                expiry_schedule(table, retention_end(table, job));
        }
        return r;
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

void job_table_notify(struct job_table *table, struct job *job) {
        struct job_waiter *w, *next;

        assert(table);
        assert(job);
        if (job->result_spooling)
                return; /* again once the spool has its result */
        for (w = table->waiters; w; w = next) {
                next = w->next;
                if (w->job != job)
                        continue;
                (void)job_table_reply(table, w->call, job, w->prove);
                waiter_free(w);
        }
        expiry_schedule(table, retention_end(table, job));
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
