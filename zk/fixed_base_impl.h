/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The functions of fixed_base.h for one group, written once for G1 and G2.
 * Included by fixed_base.c with:
 *   FB_G(name)      group function name, e.g. g1_##name
 *   FB_AFFINE_T, FB_JAC_T   the point types
 *   FB_FIELD_T      the coordinate field (scratch of the batch additions)
 *   FB_TABLE_T      the table struct
 * and undefines them at its end.
 */

void FB_G(fixed_base_free)(FB_TABLE_T *t) {
        if (!t)
                return;
        free(t->table);
        free(t);
}

/*
 * out[i] = out[0] + i q for i < n, out[0] given, in blocks that double:
 * out[len + i] = out[i] + len q. Every point is one addition in a batch of
 * up to FIXED_BASE_CHUNK sharing an inversion, several times cheaper than
 * a chain of Jacobian additions normalised afterwards. add and scratch
 * hold FIXED_BASE_CHUNK elements.
 */
static void FB_G(fill_progression)(FB_AFFINE_T *out, size_t n, const FB_AFFINE_T *q,
                                   FB_AFFINE_T *add, FB_FIELD_T *scratch) {
        FB_AFFINE_T step = *q; /* len q */

        for (size_t len = 1; len < n; len *= 2) {
                size_t block = len < n - len ? len : n - len;

                for (size_t i0 = 0; i0 < block; i0 += FIXED_BASE_CHUNK) {
                        size_t m = block - i0 < FIXED_BASE_CHUNK ? block - i0 : FIXED_BASE_CHUNK;

                        for (size_t i = 0; i < m; i++) {
                                out[len + i0 + i] = out[i0 + i];
                                add[i] = step;
                        }
                        FB_G(affine_batch_add)(out + len + i0, add, m, scratch);
                }
                add[0] = step;
                FB_G(affine_batch_add)(&step, add, 1, scratch); /* doubled */
        }
}

/* The table's rows m B_w, m = 1 .. multiples_per_window, one window per
 * task; add and scratch hold FIXED_BASE_CHUNK elements per thread. */
static void FB_G(fixed_base_fill)(FB_TABLE_T *t, const FB_AFFINE_T *window_bases, FB_AFFINE_T *add,
                                  FB_FIELD_T *scratch, unsigned threads) {
#pragma omp parallel for num_threads(threads) schedule(dynamic)
        for (unsigned w = 0; w < t->windows; w++) {
                FB_AFFINE_T *row = t->table + (size_t)w * t->multiples_per_window;
                size_t me = (size_t)omp_get_thread_num() * FIXED_BASE_CHUNK;

                row[0] = window_bases[w];
                FB_G(fill_progression)
                (row, t->multiples_per_window, &window_bases[w], add + me, scratch + me);
        }
}

int FB_G(fixed_base_new)(FB_TABLE_T **ret, const FB_AFFINE_T *base, size_t n_scalars,
                         unsigned threads) {
        const unsigned c = fixed_base_window_bits(n_scalars), windows = fixed_base_windows(c);
        const size_t multiples = (size_t)1 << (c - 1);
        FB_TABLE_T *t;
        FB_JAC_T b;

        assert(ret);
        assert(base);
        if (!threads)
                threads = zk_thread_count();

        _cleanup_free_ FB_AFFINE_T *table = malloc(windows * multiples * sizeof(FB_AFFINE_T));
        _cleanup_free_ FB_AFFINE_T *window_bases = malloc(windows * sizeof(FB_AFFINE_T));
        _cleanup_free_ FB_AFFINE_T *add = malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_AFFINE_T));
        _cleanup_free_ FB_FIELD_T *scratch =
                malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_FIELD_T));
        if (!table || !window_bases || !add || !scratch)
                return -ENOMEM;

        /* B_w = 2^(wc) P: a few hundred doublings, serial. */
        FB_G(jac_from_affine)(&b, base);
        for (unsigned w = 0; w < windows; w++) {
                FB_G(jac_to_affine)(&window_bases[w], &b);
                for (unsigned i = 0; i < c; i++)
                        FB_G(jac_dbl)(&b, &b);
        }

        t = malloc(sizeof(*t));
        if (!t)
                return -ENOMEM;
        *t = (FB_TABLE_T){
                .window_bits = c,
                .windows = windows,
                .multiples_per_window = multiples,
                .table = TAKE_PTR(table),
        };
        FB_G(fixed_base_fill)(t, window_bases, add, scratch, threads);
        *ret = t;
        return 0;
}

/* d * 2^(wc) P from the table; infinity for d = 0. */
static inline void FB_G(fixed_base_lookup)(FB_AFFINE_T *r, const FB_TABLE_T *t, unsigned w,
                                           int32_t d) {
        const FB_AFFINE_T *row = t->table + (size_t)w * t->multiples_per_window;

        if (d == 0)
                FB_G(affine_set_infinity)(r);
        else if (d > 0)
                *r = row[d - 1];
        else
                FB_G(affine_neg)(r, &row[-d - 1]);
}

/* Thread-private buffers of the batch additions, one slice per thread. */
typedef struct {
        int32_t *digits;     /* FIXED_BASE_CHUNK * windows */
        FB_AFFINE_T *add;    /* FIXED_BASE_CHUNK */
        FB_FIELD_T *scratch; /* FIXED_BASE_CHUNK */
} FB_G(fixed_base_buffers_t);

/* One chunk: out[i] = scalars[i] P, window by window as batch additions. */
static void FB_G(fixed_base_mul_chunk)(const FB_TABLE_T *t, FB_AFFINE_T *out, const fr_t *scalars,
                                       size_t len, const FB_G(fixed_base_buffers_t) * buf) {
        const unsigned windows = t->windows;

        for (size_t i = 0; i < len; i++) {
                int32_t *d = buf->digits + i * windows;

                fixed_base_digits(d, &scalars[i], t->window_bits, windows);
                FB_G(fixed_base_lookup)(&out[i], t, 0, d[0]);
        }
        for (unsigned w = 1; w < windows; w++) {
                for (size_t i = 0; i < len; i++)
                        FB_G(fixed_base_lookup)(&buf->add[i], t, w, buf->digits[i * windows + w]);
                FB_G(affine_batch_add)(out, buf->add, len, buf->scratch);
        }
}

int FB_G(fixed_base_mul)(const FB_TABLE_T *t, FB_AFFINE_T *out, const fr_t *scalars, size_t n,
                         unsigned threads) {
        const size_t chunks = (n + FIXED_BASE_CHUNK - 1) / FIXED_BASE_CHUNK;

        assert(t);
        assert(n == 0 || (out && scalars));
        if (!threads)
                threads = zk_thread_count();
        if (threads > chunks)
                threads = chunks ? (unsigned)chunks : 1;

        _cleanup_free_ int32_t *digits =
                malloc(threads * FIXED_BASE_CHUNK * t->windows * sizeof(int32_t));
        _cleanup_free_ FB_AFFINE_T *add = malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_AFFINE_T));
        _cleanup_free_ FB_FIELD_T *scratch =
                malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_FIELD_T));
        if (!digits || !add || !scratch)
                return -ENOMEM;

#pragma omp parallel for num_threads(threads) schedule(dynamic)
        for (size_t c = 0; c < chunks; c++) {
                const size_t me = (size_t)omp_get_thread_num() * FIXED_BASE_CHUNK;
                const size_t first = c * FIXED_BASE_CHUNK;
                const FB_G(fixed_base_buffers_t) buf = {
                        .digits = digits + me * t->windows,
                        .add = add + me,
                        .scratch = scratch + me,
                };
                size_t len = n - first < FIXED_BASE_CHUNK ? n - first : FIXED_BASE_CHUNK;

                FB_G(fixed_base_mul_chunk)(t, out + first, scalars + first, len, &buf);
        }
        return 0;
}

int FB_G(arithmetic_progression)(FB_AFFINE_T *out, size_t n, const FB_AFFINE_T *base,
                                 const fr_t *start, const fr_t *step, unsigned threads) {
        FB_AFFINE_T step_point;
        FB_JAC_T b;

        assert(out || n == 0);
        assert(base && start && step);
        if (!threads)
                threads = zk_thread_count();
        if (threads > n / FIXED_BASE_CHUNK)
                threads = n >= FIXED_BASE_CHUNK ? (unsigned)(n / FIXED_BASE_CHUNK) : 1;

        _cleanup_free_ FB_AFFINE_T *add = malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_AFFINE_T));
        _cleanup_free_ FB_FIELD_T *scratch =
                malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_FIELD_T));
        if (!add || !scratch)
                return -ENOMEM;
        FB_G(jac_from_affine)(&b, base);
        FB_G(jac_mul_fr)(&b, &b, step);
        FB_G(jac_to_affine)(&step_point, &b);

        /* Each thread one contiguous range: one scalar multiplication for its
         * first point, then one batched addition per point. */
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (unsigned t = 0; t < threads; t++) {
                size_t first = n * t / threads, end = n * (t + 1) / threads;
                size_t me = (size_t)t * FIXED_BASE_CHUNK;
                FB_JAC_T p;
                fr_t k;

                if (first == end)
                        continue;
                progression_term(&k, start, step, first);
                FB_G(jac_from_affine)(&p, base);
                FB_G(jac_mul_fr)(&p, &p, &k);
                FB_G(jac_to_affine)(&out[first], &p);
                FB_G(fill_progression)
                (out + first, end - first, &step_point, add + me, scratch + me);
        }
        return 0;
}

#undef FB_G
#undef FB_AFFINE_T
#undef FB_JAC_T
#undef FB_FIELD_T
#undef FB_TABLE_T
