/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/supervisor/preload.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api-handler.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/log.h"
#include "daemon/supervisor/cuzkd.h"
#include "daemon/supervisor/handlers.h"
#include "daemon/supervisor/job-porep.h"
#include "daemon/supervisor/peer-files.h"
#include "daemon/supervisor/preload-check.h"

/* The size of a circuit file whose header is that of kind: its bytes are reserved, so a
 * file that is not a key (a sparse file, /etc/shadow) is refused here, before that.
 * Opened with the client's rights (files; NULL: the daemon's own, for Preload=), so a
 * client reserves only for files it could read itself. -EINVAL (relative, not a regular
 * file, not a key), -EPERM, -ENOENT or what open(2) says, with a message naming the file
 * and what was expected. */
static int file_bytes(const struct peer_files *files, const char *path, enum preload_file_kind kind,
                      uint64_t *ret, char *message, size_t message_size) {
        _cleanup_close_ int fd = -EBADF;
        uint64_t size = 0;
        int r;

        fd = peer_files_open(files, NULL, path, &size, message, message_size);
        if (fd < 0)
                return fd;
        r = preload_check_header(fd, size, kind, path, message, message_size);
        if (r < 0)
                return r;
        *ret = size;
        return 0;
}

int preload_circuit(struct cuzkd *d, const struct peer_files *files, const char *circuit_id,
                    bool *ret_already, uint64_t *ret_bytes, struct preload_key *ret_key,
                    char *message, size_t message_size) {
        char pce[PATH_MAX], key[PATH_MAX], resolved[2 * PATH_MAX];
        const struct job_settings settings = cuzkd_job_settings(d);
        uint64_t pce_bytes = 0, key_bytes = 0;
        enum job_kind kind;
        int r;

        assert(d && circuit_id && ret_already && ret_bytes && message);
        /* "porep-32g": the circuit PoRep jobs of that size use, its PCE built if need be. */
        if (job_porep_is_circuit_alias(circuit_id)) {
                r = job_porep_circuit_id(circuit_id, &settings, true, resolved, sizeof(resolved),
                                         message, message_size);
                if (r < 0)
                        return r;
                circuit_id = resolved;
        }
        if (job_circuit_key(circuit_id, &kind, key, sizeof(key)) < 0 ||
            strlen(circuit_id) >= sizeof(pce)) {
                snprintf(message, message_size, "circuit %s: a path is too long", circuit_id);
                return -EINVAL;
        }
        if (kind == JOB_SYNTHETIC_PCE) {
                /* PCE+PARAMS: the PCE is what stands before the key */
                snprintf(pce, sizeof(pce), "%.*s", (int)(strlen(circuit_id) - strlen(key) - 1),
                         circuit_id);
                r = file_bytes(files, pce, PRELOAD_FILE_PCE, &pce_bytes, message, message_size);
                if (r < 0)
                        return r;
        }
        r = file_bytes(files, key,
                       kind == JOB_SYNTHETIC_PCE ? PRELOAD_FILE_PARAMS : PRELOAD_FILE_ZKEY,
                       &key_bytes, message, message_size);
        if (r < 0)
                return r;
        *ret_bytes = pce_bytes + key_bytes;
        r = scheduler_preload(d->scheduler, circuit_id, pce_bytes + key_bytes, key_bytes,
                              ret_already);
        if (r == -ENOSPC) {
                snprintf(message, message_size,
                         "circuit %s: %" PRIu64 " bytes (a key copy per prover) do not fit "
                         "the memory budget (%" PRIu64 " of %" PRIu64 " bytes reserved)",
                         circuit_id, pce_bytes + key_bytes, d->budget.reserved_bytes,
                         d->budget.total_bytes);
                return r;
        }
        if (r < 0) {
                snprintf(message, message_size, "circuit %s: %s", circuit_id, strerror(-r));
                return r;
        }
        r = executor_preload_key(d->executor, kind, key, kind == JOB_SYNTHETIC_PCE ? pce : NULL);
        if (r < 0) {
                snprintf(message, message_size, "circuit %s: the provers cannot load it: %s",
                         circuit_id, strerror(-r));
                return r;
        }
        if (ret_key) {
                ret_key->kind = kind;
                snprintf(ret_key->path, sizeof(ret_key->path), "%s", key);
        }
        return 0;
}

unsigned preload_configured(struct cuzkd *d) {
        char list[sizeof(d->config.preload)], *save = NULL;
        unsigned n = 0;

        assert(d);
        snprintf(list, sizeof(list), "%s", d->config.preload);
        for (char *id = strtok_r(list, " \t", &save); id; id = strtok_r(NULL, " \t", &save)) {
                char message[1024];
                uint64_t bytes;
                bool already;
                int r = preload_circuit(d, NULL, id, &already, &bytes, NULL, message,
                                        sizeof(message));

                if (r < 0) {
                        log_error("Preload=%s: %s; not preloaded", id, message);
                        continue;
                }
                log_info("Preload=%s: %" PRIu64 " bytes reserved; every prover loads it now", id,
                         bytes);
                n++;
        }
        return n;
}

/* A PreloadSRS call waiting for the provers' load (preload_answer). */
struct preload_waiter {
        struct preload_waiter *next;
        struct api_call *call;
        struct preload_key key;
        char *circuit_id;
        uint64_t start_usec; /* CLOCK_MONOTONIC */
};

static enum grpc_status preload_status(int r) {
        switch (r) {
        case -ENOMEM:
        case -ENOSPC:
                return GRPC_STATUS_RESOURCE_EXHAUSTED;
        case -ECANCELED:
                return GRPC_STATUS_ABORTED;
        case -ENODEV:
                return GRPC_STATUS_UNAVAILABLE;
        default: /* the key's contents: the prover could not decode it */
                return GRPC_STATUS_INVALID_ARGUMENT;
        }
}

/* Answers the call when the load is settled; returns whether it was. already: the key
 * was in before the call (settled at once, and reserved before). */
static bool preload_settled(struct cuzkd *d, struct api_call *call, const char *circuit_id,
                            const struct preload_key *key, bool already, uint64_t start_usec) {
        Cuzk__V1__PreloadSrsResponse response = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        uint64_t now = clock_now_usec();
        char message[1024];
        int r;

        r = executor_preload_state(d->executor, key->kind, key->path, message, sizeof(message));
        if (r == 0)
                return false;
        if (r < 0) {
                log_info("PreloadSRS %s failed: %s", circuit_id, message);
                (void)api_reply_error(call, preload_status(r), "circuit %s: %s", circuit_id,
                                      message);
                return true;
        }
        response.already_loaded = already;
        response.load_time_ms = (now - start_usec) / 1000;
        log_info("PreloadSRS %s: every prover in service holds its key (%" PRIu64 " ms)",
                 circuit_id, (uint64_t)response.load_time_ms);
        (void)api_reply(call, &response.base);
        return true;
}

int preload_answer(struct cuzkd *d, struct api_call *call, const char *circuit_id,
                   const struct preload_key *key, bool already) {
        struct preload_waiter *w;
        uint64_t now = clock_now_usec();

        assert(d && call && circuit_id && key);
        if (preload_settled(d, call, circuit_id, key, already, now))
                return 0;
        w = calloc(1, sizeof(*w));
        if (w)
                w->circuit_id = strdup(circuit_id);
        if (!w || !w->circuit_id) {
                free(w);
                return -ENOMEM;
        }
        w->call = call;
        w->key = *key;
        w->start_usec = now;
        w->next = d->preload_waiters;
        d->preload_waiters = w;
        return 0; /* answered by preload_progress */
}

static void preload_waiter_free(struct preload_waiter *w) {
        free(w->circuit_id);
        free(w);
}

void preload_progress(struct cuzkd *d) {
        struct preload_waiter **p = &d->preload_waiters;

        assert(d);
        while (*p) {
                struct preload_waiter *w = *p;

                if (!preload_settled(d, w->call, w->circuit_id, &w->key, false, w->start_usec)) {
                        p = &w->next;
                        continue;
                }
                *p = w->next;
                preload_waiter_free(w);
        }
}

bool preload_abandon(struct cuzkd *d, struct api_call *call) {
        assert(d && call);
        for (struct preload_waiter **p = &d->preload_waiters; *p; p = &(*p)->next)
                if ((*p)->call == call) {
                        struct preload_waiter *w = *p;

                        log_info("PreloadSRS %s: the client stopped waiting for the load "
                                 "(it goes on)",
                                 w->circuit_id);
                        *p = w->next;
                        preload_waiter_free(w);
                        return true;
                }
        return false;
}
