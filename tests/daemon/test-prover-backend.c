/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover's backend choice and the split shape, on whatever this host
 * has: on a machine without a GPU (CI) a prover asked to use the GPU must
 * say so and prove on the CPU; with a GPU it gets the CUDA backend. Either
 * way the proofs of the split prove_start/prove_finish must verify, in
 * both H conventions (a snarkjs .zkey; a synthetic circuit with a
 * bellperson-convention key, with a point per wire and in bellperson's
 * layout), on three partitions in flight at once, finished out of order
 * (the overlap the prover relies on), and on the GPU with one lane as well
 * as two; each backend measures its partitions' stage and tail itself (the
 * job's gpu_compute_ms). On the GPU machine this is the whole-proof check.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "circuits/pce-file.h"
#include "circuits/pce-setup.h"
#include "circuits/synthetic.h"
#include "common/log.h"
#include "daemon/prover/prover-backend.h"
#include "daemon/prover/prover-keys.h"
#include "formats/bellperson_params.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "tests/lib/formats-common.h"
#include "zk/groth16.h"
#include "zk/groth16_pack.h"
#include "zk/groth16_setup.h"
#if HAVE_CUDA
#include "cuda/gpu-prove.h"
#endif

static char last_info[512];

static void capture_sink(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        if (strstr(message, "backend") || strstr(message, "CUDA"))
                snprintf(last_info, sizeof(last_info), "%s", message);
}

/* a, b, c of the fixture's witness in fresh buffers (the backend may
 * overwrite them). */
static void evaluate(const struct zkey *zk, const struct wtns *w, fr_t **a, fr_t **b, fr_t **c) {
        struct sparse_matrix ma = {0}, mb = {0};
        const size_t n = (size_t)1 << zk->log2_domain_size;
        struct groth16_constraints cs = {.a = &ma, .b = &mb, .c = NULL};

        assert_int_equal(zkey_to_groth16_matrices(zk, &ma, &mb), 0);
        *a = calloc(n, sizeof(fr_t));
        *b = calloc(n, sizeof(fr_t));
        *c = calloc(n, sizeof(fr_t));
        assert_non_null(*a);
        assert_non_null(*b);
        assert_non_null(*c);
        assert_int_equal(
                groth16_evaluate(&cs, w->values, w->n_values, zk->log2_domain_size, *a, *b, *c), 0);
        sparse_free(&ma);
        sparse_free(&mb);
}

#define PARTS 3

/* Three partitions of one key, all started before any finishes, finished
 * last first: on the GPU the third start finds both lanes busy and
 * collects the first partition itself, and finishes come in any order.
 * All verify, with fresh r, s; a tampered one does not; the backend timed
 * each one's stage and tail. a, b, c are the partitions' evaluations
 * (freed here). */
static void prove_several(struct prover_backend *backend, const struct groth16_pk *pk,
                          const struct groth16_vk *vk, const fr_t *w, fr_t *a[PARTS],
                          fr_t *b[PARTS], fr_t *c[PARTS]) {
        struct prover_partial *partial[PARTS] = {NULL};
        struct groth16_proof proof[PARTS];
        const int finish_order[PARTS] = {2, 0, 1};
        const fr_t *pub = w + 1;

        for (int i = 0; i < PARTS; i++) {
                const struct prover_inputs in = {.pk = pk,
                                                 .w = w,
                                                 .a = a[i],
                                                 .b = b[i],
                                                 .c = c[i],
                                                 .log_domain_size = pk->log_domain_size};
                assert_int_equal(backend->ops->prove_start(backend, &in, &partial[i]), 0);
        }
        for (int k = 0; k < PARTS; k++) {
                const int i = finish_order[k];
                struct prover_timings timings;

                assert_int_equal(
                        backend->ops->prove_finish(backend, partial[i], &proof[i], &timings), 0);
                assert_true(timings.stage_measured && timings.stage_usec > 0);
                assert_true(timings.tail_measured && timings.tail_usec > 0);
        }
        for (int i = 0; i < PARTS; i++)
                assert_int_equal(groth16_verify(vk, pub, &proof[i]), 1);
        /* fresh r, s each time */
        assert_memory_not_equal(&proof[0].a, &proof[1].a, sizeof(proof[0].a));
        assert_memory_not_equal(&proof[1].a, &proof[2].a, sizeof(proof[1].a));
        /* a tampered proof does not verify */
        proof[0].c = proof[1].c;
        assert_int_equal(groth16_verify(vk, pub, &proof[0]), 0);

        for (int i = 0; i < PARTS; i++) {
                free(a[i]);
                free(b[i]);
                free(c[i]);
        }
        /* As the daemon does before it frees a key (the CUDA backend unpins it). */
        if (backend->ops->forget_key)
                backend->ops->forget_key(backend, pk);
}

/* snarkjs's convention: the bits fixture's .zkey and witness. */
static void prove_snarkjs(struct prover_backend *backend) {
        _cleanup_free_ char *zkey_path = fixture_file("bits", "zkey");
        _cleanup_free_ char *wtns_path = fixture_file("bits", "wtns");
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        struct groth16_vk *vk = NULL;
        struct groth16_pk pk;
        fr_t *a[PARTS], *b[PARTS], *c[PARTS];

        assert_int_equal(zkey_load(zkey_path, &zk), 0);
        assert_int_equal(wtns_load(wtns_path, &w), 0);
        assert_int_equal(snarkjs_vk_from_zkey(zk, &vk), 0);
        zkey_to_groth16_pk(zk, &pk);
        for (int i = 0; i < PARTS; i++)
                evaluate(zk, w, &a[i], &b[i], &c[i]);
        prove_several(backend, &pk, vk, w->values, a, b, c);
        snarkjs_vk_free(vk);
}

/* The partitions' evaluations of the synthetic circuit. */
static void evaluate_pce(const struct pce *pce, const fr_t *w, fr_t *a[PARTS], fr_t *b[PARTS],
                         fr_t *c[PARTS]) {
        const unsigned log_domain_size = pce_log_domain_size(pce);
        const size_t n = (size_t)1 << log_domain_size;
        for (int i = 0; i < PARTS; i++) {
                a[i] = calloc(n, sizeof(fr_t));
                b[i] = calloc(n, sizeof(fr_t));
                c[i] = calloc(n, sizeof(fr_t));
                assert_true(a[i] && b[i] && c[i]);
                assert_int_equal(
                        pce_evaluate(pce, w, pce->n_cols, log_domain_size, a[i], b[i], c[i]), 0);
        }
}

/* PARTS partitions from in's compact witness, started together, each proof verified. */
static void compact_round(struct prover_backend *backend, const struct prover_inputs *in,
                          const struct groth16_vk *vk, const fr_t *w) {
        struct prover_partial *partial[PARTS] = {NULL};
        struct groth16_proof proof;

        for (int i = 0; i < PARTS; i++)
                assert_int_equal(backend->ops->prove_start(backend, in, &partial[i]), 0);
        for (int i = PARTS - 1; i >= 0; i--) {
                assert_int_equal(backend->ops->prove_finish(backend, partial[i], &proof, NULL), 0);
                assert_int_equal(groth16_verify(vk, w + 1, &proof), 1);
        }
}

/* The same partitions from the compact witness and the circuit's PCE file: the CUDA
 * backend evaluates a, b, c and w on the card (the PCE uploaded once per key, again
 * after the key is forgotten), and the proofs verify; the CPU backend refuses. */
static void prove_compact(struct prover_backend *backend, const struct groth16_pk *pk,
                          const struct groth16_vk *vk, const char *pce_path, const fr_t *w) {
        _cleanup_(pce_compact_owned_free) struct pce_compact_owned cw = {0};
        const struct prover_inputs in = {.pk = pk,
                                         .log_domain_size = pk->log_domain_size,
                                         .compact = &cw.w,
                                         .circuit_path = pce_path};
        struct prover_partial *partial = NULL;

        assert_int_equal(pce_compact_from_full(w, (uint32_t)pk->n_public,
                                               pk->n_vars - 1 - pk->n_public, &cw),
                         0);
        if (strcmp(backend->ops->name, "cuda") != 0) {
                assert_int_equal(backend->ops->prove_start(backend, &in, &partial), -EOPNOTSUPP);
                return;
        }
        for (int round = 0; round < 2; round++) {
                compact_round(backend, &in, vk, w);
                backend->ops->forget_key(backend, pk);
        }
}

/* A key adopted as the prover does on loading it: where the backend holds its bases on
 * the card (the CUDA one with SrsResidence=auto: this small key fits) their host arrays
 * go, B_G2's too, as prover_keys_release_bases frees them, and partitions still prove from
 * the compact witness and from a, b, c (the B_G2 tail on the card). The CPU backend keeps
 * the host copy (no adopt_key). */
static void prove_adopted(struct prover_backend *backend, const struct groth16_pk *key,
                          const struct groth16_vk *vk, const struct pce *pce, const char *pce_path,
                          const fr_t *w) {
        _cleanup_(pce_compact_owned_free) struct pce_compact_owned cw = {0};
        struct groth16_pk pk = *key;
        const struct prover_inputs in = {.pk = &pk,
                                         .log_domain_size = pk.log_domain_size,
                                         .compact = &cw.w,
                                         .circuit_path = pce_path};
        fr_t *a[PARTS], *b[PARTS], *c[PARTS];

        if (!backend->ops->adopt_key) {
                assert_string_equal(backend->ops->name, "cpu");
                return;
        }
        assert_int_equal(backend->ops->adopt_key(backend, &pk), 1);
        pk.a = pk.b1 = pk.l = pk.h = NULL;
        pk.b2 = NULL;
        assert_int_equal(
                pce_compact_from_full(w, (uint32_t)pk.n_public, pk.n_vars - 1 - pk.n_public, &cw),
                0);
        compact_round(backend, &in, vk, w);
        evaluate_pce(pce, w, a, b, c);
        prove_several(backend, &pk, vk, w, a, b, c); /* forgets the key */
}

static void flip_byte(const char *path, uint64_t offset) {
        _cleanup_close_ int fd = open(path, O_RDWR | O_CLOEXEC);
        uint8_t byte;

        assert_true(fd >= 0);
        assert_int_equal(pread(fd, &byte, 1, (off_t)offset), 1);
        byte ^= 1;
        assert_int_equal(pwrite(fd, &byte, 1, (off_t)offset), 1);
}

/* The key in bellperson's layout loaded as the prover loads it, its G1 bases streamed to
 * the card as the file is read (the CUDA backend's sink, in pieces of 100 points): the host
 * holds B_G2 alone until the backend adopts the key and copies it to the card too, then
 * none of the bases; partitions prove from the compact witness and from a, b, c, and a
 * file with a point off the curve fails the load. The CPU backend offers no sink. */
static void prove_streamed(struct prover_backend *backend, const char *params_path,
                           const struct groth16_vk *vk, const struct pce *pce, const char *pce_path,
                           const fr_t *w) {
        _cleanup_(pce_compact_owned_free) struct pce_compact_owned cw = {0};
        struct bellperson_g1_sink sink;
        struct prover_keys *cache = NULL;
        const struct groth16_pk *pk;
        fr_t *a[PARTS], *b[PARTS], *c[PARTS];
        uint64_t load_usec;

        if (!backend->ops->key_sink) {
                assert_string_equal(backend->ops->name, "cpu");
                return;
        }
        assert_int_equal(prover_keys_new(&cache), 0);
        assert_int_equal(backend->ops->key_sink(backend, &sink), 1);
        sink.piece_points = 100;
        assert_int_equal(prover_keys_get(cache, JOB_SYNTHETIC_PCE, params_path, pce_path, &sink,
                                         &pk, &load_usec),
                         0);
        assert_null(pk->a);
        assert_null(pk->h);
        assert_int_equal(prover_keys_bytes(cache), groth16_pk_b_points(pk) * sizeof(g2_affine_t));
        assert_int_equal(backend->ops->adopt_key(backend, pk), 1);
        backend->ops->key_sink_done(backend);
        assert_int_equal(prover_keys_release_bases(cache, pk),
                         groth16_pk_b_points(pk) * sizeof(g2_affine_t));
        assert_null(pk->b2);
        assert_int_equal(prover_keys_bytes(cache), 0);
        const struct prover_inputs in = {.pk = pk,
                                         .log_domain_size = pk->log_domain_size,
                                         .compact = &cw.w,
                                         .circuit_path = pce_path};
        assert_int_equal(pce_compact_from_full(w, (uint32_t)pk->n_public,
                                               pk->n_vars - 1 - pk->n_public, &cw),
                         0);
        compact_round(backend, &in, vk, w);
        evaluate_pce(pce, w, a, b, c);
        prove_several(backend, pk, vk, w, a, b, c); /* forgets the key */
        assert_int_equal(prover_keys_forget(cache, JOB_SYNTHETIC_PCE, params_path), 0);

        /* A bit of y of h's last point (after the vk and h's count): off the curve. */
        flip_byte(params_path,
                  bellperson_vk_bytes((uint32_t)vk->n_public) + 4 +
                          groth16_h_bases(GROTH16_H_BELLPERSON, pce_log_domain_size(pce)) * 96 - 1);
        assert_int_equal(backend->ops->key_sink(backend, &sink), 1);
        assert_int_equal(prover_keys_get(cache, JOB_SYNTHETIC_PCE, params_path, pce_path, &sink,
                                         &pk, &load_usec),
                         -EBADMSG);
        backend->ops->key_sink_done(backend);
        assert_int_equal(prover_keys_bytes(cache), 0);
        prover_keys_free(cache);
}

/* A synthetic circuit of params, its witness, and a real key from a seeded setup. */
static void synthetic_circuit(struct synthetic_params *params, const char *seed, struct pce **pce,
                              fr_t **w, struct groth16_keys **keys) {
        struct groth16_toxic_waste tw;

        assert_int_equal(synthetic_params_resolve(params), 0);
        assert_int_equal(synthetic_generate(params, pce, w), 0);
        groth16_toxic_waste_from_seed(&tw, (const uint8_t *)seed, strlen(seed));
        assert_int_equal(pce_groth16_setup(*pce, &tw, NULL, keys), 0);
}

/* bellperson's convention: a synthetic PoRep-shaped circuit and a real key
 * from groth16_setup, with a point per wire and in bellperson's layout (A
 * and B points for their wires only, which the provers gather scalars
 * for). */
static void prove_synthetic(struct prover_backend *backend) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        _cleanup_(groth16_keys_freep) struct groth16_keys *keys = NULL;
        _cleanup_(wire_density_freep) struct wire_density *a_density = NULL, *b_density = NULL;
        _cleanup_(groth16_packed_arrays_free) struct groth16_packed_arrays arrays = {0};
        struct synthetic_params params = {
                .seed = 5, .n_rows = 2048 - 16, .n_aux = SYNTHETIC_DEFAULT, .n_public = 4};
        struct groth16_pk packed;
        fr_t *a[PARTS], *b[PARTS], *c[PARTS];
        char dir[] = "/tmp/test-prover-backend-XXXXXX", pce_path[64], params_path[64];

        assert_non_null(mkdtemp(dir));
        snprintf(pce_path, sizeof(pce_path), "%s/c.pce", dir);
        synthetic_circuit(&params, "backend", &pce, &w, &keys);

        evaluate_pce(pce, w, a, b, c);
        prove_several(backend, &keys->pk, &keys->vk, w, a, b, c);
        assert_int_equal(pce_save(pce, pce_path), 0);
        prove_compact(backend, &keys->pk, &keys->vk, pce_path, w);
        prove_adopted(backend, &keys->pk, &keys->vk, pce, pce_path, w);

        assert_int_equal(pce_wire_density(pce, PCE_A, &a_density), 0);
        assert_int_equal(pce_wire_density(pce, PCE_B, &b_density), 0);
        assert_true(b_density->count < pce->n_cols / 2);
        assert_int_equal(groth16_pk_pack(&keys->pk, a_density, b_density, &arrays, &packed), 0);
        evaluate_pce(pce, w, a, b, c);
        prove_several(backend, &packed, &keys->vk, w, a, b, c);
        prove_compact(backend, &packed, &keys->vk, pce_path, w);
        prove_adopted(backend, &packed, &keys->vk, pce, pce_path, w);
        snprintf(params_path, sizeof(params_path), "%s/k.params", dir);
        assert_int_equal(bellperson_params_save(params_path, &packed, &keys->vk), 0);
        prove_streamed(backend, params_path, &keys->vk, pce, pce_path, w);
        unlink(params_path);
        unlink(pce_path);
        rmdir(dir);
}

static void prove_twice_and_verify(struct prover_backend *backend) {
        prove_snarkjs(backend);
        prove_synthetic(backend);
}

static void test_gpu_asked(void **state) {
        struct prover_backend *backend = NULL;
        (void)state;

        last_info[0] = 0;
        log_set_sink(capture_sink, NULL);
        assert_int_equal(prover_backend_new(PROVER_DEVICE_AUTO, 0, NULL, &backend), 0);
        log_set_sink(NULL, NULL);
#if HAVE_CUDA
        if (gpu_device_count() > 0) {
                assert_string_equal(backend->ops->name, "cuda");
        } else {
                /* The fallback: the CPU, and the log says why. */
                assert_string_equal(backend->ops->name, "cpu");
                assert_non_null(strstr(last_info, "No usable CUDA device"));
        }
#else
        assert_string_equal(backend->ops->name, "cpu");
        assert_non_null(strstr(last_info, "no CUDA backend"));
#endif
        prove_twice_and_verify(backend);
        backend->ops->free(backend);
}

static void test_gpu_not_asked(void **state) {
        struct prover_backend *backend = NULL;
        struct prover_device_info info;
        (void)state;

        assert_int_equal(prover_backend_new(PROVER_DEVICE_CPU, 0, NULL, &backend), 0);
        assert_string_equal(backend->ops->name, "cpu");
        prover_backend_device_info(backend, &info);
        assert_int_equal(info.ordinal, -1);
        assert_string_equal(info.name, "cpu");
        assert_int_equal(info.memory_total_bytes, 0);
        prove_twice_and_verify(backend);
        backend->ops->free(backend);
}

/* A GPU named by its ordinal is that GPU or an error, never the CPU in its place. */
static void test_gpu_ordinal(void **state) {
        struct prover_backend *backend = NULL;
        struct prover_device_info info;
        (void)state;

#if HAVE_CUDA
        int count = gpu_device_count();

        assert_int_equal(prover_backend_new(count > 0 ? count : 0, 0, NULL, &backend),
                         count > 0 ? -EINVAL : -ENODEV);
        assert_null(backend);
        if (count <= 0)
                return;
        assert_int_equal(prover_backend_new(count - 1, 0, NULL, &backend), 0);
        assert_string_equal(backend->ops->name, "cuda");
        prover_backend_device_info(backend, &info);
        assert_int_equal(info.ordinal, count - 1);
        assert_true(info.name[0] != 0);
        assert_true(info.memory_total_bytes > 0);
        assert_true(info.memory_free_bytes > 0 &&
                    info.memory_free_bytes <= info.memory_total_bytes);
        backend->ops->free(backend);
#else
        (void)info;
        assert_int_equal(prover_backend_new(0, 0, NULL, &backend), -EOPNOTSUPP);
        assert_null(backend);
#endif
}

#if HAVE_CUDA
/* What the GPU prover said it opened with ("up to N partitions in flight"). */
static char gpu_opened[512];

static void capture_gpu_opened(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        if (strstr(message, "partitions in flight"))
                snprintf(gpu_opened, sizeof(gpu_opened), "%s", message);
}

/* One lane (Lanes=1): every start after the first collects the partition
 * before it; the proofs still verify. A tuning out of range is refused
 * (-EINVAL), not proved with. Needs a GPU. */
static void test_gpu_one_lane(void **state) {
        struct prover_backend *backend = NULL;
        struct gpu_tuning tuning;
        (void)state;

        if (gpu_device_count() <= 0) {
                skip();
                return;
        }
        gpu_tuning_defaults(&tuning);
        tuning.lanes = GPU_LANES_MAX + 1;
        assert_int_equal(prover_backend_new(0, 0, &tuning, &backend), -EINVAL);
        assert_null(backend);
        tuning.lanes = 1;
        gpu_opened[0] = 0;
        log_set_sink(capture_gpu_opened, NULL);
        assert_int_equal(prover_backend_new(0, 0, &tuning, &backend), 0);
        log_set_sink(NULL, NULL);
        assert_string_equal(backend->ops->name, "cuda");
        assert_non_null(strstr(gpu_opened, "up to 1 partitions in flight"));
        prove_twice_and_verify(backend);
        backend->ops->free(backend);
}

/* Where the B_G2 tail goes: each place once, then whichever finishes
 * first (CPU: max(stage, tail) because they overlap; GPU: stage + tail). */
static void test_g2_placement(void **state) {
        (void)state;
        assert_false(gpu_g2_choose_gpu(GPU_G2_CPU, 1, 100, 1, 1 << 20, 1 << 20));
        assert_true(gpu_g2_choose_gpu(GPU_G2_GPU, 1, 1, 100, 1 << 20, 1 << 20));
        /* nothing measured: CPU first, then the GPU */
        assert_false(gpu_g2_choose_gpu(GPU_G2_AUTO, 0, 0, 0, 1 << 20, 1 << 20));
        assert_true(gpu_g2_choose_gpu(GPU_G2_AUTO, 10, 50, 0, 1 << 20, 1 << 20));
        /* CPU tail hidden behind the GPU stage: stay on the CPU */
        assert_false(gpu_g2_choose_gpu(GPU_G2_AUTO, 100, 50, 5, 1 << 20, 1 << 20));
        /* CPU tail far longer than stage + GPU tail: the GPU */
        assert_true(gpu_g2_choose_gpu(GPU_G2_AUTO, 10, 500, 20, 1 << 20, 1 << 20));
        /* equal finish times: keep the GPU free (CPU) */
        assert_false(gpu_g2_choose_gpu(GPU_G2_AUTO, 10, 20, 10, 1 << 20, 1 << 20));
}
#endif

/* The prover's key cache frees the host copy of a .params key's bases once a backend
 * holds them (prover_keys_release_bases): the bytes held drop by exactly the G1 and B_G2
 * arrays, to none, and a second release frees nothing. */
static void test_keys_release_bases(void **state) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        _cleanup_(groth16_keys_freep) struct groth16_keys *keys = NULL;
        struct synthetic_params params = {
                .seed = 6, .n_rows = 1024 - 16, .n_aux = SYNTHETIC_DEFAULT, .n_public = 2};
        struct prover_keys *cache = NULL;
        const struct groth16_pk *pk;
        char dir[] = "/tmp/test-prover-keys-XXXXXX", path[64];
        uint64_t load_usec, before, g1;
        (void)state;

        assert_non_null(mkdtemp(dir));
        snprintf(path, sizeof(path), "%s/k.params", dir);
        synthetic_circuit(&params, "keys", &pce, &w, &keys);
        assert_int_equal(bellperson_params_save(path, &keys->pk, &keys->vk), 0);

        assert_int_equal(prover_keys_new(&cache), 0);
        assert_int_equal(
                prover_keys_get(cache, JOB_SYNTHETIC_PCE, path, NULL, NULL, &pk, &load_usec), 0);
        assert_true(load_usec > 0);
        before = prover_keys_bytes(cache);
        g1 = (2 * pk->n_vars + (pk->n_vars - pk->n_public - 1) +
              groth16_h_bases(pk->h_convention, pk->log_domain_size)) *
             sizeof(g1_affine_t);
        assert_int_equal(before, g1 + pk->n_vars * sizeof(g2_affine_t));
        assert_int_equal(prover_keys_release_bases(cache, pk), before);
        assert_null(pk->a);
        assert_null(pk->b1);
        assert_null(pk->l);
        assert_null(pk->h);
        assert_null(pk->b2);
        assert_int_equal(prover_keys_bytes(cache), 0);
        assert_int_equal(prover_keys_release_bases(cache, pk), 0);
        assert_int_equal(prover_keys_forget(cache, JOB_SYNTHETIC_PCE, path), 0);
        assert_int_equal(prover_keys_bytes(cache), 0);
        prover_keys_free(cache);
        unlink(path);
        rmdir(dir);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_gpu_asked),
                cmocka_unit_test(test_gpu_not_asked),
                cmocka_unit_test(test_gpu_ordinal),
#if HAVE_CUDA
                cmocka_unit_test(test_g2_placement),
                cmocka_unit_test(test_gpu_one_lane),
#endif
                cmocka_unit_test(test_keys_release_bases),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
