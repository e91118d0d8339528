/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor: what turns one admitted partition into a proof, out of the
 * supervisor's process. The scheduler (scheduler.h) decides *when* a
 * partition runs and has already reserved its bytes from the budget; the
 * executor decides *where*:
 *
 *   synthesis worker   a process of its own, started for the task in a
 *                      reused worker cgroup (synth/wN) whose limits come
 *                      from the task's reservation; it reads the inputs,
 *                      evaluates a, b, c into one sealed memfd and the
 *                      witness into another, passes both up over
 *                      SCM_RIGHTS and exits;
 *   provers            one long-lived process per configured device (a GPU,
 *                      or the CPU), each in its own cgroup (prover-N),
 *                      that holds the SRS of each circuit it has seen,
 *                      receives the memfds, and proves in the split shape:
 *                      prove_start (H and the G1 MSMs), then prove_finish
 *                      (the b_g2 tail MSM and the assembly). It closes and
 *                      unmaps the a/b/c memfd as soon as H no longer needs
 *                      it and says so (first release phase).
 *
 * A synthesized task goes to the ready prover with the fewest tasks in hand.
 * A prover that dies fails the tasks it held (EXECUTOR_FAILED_PROVER: the
 * scheduler runs them again) and is restarted after a backoff; one whose GPU
 * cannot be opened, or that died EXECUTOR_PROVER_MAX_DEATHS times in a row
 * without a proof, is taken out of service.
 *
 * Everything here runs on the supervisor's sd-event loop; callbacks are
 * called from it, never from inside executor_submit().
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "cgroup/cg-domain.h"

enum job_kind {
        JOB_GROTH16_SNARKJS, /* .zkey + .wtns, one partition */
        JOB_SYNTHETIC_PCE,   /* PCE file + params + witness, P partitions */
        JOB_POREP_C2,        /* PoRep C1 output + its size's PCE + params, a partition each */
};

/* The kind of key a job proves with: a PoRep job's is a bellperson .params file read with
 * its circuit's PCE, as a synthetic job's, so that both share one loaded key (and one
 * circuit id, PCE+PARAMS). */
static inline enum job_kind job_kind_key(enum job_kind kind) {
        return kind == JOB_POREP_C2 ? JOB_SYNTHETIC_PCE : kind;
}

/* The inputs of a job, all as paths (inline witness bytes are written to
 * the job's spool directory first). Owned by the job; outlives its tasks. */
struct job_inputs {
        enum job_kind kind;
        const char *zkey_path;    /* JOB_GROTH16_SNARKJS */
        const char *wtns_path;    /* JOB_GROTH16_SNARKJS */
        const char *pce_path;     /* JOB_SYNTHETIC_PCE, JOB_POREP_C2 */
        const char *params_path;  /* JOB_SYNTHETIC_PCE, JOB_POREP_C2: bellperson .params */
        const char *witness_path; /* JOB_SYNTHETIC_PCE */
        const char *c1_path;      /* JOB_POREP_C2: the C1 output, bare or in Curio's envelope */
        unsigned partitions;      /* >= 1 */
};

struct executor_task {
        uint64_t task_id; /* unique per attempt; chosen by the scheduler */
        const struct job_inputs *inputs;
        unsigned partition; /* 0 .. inputs->partitions - 1 */
        /* The reservation, in its two release phases: abc_bytes come back
         * when the prover has unmapped a, b, c (abc_released), rest_bytes
         * when the task finishes. The worker's memory.max is their sum
         * (plus the configured slack); memory.high a little below. */
        uint64_t abc_bytes;
        uint64_t rest_bytes;
        /* enum ipc_witness_form (ipc.h): what the worker hands on, executor_witness_form's
         * answer when the scheduler reserved abc_bytes and rest_bytes for that form */
        uint32_t witness_form;
};

enum executor_failure {
        EXECUTOR_OK = 0,
        EXECUTOR_FAILED_INPUT,    /* bad or unreadable input: do not retry */
        EXECUTOR_FAILED_WORKER,   /* the worker died (signal, OOM kill): retry */
        EXECUTOR_FAILED_PROVER,   /* the prover died or a GPU error: retry */
        EXECUTOR_FAILED_CANCELED, /* executor_cancel() */
};

struct executor_result {
        enum executor_failure failure;
        int error;         /* 0 or a negative errno */
        char message[512]; /* for the user: names the file/partition/value */
        bool oom_killed;   /* the worker's cgroup recorded an OOM kill */
        /* On success (owned by the executor; valid during the callback): */
        const uint8_t *proof; /* JOB_SYNTHETIC_PCE, JOB_POREP_C2: 192-byte Filecoin proof */
        size_t proof_size;
        const char *proof_json;  /* JOB_GROTH16_SNARKJS: as snarkjs writes it */
        const char *public_json; /* JOB_GROTH16_SNARKJS */
        /* gpu_stage_usec and g2_tail_usec: the prover backend's own times of the partition's
         * stage and B_G2 tail (prover_timings), else the wall times of its calls. */
        uint64_t synthesis_usec, srs_load_usec, gpu_stage_usec, g2_tail_usec;
        uint64_t worker_peak_bytes; /* from the worker's cgroup where known */
        /* How the worker handed the witness on: 0 a, b, c and the witness, 1 the compact
         * witness alone (a CUDA prover made a, b, c on the card; ipc.h) */
        uint32_t witness_form;
        /* On success, unless an eviction was in flight at the prover (its report might be of
         * a key about to go): prover `prover` keeps key_host_bytes of the task's key and
         * pce_host_bytes of its PCE in host memory (what the scheduler reserves for them). */
        bool held_reported;
        unsigned prover;
        uint64_t key_host_bytes, pce_host_bytes;
};

struct executor_callbacks {
        /* The prover unmapped the task's a, b, c: give abc_bytes back. */
        void (*abc_released)(void *userdata, uint64_t task_id);
        /* The task is over (proof or failure): give rest_bytes back (and
         * abc_bytes if abc_released was not called). */
        void (*finished)(void *userdata, uint64_t task_id, const struct executor_result *result);
        /* A worker cgroup came free: its worker process is gone and its task is over (the
         * task's memfds, charged to the cgroup, are closed), so executor_submit() has a slot
         * for one more task. May be NULL. Called from a deferred event, after the
         * `finished` of the task that held the slot; slots that come free together give
         * one call. */
        void (*slot_free)(void *userdata);
        /* A prover answered a preload (executor_preload_key) or was lost with some still
         * unanswered: see executor_preloads_settled(). May be NULL. */
        void (*preload_progress)(void *userdata);
        /* Every prover in service answered that it cannot load a preloaded key: the
         * preload is dropped here (not sent again), and its circuit (circuit_id as
         * preloaded: KEY, or PCE+KEY) should give its bytes back. message: the last
         * prover's error. May be NULL. */
        void (*preload_failed)(void *userdata, const char *circuit_id, const char *message);
        /* Prover `prover` loaded a preloaded key (kind as job_kind_key names it) and keeps
         * key_host_bytes of it in host memory (not said while an eviction is in flight at
         * it). May be NULL. */
        void (*key_held)(void *userdata, unsigned prover, enum job_kind kind, const char *key_path,
                         uint64_t key_host_bytes);
        /* Prover `prover`'s process ended (it is restarted, or out of service): what it held
         * is gone, and a successor loads keys again from their files. Called before the
         * `finished` of the tasks it held. May be NULL. */
        void (*prover_lost)(void *userdata, unsigned prover);
};

#define EXECUTOR_MAX_PROVERS 16
#define EXECUTOR_DEVICE_CPU (-1)
#define EXECUTOR_DEVICE_AUTO (-2)
#define EXECUTOR_PROVER_MAX_DEATHS 5

struct gpu_tuning; /* cuda/gpu-tuning.h */

enum executor_compact {
        EXECUTOR_COMPACT_NO,   /* always the full form */
        EXECUTOR_COMPACT_AUTO, /* GPU provers whose card holds the PCE eight times over */
        EXECUTOR_COMPACT_YES,  /* GPU provers, whatever the PCE's size */
};

struct executor_options {
        const cg_domain_t *domain;   /* where worker and prover cgroups live */
        unsigned max_workers;        /* worker cgroups w0..w(max-1) */
        unsigned prover_threads;     /* 0: all */
        uint64_t worker_slack_bytes; /* added to each worker's memory.max */
        const char *helper_path;     /* the cuzkd binary, run with --worker/--prover */
        /* One prover per entry: a GPU ordinal, EXECUTOR_DEVICE_CPU or EXECUTOR_DEVICE_AUTO
         * (GPU 0 where usable, else the CPU). n_devices 0: one prover, AUTO if use_gpu
         * else CPU. */
        int devices[EXECUTOR_MAX_PROVERS];
        unsigned n_devices;
        bool use_gpu;
        /* What every GPU prover opens its GPU with ([GPU] in cuzkd.conf(5)), checked by the
         * caller (gpu_tuning_check); NULL: the defaults. executor_new copies it. */
        const struct gpu_tuning *gpu_tuning;
        /* CompactWitness= ([GPU]): whether a PCE circuit's workers hand GPU provers the
         * compact witness (executor_witness_form) */
        enum executor_compact compact_witness;
        /* WorkerStallTimeout=, ProverStallTimeout= (0: off): a worker, or a prover with
         * work, that uses no CPU time and sends nothing for so long is killed (its partition
         * retried, the prover restarted). See executor-liveness.c. */
        uint64_t worker_stall_usec, prover_stall_usec;
        /* WorkerNice= ([Scheduler]), 0 to WORKER_NICE_MAX: the nice value each worker sets
         * for itself before it starts its threads; 0 leaves it at the supervisor's. */
        unsigned worker_nice;
};

/* WorkerNice='s default: the nice value a synthesis worker takes for itself and its
 * threads. The prover's threads feed the GPU (kernel launches, the witness's upload) and
 * wait for a core behind the workers otherwise: while a 32 GiB job's ten partitions were
 * synthesized on all 16 cores of the H100 host, a partition's MSM H took up to 1.11 s
 * instead of 0.725. */
#define WORKER_NICE_DEFAULT 10
/* The kernel's lowest priority; not negative, which would put the workers ahead of the
 * provers, the opposite of what it is for. */
#define WORKER_NICE_MAX 19

struct executor;

int executor_new(sd_event *event, const struct executor_options *options,
                 const struct executor_callbacks *callbacks, void *userdata, struct executor **ret);
void executor_free(struct executor *executor);

/* Starts the task now (its bytes are reserved). -EBUSY when all worker
 * cgroups are busy. A worker that dies before it takes its task is not an
 * error here: `finished` follows with EXECUTOR_FAILED_WORKER. */
int executor_submit(struct executor *executor, const struct executor_task *task);

/* The form a worker would hand a partition of in's witness on in now (enum
 * ipc_witness_form): compact for a PCE circuit when options.compact_witness allows it and
 * every prover in service runs on a GPU (with AUTO, of at least eight times the PCE
 * file), else full. The scheduler asks before it reserves
 * a partition's bytes (the compact form's are a fraction) and passes the answer in the
 * task. */
uint32_t executor_witness_form(const struct executor *e, const struct job_inputs *in);
/* Whether a worker may ever hand a witness on in compact form: CompactWitness= allows it
 * and a prover in service is, or may turn out to be (not ready yet), on a GPU. */
bool executor_compact_possible(const struct executor *e);
/* Kills the task's worker or drops it at the prover; `finished` follows
 * with EXECUTOR_FAILED_CANCELED. -ENOENT if unknown. */
int executor_cancel(struct executor *executor, uint64_t task_id);

struct executor_status {
        unsigned workers_busy, max_workers;
        unsigned n_provers, provers_in_service;
        int prover_pid;           /* prover 0's; 0 while none runs */
        unsigned prover_restarts; /* all provers' */
        uint64_t srs_bytes;       /* SRS held by all provers */
        const char *backend;      /* prover 0's: "cpu", "cuda", "none" before it is ready */
        /* Workers and provers killed for making no progress (WorkerStallTimeout=,
         * ProverStallTimeout=). */
        uint64_t stalled_worker_kills, stalled_prover_kills;
        uint64_t preload_failures; /* preloads that no prover in service could load */
};
void executor_get_status(const struct executor *executor, struct executor_status *ret);

/* Has every prover load key_path (a .zkey, or the .params of a synthetic circuit) now,
 * before a task needs it, and again whenever it restarts; each load is logged with its
 * time, or its error naming the file. circuit_path: the synthetic circuit's PCE, whose
 * densities a .params file in bellperson's layout needs (NULL for a .zkey). -ENOMEM,
 * -ENAMETOOLONG. */
int executor_preload_key(struct executor *executor, enum job_kind kind, const char *key_path,
                         const char *circuit_path);
/* Has every prover drop key_path (after the tasks it holds) and forgets its preload; the
 * scheduler calls it when a circuit's reservation goes back to the budget. */
void executor_evict_key(struct executor *executor, enum job_kind kind, const char *key_path);
/* Whether every prover in service has answered every preload since it (re)started; a
 * failed load counts as answered (it was logged). */
bool executor_preloads_settled(const struct executor *executor);
/* Where the latest preload of key_path stands (PreloadSRS answers by it once settled):
 * 1 when every prover in service has answered it and one holds the key at least, 0
 * while one still loads it; else, with message saying why, the last prover's negative
 * errno when no prover could load it, -ECANCELED (evicted first), -ENODEV (no prover in service) or
 * -ENOENT (never preloaded). The preload_progress callback says when it may have changed. */
int executor_preload_state(const struct executor *executor, enum job_kind kind,
                           const char *key_path, char *message, size_t message_size);

/* Prover `index` (0 .. n_provers - 1), in cgroup prover-<index>. */
struct executor_prover_info {
        int device;          /* as configured: a GPU ordinal, EXECUTOR_DEVICE_CPU or _AUTO */
        int ordinal;         /* the GPU it runs on, -1 on the CPU or before it is ready */
        const char *name;    /* the GPU's name, "cpu"; "" before it is ready */
        const char *backend; /* "cpu", "cuda"; "none" before it is ready */
        int pid;             /* 0 while none runs */
        int cg_fd;           /* -EBADF under RLIMIT_DATA */
        bool ready, in_service;
        unsigned in_hand;         /* tasks sent and not answered */
        unsigned preloads_done;   /* preloads answered since it (re)started */
        uint64_t current_task_id; /* the oldest of them; 0 for none */
        uint64_t proved, failed;  /* tasks answered with a proof, tasks failed with it */
        unsigned restarts;
        uint64_t srs_bytes;
        uint64_t memory_total_bytes, memory_free_bytes; /* the GPU's; 0 on the CPU */
        /* Its idle time so far (CLOCK_MONOTONIC), the interval open now included: the time
         * it was ready and in service with no partition in hand (in_hand 0) while work was
         * pending (executor_set_work_pending). Its start-up, restarts, and key loads for a
         * partition (in hand then) do not count, nor any time without work pending. */
        uint64_t idle_usec;
};

/* Whether the supervisor has work for the provers: some job accepted and not yet completed,
 * failed or cancelled. Only while it has does a prover's idle time count (idle_usec above):
 * the time a prover waits for synthesis or admission, not for clients. Off at the start. */
void executor_set_work_pending(struct executor *executor, bool pending);

/* A configured device as status and metrics name it: "gpu 0", "cpu" or "auto". */
void executor_device_name(int device, char *buf, size_t size);
/* -ERANGE past n_provers. */
int executor_get_prover(const struct executor *executor, unsigned index,
                        struct executor_prover_info *ret);

/* The cgroups the executor made, for watching them (cuzkd's eBPF probes); -EBADF under
 * RLIMIT_DATA. The fds stay the executor's. */
struct executor_cgroups {
        int synth_fd; /* synth/, above every worker's */
        int prover_fds[EXECUTOR_MAX_PROVERS];
        unsigned n_provers;
};
void executor_get_cgroups(const struct executor *executor, struct executor_cgroups *ret);
/* Worker slot `index` (0 .. max_workers - 1): its cgroup synth/wN and the task it runs, or
 * else the last one it ran (a task whose worker was OOM-killed may have finished by the time
 * the kernel's report is read). */
struct executor_worker_info {
        int cg_fd;          /* -EBADF under RLIMIT_DATA */
        uint64_t task_id;   /* 0: none yet */
        unsigned partition; /* of task_id */
        bool running;       /* task_id is the slot's task now */
};
/* -ERANGE past max_workers. */
int executor_get_worker(const struct executor *executor, unsigned index,
                        struct executor_worker_info *ret);
