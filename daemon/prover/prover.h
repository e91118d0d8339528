/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover process's state (prover-main.c reads the supervisor's messages
 * and queues them; prover-threads.c runs the start and finish threads).
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/executor/ipc-compact.h"
#include "daemon/executor/ipc.h"
#include "daemon/prover/prover-backend.h"
#include "daemon/prover/prover-keys.h"

struct prove_job {
        struct ipc_prove request;
        int abc_fd, w_fd; /* a compact witness's memfd in abc_fd */
        const fr_t *w;    /* the witness memfd, mapped read-only */
        size_t w_bytes;
        const void *compact; /* a compact witness's memfd, mapped read-only */
        size_t compact_bytes;
        struct ipc_compact_view view; /* ... checked */
        const struct groth16_pk *pk;
        struct prover_partial *partial;
        bool canceled; /* under prover.lock */
        uint64_t srs_load_usec;
        /* The wall times of prove_start and prove_finish, waits included: the result's
         * times where the backend did not measure its own (prover_timings). */
        uint64_t start_usec, tail_usec;
        bool load_only; /* IPC_LOAD_KEY: request.task has the kind and key_path only */
        bool evict;     /* IPC_EVICT_KEY: the same, to drop the key */
        struct prove_job *next;
};

struct job_queue {
        struct prove_job *head, *tail;
};

struct prover {
        int sock;
        pthread_mutex_t send_lock;
        pthread_mutex_t lock; /* the queues, the jobs' canceled flags, stopping */
        pthread_cond_t wake;
        struct job_queue start_queue, finish_queue;
        struct prove_job *in_start, *in_finish;
        bool stopping;
        struct prover_backend *backend;
        struct prover_keys *keys; /* the start thread's */
};

void prover_queue_push(struct job_queue *q, struct prove_job *job);
struct prove_job *prover_queue_pop(struct job_queue *q);
void prover_job_free(struct prover *p, struct prove_job *job);
/* Sends one message under send_lock (both threads answer on the one socket). */
int prover_send_locked(struct prover *p, enum ipc_type type, const void *payload, size_t bytes,
                       const int *fds, size_t n_fds);
/* IPC_PROGRESS: task_id (0: a preload) begins stage; the supervisor's liveness check and
 * debug log see it. */
void prover_send_progress(struct prover *p, uint64_t task_id, const char *stage);
/* A failed or canceled task's answer. */
void prover_send_failure(struct prover *p, const struct prove_job *job,
                         enum executor_failure failure, int error, const char *text);
/* The two threads' bodies (pthread_create), userdata the struct prover. */
void *prover_start_thread(void *userdata);
void *prover_finish_thread(void *userdata);
