/* SPDX-License-Identifier: Apache-2.0 */
/* The intake thread: submissions checked and spooled off the event loop (see intake.h). */
#include "daemon/supervisor/intake.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/job-table.h"
#include "daemon/supervisor/peer-files.h"

struct intake {
        sd_event_source *done_source; /* the eventfd the thread writes */
        int done_fd;
        struct spool *spool; /* borrowed; the thread spools with it */
        uint64_t max_queued_bytes;
        intake_done_fn done;
        void *userdata;

        /* The loop's: every item from intake_queue() to its done callback. */
        struct intake_item *pending;
        unsigned n_pending;

        /* Shared with the thread, under lock. */
        pthread_mutex_t lock;
        pthread_cond_t wake;
        struct intake_item *queue, **queue_tail;       /* for the thread, in arrival order */
        struct intake_item *finished, **finished_tail; /* back to the loop */
        uint64_t queued_bytes;
        bool stopping;

        pthread_t thread;
        bool thread_started;
};

static void request_unref(Cuzk__V1__SubmitProofRequest **request) {
        if (*request)
                cuzk__v1__submit_proof_request__free_unpacked(*request, NULL);
}

/* A deep copy, through the wire format: the request outlives the handler that got it. */
static int request_copy(const Cuzk__V1__SubmitProofRequest *request,
                        Cuzk__V1__SubmitProofRequest **ret, size_t *ret_bytes) {
        size_t size = cuzk__v1__submit_proof_request__get_packed_size(request);
        _cleanup_free_ uint8_t *packed = malloc(size ? size : 1);

        if (!packed)
                return -ENOMEM;
        if (cuzk__v1__submit_proof_request__pack(request, packed) != size)
                return -EIO;
        *ret = cuzk__v1__submit_proof_request__unpack(NULL, size, packed);
        if (!*ret)
                return -ENOMEM;
        *ret_bytes = size;
        return 0;
}

static int dup_or_null(const char *s, char **ret) {
        *ret = NULL;
        if (!s)
                return 0;
        *ret = strdup(s);
        return *ret ? 0 : -ENOMEM;
}

int intake_item_new(const char *job_id, const Cuzk__V1__SubmitProofRequest *request,
                    const struct api_peer *owner, uint64_t submitted_usec,
                    const struct job_settings *settings, bool from_spool, const char *input_path,
                    struct intake_item **ret) {
        _cleanup_(request_unref) Cuzk__V1__SubmitProofRequest *copy = NULL;
        struct intake_item *item;
        size_t bytes = 0;
        int r;

        assert(job_id && request && owner && settings && ret);
        r = request_copy(request, &copy, &bytes);
        if (r < 0)
                return r;
        item = calloc(1, sizeof(*item));
        if (!item)
                return -ENOMEM;
        snprintf(item->job_id, sizeof(item->job_id), "%s", job_id);
        item->request = TAKE_PTR(copy);
        item->owner = *owner;
        item->submitted_usec = submitted_usec;
        item->from_spool = from_spool;
        item->bytes = bytes;
        /* Copies: a reload (SIGHUP) rewrites the configuration the settings point into. */
        item->settings = *settings;
        item->settings.files = NULL; /* the owner's, made on the thread */
        if (dup_or_null(input_path, &item->input_path) < 0 ||
            dup_or_null(settings->parameter_cache, &item->parameter_cache) < 0 ||
            dup_or_null(settings->pce_cache, &item->pce_cache) < 0) {
                intake_item_free(item);
                return -ENOMEM;
        }
        item->settings.parameter_cache = item->parameter_cache;
        item->settings.pce_cache = item->pce_cache;
        *ret = item;
        return 0;
}

struct intake_item *intake_item_free(struct intake_item *item) {
        if (!item)
                return NULL;
        while (item->waiters) {
                struct intake_waiter *w = item->waiters;

                item->waiters = w->next;
                free(w);
        }
        request_unref(&item->request);
        job_free(item->job);
        free(item->input_path);
        free(item->parameter_cache);
        free(item->pce_cache);
        free(item);
        return NULL;
}

int intake_item_wait(struct intake_item *item, struct api_call *call, bool prove) {
        struct intake_waiter *w;

        assert(item);
        assert(call);
        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        *w = (struct intake_waiter){.next = item->waiters, .call = call, .prove = prove};
        item->waiters = w;
        return 0;
}

/* A PoRep job whose C1 output or parameters are wrong is accepted as a job that FAILED at
 * once, with the reason, as the reference daemon answers Curio (it awaits every job it
 * submitted); other kinds' bad requests are refused. */
static bool fails_as_job(const Cuzk__V1__SubmitProofRequest *request, int r) {
        return request->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && r != -ENOMEM;
}

/* Spools a new job that failed its check, with its FAILED result; its inline input is
 * never read, and stays out. */
static int spool_failed(struct intake *in, struct intake_item *item) {
        Cuzk__V1__AwaitProofResponse failed = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        Cuzk__V1__SubmitProofRequest without_input = *item->request;
        int r;

        without_input.wtns = (ProtobufCBinaryData){0};
        without_input.vanilla_proof = (ProtobufCBinaryData){0};
        r = spool_save_job(in->spool, item->job_id, &without_input, item->submitted_usec,
                           &item->owner, NULL);
        if (r < 0)
                return r;
        failed.job_id = item->job_id;
        failed.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        failed.error_message = item->message;
        failed.total_ms = (item->finished_usec - item->submitted_usec) / 1000;
        r = spool_save_result(in->spool, item->job_id, &failed);
        if (r < 0)
                (void)spool_remove_job(in->spool, item->job_id);
        return r;
}

/* A new submission that passed its check (or fails as a job): to disk. */
static void spool_new(struct intake *in, struct intake_item *item, int check) {
        int r;

        if (check < 0) {
                r = spool_failed(in, item);
        } else {
                r = spool_save_job(in->spool, item->job_id, item->request, item->submitted_usec,
                                   &item->owner, &item->input_path);
                if (r >= 0 && job_set_input_path(item->job, item->input_path) < 0) {
                        (void)spool_remove_job(in->spool, item->job_id);
                        r = -ENOMEM;
                }
        }
        if (r < 0) {
                item->job = job_free(item->job);
                item->outcome = INTAKE_REFUSED;
                item->error = r;
                item->spool_error = true;
                snprintf(item->message, sizeof(item->message), "cannot spool the job: %s",
                         strerror(-r));
                return;
        }
        item->outcome = check < 0 ? INTAKE_FAILED : INTAKE_ACCEPTED;
}

/* The check (with the owner's rights), then the spool: on the intake thread. */
static void intake_process(struct intake *in, struct intake_item *item) {
        struct peer_files files;
        struct job_settings settings = item->settings;
        int r;

        peer_files_init(&files, &item->owner);
        settings.files = &files;
        r = job_new(item->job_id, item->request, item->input_path, item->submitted_usec, &settings,
                    &item->job, item->message, sizeof(item->message));
        item->finished_usec = job_now_usec();
        item->error = r < 0 ? r : 0;
        if (item->from_spool) {
                /* Accepted before: it runs, or fails for good with the reason. */
                item->outcome = r < 0 ? INTAKE_FAILED : INTAKE_ACCEPTED;
                return;
        }
        if (r < 0 && !fails_as_job(item->request, r)) {
                item->outcome = INTAKE_REFUSED;
                return;
        }
        spool_new(in, item, r);
}

static void *intake_thread(void *userdata) {
        struct intake *in = userdata;
        const uint64_t one = 1;

        pthread_mutex_lock(&in->lock);
        for (;;) {
                struct intake_item *item;

                while (!in->stopping && !in->queue)
                        pthread_cond_wait(&in->wake, &in->lock);
                if (in->stopping)
                        break;
                item = in->queue;
                in->queue = item->queue_next;
                if (!in->queue)
                        in->queue_tail = &in->queue;
                in->queued_bytes -= item->bytes;
                pthread_mutex_unlock(&in->lock);

                intake_process(in, item);

                pthread_mutex_lock(&in->lock);
                item->queue_next = NULL;
                *in->finished_tail = item;
                in->finished_tail = &item->queue_next;
                /* Only a full counter (2^64 - 2 unread wakes) could refuse it. */
                if (write(in->done_fd, &one, sizeof(one)) < 0)
                        log_warning_errno(errno, "intake: cannot wake the event loop: %m");
        }
        pthread_mutex_unlock(&in->lock);
        return NULL;
}

static void pending_remove(struct intake *in, struct intake_item *item) {
        if (item->prev)
                item->prev->next = item->next;
        else
                in->pending = item->next;
        if (item->next)
                item->next->prev = item->prev;
        item->prev = item->next = NULL;
        in->n_pending--;
}

/* The loop's side: every finished item to the done callback, in the order they finished. */
static int on_done(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        struct intake *in = userdata;
        struct intake_item *finished;
        uint64_t count;

        (void)source;
        (void)revents;
        if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
                return log_error_errno(errno, "intake: cannot read its eventfd: %m");
        pthread_mutex_lock(&in->lock);
        finished = in->finished;
        in->finished = NULL;
        in->finished_tail = &in->finished;
        pthread_mutex_unlock(&in->lock);
        while (finished) {
                struct intake_item *item = finished;

                finished = item->queue_next;
                pending_remove(in, item);
                in->done(in->userdata, item);
                intake_item_free(item);
        }
        return 0;
}

int intake_new(sd_event *event, struct spool *spool, uint64_t max_queued_bytes, intake_done_fn done,
               void *userdata, struct intake **ret) {
        _cleanup_free_ struct intake *in = NULL;
        int r;

        assert(event && spool && done && ret);
        in = calloc(1, sizeof(*in));
        if (!in)
                return log_error_errno(ENOMEM, "intake: out of memory");
        *in = (struct intake){.spool = spool,
                              .max_queued_bytes = max_queued_bytes,
                              .done = done,
                              .userdata = userdata};
        in->queue_tail = &in->queue;
        in->finished_tail = &in->finished;
        in->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (in->done_fd < 0)
                return log_error_errno(errno, "intake: cannot create an eventfd: %m");
        r = sd_event_add_io(event, &in->done_source, in->done_fd, EPOLLIN, on_done, in);
        if (r < 0) {
                close(in->done_fd);
                return log_error_errno(r, "intake: cannot watch its eventfd: %m");
        }
        pthread_mutex_init(&in->lock, NULL);
        pthread_cond_init(&in->wake, NULL);
        /* Signals stay blocked in it (the loop's signalfd takes them): inherited. */
        r = -pthread_create(&in->thread, NULL, intake_thread, in);
        if (r < 0) {
                sd_event_source_disable_unref(in->done_source);
                close(in->done_fd);
                return log_error_errno(r, "intake: cannot start its thread: %m");
        }
        (void)pthread_setname_np(in->thread, "cuzkd-intake");
        in->thread_started = true;
        *ret = TAKE_PTR(in);
        return 0;
}

struct intake *intake_free(struct intake *in) {
        if (!in)
                return NULL;
        if (in->thread_started) {
                pthread_mutex_lock(&in->lock);
                in->stopping = true;
                pthread_cond_signal(&in->wake);
                pthread_mutex_unlock(&in->lock);
                pthread_join(in->thread, NULL);
        }
        /* Queued, finished or not: each is on the pending list. */
        while (in->pending) {
                struct intake_item *item = in->pending;

                pending_remove(in, item);
                intake_item_free(item);
        }
        sd_event_source_disable_unref(in->done_source);
        close(in->done_fd);
        pthread_cond_destroy(&in->wake);
        pthread_mutex_destroy(&in->lock);
        free(in);
        return NULL;
}

int intake_queue(struct intake *in, struct intake_item *item) {
        assert(in);
        assert(item);
        pthread_mutex_lock(&in->lock);
        /* A reloaded job was accepted before (and its inline input is a file already). */
        if (!item->from_spool && in->queue &&
            in->queued_bytes + item->bytes > in->max_queued_bytes) {
                pthread_mutex_unlock(&in->lock);
                return -ENOBUFS;
        }
        in->queued_bytes += item->bytes;
        item->queue_next = NULL;
        *in->queue_tail = item;
        in->queue_tail = &item->queue_next;
        pthread_cond_signal(&in->wake);
        pthread_mutex_unlock(&in->lock);

        item->prev = NULL;
        item->next = in->pending;
        if (in->pending)
                in->pending->prev = item;
        in->pending = item;
        in->n_pending++;
        return 0;
}

struct intake_item *intake_find_request(const struct intake *in, const struct api_peer *owner,
                                        const char *request_id) {
        uint64_t scope;

        assert(in);
        assert(owner);
        if (!request_id || !*request_id)
                return NULL;
        scope = job_table_owner_scope(owner);
        for (struct intake_item *item = in->pending; item; item = item->next)
                if (item->request->request_id && !strcmp(item->request->request_id, request_id) &&
                    job_table_owner_scope(&item->owner) == scope)
                        return item;
        return NULL;
}

bool intake_abandon(struct intake *in, struct api_call *call) {
        assert(in);
        assert(call);
        for (struct intake_item *item = in->pending; item; item = item->next)
                for (struct intake_waiter **w = &item->waiters; *w; w = &(*w)->next)
                        if ((*w)->call == call) {
                                struct intake_waiter *gone = *w;

                                *w = gone->next;
                                free(gone);
                                log_debug("a client stopped waiting for the check of job %s",
                                          item->job_id);
                                return true;
                        }
        return false;
}

unsigned intake_pending_count(const struct intake *in) {
        assert(in);
        return in->n_pending;
}

unsigned intake_pending_of(const struct intake *in, const struct api_peer *owner) {
        uint64_t scope;
        unsigned n = 0;

        assert(in);
        assert(owner);
        scope = job_table_owner_scope(owner);
        for (const struct intake_item *item = in->pending; item; item = item->next)
                n += !item->from_spool && job_table_owner_scope(&item->owner) == scope;
        return n;
}
