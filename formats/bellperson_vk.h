/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bellperson verifying keys (.vk files, bellperson's VerifyingKey::write),
 * which also open every .params file:
 *
 *   alpha_g1 (96)  beta_g1 (96)  beta_g2 (192)  gamma_g2 (192)
 *   delta_g1 (96)  delta_g2 (192)  ic count (u32 big-endian)  ic (96 each)
 *
 * Points use the zcash uncompressed encoding (zk/point_encoding.h). All of
 * them are checked to be on the curve and in the subgroup (there are few).
 * None may be the point at infinity: bellperson refuses it in IC, and a key
 * whose alpha, beta, gamma or delta is at infinity is degenerate. IC holds
 * the constant wire then the public inputs, so its count is n_public + 1
 * and 0 is refused.
 *
 * Functions return 0 or a negative errno, logged naming the file (or the
 * origin given): -EBADMSG for malformed data, -ENOMEM, or what open(2) or
 * write(2) said.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zk/groth16.h"

/* The six points and the IC count. */
#define BELLPERSON_VK_FIXED_BYTES (3 * 96 + 3 * 192 + 4)

/*
 * Timing-only keys (zk/groth16_setup.h) hold random points: no proof made
 * with them is valid. Their .vk and .params files are the usual bytes after
 * this 64-byte block, text padded with zeros. Its first byte, 'c' (0x63),
 * would be an uncompressed point's flags with infinity and sort both set,
 * which no bellperson file starts with, so bellperson refuses these files;
 * the readers here accept them and set timing_only, which every verifier
 * (cuzk verify, the daemon) must refuse.
 */
#define BELLPERSON_TIMING_ONLY_MARKER_BYTES 64
extern const uint8_t BELLPERSON_TIMING_ONLY_MARKER[BELLPERSON_TIMING_ONLY_MARKER_BYTES];
/* What the verifiers say when they refuse a timing-only key. */
#define BELLPERSON_TIMING_ONLY_REFUSAL "proof made with a timing-only SRS cannot be verified"

/* BELLPERSON_TIMING_ONLY_MARKER_BYTES when data starts with the marker, else 0. */
size_t bellperson_timing_only_marker_bytes(const uint8_t *data, size_t size);

struct bellperson_writer;

struct bellperson_vk {
        /* alpha1, beta2, gamma2, delta2, ic (owned), n_public; no alphabeta. */
        struct groth16_vk vk;
        /* Only the prover needs these (bellperson keeps them in its vk). */
        g1_affine_t beta1, delta1;
        /* The file carried the timing-only marker: never verify with it. */
        bool timing_only;
};

/* Bytes of a verifying key with n_public public inputs. */
uint64_t bellperson_vk_bytes(uint32_t n_public);

/*
 * Checks that data starts with a whole verifying key (its IC count against
 * size) without decoding any point, and returns its length (the
 * timing-only marker included, when there is one).
 */
int bellperson_vk_measure(const uint8_t *data, size_t size, const char *origin,
                          uint64_t *ret_bytes);

/*
 * Decodes the verifying key at the start of data. With ret_bytes NULL the
 * key must fill data exactly (a .vk file); otherwise its length is returned
 * there (the start of a .params file).
 */
int bellperson_vk_parse(const uint8_t *data, size_t size, const char *origin, uint64_t *ret_bytes,
                        struct bellperson_vk **ret);
int bellperson_vk_load(const char *path, struct bellperson_vk **ret);

/* Appends the key (vk's points and IC plus beta1, delta1) to a writer. */
int bellperson_vk_write(struct bellperson_writer *w, const struct groth16_vk *vk,
                        const g1_affine_t *beta1, const g1_affine_t *delta1);
int bellperson_vk_save(const char *path, const struct groth16_vk *vk, const g1_affine_t *beta1,
                       const g1_affine_t *delta1);
/* Appends the timing-only marker (before the key). */
int bellperson_write_timing_only_marker(struct bellperson_writer *w);
/* bellperson_vk_save() with the marker first. */
int bellperson_vk_save_timing_only(const char *path, const struct groth16_vk *vk,
                                   const g1_affine_t *beta1, const g1_affine_t *delta1);

struct bellperson_vk *bellperson_vk_free(struct bellperson_vk *vk);
static inline void bellperson_vk_freep(struct bellperson_vk **vk) {
        bellperson_vk_free(*vk);
}
