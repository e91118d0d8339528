/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Preloading a circuit (PreloadSRS, Preload=): its bytes reserved from the
 * budget, and its key loaded by every prover now rather than by its first
 * job. Circuit ids are what jobs use: a .zkey path, or PCE+PARAMS.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cuzkd;
struct peer_files;

/* Reserves circuit_id's bytes and starts every prover's load of its key, once each file
 * opened with files' rights (peer-files.h; NULL: the daemon's own) has a key's header
 * (preload-check.h). *ret_bytes: the circuit's files. -EINVAL (not a circuit id, a
 * relative path, not a regular file, not a key), -ENOENT (a file is missing), -EPERM or
 * -EACCES (the client may not read it), -ENOSPC (the budget), with message saying which.
 * *ret_already: it was reserved before. */
int preload_circuit(struct cuzkd *d, const struct peer_files *files, const char *circuit_id,
                    bool *ret_already, uint64_t *ret_bytes, char *message, size_t message_size);

/* Preload= at start: each circuit as above; one that cannot be preloaded is logged and
 * skipped. Returns how many were. */
unsigned preload_configured(struct cuzkd *d);
