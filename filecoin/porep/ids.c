/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/porep/ids.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

#include "filecoin/sha256/sha256.h"

void porep_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32]) {
        uint8_t sector_id_be[8];

        assert(prover_id);
        assert(ticket);
        assert(comm_d);
        assert(porep_id);
        assert(out);

        for (unsigned i = 0; i < 8; i++)
                sector_id_be[i] = (uint8_t)(sector_id >> (56 - 8 * i));
        const struct sha256_piece pieces[] = {
                {prover_id, 32}, {sector_id_be, 8}, {ticket, 32}, {comm_d, 32}, {porep_id, 32},
        };
        sha256_digest_pieces(pieces, sizeof(pieces) / sizeof(pieces[0]), out);
        sha254_trim(out);
}

int porep_prover_id_from_miner(uint64_t actor_id, uint8_t out[POREP_PROVER_ID_BYTES]) {
        int n = 0;

        assert(out);

        memset(out, 0, POREP_PROVER_ID_BYTES);
        do {
                uint8_t low7 = (uint8_t)(actor_id & 0x7f);

                actor_id >>= 7;
                out[n++] = actor_id ? (uint8_t)(low7 | 0x80) : low7;
        } while (actor_id);
        return n;
}

int porep_parse_miner(const char *s, uint64_t *actor_id) {
        uint64_t value = 0;

        assert(s);
        assert(actor_id);

        /* Network prefix (t: testnet, f: mainnet), then protocol 0 (ID address). */
        if (s[0] == 't' || s[0] == 'f') {
                if (s[1] != '0')
                        return -EINVAL;
                s += 2;
        }
        if (!*s)
                return -EINVAL;
        for (; *s; s++) {
                unsigned digit = (unsigned)(*s - '0');

                if (*s < '0' || *s > '9')
                        return -EINVAL;
                if (value > (UINT64_MAX - digit) / 10)
                        return -ERANGE;
                value = value * 10 + digit;
        }
        *actor_id = value;
        return 0;
}
