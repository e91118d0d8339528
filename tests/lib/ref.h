/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared helpers for tests that check cuzk against independent
 * implementations: GMP for fields, snarkjs's ffjavascript (node) for curves
 * and pairings. A reference script prints one JSON object per line; values
 * are "0x"-prefixed hex strings of canonical integers.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "zk/fp.h"
#include "zk/fp2.h"
#include "zk/fr.h"

/* Runs `node tests/node/<script> <args>` and returns its stdout. */
FILE *ref_run(const char *script, const char *args);
/* Reads the next JSON line (NULL at the end). Caller json_decref()s. */
json_t *ref_next(FILE *f);
/* Closes the pipe; returns the script's exit status (0 = success). */
int ref_close(FILE *f);

/* Hex string (with or without 0x) -> canonical limbs; false if too large. */
bool ref_hex_to_limbs(uint64_t *limbs, size_t n, const char *hex);
/* Limbs -> "0x..." lowercase hex without leading zeros, into buf (>= 2+16n+1). */
void ref_limbs_to_hex(char *buf, const uint64_t *limbs, size_t n);

/* The JSON value at key (a hex string) as a field element; aborts the test
 * with a message when it is missing or out of range. */
void ref_get_fp(fp_t *r, const json_t *obj, const char *key);
void ref_get_fr(fr_t *r, const json_t *obj, const char *key);
/* An Fp2 element as a JSON array [c0, c1]. */
void ref_get_fp2(fp2_t *r, const json_t *obj, const char *key);
void ref_fp_from_json(fp_t *r, const json_t *v);
void ref_fr_from_json(fr_t *r, const json_t *v);
void ref_fp2_from_json(fp2_t *r, const json_t *v);

/* Fills buf with deterministic pseudo-random bytes (xoshiro256**). */
void test_rng_seed(uint64_t seed);
uint64_t test_rng_u64(void);
void test_rng_fp(fp_t *r);
void test_rng_fr(fr_t *r);
void test_rng_fp2(fp2_t *r);
