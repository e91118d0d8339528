/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover's proving keys, loaded on first use and kept by path: a
 * snarkjs .zkey (zkey_to_groth16_pk) or a bellperson .params file
 * (bellperson_params_to_pk). The prover reads them itself so that their
 * pages are charged to its own cgroup, and mlock()s them (best effort:
 * said once in the log when the limit refuses it).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "daemon/executor/executor.h"
#include "formats/bellperson_params.h"
#include "zk/groth16.h"

struct prover_keys;

int prover_keys_new(struct prover_keys **ret);
void prover_keys_free(struct prover_keys *keys);

/* The key of path for a job of kind, loading it when it is new (then
 * *ret_loaded_usec says how long that took, else 0). circuit_path (the
 * task's PCE; NULL for a preload) supplies the A and B densities of a
 * .params file in bellperson's layout, which has points for those wires
 * only. sink (may be NULL) may take a .params file's G1 bases as they are
 * read (the backend's, prover_backend_ops.key_sink): the pk's G1 arrays are
 * then NULL and not counted in prover_keys_bytes. The pk stays valid until
 * prover_keys_free. Returns 0 or a negative errno, logged naming the file. */
int prover_keys_get(struct prover_keys *keys, enum job_kind kind, const char *path,
                    const char *circuit_path, const struct bellperson_g1_sink *sink,
                    const struct groth16_pk **ret, uint64_t *ret_loaded_usec);

/* The key of path if it is loaded, else NULL. */
const struct groth16_pk *prover_keys_find(const struct prover_keys *keys, enum job_kind kind,
                                          const char *path);
/* Drops the key of path (no task may use it any more); -ENOENT when it is not loaded. */
int prover_keys_forget(struct prover_keys *keys, enum job_kind kind, const char *path);

/* Frees the host copy of pk's bases (A, B_G1, L, H, B_G2; a .params key's, whatever of
 * them a sink left in host memory), which the backend holds on its device
 * (prover_backend_ops.adopt_key): their pointers in pk become NULL and prover_keys_bytes
 * drops by what went, which this returns (0 for a key of another kind or one already
 * released). The densities and the verifying key stay. */
uint64_t prover_keys_release_bases(struct prover_keys *keys, const struct groth16_pk *pk);

/* Bytes of every key held (their point arrays). */
uint64_t prover_keys_bytes(const struct prover_keys *keys);
/* Host bytes kept for pk: its point arrays still in host memory (none after
 * prover_keys_release_bases; B_G2's after a load whose G1 bases went to the device), its
 * wire densities, and a .zkey's coefficients; 0 when pk is not one of keys'. What the
 * supervisor reserves for this prover's copy of the key. */
uint64_t prover_keys_pk_bytes(const struct prover_keys *keys, const struct groth16_pk *pk);
