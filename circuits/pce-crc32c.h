/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78, the iSCSI/ext4
 * checksum) and the chunked checksum of PCE files built on it: the CRC-32C
 * of the sequence of CRC-32Cs (u32 little-endian) of consecutive 1 MiB
 * chunks, the last one possibly shorter. Chunks are independent, so a
 * large body is checksummed on all threads, with the same result for any
 * thread count.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define PCE_CHECKSUM_CHUNK_BYTES ((uint64_t)1 << 20)

/* CRC-32C of data continuing from crc (0 to start): the SSE4.2 instruction
 * when the CPU has it, else the table. */
uint32_t pce_crc32c(uint32_t crc, const void *data, size_t n);
/* The same with the table only (for tests). */
uint32_t pce_crc32c_portable(uint32_t crc, const void *data, size_t n);

struct pce_checksum {
        uint32_t outer;      /* CRC-32C of the finished chunks' CRCs */
        uint32_t chunk;      /* CRC-32C of the current chunk so far */
        uint64_t chunk_fill; /* bytes in the current chunk */
};

static inline void pce_checksum_init(struct pce_checksum *s) {
        *s = (struct pce_checksum){0};
}
/* Adds n bytes; whole chunks in between are done in parallel. */
void pce_checksum_update(struct pce_checksum *s, const void *data, uint64_t n);
uint32_t pce_checksum_final(const struct pce_checksum *s);
/* The checksum of one buffer. */
uint32_t pce_checksum_of(const void *data, uint64_t n);
