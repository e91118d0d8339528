/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How the API server and the loop that drives it meet. The server owns no
 * loop: it asks the daemon's loop (sd-event in cuzkd, api-poll-loop.h in
 * tests and small tools) to watch its file descriptors, and the loop calls
 * back when they are ready. Event bits are poll()'s POLLIN/POLLOUT/POLLHUP/
 * POLLERR, which have the same values as EPOLLIN/... that sd-event takes.
 *
 * For sd-event the glue is three lines per function: io_add is
 * sd_event_add_io() with a handler that calls `callback`, io_set_events is
 * sd_event_source_set_io_events(), io_remove is
 * sd_event_source_disable_unref(). The timers are sd_event_add_time() on
 * CLOCK_MONOTONIC, one-shot, armed again with sd_event_source_set_time().
 */
#pragma once

#include <stdint.h>

/* Called by the loop when fd is ready; revents holds the ready bits. */
typedef void (*api_io_callback)(int fd, uint32_t revents, void *userdata);
/* Called by the loop once the time a timer was armed for has come. */
typedef void (*api_timer_callback)(void *userdata);

/* A timer armed for this time never fires. */
#define API_TIMER_NEVER UINT64_MAX

struct api_event_loop {
        /* Starts watching fd for events; *ret_watch identifies the watch. */
        int (*io_add)(void *loop_data, int fd, uint32_t events, api_io_callback callback,
                      void *userdata, void **ret_watch);
        /* Changes the events of a watch. */
        int (*io_set_events)(void *loop_data, void *watch, uint32_t events);
        /* Stops a watch; callback is not called for it after this returns. The
         * fd is the caller's to close. */
        void (*io_remove)(void *loop_data, void *watch);
        /* Timers, one-shot, on CLOCK_MONOTONIC in microseconds (clock_now_usec()).
         * A loop may leave these NULL: the server then times nothing out.
         * timer_add creates a timer armed for usec (API_TIMER_NEVER: disarmed). */
        int (*timer_add)(void *loop_data, uint64_t usec, api_timer_callback callback,
                         void *userdata, void **ret_timer);
        /* Arms the timer again for usec; it fires once (API_TIMER_NEVER: disarms). */
        int (*timer_set)(void *loop_data, void *timer, uint64_t usec);
        /* Deletes the timer; callback is not called for it after this returns. */
        void (*timer_remove)(void *loop_data, void *timer);
        void *loop_data;
};
