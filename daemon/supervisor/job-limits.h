/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What one client may do with jobs: whose jobs it may await, cancel and see (its own;
 * root's and AdminGroup='s members see all), and how many it may have queued
 * (MaxQueuedJobs=, MaxQueuedJobsPerUser=) with request ids of what length.
 *
 * A job's owner is the peer that submitted it (struct api_peer, SO_PEERCRED): jobs of one
 * uid belong together; every anonymous (TCP) peer shares one owner, as nothing tells them
 * apart.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "api/api-peer.h"
#include "api/cuzk.pb-c.h"
#include "api/grpc-frame.h"
#include "daemon/supervisor/cuzkd.h"

/* Whether peer is root or a member of AdminGroup=. */
bool job_limits_is_admin(const struct cuzkd *d, const struct api_peer *peer);
/* Whether peer may await, cancel or see the job of owner: its owner (the same uid, or both
 * anonymous), or an admin. */
bool job_limits_may_access(const struct cuzkd *d, const struct api_peer *peer,
                           const struct api_peer *owner);

/* Whether peer may submit request (NULL: nothing to check, the caller refuses it): the
 * request id at most SPOOL_REQUEST_ID_MAX bytes (-EINVAL, INVALID_ARGUMENT), and, unless
 * the request id names a job of peer's already (SubmitProof answers with it), room in
 * MaxQueuedJobs= and in peer's MaxQueuedJobsPerUser= for one more job not ended, those
 * in the intake counted (-ENOBUFS, RESOURCE_EXHAUSTED). On refusal *status and message (size bytes)
 * say why. */
int job_limits_check(const struct cuzkd *d, const struct api_peer *peer,
                     const Cuzk__V1__SubmitProofRequest *request, enum grpc_status *status,
                     char *message, size_t size);
