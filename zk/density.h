/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which wires a proving key holds points for in one of its per-wire arrays
 * (A, or B in G1 and G2). bellperson's generator drops the points at
 * infinity, the wires whose column of A (B) is empty, so its arrays hold
 * the points of the other wires, in wire order; its prover maps wires to
 * points with a density bitmap taken from the circuit. Filecoin's PoRep has
 * B entries for a quarter of its wires, so a dense B array would cost four
 * times the memory and the B MSMs four times the work.
 *
 * A density is a bitmap of n_wires bits (wire j at bit j % 64 of word
 * j / 64) with, per word, the set bits before it, so that the point of a
 * wire is found, and the scalars of the set wires gathered, without a scan.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fr.h"

struct wire_density {
        size_t n_wires;
        size_t count;   /* set bits: the points the array holds */
        uint64_t *bits; /* (n_wires + 63) / 64 words */
        uint64_t *rank; /* per word: the set bits of the words before it */
};

/* The bytes of a density of n_wires: its bit words and their ranks. */
static inline size_t wire_density_bytes(size_t n_wires) {
        return 2 * ((n_wires + 63) / 64) * sizeof(uint64_t);
}

/* All wires clear; set them with wire_density_set, then wire_density_seal. */
int wire_density_new(struct wire_density **ret, size_t n_wires);
struct wire_density *wire_density_free(struct wire_density *d);
static inline void wire_density_freep(struct wire_density **d) {
        wire_density_free(*d);
}

static inline void wire_density_set(struct wire_density *d, size_t wire) {
        d->bits[wire / 64] |= (uint64_t)1 << (wire % 64);
}

static inline bool wire_density_has(const struct wire_density *d, size_t wire) {
        return (d->bits[wire / 64] >> (wire % 64)) & 1;
}

/* The point of set wire j: the set wires before it. */
static inline size_t wire_density_index(const struct wire_density *d, size_t wire) {
        const uint64_t below = d->bits[wire / 64] & (((uint64_t)1 << (wire % 64)) - 1);
        return d->rank[wire / 64] + (size_t)__builtin_popcountll(below);
}

/* Counts the set bits (count and rank); call after the last set. */
void wire_density_seal(struct wire_density *d);

/*
 * The points of the set wires of `points` (one per wire, `size` bytes each)
 * into out (d->count of them), in wire order: a key's array in bellperson's
 * layout. -EINVAL when a wire left out has a point other than infinity,
 * which is_infinity tells (the key does not belong to the density).
 */
int wire_density_pack(const struct wire_density *d, const void *points, size_t size,
                      bool (*is_infinity)(const void *point), void *out);

/* out[i] = w[j] for the i-th set wire j (multi-threaded): the scalars that
 * meet the array's points. out holds d->count elements. */
void wire_density_gather(const struct wire_density *d, const fr_t *w, fr_t *out);
