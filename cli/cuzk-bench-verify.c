/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk-bench --verify: each proof the daemon returns is checked here, on
 * the CPU, against the job's own verifying key (from the .zkey, or from the
 * head of the bellperson .params) and the public inputs of the witness that
 * was sent, so that a daemon that proved another witness, or returned
 * public signals that are not the witness's, fails too.
 */
#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "cuzk-bench.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "zk/groth16.h"

struct bench_verifier {
        Cuzk__V1__ProofKind kind;
        unsigned partitions;
        struct groth16_vk *snarkjs_vk;   /* GROTH16_SNARKJS */
        struct bellperson_vk *params_vk; /* SYNTHETIC_PCE */
        const struct groth16_vk *vk;     /* the one of the two in use */
        fr_t *public_inputs;             /* vk->n_public, from the witness */
};

struct bench_verifier *bench_verifier_free(struct bench_verifier *v) {
        if (!v)
                return NULL;
        snarkjs_vk_free(v->snarkjs_vk);
        bellperson_vk_free(v->params_vk);
        free(v->public_inputs);
        free(v);
        return NULL;
}

/* The witness's wires 1..n_public: what the proof must be for. */
static int load_public_inputs(const char *option, const char *path, uint32_t n_public, fr_t **ret) {
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        fr_t *inputs;
        int r;

        r = wtns_load(path, &w);
        if (r < 0)
                return r;
        if (w->n_values < n_public + 1u)
                return log_error_errno(EINVAL,
                                       "--%s=%s: %u values, the verifying key expects at least %u",
                                       option, path, w->n_values, n_public + 1u);
        inputs = calloc(n_public + 1u, sizeof(*inputs)); /* +1: n_public may be 0 */
        if (!inputs)
                return -ENOMEM;
        memcpy(inputs, w->values + 1, n_public * sizeof(*inputs));
        *ret = inputs;
        return 0;
}

static int load_params_vk(const char *path, struct bellperson_vk **ret) {
        struct bellperson_map map;
        uint64_t length;
        int r;

        r = bellperson_map_file(path, &map);
        if (r < 0)
                return r;
        /* Only the verifying key at the head of the file: the rest (the
         * SRS proper) stays unread. */
        r = bellperson_vk_parse(map.data, map.size, path, &length, ret);
        bellperson_unmap_file(&map);
        if (r < 0)
                return r;
        if ((*ret)->timing_only) {
                *ret = bellperson_vk_free(*ret);
                return log_error_errno(EINVAL, "--params=%s: %s", path,
                                       BELLPERSON_TIMING_ONLY_REFUSAL);
        }
        return 0;
}

int bench_verifier_new(const struct bench_options *o, struct bench_verifier **ret) {
        _cleanup_(bench_verifier_freep) struct bench_verifier *v = NULL;
        int r;

        assert(o);
        assert(ret);

        v = calloc(1, sizeof(*v));
        if (!v)
                return -ENOMEM;
        v->kind = o->kind;
        v->partitions = o->partitions;
        if (o->kind == CUZK__V1__PROOF_KIND__GROTH16_SNARKJS) {
                _cleanup_(zkey_freep) struct zkey *zk = NULL;

                r = zkey_load(o->zkey_path, &zk);
                if (r < 0)
                        // cppcheck-suppress memleak ; freed by _cleanup_
                        return r;
                r = snarkjs_vk_from_zkey(zk, &v->snarkjs_vk);
                if (r < 0)
                        return r;
                v->vk = v->snarkjs_vk;
                r = load_public_inputs("wtns", o->wtns_path, v->vk->n_public, &v->public_inputs);
        } else if (o->kind == CUZK__V1__PROOF_KIND__SYNTHETIC_PCE) {
                r = load_params_vk(o->params_path, &v->params_vk);
                if (r < 0)
                        return r;
                v->vk = &v->params_vk->vk;
                r = load_public_inputs("witness", o->witness_path, v->vk->n_public,
                                       &v->public_inputs);
        } else
                r = log_error_errno(EOPNOTSUPP, "--verify: --type=%s cannot be verified here",
                                    o->type_name);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(v);
        return 0;
}

/* proof_json and public_json as snarkjs writes them. */
static int check_snarkjs(const struct bench_verifier *v, const Cuzk__V1__AwaitProofResponse *result,
                         char *reason, size_t reason_size) {
        json_auto_t *proof_root = NULL, *public_root = NULL;
        _cleanup_free_ fr_t *signals = NULL;
        struct groth16_proof proof;
        size_t n_signals;
        int r;

        if (!result->proof_json || !result->proof_json[0] || !result->public_json ||
            !result->public_json[0]) {
                snprintf(reason, reason_size, "no proof_json/public_json in the answer");
                return 0;
        }
        proof_root = json_loads(result->proof_json, 0, NULL);
        public_root = json_loads(result->public_json, 0, NULL);
        if (!proof_root || snarkjs_proof_from_json(proof_root, result->job_id, &proof) < 0) {
                snprintf(reason, reason_size, "proof_json is not a snarkjs Groth16 proof");
                return 0;
        }
        if (!public_root ||
            snarkjs_public_from_json(public_root, result->job_id, &signals, &n_signals) < 0) {
                snprintf(reason, reason_size, "public_json is not a list of public signals");
                return 0;
        }
        if (n_signals != v->vk->n_public) {
                snprintf(reason, reason_size, "%zu public signals, the key expects %u", n_signals,
                         v->vk->n_public);
                return 0;
        }
        for (size_t i = 0; i < n_signals; i++)
                if (!fr_equal(&signals[i], &v->public_inputs[i])) {
                        snprintf(reason, reason_size,
                                 "public signal %zu is not the witness's wire %zu", i, i + 1);
                        return 0;
                }
        r = groth16_verify(v->vk, v->public_inputs, &proof);
        if (r == 0)
                snprintf(reason, reason_size, "the proof does not verify");
        return r;
}

/* The 192-byte proofs of the partitions, in order. */
static int check_filecoin(const struct bench_verifier *v,
                          const Cuzk__V1__AwaitProofResponse *result, char *reason,
                          size_t reason_size) {
        _cleanup_free_ struct groth16_proof *proofs = NULL;
        size_t n_proofs;
        unsigned invalid = 0, first_invalid = 0;
        int r;

        if (result->proof.len != (size_t)v->partitions * FILECOIN_PROOF_BYTES) {
                snprintf(reason, reason_size, "%zu proof bytes, expected %u partitions of %d",
                         result->proof.len, v->partitions, FILECOIN_PROOF_BYTES);
                return 0;
        }
        if (filecoin_proofs_decode(result->proof.data, result->proof.len, result->job_id, &proofs,
                                   &n_proofs) < 0) {
                snprintf(reason, reason_size, "the proof bytes do not decode");
                return 0;
        }
        for (size_t i = 0; i < n_proofs; i++) {
                r = groth16_verify(v->vk, v->public_inputs, &proofs[i]);
                if (r < 0)
                        return r;
                if (r == 0 && invalid++ == 0)
                        first_invalid = (unsigned)i;
        }
        if (invalid > 0) {
                snprintf(reason, reason_size,
                         "%u of %zu partition proofs do not verify (first: %u)", invalid, n_proofs,
                         first_invalid);
                return 0;
        }
        return 1;
}

int bench_verifier_check(const struct bench_verifier *v, const Cuzk__V1__AwaitProofResponse *result,
                         char *reason, size_t reason_size) {
        assert(v);
        assert(result);
        assert(reason);
        assert(reason_size > 0);

        reason[0] = 0;
        if (v->kind == CUZK__V1__PROOF_KIND__GROTH16_SNARKJS)
                return check_snarkjs(v, result, reason, reason_size);
        return check_filecoin(v, result, reason, reason_size);
}
