/* SPDX-License-Identifier: Apache-2.0 */
/* A PCE file's shape from its header alone (see pce-file.h). */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "formats/binfile.h"
#include "pce-file.h"

int pce_header_shape(const uint8_t *header, struct pce_file_shape *ret) {
        assert(header && ret);
        *ret = (struct pce_file_shape){
                .n_public = bin_le32(header + 20),
                .n_rows = bin_le32(header + 24),
                .n_cols = bin_le32(header + 28),
        };
        while ((UINT64_C(1) << ret->log_domain_size) < ret->n_rows)
                ret->log_domain_size++;
        if (ret->n_rows == 0 || ret->n_public >= ret->n_cols)
                return -EBADMSG;
        ret->max_aux_values = (uint64_t)ret->n_cols - 1 - ret->n_public;
        /* A count above that is a corrupt header: every aux stays the bound. */
        if ((bin_le32(header + 16) & PCE_AUX_VALUES) &&
            bin_le64(header + PCE_FILE_AUX_VALUES_OFFSET) < ret->max_aux_values)
                ret->max_aux_values = bin_le64(header + PCE_FILE_AUX_VALUES_OFFSET);
        return 0;
}

int pce_file_shape(const char *path, struct pce_file_shape *ret) {
        _cleanup_close_ int fd = -EBADF;
        uint8_t header[PCE_FILE_HEADER_BYTES];
        char why[160];
        ssize_t n;
        int r;

        assert(path && ret);
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return log_error_errno(errno, "%s: cannot open the PCE file: %m", path);
        n = pread(fd, header, sizeof(header), 0);
        if (n < 0)
                return log_error_errno(errno, "%s: cannot read the PCE header: %m", path);
        r = pce_header_check(header, (size_t)n, why, sizeof(why));
        if (r < 0)
                return log_error_errno(r, "%s: %s", path, why);
        if (pce_header_shape(header, ret) < 0)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu32 " rows, %" PRIu32 " columns, %" PRIu32
                                       " public inputs; expected rows, and more columns than "
                                       "public inputs",
                                       path, ret->n_rows, ret->n_cols, ret->n_public);
        return 0;
}
