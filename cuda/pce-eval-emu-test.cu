/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Emulation test of the GPU's a, b, c from a PCE and a compact witness
 * (pce_eval_steps.cuh compiled for the host): the steps pce-eval.cu
 * launches, in its order (narrowed row offsets, the long rows listed,
 * the witness words packed, a thread per short row, a warp's 32 partial
 * sums added down the warp per long row), against pce_evaluate_compact()
 * bit for bit, on random PCEs: rows of 0 to hundreds of terms, ids of 1, 2
 * and 4 bytes, witnesses of all bits, no bits and PoRep's mix. Needs no
 * GPU. One PASS/FAIL line per case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda/emu_check.h"
#include "cuda/pce_eval_steps.cuh"

extern "C" {
#include "circuits/pce-compact.h"
#include "zk/sparse.h"
}

using namespace cuzk;

static emu_cases cases;

static emu_rng rng{0x3c6ef372fe94f82bull};

static uint32_t rng_below(uint32_t n) {
        return (uint32_t)(rng.next() % n);
}

static void random_fr(fr_t *r) {
        uint64_t k[FR_LIMBS];
        do {
                for (int i = 0; i < FR_LIMBS; i++)
                        k[i] = rng.next();
                k[FR_LIMBS - 1] >>= 1;
        } while (!fr_from_canonical(r, k));
}

/* A matrix's coefficients: +1 and -1 only; those and a few others (1-byte
 * ids); and 300 others (2 bytes); a new value in most terms (4 bytes). */
enum coeffs { COEFFS_PM1, COEFFS_FEW, COEFFS_MANY, COEFFS_FRESH };

struct shape {
        const char *name;
        uint32_t n_rows, n_public, n_aux;
        uint32_t max_terms;   /* the longest rows' length */
        unsigned bit_percent; /* of the aux */
        coeffs coeff[PCE_N_MATRICES];
        uint32_t flags;     /* PCE_INPUT_ROWS */
        unsigned extra_log; /* domain bits past the rows' */
};

/* Row lengths as in PoRep: mostly 1 to 3, some empty, some up to 12, a
 * few up to max_terms. */
static uint32_t row_length(uint32_t max_terms) {
        const uint32_t roll = rng_below(100);
        if (roll < 10)
                return 0;
        if (roll < 80)
                return 1 + rng_below(3);
        if (roll < 95)
                return 4 + rng_below(9);
        return 1 + rng_below(max_terms);
}

static void coefficient(coeffs kind, const std::vector<fr_t> &table, fr_t *r) {
        const uint32_t roll = rng_below(100);
        if (kind == COEFFS_FRESH && roll < 90) {
                random_fr(r);
                return;
        }
        if (kind == COEFFS_PM1 || kind == COEFFS_FRESH || roll < 70) {
                fr_set_one(r);
                if (roll % 2)
                        fr_neg(r, r);
                return;
        }
        *r = table[rng_below(kind == COEFFS_FEW ? 5 : (uint32_t)table.size())];
}

static int random_matrix(const shape &s, coeffs kind, const std::vector<fr_t> &table,
                         sparse_matrix *m) {
        const uint32_t n_cols = 1 + s.n_public + s.n_aux;
        std::vector<uint32_t> rows, cols;
        std::vector<fr_t> values;
        for (uint32_t i = 0; i < s.n_rows; i++)
                for (uint32_t t = row_length(s.max_terms); t > 0; t--) {
                        fr_t v;
                        coefficient(kind, table, &v);
                        rows.push_back(i);
                        cols.push_back(rng_below(n_cols));
                        values.push_back(v);
                }
        return sparse_from_triplets(m, s.n_rows, n_cols, rows.data(), cols.data(), values.data(),
                                    rows.size());
}

/* A compact witness of n_aux wires, bit_percent of them bits (the
 * bit_value of the others random: it must not be read). */
struct witness {
        std::vector<fr_t> inputs, nums;
        std::vector<uint64_t> is_bit, bit_value;
        uint64_t *rank = nullptr;
        pce_compact_witness w;

        witness(uint32_t n_public, uint32_t n_aux, unsigned bit_percent) {
                const size_t words = pce_bitmap_words(n_aux);
                inputs.resize(n_public + 1);
                for (fr_t &x : inputs)
                        random_fr(&x);
                fr_set_one(&inputs[0]);
                is_bit.assign(words ? words : 1, 0);
                bit_value.assign(words ? words : 1, 0);
                for (uint32_t j = 0; j < n_aux; j++) {
                        const uint64_t mask = (uint64_t)1 << (j % 64);
                        if (rng_below(2))
                                bit_value[j / 64] |= mask;
                        if (rng_below(100) < bit_percent) {
                                is_bit[j / 64] |= mask;
                        } else {
                                fr_t x;
                                random_fr(&x);
                                nums.push_back(x);
                        }
                }
                if (pce_compact_rank(is_bit.data(), n_aux, &rank) < 0)
                        abort();
                w = pce_compact_witness{n_public,         inputs.data(), n_aux, is_bit.data(),
                                        bit_value.data(), nums.data(),   rank};
        }
        ~witness() {
                free(rank);
        }
};

/* One matrix as pce-eval.cu evaluates it: the thread-per-row step, then a
 * warp per long row, its lanes' partial sums added as __shfl_down does. */
template <class Id>
static void emu_matrix(const pce_row_step<Id> &step, const std::vector<uint32_t> &long_rows,
                       uint32_t n_rows) {
        for (uint32_t i = 0; i < n_rows; i++)
                step(i);
        for (uint32_t row : long_rows) {
                fr_dev lanes[PCE_WARP_LANES];
                for (uint32_t lane = 0; lane < PCE_WARP_LANES; lane++)
                        lanes[lane] = step.partial(row, lane, PCE_WARP_LANES);
                for (uint32_t offset = PCE_WARP_LANES / 2; offset > 0; offset /= 2)
                        for (uint32_t lane = 0; lane < offset; lane++)
                                lanes[lane] = lanes[lane] + lanes[lane + offset];
                step.out[row] = lanes[0];
        }
}

/* The witness words as gpu_pce_witness_upload packs them. */
static std::vector<pce_witness_word> emu_words(const pce_compact_witness *w) {
        const size_t words = pce_bitmap_words(w->n_aux);
        std::vector<pce_witness_word> out(words ? words : 1);
        const pce_pack_words_step pack{w->is_bit, w->bit_value, w->rank, out.data()};
        for (size_t k = 0; k < words; k++)
                pack(k);
        return out;
}

/* gpu_pce_upload's and gpu_pce_evaluate's steps for matrix k. */
static void emu_evaluate_matrix(const pce_matrix *m, uint32_t n_rows, const pce_compact_witness *w,
                                const pce_witness_word *words, uint32_t long_terms, fr_t *out) {
        std::vector<uint32_t> row_start(n_rows + 1);
        const pce_narrow_step narrow{m->row_start, row_start.data()};
        for (uint32_t i = 0; i <= n_rows; i++)
                narrow(i);
        uint32_t count = 0;
        pce_long_rows_step list{row_start.data(), long_terms, &count, nullptr};
        for (uint32_t i = 0; i < n_rows; i++)
                list(i);
        std::vector<uint32_t> long_rows(count);
        count = 0;
        list.list = long_rows.data();
        for (uint32_t i = 0; i < n_rows; i++)
                list(i);

        const auto run = [&](auto id_type) {
                using Id = decltype(id_type);
                const pce_row_step<Id> step{row_start.data(),
                                            m->col,
                                            (const Id *)m->coeff_id,
                                            (const fr_dev *)m->values,
                                            (const fr_dev *)w->inputs,
                                            words,
                                            (const fr_dev *)w->nums,
                                            w->n_inputs + 1,
                                            long_terms,
                                            (fr_dev *)out};
                emu_matrix(step, long_rows, n_rows);
        };
        if (m->id_bytes == 1)
                run(uint8_t{});
        else if (m->id_bytes == 2)
                run(uint16_t{});
        else
                run(uint32_t{});
}

/* gpu_pce_witness_expand's step against pce_compact_expand(). */
static void check_expand(const char *name, const pce_compact_witness *w,
                         const pce_witness_word *words) {
        const size_t n = 1 + (size_t)w->n_inputs + w->n_aux;
        std::vector<fr_t> want(n), got(n);
        pce_compact_expand(w, want.data());
        memset(got.data(), 0xa5, n * sizeof(fr_t));
        const pce_expand_step expand{(const fr_dev *)w->inputs, words, (const fr_dev *)w->nums,
                                     w->n_inputs + 1, (fr_dev *)got.data()};
        for (size_t i = 0; i < n; i++)
                expand(i);
        char what[200];
        snprintf(what, sizeof(what), "%s: the full witness, %zu values", name, n);
        cases.report(!memcmp(want.data(), got.data(), n * sizeof(fr_t)), what);
}

static void check_case(const shape &s) {
        std::vector<fr_t> table(300);
        for (fr_t &x : table)
                random_fr(&x);
        sparse_matrix m[PCE_N_MATRICES] = {};
        pce *p = nullptr;
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                if (random_matrix(s, s.coeff[k], table, &m[k]) < 0) {
                        cases.report(false, s.name);
                        return;
                }
        const int r = pce_from_sparse(&m[0], &m[1], &m[2], s.n_public, s.flags, &p);
        for (sparse_matrix &x : m)
                sparse_free(&x);
        if (r < 0) {
                cases.report(false, s.name);
                return;
        }
        const witness wit(s.n_public, s.n_aux, s.bit_percent);
        const unsigned log = pce_log_domain_size(p) + s.extra_log;
        const size_t domain = (size_t)1 << log;
        std::vector<fr_t> want(3 * domain), got(3 * domain);
        bool ok = pce_evaluate_compact(p, &wit.w, log, &want[0], &want[domain],
                                       &want[2 * domain]) == 0;
        const std::vector<pce_witness_word> words = emu_words(&wit.w);
        const uint32_t long_terms[] = {PCE_LONG_TERMS, 0, 2, UINT32_MAX};
        for (uint32_t lt : long_terms) {
                /* rows the evaluation leaves unwritten would show */
                memset(got.data(), 0xa5, got.size() * sizeof(fr_t));
                for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                        emu_evaluate_matrix(&p->m[k], p->n_rows, &wit.w, words.data(), lt,
                                            &got[k * domain]);
                        memset(&got[k * domain + p->n_rows], 0,
                               (domain - p->n_rows) * sizeof(fr_t));
                }
                char what[200];
                char rule[64];
                if (lt == UINT32_MAX)
                        snprintf(rule, sizeof(rule), "every row a thread");
                else
                        snprintf(rule, sizeof(rule), "rows over %u terms a warp", lt);
                snprintf(what, sizeof(what), "%s: %u rows, ids %u/%u/%u bytes, %s", s.name,
                         p->n_rows, p->m[0].id_bytes, p->m[1].id_bytes, p->m[2].id_bytes, rule);
                cases.report(ok && !memcmp(want.data(), got.data(), want.size() * sizeof(fr_t)),
                             what);
        }
        check_expand(s.name, &wit.w, words.data());
        pce_free(p);
}

int main(void) {
        const shape shapes[] = {
                {"PoRep-like", 3000, 5, 2900, 40, 75, {COEFFS_FEW, COEFFS_PM1, COEFFS_FEW}, 0, 0},
                {"long rows", 500, 2, 700, 400, 75, {COEFFS_PM1, COEFFS_FEW, COEFFS_PM1}, 0, 0},
                {"input rows, padded",
                 1000,
                 9,
                 1000,
                 20,
                 60,
                 {COEFFS_FEW, COEFFS_FEW, COEFFS_FEW},
                 PCE_INPUT_ROWS,
                 2},
                {"all bits", 800, 1, 640, 30, 100, {COEFFS_MANY, COEFFS_FEW, COEFFS_PM1}, 0, 0},
                {"no bits", 800, 3, 641, 30, 0, {COEFFS_PM1, COEFFS_MANY, COEFFS_FEW}, 0, 1},
                {"one aux wire", 50, 0, 1, 10, 50, {COEFFS_FEW, COEFFS_FEW, COEFFS_FEW}, 0, 0},
                {"wide ids",
                 40000,
                 4,
                 30000,
                 16,
                 75,
                 {COEFFS_FEW, COEFFS_MANY, COEFFS_FRESH},
                 PCE_INPUT_ROWS,
                 0},
        };
        for (const shape &s : shapes)
                check_case(s);
        return cases.finish();
}
