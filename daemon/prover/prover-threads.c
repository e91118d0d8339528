/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover process's two threads (see prover-main.c): the start thread
 * loads keys, maps a/b/c, runs prove_start and lets the memfd go; the
 * finish thread runs prove_finish (the B_G2 tail) and sends the proof.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/helper-main.h"
#include "daemon/executor/ipc-log.h"
#include "daemon/executor/ipc.h"
#include "daemon/prover/prover-backend.h"
#include "daemon/prover/prover-keys.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"

#include "daemon/prover/prover.h"

void prover_queue_push(struct job_queue *q, struct prove_job *job) {
        job->next = NULL;
        if (q->tail)
                q->tail->next = job;
        else
                q->head = job;
        q->tail = job;
}

struct prove_job *prover_queue_pop(struct job_queue *q) {
        struct prove_job *job = q->head;

        if (job) {
                q->head = job->next;
                if (!q->head)
                        q->tail = NULL;
                job->next = NULL;
        }
        return job;
}

static void job_close_abc(struct prove_job *job) {
        if (job->abc_fd >= 0)
                close(job->abc_fd);
        job->abc_fd = -EBADF;
}

static void job_release_compact(struct prove_job *job) {
        ipc_compact_view_release(&job->view);
        if (job->compact)
                (void)munmap((void *)job->compact, job->compact_bytes);
        job->compact = NULL;
}

void prover_job_free(struct prover *p, struct prove_job *job) {
        if (!job)
                return;
        if (job->partial)
                p->backend->ops->partial_free(job->partial);
        if (job->w)
                (void)munmap((void *)job->w, job->w_bytes);
        job_release_compact(job);
        job_close_abc(job);
        if (job->w_fd >= 0)
                close(job->w_fd);
        free(job);
}

int prover_send_locked(struct prover *p, enum ipc_type type, const void *payload, size_t bytes,
                       const int *fds, size_t n_fds) {
        int r;

        pthread_mutex_lock(&p->send_lock);
        r = ipc_send(p->sock, type, payload, bytes, fds, n_fds);
        pthread_mutex_unlock(&p->send_lock);
        return r;
}

void prover_send_progress(struct prover *p, uint64_t task_id, const char *stage) {
        struct ipc_progress progress = {.task_id = task_id};

        snprintf(progress.stage, sizeof(progress.stage), "%s", stage);
        (void)prover_send_locked(p, IPC_PROGRESS, &progress, sizeof(progress), NULL, 0);
}

/* A failed or canceled task's answer; its stage time the wall time of whatever prove_start
 * ran (no backend measured a partition it did not finish). */
void prover_send_failure(struct prover *p, const struct prove_job *job,
                         enum executor_failure failure, int error, const char *text) {
        struct ipc_result result = {
                .status = {.task_id = job->request.task.task_id,
                           .failure = failure,
                           .error = error},
                .srs_load_usec = job->srs_load_usec,
                .gpu_stage_usec = job->start_usec,
        };

        snprintf(result.status.message, sizeof(result.status.message), "%s", text);
        (void)prover_send_locked(p, IPC_RESULT, &result, sizeof(result), NULL, 0);
}

static void send_canceled(struct prover *p, const struct prove_job *job) {
        prover_send_failure(p, job, EXECUTOR_FAILED_CANCELED, -ECANCELED, "canceled");
}

static bool job_canceled(struct prover *p, const struct prove_job *job) {
        bool canceled;

        pthread_mutex_lock(&p->lock);
        canceled = job->canceled;
        pthread_mutex_unlock(&p->lock);
        return canceled;
}

/* prover_keys_get, then a key loaded now goes to the backend at once. The CUDA one takes
 * its bases to the card where they fit: the G1 ones streamed there from the file as it is
 * read (the host never holds them), B_G2's (6.4 of a 32 GiB sector's 44 GiB) or all of
 * them copied from host memory, whose copy then goes. The prover's cgroup then holds the
 * densities alone of the key. A key the backend cannot take after all its bases went to
 * the card is dropped. */
static int key_get(struct prover *p, const struct ipc_task *t, const char *circuit_path,
                   const struct groth16_pk **ret, uint64_t *ret_load_usec) {
        const struct prover_backend_ops *ops = p->backend->ops;
        struct bellperson_g1_sink sink = {0};
        const bool offered = ops->key_sink && ops->key_sink(p->backend, &sink) > 0;
        int r = prover_keys_get(p->keys, (enum job_kind)t->kind, t->key_path, circuit_path,
                                offered ? &sink : NULL, ret, ret_load_usec);

        if (r >= 0 && *ret_load_usec && ops->adopt_key) {
                r = ops->adopt_key(p->backend, *ret);
                if (r > 0)
                        (void)prover_keys_release_bases(p->keys, *ret);
                if (r < 0)
                        (void)prover_keys_forget(p->keys, (enum job_kind)t->kind, t->key_path);
        }
        if (offered && ops->key_sink_done)
                ops->key_sink_done(p->backend);
        return r < 0 ? r : 0;
}

/* The key for the job, checked against what the worker computed. */
static int job_key(struct prover *p, struct prove_job *job, char *text, size_t text_size) {
        const struct ipc_task *t = &job->request.task;
        const struct ipc_synth_done *s = &job->request.synth;
        const struct groth16_pk *pk;
        int r;

        prover_send_progress(p, t->task_id, "key (loaded once)");
        r = key_get(p, t, t->circuit_path, &pk, &job->srs_load_usec);
        if (r < 0) {
                snprintf(text, text_size, "%s", ipc_log_last_error());
                return r;
        }
        if (pk->n_vars != s->n_vars || pk->log_domain_size != s->log_domain_size) {
                ipc_set_text(text, text_size,
                             "%s: %zu wires, domain 2^%u; %s has %" PRIu64
                             " wires, domain 2^%u: not its key",
                             t->key_path, pk->n_vars, pk->log_domain_size, t->circuit_path,
                             s->n_vars, s->log_domain_size);
                return log_error_errno(EINVAL, "%s", text);
        }
        job->pk = pk;
        return 0;
}

/* prove_start from the compact witness, then lets its memfd go. */
static int job_start_compact(struct prover *p, struct prove_job *job) {
        const struct prover_inputs in = {
                .pk = job->pk,
                .log_domain_size = job->request.synth.log_domain_size,
                .compact = &job->view.w,
                .circuit_path = job->request.task.circuit_path,
        };
        uint64_t t0 = clock_now_usec();
        int r;

        prover_send_progress(p, job->request.task.task_id,
                             "start (compact: a/b/c on GPU, NTT, MSMs)");
        r = p->backend->ops->prove_start(p->backend, &in, &job->partial);
        job_release_compact(job);
        job_close_abc(job);
        job->start_usec = clock_now_usec() - t0;
        return r;
}

/* Maps the evaluations privately, runs prove_start and lets the memfd go. */
static int job_start(struct prover *p, struct prove_job *job) {
        const size_t n = (size_t)1 << job->request.synth.log_domain_size;
        const size_t bytes = 3 * n * sizeof(fr_t);
        struct prover_inputs in;
        uint64_t t0 = clock_now_usec();
        fr_t *abc;
        int r;

        if (job->compact)
                return job_start_compact(p, job);
        abc = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, job->abc_fd, 0);
        if (abc == MAP_FAILED)
                return log_error_errno(errno,
                                       "Task %" PRIu64 ": mapping a/b/c (%zu bytes) failed: %m",
                                       job->request.task.task_id, bytes);
        in = (struct prover_inputs){
                .pk = job->pk,
                .w = job->w,
                .a = abc,
                .b = abc + n,
                .c = abc + 2 * n,
                .log_domain_size = job->request.synth.log_domain_size,
        };
        prover_send_progress(p, job->request.task.task_id, "start (H: a/b/c, NTT; G1 MSMs)");
        r = p->backend->ops->prove_start(p->backend, &in, &job->partial);
        (void)munmap(abc, bytes);
        job_close_abc(job);
        job->start_usec = clock_now_usec() - t0;
        return r;
}

/* IPC_LOAD_KEY's work, in the start thread like any key load: the answer says how it went. */
static void job_load_key(struct prover *p, struct prove_job *job) {
        struct ipc_key_loaded answer;
        const struct groth16_pk *pk;
        int r;

        memset(&answer, 0, sizeof(answer));
        prover_send_progress(p, 0, "preload");
        r = key_get(p, &job->request.task,
                    job->request.task.circuit_path[0] ? job->request.task.circuit_path : NULL, &pk,
                    &answer.load_usec);
        answer.error = r < 0 ? r : 0;
        if (r < 0)
                snprintf(answer.message, sizeof(answer.message), "%s", ipc_log_last_error());
        answer.srs_bytes = prover_keys_bytes(p->keys);
        answer.kind = job_kind_key((enum job_kind)job->request.task.kind);
        answer.key_host_bytes = r < 0 ? 0 : prover_keys_pk_bytes(p->keys, pk);
        snprintf(answer.key_path, sizeof(answer.key_path), "%s", job->request.task.key_path);
        (void)prover_send_locked(p, IPC_KEY_LOADED, &answer, sizeof(answer), NULL, 0);
}

static bool key_in_use(const struct prover *p, const struct groth16_pk *pk) {
        if (p->in_finish && p->in_finish->pk == pk)
                return true;
        for (const struct prove_job *j = p->finish_queue.head; j; j = j->next)
                if (j->pk == pk)
                        return true;
        return false;
}

/* IPC_EVICT_KEY's work: once no task in its tail uses the key, it goes (the backend lets
 * go of it first: the CUDA one unpins it). Answered with IPC_KEY_LOADED, evicted set. */
static void job_evict_key(struct prover *p, struct prove_job *job) {
        struct ipc_key_loaded answer;
        const struct groth16_pk *pk;

        memset(&answer, 0, sizeof(answer));
        answer.evicted = 1;
        pk = prover_keys_find(p->keys, (enum job_kind)job->request.task.kind,
                              job->request.task.key_path);
        if (pk) {
                pthread_mutex_lock(&p->lock);
                while (!p->stopping && key_in_use(p, pk))
                        pthread_cond_wait(&p->wake, &p->lock);
                pthread_mutex_unlock(&p->lock);
                if (p->backend->ops->forget_key)
                        p->backend->ops->forget_key(p->backend, pk);
                (void)prover_keys_forget(p->keys, (enum job_kind)job->request.task.kind,
                                         job->request.task.key_path);
        }
        answer.srs_bytes = prover_keys_bytes(p->keys);
        snprintf(answer.key_path, sizeof(answer.key_path), "%s", job->request.task.key_path);
        (void)prover_send_locked(p, IPC_KEY_LOADED, &answer, sizeof(answer), NULL, 0);
}

void *prover_start_thread(void *userdata) {
        struct prover *p = userdata;

        for (;;) {
                struct prove_job *job;
                char text[IPC_MESSAGE_TEXT];
                struct ipc_task_id released;
                int r;

                pthread_mutex_lock(&p->lock);
                while (!p->stopping && !p->start_queue.head)
                        pthread_cond_wait(&p->wake, &p->lock);
                if (p->stopping) {
                        pthread_mutex_unlock(&p->lock);
                        return NULL;
                }
                job = p->in_start = prover_queue_pop(&p->start_queue);
                pthread_mutex_unlock(&p->lock);

                if (job->load_only) {
                        if (job->evict)
                                job_evict_key(p, job);
                        else
                                job_load_key(p, job);
                        goto drop;
                }
                if (job_canceled(p, job)) {
                        send_canceled(p, job);
                        goto drop;
                }
                r = job_key(p, job, text, sizeof(text));
                if (r < 0) {
                        prover_send_failure(p, job,
                                            r == -ENOMEM ? EXECUTOR_FAILED_PROVER
                                                         : EXECUTOR_FAILED_INPUT,
                                            r, text);
                        goto drop;
                }
                r = job_start(p, job);
                released.task_id = job->request.task.task_id;
                if (r < 0) {
                        snprintf(text, sizeof(text), "prove_start failed: %s", strerror(-r));
                        prover_send_failure(p, job, EXECUTOR_FAILED_PROVER, r, text);
                        goto drop;
                }
                (void)prover_send_locked(p, IPC_ABC_RELEASED, &released, sizeof(released), NULL, 0);

                pthread_mutex_lock(&p->lock);
                p->in_start = NULL;
                prover_queue_push(&p->finish_queue, job);
                pthread_cond_broadcast(&p->wake);
                pthread_mutex_unlock(&p->lock);
                continue;
        drop:
                pthread_mutex_lock(&p->lock);
                p->in_start = NULL;
                pthread_mutex_unlock(&p->lock);
                prover_job_free(p, job);
        }
}

/* The proof as the supervisor passes it on: 192 bytes, or proof.json + public.json. */
static int encode_result(const struct prove_job *job, const struct groth16_proof *proof,
                         struct ipc_result *result, int *ret_fd) {
        _cleanup_free_ char *proof_json = NULL, *public_json = NULL;
        uint8_t filecoin[FILECOIN_PROOF_BYTES];
        size_t bytes;
        uint8_t *map;
        int fd, r;

        if (job->request.task.kind != JOB_GROTH16_SNARKJS) {
                filecoin_proof_encode(filecoin, proof);
                result->proof_bytes = sizeof(filecoin);
        } else {
                json_t *pj = snarkjs_proof_to_json(proof);
                json_t *uj = snarkjs_public_to_json(job->w + 1, job->pk->n_public);

                /* snarkjs's layout, as snarkjs_proof_save writes the files. */
                proof_json = pj ? json_dumps(pj, JSON_INDENT(1)) : NULL;
                public_json = uj ? json_dumps(uj, JSON_INDENT(1)) : NULL;
                json_decref(pj);
                json_decref(uj);
                if (!proof_json || !public_json)
                        return log_error_errno(ENOMEM, "Task %" PRIu64 ": out of memory for JSON",
                                               job->request.task.task_id);
                result->proof_json_bytes = strlen(proof_json);
                result->public_json_bytes = strlen(public_json);
        }
        bytes = result->proof_bytes + result->proof_json_bytes + result->public_json_bytes;
        r = ipc_memfd_new("cuzk-proof", bytes, &fd, (void **)&map);
        if (r < 0)
                return r;
        if (result->proof_bytes)
                memcpy(map, filecoin, sizeof(filecoin));
        else {
                memcpy(map, proof_json, result->proof_json_bytes);
                memcpy(map + result->proof_json_bytes, public_json, result->public_json_bytes);
        }
        (void)munmap(map, bytes);
        r = ipc_memfd_seal(fd, false);
        if (r < 0) {
                close(fd);
                return r;
        }
        *ret_fd = fd;
        return 0;
}

/* The partition's times in its result (the job's gpu_compute_ms, summed): what the backend
 * measured of its own work, else the wall time of the call, whatever it waited for. */
static void result_times(const struct prove_job *job, const struct prover_timings *measured,
                         struct ipc_result *result) {
        result->gpu_stage_usec = measured->stage_measured ? measured->stage_usec : job->start_usec;
        result->g2_tail_usec = measured->tail_measured ? measured->tail_usec : job->tail_usec;
        log_debug("Task %" PRIu64 ": stage %.3f s (%s; prove_start %.3f s), tail %.3f s (%s; "
                  "prove_finish %.3f s)",
                  job->request.task.task_id, (double)result->gpu_stage_usec / 1e6,
                  measured->stage_measured ? "measured by the backend" : "wall time",
                  (double)job->start_usec / 1e6, (double)result->g2_tail_usec / 1e6,
                  measured->tail_measured ? "measured by the backend" : "wall time",
                  (double)job->tail_usec / 1e6);
}

static void job_finish(struct prover *p, struct prove_job *job) {
        struct ipc_result result = {.status.task_id = job->request.task.task_id};
        struct groth16_proof proof;
        struct prover_timings measured = {0};
        struct prover_partial *partial = TAKE_PTR(job->partial);
        uint64_t t0 = clock_now_usec();
        struct prover_device_info device;
        char text[IPC_MESSAGE_TEXT];
        int fd, r;

        prover_send_progress(p, job->request.task.task_id, "finish (b_g2 MSM, assembly)");
        r = p->backend->ops->prove_finish(p->backend, partial, &proof, &measured);
        job->tail_usec = clock_now_usec() - t0;
        if (r >= 0)
                r = encode_result(job, &proof, &result, &fd);
        if (r < 0) {
                snprintf(text, sizeof(text), "prove_finish failed: %s", strerror(-r));
                prover_send_failure(p, job, EXECUTOR_FAILED_PROVER, r, text);
                return;
        }
        result.srs_load_usec = job->srs_load_usec;
        result_times(job, &measured, &result);
        result.srs_bytes = prover_keys_bytes(p->keys);
        result.key_host_bytes = prover_keys_pk_bytes(p->keys, job->pk);
        /* No backend keeps a PCE in host memory: the CUDA one keeps it on the card and drops
         * its host copy once uploaded (cuda_pce_get), the CPU one never reads it (the worker
         * evaluates a, b, c). */
        result.pce_host_bytes = 0;
        prover_backend_device_info(p->backend, &device);
        result.device_memory_free_bytes = device.memory_free_bytes;
        (void)prover_send_locked(p, IPC_RESULT, &result, sizeof(result), &fd, 1);
        close(fd);
}

#if CUZK_TEST_HOOKS
/* CUZK_TEST_PROVER_FAULT=hang-tail (tests only, see helper-main.h). */
static void inject_tail_fault(struct prover *p, const struct prove_job *job) {
        const char *fault = getenv("CUZK_TEST_PROVER_FAULT");
        const char *once = getenv("CUZK_TEST_PROVER_FAULT_ONCE");

        if (!fault || strcmp(fault, "hang-tail") != 0)
                return;
        /* One hanging prover among healthy ones: the task that removes the flag file. */
        if (once && *once && unlink(once) < 0)
                return;
        log_warning("Test fault injection: %s (task %" PRIu64 ")", fault,
                    job->request.task.task_id);
        while (!job_canceled(p, job))
                usleep(10000);
}
#else
/* A package build has no fault hooks (meson -Dtest_hooks=false). */
static void inject_tail_fault(struct prover *p, const struct prove_job *job) {
        (void)p;
        (void)job;
}
#endif

void *prover_finish_thread(void *userdata) {
        struct prover *p = userdata;

        for (;;) {
                struct prove_job *job;

                pthread_mutex_lock(&p->lock);
                while (!p->stopping && !p->finish_queue.head)
                        pthread_cond_wait(&p->wake, &p->lock);
                if (p->stopping) {
                        pthread_mutex_unlock(&p->lock);
                        return NULL;
                }
                job = p->in_finish = prover_queue_pop(&p->finish_queue);
                pthread_mutex_unlock(&p->lock);

                inject_tail_fault(p, job);
                if (job_canceled(p, job))
                        send_canceled(p, job);
                else
                        job_finish(p, job);

                pthread_mutex_lock(&p->lock);
                p->in_finish = NULL;
                pthread_cond_broadcast(&p->wake); /* an eviction may wait for this job */
                pthread_mutex_unlock(&p->lock);
                prover_job_free(p, job);
        }
}
