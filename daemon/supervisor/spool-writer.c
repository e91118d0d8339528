/* SPDX-License-Identifier: Apache-2.0 */
/* The spool writer thread: results and removals off the event loop (see spool-writer.h). */
#include "daemon/supervisor/spool-writer.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"

struct spool_write {
        struct spool_write *next;
        char job_id[SPOOL_JOB_ID_MAX + 1];
        uint8_t *result; /* the encoded AwaitProofResponse; NULL: remove the job */
        size_t result_size;
        bool remove_input;
        int r; /* set by the thread */
};

struct spool_writer {
        sd_event_source *done_source; /* the eventfd the thread writes */
        int done_fd;
        struct spool *spool; /* borrowed */
        spool_writer_done_fn done;
        void *userdata;

        /* Shared with the thread, under lock. */
        pthread_mutex_t lock;
        pthread_cond_t wake;
        struct spool_write *queue, **queue_tail;       /* in the order queued */
        struct spool_write *finished, **finished_tail; /* written results, back to the loop */
        bool stopping;                                 /* drain the queue, then end */

        pthread_t thread;
        bool thread_started;
};

static struct spool_write *spool_write_free(struct spool_write *w) {
        if (w) {
                free(w->result);
                free(w);
        }
        return NULL;
}

/* A result's write: on the thread, or on the loop when there was no memory to queue it. */
static int save_result_now(struct spool *spool, const char *job_id, const uint8_t *packed,
                           size_t size, bool remove_input) {
        int r = spool_save_result_packed(spool, job_id, packed, size);

        if (remove_input)
                (void)spool_remove_input(spool, job_id); /* never read again */
        return r;
}

static int spool_write_do(struct spool *spool, const struct spool_write *w) {
        if (!w->result)
                return spool_remove_job(spool, w->job_id); /* logs its errors */
        return save_result_now(spool, w->job_id, w->result, w->result_size, w->remove_input);
}

/* Hands a written result back to the loop (removals need no answer). */
static void finished_push(struct spool_writer *sw, struct spool_write *w) {
        const uint64_t one = 1;

        if (!w->result) {
                spool_write_free(w);
                return;
        }
        w->next = NULL;
        *sw->finished_tail = w;
        sw->finished_tail = &w->next;
        /* Only a full counter (2^64 - 2 unread wakes) could refuse it. */
        if (write(sw->done_fd, &one, sizeof(one)) < 0)
                log_warning_errno(errno, "spool writer: cannot wake the event loop: %m");
}

static void *spool_writer_thread(void *userdata) {
        struct spool_writer *sw = userdata;

        pthread_mutex_lock(&sw->lock);
        for (;;) {
                struct spool_write *w;

                while (!sw->stopping && !sw->queue)
                        pthread_cond_wait(&sw->wake, &sw->lock);
                if (!sw->queue)
                        break; /* stopping, and all written */
                w = sw->queue;
                sw->queue = w->next;
                if (!sw->queue)
                        sw->queue_tail = &sw->queue;
                pthread_mutex_unlock(&sw->lock);

                w->r = spool_write_do(sw->spool, w);

                pthread_mutex_lock(&sw->lock);
                finished_push(sw, w);
        }
        pthread_mutex_unlock(&sw->lock);
        return NULL;
}

/* The loop's side: the done callback of each written result, in the order written. */
static int on_written(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        struct spool_writer *sw = userdata;
        struct spool_write *finished;
        uint64_t count;

        (void)source;
        (void)revents;
        if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
                return log_error_errno(errno, "spool writer: cannot read its eventfd: %m");
        pthread_mutex_lock(&sw->lock);
        finished = sw->finished;
        sw->finished = NULL;
        sw->finished_tail = &sw->finished;
        pthread_mutex_unlock(&sw->lock);
        while (finished) {
                struct spool_write *w = finished;

                finished = w->next;
                sw->done(sw->userdata, w->job_id, w->r);
                spool_write_free(w);
        }
        return 0;
}

int spool_writer_new(sd_event *event, struct spool *spool, spool_writer_done_fn done,
                     void *userdata, struct spool_writer **ret) {
        _cleanup_free_ struct spool_writer *sw = NULL;
        int r;

        assert(event && spool && done && ret);
        sw = calloc(1, sizeof(*sw));
        if (!sw)
                return log_error_errno(ENOMEM, "spool writer: out of memory");
        *sw = (struct spool_writer){.spool = spool, .done = done, .userdata = userdata};
        sw->queue_tail = &sw->queue;
        sw->finished_tail = &sw->finished;
        sw->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (sw->done_fd < 0)
                return log_error_errno(errno, "spool writer: cannot create an eventfd: %m");
        r = sd_event_add_io(event, &sw->done_source, sw->done_fd, EPOLLIN, on_written, sw);
        if (r < 0) {
                close(sw->done_fd);
                return log_error_errno(r, "spool writer: cannot watch its eventfd: %m");
        }
        pthread_mutex_init(&sw->lock, NULL);
        pthread_cond_init(&sw->wake, NULL);
        /* Signals stay blocked in it (the loop's signalfd takes them): inherited. */
        r = -pthread_create(&sw->thread, NULL, spool_writer_thread, sw);
        if (r < 0) {
                sd_event_source_disable_unref(sw->done_source);
                close(sw->done_fd);
                pthread_cond_destroy(&sw->wake);
                pthread_mutex_destroy(&sw->lock);
                return log_error_errno(r, "spool writer: cannot start its thread: %m");
        }
        (void)pthread_setname_np(sw->thread, "cuzkd-spool");
        sw->thread_started = true;
        *ret = TAKE_PTR(sw);
        return 0;
}

struct spool_writer *spool_writer_free(struct spool_writer *sw) {
        if (!sw)
                return NULL;
        if (sw->thread_started) {
                pthread_mutex_lock(&sw->lock);
                sw->stopping = true;
                pthread_cond_signal(&sw->wake);
                pthread_mutex_unlock(&sw->lock);
                pthread_join(sw->thread, NULL); /* after the last queued write */
        }
        while (sw->finished) {
                struct spool_write *w = sw->finished;

                sw->finished = w->next;
                spool_write_free(w);
        }
        sd_event_source_disable_unref(sw->done_source);
        close(sw->done_fd);
        pthread_cond_destroy(&sw->wake);
        pthread_mutex_destroy(&sw->lock);
        free(sw);
        return NULL;
}

/* Hands w to the thread. */
static void spool_writer_queue(struct spool_writer *sw, struct spool_write *w) {
        pthread_mutex_lock(&sw->lock);
        assert(!sw->stopping);
        w->next = NULL;
        *sw->queue_tail = w;
        sw->queue_tail = &w->next;
        pthread_cond_signal(&sw->wake);
        pthread_mutex_unlock(&sw->lock);
}

/* A write of job_id; NULL without memory. */
static struct spool_write *spool_write_new(const char *job_id) {
        struct spool_write *w = calloc(1, sizeof(*w));

        if (w)
                snprintf(w->job_id, sizeof(w->job_id), "%s", job_id);
        return w;
}

int spool_writer_save_result(struct spool_writer *sw, const char *job_id,
                             const Cuzk__V1__AwaitProofResponse *result, bool remove_input) {
        _cleanup_free_ uint8_t *packed = NULL;
        struct spool_write *w;
        size_t size = 0;
        int r;

        assert(sw && job_id && result);
        r = spool_result_pack(result, &packed, &size);
        w = r >= 0 ? spool_write_new(job_id) : NULL;
        if (w) {
                w->result = TAKE_PTR(packed);
                w->result_size = size;
                w->remove_input = remove_input;
                spool_writer_queue(sw, w);
                return 0;
        }
        /* No memory to queue it: a slow write on the loop beats a result lost. */
        if (r >= 0) {
                log_warning("spool writer: job %s: out of memory, its result is written on "
                            "the loop",
                            job_id);
                r = save_result_now(sw->spool, job_id, packed, size, remove_input);
        }
        sw->done(sw->userdata, job_id, r);
        return r;
}

void spool_writer_remove_job(struct spool_writer *sw, const char *job_id) {
        struct spool_write *w;

        assert(sw && job_id);
        w = spool_write_new(job_id);
        if (w) {
                spool_writer_queue(sw, w);
                return;
        }
        log_warning("spool writer: job %s: out of memory, removed on the loop", job_id);
        (void)spool_remove_job(sw->spool, job_id);
}
