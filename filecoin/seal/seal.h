/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sealer for small sectors (2 KiB, 8 MiB, 512 MiB): tree D over the
 * data, replica_id, the SDR labels of every layer, tree C over the columns,
 * the encoding and tree R, comm_r = Poseidon2(comm_c, comm_r_last), then the
 * vanilla proofs of every partition's challenges as C1 output
 * (SealPreCommitPhase1/2 and SealCommitPhase1 in one step). Everything is
 * held in memory: layers x sector of labels plus the trees, 1.3 GiB for
 * 512 MiB.
 */
#pragma once

#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/porep/registered-proof.h"

struct seal_inputs {
        const struct porep_config *cfg;
        uint8_t prover_id[32];
        uint64_t sector_id;
        uint8_t ticket[32], seed[32];
        /* cfg->sector_bytes of Fr32-padded data (every 32-byte node below
         * 2^254), or NULL for zeros (a committed-capacity sector). */
        const uint8_t *data;
        /* Called at each stage ("tree D", "labels layer 2", ...); may be NULL. */
        void (*progress)(const char *stage, void *userdata);
        void *userdata;
};

/* Returns 0 with *ret the C1 output, -EINVAL (a data node of 2^254 or more,
 * or a sector size above 512 MiB) or -ENOMEM. */
int porep_seal(const struct seal_inputs *in, struct c1_output **ret);
