/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Grain LFSR of the Poseidon reference script, as neptune 11's
 * round_constants.rs drives it (POREP.md Part B §1 "Round constants").
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "filecoin/poseidon/poseidon-internal.h"

#define GRAIN_STATE_BITS 80
#define GRAIN_WARMUP_BITS 160
#define GRAIN_FIELD_PRIME 1u /* field 1: a prime field */
#define GRAIN_SBOX_POWER 1u  /* S-box 1: x^alpha */
#define GRAIN_FIELD_BITS 255u

struct grain {
        uint8_t bit[GRAIN_STATE_BITS]; /* bit[0] is the oldest */
};

static void grain_push_field(struct grain *g, unsigned *at, uint64_t value, unsigned width) {
        for (unsigned i = 0; i < width; i++)
                g->bit[(*at)++] = (value >> (width - 1 - i)) & 1;
}

/* new = b62 ^ b51 ^ b38 ^ b23 ^ b13 ^ b0, then the register shifts by one. */
static bool grain_step(struct grain *g) {
        uint8_t next = g->bit[62] ^ g->bit[51] ^ g->bit[38] ^ g->bit[23] ^ g->bit[13] ^ g->bit[0];

        for (unsigned i = 0; i + 1 < GRAIN_STATE_BITS; i++)
                g->bit[i] = g->bit[i + 1];
        g->bit[GRAIN_STATE_BITS - 1] = next;
        return next;
}

static void grain_init(struct grain *g, unsigned width, unsigned full_rounds,
                       unsigned partial_rounds) {
        unsigned at = 0;

        grain_push_field(g, &at, GRAIN_FIELD_PRIME, 2);
        grain_push_field(g, &at, GRAIN_SBOX_POWER, 4);
        grain_push_field(g, &at, GRAIN_FIELD_BITS, 12);
        grain_push_field(g, &at, width, 12);
        grain_push_field(g, &at, full_rounds, 10);
        grain_push_field(g, &at, partial_rounds, 10);
        while (at < GRAIN_STATE_BITS)
                g->bit[at++] = 1;
        for (unsigned i = 0; i < GRAIN_WARMUP_BITS; i++)
                (void)grain_step(g);
}

/* Bits come in pairs: the second is kept only when the first is 1. */
static bool grain_next_bit(struct grain *g) {
        for (;;) {
                bool keep = grain_step(g);
                bool bit = grain_step(g);
                if (keep)
                        return bit;
        }
}

/* 255 bits, most significant first; candidates >= r are drawn again. */
static void grain_next_field_element(struct grain *g, fr_t *out) {
        for (;;) {
                uint64_t limbs[FR_LIMBS] = {0};

                for (unsigned i = 0; i < GRAIN_FIELD_BITS; i++) {
                        unsigned pos = GRAIN_FIELD_BITS - 1 - i;
                        if (grain_next_bit(g))
                                limbs[pos / 64] |= UINT64_C(1) << (pos % 64);
                }
                if (fr_from_canonical(out, limbs))
                        return;
        }
}

void poseidon_grain_round_constants(unsigned width, unsigned full_rounds, unsigned partial_rounds,
                                    fr_t *out, size_t n) {
        struct grain g;

        assert(out);
        assert(n == (size_t)(full_rounds + partial_rounds) * width);

        grain_init(&g, width, full_rounds, partial_rounds);
        for (size_t i = 0; i < n; i++)
                grain_next_field_element(&g, &out[i]);
}
