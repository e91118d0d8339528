/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The MSM of msm.h for one group, written once for G1 and G2. Included by
 * msm.c (after its group-independent scalar, plan and chunk code) with:
 *   MSM_G(name)     group function name, e.g. g1_##name
 *   MSM_AFFINE_T, MSM_JAC_T, MSM_XYZZ_T   the point types
 *   MSM_FIELD_T     the coordinate field (scratch of the batch additions)
 * and undefines them at its end.
 */

#define MSM_FN(name) MSM_G(msm_##name)

/*
 * One thread's sum of the points with scalar 1: acc[i] += pending[i] as a
 * batch once pending is full, so that the field inversion is shared by a
 * whole batch; the acc entries are summed at the end. Without buffers
 * (allocation failed) the points go straight into `direct`.
 */
struct MSM_FN(ones) {
        MSM_AFFINE_T *acc;
        MSM_AFFINE_T *pending;
        MSM_FIELD_T *scratch;
        size_t batch, n_acc, n_pending;
        MSM_XYZZ_T direct;
};

static void MSM_FN(ones_init)(struct MSM_FN(ones) * ones, size_t batch) {
        assert(ones);
        assert(batch > 0);
        *ones = (struct MSM_FN(ones)){.batch = batch};
        MSM_G(xyzz_set_infinity)(&ones->direct);
        ones->acc = malloc(batch * sizeof(MSM_AFFINE_T));
        ones->pending = malloc(batch * sizeof(MSM_AFFINE_T));
        ones->scratch = malloc(batch * sizeof(MSM_FIELD_T));
        if (!ones->acc || !ones->pending || !ones->scratch) {
                free(ones->acc);
                free(ones->pending);
                free(ones->scratch);
                ones->acc = ones->pending = NULL;
                ones->scratch = NULL;
        }
}

static inline void MSM_FN(ones_add)(struct MSM_FN(ones) * ones, const MSM_AFFINE_T *p) {
        if (!ones->acc) {
                MSM_G(xyzz_add_affine)(&ones->direct, &ones->direct, p);
                return;
        }
        if (ones->n_acc < ones->batch) {
                ones->acc[ones->n_acc++] = *p;
                return;
        }
        ones->pending[ones->n_pending++] = *p;
        if (ones->n_pending == ones->batch) {
                MSM_G(affine_batch_add)(ones->acc, ones->pending, ones->batch, ones->scratch);
                ones->n_pending = 0;
        }
}

/* Sums everything added into *sum and releases the buffers. */
static void MSM_FN(ones_finish)(struct MSM_FN(ones) * ones, MSM_XYZZ_T *sum) {
        assert(ones);
        assert(sum);
        if (ones->n_pending > 0)
                MSM_G(affine_batch_add)(ones->acc, ones->pending, ones->n_pending, ones->scratch);
        *sum = ones->direct;
        for (size_t i = 0; i < ones->n_acc; i++)
                MSM_G(xyzz_add_affine)(sum, sum, &ones->acc[i]);
        free(ones->acc);
        free(ones->pending);
        free(ones->scratch);
        *ones = (struct MSM_FN(ones)){0};
}

static inline enum msm_scalar_class MSM_FN(classify)(const MSM_AFFINE_T *points,
                                                     const struct msm_scalars *scalars, size_t i) {
        enum msm_scalar_class c = msm_scalar_classify(scalars, i);

        if (c != MSM_SKIP && MSM_G(affine_is_infinity)(&points[i]))
                return MSM_SKIP;
        return c;
}

/* Counts, per block, the points with scalar 1 and those that need windows. */
static void MSM_FN(count_blocks)(size_t *block_windowed, size_t *block_ones,
                                 const MSM_AFFINE_T *points, const struct msm_scalars *scalars,
                                 size_t n, unsigned threads) {
        size_t nblocks = (n + MSM_BLOCK_POINTS - 1) / MSM_BLOCK_POINTS;

#pragma omp parallel for num_threads(threads) schedule(dynamic)
        for (size_t b = 0; b < nblocks; b++) {
                size_t windowed = 0, ones = 0;

                for (size_t i = b * MSM_BLOCK_POINTS; i < msm_block_end(b, n); i++) {
                        enum msm_scalar_class c = MSM_FN(classify)(points, scalars, i);
                        windowed += c == MSM_WINDOWED;
                        ones += c == MSM_ONE;
                }
                block_windowed[b] = windowed;
                block_ones[b] = ones;
        }
}

/* Digits of the windowed points of block b, from slot `first_slot` of the
 * chunk's rows on: digits[w * row_length + slot] is window w's digit. */
static void MSM_FN(block_digits)(int32_t *digits, size_t *point_index, size_t row_length,
                                 size_t first_slot, const struct msm_plan *plan,
                                 const MSM_AFFINE_T *points, const struct msm_scalars *scalars,
                                 size_t b, size_t n) {
        size_t slot = first_slot;

        for (size_t i = b * MSM_BLOCK_POINTS; i < msm_block_end(b, n); i++) {
                uint64_t k[MSM_SCALAR_LIMBS];

                if (MSM_FN(classify)(points, scalars, i) != MSM_WINDOWED)
                        continue;
                msm_scalar_limbs(k, scalars, i);
                point_index[slot] = i;
                for (unsigned w = 0; w < plan->windows; w++)
                        digits[w * row_length + slot] = msm_booth_digit(k, w, plan->window_bits);
                slot++;
        }
}

/*
 * Adds every point whose digit's magnitude is in the tile's range into the
 * tile's bucket for that magnitude (subtracts it for a negative digit).
 * Magnitudes below the range wrap around to large unsigned slots, so one
 * comparison rejects both sides (and the zero digits).
 */
static void MSM_FN(tile_accumulate)(MSM_XYZZ_T *buckets, const struct msm_tile *tile,
                                    const int32_t *digits, const size_t *point_index, size_t count,
                                    const MSM_AFFINE_T *points) {
        for (size_t j = 0; j < count; j++) {
                int32_t d = digits[j];
                uint32_t magnitude = d < 0 ? (uint32_t)-d : (uint32_t)d;
                uint32_t slot = magnitude - tile->first_magnitude;
                MSM_XYZZ_T *bucket;

                if (slot >= tile->bucket_count)
                        continue;
                bucket = &buckets[slot];
                if (d > 0)
                        MSM_G(xyzz_add_affine)(bucket, bucket, &points[point_index[j]]);
                else
                        MSM_G(xyzz_sub_affine)(bucket, bucket, &points[point_index[j]]);
        }
}

/*
 * r = sum over the tile's buckets of magnitude * B. The running sum from the
 * top gives sum (magnitude - first + 1) * B and, at its end, sum B; the
 * remaining (first - 1) * sum B is one multiplication by a c-bit number.
 */
static void MSM_FN(tile_reduce)(MSM_JAC_T *r, const MSM_XYZZ_T *buckets,
                                const struct msm_tile *tile) {
        MSM_XYZZ_T running, total;

        MSM_G(xyzz_set_infinity)(&running);
        MSM_G(xyzz_set_infinity)(&total);
        for (size_t b = tile->bucket_count; b-- > 0;) {
                MSM_G(xyzz_add)(&running, &running, &buckets[b]);
                MSM_G(xyzz_add)(&total, &total, &running);
        }
        MSM_G(xyzz_to_jac)(r, &total);
        if (tile->first_magnitude > 1) {
                uint64_t below = tile->first_magnitude - 1;
                MSM_JAC_T sum, offset;

                MSM_G(xyzz_to_jac)(&sum, &running);
                MSM_G(jac_mul)(&offset, &sum, &below, 64);
                MSM_G(jac_add)(r, r, &offset);
        }
}

/* r = sum over windows of 2^(wc) * (sum of the window's tiles). */
static void MSM_FN(combine_windows)(MSM_JAC_T *r, const MSM_JAC_T *tile_sums,
                                    const struct msm_plan *plan) {
        MSM_G(jac_set_infinity)(r);
        for (unsigned w = plan->windows; w-- > 0;) {
                if (!MSM_G(jac_is_infinity)(r))
                        for (unsigned i = 0; i < plan->window_bits; i++)
                                MSM_G(jac_dbl)(r, r);
                for (unsigned s = 0; s < plan->splits; s++)
                        MSM_G(jac_add)(r, r, &tile_sums[w * plan->splits + s]);
        }
}

/*
 * The windowed part, all threads: per chunk, the digits (parallel over
 * blocks) then the tiles (parallel over tiles); finally each tile's
 * reduction. tile_sums gets plan->tiles entries.
 */
static void MSM_FN(windows_run)(MSM_JAC_T *tile_sums, MSM_XYZZ_T *buckets, int32_t *digits,
                                size_t *point_index, const struct msm_chunks *chunks,
                                const size_t *block_slot, const struct msm_plan *plan,
                                const MSM_AFFINE_T *points, const struct msm_scalars *scalars,
                                size_t n, unsigned threads) {
#pragma omp parallel num_threads(threads)
        {
#pragma omp for schedule(static)
                for (size_t i = 0; i < (size_t)plan->windows * plan->buckets_per_window; i++)
                        MSM_G(xyzz_set_infinity)(&buckets[i]);

                for (size_t c = 0; c < chunks->count; c++) {
#pragma omp for schedule(dynamic)
                        for (size_t b = chunks->first_block[c]; b < chunks->first_block[c + 1]; b++)
                                MSM_FN(block_digits)
                        (digits, point_index, chunks->capacity, block_slot[b], plan, points,
                         scalars, b, n);

                        /* Tiles in window order: the light top window comes
                         * last and fills the gaps of the dynamic schedule. */
#pragma omp for schedule(dynamic, 1)
                        for (unsigned t = 0; t < plan->tiles; t++) {
                                struct msm_tile tile = msm_plan_tile(plan, t);

                                MSM_FN(tile_accumulate)
                                (buckets + tile.bucket_offset, &tile,
                                 digits + (size_t)tile.window * chunks->capacity, point_index,
                                 chunks->points[c], points);
                        }
                }

#pragma omp for schedule(dynamic, 1)
                for (unsigned t = 0; t < plan->tiles; t++) {
                        struct msm_tile tile = msm_plan_tile(plan, t);

                        MSM_FN(tile_reduce)(&tile_sums[t], buckets + tile.bucket_offset, &tile);
                }
        }
}

/* The points with scalar 1, summed by every thread over blocks it takes;
 * ones_sums gets one entry per thread. */
static void MSM_FN(ones_run)(MSM_XYZZ_T *ones_sums, const size_t *block_ones, size_t ones_total,
                             const MSM_AFFINE_T *points, const struct msm_scalars *scalars,
                             size_t n, unsigned threads) {
        size_t nblocks = (n + MSM_BLOCK_POINTS - 1) / MSM_BLOCK_POINTS;
        size_t batch = ones_total < MSM_ONES_BATCH ? ones_total : MSM_ONES_BATCH;

        for (unsigned t = 0; t < threads; t++)
                MSM_G(xyzz_set_infinity)(&ones_sums[t]);
#pragma omp parallel num_threads(threads)
        {
                struct MSM_FN(ones) ones;

                MSM_FN(ones_init)(&ones, batch);
#pragma omp for schedule(dynamic)
                for (size_t b = 0; b < nblocks; b++) {
                        if (!block_ones[b])
                                continue;
                        for (size_t i = b * MSM_BLOCK_POINTS; i < msm_block_end(b, n); i++)
                                if (MSM_FN(classify)(points, scalars, i) == MSM_ONE)
                                        MSM_FN(ones_add)(&ones, &points[i]);
                }
                MSM_FN(ones_finish)(&ones, &ones_sums[omp_get_thread_num()]);
        }
}

static int MSM_FN(run)(MSM_JAC_T *r, const MSM_AFFINE_T *points, const struct msm_scalars *scalars,
                       size_t n, unsigned threads) {
        _cleanup_free_ size_t *block_windowed = NULL, *block_ones = NULL, *point_index = NULL;
        _cleanup_free_ int32_t *digits = NULL;
        _cleanup_free_ MSM_XYZZ_T *buckets = NULL, *ones_sums = NULL;
        _cleanup_free_ MSM_JAC_T *tile_sums = NULL;
        struct msm_chunks chunks = {0};
        struct msm_plan plan;
        size_t nblocks, windowed_total = 0, ones_total = 0;
        MSM_JAC_T sum;
        int ret;

        assert(r);
        if (threads == 0)
                threads = zk_thread_count();
        if (n == 0) {
                MSM_G(jac_set_infinity)(r);
                return 0;
        }

        nblocks = (n + MSM_BLOCK_POINTS - 1) / MSM_BLOCK_POINTS;
        block_windowed = malloc(nblocks * sizeof(size_t));
        block_ones = malloc(nblocks * sizeof(size_t));
        ones_sums = malloc(threads * sizeof(MSM_XYZZ_T));
        if (!block_windowed || !block_ones || !ones_sums)
                return -ENOMEM;
        MSM_FN(count_blocks)(block_windowed, block_ones, points, scalars, n, threads);
        for (size_t b = 0; b < nblocks; b++) {
                windowed_total += block_windowed[b];
                ones_total += block_ones[b];
        }

        MSM_G(jac_set_infinity)(&sum);
        if (windowed_total > 0) {
                msm_plan_choose(&plan, windowed_total, threads);
                ret = msm_chunks_build(&chunks, block_windowed, nblocks);
                if (ret < 0)
                        return ret;
                buckets =
                        malloc((size_t)plan.windows * plan.buckets_per_window * sizeof(MSM_XYZZ_T));
                digits = malloc((size_t)plan.windows * chunks.capacity * sizeof(int32_t));
                point_index = malloc(chunks.capacity * sizeof(size_t));
                tile_sums = malloc(plan.tiles * sizeof(MSM_JAC_T));
                if (!buckets || !digits || !point_index || !tile_sums) {
                        msm_chunks_free(&chunks);
                        return -ENOMEM;
                }
                MSM_FN(windows_run)
                (tile_sums, buckets, digits, point_index, &chunks, block_windowed, &plan, points,
                 scalars, n, threads);
                msm_chunks_free(&chunks);
                MSM_FN(combine_windows)(&sum, tile_sums, &plan);
        }

        if (ones_total > 0) {
                MSM_FN(ones_run)(ones_sums, block_ones, ones_total, points, scalars, n, threads);
                for (unsigned t = 0; t < threads; t++) {
                        MSM_JAC_T one_sum;

                        MSM_G(xyzz_to_jac)(&one_sum, &ones_sums[t]);
                        MSM_G(jac_add)(&sum, &sum, &one_sum);
                }
        }
        *r = sum;
        return 0;
}

#undef MSM_FN
#undef MSM_G
#undef MSM_AFFINE_T
#undef MSM_JAC_T
#undef MSM_XYZZ_T
#undef MSM_FIELD_T
