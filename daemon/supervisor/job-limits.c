/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/supervisor/job-limits.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/supervisor/intake.h"
#include "daemon/supervisor/job-table.h"
#include "daemon/supervisor/spool.h"

bool job_limits_is_admin(const struct cuzkd *d, const struct api_peer *peer) {
        assert(d);
        assert(peer);
        return api_peer_is_root(peer) ||
               (d->config.admin_gid >= 0 && api_peer_in_group(peer, (gid_t)d->config.admin_gid));
}

bool job_limits_may_access(const struct cuzkd *d, const struct api_peer *peer,
                           const struct api_peer *owner) {
        assert(d);
        assert(peer);
        assert(owner);
        return job_table_owner_scope(peer) == job_table_owner_scope(owner) ||
               job_limits_is_admin(d, peer);
}

/* "uid 1000" or "anonymous (TCP) clients", for messages. */
static void owner_name(const struct api_peer *peer, char *buf, size_t size) {
        if (peer->known)
                snprintf(buf, size, "uid %u", (unsigned)peer->uid);
        else
                snprintf(buf, size, "anonymous (TCP) clients");
}

int job_limits_check(const struct cuzkd *d, const struct api_peer *peer,
                     const Cuzk__V1__SubmitProofRequest *request, enum grpc_status *status,
                     char *message, size_t size) {
        size_t request_id_len, total, of_owner;
        char who[48];

        assert(d);
        assert(peer);
        assert(status);
        assert(message);
        if (!request)
                return 0;
        request_id_len = request->request_id ? strlen(request->request_id) : 0;
        if (request_id_len > SPOOL_REQUEST_ID_MAX) {
                *status = GRPC_STATUS_INVALID_ARGUMENT;
                snprintf(message, size, "request_id of %zu bytes, expected at most %d bytes",
                         request_id_len, SPOOL_REQUEST_ID_MAX);
                return -EINVAL;
        }
        /* A request id sent again is answered with its job, whatever the queue holds. */
        if (job_table_find_request(&d->table, peer, request->request_id) ||
            (d->intake && intake_find_request(d->intake, peer, request->request_id)))
                return 0;
        job_table_count_unfinished(&d->table, peer, &total, &of_owner);
        /* Submissions still being checked and spooled are not in the table yet. */
        if (d->intake) {
                total += intake_pending_count(d->intake);
                of_owner += intake_pending_of(d->intake, peer);
        }
        if (total >= d->config.max_queued_jobs) {
                *status = GRPC_STATUS_RESOURCE_EXHAUSTED;
                snprintf(message, size,
                         "%zu jobs are queued or running, the most cuzkd takes "
                         "(MaxQueuedJobs=%u); submit again when some have ended",
                         total, d->config.max_queued_jobs);
                return -ENOBUFS;
        }
        if (of_owner >= d->config.max_queued_jobs_per_user) {
                owner_name(peer, who, sizeof(who));
                *status = GRPC_STATUS_RESOURCE_EXHAUSTED;
                snprintf(message, size,
                         "%s: %zu jobs queued or running, the most one user may have "
                         "(MaxQueuedJobsPerUser=%u); submit again when some have ended",
                         who, of_owner, d->config.max_queued_jobs_per_user);
                return -ENOBUFS;
        }
        return 0;
}
