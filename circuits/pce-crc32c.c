/* SPDX-License-Identifier: Apache-2.0 */
#include "pce-crc32c.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#define CRC32C_POLY 0x82f63b78u
/* Chunks checksummed per parallel round (a round's CRCs stay on the stack). */
#define CHUNKS_PER_ROUND 64

static uint32_t crc_table[256];

/* The table is filled before main() (no locking at first use). */
__attribute__((constructor)) static void crc_table_init(void) {
        for (uint32_t i = 0; i < 256; i++) {
                uint32_t c = i;
                for (int k = 0; k < 8; k++)
                        c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
                crc_table[i] = c;
        }
}

uint32_t pce_crc32c_portable(uint32_t crc, const void *data, size_t n) {
        const uint8_t *p = data;

        assert(data || n == 0);
        crc = ~crc;
        for (size_t i = 0; i < n; i++)
                crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
        return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *data,
                                                               size_t n) {
        const uint8_t *p = data;
        uint64_t c = ~crc;

        for (; n >= 8; p += 8, n -= 8) {
                uint64_t v;
                memcpy(&v, p, 8);
                c = __builtin_ia32_crc32di(c, v);
        }
        for (; n > 0; p++, n--)
                c = __builtin_ia32_crc32qi((uint32_t)c, *p);
        return ~(uint32_t)c;
}

static bool have_sse42(void) {
        static int cached = -1;
        if (cached < 0)
                cached = __builtin_cpu_supports("sse4.2") ? 1 : 0;
        return cached;
}
#endif

uint32_t pce_crc32c(uint32_t crc, const void *data, size_t n) {
        assert(data || n == 0);
#if defined(__x86_64__)
        if (have_sse42())
                return crc32c_sse42(crc, data, n);
#endif
        return pce_crc32c_portable(crc, data, n);
}

static void fold_chunk(struct pce_checksum *s, uint32_t chunk_crc) {
        uint8_t le[4] = {(uint8_t)chunk_crc, (uint8_t)(chunk_crc >> 8), (uint8_t)(chunk_crc >> 16),
                         (uint8_t)(chunk_crc >> 24)};
        s->outer = pce_crc32c(s->outer, le, sizeof(le));
}

void pce_checksum_update(struct pce_checksum *s, const void *data, uint64_t n) {
        const uint8_t *p = data;

        assert(s);
        assert(data || n == 0);

        /* Finish the current chunk first. */
        if (s->chunk_fill > 0) {
                uint64_t take = PCE_CHECKSUM_CHUNK_BYTES - s->chunk_fill;
                if (take > n)
                        take = n;
                s->chunk = pce_crc32c(s->chunk, p, (size_t)take);
                s->chunk_fill += take;
                p += take;
                n -= take;
                if (s->chunk_fill < PCE_CHECKSUM_CHUNK_BYTES)
                        return;
                fold_chunk(s, s->chunk);
                s->chunk = 0;
                s->chunk_fill = 0;
        }

        while (n >= PCE_CHECKSUM_CHUNK_BYTES) {
                uint32_t crcs[CHUNKS_PER_ROUND];
                uint64_t chunks = n / PCE_CHECKSUM_CHUNK_BYTES;
                if (chunks > CHUNKS_PER_ROUND)
                        chunks = CHUNKS_PER_ROUND;
#pragma omp parallel for schedule(static) if (chunks > 1)
                for (uint64_t k = 0; k < chunks; k++)
                        crcs[k] = pce_crc32c(0, p + k * PCE_CHECKSUM_CHUNK_BYTES,
                                             PCE_CHECKSUM_CHUNK_BYTES);
                for (uint64_t k = 0; k < chunks; k++)
                        fold_chunk(s, crcs[k]);
                p += chunks * PCE_CHECKSUM_CHUNK_BYTES;
                n -= chunks * PCE_CHECKSUM_CHUNK_BYTES;
        }

        if (n > 0) {
                s->chunk = pce_crc32c(0, p, (size_t)n);
                s->chunk_fill = n;
        }
}

uint32_t pce_checksum_final(const struct pce_checksum *s) {
        struct pce_checksum t;

        assert(s);
        t = *s;
        if (t.chunk_fill > 0)
                fold_chunk(&t, t.chunk);
        return t.outer;
}

uint32_t pce_checksum_of(const void *data, uint64_t n) {
        struct pce_checksum s;

        pce_checksum_init(&s);
        pce_checksum_update(&s, data, n);
        return pce_checksum_final(&s);
}
