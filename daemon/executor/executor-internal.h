/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor's state, shared by executor.c (tasks, the public calls),
 * executor-worker.c (worker cgroups and processes), executor-prover.c (the
 * prover processes' life cycle), executor-relay.c (tasks to the provers and
 * their answers) and executor-preload.c (the keys every prover holds).
 * Everything runs on the supervisor's sd-event loop.
 */
#pragma once

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup/cg-domain.h"
#include "cuda/gpu-tuning.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/ipc.h"

enum task_state {
        TASK_SYNTHESIZING, /* its worker runs */
        TASK_WAITING,      /* synthesized; the prover is not up: the memfds wait here */
        TASK_AT_PROVER,    /* relayed; the prover answers with IPC_RESULT */
};

struct worker_slot;
struct prover_slot;

/* What executor-liveness.c knows of a process: its CPU time when last looked at, and when
 * it last made progress (CPU time used, a message sent). */
struct liveness {
        bool busy; /* it had work at the last look */
        pid_t pid; /* the process looked at: a successor starts afresh */
        uint64_t cpu_ticks;
        uint64_t progress_usec;
};

struct task {
        struct executor *executor;
        struct executor_task spec;
        struct worker_slot *slot;   /* its worker cgroup, busy until the task is over */
        struct prover_slot *prover; /* TASK_AT_PROVER: the prover that holds it */
        enum task_state state;
        bool canceled;
        bool abc_released;
        bool oom_killed;
        bool stalled;      /* its worker was killed for making no progress (executor-liveness.c) */
        bool said_waiting; /* "waiting for a prover" logged (once a task) */
        struct ipc_synth_done synth;
        int abc_fd, w_fd;          /* TASK_WAITING only; a compact witness in abc_fd alone */
        bool worker_failed;        /* the worker sent IPC_FAILED */
        struct ipc_failed failure; /* ... this one */
        sd_event_source *defer;    /* executor_cancel() of a waiting task; or a worker lost */
        siginfo_t lost_exit;       /* ... before it took the task: how it ended */
        struct task *prev, *next;
};

/* A reused worker cgroup (synth/wN) and the worker process in it. */
struct worker_slot {
        struct executor *executor;
        unsigned index;
        int cg_fd; /* -EBADF under RLIMIT_DATA */
        cg_events_watch_t watch;
        bool watching;
        sd_event_source *events_source;
        cg_memory_events_t baseline; /* the counts when the task started */
        struct task *task;
        /* The process; pid 0 when none. The slot is free when it has neither. */
        pid_t pid;
        int pidfd;
        int sock;
        sd_event_source *exit_source, *io_source;
        uint64_t peak_bytes;
        uint64_t last_task_id; /* the task it ran last (executor_get_worker) */
        unsigned last_partition;
        struct liveness liveness;
};

struct executor {
        sd_event *event;
        struct executor_options options;
        char *helper_path;
        struct gpu_tuning gpu_tuning; /* options.gpu_tuning points here */
        struct executor_callbacks callbacks;
        void *userdata;

        int synth_fd; /* synth/ below the domain; -EBADF under RLIMIT_DATA */
        struct worker_slot *slots;
        struct task *tasks;
        sd_event_source *slot_free_source; /* defer: callbacks.slot_free */

        struct prover_slot *provers;
        unsigned n_provers;
        uint64_t relays; /* tasks relayed so far */
        struct executor_preload *preloads;
        unsigned n_preloads;
        uint64_t preload_failures; /* preloads that no prover could load */

        sd_event_source *liveness_source; /* executor-liveness.c's timer */
        uint64_t stalled_worker_kills, stalled_prover_kills;
        /* The supervisor has an unfinished job (executor_set_work_pending): a prover with
         * nothing in hand now waits for work, and its idle time counts. */
        bool work_pending;
};

/* A key every prover loads when it starts (executor_preload_key). */
struct executor_preload {
        enum job_kind kind;
        char *path;
        char *circuit_path; /* the PCE of a synthetic circuit, or NULL */
        bool evicted;       /* by executor_evict_key: not sent any more (counted as answered) */
        uint32_t failed_provers; /* bit i: prover i answered that it cannot load it */
        char *failure;           /* no prover in service could load it: why (then evicted) */
        int failure_error;       /* and the last prover's negative errno */
};

/* A prover cgroup (prover-N) and the prover process in it. */
struct prover_slot {
        struct executor *executor;
        unsigned index;
        int device;      /* executor_options.devices[index] */
        int cg_fd;       /* -EBADF under RLIMIT_DATA */
        bool cg_created; /* ours to remove */
        pid_t pid;       /* 0 while none runs */
        int pidfd;
        int sock;
        sd_event_source *exit_source, *io_source, *restart_source;
        bool ready;
        bool out_of_service; /* no restarts, no tasks */
        unsigned restarts;
        unsigned deaths_in_row; /* for the restart backoff and taking it out of service */
        unsigned in_hand;       /* tasks at this prover */
        uint64_t last_relay;    /* executor.relays when it got its last task (for ties) */
        unsigned preloads_sent, preloads_done; /* since this process started */
        /* IPC_EVICT_KEY sent to this process and not answered: until they are, what it says
         * it holds may be of a key on its way out (not passed on to the scheduler). */
        unsigned evicts_in_flight;
        uint64_t proved, failed;
        uint64_t srs_bytes;
        char backend[16];
        int ordinal; /* from IPC_PROVER_READY */
        char device_name[64];
        uint64_t memory_total_bytes, memory_free_bytes;
        struct liveness liveness;
        bool stalled;               /* killed for making no progress (executor-liveness.c) */
        char stage[IPC_STAGE_TEXT]; /* the last IPC_PROGRESS: what it does now */
        /* Its idle time (executor_prover_info.idle_usec) up to idle_since_usec, and whether
         * it has been idle since then (executor_prover_idle_note). */
        uint64_t idle_usec, idle_since_usec;
        bool idling;
};

/* executor.c */
void executor_task_finish(struct task *task, struct executor_result *result);
struct task *executor_task_find(struct executor *e, uint64_t task_id);
/* Call after a slot lost its task or its process: when it is free now, slot_free follows. */
void executor_slot_changed(struct worker_slot *slot);
void executor_result_init(struct executor_result *result, enum executor_failure failure, int error,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));
uint64_t executor_now_usec(void);
/* The task as the worker and the prover get it; -ENAMETOOLONG, -EINVAL. */
int executor_task_ipc(const struct executor_task *spec, struct ipc_task *ret);
/* Call after p's ready, out_of_service or in_hand changed (or the executor's work_pending):
 * the time since the last call is added to its idle time if it was idle then. */
void executor_prover_idle_note(struct prover_slot *p);

/* executor-worker.c */
int executor_slots_open(struct executor *e);
void executor_slots_close(struct executor *e);
bool executor_slot_busy(const struct worker_slot *slot);
int executor_worker_start(struct executor *e, struct worker_slot *slot, struct task *task);
void executor_worker_kill(struct worker_slot *slot);

/* executor-prover.c */
/* Starts every configured prover; fails only when none can be started. */
int executor_provers_start(struct executor *e);
void executor_provers_stop(struct executor *e);
/* Relays a synthesized task to the ready prover with the fewest in hand, or leaves it
 * waiting for one; with every prover out of service the task fails. */
void executor_prover_relay(struct executor *e, struct task *task);
int executor_prover_cancel(struct executor *e, struct task *task);
/* "GPU 1 (prover-1)" or "the prover (prover-0)", for log lines. */
const char *executor_prover_label(const struct prover_slot *p, char *buf, size_t size);
/* A prover whose socket is full does not read its messages: it hangs, and is killed. */
void executor_prover_kill_hung(struct prover_slot *p);
bool executor_provers_in_service(const struct executor *e);

/* executor-relay.c: the prover's answers, and waiting tasks relayed again. */
void executor_prover_result(struct prover_slot *p, const struct ipc_result *res, int fd);
void executor_prover_abc_released(struct prover_slot *p, uint64_t task_id);
void executor_relay_waiting(struct executor *e);

/* executor-preload.c */
void executor_preload_progress(struct executor *e);
/* The preloads this prover process has not been sent yet, in order. */
void executor_send_preloads(struct prover_slot *p);
void executor_prover_key_loaded(struct prover_slot *p, struct ipc_key_loaded *answer);
void executor_preloads_free(struct executor *e);

/* executor-liveness.c */
/* The timer that kills stalled workers and provers, when a stall timeout is set. */
int executor_liveness_start(struct executor *e);
void executor_liveness_stop(struct executor *e);
/* The process made progress now (it sent a message). */
void executor_liveness_note(struct liveness *l);
/* utime + stime of process pid, in clock ticks (/proc/PID/stat). */
int executor_process_cpu_ticks(pid_t pid, uint64_t *ret);
