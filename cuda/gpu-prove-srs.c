/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A proving key's bases for the GPU: pinned in host memory, and copied to
 * the card as the prover's tuning says (gpu-tuning.h's SrsResidence), so
 * that the MSMs read them there instead of over PCIe.
 */
#include <assert.h>
#include <errno.h>

#include "common/log.h"
#include "cuda/gpu-prove-internal.h"

static void resident_key_free(gpu_prover_t *prover, struct resident_key *k) {
        for (size_t i = 0; i < RESIDENT_ROLES; i++)
                gpu_free(prover->ctx, k->d_arrays[i]);
        *k = (struct resident_key){0};
}

void resident_keys_free(gpu_prover_t *prover) {
        for (size_t i = 0; i < RESIDENT_KEYS_MAX; i++)
                if (prover->resident[i].pk)
                        resident_key_free(prover, &prover->resident[i]);
}

/* CUDA pins whole pages, and a page pinned twice fails the second time
 * (cudaErrorHostMemoryAlreadyRegistered): an array under big_alloc's huge
 * page size may come from malloc's heap and share a page with another key's
 * array, so it stays pageable; copies from it cost nothing measurable. From
 * 2 MiB up, big_alloc gives every array pages of its own. */
#define PIN_MIN_BYTES ((size_t)2 << 20)

/* One array may serve several roles (the timing-only SRS of
 * bench-gpu-prove shares one G1 array among A, B_G1, L and H): owner[i] is
 * the first role with role i's array, which takes the largest size of its
 * roles; the other roles' sizes become 0, so that the array is pinned or
 * copied once. */
static void share_roles(const void *const ptr[], size_t bytes[], size_t owner[], size_t n) {
        for (size_t i = 0; i < n; i++) {
                owner[i] = i;
                for (size_t j = 0; j < i; j++)
                        if (ptr[j] == ptr[i]) {
                                owner[i] = owner[j];
                                if (bytes[i] > bytes[owner[i]])
                                        bytes[owner[i]] = bytes[i];
                                bytes[i] = 0;
                                break;
                        }
        }
}

/* The pk's arrays worth pinning as (pointer, bytes) pairs; 0 bytes where not: small ones,
 * and every base when they are resident on the card (the MSMs read them there, and the
 * prover may free their host copy: gpu_prover_pk_resident). */
static size_t pk_arrays(const struct groth16_pk *pk, bool resident, const void *ptr[5],
                        size_t bytes[5]) {
        const size_t n_private = pk->n_vars - pk->n_public - 1;
        size_t owner[5];
        ptr[0] = pk->a, bytes[0] = groth16_pk_a_points(pk) * sizeof(g1_affine_t);
        ptr[1] = pk->b1, bytes[1] = groth16_pk_b_points(pk) * sizeof(g1_affine_t);
        ptr[2] = pk->l, bytes[2] = n_private * sizeof(g1_affine_t);
        ptr[3] = pk->h,
        bytes[3] = groth16_h_bases(pk->h_convention, pk->log_domain_size) * sizeof(g1_affine_t);
        ptr[4] = pk->b2, bytes[4] = groth16_pk_b_points(pk) * sizeof(g2_affine_t);
        share_roles(ptr, bytes, owner, 5);
        for (size_t i = 0; i < 5; i++)
                if (bytes[i] < PIN_MIN_BYTES || resident)
                        bytes[i] = 0;
        return 5;
}

/*
 * Device memory one partition of pk's shape works in besides the bases, by
 * the scratch buffers it grows (n domain points, m = max(n, n_vars)):
 * - a, b, c: 3 n values; A's and B's gathered scalars share b and c once H
 *   is made (groth16.cu), or take 2 n_vars more where they do not fit;
 * - the witness: n_vars values;
 * - each MSM's scalars in canonical form: m values;
 * - the sort's keys and values, twice: 16 bytes an item, m or 2^26 items
 *   (a group of windows sorts up to 2^26); the 0/1 split's indices: 8 m;
 * - 4 GiB for the rest: the partial sums (two buffers, ~1 GB at 2^27 for
 *   B_G2's), 13 windows of 2^19 G1 buckets (1.3 GB), a host-streamed
 *   MSM's point batches, and small things (the reduction's sums, the
 *   transforms' scalings, densities, the compact witness: ~0.2 GB).
 * A 2^27 partition of up to 2^27 wires: 27 GiB (42.6 GiB were set aside
 * before A's and B's scalars shared b and c and the sizes were counted).
 */
uint64_t partition_device_bytes_shape(unsigned log_domain_size, uint64_t n_vars) {
        const uint64_t n = (uint64_t)1 << log_domain_size, fr = sizeof(fr_t);
        const uint64_t m = n > n_vars ? n : n_vars, sorted = m > (1u << 26) ? m : (1u << 26);
        const uint64_t gathered = n_vars > n ? 2 * n_vars * fr : 0;
        return 3 * n * fr + gathered + n_vars * fr + m * fr + 16 * sorted + 8 * m +
               ((uint64_t)4 << 30);
}

/* A circuit's PCE on the card takes ~44 bytes a domain point (32 GiB PoRep:
 * 5.9 GB for 2^27); a key goes to the card only with room for it too, as
 * the PCE's upload comes after the key's, with the first compact partition. */
uint64_t circuit_device_bytes_shape(unsigned log_domain_size) {
        return (uint64_t)48 << log_domain_size;
}

uint64_t partition_device_bytes(const struct groth16_pk *pk) {
        return partition_device_bytes_shape(pk->log_domain_size, pk->n_vars);
}

/* pk's resident key, or NULL where its bases stay in host memory. */
static const struct resident_key *resident_key_of(const gpu_prover_t *prover,
                                                  const struct groth16_pk *pk) {
        for (size_t i = 0; i < RESIDENT_KEYS_MAX; i++)
                if (prover->resident[i].pk == pk)
                        return &prover->resident[i];
        return NULL;
}

uint64_t lane_partition_bytes(const gpu_prover_t *prover, const struct groth16_pk *pk) {
        const struct resident_key *k = resident_key_of(prover, pk);
        return partition_device_bytes(pk) + (k ? k->lane_extra_bytes : 0);
}

/* MSM H at c = 22 instead of 20 (gpu.h): 12 windows instead of 13 for
 * ~3.9 GiB more a lane at 2^27, which an H200 has beside a 32 GiB PoRep key
 * and two lanes, and an 80 GB card with the key on it has not. The
 * operator's MsmWindow= fixes c for every MSM, and then this stays off. */
void resident_key_widen(gpu_prover_t *prover, struct resident_key *k) {
        const struct groth16_pk *pk = k->pk;
        const size_t n = groth16_h_bases(pk->h_convention, pk->log_domain_size);
        size_t free_bytes, total_bytes;

        k->points.h_window_bits = 0;
        k->lane_extra_bytes = 0;
        if (!k->points.h || prover->tuning.msm_window_bits || n < GPU_MSM_H_WIDE_MIN_POINTS ||
            gpu_memory_info(prover->ctx, &free_bytes, &total_bytes) < 0)
                return;
        const uint64_t wide = gpu_g1_msm_device_bytes(n, GPU_MSM_H_WIDE_BITS);
        const uint64_t plain = gpu_g1_msm_device_bytes(n, 0);
        const uint64_t extra = wide > plain ? wide - plain : 0;
        const uint64_t want = circuit_device_bytes_shape(pk->log_domain_size) +
                              (uint64_t)prover->tuning.lanes * (partition_device_bytes(pk) + extra);
        if (free_bytes < want) {
                log_debug("MSM H stays at its default window: %u lanes with c = %u would take "
                          "%.1f GiB of the GPU's %.1f GiB free",
                          prover->tuning.lanes, GPU_MSM_H_WIDE_BITS, (double)want / (1u << 30),
                          (double)free_bytes / (1u << 30));
                return;
        }
        k->points.h_window_bits = GPU_MSM_H_WIDE_BITS;
        k->lane_extra_bytes = extra;
        log_info("MSM H at c = %u: %.1f GiB more a lane, %.1f GiB of the GPU free for the PCE and "
                 "%u lanes",
                 GPU_MSM_H_WIDE_BITS, (double)extra / (1u << 30), (double)free_bytes / (1u << 30),
                 prover->tuning.lanes);
}

/* The words then the ranks of a density, as density_gather_step reads them. */
size_t density_device_bytes(const struct wire_density *d) {
        return d ? wire_density_bytes(d->n_wires) : 0;
}

static int copy_density(gpu_prover_t *prover, void *d_words, const struct wire_density *d) {
        const size_t half = density_device_bytes(d) / 2;
        int r = gpu_copy_to_device(prover->ctx, d_words, d->bits, half);
        return r < 0 ? r : gpu_copy_to_device(prover->ctx, (char *)d_words + half, d->rank, half);
}

void resident_extras(const struct groth16_pk *pk, const void *host[RESIDENT_ROLES],
                     size_t bytes[RESIDENT_ROLES]) {
        host[RESIDENT_A_DENSITY] = pk->a_density;
        bytes[RESIDENT_A_DENSITY] = density_device_bytes(pk->a_density);
        host[RESIDENT_B_DENSITY] = pk->b_density;
        bytes[RESIDENT_B_DENSITY] = density_device_bytes(pk->b_density);
        host[RESIDENT_B2] = pk->b2;
        bytes[RESIDENT_B2] = groth16_pk_b_points(pk) * sizeof(g2_affine_t);
}

/* pk's arrays for the card (host[] and bytes[], an array serving several
 * roles once, its owner[]) and their sum. */
static uint64_t resident_arrays(const struct groth16_pk *pk, const void *host[RESIDENT_ROLES],
                                size_t bytes[RESIDENT_ROLES], size_t owner[RESIDENT_ROLES]) {
        uint64_t need = 0;

        host[0] = pk->a, bytes[0] = groth16_pk_a_points(pk) * sizeof(g1_affine_t);
        host[1] = pk->b1, bytes[1] = groth16_pk_b_points(pk) * sizeof(g1_affine_t);
        host[2] = pk->l, bytes[2] = (pk->n_vars - pk->n_public - 1) * sizeof(g1_affine_t);
        host[3] = pk->h;
        bytes[3] = groth16_h_bases(pk->h_convention, pk->log_domain_size) * sizeof(g1_affine_t);
        resident_extras(pk, host, bytes);
        share_roles(host, bytes, owner, RESIDENT_ROLES);
        for (size_t i = 0; i < RESIDENT_ROLES; i++)
                need += bytes[i];
        return need;
}

int copy_arrays(gpu_prover_t *prover, struct resident_key *k,
                const void *const host[RESIDENT_ROLES], const size_t bytes[RESIDENT_ROLES]) {
        for (size_t i = 0; i < RESIDENT_ROLES; i++) {
                const bool density = i == RESIDENT_A_DENSITY || i == RESIDENT_B_DENSITY;
                int r;

                if (!bytes[i])
                        continue;
                r = gpu_alloc(prover->ctx, &k->d_arrays[i], bytes[i]);
                if (r >= 0)
                        r = density ? copy_density(prover, k->d_arrays[i], host[i])
                                    : gpu_copy_to_device(prover->ctx, k->d_arrays[i], host[i],
                                                         bytes[i]);
                if (r < 0) {
                        log_warning("Copying %zu bytes of the SRS to the GPU failed: %s", bytes[i],
                                    gpu_context_last_error(prover->ctx));
                        resident_key_free(prover, k);
                        return r;
                }
        }
        return 0;
}

/*
 * Copies pk's bases (A, B_G1, L, H, B_G2; an array serving several roles
 * once) and its densities into device memory, so that the MSMs read them
 * there instead of over PCIe (at 2^27, 41 GB a partition; B_G2's 6.4 GB of a
 * 32 GiB sector's key besides, and its MSM then keeps 0s and 1s apart): with
 * SrsResidence auto when the card has room for them and a partition (the
 * key stays usable from host memory otherwise), with device always (else
 * -ENOMEM), with host never.
 */
struct resident_key *resident_slot(gpu_prover_t *prover) {
        for (size_t i = 0; i < RESIDENT_KEYS_MAX; i++)
                if (!prover->resident[i].pk)
                        return &prover->resident[i];
        return NULL;
}

int resident_fits(gpu_prover_t *prover, uint64_t need, uint64_t partition_bytes) {
        const bool required = prover->tuning.srs == GPU_SRS_DEVICE;
        size_t free_bytes, total_bytes;
        int r;

        if (prover->tuning.srs == GPU_SRS_HOST)
                return 0;
        if (!resident_slot(prover))
                return required ? log_error_errno(ENOMEM,
                                                  "SrsResidence=device: %d keys are "
                                                  "already on the GPU, the most it holds",
                                                  RESIDENT_KEYS_MAX)
                                : 0;
        r = gpu_memory_info(prover->ctx, &free_bytes, &total_bytes);
        if (r < 0)
                return required ? r : 0;
        if (free_bytes < need + partition_bytes) {
                log_full_errno(required ? LOG_ERR : LOG_INFO, 0,
                               "SRS %s: its G1 bases (%.1f GiB) and a partition with its "
                               "circuit's PCE (%.1f GiB) do "
                               "not fit the GPU's %.1f GiB free",
                               required ? "refused (SrsResidence=device)" : "stays in host memory",
                               (double)need / (1u << 30), (double)partition_bytes / (1u << 30),
                               (double)free_bytes / (1u << 30));
                return required ? -ENOMEM : 0;
        }
        return 1;
}

static int make_resident(gpu_prover_t *prover, const struct groth16_pk *pk) {
        const bool required = prover->tuning.srs == GPU_SRS_DEVICE;
        const void *host[RESIDENT_ROLES];
        size_t bytes[RESIDENT_ROLES], owner[RESIDENT_ROLES];
        struct resident_key *k;
        uint64_t need;
        int r;

        if (resident_points(prover, pk))
                return 0; /* streamed there (gpu_prover_stream_adopt) */
        need = resident_arrays(pk, host, bytes, owner);
        r = resident_fits(prover, need,
                          partition_device_bytes(pk) +
                                  circuit_device_bytes_shape(pk->log_domain_size));
        if (r <= 0)
                return r;
        k = resident_slot(prover);
        r = copy_arrays(prover, k, host, bytes);
        if (r < 0)
                return required ? r : 0;
        resident_key_set(k, pk, owner);
        log_info("SRS resident on the GPU: %.1f GiB of G1 and B_G2 bases and densities",
                 (double)need / (1u << 30));
        resident_key_widen(prover, k);
        return 0;
}

/* A role of no points keeps NULL: its MSM reads nothing. */
void resident_key_set(struct resident_key *k, const struct groth16_pk *pk,
                      const size_t owner[RESIDENT_ROLES]) {
        k->points = (gpu_pk_points_t){.a = k->d_arrays[owner[GPU_KEY_A]],
                                      .b1 = k->d_arrays[owner[GPU_KEY_B1]],
                                      .l = k->d_arrays[owner[GPU_KEY_L]],
                                      .h = k->d_arrays[owner[GPU_KEY_H]],
                                      .a_density = k->d_arrays[owner[RESIDENT_A_DENSITY]],
                                      .b_density = k->d_arrays[owner[RESIDENT_B_DENSITY]],
                                      .b2 = k->d_arrays[owner[RESIDENT_B2]]};
        k->pk = pk;
}

const gpu_pk_points_t *resident_points(const gpu_prover_t *prover, const struct groth16_pk *pk) {
        const struct resident_key *k = resident_key_of(prover, pk);
        return k ? &k->points : NULL;
}

/* Unpins the first n of pk_arrays' arrays. */
static void unpin_arrays(gpu_prover_t *prover, const void *const ptr[], const size_t bytes[],
                         size_t n) {
        for (size_t i = 0; i < n; i++)
                if (ptr[i] && bytes[i])
                        (void)gpu_host_unregister(prover->ctx, (void *)ptr[i]);
}

static void drop_resident(gpu_prover_t *prover, const struct groth16_pk *pk) {
        for (size_t i = 0; i < RESIDENT_KEYS_MAX; i++)
                if (prover->resident[i].pk == pk)
                        resident_key_free(prover, &prover->resident[i]);
}

bool gpu_prover_pk_resident(const gpu_prover_t *prover, const struct groth16_pk *pk) {
        assert(prover && pk);
        return resident_points(prover, pk) != NULL;
}

/* The card first: what goes there is not pinned (pinning 38 GiB of a 32 GiB sector's G1
 * bases costs seconds, and their host copy may be freed once they are on the card). */
int gpu_prover_register_pk(gpu_prover_t *prover, const struct groth16_pk *pk) {
        const void *ptr[5];
        size_t bytes[5], n;
        int r;

        assert(prover && pk);
        r = make_resident(prover, pk);
        if (r < 0)
                return r;
        n = pk_arrays(pk, gpu_prover_pk_resident(prover, pk), ptr, bytes);
        for (size_t i = 0; i < n; i++) {
                if (!ptr[i] || !bytes[i])
                        continue;
                r = gpu_host_register(prover->ctx, (void *)ptr[i], bytes[i]);
                if (r < 0) {
                        unpin_arrays(prover, ptr, bytes, i);
                        drop_resident(prover, pk);
                        return log_error_errno(r, "Pinning %zu bytes of the SRS for the GPU: %s",
                                               bytes[i], gpu_context_last_error(prover->ctx));
                }
        }
        return 0;
}

void gpu_prover_unregister_pk(gpu_prover_t *prover, const struct groth16_pk *pk) {
        const void *ptr[5];
        size_t bytes[5], n;

        assert(prover && pk);
        n = pk_arrays(pk, gpu_prover_pk_resident(prover, pk), ptr, bytes);
        unpin_arrays(prover, ptr, bytes, n);
        drop_resident(prover, pk);
}
