/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An SDR label as a circuit (storage-proofs-porep stacked/circuit/
 * create_label.rs): SHA-256 of replica_id ‖ layer u32 BE ‖ node u64 BE ‖
 * zero bits to 512 ‖ 37 parents (9,984 bits, 20 blocks), the digest's bits
 * reversed per byte and the first 254 packed. 522,269 rows when replica_id
 * and the parents come from to_bits_le (a constant bit 255) and node is
 * allocated, as in the StackedCircuit. The padded message lives on the
 * stack (about 80 KiB): the gadget has no error to return.
 */
#pragma once

#include <stdint.h>

#include "circuits/gadgets/num.h"
#include "circuits/gadgets/uint64.h"
#include "filecoin/porep/registered-proof.h"

/* replica_id and each parent as 256 bits in hashing order (to_bits_le then
 * reverse_bit_numbering); layer is a constant. */
struct cs_num cs_create_label(struct cs *cs, const struct cs_bool replica_id[256],
                              const struct cs_bool (*parents)[256], uint32_t layer,
                              const struct cs_u64 *node);
