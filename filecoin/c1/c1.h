/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filecoin's C1 output (rust-filecoin-proofs-api SealCommitPhase1Output) as
 * serde_json writes it, and Curio's envelope around it
 * (../shared/POREP.md Part A §2, Part B §7).
 *
 * The shape of a C1 output (partitions, challenges, path lengths, column
 * rows, labeling proofs) is fixed by its registered proof, so an output is
 * allocated in one block for that shape (c1_output_new) and the parser reads
 * into it, refusing anything of another shape. Field names and order follow
 * rust-fil-proofs' structs: storage-proofs-core merkle/proof.rs and
 * storage-proofs-porep stacked/vanilla/{params,column_proof,column,
 * labeling_proof,encoding_proof}.rs.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "filecoin/porep/registered-proof.h"

/* A Sha256Domain or a PoseidonDomain (Fr, little-endian repr). */
typedef uint8_t c1_domain[32];

/* One level of a Merkle path: the siblings, and the position among them. */
struct c1_path_element {
        uint32_t n_hashes; /* arity - 1 */
        c1_domain *hashes;
        uint64_t index; /* < arity */
};

struct c1_path {
        uint32_t n_elements;
        struct c1_path_element *elements;
};

/* ProofData's variants: the tree shape of the proof. */
enum c1_merkle_kind {
        C1_MERKLE_SINGLE,
        C1_MERKLE_SUB,
        C1_MERKLE_TOP,
};

struct c1_merkle_proof {
        enum c1_merkle_kind kind;
        c1_domain root, leaf;
        struct c1_path base; /* "path" of Single, "base_proof" of Sub and Top */
        struct c1_path sub;  /* "sub_proof": Sub and Top only */
        struct c1_path top;  /* "top_proof": Top only */
};

struct c1_column_proof {
        uint32_t index;
        uint32_t n_rows; /* layers */
        c1_domain *rows;
        struct c1_merkle_proof inclusion;
};

/* A LabelingProof or the EncodingProof: 37 parent labels, layer 1..layers. */
struct c1_labeling_proof {
        uint32_t n_parents;
        c1_domain *parents;
        uint32_t layer_index;
        uint64_t node;
};

struct c1_vanilla_proof {
        struct c1_merkle_proof comm_d_proof;      /* "comm_d_proofs": tree D, always Single */
        struct c1_merkle_proof comm_r_last_proof; /* tree R */
        struct c1_column_proof c_x, drg_parents[POREP_DRG_PARENTS], exp_parents[POREP_EXP_PARENTS];
        uint32_t n_labeling; /* layers */
        struct c1_labeling_proof *labeling;
        struct c1_labeling_proof encoding;
};

struct c1_output {
        const struct porep_config *cfg; /* from registered_proof */
        uint32_t n_partitions, challenges_per_partition;
        struct c1_vanilla_proof *proofs; /* [partition * challenges_per_partition + i] */
        c1_domain comm_r, comm_d, replica_id, seed, ticket;
        /* Made by cuzk's synth-c1 rather than by sealing: written as a final
         * top-level "cuzk_synthetic_c1":true after "ticket". */
        bool synthetic_c1;
        void *arena; /* the one block holding this struct and all its arrays */
};

/* Input larger than this is refused with -E2BIG (a 32 or 64 GiB C1 is ~40 MB,
 * a 32 GiB NI-PoRep C1 of 126 partitions ~490 MB). */
#define C1_JSON_MAX_BYTES (1ull << 30)

/*
 * Allocates a zeroed C1 output of the shape cfg fixes: every array at its
 * length, every Merkle proof of its kind with its hash counts set. Builders
 * fill in the values. Returns 0 or -ENOMEM.
 */
int c1_output_new(const struct porep_config *cfg, struct c1_output **ret);
struct c1_output *c1_output_free(struct c1_output *c1);
static inline void c1_output_freep(struct c1_output **c1) {
        c1_output_free(*c1);
}
#define _cleanup_c1_output_ __attribute__((cleanup(c1_output_freep)))

/*
 * Parses serde_json's C1 text strictly: fields in any order but each once
 * and none unknown, the shape of the registered proof, bytes 0..255, no
 * trailing text. Returns 0, -EINVAL (one line logged naming what, the field
 * path such as "vanilla_proofs[3][17].comm_r_last_proof.Sub.base_proof.path[2]",
 * the value and what was expected), -E2BIG or -ENOMEM.
 */
int c1_parse(const char *json, size_t len, const char *what, struct c1_output **ret);

/* serde_json's compact text, byte for byte. The buffer is malloc'd, not NUL-terminated. */
int c1_write_buffer(const struct c1_output *c1, char **ret, size_t *ret_len);
/* Returns 0, -ENOMEM or -EIO. */
int c1_write(const struct c1_output *c1, FILE *f);

/*
 * Curio's envelope {"SectorNum":N,"Phase1Out":"<base64 of the C1 JSON>","SectorSize":N}
 * (Go encoding/json of a []byte: standard base64 with padding).
 * *phase1_out is malloc'd. Returns 0, -EINVAL, -E2BIG or -ENOMEM.
 */
int c1_envelope_parse(const char *json, size_t len, const char *what, uint64_t *sector_num,
                      uint64_t *sector_size, char **phase1_out, size_t *phase1_len);
int c1_envelope_write(FILE *f, uint64_t sector_num, const void *phase1, size_t len,
                      uint64_t sector_size);
/* The same into a malloc'd buffer (not NUL-terminated). */
int c1_envelope_write_buffer(uint64_t sector_num, const void *phase1, size_t len,
                             uint64_t sector_size, char **ret, size_t *ret_len);

/* What c1_parse_any found around the C1 output. */
struct c1_envelope_info {
        bool present; /* the input was an envelope */
        uint64_t sector_num, sector_size;
};

/*
 * A bare C1 or an envelope, told apart by the first key. An envelope's
 * SectorSize must be the registered proof's. envelope may be NULL.
 */
int c1_parse_any(const char *json, size_t len, const char *what, struct c1_output **ret,
                 struct c1_envelope_info *envelope);

/* A C1 file (bare or an envelope) is at most this big: a 64 GiB C1 in its
 * envelope is about 110 MB. */
#define C1_FILE_MAX_BYTES (1ull << 30)

/* Maps path and parses it with c1_parse_any(). Returns 0 or a negative
 * errno (logged, naming the file: not a regular file of 1 B to 1 GiB, or
 * c1_parse_any()'s reason). */
int c1_load_file(const char *path, struct c1_output **ret);
