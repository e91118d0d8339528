/* SPDX-License-Identifier: Apache-2.0 */
/* The helper processes' log sink (see ipc-log.h). */
#include "ipc-log.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse-number.h"

/* The level, as a number (LOG_ERR 3 .. LOG_DEBUG 7), from the supervisor to
 * the helpers it execs. */
#define LOG_LEVEL_ENV "CUZKD_HELPER_LOG_LEVEL"

static char last_error[1024];
static const char *role = "helper";
/* The prover logs from several threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void sink(int level, const char *message, void *userdata) {
        (void)userdata;
        pthread_mutex_lock(&lock);
        if (level <= LOG_ERR)
                snprintf(last_error, sizeof(last_error), "%s", message);
        fprintf(stderr, "cuzkd %s[%d]: %s\n", role, (int)getpid(), message);
        pthread_mutex_unlock(&lock);
}

void ipc_log_setup(const char *who) {
        assert(who);
        role = who;
        last_error[0] = 0;
        log_set_sink(sink, NULL);
        const char *level = getenv(LOG_LEVEL_ENV);
        uint64_t n;
        if (level && parse_unsigned_range(level, LOG_EMERG, LOG_DEBUG, 10, &n) == 0)
                log_set_max_level((int)n);
        else if (level)
                log_warning("%s=\"%s\": expected a level 0 to 7; logging at the default",
                            LOG_LEVEL_ENV, level);
}

void ipc_log_export_level(int level) {
        char text[8];

        snprintf(text, sizeof(text), "%d", level);
        if (setenv(LOG_LEVEL_ENV, text, 1) < 0)
                log_warning_errno(errno, "Setting %s=%s for the helpers: %m", LOG_LEVEL_ENV, text);
}

const char *ipc_log_last_error(void) {
        static _Thread_local char copy[sizeof(last_error)];

        pthread_mutex_lock(&lock);
        memcpy(copy, last_error, sizeof(copy));
        pthread_mutex_unlock(&lock);
        return copy;
}
