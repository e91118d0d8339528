/* SPDX-License-Identifier: Apache-2.0 */
/* The compact witness's memfd layout (see ipc-compact.h). */
#include "ipc-compact.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

static uint64_t bitmap_tail_mask(uint64_t n_aux) {
        /* the bits of the last word past n_aux */
        return n_aux % 64 ? ~UINT64_C(0) << (n_aux % 64) : 0;
}

size_t ipc_compact_bytes(uint32_t n_inputs, uint64_t n_aux, uint64_t n_nums) {
        const size_t arrays = pce_compact_bytes(n_inputs, n_aux, n_nums);

        return arrays ? sizeof(struct ipc_compact_header) + arrays : 0;
}

static uint64_t count_bits(const uint64_t *words, uint64_t n_words) {
        uint64_t n = 0;

        for (uint64_t k = 0; k < n_words; k++)
                n += (uint64_t)__builtin_popcountll(words[k]);
        return n;
}

/* Where each array starts, for the writer and the view alike. */
struct layout {
        size_t inputs, is_bit, bit_value, nums;
};

static struct layout layout_of(uint32_t n_inputs, uint64_t n_aux) {
        const size_t bitmap = pce_bitmap_words(n_aux) * sizeof(uint64_t);
        struct layout l = {.inputs = sizeof(struct ipc_compact_header)};

        l.is_bit = l.inputs + ((size_t)n_inputs + 1) * sizeof(fr_t);
        l.bit_value = l.is_bit + bitmap;
        l.nums = l.bit_value + bitmap;
        return l;
}

void ipc_compact_write(const struct pce_compact_witness *w, uint64_t n_nums, void *map) {
        const struct layout l = layout_of(w->n_inputs, w->n_aux);
        const struct ipc_compact_header header = {
                .magic = IPC_COMPACT_MAGIC,
                .n_inputs = w->n_inputs,
                .n_aux = w->n_aux,
                .n_nums = n_nums,
        };
        uint8_t *p = map;

        memcpy(p, &header, sizeof(header));
        memcpy(p + l.inputs, w->inputs, l.is_bit - l.inputs);
        memcpy(p + l.is_bit, w->is_bit, l.bit_value - l.is_bit);
        memcpy(p + l.bit_value, w->bit_value, l.nums - l.bit_value);
        memcpy(p + l.nums, w->nums, n_nums * sizeof(fr_t));
}

/* The bitmaps agree: values only where bits are, nothing past n_aux, and n_nums
 * aux that are not bits. */
static int check_bitmaps(const struct ipc_compact_header *h, const uint64_t *is_bit,
                         const uint64_t *bit_value, const char *what) {
        const uint64_t words = pce_bitmap_words(h->n_aux);

        for (uint64_t k = 0; k < words; k++)
                if (bit_value[k] & ~is_bit[k])
                        return log_error_errno(EBADMSG,
                                               "%s: aux %" PRIu64 "..: a bit value where no bit "
                                               "is, expected none",
                                               what, 64 * k);
        if (words && ((is_bit[words - 1] | bit_value[words - 1]) & bitmap_tail_mask(h->n_aux)))
                return log_error_errno(EBADMSG, "%s: bits past aux %" PRIu64 ", expected none",
                                       what, h->n_aux);
        if (h->n_aux - count_bits(is_bit, words) != h->n_nums)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu64 " aux are not bits, the header says %" PRIu64,
                                       what, h->n_aux - count_bits(is_bit, words), h->n_nums);
        return 0;
}

int ipc_compact_view(const void *map, size_t bytes, uint64_t n_vars, const char *what,
                     struct ipc_compact_view *ret) {
        struct ipc_compact_header h;
        const uint8_t *p = map;
        struct layout l;
        size_t expected;
        int r;

        assert(map || bytes == 0);
        assert(what && ret);
        *ret = (struct ipc_compact_view){0};
        if (bytes < sizeof(h))
                return log_error_errno(EBADMSG, "%s: %zu bytes, expected a header of %zu", what,
                                       bytes, sizeof(h));
        memcpy(&h, p, sizeof(h));
        if (memcmp(h.magic, IPC_COMPACT_MAGIC, sizeof(h.magic)) != 0)
                return log_error_errno(EBADMSG, "%s: not a compact witness (magic), expected %s",
                                       what, IPC_COMPACT_MAGIC);
        if (h.n_aux >= n_vars || (uint64_t)h.n_inputs + 1 + h.n_aux != n_vars)
                return log_error_errno(EBADMSG,
                                       "%s: 1 + %" PRIu32 " inputs + %" PRIu64
                                       " aux, expected %" PRIu64 " wires",
                                       what, h.n_inputs, h.n_aux, n_vars);
        expected = ipc_compact_bytes(h.n_inputs, h.n_aux, h.n_nums);
        if (expected == 0 || expected != bytes)
                return log_error_errno(
                        EBADMSG, "%s: %zu bytes, expected %zu for %" PRIu64 " values not bits",
                        what, bytes, expected, h.n_nums);
        l = layout_of(h.n_inputs, h.n_aux);
        const fr_t *inputs = (const fr_t *)(p + l.inputs);
        const uint64_t *is_bit = (const uint64_t *)(p + l.is_bit);
        const uint64_t *bit_value = (const uint64_t *)(p + l.bit_value);
        if (!fr_is_one(&inputs[0]))
                return log_error_errno(EBADMSG, "%s: input 0 is not ONE", what);
        r = check_bitmaps(&h, is_bit, bit_value, what);
        if (r < 0)
                return r;
        r = pce_compact_rank(is_bit, h.n_aux, &ret->rank);
        if (r < 0)
                return log_error_errno(r, "%s: the rank of %" PRIu64 " aux: %m", what, h.n_aux);
        ret->w = (struct pce_compact_witness){
                .n_inputs = h.n_inputs,
                .inputs = inputs,
                .n_aux = h.n_aux,
                .is_bit = is_bit,
                .bit_value = bit_value,
                .nums = (const fr_t *)(p + l.nums),
                .rank = ret->rank,
        };
        return 0;
}

void ipc_compact_view_release(struct ipc_compact_view *view) {
        if (!view)
                return;
        free(view->rank);
        *view = (struct ipc_compact_view){0};
}
