/* SPDX-License-Identifier: Apache-2.0 */
#include "circuits/porep/params-size.h"

#include <assert.h>
#include <errno.h>

#include "formats/bellperson_params.h"

uint64_t groth16_circuit_params_bytes(const struct groth16_circuit_counts *c) {
        assert(c);
        /* a holds every input; b_g1 and b_g2 the B-density inputs and aux. */
        return bellperson_params_bytes(
                (uint32_t)(c->inputs - 1), (uint32_t)((UINT64_C(1) << c->log_domain) - 1),
                (uint32_t)c->aux, (uint32_t)(c->inputs + c->a_aux),
                (uint32_t)(c->b_inputs + c->b_aux), (uint32_t)(c->b_inputs + c->b_aux));
}

static uint64_t count_bits(const uint64_t *bitmap, uint64_t from, uint64_t to) {
        uint64_t n = 0;

        for (uint64_t i = from; i < to; i++)
                n += pce_bit(bitmap, i);
        return n;
}

void groth16_circuit_counts_of_pce(const struct pce *pce, struct groth16_circuit_counts *ret) {
        uint64_t inputs = (uint64_t)pce->n_public + 1;

        assert(pce);
        assert(ret);
        *ret = (struct groth16_circuit_counts){
                .log_domain = pce_log_domain_size(pce),
                .inputs = inputs,
                .aux = pce->n_cols - inputs,
                .a_aux = count_bits(pce->density[0], inputs, pce->n_cols),
                .b_inputs = count_bits(pce->density[1], 0, inputs),
                .b_aux = count_bits(pce->density[1], inputs, pce->n_cols),
        };
}

/* The interactive (and synthetic: the same circuit) StackedDRG circuit per sector size,
 * from `cuzk porep info` (101.7 s for 64 GiB); 32 GiB's are the published counts (POREP.md). */
static const struct {
        uint64_t sector_bytes;
        struct groth16_circuit_counts counts;
} porep_counts[] = {
        {UINT64_C(2) << 10, {22, 40, 2685673, 2674908, 1, 685521}},
        {UINT64_C(8) << 20, {22, 40, 3842449, 3814996, 1, 1011289}},
        {UINT64_C(512) << 20, {23, 40, 4420837, 4385040, 1, 1174173}},
        {UINT64_C(32) << 30, {27, 328, 130169893, 129753292, 1, 33112281}},
        /* Its 131,185,849 constraints are the published count. */
        {UINT64_C(64) << 30, {27, 328, 131076643, 130637542, 1, 33386943}},
};

int porep_circuit_counts(const struct porep_config *cfg, struct groth16_circuit_counts *ret) {
        assert(cfg);
        assert(ret);
        if (cfg->challenges == POREP_CHALLENGES_NON_INTERACTIVE)
                return -EOPNOTSUPP;
        for (size_t i = 0; i < sizeof(porep_counts) / sizeof(porep_counts[0]); i++)
                if (porep_counts[i].sector_bytes == cfg->sector_bytes) {
                        *ret = porep_counts[i].counts;
                        return 0;
                }
        return -EOPNOTSUPP;
}
