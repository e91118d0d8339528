/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compact witness (circuits/pce-compact.h) in one memfd, from a worker to a CUDA
 * prover (IPC_WITNESS_COMPACT in ipc.h). A 32 GiB PoRep partition's 130M values are
 * 4.2 GB as fr_t and about 87 MB here: most are SHA-256 bits. In order:
 *
 *   struct ipc_compact_header       32 bytes
 *   fr_t inputs[n_inputs + 1]       ONE, then the public inputs
 *   uint64_t is_bit[words]          words = pce_bitmap_words(n_aux)
 *   uint64_t bit_value[words]
 *   fr_t nums[n_nums]               the aux that are not bits, in order
 *
 * The receiver trusts nothing but the memfd's seals: ipc_compact_view checks every
 * count against the size and the circuit, and the bitmaps against each other.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "circuits/pce-compact.h"

#define IPC_COMPACT_MAGIC "cuzkcw1"

struct ipc_compact_header {
        char magic[8]; /* IPC_COMPACT_MAGIC */
        uint32_t n_inputs;
        uint32_t reserved;
        uint64_t n_aux;
        uint64_t n_nums;
};

/* The layout's size; 0 when it overflows. */
size_t ipc_compact_bytes(uint32_t n_inputs, uint64_t n_aux, uint64_t n_nums);

/* Writes w, of n_nums = pce_compact_nums(w) values that are not bits, into map,
 * ipc_compact_bytes(w->n_inputs, w->n_aux, n_nums) bytes. */
void ipc_compact_write(const struct pce_compact_witness *w, uint64_t n_nums, void *map);

/* A checked compact witness in someone's mapping, and its rank (owned). */
struct ipc_compact_view {
        struct pce_compact_witness w;
        uint64_t *rank;
};

/* Checks map (bytes) as the compact witness of a circuit of n_vars wires (ONE
 * included) and fills ret. -EBADMSG with a message naming `what` and the value when
 * the layout does not hold, -ENOMEM. */
int ipc_compact_view(const void *map, size_t bytes, uint64_t n_vars, const char *what,
                     struct ipc_compact_view *ret);
void ipc_compact_view_release(struct ipc_compact_view *view);
