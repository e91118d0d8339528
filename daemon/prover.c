/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd --prover FD THREADS DEVICE: a prover process. It lives in its own
 * cgroup (prover-N) for as long as the supervisor runs, keeps the proving
 * keys it has loaded (prover-keys.h), and proves the tasks whose memfds the
 * supervisor relays, in the split shape of prover-backend.h:
 *
 *   main thread     reads IPC_PROVE / IPC_CANCEL / IPC_LOAD_KEY /
 *                   IPC_EVICT_KEY from FD and queues them;
 *   start thread    loads the key (a preload: only that, answered with
 *                   IPC_KEY_LOADED; an eviction drops it once no tail
 *                   uses it), maps a/b/c privately, prove_start, then
 *                   unmaps and closes a/b/c and says IPC_ABC_RELEASED;
 *   finish thread   prove_finish (the B_G2 tail) of partition N while the
 *                   start thread is on partition N + 1, then IPC_RESULT
 *                   with the proof in a sealed memfd.
 *
 * The evaluations are mapped shared and writable: the CPU backend computes
 * H in place, in the memfd's own pages (charged to the worker's cgroup and
 * reserved as abc_bytes), not in private copies that would be charged to
 * the prover on top; they go when the prover closes the memfd right after
 * prove_start. Every IPC_PROVE gets exactly one IPC_RESULT (a canceled
 * task: EXECUTOR_FAILED_CANCELED). End of file on FD ends the prover.
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
#include "daemon/executor.h"
#include "daemon/helper-main.h"
#include "daemon/ipc-log.h"
#include "daemon/ipc.h"
#include "daemon/prover-backend.h"
#include "daemon/prover-keys.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"

struct prove_job {
        struct ipc_prove request;
        int abc_fd, w_fd;
        const fr_t *w; /* the witness memfd, mapped read-only */
        size_t w_bytes;
        const struct groth16_pk *pk;
        struct prover_partial *partial;
        bool canceled; /* under prover.lock */
        uint64_t srs_load_usec, start_usec, tail_usec;
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

static void queue_push(struct job_queue *q, struct prove_job *job) {
        job->next = NULL;
        if (q->tail)
                q->tail->next = job;
        else
                q->head = job;
        q->tail = job;
}

static struct prove_job *queue_pop(struct job_queue *q) {
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

static void job_free(struct prover *p, struct prove_job *job) {
        if (!job)
                return;
        if (job->partial)
                p->backend->ops->partial_free(job->partial);
        if (job->w)
                (void)munmap((void *)job->w, job->w_bytes);
        job_close_abc(job);
        if (job->w_fd >= 0)
                close(job->w_fd);
        free(job);
}

static int send_locked(struct prover *p, enum ipc_type type, const void *payload, size_t bytes,
                       const int *fds, size_t n_fds) {
        int r;

        pthread_mutex_lock(&p->send_lock);
        r = ipc_send(p->sock, type, payload, bytes, fds, n_fds);
        pthread_mutex_unlock(&p->send_lock);
        return r;
}

/* A failed or canceled task's answer. */
static void send_failure(struct prover *p, const struct prove_job *job,
                         enum executor_failure failure, int error, const char *text) {
        struct ipc_result result = {
                .status = {.task_id = job->request.task.task_id,
                           .failure = failure,
                           .error = error},
                .srs_load_usec = job->srs_load_usec,
                .gpu_stage_usec = job->start_usec,
        };

        snprintf(result.status.message, sizeof(result.status.message), "%s", text);
        (void)send_locked(p, IPC_RESULT, &result, sizeof(result), NULL, 0);
}

static void send_canceled(struct prover *p, const struct prove_job *job) {
        send_failure(p, job, EXECUTOR_FAILED_CANCELED, -ECANCELED, "canceled");
}

static bool job_canceled(struct prover *p, const struct prove_job *job) {
        bool canceled;

        pthread_mutex_lock(&p->lock);
        canceled = job->canceled;
        pthread_mutex_unlock(&p->lock);
        return canceled;
}

/* The key for the job, checked against what the worker computed. */
static int job_key(struct prover *p, struct prove_job *job, char *text, size_t text_size) {
        const struct ipc_task *t = &job->request.task;
        const struct ipc_synth_done *s = &job->request.synth;
        const struct groth16_pk *pk;
        int r;

        r = prover_keys_get(p->keys, (enum job_kind)t->kind, t->key_path, t->circuit_path, &pk,
                            &job->srs_load_usec);
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

/* Maps the evaluations privately, runs prove_start and lets the memfd go. */
static int job_start(struct prover *p, struct prove_job *job) {
        const size_t n = (size_t)1 << job->request.synth.log_domain_size;
        const size_t bytes = 3 * n * sizeof(fr_t);
        struct prover_inputs in;
        uint64_t t0 = clock_now_usec();
        fr_t *abc;
        int r;

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
        r = prover_keys_get(
                p->keys, (enum job_kind)job->request.task.kind, job->request.task.key_path,
                job->request.task.circuit_path[0] ? job->request.task.circuit_path : NULL, &pk,
                &answer.load_usec);
        answer.error = r < 0 ? r : 0;
        if (r < 0)
                snprintf(answer.message, sizeof(answer.message), "%s", ipc_log_last_error());
        answer.srs_bytes = prover_keys_bytes(p->keys);
        snprintf(answer.key_path, sizeof(answer.key_path), "%s", job->request.task.key_path);
        (void)send_locked(p, IPC_KEY_LOADED, &answer, sizeof(answer), NULL, 0);
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
        (void)send_locked(p, IPC_KEY_LOADED, &answer, sizeof(answer), NULL, 0);
}

static void *start_thread(void *userdata) {
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
                job = p->in_start = queue_pop(&p->start_queue);
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
                        send_failure(p, job,
                                     r == -ENOMEM ? EXECUTOR_FAILED_PROVER : EXECUTOR_FAILED_INPUT,
                                     r, text);
                        goto drop;
                }
                r = job_start(p, job);
                released.task_id = job->request.task.task_id;
                if (r < 0) {
                        snprintf(text, sizeof(text), "prove_start failed: %s", strerror(-r));
                        send_failure(p, job, EXECUTOR_FAILED_PROVER, r, text);
                        goto drop;
                }
                (void)send_locked(p, IPC_ABC_RELEASED, &released, sizeof(released), NULL, 0);

                pthread_mutex_lock(&p->lock);
                p->in_start = NULL;
                queue_push(&p->finish_queue, job);
                pthread_cond_broadcast(&p->wake);
                pthread_mutex_unlock(&p->lock);
                continue;
        drop:
                pthread_mutex_lock(&p->lock);
                p->in_start = NULL;
                pthread_mutex_unlock(&p->lock);
                job_free(p, job);
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

        if (job->request.task.kind == JOB_SYNTHETIC_PCE) {
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

static void job_finish(struct prover *p, struct prove_job *job) {
        struct ipc_result result = {.status.task_id = job->request.task.task_id};
        struct groth16_proof proof;
        struct prover_partial *partial = TAKE_PTR(job->partial);
        uint64_t t0 = clock_now_usec();
        struct prover_device_info device;
        char text[IPC_MESSAGE_TEXT];
        int fd, r;

        r = p->backend->ops->prove_finish(p->backend, partial, &proof);
        job->tail_usec = clock_now_usec() - t0;
        if (r >= 0)
                r = encode_result(job, &proof, &result, &fd);
        if (r < 0) {
                snprintf(text, sizeof(text), "prove_finish failed: %s", strerror(-r));
                send_failure(p, job, EXECUTOR_FAILED_PROVER, r, text);
                return;
        }
        result.srs_load_usec = job->srs_load_usec;
        result.gpu_stage_usec = job->start_usec;
        result.g2_tail_usec = job->tail_usec;
        result.srs_bytes = prover_keys_bytes(p->keys);
        prover_backend_device_info(p->backend, &device);
        result.device_memory_free_bytes = device.memory_free_bytes;
        (void)send_locked(p, IPC_RESULT, &result, sizeof(result), &fd, 1);
        close(fd);
}

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

static void *finish_thread(void *userdata) {
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
                job = p->in_finish = queue_pop(&p->finish_queue);
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
                job_free(p, job);
        }
}

/* A relayed task: checks and maps the witness, queues it for the start thread. */
static void receive_prove(struct prover *p, const struct ipc_prove *request, int fds[2]) {
        const struct ipc_synth_done *s = &request->synth;
        struct prove_job *job;
        char what[64];
        int r;

        job = calloc(1, sizeof(*job));
        if (!job) {
                close(fds[0]);
                close(fds[1]);
                log_error("Task %" PRIu64 ": out of memory", request->task.task_id);
                return;
        }
        job->request = *request;
        job->request.task.circuit_path[PATH_MAX - 1] = 0;
        job->request.task.key_path[PATH_MAX - 1] = 0;
        job->request.task.witness_path[PATH_MAX - 1] = 0;
        job->abc_fd = fds[0];
        job->w_fd = fds[1];
        job->w_bytes = s->n_vars * sizeof(fr_t);

        snprintf(what, sizeof(what), "task %" PRIu64 " a/b/c", request->task.task_id);
        r = s->log_domain_size < 40
                    ? ipc_memfd_check(job->abc_fd, (3u * sizeof(fr_t)) << s->log_domain_size, what,
                                      true)
                    : -EINVAL;
        if (r >= 0) {
                snprintf(what, sizeof(what), "task %" PRIu64 " witness", request->task.task_id);
                r = s->n_vars > 0 ? ipc_memfd_check(job->w_fd, job->w_bytes, what, false) : -EINVAL;
        }
        if (r >= 0) {
                void *w = mmap(NULL, job->w_bytes, PROT_READ, MAP_SHARED, job->w_fd, 0);
                if (w == MAP_FAILED)
                        r = log_error_errno(errno, "Mapping %s failed: %m", what);
                else
                        job->w = w;
        }
        if (r < 0) {
                send_failure(p, job, EXECUTOR_FAILED_PROVER, r,
                             "the synthesized data could not be mapped");
                job_free(p, job);
                return;
        }
        pthread_mutex_lock(&p->lock);
        queue_push(&p->start_queue, job);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
}

static void receive_load_key(struct prover *p, const struct ipc_load_key *request, bool evict) {
        struct prove_job *job = calloc(1, sizeof(*job));

        if (!job) {
                struct ipc_key_loaded answer;

                memset(&answer, 0, sizeof(answer));
                answer.error = -ENOMEM;
                snprintf(answer.key_path, sizeof(answer.key_path), "%.*s",
                         (int)sizeof(request->key_path) - 1, request->key_path);
                snprintf(answer.message, sizeof(answer.message), "out of memory");
                answer.evicted = evict;
                (void)send_locked(p, IPC_KEY_LOADED, &answer, sizeof(answer), NULL, 0);
                return;
        }
        job->abc_fd = job->w_fd = -EBADF;
        job->load_only = true;
        job->evict = evict;
        job->request.task.kind = request->kind;
        memcpy(job->request.task.key_path, request->key_path, sizeof(request->key_path));
        job->request.task.key_path[PATH_MAX - 1] = 0;
        memcpy(job->request.task.circuit_path, request->circuit_path,
               sizeof(request->circuit_path));
        job->request.task.circuit_path[PATH_MAX - 1] = 0;
        pthread_mutex_lock(&p->lock);
        queue_push(&p->start_queue, job);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
}

static void mark_canceled(struct job_queue *q, uint64_t task_id) {
        for (struct prove_job *j = q->head; j; j = j->next)
                if (j->request.task.task_id == task_id)
                        j->canceled = true;
}

static void receive_cancel(struct prover *p, uint64_t task_id) {
        pthread_mutex_lock(&p->lock);
        mark_canceled(&p->start_queue, task_id);
        mark_canceled(&p->finish_queue, task_id);
        if (p->in_start && p->in_start->request.task.task_id == task_id)
                p->in_start->canceled = true;
        if (p->in_finish && p->in_finish->request.task.task_id == task_id)
                p->in_finish->canceled = true;
        pthread_mutex_unlock(&p->lock);
}

/* --prover FD THREADS DEVICE, DEVICE a GPU ordinal, "cpu" or "auto" (prover-backend.h). */
static int parse_args(int argc, char **argv, int *ret_sock, unsigned *ret_threads,
                      int *ret_device) {
        uint64_t threads, ordinal;

        if (argc != 5 || strcmp(argv[1], "--prover") != 0)
                return log_error_errno(EINVAL, "Usage: %s --prover FD THREADS DEVICE",
                                       argc > 0 ? argv[0] : "cuzkd");
        if (ipc_parse_fd(argv[2], ret_sock) < 0)
                return -EINVAL;
        if (parse_unsigned_range(argv[3], 0, 4096, 10, &threads) < 0)
                return log_error_errno(EINVAL, "Bad thread count \"%s\", expected 0..4096",
                                       argv[3]);
        if (!strcmp(argv[4], "cpu"))
                *ret_device = PROVER_DEVICE_CPU;
        else if (!strcmp(argv[4], "auto"))
                *ret_device = PROVER_DEVICE_AUTO;
        else if (parse_unsigned_range(argv[4], 0, 255, 10, &ordinal) == 0)
                *ret_device = (int)ordinal;
        else
                return log_error_errno(
                        EINVAL, "Bad device \"%s\", expected a GPU ordinal, cpu or auto", argv[4]);
        *ret_threads = (unsigned)threads;
        return 0;
}

static void drain_queue(struct prover *p, struct job_queue *q) {
        struct prove_job *job;

        while ((job = queue_pop(q)))
                job_free(p, job);
}

int prover_main(int argc, char **argv) {
        struct prover p = {
                .send_lock = PTHREAD_MUTEX_INITIALIZER,
                .lock = PTHREAD_MUTEX_INITIALIZER,
                .wake = PTHREAD_COND_INITIALIZER,
        };
        _cleanup_(prover_backend_freep) struct prover_backend *backend = NULL;
        struct ipc_prover_ready ready;
        pthread_t starter, finisher;
        struct prover_device_info device;
        unsigned threads = 0;
        int device_arg = PROVER_DEVICE_CPU, r;

        ipc_log_setup("prover");
        if (parse_args(argc, argv, &p.sock, &threads, &device_arg) < 0)
                return 2;
        r = prover_backend_new(device_arg, threads, &backend);
        if (r < 0) {
                log_error_errno(r, "No prover backend: %m");
                return device_arg >= 0 ? IPC_PROVER_EXIT_NO_DEVICE : 1;
        }
        p.backend = backend;
        r = prover_keys_new(&p.keys);
        if (r < 0)
                return 1;
        if (pthread_create(&starter, NULL, start_thread, &p) != 0 ||
            pthread_create(&finisher, NULL, finish_thread, &p) != 0) {
                log_error("Cannot start the prover's threads");
                return 1;
        }
        memset(&ready, 0, sizeof(ready));
        snprintf(ready.backend, sizeof(ready.backend), "%s", backend->ops->name);
        prover_backend_device_info(backend, &device);
        ready.ordinal = device.ordinal;
        snprintf(ready.device_name, sizeof(ready.device_name), "%s", device.name);
        ready.memory_total_bytes = device.memory_total_bytes;
        ready.memory_free_bytes = device.memory_free_bytes;
        (void)send_locked(&p, IPC_PROVER_READY, &ready, sizeof(ready), NULL, 0);
        log_info("Prover ready (backend %s, %u threads)", backend->ops->name, threads);

        for (;;) {
                struct ipc_message message;
                int fds[IPC_MAX_FDS];
                size_t n_fds;

                r = ipc_recv(p.sock, &message, fds, &n_fds);
                if (r == 0)
                        break; /* the supervisor is gone or let us go */
                if (r < 0) {
                        if (r == -EBADMSG)
                                continue;
                        break;
                }
                if (message.type == IPC_PROVE)
                        receive_prove(&p, &message.prove, fds);
                else if (message.type == IPC_CANCEL)
                        receive_cancel(&p, message.task_id.task_id);
                else if (message.type == IPC_LOAD_KEY || message.type == IPC_EVICT_KEY)
                        receive_load_key(&p, &message.load_key, message.type == IPC_EVICT_KEY);
                else {
                        for (size_t i = 0; i < n_fds; i++)
                                close(fds[i]);
                        log_warning("Unexpected message type %" PRIu32 " from the supervisor",
                                    message.type);
                }
        }

        pthread_mutex_lock(&p.lock);
        p.stopping = true;
        pthread_cond_broadcast(&p.wake);
        pthread_mutex_unlock(&p.lock);
        pthread_join(starter, NULL);
        pthread_join(finisher, NULL);
        drain_queue(&p, &p.start_queue);
        drain_queue(&p, &p.finish_queue);
        prover_keys_free(p.keys);
        return 0;
}
