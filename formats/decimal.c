/* SPDX-License-Identifier: Apache-2.0 */
#include "decimal.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define DECIMAL_MAX_LIMBS 8
/* The largest power of ten in a limb: 10^19 < 2^64. */
#define TEN_TO_19 10000000000000000000ULL

typedef unsigned __int128 u128;

bool decimal_to_limbs(uint64_t *limbs, size_t n, const char *s) {
        assert(limbs);
        assert(s);

        memset(limbs, 0, n * sizeof(uint64_t));
        if (*s == 0)
                return false;
        for (; *s; s++) {
                uint64_t carry;

                if (*s < '0' || *s > '9')
                        return false;
                carry = (uint64_t)(*s - '0');
                for (size_t i = 0; i < n; i++) {
                        u128 t = (u128)limbs[i] * 10 + carry;
                        limbs[i] = (uint64_t)t;
                        carry = (uint64_t)(t >> 64);
                }
                if (carry)
                        return false;
        }
        return true;
}

void decimal_from_limbs(char *buf, const uint64_t *limbs, size_t n) {
        uint64_t v[DECIMAL_MAX_LIMBS];
        /* Base-10^19 digits, least significant first. */
        uint64_t chunks[DECIMAL_BUFFER_SIZE(DECIMAL_MAX_LIMBS) / 19 + 1];
        size_t n_chunks = 0;
        char *q = buf;

        assert(buf);
        assert(limbs);
        assert(n <= DECIMAL_MAX_LIMBS);

        memcpy(v, limbs, n * sizeof(uint64_t));
        for (;;) {
                bool zero = true;
                uint64_t rem = 0;

                for (size_t i = n; i-- > 0;) {
                        u128 t = (u128)rem << 64 | v[i];
                        v[i] = (uint64_t)(t / TEN_TO_19);
                        rem = (uint64_t)(t % TEN_TO_19);
                        zero = zero && v[i] == 0;
                }
                chunks[n_chunks++] = rem;
                if (zero)
                        break;
        }
        q += sprintf(q, "%llu", (unsigned long long)chunks[n_chunks - 1]);
        for (size_t i = n_chunks - 1; i-- > 0;)
                q += sprintf(q, "%019llu", (unsigned long long)chunks[i]);
}
