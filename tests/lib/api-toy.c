/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/api-toy.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "api/api-poll-loop.h"
#include "api/api-server.h"
#include "api/api-socket.h"

#define TOY_MAX_JOBS 256

struct toy_job {
        char job_id[32];
        char request_id[64];
        Cuzk__V1__AwaitProofResponse__Status status; /* UNKNOWN while running */
};

/* An AwaitProof or Prove call waiting for its job. */
struct toy_waiter {
        struct toy_server *toy;
        struct api_call *call;
        unsigned job;
        bool prove; /* answer with a ProveResponse */
        int timer_fd;
        void *timer_watch;
        struct toy_waiter *next;
};

struct toy_server {
        char directory[64];
        char socket_path[128];
        uint16_t tcp_port;
        struct toy_server_options options;
        struct api_poll_loop *loop;
        const struct api_event_loop *loop_interface;
        struct api_server *server;
        pthread_t thread;
        int complete_fd;
        void *complete_watch;

        pthread_mutex_t lock; /* the state below, shared with the test thread */
        struct toy_job jobs[TOY_MAX_JOBS];
        unsigned n_jobs;
        struct toy_waiter *waiters;
        unsigned open_waiters, abandoned;
        uint8_t *last_request[_API_METHOD_COUNT];
        size_t last_request_length[_API_METHOD_COUNT];
        struct api_request_memory_stats memory;
};

const char toy_metrics_text[] = "# HELP cuzk_proofs_completed_total Proofs completed.\n"
                                "# TYPE cuzk_proofs_completed_total counter\n"
                                "cuzk_proofs_completed_total{kind=\"porep\"} 7\n";

void toy_fill_status(void *get_status_response) {
        static Cuzk__V1__GPUStatus gpu0 = {
                PROTOBUF_C_MESSAGE_INIT(&cuzk__v1__gpustatus__descriptor),
                .ordinal = 0,
                .name = (char *)"NVIDIA H200",
                .vram_total_bytes = 150ull << 30,
                .vram_free_bytes = 12345678901ull,
                .current_job_id = (char *)"job-1",
                .current_proof_kind = (char *)"POREP_SEAL_COMMIT",
        };
        static Cuzk__V1__GPUStatus gpu1 = {
                PROTOBUF_C_MESSAGE_INIT(&cuzk__v1__gpustatus__descriptor),
                .ordinal = 1,
                .name = (char *)"NVIDIA H200",
                .vram_total_bytes = 150ull << 30,
                .vram_free_bytes = 150ull << 30,
                .current_job_id = (char *)"",
                .current_proof_kind = (char *)"",
        };
        static Cuzk__V1__GPUStatus *gpus[] = {&gpu0, &gpu1};
        static Cuzk__V1__SRSStatus srs0 = {
                PROTOBUF_C_MESSAGE_INIT(&cuzk__v1__srsstatus__descriptor),
                .circuit_id = (char *)"porep-32g",
                .tier = CUZK__V1__SRSSTATUS__TIER__WARM,
                .size_bytes = 47244640256ull,
                .ref_count = 3,
        };
        static Cuzk__V1__SRSStatus *srs[] = {&srs0};
        static Cuzk__V1__QueueStatus queue0 = {
                PROTOBUF_C_MESSAGE_INIT(&cuzk__v1__queue_status__descriptor),
                .proof_kind = (char *)"POREP_SEAL_COMMIT",
                .pending = 4,
                .in_progress = 2,
        };
        static Cuzk__V1__QueueStatus *queues[] = {&queue0};
        static Cuzk__V1__ProverStatus prover0 = {
                PROTOBUF_C_MESSAGE_INIT(&cuzk__v1__prover_status__descriptor),
                .index = 0,
                .device = (char *)"gpu 0",
                .backend = (char *)"cuda",
                .pid = 4242,
                .ready = true,
                .in_service = true,
                .in_hand = 2,
                .partitions_proved = 10,
                .partitions_failed = 1,
                .restarts = 0,
                .srs_bytes = 3ull << 30,
                .current_job_id = (char *)"job-1",
                .idle_usec = 12345678901ull, /* beyond 32 bits on purpose */
        };
        static Cuzk__V1__ProverStatus *provers[] = {&prover0};
        Cuzk__V1__GetStatusResponse *s = get_status_response;

        *s = (Cuzk__V1__GetStatusResponse)CUZK__V1__GET_STATUS_RESPONSE__INIT;
        s->n_gpus = 2;
        s->gpus = gpus;
        s->n_loaded_srs = 1;
        s->loaded_srs = srs;
        s->n_queues = 1;
        s->queues = queues;
        s->total_proofs_completed = 1ull << 40; /* beyond 32 bits on purpose */
        s->total_proofs_failed = 5;
        s->uptime_seconds = 86400;
        s->pinned_memory_bytes = 1ull << 34;
        s->pinned_memory_limit_bytes = 1ull << 36;
        s->memory_budget_bytes = 700ull << 30;
        s->memory_reserved_bytes = 123ull << 30;
        s->admission_paused = true;
        s->memory_enforcement = (char *)"cgroup2";
        s->stalled_worker_kills = 2;
        s->stalled_prover_kills = 1;
        s->n_provers = 1;
        s->provers = provers;
}

static void record_request(struct toy_server *toy, enum api_method method,
                           const ProtobufCMessage *request) {
        size_t length = protobuf_c_message_get_packed_size(request);
        uint8_t *copy = malloc(length ? length : 1);

        assert(copy);
        protobuf_c_message_pack(request, copy);
        free(toy->last_request[method]);
        toy->last_request[method] = copy;
        toy->last_request_length[method] = length;
        api_server_request_memory(toy->server, &toy->memory);
}

static int find_job(struct toy_server *toy, const char *job_id) {
        for (unsigned i = 0; i < toy->n_jobs; i++)
                if (!strcmp(toy->jobs[i].job_id, job_id))
                        return (int)i;
        return -ENOENT;
}

static void fill_result(const struct toy_server *toy, unsigned job,
                        Cuzk__V1__AwaitProofResponse *result) {
        const struct toy_job *j = &toy->jobs[job];

        *result = (Cuzk__V1__AwaitProofResponse)CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        result->job_id = (char *)j->job_id;
        result->status = j->status;
        if (j->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
                result->proof.data = (uint8_t *)toy->options.proof;
                result->proof.len = toy->options.proof_length;
                result->queue_wait_ms = 1;
                result->srs_load_ms = 2;
                result->synthesis_ms = 3;
                result->gpu_compute_ms = 4;
                result->total_ms = 10;
                result->proof_json = (char *)"{\"protocol\":\"groth16\"}";
                result->public_json = (char *)"[\"33\"]";
        } else if (j->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED) {
                result->error_message = (char *)"cancelled by request";
        }
}

/* Answers an AwaitProof (status as it is now) or a Prove call. */
static int reply_result(struct toy_server *toy, struct api_call *call, unsigned job, bool prove,
                        Cuzk__V1__AwaitProofResponse__Status status_override) {
        Cuzk__V1__AwaitProofResponse result;
        Cuzk__V1__ProveResponse prove_response = CUZK__V1__PROVE_RESPONSE__INIT;

        fill_result(toy, job, &result);
        if (status_override)
                result.status = status_override;
        if (!prove)
                return api_reply(call, &result.base);
        prove_response.result = &result;
        return api_reply(call, &prove_response.base);
}

static void waiter_free(struct toy_waiter *w) {
        if (w->timer_watch)
                w->toy->loop_interface->io_remove(w->toy->loop_interface->loop_data,
                                                  w->timer_watch);
        if (w->timer_fd >= 0)
                close(w->timer_fd);
        free(w);
}

static void waiter_unlink(struct toy_server *toy, struct toy_waiter *w) {
        for (struct toy_waiter **p = &toy->waiters; *p; p = &(*p)->next)
                if (*p == w) {
                        *p = w->next;
                        toy->open_waiters--;
                        return;
                }
}

static void waiter_timeout(int fd, uint32_t revents, void *userdata) {
        struct toy_waiter *w = userdata;
        struct toy_server *toy = w->toy;

        (void)fd;
        (void)revents;
        pthread_mutex_lock(&toy->lock);
        waiter_unlink(toy, w);
        (void)reply_result(toy, w->call, w->job, w->prove,
                           CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
        waiter_free(w);
        pthread_mutex_unlock(&toy->lock);
}

static int add_waiter(struct toy_server *toy, struct api_call *call, unsigned job, bool prove,
                      uint64_t timeout_ms) {
        struct toy_waiter *w = calloc(1, sizeof(*w));
        int r;

        if (!w)
                return -ENOMEM;
        *w = (struct toy_waiter){
                .toy = toy, .call = call, .job = job, .prove = prove, .timer_fd = -1};
        if (timeout_ms > 0) {
                struct itimerspec when = {.it_value = {
                                                  .tv_sec = (time_t)(timeout_ms / 1000),
                                                  .tv_nsec = (long)(timeout_ms % 1000) * 1000000,
                                          }};
                w->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
                if (w->timer_fd < 0 || timerfd_settime(w->timer_fd, 0, &when, NULL) < 0) {
                        waiter_free(w);
                        return -errno;
                }
                r = toy->loop_interface->io_add(toy->loop_interface->loop_data, w->timer_fd, POLLIN,
                                                waiter_timeout, w, &w->timer_watch);
                if (r < 0) {
                        waiter_free(w);
                        return r;
                }
        }
        api_call_set_userdata(call, w);
        w->next = toy->waiters;
        toy->waiters = w;
        toy->open_waiters++;
        return 0;
}

/* Answers every waiter of a job that is no longer running. */
static void wake_waiters(struct toy_server *toy) {
        struct toy_waiter **p = &toy->waiters;

        while (*p) {
                struct toy_waiter *w = *p;
                if (toy->jobs[w->job].status == 0) {
                        p = &w->next;
                        continue;
                }
                *p = w->next;
                toy->open_waiters--;
                (void)reply_result(toy, w->call, w->job, w->prove, 0);
                waiter_free(w);
        }
}

static void complete_jobs_io(int fd, uint32_t revents, void *userdata) {
        struct toy_server *toy = userdata;
        uint64_t count;

        (void)revents;
        if (read(fd, &count, sizeof(count)) < 0)
                return;
        pthread_mutex_lock(&toy->lock);
        for (unsigned i = 0; i < toy->n_jobs; i++)
                if (toy->jobs[i].status == 0)
                        toy->jobs[i].status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        wake_waiters(toy);
        pthread_mutex_unlock(&toy->lock);
}

/* Creates (or, for a repeated request_id, finds) the job of a submission. */
static int submit_job(struct toy_server *toy, const Cuzk__V1__SubmitProofRequest *request,
                      unsigned *ret_job) {
        struct toy_job *j;

        if (request->proof_kind == CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED)
                return -EINVAL;
        if (request->request_id[0])
                for (unsigned i = 0; i < toy->n_jobs; i++)
                        if (!strcmp(toy->jobs[i].request_id, request->request_id)) {
                                *ret_job = i;
                                return 0;
                        }
        if (toy->n_jobs == TOY_MAX_JOBS)
                return -EAGAIN;
        j = &toy->jobs[toy->n_jobs];
        snprintf(j->job_id, sizeof(j->job_id), "job-%u", toy->n_jobs + 1);
        snprintf(j->request_id, sizeof(j->request_id), "%s", request->request_id);
        j->status = toy->options.jobs_stay_running
                            ? 0
                            : CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        *ret_job = toy->n_jobs++;
        return 0;
}

static int toy_submit_proof(struct api_call *call, const Cuzk__V1__SubmitProofRequest *request,
                            void *userdata) {
        struct toy_server *toy = userdata;
        Cuzk__V1__SubmitProofResponse response = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        unsigned job;
        int r;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_SUBMIT_PROOF, &request->base);
        r = submit_job(toy, request, &job);
        if (r >= 0) {
                response.job_id = toy->jobs[job].job_id;
                response.queue_position = job;
                response.assigned_gpu = (char *)"gpu0";
                r = api_reply(call, &response.base);
        }
        pthread_mutex_unlock(&toy->lock);
        return r;
}

static int toy_await_proof(struct api_call *call, const Cuzk__V1__AwaitProofRequest *request,
                           void *userdata) {
        struct toy_server *toy = userdata;
        int job, r;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_AWAIT_PROOF, &request->base);
        job = find_job(toy, request->job_id);
        if (job < 0)
                r = api_reply_error(call, GRPC_STATUS_NOT_FOUND, "no job %s", request->job_id);
        else if (toy->jobs[job].status != 0)
                r = reply_result(toy, call, (unsigned)job, false, 0);
        else
                r = add_waiter(toy, call, (unsigned)job, false, request->timeout_ms);
        pthread_mutex_unlock(&toy->lock);
        return r;
}

static int toy_prove(struct api_call *call, const Cuzk__V1__ProveRequest *request, void *userdata) {
        struct toy_server *toy = userdata;
        unsigned job;
        int r;

        if (!request->submit)
                return -EINVAL;
        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_PROVE, &request->base);
        r = submit_job(toy, request->submit, &job);
        if (r >= 0)
                r = toy->jobs[job].status != 0 ? reply_result(toy, call, job, true, 0)
                                               : add_waiter(toy, call, job, true, 0);
        pthread_mutex_unlock(&toy->lock);
        return r;
}

static int toy_cancel_proof(struct api_call *call, const Cuzk__V1__CancelProofRequest *request,
                            void *userdata) {
        struct toy_server *toy = userdata;
        Cuzk__V1__CancelProofResponse response = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        int job, r = -ENOENT;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_CANCEL_PROOF, &request->base);
        job = find_job(toy, request->job_id);
        if (job >= 0) {
                response.was_running = toy->jobs[job].status == 0;
                if (response.was_running)
                        toy->jobs[job].status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
                wake_waiters(toy);
                r = api_reply(call, &response.base);
        }
        pthread_mutex_unlock(&toy->lock);
        return r;
}

static int toy_get_status(struct api_call *call, const Cuzk__V1__GetStatusRequest *request,
                          void *userdata) {
        struct toy_server *toy = userdata;
        Cuzk__V1__GetStatusResponse response;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_GET_STATUS, &request->base);
        pthread_mutex_unlock(&toy->lock);
        toy_fill_status(&response);
        return api_reply(call, &response.base);
}

static int toy_get_metrics(struct api_call *call, const Cuzk__V1__GetMetricsRequest *request,
                           void *userdata) {
        struct toy_server *toy = userdata;
        Cuzk__V1__GetMetricsResponse response = CUZK__V1__GET_METRICS_RESPONSE__INIT;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_GET_METRICS, &request->base);
        pthread_mutex_unlock(&toy->lock);
        response.prometheus_text = (char *)toy_metrics_text;
        return api_reply(call, &response.base);
}

/* "porep-32g" is loaded; anything else is not. */
static int toy_preload_srs(struct api_call *call, const Cuzk__V1__PreloadSrsRequest *request,
                           void *userdata) {
        struct toy_server *toy = userdata;
        Cuzk__V1__PreloadSrsResponse response = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_PRELOAD_SRS, &request->base);
        pthread_mutex_unlock(&toy->lock);
        if (!request->circuit_id[0])
                return -EINVAL;
        response.already_loaded = !strcmp(request->circuit_id, "porep-32g");
        response.load_time_ms = response.already_loaded ? 0 : 4242;
        return api_reply(call, &response.base);
}

static int toy_evict_srs(struct api_call *call, const Cuzk__V1__EvictSrsRequest *request,
                         void *userdata) {
        struct toy_server *toy = userdata;
        Cuzk__V1__EvictSrsResponse response = CUZK__V1__EVICT_SRS_RESPONSE__INIT;

        pthread_mutex_lock(&toy->lock);
        record_request(toy, API_METHOD_EVICT_SRS, &request->base);
        pthread_mutex_unlock(&toy->lock);
        response.was_loaded = !strcmp(request->circuit_id, "porep-32g");
        response.freed_bytes = response.was_loaded ? 47244640256ull : 0;
        return api_reply(call, &response.base);
}

static void toy_call_abandoned(struct api_call *call, void *userdata) {
        struct toy_server *toy = userdata;
        struct toy_waiter *w = api_call_get_userdata(call);

        pthread_mutex_lock(&toy->lock);
        toy->abandoned++;
        if (w) {
                waiter_unlink(toy, w);
                waiter_free(w);
        }
        pthread_mutex_unlock(&toy->lock);
}

static const struct api_handler toy_handler = {
        .submit_proof = toy_submit_proof,
        .await_proof = toy_await_proof,
        .prove = toy_prove,
        .cancel_proof = toy_cancel_proof,
        .get_status = toy_get_status,
        .get_metrics = toy_get_metrics,
        .preload_srs = toy_preload_srs,
        .evict_srs = toy_evict_srs,
        .call_abandoned = toy_call_abandoned,
};

static void *toy_thread(void *userdata) {
        struct toy_server *toy = userdata;
        int r = api_poll_loop_run(toy->loop);

        if (r < 0)
                fprintf(stderr, "toy server loop: %s\n", strerror(-r));
        return NULL;
}

int toy_server_start(const struct toy_server_options *options, struct toy_server **ret) {
        struct toy_server *toy;
        pthread_mutexattr_t attr;
        int r;

        assert(options);
        assert(ret);

        toy = calloc(1, sizeof(*toy));
        if (!toy)
                return -ENOMEM;
        toy->options = *options;
        toy->complete_fd = -1;
        /* Recursive: api_reply() may call back into call_abandoned(). */
        pthread_mutexattr_init(&attr);
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
        pthread_mutex_init(&toy->lock, &attr);
        pthread_mutexattr_destroy(&attr);

        strcpy(toy->directory, "/tmp/cuzk-test-api-XXXXXX");
        if (!mkdtemp(toy->directory)) {
                r = -errno;
                free(toy);
                return r;
        }
        snprintf(toy->socket_path, sizeof(toy->socket_path), "%s/cuzk.sock", toy->directory);

        r = api_poll_loop_new(&toy->loop);
        if (r < 0)
                goto fail;
        toy->loop_interface = api_poll_loop_interface(toy->loop);
        r = api_server_new(toy->loop_interface, &toy_handler, toy, options->server_options,
                           &toy->server);
        if (r < 0)
                goto fail;
        if (options->socket_activation) {
                int fd;
                /* As systemd would: the socket exists before the server. */
                r = api_socket_listen_unix(toy->socket_path, 0600, &fd);
                if (r >= 0)
                        r = api_server_listen_fd(toy->server, fd);
        } else
                r = api_server_listen_unix(toy->server, toy->socket_path, 0600);
        if (r >= 0 && options->tcp)
                r = api_server_listen_tcp(toy->server, "127.0.0.1", 0);
        if (r >= 0 && options->tcp)
                r = api_server_tcp_port(toy->server, &toy->tcp_port);
        if (r < 0)
                goto fail;
        toy->complete_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (toy->complete_fd < 0) {
                r = -errno;
                goto fail;
        }
        r = toy->loop_interface->io_add(toy->loop_interface->loop_data, toy->complete_fd, POLLIN,
                                        complete_jobs_io, toy, &toy->complete_watch);
        if (r < 0)
                goto fail;
        r = -pthread_create(&toy->thread, NULL, toy_thread, toy);
        if (r < 0)
                goto fail;
        *ret = toy;
        return 0;
fail:
        api_server_free(toy->server);
        api_poll_loop_free(toy->loop);
        if (toy->complete_fd >= 0)
                close(toy->complete_fd);
        unlink(toy->socket_path);
        rmdir(toy->directory);
        free(toy);
        return r;
}

void toy_server_stop(struct toy_server *toy) {
        if (!toy)
                return;
        api_poll_loop_quit(toy->loop);
        pthread_join(toy->thread, NULL);
        /* Abandons open calls, which frees their waiters and timers. */
        api_server_free(toy->server);
        toy->loop_interface->io_remove(toy->loop_interface->loop_data, toy->complete_watch);
        close(toy->complete_fd);
        api_poll_loop_free(toy->loop);
        for (int m = 0; m < _API_METHOD_COUNT; m++)
                free(toy->last_request[m]);
        unlink(toy->socket_path); /* an activation socket is not the server's to remove */
        rmdir(toy->directory);
        pthread_mutex_destroy(&toy->lock);
        free(toy);
}

const char *toy_server_socket(const struct toy_server *toy) {
        assert(toy);
        return toy->socket_path;
}

uint16_t toy_server_tcp_port(const struct toy_server *toy) {
        assert(toy);
        return toy->tcp_port;
}

void toy_server_complete_jobs(struct toy_server *toy) {
        uint64_t one = 1;

        assert(toy);
        if (write(toy->complete_fd, &one, sizeof(one)) < 0)
                abort(); /* an eventfd write only fails on a full counter */
}

int toy_server_last_request(struct toy_server *toy, enum api_method method, uint8_t **ret,
                            size_t *ret_length) {
        int r = -ENOENT;

        assert(toy);
        assert(ret && ret_length);

        pthread_mutex_lock(&toy->lock);
        if (toy->last_request[method]) {
                size_t n = toy->last_request_length[method];
                *ret = malloc(n ? n : 1);
                assert(*ret);
                memcpy(*ret, toy->last_request[method], n);
                *ret_length = n;
                r = 0;
        }
        pthread_mutex_unlock(&toy->lock);
        return r;
}

unsigned toy_server_abandoned_calls(struct toy_server *toy) {
        unsigned n;

        pthread_mutex_lock(&toy->lock);
        n = toy->abandoned;
        pthread_mutex_unlock(&toy->lock);
        return n;
}

void toy_server_request_memory(struct toy_server *toy, struct api_request_memory_stats *ret) {
        pthread_mutex_lock(&toy->lock);
        *ret = toy->memory;
        pthread_mutex_unlock(&toy->lock);
}

unsigned toy_server_open_waiters(struct toy_server *toy) {
        unsigned n;

        pthread_mutex_lock(&toy->lock);
        n = toy->open_waiters;
        pthread_mutex_unlock(&toy->lock);
        return n;
}
