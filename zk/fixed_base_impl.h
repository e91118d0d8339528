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

int FB_G(fixed_base_new)(FB_TABLE_T **ret, const FB_AFFINE_T *base, size_t n_scalars,
                         unsigned threads) {
        _cleanup_free_ FB_AFFINE_T *window_bases = NULL;
        _cleanup_free_ FB_TABLE_T *t = NULL;
        FB_JAC_T b;
        bool failed = false;

        assert(ret);
        assert(base);

        t = calloc(1, sizeof(*t));
        if (!t)
                return -ENOMEM;
        t->window_bits = fixed_base_window_bits(n_scalars);
        t->windows = fixed_base_windows(t->window_bits);
        t->multiples_per_window = (size_t)1 << (t->window_bits - 1);
        t->table = malloc(t->windows * t->multiples_per_window * sizeof(FB_AFFINE_T));
        window_bases = malloc(t->windows * sizeof(FB_AFFINE_T));
        if (!t->table || !window_bases) {
                free(t->table);
                return -ENOMEM;
        }

        /* B_w = 2^(wc) P: a few hundred doublings, serial. */
        FB_G(jac_from_affine)(&b, base);
        for (unsigned w = 0; w < t->windows; w++) {
                FB_G(jac_to_affine)(&window_bases[w], &b);
                for (unsigned i = 0; i < t->window_bits; i++)
                        FB_G(jac_dbl)(&b, &b);
        }

#pragma omp parallel num_threads(threads ? threads : zk_thread_count())
        {
                _cleanup_free_ FB_JAC_T *tmp = malloc(FIXED_BASE_CHUNK * sizeof(FB_JAC_T));

                if (!tmp) {
#pragma omp atomic write
                        failed = true;
                }
#pragma omp for schedule(dynamic)
                for (unsigned w = 0; w < t->windows; w++)
                        if (tmp)
                                FB_G(fixed_base_fill_window)
                                (t, &window_bases[w],
                                 t->table + (size_t)w * t->multiples_per_window, tmp);
        }
        if (failed) {
                free(t->table);
                return -ENOMEM;
        }
        *ret = TAKE_PTR(t);
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

/* One chunk: out[i] = scalars[i] P, window by window as batch additions. */
static void FB_G(fixed_base_mul_chunk)(const FB_TABLE_T *t, FB_AFFINE_T *out, const fr_t *scalars,
                                       size_t len, int32_t *digits, FB_AFFINE_T *add,
                                       FB_FIELD_T *scratch) {
        const unsigned windows = t->windows;

        for (size_t i = 0; i < len; i++) {
                fixed_base_digits(digits + i * windows, &scalars[i], t->window_bits, windows);
                FB_G(fixed_base_lookup)(&out[i], t, 0, digits[i * windows]);
        }
        for (unsigned w = 1; w < windows; w++) {
                for (size_t i = 0; i < len; i++)
                        FB_G(fixed_base_lookup)(&add[i], t, w, digits[i * windows + w]);
                FB_G(affine_batch_add)(out, add, len, scratch);
        }
}

int FB_G(fixed_base_mul)(const FB_TABLE_T *t, FB_AFFINE_T *out, const fr_t *scalars, size_t n,
                         unsigned threads) {
        const size_t chunks = (n + FIXED_BASE_CHUNK - 1) / FIXED_BASE_CHUNK;
        bool failed = false;

        assert(t);
        assert(n == 0 || (out && scalars));
        if (!threads)
                threads = zk_thread_count();
        if (threads > chunks)
                threads = chunks ? (unsigned)chunks : 1;

#pragma omp parallel num_threads(threads)
        {
                _cleanup_free_ int32_t *digits =
                        malloc(FIXED_BASE_CHUNK * t->windows * sizeof(int32_t));
                _cleanup_free_ FB_AFFINE_T *add = malloc(FIXED_BASE_CHUNK * sizeof(FB_AFFINE_T));
                _cleanup_free_ FB_FIELD_T *scratch = malloc(FIXED_BASE_CHUNK * sizeof(FB_FIELD_T));
                bool ok = digits && add && scratch;

                if (!ok) {
#pragma omp atomic write
                        failed = true;
                }
#pragma omp for schedule(dynamic)
                for (size_t c = 0; c < chunks; c++) {
                        size_t first = c * FIXED_BASE_CHUNK;
                        size_t len = n - first < FIXED_BASE_CHUNK ? n - first : FIXED_BASE_CHUNK;

                        if (ok)
                                FB_G(fixed_base_mul_chunk)
                                (t, out + first, scalars + first, len, digits, add, scratch);
                }
        }
        return failed ? -ENOMEM : 0;
}

int FB_G(arithmetic_progression)(FB_AFFINE_T *out, size_t n, const FB_AFFINE_T *base,
                                 const fr_t *start, const fr_t *step, unsigned threads) {
        FB_AFFINE_T step_point;
        FB_JAC_T b;
        bool failed = false;

        assert(out || n == 0);
        assert(base && start && step);
        if (!threads)
                threads = zk_thread_count();
        if (threads > n / FIXED_BASE_CHUNK)
                threads = n >= FIXED_BASE_CHUNK ? (unsigned)(n / FIXED_BASE_CHUNK) : 1;

        FB_G(jac_from_affine)(&b, base);
        FB_G(jac_mul_fr)(&b, &b, step);
        FB_G(jac_to_affine)(&step_point, &b);

        /* Each thread one contiguous range: one scalar multiplication for its
         * first point, then one addition per point. */
#pragma omp parallel num_threads(threads)
        {
                _cleanup_free_ FB_JAC_T *tmp = malloc(FIXED_BASE_CHUNK * sizeof(FB_JAC_T));
                unsigned t = (unsigned)omp_get_thread_num(), nt = (unsigned)omp_get_num_threads();
                size_t first = n * t / nt, end = n * (t + 1) / nt;

                if (!tmp) {
#pragma omp atomic write
                        failed = true;
                } else if (first < end) {
                        FB_JAC_T cur;
                        fr_t k;

                        progression_term(&k, start, step, first);
                        FB_G(jac_from_affine)(&cur, base);
                        FB_G(jac_mul_fr)(&cur, &cur, &k);
                        for (size_t c = first; c < end; c += FIXED_BASE_CHUNK) {
                                size_t len =
                                        end - c < FIXED_BASE_CHUNK ? end - c : FIXED_BASE_CHUNK;

                                for (size_t i = 0; i < len; i++) {
                                        tmp[i] = cur;
                                        FB_G(jac_add_affine)(&cur, &cur, &step_point);
                                }
                                FB_G(jac_batch_to_affine)(out + c, tmp, len);
                        }
                }
        }
        return failed ? -ENOMEM : 0;
}

#undef FB_G
#undef FB_AFFINE_T
#undef FB_JAC_T
#undef FB_FIELD_T
#undef FB_TABLE_T
