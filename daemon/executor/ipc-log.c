/* SPDX-License-Identifier: Apache-2.0 */
/* The helper processes' log sink (see ipc-log.h). */
#include "ipc-log.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

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
}

const char *ipc_log_last_error(void) {
        static _Thread_local char copy[sizeof(last_error)];

        pthread_mutex_lock(&lock);
        memcpy(copy, last_error, sizeof(copy));
        pthread_mutex_unlock(&lock);
        return copy;
}
