/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small satisfiable R1CS for the setup and memory tests, shaped loosely
 * like a PoRep partition: rows = domain - domain/128, one new wire per
 * row, a quarter of the rows products (x + k) * y = z of earlier wires, the
 * rest linear rows z * 1 = 1 - x that negate an earlier bit, and one
 * binding row per input (the constant included) as bellperson appends
 * them. So three quarters of the witness is 0 or 1, every wire is
 * determined by its row, and B holds about a fifth of the wires.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "zk/fr.h"
#include "zk/sparse.h"

struct test_circuit {
        struct sparse_matrix a, b, c;
        fr_t *w; /* n_vars: 1, the public inputs, the private wires */
        size_t n_vars, n_public;
        unsigned log_domain_size;
};

/* Aborts the test on failure. */
void test_circuit_make(struct test_circuit *tc, unsigned log_domain_size, size_t n_public,
                       uint64_t seed);
void test_circuit_free(struct test_circuit *tc);

struct groth16_keys;
/* A key pair for tc in bellperson's convention, from a seeded toxic waste
 * (tests only). Aborts the test on failure. */
void test_circuit_keys(const struct test_circuit *tc, const uint8_t *seed, size_t seed_bytes,
                       struct groth16_keys **ret);
