/* SPDX-License-Identifier: Apache-2.0 */
#include "wtns-save.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "formats/binfile.h"

#define WTNS_VERSION 2
#define WTNS_SECTION_HEADER 1
#define WTNS_SECTION_VALUES 2
/* Values converted per write: 32 MiB of output. */
#define VALUES_PER_BATCH ((size_t)1 << 20)

/* Everything before the values: container, header section, values section head. */
static size_t encode_preamble(uint8_t *out, uint32_t n_values) {
        uint8_t *p = out;

        memcpy(p, "wtns", 4);
        bin_put_le32(p + 4, WTNS_VERSION);
        bin_put_le32(p + 8, 2); /* sections */
        p += 12;

        bin_put_le32(p, WTNS_SECTION_HEADER);
        bin_put_le64(p + 4, 4 + FR_BYTES + 4);
        bin_put_le32(p + 12, FR_BYTES);
        for (size_t i = 0; i < FR_LIMBS; i++)
                bin_put_le64(p + 16 + 8 * i, BLS12_381_R[i]);
        bin_put_le32(p + 16 + FR_BYTES, n_values);
        p += 12 + 4 + FR_BYTES + 4;

        bin_put_le32(p, WTNS_SECTION_VALUES);
        bin_put_le64(p + 4, (uint64_t)n_values * FR_BYTES);
        p += 12;
        return (size_t)(p - out);
}

int wtns_save(const char *path, const fr_t *values, uint32_t n_values) {
        _cleanup_(atomic_file_close) struct atomic_file f = {.fd = -EBADF, .dir_fd = -EBADF};
        _cleanup_free_ uint8_t *buf = NULL;
        uint8_t preamble[128];
        size_t n;
        int r;

        assert(path);
        assert(values || n_values == 0);

        if (n_values == 0)
                return log_error_errno(EINVAL, "%s: a witness needs at least the constant 1", path);
        buf = malloc(VALUES_PER_BATCH * FR_BYTES);
        if (!buf)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        r = atomic_file_open(path, 0644, &f);
        if (r < 0)
                // cppcheck-suppress memleak ; freed by _cleanup_
                return log_error_errno(r, "%s: cannot create a temporary file beside it: %m", path);

        n = encode_preamble(preamble, n_values);
        r = atomic_file_append(&f, preamble, n);
        for (size_t start = 0; r >= 0 && start < n_values; start += VALUES_PER_BATCH) {
                size_t count =
                        n_values - start < VALUES_PER_BATCH ? n_values - start : VALUES_PER_BATCH;
#pragma omp parallel for schedule(static) if (count >= 65536)
                for (size_t i = 0; i < count; i++)
                        fr_to_le_bytes(buf + i * FR_BYTES, &values[start + i]);
                r = atomic_file_append(&f, buf, count * FR_BYTES);
        }
        if (r < 0)
                return log_error_errno(r, "%s: cannot write %s: %m", path, f.tmp_name);
        r = atomic_file_commit(&f);
        if (r < 0)
                return log_error_errno(r, "%s: cannot sync and rename %s to it: %m", path,
                                       f.tmp_name);
        return 0;
}
