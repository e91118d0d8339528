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
#define MSM_ONES_T MSM_G(msm_ones_t)
#define MSM_SORTER_T MSM_G(msm_sorter_t)
#define MSM_JOB_T MSM_G(msm_job_t)

/*
 * One thread's sum of the points with scalar 1: acc[i] += pending[i] as a
 * batch once pending is full, so that the field inversion is shared by a
 * whole batch; the acc entries are summed at the end. Without buffers
 * (allocation failed) the points go straight into `direct`.
 */
typedef struct {
        MSM_AFFINE_T *acc;
        MSM_AFFINE_T *pending;
        MSM_FIELD_T *scratch;
        size_t batch, n_acc, n_pending;
        MSM_XYZZ_T direct;
} MSM_ONES_T;

static void MSM_FN(ones_init)(MSM_ONES_T *ones, size_t batch) {
        assert(ones);
        assert(batch > 0);
        *ones = (MSM_ONES_T){.batch = batch};
        MSM_G(xyzz_set_infinity)(&ones->direct);
        ones->acc = big_alloc(batch * sizeof(MSM_AFFINE_T));
        ones->pending = malloc(batch * sizeof(MSM_AFFINE_T));
        ones->scratch = big_alloc(batch * sizeof(MSM_FIELD_T));
        if (!ones->acc || !ones->pending || !ones->scratch) {
                free(ones->acc);
                free(ones->pending);
                free(ones->scratch);
                ones->acc = ones->pending = NULL;
                ones->scratch = NULL;
        }
}

static inline void MSM_FN(ones_add)(MSM_ONES_T *ones, const MSM_AFFINE_T *p) {
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
static void MSM_FN(ones_finish)(MSM_ONES_T *ones, MSM_XYZZ_T *sum) {
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
        *ones = (MSM_ONES_T){0};
}

/*
 * A thread's staging area for affine buckets. Up to MSM_SORTER_OPS bucket
 * additions are collected, sorted by bucket, each bucket's points summed
 * pairwise in rounds of batch additions, and the sums added to the buckets
 * in one last batch. Each batch shares one inversion, and no batch touches
 * a point twice however the digits fall (all equal digits included):
 * log2(ops per bucket) + 1 batches, one addition per op in all.
 */
typedef struct {
        size_t n_ops;
        uint32_t *op_slot;             /* MSM_SORTER_OPS: the op's bucket */
        const MSM_AFFINE_T **op_point; /* MSM_SORTER_OPS: the point to add */
        bool *op_negative;             /* MSM_SORTER_OPS: subtract it instead */
        uint32_t *slot_ops;            /* per bucket of a tile: 0 between flushes */
        uint32_t *touched;             /* buckets with ops, in order of first op */
        uint32_t *segment_start;       /* per touched bucket: its points in sorted[] */
        uint32_t *segment_length;
        MSM_AFFINE_T *sorted;    /* the ops' points (negated as needed), by bucket */
        MSM_AFFINE_T *acc, *add; /* one batch: acc[i] += add[i] */
        uint32_t *home;          /* where acc[i] goes back in sorted[] */
        MSM_FIELD_T *scratch;
} MSM_SORTER_T;

static void MSM_FN(sorter_free)(MSM_SORTER_T *s) {
        free(s->op_slot);
        free(s->op_point);
        free(s->op_negative);
        free(s->slot_ops);
        free(s->touched);
        free(s->segment_start);
        free(s->segment_length);
        free(s->sorted);
        free(s->acc);
        free(s->add);
        free(s->home);
        free(s->scratch);
        *s = (MSM_SORTER_T){0};
}

static int MSM_FN(sorter_init)(MSM_SORTER_T *s, uint32_t max_tile_buckets) {
        const size_t n = MSM_SORTER_OPS;

        assert(s);
        *s = (MSM_SORTER_T){0};
        s->op_slot = big_alloc(n * sizeof(uint32_t));
        s->op_point = big_alloc(n * sizeof(MSM_AFFINE_T *));
        s->op_negative = big_alloc(n * sizeof(bool));
        s->slot_ops = calloc(max_tile_buckets, sizeof(uint32_t));
        s->touched = big_alloc(n * sizeof(uint32_t));
        s->segment_start = big_alloc(n * sizeof(uint32_t));
        s->segment_length = big_alloc(n * sizeof(uint32_t));
        s->sorted = big_alloc(n * sizeof(MSM_AFFINE_T));
        s->acc = big_alloc(n * sizeof(MSM_AFFINE_T));
        s->add = big_alloc(n * sizeof(MSM_AFFINE_T));
        s->home = big_alloc(n * sizeof(uint32_t));
        s->scratch = big_alloc(n * sizeof(MSM_FIELD_T));
        if (!s->op_slot || !s->op_point || !s->op_negative || !s->slot_ops || !s->touched ||
            !s->segment_start || !s->segment_length || !s->sorted || !s->acc || !s->add ||
            !s->home || !s->scratch) {
                MSM_FN(sorter_free)(s);
                return -ENOMEM;
        }
        return 0;
}

/* Applies the collected ops to buckets (the tile's affine buckets). */
static void MSM_FN(sorter_flush)(MSM_SORTER_T *s, MSM_AFFINE_T *buckets) {
        size_t n_touched = 0;
        uint32_t position = 0;

        /* Counting sort by bucket; slot_ops becomes each bucket's cursor. */
        for (size_t i = 0; i < s->n_ops; i++)
                if (s->slot_ops[s->op_slot[i]]++ == 0)
                        s->touched[n_touched++] = s->op_slot[i];
        for (size_t t = 0; t < n_touched; t++) {
                uint32_t *ops = &s->slot_ops[s->touched[t]];

                s->segment_start[t] = position;
                s->segment_length[t] = *ops;
                position += *ops;
                *ops = s->segment_start[t];
        }
        for (size_t i = 0; i < s->n_ops; i++) {
                MSM_AFFINE_T *dst = &s->sorted[s->slot_ops[s->op_slot[i]]++];

                if (s->op_negative[i])
                        MSM_G(affine_neg)(dst, s->op_point[i]);
                else
                        *dst = *s->op_point[i];
        }

        /* Halve every bucket's segment per round: its i-th point from the
         * front plus its i-th from the back, kept in front. */
        for (;;) {
                size_t pairs = 0;

                for (size_t t = 0; t < n_touched; t++) {
                        uint32_t start = s->segment_start[t], length = s->segment_length[t];

                        for (uint32_t i = 0; i < length / 2; i++) {
                                s->acc[pairs] = s->sorted[start + i];
                                s->add[pairs] = s->sorted[start + length - 1 - i];
                                s->home[pairs++] = start + i;
                        }
                        s->segment_length[t] = length - length / 2;
                }
                if (pairs == 0)
                        break;
                MSM_G(affine_batch_add)(s->acc, s->add, pairs, s->scratch);
                for (size_t p = 0; p < pairs; p++)
                        s->sorted[s->home[p]] = s->acc[p];
        }

        for (size_t t = 0; t < n_touched; t++) {
                s->acc[t] = buckets[s->touched[t]];
                s->add[t] = s->sorted[s->segment_start[t]];
        }
        MSM_G(affine_batch_add)(s->acc, s->add, n_touched, s->scratch);
        for (size_t t = 0; t < n_touched; t++) {
                buckets[s->touched[t]] = s->acc[t];
                s->slot_ops[s->touched[t]] = 0;
        }
        s->n_ops = 0;
}

/* Everything the threads of one MSM share. */
typedef struct {
        const MSM_AFFINE_T *points;
        const struct msm_scalars *scalars;
        size_t n;
        unsigned threads;
        /* the windowed part */
        struct msm_plan plan;
        struct msm_chunks chunks;
        const size_t *block_slot;     /* first digit slot of each block in its chunk */
        int32_t *digits;              /* windows rows of chunks.capacity digits */
        size_t *point_index;          /* chunks.capacity: the point of each digit slot */
        MSM_XYZZ_T *xyzz_buckets;     /* windows * buckets_per_window, or */
        MSM_AFFINE_T *affine_buckets; /* the same when plan.affine_buckets */
        MSM_SORTER_T *sorters;        /* one per thread, for affine buckets */
        MSM_JAC_T *tile_sums;         /* plan.tiles */
} MSM_JOB_T;

static inline enum msm_scalar_class MSM_FN(classify)(const MSM_JOB_T *job, size_t i) {
        enum msm_scalar_class c = msm_scalar_classify(job->scalars, i);

        if (c != MSM_SKIP && MSM_G(affine_is_infinity)(&job->points[i]))
                return MSM_SKIP;
        return c;
}

/* Counts, per block, the points with scalar 1 and those that need windows. */
static void MSM_FN(count_blocks)(const MSM_JOB_T *job, size_t *block_windowed, size_t *block_ones) {
        size_t nblocks = msm_block_count(job->n);

#pragma omp parallel for num_threads(msm_threads_for(job->threads, nblocks, 1)) schedule(dynamic)
        for (size_t b = 0; b < nblocks; b++) {
                size_t windowed = 0, ones = 0;

                for (size_t i = b * MSM_BLOCK_POINTS; i < msm_block_end(b, job->n); i++) {
                        enum msm_scalar_class c = MSM_FN(classify)(job, i);

                        windowed += c == MSM_WINDOWED;
                        ones += c == MSM_ONE;
                }
                block_windowed[b] = windowed;
                block_ones[b] = ones;
        }
}

/* The digits of block b's windowed points, from its first slot in the
 * chunk's rows on: digits[w * capacity + slot] is window w's digit. */
static void MSM_FN(block_digits)(const MSM_JOB_T *job, size_t b) {
        const struct msm_plan *plan = &job->plan;
        size_t slot = job->block_slot[b], row = job->chunks.capacity;

        for (size_t i = b * MSM_BLOCK_POINTS; i < msm_block_end(b, job->n); i++) {
                uint64_t k[MSM_SCALAR_LIMBS];

                if (MSM_FN(classify)(job, i) != MSM_WINDOWED)
                        continue;
                msm_scalar_limbs(k, job->scalars, i);
                job->point_index[slot] = i;
                for (unsigned w = 0; w < plan->windows; w++)
                        job->digits[w * row + slot] = msm_booth_digit(k, w, plan->window_bits);
                slot++;
        }
}

/*
 * Adds every point of the chunk whose digit's magnitude is in the tile's
 * range into the tile's bucket for that magnitude (subtracts it for a
 * negative digit). Magnitudes below the range wrap around to large unsigned
 * slots, so one comparison rejects both sides (and the zero digits).
 */
static void MSM_FN(tile_accumulate)(const MSM_JOB_T *job, const struct msm_tile *tile,
                                    size_t count) {
        const int32_t *digits = job->digits + (size_t)tile->window * job->chunks.capacity;
        MSM_SORTER_T *sorter = NULL;
        MSM_AFFINE_T *affine_buckets = NULL;

        if (job->plan.affine_buckets) {
                sorter = &job->sorters[omp_get_thread_num()];
                affine_buckets = job->affine_buckets + tile->bucket_offset;
        }
        for (size_t j = 0; j < count; j++) {
                int32_t d = digits[j];
                uint32_t magnitude = d < 0 ? (uint32_t)-d : (uint32_t)d;
                uint32_t slot = magnitude - tile->first_magnitude;
                const MSM_AFFINE_T *p;

                if (slot >= tile->bucket_count)
                        continue;
                p = &job->points[job->point_index[j]];
                if (sorter) {
                        sorter->op_slot[sorter->n_ops] = slot;
                        sorter->op_point[sorter->n_ops] = p;
                        sorter->op_negative[sorter->n_ops] = d < 0;
                        if (++sorter->n_ops == MSM_SORTER_OPS)
                                MSM_FN(sorter_flush)(sorter, affine_buckets);
                } else {
                        MSM_XYZZ_T *bucket = &job->xyzz_buckets[tile->bucket_offset + slot];

                        if (d > 0)
                                MSM_G(xyzz_add_affine)(bucket, bucket, p);
                        else
                                MSM_G(xyzz_sub_affine)(bucket, bucket, p);
                }
        }
        /* The sorter is the thread's, the buckets the tile's: empty it now. */
        if (sorter)
                MSM_FN(sorter_flush)(sorter, affine_buckets);
}

/*
 * The tile's sum of magnitude * B. The running sum from the top gives
 * sum (magnitude - first + 1) * B and, at its end, sum B; the remaining
 * (first - 1) * sum B is one multiplication by a c-bit number.
 */
static void MSM_FN(tile_reduce)(const MSM_JOB_T *job, const struct msm_tile *tile, MSM_JAC_T *r) {
        MSM_XYZZ_T running, total;

        MSM_G(xyzz_set_infinity)(&running);
        MSM_G(xyzz_set_infinity)(&total);
        for (size_t b = tile->bucket_count; b-- > 0;) {
                size_t i = tile->bucket_offset + b;

                if (job->plan.affine_buckets)
                        MSM_G(xyzz_add_affine)(&running, &running, &job->affine_buckets[i]);
                else
                        MSM_G(xyzz_add)(&running, &running, &job->xyzz_buckets[i]);
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
static void MSM_FN(combine_windows)(const MSM_JOB_T *job, MSM_JAC_T *r) {
        const struct msm_plan *plan = &job->plan;

        MSM_G(jac_set_infinity)(r);
        for (unsigned w = plan->windows; w-- > 0;) {
                if (!MSM_G(jac_is_infinity)(r))
                        for (unsigned i = 0; i < plan->window_bits; i++)
                                MSM_G(jac_dbl)(r, r);
                for (unsigned s = 0; s < plan->splits; s++)
                        MSM_G(jac_add)(r, r, &job->tile_sums[s * plan->windows + w]);
        }
}

/*
 * The windowed part, all threads: per chunk, the digits (parallel over
 * blocks) then the tiles (parallel over tiles); finally each tile's
 * reduction into job->tile_sums.
 */
static void MSM_FN(windows_run)(const MSM_JOB_T *job, size_t windowed_total) {
        const struct msm_plan *plan = &job->plan;
        size_t nbuckets = (size_t)plan->windows * plan->buckets_per_window;
        size_t adds = windowed_total * plan->windows + 2 * nbuckets;

#pragma omp parallel num_threads(msm_threads_for(job->threads, adds, MSM_MIN_ADDS_PER_THREAD))
        {
#pragma omp for schedule(static)
                for (size_t i = 0; i < nbuckets; i++) {
                        if (plan->affine_buckets)
                                MSM_G(affine_set_infinity)(&job->affine_buckets[i]);
                        else
                                MSM_G(xyzz_set_infinity)(&job->xyzz_buckets[i]);
                }

                for (size_t c = 0; c < job->chunks.count; c++) {
#pragma omp for schedule(dynamic)
                        for (size_t b = job->chunks.first_block[c];
                             b < job->chunks.first_block[c + 1]; b++)
                                MSM_FN(block_digits)(job, b);

                                /* Largest tiles first (see msm_split_start). */
#pragma omp for schedule(dynamic, 1)
                        for (unsigned t = 0; t < plan->tiles; t++) {
                                struct msm_tile tile = msm_plan_tile(plan, t);

                                MSM_FN(tile_accumulate)(job, &tile, job->chunks.points[c]);
                        }
                }

#pragma omp for schedule(dynamic, 1)
                for (unsigned t = 0; t < plan->tiles; t++) {
                        struct msm_tile tile = msm_plan_tile(plan, t);

                        MSM_FN(tile_reduce)(job, &tile, &job->tile_sums[t]);
                }
        }
}

/* The points with scalar 1, summed by every thread over the blocks it
 * takes; ones_sums gets one entry per thread. */
static void MSM_FN(ones_run)(const MSM_JOB_T *job, const size_t *block_ones, size_t ones_total,
                             MSM_XYZZ_T *ones_sums) {
        size_t nblocks = msm_block_count(job->n);
        size_t batch = ones_total < MSM_ONES_BATCH ? ones_total : MSM_ONES_BATCH;

        for (unsigned t = 0; t < job->threads; t++)
                MSM_G(xyzz_set_infinity)(&ones_sums[t]);
#pragma omp parallel num_threads(msm_threads_for(job->threads, ones_total, MSM_MIN_ADDS_PER_THREAD))
        {
                MSM_ONES_T ones;

                MSM_FN(ones_init)(&ones, batch);
#pragma omp for schedule(dynamic)
                for (size_t b = 0; b < nblocks; b++) {
                        if (!block_ones[b])
                                continue;
                        for (size_t i = b * MSM_BLOCK_POINTS; i < msm_block_end(b, job->n); i++)
                                if (MSM_FN(classify)(job, i) == MSM_ONE)
                                        MSM_FN(ones_add)(&ones, &job->points[i]);
                }
                MSM_FN(ones_finish)(&ones, &ones_sums[omp_get_thread_num()]);
        }
}

static void MSM_FN(job_free)(MSM_JOB_T *job) {
        msm_chunks_free(&job->chunks);
        free(job->digits);
        free(job->point_index);
        free(job->xyzz_buckets);
        free(job->affine_buckets);
        if (job->sorters)
                for (unsigned t = 0; t < job->threads; t++)
                        MSM_FN(sorter_free)(&job->sorters[t]);
        free(job->sorters);
        free(job->tile_sums);
}

/* Plans the windowed part of windowed_total points and allocates for it. */
static int MSM_FN(job_prepare_windows)(MSM_JOB_T *job, size_t *block_windowed,
                                       size_t windowed_total) {
        struct msm_plan *plan = &job->plan;
        size_t nbuckets;
        int r;

        msm_plan_choose(plan, windowed_total, job->threads);
        r = msm_chunks_build(&job->chunks, block_windowed, msm_block_count(job->n));
        if (r < 0)
                return r;
        job->block_slot = block_windowed;
        nbuckets = (size_t)plan->windows * plan->buckets_per_window;
        job->digits = malloc((size_t)plan->windows * job->chunks.capacity * sizeof(int32_t));
        job->point_index = malloc(job->chunks.capacity * sizeof(size_t));
        job->tile_sums = malloc(plan->tiles * sizeof(MSM_JAC_T));
        if (!job->digits || !job->point_index || !job->tile_sums)
                return -ENOMEM;
        if (!plan->affine_buckets) {
                job->xyzz_buckets = malloc(nbuckets * sizeof(MSM_XYZZ_T));
                return job->xyzz_buckets ? 0 : -ENOMEM;
        }
        job->affine_buckets = malloc(nbuckets * sizeof(MSM_AFFINE_T));
        job->sorters = calloc(job->threads, sizeof(MSM_SORTER_T));
        if (!job->affine_buckets || !job->sorters)
                return -ENOMEM;
        for (unsigned t = 0; t < job->threads; t++) {
                r = MSM_FN(sorter_init)(&job->sorters[t], msm_plan_max_tile_buckets(plan));
                if (r < 0)
                        return r;
        }
        return 0;
}

static int MSM_FN(run)(MSM_JAC_T *r, const MSM_AFFINE_T *points, const struct msm_scalars *scalars,
                       size_t n, unsigned threads) {
        _cleanup_free_ size_t *block_windowed = NULL, *block_ones = NULL;
        _cleanup_free_ MSM_XYZZ_T *ones_sums = NULL;
        MSM_JOB_T job = {
                .points = points,
                .scalars = scalars,
                .n = n,
                .threads = threads ? threads : zk_thread_count(),
        };
        size_t nblocks = msm_block_count(n), windowed_total = 0, ones_total = 0;
        MSM_JAC_T sum;
        int ret;

        assert(r);
        if (n == 0) {
                MSM_G(jac_set_infinity)(r);
                return 0;
        }
        block_windowed = malloc(nblocks * sizeof(size_t));
        block_ones = malloc(nblocks * sizeof(size_t));
        ones_sums = malloc(job.threads * sizeof(MSM_XYZZ_T));
        if (!block_windowed || !block_ones || !ones_sums)
                return -ENOMEM;
        MSM_FN(count_blocks)(&job, block_windowed, block_ones);
        for (size_t b = 0; b < nblocks; b++) {
                windowed_total += block_windowed[b];
                ones_total += block_ones[b];
        }

        MSM_G(jac_set_infinity)(&sum);
        if (windowed_total > 0) {
                ret = MSM_FN(job_prepare_windows)(&job, block_windowed, windowed_total);
                if (ret < 0) {
                        MSM_FN(job_free)(&job);
                        return ret;
                }
                MSM_FN(windows_run)(&job, windowed_total);
                MSM_FN(combine_windows)(&job, &sum);
        }
        MSM_FN(job_free)(&job);

        if (ones_total > 0) {
                MSM_FN(ones_run)(&job, block_ones, ones_total, ones_sums);
                for (unsigned t = 0; t < job.threads; t++) {
                        MSM_JAC_T one_sum;

                        MSM_G(xyzz_to_jac)(&one_sum, &ones_sums[t]);
                        MSM_G(jac_add)(&sum, &sum, &one_sum);
                }
        }
        *r = sum;
        return 0;
}

#undef MSM_JOB_T
#undef MSM_SORTER_T
#undef MSM_ONES_T
#undef MSM_FN
#undef MSM_G
#undef MSM_AFFINE_T
#undef MSM_JAC_T
#undef MSM_XYZZ_T
#undef MSM_FIELD_T
