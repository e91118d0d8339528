/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Field elements and points in snarkjs's JSON encoding: decimal strings of
 * canonical values; G1 as [x, y, "1"], G2 as [[x0, x1], [y0, y1], ["1", "0"]];
 * the point at infinity as [0, 1, 0] ([[0, 0], [1, 0], [0, 0]] in G2), which
 * is what ffjavascript's toObject() writes.
 *
 * The readers log "<origin>: <what> ..." (origin: the file name, what: the
 * JSON path, e.g. "pi_b[1]") and return 0 or -EBADMSG.
 */
#pragma once

#include <jansson.h>

#include "zk/fp.h"
#include "zk/fp2.h"
#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/g2.h"

int json_read_fp(const json_t *v, const char *origin, const char *what, fp_t *ret);
int json_read_fr(const json_t *v, const char *origin, const char *what, fr_t *ret);
int json_read_fp2(const json_t *v, const char *origin, const char *what, fp2_t *ret);
/* Points must be affine or infinity, on the curve and in the subgroup. */
int json_read_g1(const json_t *v, const char *origin, const char *what, g1_affine_t *ret);
int json_read_g2(const json_t *v, const char *origin, const char *what, g2_affine_t *ret);

/* The member key of obj; logs and returns NULL when obj is not an object or lacks it. */
const json_t *json_read_member(const json_t *obj, const char *origin, const char *key);
/* Refuses a member that is not the string expected ("protocol": "groth16"). */
int json_read_expect_string(const json_t *obj, const char *origin, const char *key,
                            const char *expected);

/* New references, NULL when out of memory. */
json_t *json_from_fp(const fp_t *a);
json_t *json_from_fr(const fr_t *a);
json_t *json_from_fp2(const fp2_t *a);
json_t *json_from_g1(const g1_affine_t *p);
json_t *json_from_g2(const g2_affine_t *p);

/* Loads a JSON file; logs the file, line and column of a syntax error. */
int json_load_path(const char *path, json_t **ret);
/*
 * Writes root as snarkjs does (one-space indent, no trailing newline) into a
 * temporary file beside path, then renames it over path.
 */
int json_save_path(const char *path, const json_t *root);
