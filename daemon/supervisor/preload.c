/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/supervisor/preload.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/cleanup.h"
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
                    bool *ret_already, uint64_t *ret_bytes, char *message, size_t message_size) {
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
        if (r < 0)
                snprintf(message, message_size, "circuit %s: the provers cannot load it: %s",
                         circuit_id, strerror(-r));
        return r;
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
                int r = preload_circuit(d, NULL, id, &already, &bytes, message, sizeof(message));

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
