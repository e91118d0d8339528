/* SPDX-License-Identifier: Apache-2.0 */
/* proof.json and public.json: see snarkjs-json.h. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "json-values.h"
#include "snarkjs-json.h"

int snarkjs_proof_from_json(const json_t *root, const char *origin, struct groth16_proof *ret) {
        const json_t *a, *b, *c;
        struct groth16_proof proof;
        int k;

        assert(root);
        assert(origin);
        assert(ret);

        if ((k = json_read_expect_string(root, origin, "protocol", "groth16")) < 0 ||
            (k = json_read_expect_string(root, origin, "curve", "bls12381")) < 0)
                return k;
        if (!(a = json_read_member(root, origin, "pi_a")) ||
            !(b = json_read_member(root, origin, "pi_b")) ||
            !(c = json_read_member(root, origin, "pi_c")))
                return -EBADMSG;
        if ((k = json_read_g1(a, origin, "pi_a", &proof.a)) < 0 ||
            (k = json_read_g2(b, origin, "pi_b", &proof.b)) < 0 ||
            (k = json_read_g1(c, origin, "pi_c", &proof.c)) < 0)
                return k;
        *ret = proof;
        return 0;
}

json_t *snarkjs_proof_to_json(const struct groth16_proof *proof) {
        assert(proof);
        /* snarkjs's key order. */
        return json_pack("{s:o, s:o, s:o, s:s, s:s}", "pi_a", json_from_g1(&proof->a), "pi_b",
                         json_from_g2(&proof->b), "pi_c", json_from_g1(&proof->c), "protocol",
                         "groth16", "curve", "bls12381");
}

int snarkjs_proof_load(const char *path, struct groth16_proof *ret) {
        json_auto_t *root = NULL;
        int k;

        k = json_load_path(path, &root);
        if (k < 0)
                return k;
        return snarkjs_proof_from_json(root, path, ret);
}

int snarkjs_proof_save(const char *path, const struct groth16_proof *proof) {
        json_auto_t *root = snarkjs_proof_to_json(proof);

        if (!root)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        return json_save_path(path, root);
}

int snarkjs_public_from_json(const json_t *root, const char *origin, fr_t **ret, size_t *ret_n) {
        _cleanup_free_ fr_t *signals = NULL;
        size_t n;
        int k;

        assert(root);
        assert(origin);
        assert(ret);
        assert(ret_n);

        if (!json_is_array(root))
                return log_error_errno(EBADMSG, "%s: not a JSON array, expected the public signals",
                                       origin);
        n = json_array_size(root);
        signals = malloc((n ? n : 1) * sizeof(*signals));
        if (!signals)
                return log_error_errno(ENOMEM, "%s: out of memory for %zu signals", origin, n);
        for (size_t i = 0; i < n; i++) {
                char what[32];
                snprintf(what, sizeof(what), "signal %zu", i);
                k = json_read_fr(json_array_get(root, i), origin, what, &signals[i]);
                if (k < 0)
                        return k;
        }
        *ret = TAKE_PTR(signals);
        *ret_n = n;
        return 0;
}

json_t *snarkjs_public_to_json(const fr_t *signals, size_t n) {
        json_auto_t *array = json_array();

        assert(signals || n == 0);
        if (!array)
                return NULL;
        for (size_t i = 0; i < n; i++)
                if (json_array_append_new(array, json_from_fr(&signals[i])) < 0)
                        return NULL;
        return TAKE_PTR(array);
}

int snarkjs_public_load(const char *path, fr_t **ret, size_t *ret_n) {
        json_auto_t *root = NULL;
        int k;

        k = json_load_path(path, &root);
        if (k < 0)
                return k;
        return snarkjs_public_from_json(root, path, ret, ret_n);
}

int snarkjs_public_save(const char *path, const fr_t *signals, size_t n) {
        json_auto_t *root = snarkjs_public_to_json(signals, n);

        if (!root)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        return json_save_path(path, root);
}
