/* SPDX-License-Identifier: Apache-2.0 */
/* Wire density bitmaps (see density.h). */
#include "density.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"

static size_t words_for(size_t n_wires) {
        return (n_wires + 63) / 64;
}

int wire_density_new(struct wire_density **ret, size_t n_wires) {
        _cleanup_free_ uint64_t *bits = NULL, *rank = NULL;
        const size_t words = words_for(n_wires) ? words_for(n_wires) : 1;
        struct wire_density *d;

        assert(ret);

        bits = calloc(words, sizeof(*bits));
        rank = calloc(words, sizeof(*rank));
        d = malloc(sizeof(*d));
        if (!bits || !rank || !d) {
                free(d);
                return -ENOMEM;
        }
        *d = (struct wire_density){
                .n_wires = n_wires, .bits = TAKE_PTR(bits), .rank = TAKE_PTR(rank)};
        *ret = d;
        return 0;
}

struct wire_density *wire_density_free(struct wire_density *d) {
        if (d) {
                free(d->bits);
                free(d->rank);
                free(d);
        }
        return NULL;
}

void wire_density_seal(struct wire_density *d) {
        size_t words, count = 0;

        assert(d);
        words = words_for(d->n_wires);
        /* Bits past n_wires would count points that no wire owns. */
        if (d->n_wires % 64)
                d->bits[words - 1] &= ((uint64_t)1 << (d->n_wires % 64)) - 1;
        for (size_t j = 0; j < words; j++) {
                d->rank[j] = count;
                count += (size_t)__builtin_popcountll(d->bits[j]);
        }
        d->count = count;
}

void wire_density_gather(const struct wire_density *d, const fr_t *w, fr_t *out) {
        assert(d);
        assert(w || d->count == 0);
        assert(out || d->count == 0);

#pragma omp parallel for schedule(static)
        for (int64_t j = 0; j < (int64_t)words_for(d->n_wires); j++) {
                uint64_t bits = d->bits[j];
                size_t at = d->rank[j];
                while (bits) {
                        out[at++] = w[(size_t)j * 64 + (size_t)__builtin_ctzll(bits)];
                        bits &= bits - 1;
                }
        }
}

int wire_density_pack(const struct wire_density *d, const void *points, size_t size,
                      bool (*is_infinity)(const void *point), void *out) {
        const uint8_t *src = points;
        uint8_t *dst = out;

        assert(d);
        assert(points || d->n_wires == 0);
        assert(is_infinity);
        assert(out || d->count == 0);

        for (size_t j = 0, at = 0; j < d->n_wires; j++) {
                if (wire_density_has(d, j))
                        memcpy(dst + size * at++, src + size * j, size);
                else if (!is_infinity(src + size * j))
                        return -EINVAL;
        }
        return 0;
}
