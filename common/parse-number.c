/* SPDX-License-Identifier: Apache-2.0 */
#include "common/parse-number.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

int parse_unsigned_range(const char *value, uint64_t min, uint64_t max, int base, uint64_t *ret) {
        unsigned long long v;
        char *end;

        assert(value);
        assert(ret);

        /* strtoull() accepts leading blanks and a sign: refuse both. */
        if (value[0] < '0' || value[0] > '9')
                return -EINVAL;
        errno = 0;
        v = strtoull(value, &end, base);
        if (*end)
                return -EINVAL;
        if (errno == ERANGE || v < min || v > max)
                return -ERANGE;
        *ret = v;
        return 0;
}
