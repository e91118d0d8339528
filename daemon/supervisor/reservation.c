/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>

#include "daemon/supervisor/reservation.h"

int reservation_reserve(struct reservation *r, struct budget *budget, uint64_t abc_bytes,
                        uint64_t rest_bytes) {
        int ret;

        assert(r);
        assert(budget);
        assert(!r->budget && reservation_bytes(r) == 0);
        ret = budget_reserve(budget, abc_bytes + rest_bytes);
        if (ret < 0)
                return ret;
        *r = (struct reservation){
                .budget = budget,
                .abc_bytes = abc_bytes,
                .rest_bytes = rest_bytes,
                .abc_held = true,
        };
        return 0;
}

uint64_t reservation_release_abc(struct reservation *r) {
        uint64_t bytes;

        assert(r);
        assert(!r->permanent);
        if (!r->abc_held)
                return 0;
        bytes = r->abc_bytes;
        budget_release(r->budget, bytes);
        r->abc_bytes = 0;
        r->abc_held = false;
        return bytes;
}

uint64_t reservation_release(struct reservation *r) {
        uint64_t bytes;

        assert(r);
        bytes = reservation_bytes(r);
        if (r->budget)
                budget_release(r->budget, bytes);
        *r = (struct reservation){0};
        return bytes;
}

void reservation_into_permanent(struct reservation *r, uint64_t bytes,
                                struct reservation *permanent) {
        assert(r);
        assert(permanent);
        assert(r->budget);
        assert(bytes <= r->rest_bytes);
        assert(!permanent->budget || (permanent->permanent && permanent->budget == r->budget));
        r->rest_bytes -= bytes;
        permanent->budget = r->budget;
        permanent->rest_bytes += bytes;
        permanent->permanent = true;
}

void reservation_resize(struct reservation *r, uint64_t bytes) {
        assert(r);
        assert(r->budget && r->permanent);
        assert(r->abc_bytes == 0);
        if (bytes < r->rest_bytes)
                budget_release(r->budget, r->rest_bytes - bytes);
        else
                budget_take(r->budget, bytes - r->rest_bytes);
        r->rest_bytes = bytes;
}
