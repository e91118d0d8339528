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

/* The multiples m B_w, m = 1 .. multiples_per_window, of one window's base. */
static void FB_G(fixed_base_fill_window)(FB_TABLE_T *t, const FB_AFFINE_T *window_base,
                                         FB_AFFINE_T *row, FB_JAC_T *tmp) {
        FB_JAC_T cur;

        FB_G(jac_from_affine)(&cur, window_base);
        for (size_t m0 = 0; m0 < t->multiples_per_window; m0 += FIXED_BASE_CHUNK) {
                size_t len = t->multiples_per_window - m0;

                if (len > FIXED_BASE_CHUNK)
                        len = FIXED_BASE_CHUNK;
                for (size_t i = 0; i < len; i++) {
                        tmp[i] = cur;
                        FB_G(jac_add_affine)(&cur, &cur, window_base);
                }
                FB_G(jac_batch_to_affine)(row + m0, tmp, len);
        }
}

/* The table's rows, one window per task; tmp holds FIXED_BASE_CHUNK
 * Jacobian points per thread. */
static void FB_G(fixed_base_fill)(FB_TABLE_T *t, const FB_AFFINE_T *window_bases, FB_JAC_T *tmp,
                                  unsigned threads) {
#pragma omp parallel for num_threads(threads) schedule(dynamic)
        for (unsigned w = 0; w < t->windows; w++) {
                FB_AFFINE_T *row = t->table + (size_t)w * t->multiples_per_window;
                FB_JAC_T *mine = tmp + (size_t)omp_get_thread_num() * FIXED_BASE_CHUNK;

                FB_G(fixed_base_fill_window)(t, &window_bases[w], row, mine);
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
        _cleanup_free_ FB_JAC_T *tmp = malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_JAC_T));
        if (!table || !window_bases || !tmp)
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
        FB_G(fixed_base_fill)(t, window_bases, tmp, threads);
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

/* (start + i step) P, with step P precomputed. */
typedef struct {
        const FB_AFFINE_T *base;
        FB_AFFINE_T step_point;
        const fr_t *start, *step;
} FB_G(progression_t);

/* out[first, end) of the progression, normalised FIXED_BASE_CHUNK at a time through tmp. */
static void FB_G(progression_range)(const FB_G(progression_t) * p, FB_AFFINE_T *out, size_t first,
                                    size_t end, FB_JAC_T *tmp) {
        FB_JAC_T cur;
        fr_t k;

        /* one scalar multiplication for the first point, then one addition each */
        progression_term(&k, p->start, p->step, first);
        FB_G(jac_from_affine)(&cur, p->base);
        FB_G(jac_mul_fr)(&cur, &cur, &k);
        for (size_t c = first; c < end; c += FIXED_BASE_CHUNK) {
                size_t len = end - c < FIXED_BASE_CHUNK ? end - c : FIXED_BASE_CHUNK;

                for (size_t i = 0; i < len; i++) {
                        tmp[i] = cur;
                        FB_G(jac_add_affine)(&cur, &cur, &p->step_point);
                }
                FB_G(jac_batch_to_affine)(out + c, tmp, len);
        }
}

int FB_G(arithmetic_progression)(FB_AFFINE_T *out, size_t n, const FB_AFFINE_T *base,
                                 const fr_t *start, const fr_t *step, unsigned threads) {
        FB_G(progression_t) p = {.base = base, .start = start, .step = step};
        FB_JAC_T b;

        assert(out || n == 0);
        assert(base && start && step);
        if (!threads)
                threads = zk_thread_count();
        if (threads > n / FIXED_BASE_CHUNK)
                threads = n >= FIXED_BASE_CHUNK ? (unsigned)(n / FIXED_BASE_CHUNK) : 1;

        _cleanup_free_ FB_JAC_T *tmp = malloc(threads * FIXED_BASE_CHUNK * sizeof(FB_JAC_T));
        if (!tmp)
                return -ENOMEM;
        FB_G(jac_from_affine)(&b, base);
        FB_G(jac_mul_fr)(&b, &b, step);
        FB_G(jac_to_affine)(&p.step_point, &b);

        /* Each thread one contiguous range, so one scalar multiplication each. */
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (unsigned t = 0; t < threads; t++) {
                size_t first = n * t / threads, end = n * (t + 1) / threads;

                if (first < end)
                        FB_G(progression_range)(&p, out, first, end, tmp + t * FIXED_BASE_CHUNK);
        }
        return 0;
}

#undef FB_G
#undef FB_AFFINE_T
#undef FB_JAC_T
#undef FB_FIELD_T
#undef FB_TABLE_T
