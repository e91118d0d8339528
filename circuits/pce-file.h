/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PCE files: a 256-byte header, then each matrix's arrays (row starts,
 * columns, coefficient ids, coefficient table) in the order A, B, C, each
 * array starting on a 64-byte boundary with zero padding between them. All
 * integers are little-endian, coefficients Montgomery fr_t limbs.
 *
 *   0   magic "cuzk-pce"          8   version u32 (1)     12  header bytes u32 (256)
 *   16  flags u32 (PCE_*)         20  n_public u32        24  n_rows u32
 *   28  n_cols u32
 *   32 + 48 k, matrix k = A, B, C: n_terms u64, n_values u32, id_bytes u32,
 *       then the file offsets of row_start, col, ids, values (u64 each)
 *   176 file bytes u64            184 body checksum u32 (pce-crc32c.h, bytes 256..end)
 *   188 aux allocated as values u64 (flag PCE_AUX_VALUES; else 0)
 *   196 zeros                     252 header checksum u32 (CRC-32C of bytes 0..251)
 *
 * pce_load() maps the file and points the PCE into the mapping (the arrays
 * are not copied). It refuses, naming the file, the value and what was
 * expected: a short or truncated file, another magic or version, a header
 * or body that does not match its checksum, counts or offsets that do not
 * match the file size and each other, and contents a PCE cannot have
 * (columns or ids out of range, row starts that go back, coefficients not
 * below r, input rows that are not w[s]). The density bitmaps are computed
 * while checking.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "pce.h"

#define PCE_FILE_MAGIC "cuzk-pce"
#define PCE_FILE_VERSION 1
#define PCE_FILE_HEADER_BYTES 256
#define PCE_FILE_AUX_VALUES_OFFSET 188

/* Checks a PCE header's identity: its size, magic, version, header size and header
 * checksum. Logs nothing: returns 0, or -EBADMSG (-EOPNOTSUPP for another version) with
 * why the header was refused in why ("magic is not ...", naming the value and what was
 * expected), for the caller to say with the file's name. */
int pce_header_check(const uint8_t *header, size_t size, char *why, size_t why_size);
/* The file size a header records (of PCE_FILE_HEADER_BYTES bytes, checked). */
uint64_t pce_header_file_bytes(const uint8_t *header);

/* Size of pce's file. */
uint64_t pce_file_bytes(const struct pce *pce);

/* Writes to a temporary file beside path, synced and then renamed to path.
 * Returns 0 or a negative errno (logged, naming the file). */
int pce_save(const struct pce *pce, const char *path);

/* Returns 0 or a negative errno (logged, naming the file): -EBADMSG for a
 * corrupt or truncated file, -EOPNOTSUPP for another version. */
int pce_load(const char *path, struct pce **ret);

/* What a PCE file's header says of the circuit: enough to size and check a partition
 * without mapping the matrices (a compact witness needs nothing else). */
struct pce_file_shape {
        uint32_t n_public, n_rows, n_cols;
        unsigned log_domain_size; /* as pce_log_domain_size() */
        /* The most aux a witness made by the circuit's gadgets holds as values rather than
         * bits: n_aux_values where the header records it (PCE_AUX_VALUES), else every aux. */
        uint64_t max_aux_values;
};

/* The shape a header (PCE_FILE_HEADER_BYTES, its identity checked by the caller) records.
 * Logs nothing: -EBADMSG, *ret filled all the same for the caller's message, when it has no
 * rows or no more columns than public inputs. */
int pce_header_shape(const uint8_t *header, struct pce_file_shape *ret);
/* Reads and checks path's header (pce_header_check, pce_header_shape). Returns 0 or a
 * negative errno, logged naming the file and the value. */
int pce_file_shape(const char *path, struct pce_file_shape *ret);
