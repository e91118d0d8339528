/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>

#include "daemon/supervisor/budget.h"

void budget_init(struct budget *budget, uint64_t total_bytes) {
        assert(budget);
        *budget = (struct budget){.total_bytes = total_bytes};
}

bool budget_fits(const struct budget *budget, uint64_t bytes) {
        assert(budget);
        /* A smaller total (budget_set_total) or budget_take may leave more reserved. */
        return budget->reserved_bytes <= budget->total_bytes &&
               bytes <= budget->total_bytes - budget->reserved_bytes;
}

void budget_take(struct budget *budget, uint64_t bytes) {
        assert(budget);
        budget->reserved_bytes += bytes;
        if (budget->reserved_bytes > budget->peak_reserved_bytes)
                budget->peak_reserved_bytes = budget->reserved_bytes;
}

int budget_reserve(struct budget *budget, uint64_t bytes) {
        assert(budget);
        if (!budget_fits(budget, bytes))
                return -ENOSPC;
        budget_take(budget, bytes);
        return 0;
}

void budget_release(struct budget *budget, uint64_t bytes) {
        assert(budget);
        /* Releasing more than was reserved is a bookkeeping bug, not an input error. */
        assert(bytes <= budget->reserved_bytes);
        budget->reserved_bytes -= bytes;
}

void budget_set_total(struct budget *budget, uint64_t total_bytes) {
        assert(budget);
        budget->total_bytes = total_bytes;
}
