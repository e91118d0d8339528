/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks to the prover processes and their answers back, supervisor side: a
 * synthesized task's memfds go to the ready prover with the fewest in hand;
 * tasks synthesized while no prover is ready wait, memfds and all, for the
 * next IPC_PROVER_READY. The prover's IPC_ABC_RELEASED and IPC_RESULT (the
 * proof, copied out of its memfd) finish the task's phases.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cg-memory.h"
#include "cgroup/cg-tree.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor-internal.h"

/* The proof payload of a successful IPC_RESULT, copied out of its memfd. */
struct proof_payload {
        uint8_t *proof;
        char *proof_json, *public_json;
};

static void proof_payload_free(struct proof_payload *p) {
        free(p->proof);
        free(p->proof_json);
        free(p->public_json);
}

static char *copy_text(const uint8_t *data, uint64_t bytes) {
        char *text = malloc(bytes + 1);

        if (text) {
                memcpy(text, data, bytes);
                text[bytes] = 0;
        }
        return text;
}

static int read_payload(const struct ipc_result *res, int fd, struct proof_payload *ret) {
        const uint64_t bytes = res->proof_bytes + res->proof_json_bytes + res->public_json_bytes;
        uint8_t *map;
        int r;

        if (bytes == 0 || bytes > (64u << 20))
                return log_error_errno(EBADMSG, "Task %" PRIu64 ": proof of %" PRIu64 " bytes",
                                       res->status.task_id, bytes);
        r = ipc_memfd_check(fd, bytes, "the prover's proof", false);
        if (r < 0)
                return r;
        map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
                return log_error_errno(errno, "Mapping the prover's proof failed: %m");
        if (res->proof_bytes) {
                ret->proof = malloc(res->proof_bytes);
                if (ret->proof)
                        memcpy(ret->proof, map, res->proof_bytes);
        } else {
                ret->proof_json = copy_text(map, res->proof_json_bytes);
                ret->public_json = copy_text(map + res->proof_json_bytes, res->public_json_bytes);
        }
        (void)munmap(map, bytes);
        if (!ret->proof && !(ret->proof_json && ret->public_json))
                return log_error_errno(ENOMEM, "Out of memory for a proof");
        return 0;
}

/* What the prover says it keeps of the task's key and PCE, for the scheduler's
 * reservations: not while an eviction is in flight at it (the key may be about to go). */
static void note_held(const struct prover_slot *p, const struct ipc_result *res,
                      struct executor_result *result) {
        if (p->evicts_in_flight > 0)
                return;
        result->held_reported = true;
        result->prover = p->index;
        result->key_host_bytes = res->key_host_bytes;
        result->pce_host_bytes = res->pce_host_bytes;
}

void executor_prover_result(struct prover_slot *p, const struct ipc_result *res, int fd) {
        _cleanup_(proof_payload_free) struct proof_payload payload = {0};
        struct executor *e = p->executor;
        struct task *t = executor_task_find(e, res->status.task_id);
        struct executor_result result;
        int r;

        if (!t || t->state != TASK_AT_PROVER || t->prover != p) {
                log_warning("Prover %u answered task %" PRIu64 ", which it does not hold", p->index,
                            res->status.task_id);
                return;
        }
        p->srs_bytes = res->srs_bytes ? res->srs_bytes : p->srs_bytes;
        if (res->device_memory_free_bytes)
                p->memory_free_bytes = res->device_memory_free_bytes;
        if (res->status.failure != EXECUTOR_OK) {
                executor_result_init(&result, (enum executor_failure)res->status.failure,
                                     res->status.error, "%.*s", (int)sizeof(res->status.message),
                                     res->status.message);
        } else {
                r = read_payload(res, fd, &payload);
                if (r < 0)
                        executor_result_init(&result, EXECUTOR_FAILED_PROVER, r,
                                             "the prover's proof for partition %u was unreadable",
                                             t->spec.partition);
                else {
                        executor_result_init(&result, EXECUTOR_OK, 0, NULL);
                        result.proof = payload.proof;
                        result.proof_size = payload.proof ? res->proof_bytes : 0;
                        result.proof_json = payload.proof_json;
                        result.public_json = payload.public_json;
                        p->deaths_in_row = 0;
                        note_held(p, res, &result);
                }
        }
        if (result.failure == EXECUTOR_OK)
                p->proved++;
        else
                p->failed++;
        result.srs_load_usec = res->srs_load_usec;
        result.gpu_stage_usec = res->gpu_stage_usec;
        result.g2_tail_usec = res->g2_tail_usec;
        /* The prover's keys are protected from reclaim where the kernel allows it. */
        if (p->cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                (void)cg_memory_set_min(p->cg_fd, p->srs_bytes);
        executor_task_finish(t, &result);
        executor_relay_waiting(e); /* the prover has room for one more */
}

void executor_prover_abc_released(struct prover_slot *p, uint64_t task_id) {
        struct executor *e = p->executor;
        struct task *t = executor_task_find(e, task_id);

        if (!t || t->state != TASK_AT_PROVER || t->prover != p || t->abc_released)
                return;
        t->abc_released = true;
        e->callbacks.abc_released(e->userdata, task_id);
}

void executor_relay_waiting(struct executor *e) {
        struct task *oldest = e->tasks;

        /* Oldest first (the list is newest first): a job's partitions go before a later
         * job's, so proofs end in the order they came and the next job's synthesis
         * overlaps the GPU work of the one before. Newest first, two 32 GiB jobs ended
         * together (their partitions interleaved) and the GPU waited 1.4 s for the next
         * job's synthesis. Relaying does not finish tasks (a failure is deferred), so the
         * list stays. */
        while (oldest && oldest->next)
                oldest = oldest->next;
        for (struct task *t = oldest; t; t = t->prev)
                if (t->state == TASK_WAITING && !t->canceled && !t->defer)
                        executor_prover_relay(e, t);
}

static int on_no_prover(sd_event_source *s, void *userdata) {
        struct task *t = userdata;
        struct executor_result result;

        (void)s;
        if (executor_provers_in_service(t->executor))
                /* a GPU prover went out of service; a retry synthesizes the full form */
                executor_result_init(&result, EXECUTOR_FAILED_PROVER, -ENODEV,
                                     "partition %u: no GPU prover in service for its compact "
                                     "witness",
                                     t->spec.partition);
        else
                executor_result_init(&result, EXECUTOR_FAILED_PROVER, -ENODEV,
                                     "partition %u: every prover is out of service",
                                     t->spec.partition);
        executor_task_finish(t, &result);
        return 0;
}

/* Tasks one prover holds at most. It proves two at a time (one in its GPU stage, one in
 * its tail), so a few more keep it fed; the rest wait here and go out as answers come
 * back. Each IPC_PROVE is ~12 KB: sixteen at once filled the socket of a prover busy
 * proving (ASan build, concurrency 16), which then looked hung and was killed. */
#define PROVER_MAX_IN_HAND 4

/* The ready prover in service with the fewest tasks in hand, below PROVER_MAX_IN_HAND;
 * on a tie, the one whose last task is oldest (so that a light load still turns over
 * every GPU). */
static bool prover_on_gpu(const struct prover_slot *p) {
        return strcmp(p->backend, "cuda") == 0;
}

/*
 * A worker hands a PCE circuit's witness on in compact form (CompactWitness=auto) when
 * every prover in service is ready on a GPU that holds the circuit's PCE with room to spare: the
 * PCE file at most an eighth of the card (a 32 GiB sector's 7.5 GB PCE takes 5.9 GB on the card,
 * beside its 38 GiB of resident G1 bases and two partitions in flight). Otherwise the full form: a
 * CPU prover, a prover not ready yet, a small card.
 */
uint32_t executor_witness_form(const struct executor *e, const struct job_inputs *in) {
        unsigned on_gpu = 0;
        struct stat st;

        if (e->options.compact_witness == EXECUTOR_COMPACT_NO ||
            (in->kind != JOB_SYNTHETIC_PCE && in->kind != JOB_POREP_C2) || !in->pce_path ||
            stat(in->pce_path, &st) < 0)
                return IPC_WITNESS_FULL;
        for (unsigned i = 0; i < e->n_provers; i++) {
                const struct prover_slot *p = &e->provers[i];

                if (p->out_of_service)
                        continue;
                if (!p->ready || !prover_on_gpu(p) ||
                    (e->options.compact_witness == EXECUTOR_COMPACT_AUTO &&
                     (uint64_t)st.st_size > p->memory_total_bytes / 8))
                        return IPC_WITNESS_FULL;
                on_gpu++;
        }
        return on_gpu > 0 ? IPC_WITNESS_COMPACT : IPC_WITNESS_FULL;
}

bool executor_compact_possible(const struct executor *e) {
        assert(e);
        if (e->options.compact_witness == EXECUTOR_COMPACT_NO)
                return false;
        for (unsigned i = 0; i < e->n_provers; i++) {
                const struct prover_slot *p = &e->provers[i];

                if (!p->out_of_service &&
                    (prover_on_gpu(p) || (!p->ready && p->device != EXECUTOR_DEVICE_CPU)))
                        return true;
        }
        return false;
}

/* p takes t's witness form: the full form any, the compact one a GPU prover (or one of a
 * GPU that is not ready yet). */
static bool prover_takes(const struct prover_slot *p, const struct task *t) {
        return t->synth.witness_form != IPC_WITNESS_COMPACT || prover_on_gpu(p) ||
               (!p->ready && p->device != EXECUTOR_DEVICE_CPU);
}

static bool provers_in_service_for(const struct executor *e, const struct task *t) {
        for (unsigned i = 0; i < e->n_provers; i++)
                if (!e->provers[i].out_of_service && prover_takes(&e->provers[i], t))
                        return true;
        return false;
}

/* The ready prover with the fewest tasks in hand that takes t's witness form. */
static struct prover_slot *least_loaded(struct executor *e, const struct task *t) {
        struct prover_slot *best = NULL;

        for (unsigned i = 0; i < e->n_provers; i++) {
                struct prover_slot *p = &e->provers[i];

                if (!p->ready || p->out_of_service || p->sock < 0 ||
                    p->in_hand >= PROVER_MAX_IN_HAND)
                        continue;
                if (!prover_takes(p, t))
                        continue;
                if (!best || p->in_hand < best->in_hand ||
                    (p->in_hand == best->in_hand && p->last_relay < best->last_relay))
                        best = p;
        }
        return best;
}

void executor_prover_relay(struct executor *e, struct task *t) {
        struct prover_slot *p;
        struct ipc_prove prove;
        int r;

        assert(e);
        assert(t && t->state == TASK_WAITING);

        if (!provers_in_service_for(e, t)) {
                if (!t->defer && sd_event_add_defer(e->event, &t->defer, on_no_prover, t) < 0)
                        log_error("Task %" PRIu64 ": cannot fail it (no prover in service)",
                                  t->spec.task_id);
                return;
        }
        p = least_loaded(e, t);
        if (!p) {
                /* IPC_PROVER_READY or an answer relays it. Said once: every answer tries
                 * each waiting task again (ten lines a partition in a 32 GiB batch). */
                if (!t->said_waiting)
                        log_info("Task %" PRIu64 " partition %u: synthesized, waiting for a "
                                 "prover",
                                 t->spec.task_id, t->spec.partition);
                t->said_waiting = true;
                return;
        }
        prove = (struct ipc_prove){.synth = t->synth};
        r = executor_task_ipc(&t->spec, &prove.task);
        if (r >= 0)
                r = ipc_send(p->sock, IPC_PROVE, &prove, sizeof(prove), (int[]){t->abc_fd, t->w_fd},
                             t->synth.witness_form == IPC_WITNESS_COMPACT ? 1 : 2);
        if (r == -EAGAIN) {
                executor_prover_kill_hung(p);
                return;
        }
        if (r < 0)
                return; /* the prover is going away: its successor or another gets the task */
        /* Ours go: the prover's copies are the last, so its close frees the pages. */
        close(TAKE_FD(t->abc_fd));
        if (t->w_fd >= 0)
                close(TAKE_FD(t->w_fd));
        t->state = TASK_AT_PROVER;
        t->prover = p;
        p->in_hand++;
        p->last_relay = ++e->relays;
        executor_prover_idle_note(p);
}

int executor_prover_cancel(struct executor *e, struct task *t) {
        struct ipc_task_id cancel;
        int r;

        assert(e);
        assert(t && t->prover);
        cancel = (struct ipc_task_id){.task_id = t->spec.task_id};

        r = ipc_send(t->prover->sock, IPC_CANCEL, &cancel, sizeof(cancel), NULL, 0);
        /* A prover that cannot hear it is dying: its exit finishes the task. */
        if (r < 0 && r != -EAGAIN && r != -EPIPE && r != -ECONNRESET)
                return r;
        return 0;
}
