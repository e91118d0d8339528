/* SPDX-License-Identifier: Apache-2.0 */
/* GetStatus: queues, SRS reservations, totals and the memory budget. */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "daemon/supervisor/handlers.h"
#include "daemon/supervisor/job-limits.h"
#include "daemon/supervisor/job-porep.h"
#include "daemon/supervisor/status.h"

#define STATUS_MAX_SRS 64

static const char *const kind_names[] = {
        [JOB_GROTH16_SNARKJS] = "GROTH16_SNARKJS",
        [JOB_SYNTHETIC_PCE] = "SYNTHETIC_PCE",
        [JOB_POREP_C2] = "POREP_SEAL_COMMIT",
};

struct srs_list {
        struct job_settings settings; /* to name PoRep circuits as the reference does */
        Cuzk__V1__SRSStatus items[STATUS_MAX_SRS];
        Cuzk__V1__SRSStatus *pointers[STATUS_MAX_SRS];
        size_t n;
};

static void add_srs(void *userdata, const char *circuit_id, uint64_t bytes, unsigned refs,
                    bool preloaded) {
        struct srs_list *list = userdata;
        Cuzk__V1__SRSStatus *s;
        char alias[32];

        (void)preloaded;
        if (list->n == STATUS_MAX_SRS)
                return;
        s = &list->items[list->n];
        cuzk__v1__srsstatus__init(s);
        /* A PoRep size's circuit by the reference's id ("porep-32g"), which PreloadSRS takes. */
        if (job_porep_circuit_alias(circuit_id, &list->settings, alias, sizeof(alias)) > 0)
                circuit_id = alias;
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

/* The provers and, among them, the GPUs: two arrays freed by status_response_done(). */
struct prover_list {
        Cuzk__V1__ProverStatus provers[EXECUTOR_MAX_PROVERS];
        Cuzk__V1__ProverStatus *prover_pointers[EXECUTOR_MAX_PROVERS];
        Cuzk__V1__GPUStatus gpus[EXECUTOR_MAX_PROVERS];
        Cuzk__V1__GPUStatus *gpu_pointers[EXECUTOR_MAX_PROVERS];
        char devices[EXECUTOR_MAX_PROVERS][16];
        char names[EXECUTOR_MAX_PROVERS][64];
        char backends[EXECUTOR_MAX_PROVERS][16];
        char job_ids[EXECUTOR_MAX_PROVERS][64];
};

static void fill_provers(const struct cuzkd *d, const struct api_peer *peer,
                         struct prover_list *list, Cuzk__V1__GetStatusResponse *r) {
        struct executor_status status;

        if (!d->executor)
                return;
        executor_get_status(d->executor, &status);
        for (unsigned i = 0; i < status.n_provers && i < EXECUTOR_MAX_PROVERS; i++) {
                Cuzk__V1__ProverStatus *p = &list->provers[r->n_provers];
                struct executor_prover_info info;
                const struct job *job = NULL;
                unsigned partition;

                if (executor_get_prover(d->executor, i, &info) < 0)
                        continue;
                if (info.current_task_id)
                        job = scheduler_find_attempt(d->scheduler, info.current_task_id,
                                                     &partition);
                /* Another user's job id is theirs to know (it awaits and cancels it). */
                if (job && peer && !job_limits_may_access(d, peer, &job->owner))
                        job = NULL;
                executor_device_name(info.device, list->devices[i], sizeof(list->devices[i]));
                snprintf(list->names[i], sizeof(list->names[i]), "%s", info.name);
                snprintf(list->backends[i], sizeof(list->backends[i]), "%s", info.backend);
                snprintf(list->job_ids[i], sizeof(list->job_ids[i]), "%s", job ? job->id : "");
                cuzk__v1__prover_status__init(p);
                p->index = i;
                p->device = list->devices[i];
                p->backend = list->backends[i];
                p->pid = info.pid > 0 ? (uint32_t)info.pid : 0;
                p->ready = info.ready;
                p->in_service = info.in_service;
                p->in_hand = info.in_hand;
                p->partitions_proved = info.proved;
                p->partitions_failed = info.failed;
                p->restarts = info.restarts;
                p->srs_bytes = info.srs_bytes;
                p->current_job_id = list->job_ids[i];
                p->idle_usec = info.idle_usec;
                list->prover_pointers[r->n_provers++] = p;
                /* A GPU: where its prover runs on one, or one configured (out of service). */
                if (info.ordinal >= 0 || info.device >= 0) {
                        Cuzk__V1__GPUStatus *g = &list->gpus[r->n_gpus];

                        cuzk__v1__gpustatus__init(g);
                        g->ordinal = (uint32_t)(info.ordinal >= 0 ? info.ordinal : info.device);
                        g->name = list->names[i];
                        g->vram_total_bytes = info.memory_total_bytes;
                        g->vram_free_bytes = info.memory_free_bytes;
                        g->current_job_id = list->job_ids[i];
                        g->current_proof_kind = (char *)(job ? kind_names[job->inputs.kind] : "");
                        list->gpu_pointers[r->n_gpus++] = g;
                }
        }
        r->provers = list->prover_pointers;
        r->gpus = list->gpu_pointers;
}

/* What metrics count as cuzk_*_stalled_kills_total: a stuck worker or prover shows in
 * `cuzkctl status`, not only in the log. */
static void fill_stall_kills(const struct cuzkd *d, Cuzk__V1__GetStatusResponse *r) {
        struct executor_status status;

        if (!d->executor)
                return;
        executor_get_status(d->executor, &status);
        r->stalled_worker_kills = status.stalled_worker_kills;
        r->stalled_prover_kills = status.stalled_prover_kills;
}

int status_fill(const struct cuzkd *d, const struct api_peer *peer,
                Cuzk__V1__GetStatusResponse *r) {
        struct prover_list *provers;
        struct srs_list *list;
        struct timespec now;
        int ret;

        assert(d);
        assert(r);
        cuzk__v1__get_status_response__init(r);
        ret = fill_queues(d, r);
        if (ret < 0)
                return ret;
        provers = calloc(1, sizeof(*provers));
        if (!provers)
                return -ENOMEM;
        fill_provers(d, peer, provers, r);
        r->provers = provers->prover_pointers; /* found again from here when done */
        list = calloc(1, sizeof(*list));
        if (!list)
                return -ENOMEM;
        list->settings = cuzkd_job_settings(d);
        scheduler_foreach_circuit(d->scheduler, add_srs, list);
        /* The response points into the list; status_response_done() finds it from there. */
        r->loaded_srs = list->pointers;
        r->n_loaded_srs = list->n;
        r->total_proofs_completed = d->metrics.jobs_ended[JOB_COMPLETED];
        /* Quarantined jobs answer AwaitProof as FAILED: they count as failed. */
        r->total_proofs_failed =
                d->metrics.jobs_ended[JOB_FAILED] + (d->spool ? spool_n_quarantined(d->spool) : 0);
        clock_gettime(CLOCK_MONOTONIC, &now);
        r->uptime_seconds =
                ((uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000 - d->start_usec) /
                1000000;
        r->memory_budget_bytes = d->budget.total_bytes;
        r->memory_reserved_bytes = d->budget.reserved_bytes;
        r->admission_paused = scheduler_paused(d->scheduler);
        r->memory_enforcement =
                (char *)(d->status_enforcement[0] ? d->status_enforcement : d->enforcement);
        fill_stall_kills(d, r);
        return 0;
}

void status_response_done(Cuzk__V1__GetStatusResponse *r) {
        struct srs_list *list;

        assert(r);
        if (r->n_queues > 0)
                free(r->queues[0]);
        free(r->queues);
        if (r->provers)
                free((char *)r->provers - offsetof(struct prover_list, prover_pointers));
        if (r->loaded_srs) {
                list = (struct srs_list *)((char *)r->loaded_srs -
                                           offsetof(struct srs_list, pointers));
                for (size_t i = 0; i < list->n; i++)
                        free(list->items[i].circuit_id);
                free(list);
        }
}
