/* SPDX-License-Identifier: Apache-2.0 */
/*
 * POREP_SEAL_COMMIT jobs as Curio sends them (../shared/API-WIRE.md): the
 * C1 output in vanilla_proof (Curio's envelope or a bare C1 JSON), the
 * RegisteredSealProof number, the sector number and the miner.
 *
 * Everything that can be wrong with one is found when it comes in, before
 * any synthesis: the kind of proof, the C1 output (parsed strictly, its
 * size the registered proof's, its replica id the miner's sector's, and
 * every vanilla proof checked natively), and the parameter files of its
 * size in ParameterCache= under the network's names (present, whole, the
 * circuit's public input count). The size's PCE is built into PceCache= on
 * first use. The public inputs of every partition are derived here, as a
 * verifier derives them, so that each partition's proof is checked against
 * the .vk before the job completes.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/cuzk.pb-c.h"
#include "daemon/supervisor/job.h"

/* The partitions of the request's registered proof: -EINVAL for a number that is not a
 * RegisteredSealProof, -EOPNOTSUPP for a kind cuzkd does not prove yet (message says). */
int job_porep_partitions(const Cuzk__V1__SubmitProofRequest *request, unsigned *ret, char *message,
                         size_t message_size);

/* Checks the job's C1 output (at c1_path, the spooled vanilla_proof) and parameters and
 * fills job's inputs and shape. Returns 0 or a negative errno with message set. */
int job_porep_inputs(struct job *job, const Cuzk__V1__SubmitProofRequest *request,
                     const char *c1_path, const struct job_settings *settings, char *message,
                     size_t message_size);

/* Verifies partition k's 192-byte proof against the job's .vk and the partition's public
 * inputs: 0 when it verifies (or the key is timing-only, said when the job came in),
 * -EBADMSG with message set when not. */
int job_porep_verify(const struct job *job, unsigned k, const uint8_t *proof, size_t size,
                     char *message, size_t message_size);

struct job_porep *job_porep_free(struct job_porep *porep);

/*
 * The reference daemon's circuit ids of PoRep ("porep-32g", "porep-64g"; and the small sizes
 * "porep-2k", "porep-8m", "porep-512m") for PreloadSRS, EvictSRS, Preload= and GetStatus.
 * job_porep_circuit_id gives the size's circuit id as PoRep jobs name it, PCE+PARAMS under
 * PceCache= and ParameterCache= (the PCE built first when build is set and it is missing):
 * 0, -EINVAL for another id (message says), or the PCE's error. job_porep_circuit_alias gives
 * the alias of a circuit id: 1 with ret set, 0 when it is none.
 */
bool job_porep_is_circuit_alias(const char *circuit_id);
int job_porep_circuit_id(const char *alias, const struct job_settings *settings, bool build,
                         char *ret, size_t size, char *message, size_t message_size);
int job_porep_circuit_alias(const char *circuit_id, const struct job_settings *settings, char *ret,
                            size_t size);
