/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd --prover FD THREADS DEVICE LANES SRS MSM_WINDOW (helper-main.h): a
 * prover process. It lives in its own cgroup (prover-N) for as long as the
 * supervisor runs, keeps the proving keys it has loaded (prover-keys.h),
 * and proves the tasks whose memfds the supervisor relays, in the split
 * shape of prover-backend.h:
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
#include "cuda/gpu-tuning.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/helper-main.h"
#include "daemon/executor/ipc-log.h"
#include "daemon/executor/ipc.h"
#include "daemon/prover/prover-backend.h"
#include "daemon/prover/prover-keys.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"

#include "daemon/prover/prover.h"

/* A compact witness's memfd (job->abc_fd): checked, mapped, its layout checked. */
static int map_compact(struct prove_job *job) {
        const struct ipc_synth_done *s = &job->request.synth;
        char what[64];
        void *map;
        int r;

        snprintf(what, sizeof(what), "task %" PRIu64 " compact witness", job->request.task.task_id);
        if (s->compact_bytes == 0 || s->compact_bytes > SIZE_MAX)
                return log_error_errno(EBADMSG, "%s: %" PRIu64 " bytes", what, s->compact_bytes);
        r = ipc_memfd_check(job->abc_fd, s->compact_bytes, what, false);
        if (r < 0)
                return r;
        map = mmap(NULL, s->compact_bytes, PROT_READ, MAP_SHARED, job->abc_fd, 0);
        if (map == MAP_FAILED)
                return log_error_errno(errno, "Mapping %s failed: %m", what);
        job->compact = map;
        job->compact_bytes = s->compact_bytes;
        return ipc_compact_view(map, s->compact_bytes, s->n_vars, what, &job->view);
}

/* a/b/c (job->abc_fd) and the witness (job->w_fd): checked, the witness mapped. */
static int map_full(struct prove_job *job) {
        const struct ipc_synth_done *s = &job->request.synth;
        char what[64];
        int r;

        job->w_bytes = s->n_vars * sizeof(fr_t);
        snprintf(what, sizeof(what), "task %" PRIu64 " a/b/c", job->request.task.task_id);
        r = s->log_domain_size < 40
                    ? ipc_memfd_check(job->abc_fd, (3u * sizeof(fr_t)) << s->log_domain_size, what,
                                      true)
                    : -EINVAL;
        if (r >= 0) {
                snprintf(what, sizeof(what), "task %" PRIu64 " witness", job->request.task.task_id);
                r = s->n_vars > 0 ? ipc_memfd_check(job->w_fd, job->w_bytes, what, false) : -EINVAL;
        }
        if (r >= 0) {
                void *w = mmap(NULL, job->w_bytes, PROT_READ, MAP_SHARED, job->w_fd, 0);
                if (w == MAP_FAILED)
                        r = log_error_errno(errno, "Mapping %s failed: %m", what);
                else
                        job->w = w;
        }
        return r;
}

/* A relayed task: checks and maps the witness, queues it for the start thread. */
static void receive_prove(struct prover *p, const struct ipc_prove *request, int fds[2]) {
        struct prove_job *job;
        int r;

        job = calloc(1, sizeof(*job));
        if (!job) {
                close(fds[0]);
                if (fds[1] >= 0)
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
        r = request->synth.witness_form == IPC_WITNESS_COMPACT ? map_compact(job) : map_full(job);
        if (r < 0) {
                prover_send_failure(p, job, EXECUTOR_FAILED_PROVER, r,
                                    "the synthesized data could not be mapped");
                prover_job_free(p, job);
                return;
        }
        pthread_mutex_lock(&p->lock);
        prover_queue_push(&p->start_queue, job);
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
                (void)prover_send_locked(p, IPC_KEY_LOADED, &answer, sizeof(answer), NULL, 0);
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
        prover_queue_push(&p->start_queue, job);
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

/* LANES SRS MSM_WINDOW: the GPU tuning as the supervisor checked it ([GPU] of cuzkd.conf). */
static int parse_tuning_args(char **argv, struct gpu_tuning *ret) {
        uint64_t lanes, window;

        if (parse_unsigned_range(argv[0], 1, GPU_LANES_MAX, 10, &lanes) < 0 ||
            gpu_srs_residence_from_string(argv[1], &ret->srs) < 0 ||
            parse_unsigned_range(argv[2], 0, GPU_MSM_WINDOW_BITS_MAX, 10, &window) < 0)
                return log_error_errno(EINVAL,
                                       "Bad GPU tuning \"%s %s %s\", expected lanes 1 to %d, "
                                       "auto, device or host, and a window of 0 or %d to %d",
                                       argv[0], argv[1], argv[2], GPU_LANES_MAX,
                                       GPU_MSM_WINDOW_BITS_MIN, GPU_MSM_WINDOW_BITS_MAX);
        ret->lanes = (unsigned)lanes;
        ret->msm_window_bits = (unsigned)window;
        if (gpu_tuning_check(ret) < 0)
                return log_error_errno(EINVAL, "Bad MSM window %s, expected 0 or %d to %d", argv[2],
                                       GPU_MSM_WINDOW_BITS_MIN, GPU_MSM_WINDOW_BITS_MAX);
        return 0;
}

/* --prover FD THREADS DEVICE LANES SRS MSM_WINDOW, DEVICE a GPU ordinal, "cpu" or "auto"
 * (prover-backend.h). */
static int parse_args(int argc, char **argv, int *ret_sock, unsigned *ret_threads, int *ret_device,
                      struct gpu_tuning *ret_tuning) {
        uint64_t threads, ordinal;

        if (argc != 8 || strcmp(argv[1], "--prover") != 0)
                return log_error_errno(EINVAL,
                                       "Usage: %s --prover FD THREADS DEVICE LANES SRS MSM_WINDOW",
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
        return parse_tuning_args(argv + 5, ret_tuning);
}

static void drain_queue(struct prover *p, struct job_queue *q) {
        struct prove_job *job;

        while ((job = prover_queue_pop(q)))
                prover_job_free(p, job);
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
        struct gpu_tuning tuning;
        unsigned threads = 0;
        int device_arg = PROVER_DEVICE_CPU, r;

        ipc_log_setup("prover");
        if (parse_args(argc, argv, &p.sock, &threads, &device_arg, &tuning) < 0)
                return 2;
        r = prover_backend_new(device_arg, threads, &tuning, &backend);
        if (r < 0) {
                log_error_errno(r, "No prover backend: %m");
                return device_arg >= 0 ? IPC_PROVER_EXIT_NO_DEVICE : 1;
        }
        p.backend = backend;
        r = prover_keys_new(&p.keys);
        if (r < 0)
                return 1;
        if (pthread_create(&starter, NULL, prover_start_thread, &p) != 0 ||
            pthread_create(&finisher, NULL, prover_finish_thread, &p) != 0) {
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
        (void)prover_send_locked(&p, IPC_PROVER_READY, &ready, sizeof(ready), NULL, 0);
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
