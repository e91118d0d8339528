/* SPDX-License-Identifier: Apache-2.0 */
/* vk.json: see snarkjs-json.h. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "json-values.h"
#include "snarkjs-json.h"
#include "zk/pairing.h"
#include "zkey.h"

struct groth16_vk *snarkjs_vk_free(struct groth16_vk *vk) {
        if (!vk)
                return NULL;
        free(vk->ic);
        free(vk);
        return NULL;
}

static struct groth16_vk *snarkjs_vk_new(uint32_t n_public) {
        _cleanup_free_ g1_affine_t *ic = malloc(((size_t)n_public + 1) * sizeof(*ic));
        struct groth16_vk *vk = calloc(1, sizeof(*vk));

        if (!ic || !vk) {
                free(vk);
                return NULL;
        }
        vk->n_public = n_public;
        vk->ic = TAKE_PTR(ic);
        return vk;
}

/* The Fp2 coefficient (i, j) of an Fp12 element: c_i of Fp12, then c_j of Fp6. */
static const fp2_t *fp12_coeff(const fp12_t *a, size_t i, size_t j) {
        const fp6_t *c = i == 0 ? &a->c0 : &a->c1;
        return j == 0 ? &c->c0 : j == 1 ? &c->c1 : &c->c2;
}

static void vk_set_alphabeta(struct groth16_vk *vk, const fp12_t *e) {
        for (size_t i = 0; i < 2; i++)
                for (size_t j = 0; j < 3; j++) {
                        vk->alphabeta[i][j][0] = fp12_coeff(e, i, j)->c0;
                        vk->alphabeta[i][j][1] = fp12_coeff(e, i, j)->c1;
                }
        vk->has_alphabeta = true;
}

static bool vk_alphabeta_equal(const struct groth16_vk *vk, const fp12_t *e) {
        for (size_t i = 0; i < 2; i++)
                for (size_t j = 0; j < 3; j++)
                        if (!fp_equal(&vk->alphabeta[i][j][0], &fp12_coeff(e, i, j)->c0) ||
                            !fp_equal(&vk->alphabeta[i][j][1], &fp12_coeff(e, i, j)->c1))
                                return false;
        return true;
}

/* snarkjs nests Fp12 as [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each an Fp2 [x, y]. */
static int vk_read_alphabeta(struct groth16_vk *vk, const json_t *v, const char *origin) {
        fp12_t expected;
        char what[64];
        int k;

        if (!json_is_array(v) || json_array_size(v) != 2)
                return log_error_errno(EBADMSG, "%s: vk_alphabeta_12 is not an array of 2 elements",
                                       origin);
        for (size_t i = 0; i < 2; i++) {
                const json_t *fp6 = json_array_get(v, i);
                if (!json_is_array(fp6) || json_array_size(fp6) != 3)
                        return log_error_errno(
                                EBADMSG, "%s: vk_alphabeta_12[%zu] is not an array of 3 elements",
                                origin, i);
                for (size_t j = 0; j < 3; j++) {
                        fp2_t c;
                        snprintf(what, sizeof(what), "vk_alphabeta_12[%zu][%zu]", i, j);
                        k = json_read_fp2(json_array_get(fp6, j), origin, what, &c);
                        if (k < 0)
                                return k;
                        vk->alphabeta[i][j][0] = c.c0;
                        vk->alphabeta[i][j][1] = c.c1;
                }
        }
        vk->has_alphabeta = true;

        pairing(&expected, &vk->alpha1, &vk->beta2);
        if (!vk_alphabeta_equal(vk, &expected))
                return log_error_errno(
                        EBADMSG, "%s: vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)", origin);
        return 0;
}

static json_t *vk_alphabeta_to_json(const struct groth16_vk *vk) {
        json_auto_t *fp12 = json_array();

        if (!fp12)
                return NULL;
        for (size_t i = 0; i < 2; i++) {
                json_t *fp6 = json_array();
                if (!fp6 || json_array_append_new(fp12, fp6) < 0)
                        return NULL;
                for (size_t j = 0; j < 3; j++) {
                        fp2_t c = {.c0 = vk->alphabeta[i][j][0], .c1 = vk->alphabeta[i][j][1]};
                        if (json_array_append_new(fp6, json_from_fp2(&c)) < 0)
                                return NULL;
                }
        }
        return TAKE_PTR(fp12);
}

static int vk_read_n_public(const json_t *root, const char *origin, uint32_t *ret) {
        const json_t *v = json_read_member(root, origin, "nPublic");

        if (!v)
                return -EBADMSG;
        /* IC has nPublic + 1 entries, so nPublic + 1 must fit in a u32 too. */
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= (json_int_t)UINT32_MAX)
                return log_error_errno(EBADMSG, "%s: nPublic is not an integer in [0, 2^32 - 1)",
                                       origin);
        *ret = (uint32_t)json_integer_value(v);
        return 0;
}

static int vk_read_points(struct groth16_vk *vk, const json_t *root, const char *origin) {
        const json_t *alpha1, *beta2, *gamma2, *delta2, *ic;
        int k;

        if (!(alpha1 = json_read_member(root, origin, "vk_alpha_1")) ||
            !(beta2 = json_read_member(root, origin, "vk_beta_2")) ||
            !(gamma2 = json_read_member(root, origin, "vk_gamma_2")) ||
            !(delta2 = json_read_member(root, origin, "vk_delta_2")) ||
            !(ic = json_read_member(root, origin, "IC")))
                return -EBADMSG;
        if ((k = json_read_g1(alpha1, origin, "vk_alpha_1", &vk->alpha1)) < 0 ||
            (k = json_read_g2(beta2, origin, "vk_beta_2", &vk->beta2)) < 0 ||
            (k = json_read_g2(gamma2, origin, "vk_gamma_2", &vk->gamma2)) < 0 ||
            (k = json_read_g2(delta2, origin, "vk_delta_2", &vk->delta2)) < 0)
                return k;

        if (!json_is_array(ic) || json_array_size(ic) != (size_t)vk->n_public + 1)
                return log_error_errno(EBADMSG,
                                       "%s: IC is not an array of nPublic + 1 = %" PRIu64 " points",
                                       origin, (uint64_t)vk->n_public + 1);
        for (size_t i = 0; i <= vk->n_public; i++) {
                char what[32];
                snprintf(what, sizeof(what), "IC[%zu]", i);
                k = json_read_g1(json_array_get(ic, i), origin, what, &vk->ic[i]);
                if (k < 0)
                        return k;
        }
        return 0;
}

int snarkjs_vk_from_json(const json_t *root, const char *origin, struct groth16_vk **ret) {
        _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
        const json_t *alphabeta;
        uint32_t n_public = 0;
        int k;

        assert(root);
        assert(origin);
        assert(ret);

        if ((k = json_read_expect_string(root, origin, "protocol", "groth16")) < 0 ||
            (k = json_read_expect_string(root, origin, "curve", "bls12381")) < 0 ||
            (k = vk_read_n_public(root, origin, &n_public)) < 0)
                return k;
        vk = snarkjs_vk_new(n_public);
        if (!vk)
                return log_error_errno(ENOMEM, "%s: out of memory", origin);
        k = vk_read_points(vk, root, origin);
        if (k < 0)
                return k;
        alphabeta = json_object_get(root, "vk_alphabeta_12");
        if (alphabeta) {
                k = vk_read_alphabeta(vk, alphabeta, origin);
                if (k < 0)
                        return k;
        }

        *ret = TAKE_PTR(vk);
        return 0;
}

json_t *snarkjs_vk_to_json(const struct groth16_vk *vk) {
        json_auto_t *root = NULL;
        json_t *ic;

        assert(vk);

        /* snarkjs's key order. */
        root = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o}", "protocol", "groth16", "curve",
                         "bls12381", "nPublic", (json_int_t)vk->n_public, "vk_alpha_1",
                         json_from_g1(&vk->alpha1), "vk_beta_2", json_from_g2(&vk->beta2),
                         "vk_gamma_2", json_from_g2(&vk->gamma2), "vk_delta_2",
                         json_from_g2(&vk->delta2));
        if (!root)
                return NULL;
        if (vk->has_alphabeta &&
            json_object_set_new(root, "vk_alphabeta_12", vk_alphabeta_to_json(vk)) < 0)
                return NULL;
        ic = json_array();
        if (!ic || json_object_set_new(root, "IC", ic) < 0)
                return NULL;
        for (size_t i = 0; i <= vk->n_public; i++)
                if (json_array_append_new(ic, json_from_g1(&vk->ic[i])) < 0)
                        return NULL;
        return TAKE_PTR(root);
}

int snarkjs_vk_load(const char *path, struct groth16_vk **ret) {
        json_auto_t *root = NULL;
        int k;

        k = json_load_path(path, &root);
        if (k < 0)
                return k;
        return snarkjs_vk_from_json(root, path, ret);
}

int snarkjs_vk_save(const char *path, const struct groth16_vk *vk) {
        json_auto_t *root = snarkjs_vk_to_json(vk);

        if (!root)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        return json_save_path(path, root);
}

int snarkjs_vk_from_zkey(const struct zkey *zk, struct groth16_vk **ret) {
        struct groth16_vk *vk;
        fp12_t alphabeta;

        assert(zk);
        assert(ret);

        vk = snarkjs_vk_new(zk->n_public);
        if (!vk)
                return log_error_errno(ENOMEM, "out of memory for a verification key");
        vk->alpha1 = zk->alpha1;
        vk->beta2 = zk->beta2;
        vk->gamma2 = zk->gamma2;
        vk->delta2 = zk->delta2;
        memcpy(vk->ic, zk->ic, ((size_t)zk->n_public + 1) * sizeof(*vk->ic));
        pairing(&alphabeta, &vk->alpha1, &vk->beta2);
        vk_set_alphabeta(vk, &alphabeta);
        *ret = vk;
        return 0;
}
