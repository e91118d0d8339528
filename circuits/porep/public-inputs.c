/* SPDX-License-Identifier: Apache-2.0 */
/* generate_public_inputs of StackedCompound, from the graph and the challenges. */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/challenges.h"
#include "public-inputs.h"

size_t porep_public_input_count(const struct porep_config *cfg) {
        assert(cfg);
        return 3 + (size_t)POREP_INPUTS_PER_CHALLENGE * cfg->challenges_per_partition;
}

/* The 32-byte little-endian value as one hexadecimal number, 0x first. */
static void format_le_hex(const uint8_t value[32], char out[2 + 64 + 1]) {
        static const char digits[] = "0123456789abcdef";

        out[0] = '0';
        out[1] = 'x';
        for (unsigned i = 0; i < 32; i++) {
                out[2 + 2 * i] = digits[value[31 - i] >> 4];
                out[3 + 2 * i] = digits[value[31 - i] & 0xf];
        }
        out[66] = '\0';
}

static bool all_zero(const uint8_t value[32]) {
        for (unsigned i = 0; i < 32; i++)
                if (value[i])
                        return false;
        return true;
}

/* A commitment or id as the Fr the verifier reads: refused when not below r
 * (as_safe_commitment; blstrs' from_repr) or, for a commitment, all zero
 * (get_seal_inputs). */
static int value_to_fr(const char *name, const uint8_t value[32], bool refuse_zero, fr_t *ret) {
        char hex[2 + 64 + 1];

        if (refuse_zero && all_zero(value))
                return log_error_errno(
                        EINVAL,
                        "PoRep public inputs: %s is all zero, expected a non-zero commitment",
                        name);
        if (!fr_from_le_bytes(ret, value)) {
                format_le_hex(value, hex);
                return log_error_errno(
                        EINVAL,
                        "PoRep public inputs: %s = %s (its bytes read little-endian), "
                        "expected a value below the field modulus r",
                        name, hex);
        }
        return 0;
}

/* The 18 inputs of one challenge: its tree-D path, the paths of its 14
 * parents in tree C, the UInt64, its tree-R and tree-C paths. Each path
 * input packs the index bits little-endian, so it is Fr(index). */
static void challenge_inputs(const struct sdr_graph *graph, uint64_t challenge, fr_t *out) {
        uint32_t parents[POREP_TOTAL_PARENTS];
        unsigned at = 0;

        sdr_graph_parents(graph, challenge, parents);
        fr_from_u64(&out[at++], challenge);
        for (unsigned i = 0; i < POREP_TOTAL_PARENTS; i++)
                fr_from_u64(&out[at++], parents[i]);
        for (unsigned i = 0; i < 3; i++)
                fr_from_u64(&out[at++], challenge);
        assert(at == POREP_INPUTS_PER_CHALLENGE);
}

int porep_public_inputs(const struct porep_config *cfg, const uint8_t replica_id[32],
                        const uint8_t comm_d[32], const uint8_t comm_r[32], const uint8_t seed[32],
                        unsigned k, fr_t *out) {
        _cleanup_free_ uint64_t *challenges = NULL;
        struct sdr_graph graph;
        unsigned cpp;
        int r;

        assert(cfg);
        assert(replica_id);
        assert(comm_d);
        assert(comm_r);
        assert(out);

        cpp = cfg->challenges_per_partition;
        if (k >= cfg->partitions)
                return log_error_errno(EINVAL,
                                       "PoRep public inputs: partition %u of %s, expected 0..%u", k,
                                       cfg->name, cfg->partitions - 1);
        r = value_to_fr("replica_id", replica_id, false, &out[0]);
        if (r < 0)
                return r;
        r = value_to_fr("comm_d", comm_d, true, &out[1]);
        if (r < 0)
                return r;
        r = value_to_fr("comm_r", comm_r, true, &out[2]);
        if (r < 0)
                return r;

        if (!seed && cfg->challenges != POREP_CHALLENGES_NON_INTERACTIVE)
                return log_error_errno(EINVAL,
                                       "PoRep public inputs: %s draws its challenges from "
                                       "the seed, none given",
                                       cfg->name);
        challenges = malloc(cpp * sizeof(*challenges));
        if (!challenges)
                return log_error_errno(ENOMEM, "PoRep public inputs: %u challenges: %m", cpp);
        r = porep_challenges(cfg, replica_id, seed, comm_r, k, challenges);
        if (r < 0)
                return log_error_errno(r, "PoRep public inputs: challenges of %s partition %u: %m",
                                       cfg->name, k);
        r = sdr_graph_init(&graph, cfg);
        if (r < 0)
                return r;

        for (unsigned i = 0; i < cpp; i++)
                challenge_inputs(&graph, challenges[i],
                                 &out[3 + (size_t)POREP_INPUTS_PER_CHALLENGE * i]);
        return 0;
}
