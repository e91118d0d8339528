/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bellperson .params / .vk files and 192-byte Filecoin proofs
 * (formats/bellperson_*.h, formats/filecoin_proof.h):
 *   - a random key (points from random multiples of the generators, some
 *     at infinity) is written and read back equal, with the byte layout
 *     checked at known offsets, and becomes the same proving key;
 *   - a valid proof, made from chosen toxic waste (e(A, B) = e(alpha, beta)
 *     e(L, gamma) e(C, delta) with C solved for), goes through the 192-byte
 *     form and verifies with groth16_verify() against the key read from a
 *     .vk file; a proof for other inputs does not;
 *   - every prefix of a small file, wrong counts, bad flags, points off the
 *     curve or outside the subgroup are refused with the right message,
 *     from exact-size buffers so that the sanitizers see any overread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "tests/lib/ref.h"
#include "zk/groth16.h"
#include "zk/point_encoding.h"
#include "zk/zk_error.h"

#define G1U G1_UNCOMPRESSED_BYTES
#define G2U G2_UNCOMPRESSED_BYTES

/* ---- log capture ---- */

static char last_log[2048];
static unsigned n_logs;

static void capture_log(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        snprintf(last_log, sizeof(last_log), "%s", message);
        n_logs++;
}

static void clear_log(void) {
        last_log[0] = 0;
        n_logs = 0;
}

/* Fails the test unless the last message contains every string given. */
static void expect_log_(const char *const *needles, size_t n) {
        for (size_t i = 0; i < n; i++)
                if (!strstr(last_log, needles[i]))
                        fail_msg("log \"%s\" lacks \"%s\"", last_log, needles[i]);
}
#define expect_log(...)                                 \
        expect_log_((const char *const[]){__VA_ARGS__}, \
                    sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))

/* ---- files ---- */

static char tmpdir[] = "/tmp/test-bellperson-XXXXXX";

static void tmp_path(char *buf, size_t size, const char *name) {
        snprintf(buf, size, "%s/%s", tmpdir, name);
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

        assert_true(fd >= 0);
        assert_int_equal(write(fd, data, size), (ssize_t)size);
}

/* The whole file in an exact-size buffer (malloc, at least one byte). */
static uint8_t *read_file(const char *path, size_t *ret_size) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat st;
        uint8_t *data;

        assert_true(fd >= 0);
        assert_int_equal(fstat(fd, &st), 0);
        data = malloc(st.st_size ? (size_t)st.st_size : 1);
        assert_non_null(data);
        assert_int_equal(read(fd, data, st.st_size), st.st_size);
        *ret_size = (size_t)st.st_size;
        return data;
}

/* A copy of the first size bytes in a buffer of exactly that size. */
static uint8_t *exact_copy(const uint8_t *data, size_t size) {
        uint8_t *p = malloc(size ? size : 1);

        assert_non_null(p);
        memcpy(p, data, size);
        return p;
}

static void put_be32(uint8_t *p, uint32_t v) {
        p[0] = (uint8_t)(v >> 24);
        p[1] = (uint8_t)(v >> 16);
        p[2] = (uint8_t)(v >> 8);
        p[3] = (uint8_t)v;
}

/* ---- points ---- */

static void g1_mul_gen(g1_affine_t *r, const fr_t *s) {
        g1_jac_t j;

        g1_jac_from_affine(&j, &G1_GENERATOR);
        g1_jac_mul_fr(&j, &j, s);
        g1_jac_to_affine(r, &j);
}

static void g2_mul_gen(g2_affine_t *r, const fr_t *s) {
        g2_jac_t j;

        g2_jac_from_affine(&j, &G2_GENERATOR);
        g2_jac_mul_fr(&j, &j, s);
        g2_jac_to_affine(r, &j);
}

static void random_fr_nonzero(fr_t *r) {
        do
                test_rng_fr(r);
        while (fr_is_zero(r));
}

static void random_g1(g1_affine_t *r) {
        fr_t s;

        random_fr_nonzero(&s);
        g1_mul_gen(r, &s);
}

static void random_g2(g2_affine_t *r) {
        fr_t s;

        random_fr_nonzero(&s);
        g2_mul_gen(r, &s);
}

/* Points on the curves outside the order-r subgroup (almost every point is). */
static void g1_outside_subgroup(g1_affine_t *r) {
        for (uint64_t k = 1;; k++) {
                fp_t x;

                fp_from_u64(&x, k);
                if (g1_affine_from_x(r, &x, false) && !g1_affine_in_subgroup(r))
                        return;
        }
}

static void g2_outside_subgroup(g2_affine_t *r) {
        for (uint64_t k = 1;; k++) {
                fp2_t x;

                fp_from_u64(&x.c0, k);
                fp_set_one(&x.c1);
                if (g2_affine_from_x(r, &x, false) && !g2_affine_in_subgroup(r))
                        return;
        }
}

static void assert_g1_arrays_equal(const g1_affine_t *a, const g1_affine_t *b, size_t n) {
        for (size_t i = 0; i < n; i++)
                if (!g1_affine_equal(&a[i], &b[i]))
                        fail_msg("G1 point %zu differs", i);
}

static void assert_g2_arrays_equal(const g2_affine_t *a, const g2_affine_t *b, size_t n) {
        for (size_t i = 0; i < n; i++)
                if (!g2_affine_equal(&a[i], &b[i]))
                        fail_msg("G2 point %zu differs", i);
}

/* ---- a random key with known toxic waste ---- */

struct test_key {
        fr_t alpha, beta, gamma, delta;
        fr_t *ic_scalars; /* n_public + 1 */
        struct groth16_pk pk;
        struct groth16_vk vk;
        g1_affine_t *a, *b1, *l, *h;
        g2_affine_t *b2;
};

/* Wires whose a, b_g1 and b_g2 are at infinity (a real key has them for
 * wires that appear in no A or B term). */
static bool wire_at_infinity(size_t i) {
        return i % 7 == 5;
}

static void test_key_make(struct test_key *k, size_t n_public, size_t n_vars, unsigned log_domain) {
        size_t n_h = ((size_t)1 << log_domain) - 1, n_l = n_vars - n_public - 1;

        random_fr_nonzero(&k->alpha);
        random_fr_nonzero(&k->beta);
        random_fr_nonzero(&k->gamma);
        random_fr_nonzero(&k->delta);

        k->ic_scalars = calloc(n_public + 1, sizeof(fr_t));
        k->vk.ic = calloc(n_public + 1, sizeof(g1_affine_t));
        k->a = calloc(n_vars, sizeof(g1_affine_t));
        k->b1 = calloc(n_vars, sizeof(g1_affine_t));
        k->b2 = calloc(n_vars, sizeof(g2_affine_t));
        k->l = calloc(n_l ? n_l : 1, sizeof(g1_affine_t));
        k->h = calloc(n_h ? n_h : 1, sizeof(g1_affine_t));
        assert_true(k->ic_scalars && k->vk.ic && k->a && k->b1 && k->b2 && k->l && k->h);

        for (size_t i = 0; i <= n_public; i++) {
                random_fr_nonzero(&k->ic_scalars[i]);
                g1_mul_gen(&k->vk.ic[i], &k->ic_scalars[i]);
        }
        for (size_t i = 0; i < n_vars; i++) {
                if (wire_at_infinity(i)) {
                        g1_affine_set_infinity(&k->a[i]);
                        g1_affine_set_infinity(&k->b1[i]);
                        g2_affine_set_infinity(&k->b2[i]);
                        continue;
                }
                random_g1(&k->a[i]);
                random_g1(&k->b1[i]);
                random_g2(&k->b2[i]);
        }
        for (size_t i = 0; i < n_l; i++)
                random_g1(&k->l[i]);
        for (size_t i = 0; i < n_h; i++)
                random_g1(&k->h[i]);

        k->vk.n_public = (uint32_t)n_public;
        g1_mul_gen(&k->vk.alpha1, &k->alpha);
        g2_mul_gen(&k->vk.beta2, &k->beta);
        g2_mul_gen(&k->vk.gamma2, &k->gamma);
        g2_mul_gen(&k->vk.delta2, &k->delta);
        k->vk.has_alphabeta = false;

        k->pk = (struct groth16_pk){
                .h_convention = GROTH16_H_BELLPERSON,
                .n_vars = n_vars,
                .n_public = n_public,
                .log_domain_size = log_domain,
                .alpha1 = k->vk.alpha1,
                .beta2 = k->vk.beta2,
                .delta2 = k->vk.delta2,
                .a = k->a,
                .b1 = k->b1,
                .b2 = k->b2,
                .l = k->l,
                .h = k->h,
        };
        g1_mul_gen(&k->pk.beta1, &k->beta);
        g1_mul_gen(&k->pk.delta1, &k->delta);
}

static void test_key_free(struct test_key *k) {
        free(k->ic_scalars);
        free(k->vk.ic);
        free(k->a);
        free(k->b1);
        free(k->b2);
        free(k->l);
        free(k->h);
        memset(k, 0, sizeof(*k));
}

/* The main key (n_vars ~ 50, domain 2^6) and a small one for the byte-level tests. */
#define MAIN_PUBLIC 3
#define MAIN_VARS 50
#define MAIN_LOG_DOMAIN 6
#define SMALL_PUBLIC 1
#define SMALL_VARS 6
#define SMALL_LOG_DOMAIN 2

static struct test_key main_key, small_key;
static char main_params[256], main_vk[256], small_params[256], small_vk[256];
static uint8_t *small_image;
static size_t small_size;

static int setup(void **state) {
        const char *s = getenv("CUZK_TEST_SEED");
        uint64_t seed = s ? strtoull(s, NULL, 0) : 0xb311be850ull;

        (void)state;
        printf("test-bellperson: seed %" PRIu64 " (CUZK_TEST_SEED=%" PRIu64 " repeats it)\n", seed,
               seed);
        test_rng_seed(seed);
        log_set_sink(capture_log, NULL);

        if (!mkdtemp(tmpdir))
                return -1;
        tmp_path(main_params, sizeof(main_params), "main.params");
        tmp_path(main_vk, sizeof(main_vk), "main.vk");
        tmp_path(small_params, sizeof(small_params), "small.params");
        tmp_path(small_vk, sizeof(small_vk), "small.vk");

        test_key_make(&main_key, MAIN_PUBLIC, MAIN_VARS, MAIN_LOG_DOMAIN);
        test_key_make(&small_key, SMALL_PUBLIC, SMALL_VARS, SMALL_LOG_DOMAIN);
        if (bellperson_params_save(main_params, &main_key.pk, &main_key.vk) < 0 ||
            bellperson_vk_save(main_vk, &main_key.vk, &main_key.pk.beta1, &main_key.pk.delta1) <
                    0 ||
            bellperson_params_save(small_params, &small_key.pk, &small_key.vk) < 0 ||
            bellperson_vk_save(small_vk, &small_key.vk, &small_key.pk.beta1, &small_key.pk.delta1) <
                    0)
                return -1;
        small_image = read_file(small_params, &small_size);
        return 0;
}

static int teardown(void **state) {
        const char *names[] = {"main.params", "main.vk", "small.params", "small.vk", "probe"};
        char path[256];

        (void)state;
        for (size_t i = 0; i < ELEMENTSOF(names); i++) {
                tmp_path(path, sizeof(path), names[i]);
                (void)unlink(path);
        }
        if (rmdir(tmpdir) < 0)
                fprintf(stderr, "test-bellperson: %s left behind: %m\n", tmpdir);
        free(small_image);
        test_key_free(&main_key);
        test_key_free(&small_key);
        log_set_sink(NULL, NULL);
        return 0;
}

/* Offsets in a .params file of the small key. */
static uint64_t small_vk_bytes(void) {
        return bellperson_vk_bytes(SMALL_PUBLIC);
}
static uint64_t small_h_count_offset(void) {
        return small_vk_bytes();
}
static uint64_t small_l_count_offset(void) {
        return small_h_count_offset() + 4 + ((1u << SMALL_LOG_DOMAIN) - 1) * G1U;
}
static uint64_t small_a_count_offset(void) {
        return small_l_count_offset() + 4 + (SMALL_VARS - SMALL_PUBLIC - 1) * G1U;
}
static uint64_t small_b_g1_count_offset(void) {
        return small_a_count_offset() + 4 + SMALL_VARS * G1U;
}
static uint64_t small_b_g2_count_offset(void) {
        return small_b_g1_count_offset() + 4 + SMALL_VARS * G1U;
}

/* ---- round trips ---- */

static void assert_vk_equal(const struct bellperson_vk *got, const struct test_key *k) {
        assert_int_equal(got->vk.n_public, k->vk.n_public);
        assert_true(g1_affine_equal(&got->vk.alpha1, &k->vk.alpha1));
        assert_true(g1_affine_equal(&got->beta1, &k->pk.beta1));
        assert_true(g2_affine_equal(&got->vk.beta2, &k->vk.beta2));
        assert_true(g2_affine_equal(&got->vk.gamma2, &k->vk.gamma2));
        assert_true(g1_affine_equal(&got->delta1, &k->pk.delta1));
        assert_true(g2_affine_equal(&got->vk.delta2, &k->vk.delta2));
        assert_false(got->vk.has_alphabeta);
        assert_g1_arrays_equal(got->vk.ic, k->vk.ic, (size_t)k->vk.n_public + 1);
}

static void test_params_layout(void **state) {
        _cleanup_free_ uint8_t *params = NULL, *vk = NULL;
        size_t params_size, vk_size;
        uint64_t pos;
        uint8_t expect[G2U];
        const size_t n_h = (1u << MAIN_LOG_DOMAIN) - 1, n_l = MAIN_VARS - MAIN_PUBLIC - 1;

        (void)state;
        params = read_file(main_params, &params_size);
        vk = read_file(main_vk, &vk_size);

        assert_int_equal(vk_size, BELLPERSON_VK_FIXED_BYTES + (MAIN_PUBLIC + 1) * G1U);
        assert_int_equal(vk_size, bellperson_vk_bytes(MAIN_PUBLIC));
        assert_int_equal(params_size,
                         vk_size + 5 * 4 + (n_h + n_l + 2 * MAIN_VARS) * G1U + MAIN_VARS * G2U);
        assert_int_equal(params_size, bellperson_params_bytes(MAIN_PUBLIC, n_h, n_l, MAIN_VARS,
                                                              MAIN_VARS, MAIN_VARS));
        /* A .params file starts with the .vk file. */
        assert_memory_equal(params, vk, vk_size);

        /* The verifying key's fields in bellperson's order. */
        g1_encode(expect, G1U, &main_key.vk.alpha1, POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params, expect, G1U);
        g1_encode(expect, G1U, &main_key.pk.beta1, POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params + G1U, expect, G1U);
        g2_encode(expect, G2U, &main_key.vk.beta2, POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params + 2 * G1U, expect, G2U);
        g2_encode(expect, G2U, &main_key.vk.gamma2, POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params + 2 * G1U + G2U, expect, G2U);
        g1_encode(expect, G1U, &main_key.pk.delta1, POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params + 2 * G1U + 2 * G2U, expect, G1U);
        g2_encode(expect, G2U, &main_key.vk.delta2, POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params + 3 * G1U + 2 * G2U, expect, G2U);
        pos = 3 * G1U + 3 * G2U;
        assert_memory_equal(params + pos, ((uint8_t[]){0, 0, 0, MAIN_PUBLIC + 1}), 4);

        /* Counts are big-endian u32 before each section; b_g2 is last. */
        pos = vk_size;
        assert_memory_equal(params + pos, ((uint8_t[]){0, 0, 0, (uint8_t)n_h}), 4);
        pos += 4 + n_h * G1U;
        assert_memory_equal(params + pos, ((uint8_t[]){0, 0, 0, (uint8_t)n_l}), 4);
        pos += 4 + n_l * G1U;
        assert_memory_equal(params + pos, ((uint8_t[]){0, 0, 0, MAIN_VARS}), 4);
        /* a[5] is at infinity: 0x40 then zeros. */
        assert_true(wire_at_infinity(5));
        assert_int_equal(params[pos + 4 + 5 * G1U], 0x40);
        for (size_t i = 1; i < G1U; i++)
                assert_int_equal(params[pos + 4 + 5 * G1U + i], 0);
        pos += 4 + MAIN_VARS * G1U;
        assert_memory_equal(params + pos, ((uint8_t[]){0, 0, 0, MAIN_VARS}), 4);
        pos += 4 + MAIN_VARS * G1U;
        assert_memory_equal(params + pos, ((uint8_t[]){0, 0, 0, MAIN_VARS}), 4);
        g2_encode(expect, G2U, &main_key.b2[MAIN_VARS - 1], POINT_FORMAT_UNCOMPRESSED);
        assert_memory_equal(params + params_size - G2U, expect, G2U);
}

static void test_params_round_trip(void **state) {
        (void)state;

        for (int check = 0; check <= 1; check++) {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
                struct groth16_pk pk;
                const struct groth16_pk *want = &main_key.pk;

                assert_int_equal(bellperson_params_load(main_params, check, &p), 0);
                assert_vk_equal(p->vk, &main_key);
                assert_int_equal(p->n_h, (1u << MAIN_LOG_DOMAIN) - 1);
                assert_int_equal(p->n_l, MAIN_VARS - MAIN_PUBLIC - 1);
                assert_int_equal(p->n_a, MAIN_VARS);
                assert_int_equal(p->n_b_g1, MAIN_VARS);
                assert_int_equal(p->n_b_g2, MAIN_VARS);

                assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), 0);
                assert_int_equal(pk.h_convention, GROTH16_H_BELLPERSON);
                assert_int_equal(pk.n_vars, want->n_vars);
                assert_int_equal(pk.n_public, want->n_public);
                assert_int_equal(pk.log_domain_size, want->log_domain_size);
                assert_true(g1_affine_equal(&pk.alpha1, &want->alpha1));
                assert_true(g1_affine_equal(&pk.beta1, &want->beta1));
                assert_true(g1_affine_equal(&pk.delta1, &want->delta1));
                assert_true(g2_affine_equal(&pk.beta2, &want->beta2));
                assert_true(g2_affine_equal(&pk.delta2, &want->delta2));
                assert_g1_arrays_equal(pk.a, want->a, want->n_vars);
                assert_g1_arrays_equal(pk.b1, want->b1, want->n_vars);
                assert_g2_arrays_equal(pk.b2, want->b2, want->n_vars);
                assert_g1_arrays_equal(pk.l, want->l, want->n_vars - want->n_public - 1);
                assert_g1_arrays_equal(pk.h, want->h,
                                       groth16_h_bases(pk.h_convention, pk.log_domain_size));
                assert_true(g1_affine_is_infinity(&pk.a[5]));
                assert_true(g2_affine_is_infinity(&pk.b2[12]));
        }
}

/* Pages of path in the page cache (mincore of a fresh mapping). */
static size_t cached_pages(const char *path, size_t *ret_pages) {
        const size_t page = (size_t)sysconf(_SC_PAGESIZE);
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat st;
        unsigned char *vec;
        size_t n, cached = 0;
        void *map;

        assert_true(fd >= 0);
        assert_int_equal(fstat(fd, &st), 0);
        n = ((size_t)st.st_size + page - 1) / page;
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        assert_true(map != MAP_FAILED);
        vec = calloc(n, 1);
        assert_non_null(vec);
        assert_int_equal(mincore(map, (size_t)st.st_size, vec), 0);
        for (size_t i = 0; i < n; i++)
                cached += vec[i] & 1;
        free(vec);
        munmap(map, (size_t)st.st_size);
        *ret_pages = n;
        return cached;
}

static bool on_tmpfs(const char *path) {
        struct statfs fs;

        assert_int_equal(statfs(path, &fs), 0);
        return fs.f_type == 0x01021994; /* TMPFS_MAGIC */
}

/* Loading a .params file leaves none of its pages in the page cache (where they would
 * stay charged to the prover's memory cgroup), however warm the file was. */
static void test_params_load_drops_pages(void **state) {
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        _cleanup_close_ int fd = open(main_params, O_RDONLY | O_CLOEXEC);
        char buf[65536];
        size_t pages, before;

        (void)state;
        assert_true(fd >= 0);
        if (on_tmpfs(main_params)) /* the page cache is the file */
                skip();
        assert_int_equal(fsync(fd), 0); /* dirty pages stay in the cache */
        while (read(fd, buf, sizeof(buf)) > 0)
                ;
        before = cached_pages(main_params, &pages);
        assert_true(pages >= 4); /* ~30 KB */
        assert_true(before > pages / 2);
        assert_int_equal(bellperson_params_load(main_params, false, &p), 0);
        assert_int_equal(cached_pages(main_params, &pages), 0);
}

static void test_vk_round_trip(void **state) {
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        _cleanup_free_ uint8_t *first = NULL, *second = NULL;
        size_t first_size, second_size;
        char again[256];

        (void)state;
        assert_int_equal(bellperson_vk_load(main_vk, &vk), 0);
        assert_vk_equal(vk, &main_key);

        /* Written again from what was read: the same bytes. */
        tmp_path(again, sizeof(again), "probe");
        assert_int_equal(bellperson_vk_save(again, &vk->vk, &vk->beta1, &vk->delta1), 0);
        first = read_file(main_vk, &first_size);
        second = read_file(again, &second_size);
        assert_int_equal(first_size, second_size);
        assert_memory_equal(first, second, first_size);
        assert_int_equal(unlink(again), 0);

        /* A .params file is not a .vk file: its sections are trailing bytes. */
        clear_log();
        assert_int_equal(bellperson_vk_load(main_params, &vk), -EBADMSG);
        expect_log(main_params, "bytes after the verifying key");
}

/* ---- proofs ---- */

/*
 * A valid proof for the toxic waste of k: A = a G1, B = b G2 and
 * C = (a b - alpha beta - l gamma) / delta G1, where l = ic_0 + sum x_i ic_i
 * is the discrete log of the verifier's L, so that
 * e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta).
 */
static void make_proof(struct groth16_proof *proof, const struct test_key *k, const fr_t *inputs) {
        fr_t a, b, l, c, t, delta_inv;

        random_fr_nonzero(&a);
        random_fr_nonzero(&b);
        l = k->ic_scalars[0];
        for (size_t i = 0; i < k->vk.n_public; i++) {
                fr_mul(&t, &inputs[i], &k->ic_scalars[i + 1]);
                fr_add(&l, &l, &t);
        }
        fr_mul(&c, &a, &b);
        fr_mul(&t, &k->alpha, &k->beta);
        fr_sub(&c, &c, &t);
        fr_mul(&t, &l, &k->gamma);
        fr_sub(&c, &c, &t);
        fr_inv(&delta_inv, &k->delta);
        fr_mul(&c, &c, &delta_inv);

        g1_mul_gen(&proof->a, &a);
        g2_mul_gen(&proof->b, &b);
        g1_mul_gen(&proof->c, &c);
}

#define N_PARTITIONS 3

static void test_proof_verifies(void **state) {
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        _cleanup_free_ struct groth16_proof *decoded = NULL;
        struct groth16_proof proofs[N_PARTITIONS], one;
        fr_t inputs[N_PARTITIONS][MAIN_PUBLIC];
        uint8_t bytes[N_PARTITIONS * FILECOIN_PROOF_BYTES], point[G2_COMPRESSED_BYTES];
        size_t n = 0;

        (void)state;
        assert_int_equal(bellperson_vk_load(main_vk, &vk), 0);

        for (size_t p = 0; p < N_PARTITIONS; p++) {
                for (size_t i = 0; i < MAIN_PUBLIC; i++)
                        test_rng_fr(&inputs[p][i]);
                make_proof(&proofs[p], &main_key, inputs[p]);
        }

        /* One proof: A || B || C, each compressed. */
        filecoin_proof_encode(bytes, &proofs[0]);
        g1_encode(point, G1_COMPRESSED_BYTES, &proofs[0].a, POINT_FORMAT_COMPRESSED);
        assert_memory_equal(bytes, point, G1_COMPRESSED_BYTES);
        g2_encode(point, G2_COMPRESSED_BYTES, &proofs[0].b, POINT_FORMAT_COMPRESSED);
        assert_memory_equal(bytes + 48, point, G2_COMPRESSED_BYTES);
        g1_encode(point, G1_COMPRESSED_BYTES, &proofs[0].c, POINT_FORMAT_COMPRESSED);
        assert_memory_equal(bytes + 144, point, G1_COMPRESSED_BYTES);
        assert_true(bytes[0] & 0x80 && bytes[48] & 0x80 && bytes[144] & 0x80);

        assert_int_equal(filecoin_proof_decode(bytes, FILECOIN_PROOF_BYTES, "proof", &one), 0);
        assert_true(g1_affine_equal(&one.a, &proofs[0].a));
        assert_true(g2_affine_equal(&one.b, &proofs[0].b));
        assert_true(g1_affine_equal(&one.c, &proofs[0].c));
        assert_int_equal(groth16_verify(&vk->vk, inputs[0], &one), 1);

        /* The partitions' proofs concatenated, each verified with its inputs. */
        filecoin_proofs_encode(bytes, sizeof(bytes), proofs, N_PARTITIONS);
        assert_int_equal(filecoin_proofs_decode(bytes, sizeof(bytes), "proofs", &decoded, &n), 0);
        assert_int_equal(n, N_PARTITIONS);
        for (size_t p = 0; p < N_PARTITIONS; p++) {
                assert_true(g1_affine_equal(&decoded[p].a, &proofs[p].a));
                assert_true(g2_affine_equal(&decoded[p].b, &proofs[p].b));
                assert_true(g1_affine_equal(&decoded[p].c, &proofs[p].c));
                assert_int_equal(groth16_verify(&vk->vk, inputs[p], &decoded[p]), 1);
        }
        /* A proof does not verify for another partition's inputs. */
        assert_int_equal(groth16_verify(&vk->vk, inputs[1], &decoded[0]), 0);
}

/* Byte offsets of A, B, C in a proof. */
#define PROOF_A 0
#define PROOF_B 48
#define PROOF_C 144

static void expect_proof_error(const uint8_t *bytes, int want, const char *element,
                               const char *reason) {
        struct groth16_proof untouched, p;
        _cleanup_free_ uint8_t *copy = exact_copy(bytes, FILECOIN_PROOF_BYTES);

        memset(&p, 0xa5, sizeof(p));
        untouched = p;
        clear_log();
        assert_int_equal(filecoin_proof_decode(copy, FILECOIN_PROOF_BYTES, "job-7", &p), want);
        assert_memory_equal(&p, &untouched, sizeof(p));
        expect_log("job-7", element, reason);
}

static void test_proof_errors(void **state) {
        struct groth16_proof proof, p;
        _cleanup_free_ struct groth16_proof *list = NULL;
        uint8_t good[FILECOIN_PROOF_BYTES], bad[FILECOIN_PROOF_BYTES];
        uint8_t three[3 * FILECOIN_PROOF_BYTES];
        fr_t inputs[MAIN_PUBLIC] = {0};
        g1_affine_t g1_bad;
        size_t n = 0;
        fp_t x, t;

        (void)state;
        make_proof(&proof, &main_key, inputs);
        filecoin_proof_encode(good, &proof);

        /* Lengths. */
        clear_log();
        assert_int_equal(filecoin_proof_decode(good, 191, "job-7", &p), -ZK_E_WRONG_LENGTH);
        expect_log("job-7", "191 bytes", "expected 192");
        assert_int_equal(filecoin_proofs_decode(good, 0, "job-7", &list, &n), -ZK_E_WRONG_LENGTH);
        expect_log("job-7", "0 bytes");
        assert_int_equal(filecoin_proofs_decode(three, 193, "job-7", &list, &n),
                         -ZK_E_WRONG_LENGTH);
        expect_log("job-7", "193 bytes");
        assert_null(list);

        /* Flags: B without its compression bit. */
        memcpy(bad, good, sizeof(bad));
        bad[PROOF_B] &= 0x7f;
        expect_proof_error(bad, -ZK_E_BAD_FLAGS, "proof B", "bad flag bits");

        /* A: an x with no point on the curve (x^3 + 4 is not a square). */
        for (uint64_t k = 1;; k++) {
                fp_t four;

                fp_from_u64(&x, k);
                fp_sqr(&t, &x);
                fp_mul(&t, &t, &x);
                fp_from_u64(&four, 4);
                fp_add(&t, &t, &four);
                if (fp_legendre(&t) == -1)
                        break;
        }
        memcpy(bad, good, sizeof(bad));
        fp_to_be_bytes(bad + PROOF_A, &x);
        bad[PROOF_A] |= 0x80;
        expect_proof_error(bad, -ZK_E_NOT_ON_CURVE, "proof A", "not on the curve");

        /* A non-canonical x (>= p) in C. */
        memcpy(bad, good, sizeof(bad));
        memset(bad + PROOF_C, 0xff, G1_COMPRESSED_BYTES);
        bad[PROOF_C] = 0x9f;
        expect_proof_error(bad, -ZK_E_NOT_CANONICAL, "proof C", "not canonical");

        /* C on the curve but outside the subgroup. */
        g1_outside_subgroup(&g1_bad);
        memcpy(bad, good, sizeof(bad));
        g1_encode(bad + PROOF_C, G1_COMPRESSED_BYTES, &g1_bad, POINT_FORMAT_COMPRESSED);
        expect_proof_error(bad, -ZK_E_NOT_IN_SUBGROUP, "proof C",
                           "not in the prime-order subgroup");

        /* A well-formed infinity, which bellperson refuses. */
        memcpy(bad, good, sizeof(bad));
        memset(bad + PROOF_B, 0, G2_COMPRESSED_BYTES);
        bad[PROOF_B] = 0xc0;
        expect_proof_error(bad, -EBADMSG, "proof B", "point at infinity");
        /* Infinity with stray bits. */
        bad[PROOF_B + 95] = 1;
        expect_proof_error(bad, -ZK_E_INFINITY_NOT_ZERO, "proof B", "infinity with non-zero bits");

        /* In a list the message names the partition. */
        memcpy(three, good, FILECOIN_PROOF_BYTES);
        memcpy(three + FILECOIN_PROOF_BYTES, good, FILECOIN_PROOF_BYTES);
        memcpy(three + 2 * FILECOIN_PROOF_BYTES, good, FILECOIN_PROOF_BYTES);
        three[FILECOIN_PROOF_BYTES + PROOF_A] &= 0x7f;
        clear_log();
        assert_int_equal(filecoin_proofs_decode(three, sizeof(three), "job-7", &list, &n),
                         -ZK_E_BAD_FLAGS);
        assert_null(list);
        expect_log("job-7: partition 1 of 3", "proof A", "bad flag bits");
}

/* ---- malformed files ---- */

/* Loads image from a file and parses it from an exact-size buffer: both
 * must fail with want and a message naming the file and the needles. */
#define expect_params_error(image, size, check, want, ...)                                      \
        do {                                                                                    \
                struct bellperson_params *p_ = NULL;                                            \
                uint8_t *copy_ = exact_copy((image), (size));                                   \
                char probe_[256];                                                               \
                                                                                                \
                tmp_path(probe_, sizeof(probe_), "probe");                                      \
                write_file(probe_, copy_, (size));                                              \
                clear_log();                                                                    \
                assert_int_equal(bellperson_params_load(probe_, (check), &p_), (want));         \
                assert_null(p_);                                                                \
                expect_log(probe_, __VA_ARGS__);                                                \
                clear_log();                                                                    \
                assert_int_equal(bellperson_params_parse(copy_, (size), "image", (check), &p_), \
                                 (want));                                                       \
                assert_null(p_);                                                                \
                expect_log("image", __VA_ARGS__);                                               \
                free(copy_);                                                                    \
        } while (0)

static void test_every_prefix(void **state) {
        _cleanup_free_ uint8_t *vk_image = NULL;
        size_t vk_size;
        char probe[256];

        (void)state;
        vk_image = read_file(small_vk, &vk_size);
        tmp_path(probe, sizeof(probe), "probe");

        /* The whole files load (so that the refusals below mean something). */
        {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
                _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
                struct groth16_pk pk;

                assert_int_equal(
                        bellperson_params_parse(small_image, small_size, "image", true, &p), 0);
                assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), 0);
                assert_int_equal(pk.n_vars, SMALL_VARS);
                assert_int_equal(bellperson_vk_parse(vk_image, vk_size, "image", NULL, &vk), 0);
        }

        for (size_t len = 0; len < small_size; len++) {
                struct bellperson_params *p = NULL;
                uint8_t *copy = exact_copy(small_image, len);

                clear_log();
                assert_int_equal(bellperson_params_parse(copy, len, "image", true, &p), -EBADMSG);
                assert_null(p);
                assert_int_equal(n_logs, 1);
                if (!strstr(last_log, "truncated") && !strstr(last_log, "needs"))
                        fail_msg("prefix of %zu bytes: \"%s\"", len, last_log);
                free(copy);

                /* Through a file too, for a sample of lengths (each needs a write). */
                if (len % 37 == 0 || len + 1 == small_size) {
                        write_file(probe, small_image, len);
                        clear_log();
                        assert_int_equal(bellperson_params_load(probe, true, &p), -EBADMSG);
                        expect_log(probe);
                }
        }
        for (size_t len = 0; len < vk_size; len++) {
                struct bellperson_vk *vk = NULL;
                uint8_t *copy = exact_copy(vk_image, len);

                clear_log();
                assert_int_equal(bellperson_vk_parse(copy, len, "image", NULL, &vk), -EBADMSG);
                assert_null(vk);
                expect_log("image");
                free(copy);
        }
        write_file(probe, vk_image, 100);
        clear_log();
        assert_int_equal(bellperson_vk_load(probe, &(struct bellperson_vk *){NULL}), -EBADMSG);
        expect_log(probe, "truncated: 100 bytes");
}

static void test_bad_counts(void **state) {
        _cleanup_free_ uint8_t *image = malloc(small_size + 1);
        char size_text[64], size_plus_one[64];

        (void)state;
        assert_non_null(image);
        memcpy(image, small_image, small_size);
        snprintf(size_text, sizeof(size_text), "the file has %zu bytes", small_size);
        snprintf(size_plus_one, sizeof(size_plus_one), "the file has %zu bytes", small_size + 1);

        /* h claims one point more: l's count is then read from l's first point. */
        put_be32(image + small_h_count_offset(), 4);
        expect_params_error(image, small_size, true, -EBADMSG, "l section: count", size_text);
        /* Absurd counts are refused before any allocation. */
        put_be32(image + small_h_count_offset(), UINT32_MAX);
        expect_params_error(image, small_size, true, -EBADMSG, "h section: count 4294967295",
                            "needs 412316860320 bytes", size_text);
        memcpy(image, small_image, small_size);
        put_be32(image + small_l_count_offset(), 1000);
        expect_params_error(image, small_size, true, -EBADMSG, "l section: count 1000", size_text);
        memcpy(image, small_image, small_size);
        put_be32(image + small_b_g2_count_offset(), 1u << 30);
        expect_params_error(image, small_size, true, -EBADMSG, "b_g2 section: count 1073741824",
                            size_text);
        /* b_g2 one short: 192 bytes left over. */
        memcpy(image, small_image, small_size);
        put_be32(image + small_b_g2_count_offset(), SMALL_VARS - 1);
        expect_params_error(image, small_size, true, -EBADMSG, "192 bytes after the b_g2 section");
        /* One byte appended. */
        memcpy(image, small_image, small_size);
        image[small_size] = 0;
        expect_params_error(image, small_size + 1, true, -EBADMSG, "1 bytes after the b_g2 section",
                            size_plus_one);
        /* IC counts: 0, and one too many (the counts after it then disagree). */
        memcpy(image, small_image, small_size);
        put_be32(image + BELLPERSON_VK_FIXED_BYTES - 4, 0);
        expect_params_error(image, small_size, true, -EBADMSG, "ic count is 0");
        put_be32(image + BELLPERSON_VK_FIXED_BYTES - 4, UINT32_MAX);
        expect_params_error(image, small_size, true, -EBADMSG, "ic count 4294967295", size_text);
        put_be32(image + BELLPERSON_VK_FIXED_BYTES - 4, SMALL_PUBLIC + 2);
        expect_params_error(image, small_size, true, -EBADMSG, "count");
}

/* Writes point p into the section's point i of a copy of the small image. */
static uint8_t *image_with_point(uint64_t offset, const uint8_t *encoded, size_t bytes) {
        uint8_t *image = exact_copy(small_image, small_size);

        memcpy(image + offset, encoded, bytes);
        return image;
}

static void test_bad_points(void **state) {
        const uint64_t a1 = small_a_count_offset() + 4 + 1 * G1U;
        const uint64_t b_g1_2 = small_b_g1_count_offset() + 4 + 2 * G1U;
        const uint64_t h0 = small_h_count_offset() + 4;
        const uint64_t l3 = small_l_count_offset() + 4 + 3 * G1U;
        const uint64_t b_g2_4 = small_b_g2_count_offset() + 4 + 4 * G2U;
        uint8_t enc[G2U];
        g1_affine_t g1_bad;
        g2_affine_t g2_bad;
        uint8_t *image;

        (void)state;
        assert_false(wire_at_infinity(1) || wire_at_infinity(2) || wire_at_infinity(4));

        /* Flags: a compressed point where an uncompressed one belongs. */
        image = exact_copy(small_image, small_size);
        image[a1] |= 0x80;
        expect_params_error(image, small_size, false, -EBADMSG, "a section: point 1 of 6",
                            "bad flag bits");
        free(image);

        /* y changed in its last bit: off the curve. */
        image = exact_copy(small_image, small_size);
        image[b_g1_2 + G1U - 1] ^= 1;
        expect_params_error(image, small_size, false, -EBADMSG, "b_g1 section: point 2 of 6",
                            "not on the curve");
        free(image);

        /* x >= p. */
        image = exact_copy(small_image, small_size);
        memset(image + h0, 0xff, FP_BYTES);
        image[h0] = 0x1f;
        expect_params_error(image, small_size, false, -EBADMSG, "h section: point 0 of 3",
                            "not canonical");
        free(image);

        /* Infinity flag with a coordinate left in. */
        image = exact_copy(small_image, small_size);
        image[h0] = 0x40;
        expect_params_error(image, small_size, false, -EBADMSG, "h section: point 0 of 3",
                            "infinity with non-zero bits");
        free(image);

        /* On the curve, outside the subgroup: refused only when checked. */
        g1_outside_subgroup(&g1_bad);
        g1_encode(enc, G1U, &g1_bad, POINT_FORMAT_UNCOMPRESSED);
        image = image_with_point(l3, enc, G1U);
        expect_params_error(image, small_size, true, -EBADMSG, "l section: point 3 of 4",
                            "not in the prime-order subgroup");
        {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;

                assert_int_equal(bellperson_params_parse(image, small_size, "image", false, &p), 0);
                assert_true(g1_affine_equal(&p->l[3], &g1_bad));
        }
        free(image);

        g2_outside_subgroup(&g2_bad);
        g2_encode(enc, G2U, &g2_bad, POINT_FORMAT_UNCOMPRESSED);
        image = image_with_point(b_g2_4, enc, G2U);
        expect_params_error(image, small_size, true, -EBADMSG, "b_g2 section: point 4 of 6",
                            "not in the prime-order subgroup");
        {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;

                assert_int_equal(bellperson_params_parse(image, small_size, "image", false, &p), 0);
                assert_true(g2_affine_equal(&p->b_g2[4], &g2_bad));
        }
        free(image);

        /* The verifying key is checked even when the rest is not. */
        g1_encode(enc, G1U, &g1_bad, POINT_FORMAT_UNCOMPRESSED);
        image = image_with_point(G1U, enc, G1U);
        expect_params_error(image, small_size, false, -EBADMSG, "verifying key: beta_g1",
                            "not in the prime-order subgroup");
        free(image);
        g2_encode(enc, G2U, &g2_bad, POINT_FORMAT_UNCOMPRESSED);
        image = image_with_point(2 * G1U + G2U, enc, G2U);
        expect_params_error(image, small_size, false, -EBADMSG, "verifying key: gamma_g2",
                            "not in the prime-order subgroup");
        free(image);

        /* Infinity in the verifying key. */
        memset(enc, 0, sizeof(enc));
        enc[0] = 0x40;
        image = image_with_point(2 * G1U + 2 * G2U, enc, G1U);
        expect_params_error(image, small_size, false, -EBADMSG, "verifying key: delta_g1",
                            "point at infinity");
        free(image);
        image = image_with_point(BELLPERSON_VK_FIXED_BYTES + G1U, enc, G1U);
        expect_params_error(image, small_size, false, -EBADMSG, "ic point 1 of 2",
                            "point at infinity");
        free(image);
}

/* bellperson-generated files (a, b_g1, b_g2 without their points at
 * infinity) load but do not make a proving key; nor does a bad h count. */
static void test_to_pk_refusals(void **state) {
        const uint64_t a_count = small_a_count_offset();
        const uint64_t l_count = small_l_count_offset();
        _cleanup_free_ uint8_t *image = malloc(small_size);
        struct groth16_pk pk;

        (void)state;
        assert_non_null(image);

        /* Drop a's last point. */
        {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
                const uint64_t a_end = a_count + 4 + SMALL_VARS * G1U;

                memcpy(image, small_image, a_end - G1U);
                memcpy(image + a_end - G1U, small_image + a_end, small_size - a_end);
                put_be32(image + a_count, SMALL_VARS - 1);
                assert_int_equal(
                        bellperson_params_parse(image, small_size - G1U, "dense", true, &p), 0);
                assert_int_equal(p->n_a, SMALL_VARS - 1);
                clear_log();
                assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), -EOPNOTSUPP);
                expect_log("dense", "a has 5 points", "expected one per wire: 6",
                           "the circuit's A density");
        }
        /* Drop h's last point: 2 is not a power of two minus one. */
        {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;

                memcpy(image, small_image, l_count - G1U);
                memcpy(image + l_count - G1U, small_image + l_count, small_size - l_count);
                put_be32(image + small_h_count_offset(), 2);
                assert_int_equal(
                        bellperson_params_parse(image, small_size - G1U, "short-h", true, &p), 0);
                clear_log();
                assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), -EBADMSG);
                expect_log("short-h", "h has 2 points", "power of two minus one");
        }
}

static void test_writer_refusals(void **state) {
        struct groth16_pk pk = small_key.pk;
        struct groth16_vk vk = small_key.vk;
        char path[256];

        (void)state;
        tmp_path(path, sizeof(path), "refused.params");

        pk.h_convention = GROTH16_H_SNARKJS;
        clear_log();
        assert_int_equal(bellperson_params_save(path, &pk, &vk), -EINVAL);
        expect_log(path, "snarkjs");
        assert_int_equal(access(path, F_OK), -1);

        pk = small_key.pk;
        vk.alpha1 = small_key.pk.beta1;
        clear_log();
        assert_int_equal(bellperson_params_save(path, &pk, &vk), -EINVAL);
        expect_log(path, "does not belong");
        assert_int_equal(access(path, F_OK), -1);

        /* A directory that does not exist: the error of mkostemp(), nothing left behind. */
        clear_log();
        assert_int_equal(
                bellperson_params_save("/nonexistent-dir/x.params", &small_key.pk, &small_key.vk),
                -ENOENT);
        expect_log("/nonexistent-dir/x.params");
        assert_int_equal(
                bellperson_vk_load("/nonexistent-dir/x.vk", &(struct bellperson_vk *){NULL}),
                -ENOENT);
}

/* ---- the G1 sink (bellperson_params_load_sink) ---- */

/* A sink that decodes what it gets on the host, as the GPU's does on the card, and checks
 * that the pieces come in order. */
struct test_sink {
        int begin_answer; /* what begin returns */
        unsigned begins, puts;
        uint32_t n_public;
        struct bellperson_params_layout layout;
        g1_affine_t *points[BELLPERSON_SECTION_B_G2];
        uint64_t received[BELLPERSON_SECTION_B_G2];
        bool out_of_order;
};

static int test_sink_begin(void *userdata, const struct bellperson_params_layout *layout,
                           uint32_t n_public) {
        struct test_sink *t = userdata;

        t->begins++;
        t->layout = *layout;
        t->n_public = n_public;
        if (t->begin_answer > 0)
                for (unsigned s = 0; s < BELLPERSON_SECTION_B_G2; s++) {
                        t->points[s] = calloc(layout->count[s] + 1, sizeof(g1_affine_t));
                        assert_non_null(t->points[s]);
                }
        return t->begin_answer;
}

static int test_sink_put(void *userdata, enum bellperson_params_section s, uint64_t first,
                         const uint8_t *encoded, uint64_t n, uint64_t *ret_bad) {
        struct test_sink *t = userdata;
        int r;

        t->puts++;
        assert_true(s < BELLPERSON_SECTION_B_G2);
        if (first != t->received[s] || first + n > t->layout.count[s])
                t->out_of_order = true;
        r = bellperson_decode_g1_points(t->points[s] + first, encoded, n,
                                        POINT_DECODE_SKIP_SUBGROUP_CHECK, ret_bad);
        if (r < 0) {
                *ret_bad += first;
                return 1;
        }
        t->received[s] += n;
        return 0;
}

static void test_sink_free(struct test_sink *t) {
        for (unsigned s = 0; s < BELLPERSON_SECTION_B_G2; s++)
                free(t->points[s]);
}

static struct bellperson_g1_sink sink_of(struct test_sink *t, uint64_t piece_points) {
        return (struct bellperson_g1_sink){.begin = test_sink_begin,
                                           .put = test_sink_put,
                                           .userdata = t,
                                           .piece_points = piece_points};
}

/* A sink that takes the G1 sections gets every point in order, in pieces, and the host
 * keeps none of them (nor their pages in the page cache); B_G2 and the vk load as ever. */
static void test_params_sink_takes_g1(void **state) {
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        struct test_sink t = {.begin_answer = 1};
        const struct bellperson_g1_sink sink = sink_of(&t, 7);
        const struct groth16_pk *want = &main_key.pk;
        size_t pages;
        struct groth16_pk pk;

        (void)state;
        assert_int_equal(bellperson_params_load_sink(main_params, false, &sink, &p), 0);
        assert_int_equal(t.begins, 1);
        assert_false(t.out_of_order);
        assert_int_equal(t.n_public, MAIN_PUBLIC);
        /* h 63, l 46, a 50, b_g1 50 points in pieces of 7. */
        assert_int_equal(t.puts, 9 + 7 + 8 + 8);
        assert_true(p->g1_in_sink);
        assert_null(p->h);
        assert_null(p->l);
        assert_null(p->a);
        assert_null(p->b_g1);
        assert_int_equal(t.received[BELLPERSON_SECTION_H], (1u << MAIN_LOG_DOMAIN) - 1);
        assert_g1_arrays_equal(t.points[BELLPERSON_SECTION_H], want->h, p->n_h);
        assert_g1_arrays_equal(t.points[BELLPERSON_SECTION_L], want->l, p->n_l);
        assert_g1_arrays_equal(t.points[BELLPERSON_SECTION_A], want->a, p->n_a);
        assert_g1_arrays_equal(t.points[BELLPERSON_SECTION_B_G1], want->b1, p->n_b_g1);
        assert_g2_arrays_equal(p->b_g2, want->b2, MAIN_VARS);
        assert_vk_equal(p->vk, &main_key);
        /* The key still describes itself; its G1 arrays are wherever the sink put them. */
        assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), 0);
        assert_int_equal(pk.log_domain_size, MAIN_LOG_DOMAIN);
        assert_null(pk.h);
        assert_non_null(pk.b2);
        if (!on_tmpfs(main_params)) /* there the page cache is the file */
                assert_int_equal(cached_pages(main_params, &pages), 0);
        test_sink_free(&t);
}

/* A sink that declines leaves the load as without one; one asked with subgroup checks is
 * not asked at all (it checks the curve only); its error fails the load. */
static void test_params_sink_declines(void **state) {
        (void)state;
        for (int c = 0; c < 3; c++) {
                _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
                struct test_sink t = {.begin_answer = c == 2 ? -ENOSPC : c == 1 ? 1 : 0};
                const struct bellperson_g1_sink sink = sink_of(&t, 0);
                const bool check = c == 1;

                assert_int_equal(bellperson_params_load_sink(main_params, check, &sink, &p),
                                 c == 2 ? -ENOSPC : 0);
                assert_int_equal(t.begins, c == 1 ? 0 : 1);
                assert_int_equal(t.puts, 0);
                if (c == 2) {
                        assert_null(p);
                        continue;
                }
                assert_false(p->g1_in_sink);
                assert_g1_arrays_equal(p->h, main_key.pk.h, p->n_h);
                assert_g1_arrays_equal(p->a, main_key.pk.a, p->n_a);
                test_sink_free(&t);
        }
}

/* A point the sink refuses fails the load with the host decoder's reason, naming the
 * section, the point and its offset. */
static void test_params_sink_bad_point(void **state) {
        const uint64_t l3 = small_l_count_offset() + 4 + 3 * G1U;
        _cleanup_free_ uint8_t *image = exact_copy(small_image, small_size);
        struct bellperson_params *p = NULL;
        struct test_sink t = {.begin_answer = 1};
        const struct bellperson_g1_sink sink = sink_of(&t, 2);
        char probe[256], offset[64];

        (void)state;
        image[l3 + G1U - 1] ^= 1; /* y changed: off the curve */
        tmp_path(probe, sizeof(probe), "probe");
        write_file(probe, image, small_size);
        clear_log();
        assert_int_equal(bellperson_params_load_sink(probe, false, &sink, &p), -EBADMSG);
        assert_null(p);
        snprintf(offset, sizeof(offset), "(offset %" PRIu64 ")", l3);
        expect_log(probe, "l section: point 3 of 4", offset, zk_strerror(-ZK_E_NOT_ON_CURVE));
        test_sink_free(&t);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_params_layout),
                cmocka_unit_test(test_params_round_trip),
                cmocka_unit_test(test_params_load_drops_pages),
                cmocka_unit_test(test_params_sink_takes_g1),
                cmocka_unit_test(test_params_sink_declines),
                cmocka_unit_test(test_params_sink_bad_point),
                cmocka_unit_test(test_vk_round_trip),
                cmocka_unit_test(test_proof_verifies),
                cmocka_unit_test(test_proof_errors),
                cmocka_unit_test(test_every_prefix),
                cmocka_unit_test(test_bad_counts),
                cmocka_unit_test(test_bad_points),
                cmocka_unit_test(test_to_pk_refusals),
                cmocka_unit_test(test_writer_refusals),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
