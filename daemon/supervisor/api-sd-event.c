/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

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

void api_sd_event_interface(sd_event *event, struct api_event_loop *ret) {
        assert(event);
        assert(ret);
        *ret = (struct api_event_loop){
                .io_add = io_add,
                .io_set_events = io_set_events,
                .io_remove = io_remove,
                .loop_data = event,
        };
}
