/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Preloading a circuit (PreloadSRS, Preload=): its bytes reserved from the
 * budget, and its key loaded by every prover now rather than by its first
 * job. Circuit ids are what jobs use: a .zkey path, or PCE+PARAMS.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/supervisor/job.h"

struct api_call;
struct cuzkd;
struct peer_files;

/* The key every prover loads for a circuit: what the executor's preloads are named by. */
struct preload_key {
        enum job_kind kind;
        char path[PATH_MAX];
};

/* Reserves circuit_id's bytes and starts every prover's load of its key, once each file
 * opened with files' rights (peer-files.h; NULL: the daemon's own) has a key's header
 * (preload-check.h). *ret_bytes: the circuit's files. -EINVAL (not a circuit id, a
 * relative path, not a regular file, not a key), -ENOENT (a file is missing), -EPERM or
 * -EACCES (the client may not read it), -ENOSPC (the budget), with message saying which.
 * *ret_already: it was reserved before. *ret_key (may be NULL): the key the provers load. */
int preload_circuit(struct cuzkd *d, const struct peer_files *files, const char *circuit_id,
                    bool *ret_already, uint64_t *ret_bytes, struct preload_key *ret_key,
                    char *message, size_t message_size);

/* PreloadSRS's answer, once every prover in service has answered the load of key
 * (preload_circuit): OK with the time it took (already_loaded when already and the key
 * was in before), or the failure as the gRPC status: the provers' error (INVALID_ARGUMENT,
 * RESOURCE_EXHAUSTED when they ran out of memory), ABORTED (EvictSRS came first),
 * UNAVAILABLE (no prover in service). Until then the call stays open: the client's
 * deadline bounds the wait (preload_abandon). Returns as a handler does. */
int preload_answer(struct cuzkd *d, struct api_call *call, const char *circuit_id,
                   const struct preload_key *key, bool already);
/* A prover answered a preload, or was lost (the executor's preload_progress): the calls
 * whose load is settled now are answered. */
void preload_progress(struct cuzkd *d);
/* The client of call went away; false when it is not a waiting PreloadSRS. */
bool preload_abandon(struct cuzkd *d, struct api_call *call);

/* Preload= at start: each circuit as above; one that cannot be preloaded is logged and
 * skipped. Returns how many were. */
unsigned preload_configured(struct cuzkd *d);
