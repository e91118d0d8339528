/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The intake: where a SubmitProof (or Prove) request becomes a job, off the event loop.
 *
 * Checking a request opens the client's files (with the client's rights,
 * peer-files.h), reads the circuit's headers and, for PoRep, parses the C1
 * output and runs the vanilla proofs' check (seconds of CPU); spooling it
 * fsyncs several times. None of that may stall the loop that serves every
 * other client, so the loop hands each submission (a copy of the request, the
 * peer, the job id and time) to the intake thread and goes on. The thread
 * checks first and spools second, so a refused request leaves nothing on disk
 * (an inline input is checked from memory), then posts the outcome back to the
 * loop through an eventfd; there the done callback puts the job in the table
 * and the scheduler and answers the calls that wait for it.
 *
 * A submission is "pending" from intake_queue() until its done callback: a
 * second SubmitProof with the same request id finds it (intake_find_request)
 * and waits for the same answer. A client that goes away meanwhile is
 * forgotten (intake_abandon); its job still goes in (it is spooled).
 *
 * Jobs reloaded from the spool at start-up take the same path, with their
 * owner's rights, once the socket is served; their checks never end in a
 * refusal (they were accepted before), only in ACCEPTED or FAILED.
 *
 * Everything here runs on the loop's thread except the check itself.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "api/api-handler.h"
#include "api/api-peer.h"
#include "api/cuzk.pb-c.h"
#include "daemon/supervisor/job.h"
#include "daemon/supervisor/spool.h"

enum intake_outcome {
        INTAKE_ACCEPTED, /* job made (a new one spooled) */
        INTAKE_FAILED,   /* ended at once, message says why: a PoRep job whose C1 output fails
                          * its check (spooled with its FAILED result, as the reference daemon
                          * answers Curio), or a reloaded job whose inputs went away */
        INTAKE_REFUSED,  /* nothing on disk; error and message say why */
};

/* A call that waits for a submission's answer: SubmitProof, or Prove (prove true). */
struct intake_waiter {
        struct intake_waiter *next;
        struct api_call *call;
        bool prove;
};

struct intake_item {
        /* Set when it is queued (intake_item_new), read by both threads. */
        char job_id[40];
        Cuzk__V1__SubmitProofRequest *request; /* a copy of the client's, owned */
        struct api_peer owner;
        uint64_t submitted_usec;
        bool from_spool;              /* reloaded at start-up: spooled, not spooled again */
        char *input_path;             /* the spool's file of its inline input (reloaded, or once
                                       * spooled); NULL: none */
        struct job_settings settings; /* its strings are the item's copies */
        char *parameter_cache, *pce_cache;
        size_t bytes; /* the request's size, counted against the queue's limit */

        /* Set by the intake thread, read by the loop after the item comes back. */
        enum intake_outcome outcome;
        int error;              /* REFUSED, FAILED: a negative errno */
        bool spool_error;       /* REFUSED by the spool (disk full, read-only), not the check */
        struct job *job;        /* ACCEPTED: the checked job, the done callback's to take */
        uint64_t finished_usec; /* FAILED: when it ended */
        char message[1024];

        /* The loop's alone. */
        struct intake_waiter *waiters;
        struct intake_item *prev, *next; /* the pending list */
        struct intake_item *queue_next;  /* the thread's queue, or the done queue */
};

struct intake;
/* Called on the loop for each item whose check is over: answer item->waiters (each is
 * freed after it returns) and take item->job when you keep it (set it to NULL). */
typedef void (*intake_done_fn)(void *userdata, struct intake_item *item);

/* Starts the intake thread. max_queued_bytes bounds the requests waiting in the queue
 * (their inline inputs mostly): intake_queue refuses more with -ENOBUFS. */
int intake_new(sd_event *event, struct spool *spool, uint64_t max_queued_bytes, intake_done_fn done,
               void *userdata, struct intake **ret);
/* Stops the thread once the item in hand is done (not the queued ones: a reloaded job
 * stays in the spool for the next start, a new one was never answered) and frees every
 * item; call it after the API server is gone. */
struct intake *intake_free(struct intake *intake);

/* A submission for the queue: request copied, settings' strings copied. input_path:
 * the spool's file of a reloaded job's inline input (then from_spool), or NULL. */
int intake_item_new(const char *job_id, const Cuzk__V1__SubmitProofRequest *request,
                    const struct api_peer *owner, uint64_t submitted_usec,
                    const struct job_settings *settings, bool from_spool, const char *input_path,
                    struct intake_item **ret);
struct intake_item *intake_item_free(struct intake_item *item);
/* Adds a call waiting for the item's answer. */
int intake_item_wait(struct intake_item *item, struct api_call *call, bool prove);

/* Hands the item to the thread; it is the intake's then. -ENOBUFS when the queue holds
 * max_queued_bytes already (a single item always fits an empty queue): the item stays
 * the caller's. */
int intake_queue(struct intake *intake, struct intake_item *item);
/* The pending submission of owner's scope with this request id (non-empty), NULL if
 * none. */
struct intake_item *intake_find_request(const struct intake *intake, const struct api_peer *owner,
                                        const char *request_id);
/* Forgets a waiting call whose client went away; false when it is not the intake's. */
bool intake_abandon(struct intake *intake, struct api_call *call);
/* Submissions in the intake now (queued or being checked): all, and new ones of owner's
 * scope (not yet in the job table: queue limits count them too). */
unsigned intake_pending_count(const struct intake *intake);
unsigned intake_pending_of(const struct intake *intake, const struct api_peer *owner);
