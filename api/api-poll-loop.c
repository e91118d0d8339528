/* SPDX-License-Identifier: Apache-2.0 */
#include "api-poll-loop.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"

struct poll_watch {
        int fd;
        uint32_t events;
        api_io_callback callback;
        void *userdata;
        bool removed; /* freed after the dispatch pass that may still hold it */
};

struct poll_timer {
        uint64_t usec; /* API_TIMER_NEVER: disarmed */
        api_timer_callback callback;
        void *userdata;
        bool removed; /* as for watches */
};

struct api_poll_loop {
        struct api_event_loop interface;
        int quit_fd; /* eventfd: written by api_poll_loop_quit() */
        struct poll_watch **watches;
        size_t n_watches, allocated;
        struct poll_timer **timers;
        size_t n_timers, timers_allocated;
        bool dispatching;
};

/* Makes room for one more pointer in *array (of *n used, *allocated). */
static int grow_pointer_array(void ***array, size_t n, size_t *allocated) {
        void **grown;
        size_t size;

        if (n < *allocated)
                return 0;
        size = *allocated ? *allocated * 2 : 16;
        grown = realloc(*array, size * sizeof(*grown));
        if (!grown)
                return -ENOMEM;
        *array = grown;
        *allocated = size;
        return 0;
}

static int poll_loop_io_add(void *loop_data, int fd, uint32_t events, api_io_callback callback,
                            void *userdata, void **ret_watch) {
        struct api_poll_loop *loop = loop_data;
        struct poll_watch *w;

        assert(loop);
        assert(fd >= 0);
        assert(callback);
        assert(ret_watch);

        if (grow_pointer_array((void ***)&loop->watches, loop->n_watches, &loop->allocated) < 0)
                return -ENOMEM;
        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        *w = (struct poll_watch){
                .fd = fd, .events = events, .callback = callback, .userdata = userdata};
        loop->watches[loop->n_watches++] = w;
        *ret_watch = w;
        return 0;
}

static int poll_loop_io_set_events(void *loop_data, void *watch, uint32_t events) {
        struct poll_watch *w = watch;

        assert(loop_data);
        assert(w && !w->removed);
        w->events = events;
        return 0;
}

static int poll_loop_timer_add(void *loop_data, uint64_t usec, api_timer_callback callback,
                               void *userdata, void **ret_timer) {
        struct api_poll_loop *loop = loop_data;
        struct poll_timer *t;

        assert(loop);
        assert(callback);
        assert(ret_timer);

        if (grow_pointer_array((void ***)&loop->timers, loop->n_timers, &loop->timers_allocated) <
            0)
                return -ENOMEM;
        t = calloc(1, sizeof(*t));
        if (!t)
                return -ENOMEM;
        *t = (struct poll_timer){.usec = usec, .callback = callback, .userdata = userdata};
        loop->timers[loop->n_timers++] = t;
        *ret_timer = t;
        return 0;
}

static int poll_loop_timer_set(void *loop_data, void *timer, uint64_t usec) {
        struct poll_timer *t = timer;

        assert(loop_data);
        assert(t && !t->removed);
        t->usec = usec;
        return 0;
}

/* Drops removed watches and timers; only outside a dispatch pass, which holds pointers. */
static void poll_loop_compact(struct api_poll_loop *loop) {
        size_t kept = 0;

        for (size_t i = 0; i < loop->n_watches; i++) {
                if (loop->watches[i]->removed) {
                        free(loop->watches[i]);
                        continue;
                }
                loop->watches[kept++] = loop->watches[i];
        }
        loop->n_watches = kept;
        kept = 0;
        for (size_t i = 0; i < loop->n_timers; i++) {
                if (loop->timers[i]->removed) {
                        free(loop->timers[i]);
                        continue;
                }
                loop->timers[kept++] = loop->timers[i];
        }
        loop->n_timers = kept;
}

static void poll_loop_timer_remove(void *loop_data, void *timer) {
        struct api_poll_loop *loop = loop_data;
        struct poll_timer *t = timer;

        assert(loop);
        if (!t)
                return;
        t->removed = true;
        if (!loop->dispatching)
                poll_loop_compact(loop);
}

/* poll()'s timeout: timeout_ms, or less when a timer is due sooner. */
static int poll_loop_timeout_ms(const struct api_poll_loop *loop, int timeout_ms) {
        uint64_t now = clock_now_usec();

        for (size_t i = 0; i < loop->n_timers; i++) {
                const struct poll_timer *t = loop->timers[i];
                uint64_t ms;

                if (t->removed || t->usec == API_TIMER_NEVER)
                        continue;
                /* Rounded up: waking before the time would spin. */
                ms = t->usec <= now ? 0 : (t->usec - now + 999) / 1000;
                if (timeout_ms < 0 || ms < (uint64_t)timeout_ms)
                        timeout_ms = ms > INT32_MAX ? INT32_MAX : (int)ms;
        }
        return timeout_ms;
}

/* Calls the timers that are due; each fires once and is disarmed first. Timers
 * added by the callbacks wait for the next pass. */
static void poll_loop_fire_timers(struct api_poll_loop *loop) {
        uint64_t now = clock_now_usec();
        size_t n = loop->n_timers;

        for (size_t i = 0; i < n; i++) {
                struct poll_timer *t = loop->timers[i];

                if (t->removed || t->usec == API_TIMER_NEVER || t->usec > now)
                        continue;
                t->usec = API_TIMER_NEVER;
                t->callback(t->userdata);
        }
}

static void poll_loop_io_remove(void *loop_data, void *watch) {
        struct api_poll_loop *loop = loop_data;
        struct poll_watch *w = watch;

        assert(loop);
        if (!w)
                return;
        w->removed = true;
        if (!loop->dispatching)
                poll_loop_compact(loop);
}

int api_poll_loop_new(struct api_poll_loop **ret) {
        struct api_poll_loop *loop;

        assert(ret);

        loop = calloc(1, sizeof(*loop));
        if (!loop)
                return -ENOMEM;
        loop->quit_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (loop->quit_fd < 0) {
                int r = -errno;
                free(loop);
                return r;
        }
        loop->interface = (struct api_event_loop){
                .io_add = poll_loop_io_add,
                .io_set_events = poll_loop_io_set_events,
                .io_remove = poll_loop_io_remove,
                .timer_add = poll_loop_timer_add,
                .timer_set = poll_loop_timer_set,
                .timer_remove = poll_loop_timer_remove,
                .loop_data = loop,
        };
        *ret = loop;
        return 0;
}

void api_poll_loop_free(struct api_poll_loop *loop) {
        if (!loop)
                return;
        for (size_t i = 0; i < loop->n_watches; i++)
                free(loop->watches[i]);
        free(loop->watches);
        for (size_t i = 0; i < loop->n_timers; i++)
                free(loop->timers[i]);
        free(loop->timers);
        close(loop->quit_fd);
        free(loop);
}

const struct api_event_loop *api_poll_loop_interface(struct api_poll_loop *loop) {
        assert(loop);
        return &loop->interface;
}

int api_poll_loop_run_once(struct api_poll_loop *loop, int timeout_ms) {
        _cleanup_free_ struct pollfd *fds = NULL;
        _cleanup_free_ struct poll_watch **snapshot = NULL;
        size_t n;
        int r;

        assert(loop);

        /* Dispatch works on a snapshot: callbacks may add or remove watches. */
        n = loop->n_watches;
        fds = calloc(n + 1, sizeof(*fds));
        snapshot = calloc(n + 1, sizeof(*snapshot));
        if (!fds || !snapshot)
                return -ENOMEM;
        fds[0] = (struct pollfd){.fd = loop->quit_fd, .events = POLLIN};
        for (size_t i = 0; i < n; i++) {
                snapshot[i] = loop->watches[i];
                /* A watch with no events is parked: poll() skips negative fds. */
                fds[i + 1] = (struct pollfd){
                        .fd = snapshot[i]->events ? snapshot[i]->fd : -1,
                        .events = (short)snapshot[i]->events,
                };
        }

        r = poll(fds, n + 1, poll_loop_timeout_ms(loop, timeout_ms));
        if (r < 0)
                return errno == EINTR ? 0 : -errno;
        if (fds[0].revents & POLLIN)
                return -ECANCELED;

        loop->dispatching = true;
        for (size_t i = 0; i < n; i++) {
                struct poll_watch *w = snapshot[i];
                if (fds[i + 1].revents == 0 || w->removed)
                        continue;
                w->callback(w->fd, (uint32_t)fds[i + 1].revents, w->userdata);
        }
        poll_loop_fire_timers(loop);
        loop->dispatching = false;
        poll_loop_compact(loop);
        return 0;
}

int api_poll_loop_run(struct api_poll_loop *loop) {
        int r;

        assert(loop);
        for (;;) {
                r = api_poll_loop_run_once(loop, -1);
                if (r == -ECANCELED)
                        return 0;
                if (r < 0)
                        return r;
        }
}

void api_poll_loop_quit(struct api_poll_loop *loop) {
        uint64_t one = 1;

        assert(loop);
        /* Cannot fail short of a full counter, which needs 2^64 - 1 calls. */
        if (write(loop->quit_fd, &one, sizeof(one)) < 0)
                return;
}
