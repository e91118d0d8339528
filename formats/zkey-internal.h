/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What zkey.c (zkey_load) and zkey-constraints.c (zkey_constraints_load)
 * share, so that both check a .zkey the same way and refuse it with the
 * same messages: the protocol and Groth16 header sections, and the entries
 * of the coefficient section. Internal to formats/.
 */
#pragma once

#include <stdint.h>

#include "binfile.h"
#include "zkey.h"

#define ZKEY_MAX_VERSION 2

/* One entry of section 4: matrix, constraint, signal (u32), value. */
#define ZKEY_COEF_BYTES (3 * 4 + FR_BYTES)

/* Frees the key's point arrays (IC, A, B1, B2, C, H) and sets them to NULL. */
void zkey_points_free(struct zkey *zk);

/*
 * Maps path as a .zkey (magic, version, section table), reads section 1,
 * refusing any protocol but Groth16, and section 2 into header: the
 * BLS12-381 primes, the sizes (log2_domain_size included) and
 * verification-key points; refuses nVars < nPublic + 1 and a domain size
 * that is not a power of two.
 */
int zkey_open(const char *path, struct zkey *header, struct binfile **ret);

/* Section 4: its count, checked against its size, and its entries in the
 * mapping (ZKEY_COEF_BYTES each). */
int zkey_coefs_section(const struct binfile *bf, uint32_t *ret_n_coefs,
                       const uint8_t **ret_entries);

/* Entry i's matrix, constraint and signal, checked against zk's sizes;
 * ret->value is left alone. */
int zkey_coef_decode_indices(const struct zkey *zk, const char *path, uint32_t i,
                             const uint8_t *entry, struct zkey_coef *ret);

/* All of entry i, its value in Montgomery form (checked below r). */
int zkey_coef_decode(const struct zkey *zk, const char *path, uint32_t i, const uint8_t *entry,
                     struct zkey_coef *ret);
