/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A reservation of budget bytes (budget.h), the unit of memory governance.
 * A partition reserves everything it will hold before it is admitted, in two
 * phases that go back at different times:
 *   abc   the a/b/c evaluations: back when the prover has them on the GPU
 *         (the executor's abc_released),
 *   rest  the assignments and the prover's working set: back when the
 *         partition's attempt is over.
 * The SRS/PCE share of a circuit's first partition is moved out of the
 * partition's reservation into the circuit's permanent one (circuit-cache.h),
 * which outlives every partition, follows what the provers report they
 * hold of the circuit (reservation_resize) and goes back whole when the
 * circuit is evicted. A reservation gives back exactly what it took, once: the sums
 * cannot drift, and a phase released twice is a no-op.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "daemon/supervisor/budget.h"

struct reservation {
        struct budget *budget; /* NULL while it holds nothing */
        uint64_t abc_bytes;    /* phase 1, 0 once released */
        uint64_t rest_bytes;   /* phase 2 */
        bool abc_held;         /* phase 1 not released yet (abc_bytes may be 0) */
        bool permanent;        /* SRS/PCE: ends only with reservation_release (eviction) */
};

/* Reserves abc_bytes + rest_bytes from budget into an empty reservation;
 * -ENOSPC (nothing reserved) when they do not fit. */
int reservation_reserve(struct reservation *r, struct budget *budget, uint64_t abc_bytes,
                        uint64_t rest_bytes);
/* Gives the a/b/c phase back; returns its bytes (0 when it was given back already). */
uint64_t reservation_release_abc(struct reservation *r);
/* Gives back everything still held and empties the reservation; returns the bytes. */
uint64_t reservation_release(struct reservation *r);
/* Moves bytes of r's rest phase into permanent (empty, or permanent already, of the
 * same budget): the budget's total is unchanged, only the owner changes. */
void reservation_into_permanent(struct reservation *r, uint64_t bytes,
                                struct reservation *permanent);

/* Sets a permanent reservation's bytes to what its owner holds now: shrinking gives the
 * difference back to the budget, growing takes it whether it fits or not (budget_take:
 * the memory is held already, or about to be, and admission waits until it fits). */
void reservation_resize(struct reservation *r, uint64_t bytes);

static inline uint64_t reservation_bytes(const struct reservation *r) {
        return r->abc_bytes + r->rest_bytes;
}
static inline bool reservation_holds_abc(const struct reservation *r) {
        return r->abc_held;
}
