/* SPDX-License-Identifier: Apache-2.0 */
/* GetStatus: queues, SRS reservations, totals and the memory budget. */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "daemon/handlers.h"

#define STATUS_MAX_SRS 64

static const char *const kind_names[] = {
        [JOB_GROTH16_SNARKJS] = "GROTH16_SNARKJS",
        [JOB_SYNTHETIC_PCE] = "SYNTHETIC_PCE",
};

struct srs_list {
        Cuzk__V1__SRSStatus items[STATUS_MAX_SRS];
        Cuzk__V1__SRSStatus *pointers[STATUS_MAX_SRS];
        size_t n;
};

static void add_srs(void *userdata, const char *circuit_id, uint64_t bytes, unsigned refs,
                    bool preloaded) {
        struct srs_list *list = userdata;
        Cuzk__V1__SRSStatus *s;

        (void)preloaded;
        if (list->n == STATUS_MAX_SRS)
                return;
        s = &list->items[list->n];
        cuzk__v1__srsstatus__init(s);
        s->circuit_id = strdup(circuit_id);
        s->tier = CUZK__V1__SRSSTATUS__TIER__HOT;
        s->size_bytes = bytes;
        s->ref_count = refs;
        list->pointers[list->n] = s;
        if (s->circuit_id)
                list->n++;
}

static int fill_queues(const struct cuzkd *d, Cuzk__V1__GetStatusResponse *r) {
        Cuzk__V1__QueueStatus *queues;

        queues = calloc(ELEMENTSOF(kind_names), sizeof(*queues));
        r->queues = calloc(ELEMENTSOF(kind_names), sizeof(*r->queues));
        if (!queues || !r->queues) {
                free(queues);
                return -ENOMEM;
        }
        for (size_t k = 0; k < ELEMENTSOF(kind_names); k++) {
                cuzk__v1__queue_status__init(&queues[k]);
                queues[k].proof_kind = (char *)kind_names[k];
                r->queues[k] = &queues[k];
        }
        r->n_queues = ELEMENTSOF(kind_names);
        for (size_t i = 0; i < d->table.n_jobs; i++) {
                const struct job *job = d->table.jobs[i];

                if (job->state == JOB_QUEUED)
                        queues[job->inputs.kind].pending++;
                else if (job->state == JOB_RUNNING)
                        queues[job->inputs.kind].in_progress++;
        }
        return 0;
}

int status_fill(const struct cuzkd *d, Cuzk__V1__GetStatusResponse *r) {
        struct srs_list *list;
        struct timespec now;
        int ret;

        assert(d);
        assert(r);
        cuzk__v1__get_status_response__init(r);
        ret = fill_queues(d, r);
        if (ret < 0)
                return ret;
        list = calloc(1, sizeof(*list));
        if (!list)
                return -ENOMEM;
        scheduler_foreach_circuit(d->scheduler, add_srs, list);
        /* The response points into the list; status_response_done() finds it from there. */
        r->loaded_srs = list->pointers;
        r->n_loaded_srs = list->n;
        r->total_proofs_completed = d->metrics.jobs_ended[JOB_COMPLETED];
        r->total_proofs_failed = d->metrics.jobs_ended[JOB_FAILED];
        clock_gettime(CLOCK_MONOTONIC, &now);
        r->uptime_seconds =
                ((uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000 - d->start_usec) /
                1000000;
        r->memory_budget_bytes = d->budget.total_bytes;
        r->memory_reserved_bytes = d->budget.reserved_bytes;
        r->admission_paused = scheduler_paused(d->scheduler);
        r->memory_enforcement =
                (char *)(d->status_enforcement[0] ? d->status_enforcement : d->enforcement);
        return 0;
}

void status_response_done(Cuzk__V1__GetStatusResponse *r) {
        struct srs_list *list;

        assert(r);
        if (r->n_queues > 0)
                free(r->queues[0]);
        free(r->queues);
        if (r->loaded_srs) {
                list = (struct srs_list *)((char *)r->loaded_srs -
                                           offsetof(struct srs_list, pointers));
                for (size_t i = 0; i < list->n; i++)
                        free(list->items[i].circuit_id);
                free(list);
        }
}
