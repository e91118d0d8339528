/* SPDX-License-Identifier: Apache-2.0 */
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int log_max_level = LOG_INFO;
static log_sink_fn log_sink;
static void *log_sink_userdata;

void log_set_max_level(int max_level) {
        log_max_level = max_level;
}

int log_get_max_level(void) {
        return log_max_level;
}

void log_set_sink(log_sink_fn sink, void *userdata) {
        log_sink = sink;
        log_sink_userdata = userdata;
}

int log_internal(int level, int error, const char *fmt, ...) {
        char message[1024];
        va_list ap;
        int saved_errno = errno;

        error = abs(error);
        if (level > log_max_level) {
                errno = saved_errno;
                return -error;
        }

        /* "%m" in fmt is printed by glibc from errno: make it the error we were given. */
        errno = error;
        va_start(ap, fmt);
        vsnprintf(message, sizeof(message), fmt, ap);
        va_end(ap);

        if (log_sink)
                log_sink(level, message, log_sink_userdata);
        else
                fprintf(stderr, "%s\n", message);

        errno = saved_errno;
        return -error;
}
