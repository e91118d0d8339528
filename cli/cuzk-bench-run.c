/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The batch: one thread per job in flight, each with its own connection
 * (the blocking client holds one call at a time per thread), taking the
 * next job index until none is left. The main thread waits for them,
 * samples GetStatus on a connection of its own and, on a terminal, keeps a
 * live progress line below the per-proof lines.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "common/format-bytes.h"
#include "cuzk-bench.h"

#define STATUS_INTERVAL_MS 250
#define STATUS_TIMEOUT_MS 2000

struct batch {
        const struct bench_options *o;
        const Cuzk__V1__SubmitProofRequest *request;
        FILE *out;
        bool progress; /* out is a terminal: keep a live line */
        struct bench_job *jobs;
        char request_prefix[64];
        double start;

        pthread_mutex_t lock; /* everything below, and writes to out */
        pthread_cond_t changed;
        unsigned next, running, finished, failed;
};

int bench_connect(const struct bench_options *o, struct api_client **ret) {
        int r;

        assert(o);
        assert(ret);

        if (o->tcp_host[0]) {
                r = api_client_connect_tcp(o->tcp_host, o->tcp_port, ret);
                if (r < 0)
                        return log_error_errno(r, "cannot connect to %s port %u: %m", o->tcp_host,
                                               o->tcp_port);
                return 0;
        }
        r = api_client_connect_unix(o->socket_path, ret);
        if (r < 0)
                return log_error_errno(r, "cannot connect to %s: %m%s", o->socket_path,
                                       r == -ENOENT || r == -ECONNREFUSED ? " (is cuzkd running?)"
                                                                          : "");
        return 0;
}

/* Called with the lock held. */
static void clear_progress(struct batch *b) {
        if (b->progress)
                fputs("\r\033[K", b->out);
}

static void draw_progress(struct batch *b, const struct bench_memory *memory) {
        char reserved[32], budget[32];

        if (!b->progress)
                return;
        clear_progress(b);
        fprintf(b->out, "[%u/%u] %u running, %u failed, %.1fs", b->finished, b->o->count,
                b->running, b->failed, clock_now_seconds() - b->start);
        if (memory->status_samples > 0 && memory->budget_bytes > 0) {
                format_bytes(reserved, sizeof(reserved), memory->reserved_bytes);
                format_bytes(budget, sizeof(budget), memory->budget_bytes);
                fprintf(b->out, ", %s of %s reserved", reserved, budget);
        }
        fflush(b->out);
}

/* The job's wall time (from t0) and when it ended (from the batch's start),
 * from one reading of the clock. */
static void job_ended(const struct batch *b, struct bench_job *job, double t0) {
        const double now = clock_now_seconds();

        job->sample.wall_seconds = now - t0;
        job->sample.end_seconds = now - b->start;
}

/* One Prove call; fills the job's outcome. Frees *client after a transport
 * error, so that the next job reconnects. */
static void run_job(struct batch *b, unsigned index, struct api_client **client) {
        struct bench_job *job = &b->jobs[index];
        Cuzk__V1__SubmitProofRequest submit = *b->request;
        Cuzk__V1__ProveRequest request = CUZK__V1__PROVE_REQUEST__INIT;
        Cuzk__V1__ProveResponse *answer;
        struct api_call_result result;
        ProtobufCMessage *response = NULL;
        char request_id[96];
        double t0 = clock_now_seconds();
        int r;

        /* Distinct ids: the daemon would answer a repeated id with the same job. */
        snprintf(request_id, sizeof(request_id), "%s-%u", b->request_prefix, index);
        submit.request_id = request_id;
        request.submit = &submit;

        if (!*client && bench_connect(b->o, client) < 0) {
                snprintf(job->error, sizeof(job->error), "cannot connect to the daemon");
                job_ended(b, job, t0);
                return;
        }
        r = api_client_call(*client, API_METHOD_PROVE, &request.base, -1, &result, &response);
        job_ended(b, job, t0);
        if (r < 0) {
                snprintf(job->error, sizeof(job->error), "Prove: %s", strerror(-r));
                api_client_free(*client);
                *client = NULL;
        } else if (!response)
                snprintf(job->error, sizeof(job->error), "Prove: %s%s%s",
                         result.grpc_status < 0 ? "no status from the daemon"
                                                : grpc_status_name(result.grpc_status),
                         result.message ? ": " : "", result.message ? result.message : "");
        api_call_result_done(&result);
        if (!response)
                return;

        answer = (Cuzk__V1__ProveResponse *)response;
        /* Keep the result, drop its envelope (free_unpacked frees nested
         * messages one by one, so the result can be freed on its own). */
        job->response = TAKE_PTR(answer->result);
        protobuf_c_message_free_unpacked(response, NULL);
        if (!job->response) {
                snprintf(job->error, sizeof(job->error), "Prove: the daemon sent no result");
                return;
        }
        job->sample.prove_ms = job->response->gpu_compute_ms;
        job->sample.queue_ms = job->response->queue_wait_ms;
        job->sample.completed =
                job->response->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        if (!job->sample.completed)
                snprintf(job->error, sizeof(job->error), "%s",
                         job->response->error_message && job->response->error_message[0]
                                 ? job->response->error_message
                                 : "no error message from the daemon");
}

static void *worker(void *userdata) {
        struct batch *b = userdata;
        struct api_client *client = NULL;

        for (;;) {
                unsigned index;
                struct bench_job *job;

                pthread_mutex_lock(&b->lock);
                if (b->next >= b->o->count) {
                        pthread_mutex_unlock(&b->lock);
                        break;
                }
                index = b->next++;
                b->running++;
                pthread_cond_broadcast(&b->changed);
                pthread_mutex_unlock(&b->lock);

                run_job(b, index, &client);
                job = &b->jobs[index];

                pthread_mutex_lock(&b->lock);
                b->running--;
                b->finished++;
                b->failed += !job->sample.completed;
                clear_progress(b);
                bench_print_result_line(b->out, b->finished, b->o->count,
                                        job->response ? bench_status_label(job->response->status)
                                                      : "FAILED",
                                        &job->sample, job->error);
                fflush(b->out);
                pthread_cond_broadcast(&b->changed);
                pthread_mutex_unlock(&b->lock);
        }
        api_client_free(client);
        return NULL;
}

/* One GetStatus answer into memory and idle; frees *client when the daemon
 * stops answering (sampling is best effort: the batch goes on). */
static void sample_status(struct api_client **client, struct bench_memory *memory,
                          struct bench_idle *idle) {
        Cuzk__V1__GetStatusRequest request = CUZK__V1__GET_STATUS_REQUEST__INIT;
        struct api_call_result result;
        ProtobufCMessage *response = NULL;
        int r;

        if (!*client)
                return;
        r = api_client_call(*client, API_METHOD_GET_STATUS, &request.base, STATUS_TIMEOUT_MS,
                            &result, &response);
        api_call_result_done(&result);
        if (r < 0 || !response) {
                log_debug("GetStatus while the batch runs: no answer, sampling stops");
                api_client_free(*client);
                *client = NULL;
                return;
        }
        bench_memory_add_status(memory, (const Cuzk__V1__GetStatusResponse *)response);
        bench_idle_add_status(idle, (const Cuzk__V1__GetStatusResponse *)response);
        protobuf_c_message_free_unpacked(response, NULL);
}

static void wait_a_little(struct batch *b) {
        struct timespec deadline;

        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_nsec += STATUS_INTERVAL_MS * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
                deadline.tv_sec++;
                deadline.tv_nsec -= 1000000000L;
        }
        (void)pthread_cond_timedwait(&b->changed, &b->lock, &deadline);
}

int bench_run_batch(const struct bench_options *o, const Cuzk__V1__SubmitProofRequest *request,
                    FILE *out, struct bench_job *jobs, double *ret_seconds,
                    struct bench_memory *memory, struct bench_idle *idle) {
        struct batch b = {.o = o, .request = request, .out = out, .jobs = jobs};
        _cleanup_free_ pthread_t *threads = NULL;
        struct api_client *status_client = NULL;
        unsigned n_threads, started = 0;
        int r = 0;

        assert(o);
        assert(request);
        assert(out);
        assert(jobs);
        assert(ret_seconds);
        assert(memory);
        assert(idle);

        n_threads = o->concurrency < o->count ? o->concurrency : o->count;
        threads = calloc(n_threads, sizeof(*threads));
        if (!threads)
                return -ENOMEM;
        memset(jobs, 0, sizeof(*jobs) * o->count);
        b.progress = isatty(fileno(out));
        snprintf(b.request_prefix, sizeof(b.request_prefix), "cuzk-bench-%ld-%lld", (long)getpid(),
                 (long long)time(NULL));
        pthread_mutex_init(&b.lock, NULL);
        pthread_cond_init(&b.changed, NULL);
        /* Status samples are a bonus: without them the batch still runs. */
        if (bench_connect(o, &status_client) < 0)
                status_client = NULL;
        /* Before the first job: where the provers' idle time starts from. */
        sample_status(&status_client, memory, idle);

        b.start = clock_now_seconds();
        for (; started < n_threads; started++) {
                r = -pthread_create(&threads[started], NULL, worker, &b);
                if (r < 0) {
                        log_error_errno(r, "cannot start thread %u of %u: %m", started + 1,
                                        n_threads);
                        /* The started ones finish the batch; no new jobs. */
                        pthread_mutex_lock(&b.lock);
                        if (started > 0)
                                r = 0;
                        else
                                b.next = o->count;
                        pthread_mutex_unlock(&b.lock);
                        break;
                }
        }

        pthread_mutex_lock(&b.lock);
        while (started > 0 && b.finished < o->count) {
                pthread_mutex_unlock(&b.lock);
                sample_status(&status_client, memory, idle);
                pthread_mutex_lock(&b.lock);
                draw_progress(&b, memory);
                if (b.finished < o->count)
                        wait_a_little(&b);
        }
        clear_progress(&b);
        fflush(out);
        pthread_mutex_unlock(&b.lock);

        for (unsigned i = 0; i < started; i++)
                pthread_join(threads[i], NULL);
        *ret_seconds = clock_now_seconds() - b.start;
        /* After the last job: the batch's end, not up to a sampling interval before it. */
        sample_status(&status_client, memory, idle);
        api_client_free(status_client);
        pthread_cond_destroy(&b.changed);
        pthread_mutex_destroy(&b.lock);
        return r;
}

void bench_jobs_free(struct bench_job *jobs, size_t n) {
        for (size_t i = 0; jobs && i < n; i++)
                if (jobs[i].response) {
                        protobuf_c_message_free_unpacked(&jobs[i].response->base, NULL);
                        jobs[i].response = NULL;
                }
}
