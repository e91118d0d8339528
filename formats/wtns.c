/* SPDX-License-Identifier: Apache-2.0 */
#include "wtns.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "binfile.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zk/big_alloc.h"

#define WTNS_MAX_VERSION 2
#define WTNS_SECTION_HEADER 1
#define WTNS_SECTION_VALUES 2

struct wtns *wtns_free(struct wtns *w) {
        if (!w)
                return NULL;
        free(w->values);
        free(w);
        return NULL;
}

static int wtns_read_values(struct wtns *w, const struct binfile *bf) {
        struct bin_reader r;
        const uint8_t *in;
        uint64_t first_bad = UINT64_MAX;
        int k;

        k = binfile_section(bf, WTNS_SECTION_VALUES, "values", &r);
        if (k < 0)
                return k;
        k = bin_read_array(&r, "witness values", w->n_values, FR_BYTES, &in);
        if (k < 0)
                return k;
        k = bin_reader_expect_end(&r);
        if (k < 0)
                return k;
        if (w->n_values == 0)
                return log_error_errno(EBADMSG, "%s: witness has no values, expected at least 1",
                                       bf->path);

        w->values = big_alloc((size_t)w->n_values * sizeof(fr_t));
        if (!w->values)
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu32 " witness values",
                                       bf->path, w->n_values);

#pragma omp parallel for reduction(min : first_bad) if (w->n_values >= 65536)
        for (uint64_t i = 0; i < w->n_values; i++)
                if (!fr_from_le_bytes(&w->values[i], in + i * FR_BYTES) && i < first_bad)
                        first_bad = i;
        if (first_bad != UINT64_MAX)
                return log_error_errno(
                        EBADMSG, "%s: witness value %" PRIu64 " is not below the field prime r",
                        bf->path, first_bad);

        /* Wire 0 of a circom circuit is the constant 1; anything else is not a witness. */
        if (!fr_is_one(&w->values[0]))
                return log_error_errno(EBADMSG, "%s: witness value 0 (the constant wire) is not 1",
                                       bf->path);
        return 0;
}

int wtns_load(const char *path, struct wtns **ret) {
        _cleanup_(binfile_closep) struct binfile *bf = NULL;
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        struct bin_reader r;
        uint32_t n_values;
        int k;

        assert(path);
        assert(ret);

        k = binfile_open(path, "wtns", WTNS_MAX_VERSION, &bf);
        if (k < 0)
                return k;

        k = binfile_section(bf, WTNS_SECTION_HEADER, "header", &r);
        if (k < 0)
                return k;
        k = bin_read_prime(&r, BLS12_381_R, FR_LIMBS, "r");
        if (k < 0)
                return k;
        k = bin_read_u32(&r, "witness count", &n_values);
        if (k < 0)
                return k;
        k = bin_reader_expect_end(&r);
        if (k < 0)
                return k;

        w = calloc(1, sizeof(*w));
        if (!w)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        w->n_values = n_values;
        k = wtns_read_values(w, bf);
        if (k < 0)
                return k;

        *ret = TAKE_PTR(w);
        return 0;
}
