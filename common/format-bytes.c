/* SPDX-License-Identifier: Apache-2.0 */
#include "common/format-bytes.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>

void format_bytes(char *buffer, size_t size, uint64_t bytes) {
        static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = (double)bytes;
        size_t unit = 0;

        assert(buffer);
        while (value >= 1024.0 && unit + 1 < sizeof(units) / sizeof(units[0])) {
                value /= 1024.0;
                unit++;
        }
        if (unit == 0)
                snprintf(buffer, size, "%" PRIu64 " B", bytes);
        else
                snprintf(buffer, size, "%.1f %s", value, units[unit]);
}
