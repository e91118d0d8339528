/* SPDX-License-Identifier: Apache-2.0 */
/* Joining witnesses computed in pieces. */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "cs-internal.h"

/* ORs the first n bits of src into dst at bit offset at (dst zeroed there). */
static void bits_or_at(uint64_t *dst, uint64_t at, const uint64_t *src, uint64_t n) {
        uint64_t words = pce_bitmap_words(n), shift = at % 64;

        dst += at / 64;
        for (uint64_t i = 0; i < words; i++) {
                uint64_t w = src[i];
                if (i == words - 1 && n % 64)
                        w &= (UINT64_C(1) << (n % 64)) - 1;
                dst[i] |= w << shift;
                if (shift && w >> (64 - shift))
                        dst[i + 1] |= w >> (64 - shift);
        }
}

int cs_witness_append(struct cs *dst, const struct cs *src) {
        uint64_t at, n_aux, n_nums;
        uint32_t n_inputs;
        int r;

        assert(dst && src);

        if (dst->mode != CS_WITNESS || src->mode != CS_WITNESS)
                return -EINVAL;
        if (dst->error || src->error)
                return dst->error ? dst->error : src->error;
        at = dst->n_aux;
        n_aux = src->n_aux;
        n_inputs = src->n_inputs;
        n_nums = src->w.n_nums;
        if (at + n_aux >= CS_MAX_AUX || (uint64_t)dst->n_inputs + n_inputs + 1 >= CS_MAX_AUX)
                return cs_fail(dst, -E2BIG);

        if (n_aux && (r = cs_bitmaps_reserve(dst, at + n_aux)) < 0)
                return cs_fail(dst, r);
        if ((r = cs_grow((void **)&dst->w.inputs, &dst->input_capacity,
                         (uint64_t)dst->n_inputs + n_inputs + 1, sizeof(fr_t))) < 0 ||
            (r = cs_grow((void **)&dst->w.nums, &dst->num_capacity, dst->w.n_nums + n_nums,
                         sizeof(fr_t))) < 0)
                return cs_fail(dst, r);

        if (n_aux) {
                bits_or_at(dst->aux_is_bit, at, src->aux_is_bit, n_aux);
                bits_or_at(dst->w.aux_bit_value, at, src->w.aux_bit_value, n_aux);
        }
        /* memcpy wants valid pointers even for 0 bytes, and an empty part has none. */
        if (n_inputs)
                memcpy(dst->w.inputs + dst->n_inputs + 1, src->w.inputs + 1,
                       n_inputs * sizeof(fr_t));
        if (n_nums)
                memcpy(dst->w.nums + dst->w.n_nums, src->w.nums, n_nums * sizeof(fr_t));
        dst->n_inputs += n_inputs;
        dst->w.n_inputs = dst->n_inputs;
        dst->n_aux += n_aux;
        dst->w.n_aux = dst->n_aux;
        dst->w.n_nums += n_nums;
        dst->n_rows += src->n_rows;
        return 0;
}
