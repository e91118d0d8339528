/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "common/log.h"
#include "daemon/supervisor/api-sd-event.h"

/* What an io source carries: the server's callback and its userdata. */
struct watch {
        sd_event_source *source;
        api_io_callback callback;
        void *userdata;
};

static int on_io(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        struct watch *w = userdata;

        (void)source;
        w->callback(fd, revents, w->userdata);
        return 0;
}

static int io_add(void *loop_data, int fd, uint32_t events, api_io_callback callback,
                  void *userdata, void **ret_watch) {
        struct watch *w;
        int r;

        assert(loop_data);
        assert(fd >= 0);
        assert(callback);
        assert(ret_watch);
        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        w->callback = callback;
        w->userdata = userdata;
        r = sd_event_add_io(loop_data, &w->source, fd, events, on_io, w);
        if (r < 0) {
                free(w);
                return log_error_errno(r, "Failed to watch fd %d on the event loop: %m", fd);
        }
        *ret_watch = w;
        return 0;
}

static int io_set_events(void *loop_data, void *watch, uint32_t events) {
        struct watch *w = watch;

        (void)loop_data;
        assert(w);
        return sd_event_source_set_io_events(w->source, events);
}

static void io_remove(void *loop_data, void *watch) {
        struct watch *w = watch;

        (void)loop_data;
        if (!w)
                return;
        sd_event_source_disable_unref(w->source);
        free(w);
}

/* A timer: its sd-event time source (one-shot) and the server's callback. */
struct timer {
        sd_event_source *source;
        api_timer_callback callback;
        void *userdata;
};

static int on_time(sd_event_source *source, uint64_t usec, void *userdata) {
        struct timer *t = userdata;

        (void)source;
        (void)usec;
        t->callback(t->userdata);
        return 0;
}

static int timer_set(void *loop_data, void *timer, uint64_t usec) {
        struct timer *t = timer;
        int r;

        (void)loop_data;
        assert(t);
        if (usec == API_TIMER_NEVER)
                return sd_event_source_set_enabled(t->source, SD_EVENT_OFF);
        r = sd_event_source_set_time(t->source, usec);
        if (r < 0)
                return r;
        return sd_event_source_set_enabled(t->source, SD_EVENT_ONESHOT);
}

/* Timeouts of seconds: sd-event may coalesce wake-ups within 100 ms. */
#define TIMER_ACCURACY_USEC 100000

static int timer_add(void *loop_data, uint64_t usec, api_timer_callback callback, void *userdata,
                     void **ret_timer) {
        struct timer *t;
        int r;

        assert(loop_data);
        assert(callback);
        assert(ret_timer);
        t = calloc(1, sizeof(*t));
        if (!t)
                return -ENOMEM;
        t->callback = callback;
        t->userdata = userdata;
        r = sd_event_add_time(loop_data, &t->source, CLOCK_MONOTONIC,
                              usec == API_TIMER_NEVER ? 0 : usec, TIMER_ACCURACY_USEC, on_time, t);
        if (r >= 0 && usec == API_TIMER_NEVER)
                r = sd_event_source_set_enabled(t->source, SD_EVENT_OFF);
        if (r < 0) {
                sd_event_source_disable_unref(t->source);
                free(t);
                return log_error_errno(r, "Failed to add a timer to the event loop: %m");
        }
        *ret_timer = t;
        return 0;
}

static void timer_remove(void *loop_data, void *timer) {
        struct timer *t = timer;

        (void)loop_data;
        if (!t)
                return;
        sd_event_source_disable_unref(t->source);
        free(t);
}

void api_sd_event_interface(sd_event *event, struct api_event_loop *ret) {
        assert(event);
        assert(ret);
        *ret = (struct api_event_loop){
                .io_add = io_add,
                .io_set_events = io_set_events,
                .io_remove = io_remove,
                .timer_add = timer_add,
                .timer_set = timer_set,
                .timer_remove = timer_remove,
                .loop_data = event,
        };
}
