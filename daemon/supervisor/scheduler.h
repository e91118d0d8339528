/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The queue and admission. Partitions wait in the order (priority, job age,
 * partition); the first in that order is admitted when
 *   - admission is not paused (memory pressure, shutdown),
 *   - its reservation fits the budget: the partition's bytes (job_shape:
 *     a/b/c, the rest, of the witness form the executor would use now) and,
 *     when its circuit is not reserved yet, the circuit's shared bytes (SRS,
 *     PCE; see circuit-cache.h for how they follow what the provers report),
 *   - the executor has a worker free (executor_submit is not -EBUSY; after
 *     -EBUSY the executor's slot_free brings admission back);
 * and nothing behind it overtakes it. A partition whose reservation exceeds
 * the whole budget fails its job at once. A partition whose worker or
 * prover died is queued again up to max_attempts; other failures end the
 * job with the executor's message.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "daemon/supervisor/budget.h"
#include "daemon/supervisor/circuit-cache.h"
#include "daemon/executor/executor.h"
#include "daemon/supervisor/job.h"

struct scheduler_options {
        unsigned max_attempts; /* per partition, >= 1 */
};

struct scheduler_callbacks {
        /* The job ended (job->state is final): called once per job. */
        void (*job_ended)(void *userdata, struct job *job);
        /* The executor's preload_progress, passed on. May be NULL. */
        void (*preload_progress)(void *userdata);
};

struct scheduler_stats {
        unsigned partitions_queued, partitions_running;
        uint64_t partitions_admitted, partitions_proved;
        uint64_t partition_retries; /* attempts queued again after a worker/prover death */
        uint64_t worker_failures, prover_failures, input_failures;
        uint64_t worker_oom_kills;
        uint64_t worker_peak_bytes;     /* the largest a worker's cgroup saw */
        uint64_t shared_reserved_bytes; /* SRS/PCE reservations */
};

struct scheduler;

int scheduler_new(sd_event *event, struct budget *budget, const struct scheduler_options *options,
                  const struct scheduler_callbacks *callbacks, void *userdata,
                  struct scheduler **ret);
struct scheduler *scheduler_free(struct scheduler *scheduler);

/* The callbacks to give executor_new(), with the scheduler as userdata. */
extern const struct executor_callbacks scheduler_executor_callbacks;
/* Admission starts once the executor is set. Each of its n_provers (at most
 * EXECUTOR_MAX_PROVERS) holds its own copy of a circuit's key, so a circuit reserves
 * shared_bytes + key_bytes * (n_provers - 1) until the provers report what they keep. */
void scheduler_set_executor(struct scheduler *scheduler, struct executor *executor,
                            unsigned n_provers);

/* Queues the job's partitions (the job stays the caller's; it must live until job_ended
 * and no partition runs). A partition too big for the budget in either witness form that
 * may be used (executor_compact_possible) ends the job at once. */
void scheduler_add(struct scheduler *scheduler, struct job *job);
/* Cancels a job that has not ended: queued partitions are dropped, running ones
 * cancelled at the executor. *ret_was_running: a partition was running. */
void scheduler_cancel(struct scheduler *scheduler, struct job *job, bool *ret_was_running);

/* Admission paused by memory pressure (false resumes it). */
void scheduler_set_paused(struct scheduler *scheduler, bool paused);
/* A reloaded configuration: MaxAttempts= for attempts from now on, and a
 * look at the queue (the budget may have grown). */
void scheduler_reconfigure(struct scheduler *scheduler, unsigned max_attempts);
bool scheduler_paused(const struct scheduler *scheduler);
/* Stops admitting for good (shutdown); queued partitions stay queued. */
void scheduler_stop(struct scheduler *scheduler);

/* The job of partition attempt task_id, running or the partition's last (a partition keeps
 * its last attempt's id until it is admitted again); NULL once the job has ended or the
 * partition runs another attempt. */
struct job *scheduler_find_attempt(const struct scheduler *scheduler, uint64_t task_id,
                                   unsigned *ret_partition);

/* Jobs queued ahead of this one (0: it is next). */
unsigned scheduler_queue_position(const struct scheduler *scheduler, const struct job *job);
void scheduler_get_stats(const struct scheduler *scheduler, struct scheduler_stats *ret);

/* The circuits with shared bytes reserved: running partitions and preloads. */
typedef circuit_cache_fn scheduler_circuit_fn;
void scheduler_foreach_circuit(const struct scheduler *scheduler, scheduler_circuit_fn fn,
                               void *userdata);
/* Reserves a circuit's shared bytes (key_bytes of them copied by each prover, see
 * scheduler_set_executor) ahead of its jobs (PreloadSRS, Preload=): -ENOSPC when they do
 * not fit. *ret_already: it was reserved already (preloaded, or partitions run). */
int scheduler_preload(struct scheduler *scheduler, const char *circuit_id, uint64_t shared_bytes,
                      uint64_t key_bytes, bool *ret_already);
/* Evicts a circuit (EvictSRS): its preload goes, and its bytes go back to the budget and
 * its key out of the provers now (*ret_freed_bytes), or when its last running partition
 * ends (0 now). A circuit's reservation otherwise outlives its partitions, as the provers
 * keep its key, until admission needs the room (least recently used first). -ENOENT when
 * nothing of it is reserved. */
int scheduler_evict(struct scheduler *scheduler, const char *circuit_id, uint64_t *ret_freed_bytes);
