/* SPDX-License-Identifier: Apache-2.0 */
#include "pce-coeff-table.h"

#include <errno.h>
#include <stdlib.h>

void pce_coeff_table_done(struct pce_coeff_table *t) {
        free(t->values);
        free(t->slots);
}

static uint64_t coeff_hash(const fr_t *v) {
        /* Montgomery forms of small integers look random already. */
        return (v->l[0] ^ v->l[1] ^ v->l[2] ^ v->l[3]) * UINT64_C(0x9e3779b97f4a7c15);
}

static int grow_slots(struct pce_coeff_table *t) {
        uint64_t n_slots = t->n_slots ? t->n_slots * 2 : 1024;
        uint32_t *slots = calloc(n_slots, sizeof(*slots));

        if (!slots)
                return -ENOMEM;
        for (uint32_t i = 0; i < t->n_values; i++) {
                uint64_t s = coeff_hash(&t->values[i]) & (n_slots - 1);
                while (slots[s])
                        s = (s + 1) & (n_slots - 1);
                slots[s] = i + 1;
        }
        free(t->slots);
        t->slots = slots;
        t->n_slots = n_slots;
        return 0;
}

/* The id of v, added to the table when new. Returns 0, -ENOMEM, or -E2BIG
 * when more than 2^32 - 1 distinct values would be needed. */
int pce_coeff_table_intern(struct pce_coeff_table *t, const fr_t *v, uint32_t *ret_id) {
        uint64_t s;
        int r;

        if ((uint64_t)t->n_values * 2 >= t->n_slots) {
                r = grow_slots(t);
                if (r < 0)
                        return r;
        }
        for (s = coeff_hash(v) & (t->n_slots - 1); t->slots[s]; s = (s + 1) & (t->n_slots - 1))
                if (fr_equal(&t->values[t->slots[s] - 1], v)) {
                        *ret_id = t->slots[s] - 1;
                        return 0;
                }

        if (t->n_values == UINT32_MAX - 1)
                return -E2BIG;
        if (t->n_values == t->capacity) {
                uint32_t capacity = t->capacity ? (t->capacity > UINT32_MAX / 2 ? UINT32_MAX - 1
                                                                                : t->capacity * 2)
                                                : 64;
                fr_t *values = realloc(t->values, (size_t)capacity * sizeof(fr_t));
                if (!values)
                        return -ENOMEM;
                t->values = values;
                t->capacity = capacity;
        }
        t->values[t->n_values] = *v;
        t->slots[s] = t->n_values + 1;
        *ret_id = t->n_values++;
        return 0;
}
