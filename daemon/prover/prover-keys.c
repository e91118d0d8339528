/* SPDX-License-Identifier: Apache-2.0 */
/* The prover's key cache (see prover-keys.h). */
#include "prover-keys.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "common/clock.h"
#include "common/cleanup.h"
#include "circuits/pce-file.h"
#include "circuits/pce-setup.h"
#include "common/log.h"
#include "formats/bellperson_params.h"
#include "formats/zkey.h"

struct key_entry {
        char *path;
        enum job_kind kind;
        struct zkey *zkey;                /* JOB_GROTH16_SNARKJS */
        struct bellperson_params *params; /* JOB_SYNTHETIC_PCE */
        /* The circuit's, when params holds only the points of A's and B's
         * wires (bellperson's layout). */
        struct wire_density *a_density, *b_density;
        struct groth16_pk pk;
        uint64_t bytes;
        struct key_entry *next;
};

struct prover_keys {
        struct key_entry *entries;
        uint64_t bytes;
        bool mlock_refused; /* said once */
};

int prover_keys_new(struct prover_keys **ret) {
        assert(ret);
        *ret = calloc(1, sizeof(struct prover_keys));
        return *ret ? 0 : -ENOMEM;
}

static void entry_free(struct key_entry *e) {
        if (!e)
                return;
        zkey_free(e->zkey);
        bellperson_params_free(e->params);
        wire_density_free(e->a_density);
        wire_density_free(e->b_density);
        free(e->path);
        free(e);
}

void prover_keys_free(struct prover_keys *keys) {
        if (!keys)
                return;
        while (keys->entries) {
                struct key_entry *e = keys->entries;
                keys->entries = e->next;
                entry_free(e);
        }
        free(keys);
}

/* Locks one array of the key in memory; the first refusal is logged. */
static void lock_array(struct prover_keys *keys, const char *path, const void *p, size_t bytes) {
        if (!p || bytes == 0 || mlock(p, bytes) == 0)
                return;
        if (!keys->mlock_refused)
                log_warning_errno(errno,
                                  "%s: mlock of the proving key failed (%m); it stays pageable "
                                  "(raise LimitMEMLOCK to lock keys)",
                                  path);
        keys->mlock_refused = true;
}

/* The key's point arrays: the G1 bases (A, B_G1, L, H), then B_G2. */
enum { KEY_ARRAYS = 5 }; /* A, B_G1, L, H, B_G2 */
struct key_array {
        const void *p;
        size_t bytes;
};

static void key_arrays(const struct groth16_pk *pk, struct key_array ret[KEY_ARRAYS]) {
        const size_t n_private = pk->n_vars - pk->n_public - 1;
        const size_t n_h = groth16_h_bases(pk->h_convention, pk->log_domain_size);

        ret[0] = (struct key_array){pk->a, groth16_pk_a_points(pk) * sizeof(g1_affine_t)};
        ret[1] = (struct key_array){pk->b1, groth16_pk_b_points(pk) * sizeof(g1_affine_t)};
        ret[2] = (struct key_array){pk->l, n_private * sizeof(g1_affine_t)};
        ret[3] = (struct key_array){pk->h, n_h * sizeof(g1_affine_t)};
        ret[4] = (struct key_array){pk->b2, groth16_pk_b_points(pk) * sizeof(g2_affine_t)};
        /* Arrays a sink took to the GPU (bellperson_params_load_sink) are not in host memory. */
        for (size_t i = 0; i < KEY_ARRAYS; i++)
                if (!ret[i].p)
                        ret[i].bytes = 0;
}

/* Counts and locks the key's point arrays. */
static uint64_t lock_key(struct prover_keys *keys, const char *path, const struct groth16_pk *pk) {
        struct key_array arrays[KEY_ARRAYS];
        uint64_t total = 0;

        key_arrays(pk, arrays);
        for (size_t i = 0; i < KEY_ARRAYS; i++) {
                lock_array(keys, path, arrays[i].p, arrays[i].bytes);
                total += arrays[i].bytes;
        }
        return total;
}

/* The densities a bellperson file with fewer points than wires needs, from
 * the circuit the task names (loaded for this and let go). */
static int load_densities(const char *path, const char *circuit_path, struct key_entry *e) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        int r;

        if (bellperson_params_point_per_wire(e->params))
                return 0;
        if (!circuit_path)
                return log_error_errno(EOPNOTSUPP,
                                       "%s: a and b hold the points of the circuit's A and B "
                                       "wires only, and no circuit was named to give their "
                                       "densities",
                                       path);
        r = pce_load(circuit_path, &pce);
        if (r < 0)
                return r;
        r = pce_params_densities(pce, e->params, &e->a_density, &e->b_density);
        if (r == -EINVAL)
                return log_error_errno(
                        r, "%s: %" PRIu64 " wires; %s has %" PRIu32 " wires: not its key", path,
                        bellperson_params_wires(e->params), circuit_path, pce->n_cols);
        if (r < 0)
                return log_error_errno(r, "%s: densities: %m", circuit_path);
        return 0;
}

static int load_entry(enum job_kind kind, const char *path, const char *circuit_path,
                      const struct bellperson_g1_sink *sink, struct key_entry *e) {
        int r;

        switch (kind) {
        case JOB_GROTH16_SNARKJS:
                r = zkey_load(path, &e->zkey);
                if (r < 0)
                        return r;
                zkey_to_groth16_pk(e->zkey, &e->pk);
                return 0;
        case JOB_SYNTHETIC_PCE:
        case JOB_POREP_C2:
                /* Keys come from the operator's own setup: the subgroup checks would
                 * double the load time (as cuzk prove --pce). */
                r = bellperson_params_load_sink(path, false, sink, &e->params);
                if (r < 0)
                        return r;
                if (e->params->timing_only)
                        log_warning("%s is a timing-only SRS: its proofs will not verify", path);
                r = load_densities(path, circuit_path, e);
                if (r < 0)
                        return r;
                return bellperson_params_to_pk(e->params, e->a_density, e->b_density, &e->pk);
        }
        return log_error_errno(EINVAL, "%s: unknown job kind %d", path, (int)kind);
}

int prover_keys_get(struct prover_keys *keys, enum job_kind kind, const char *path,
                    const char *circuit_path, const struct bellperson_g1_sink *sink,
                    const struct groth16_pk **ret, uint64_t *ret_loaded_usec) {
        struct key_entry *e;
        uint64_t t0;
        int r;

        assert(keys);
        assert(path);
        assert(ret);
        assert(ret_loaded_usec);

        kind = job_kind_key(kind);
        *ret = prover_keys_find(keys, kind, path);
        if (*ret) {
                *ret_loaded_usec = 0;
                return 0;
        }

        t0 = clock_now_usec();
        e = calloc(1, sizeof(*e));
        if (!e)
                return -ENOMEM;
        e->kind = kind;
        e->path = strdup(path);
        if (!e->path) {
                entry_free(e);
                return -ENOMEM;
        }
        r = load_entry(kind, path, circuit_path, sink, e);
        if (r < 0) {
                entry_free(e);
                return r;
        }
        e->bytes = lock_key(keys, path, &e->pk);
        keys->bytes += e->bytes;
        e->next = keys->entries;
        keys->entries = e;
        *ret = &e->pk;
        *ret_loaded_usec = clock_now_usec() - t0;
        log_info("%s: proving key loaded (%llu bytes of points, 2^%u domain) in %.3f s", path,
                 (unsigned long long)e->bytes, e->pk.log_domain_size,
                 (double)*ret_loaded_usec / 1e6);
        return 0;
}

const struct groth16_pk *prover_keys_find(const struct prover_keys *keys, enum job_kind kind,
                                          const char *path) {
        assert(keys);
        assert(path);
        kind = job_kind_key(kind);
        for (struct key_entry *e = keys->entries; e; e = e->next)
                if (e->kind == kind && strcmp(e->path, path) == 0)
                        return &e->pk;
        return NULL;
}

int prover_keys_forget(struct prover_keys *keys, enum job_kind kind, const char *path) {
        struct key_entry *prev = NULL, *e;

        assert(keys);
        assert(path);
        kind = job_kind_key(kind);
        for (e = keys->entries; e; prev = e, e = e->next)
                if (e->kind == kind && strcmp(e->path, path) == 0)
                        break;
        if (!e)
                return -ENOENT;
        if (prev)
                prev->next = e->next;
        else
                keys->entries = e->next;
        keys->bytes -= e->bytes;
        log_info("%s: proving key dropped (%llu bytes of points)", path,
                 (unsigned long long)e->bytes);
        entry_free(e);
        return 0;
}

uint64_t prover_keys_release_bases(struct prover_keys *keys, const struct groth16_pk *pk) {
        struct key_array arrays[KEY_ARRAYS];
        struct key_entry *e;
        uint64_t bytes = 0;

        assert(keys && pk);
        for (e = keys->entries; e && &e->pk != pk; e = e->next)
                ;
        if (!e || !e->params)
                return 0;
        key_arrays(&e->pk, arrays);
        for (size_t i = 0; i < KEY_ARRAYS; i++)
                bytes += arrays[i].bytes;
        if (!bytes)
                return 0;
        /* The pk's arrays are the params' (bellperson_params_to_pk); a sink may have taken
         * the G1 ones already. */
        free(TAKE_PTR(e->params->a));
        free(TAKE_PTR(e->params->b_g1));
        free(TAKE_PTR(e->params->l));
        free(TAKE_PTR(e->params->h));
        free(TAKE_PTR(e->params->b_g2));
        e->pk.a = e->pk.b1 = e->pk.l = e->pk.h = NULL;
        e->pk.b2 = NULL;
        e->bytes -= bytes;
        keys->bytes -= bytes;
        log_info("%s: the host copy of the bases freed (%.1f GiB): they are on the GPU", e->path,
                 (double)bytes / (1u << 30));
        return bytes;
}

uint64_t prover_keys_bytes(const struct prover_keys *keys) {
        assert(keys);
        return keys->bytes;
}

/* A density's bitmap and rank. */
static uint64_t density_bytes(const struct wire_density *d) {
        return d ? wire_density_bytes(d->n_wires) : 0;
}

uint64_t prover_keys_pk_bytes(const struct prover_keys *keys, const struct groth16_pk *pk) {
        assert(keys);
        for (const struct key_entry *e = keys->entries; e; e = e->next) {
                uint64_t bytes;

                if (&e->pk != pk)
                        continue;
                bytes = e->bytes + density_bytes(e->a_density) + density_bytes(e->b_density);
                /* A .zkey stays loaded whole: its coefficients and IC besides the points. */
                if (e->zkey)
                        bytes += (uint64_t)e->zkey->n_coefs * sizeof(*e->zkey->coefs) +
                                 ((uint64_t)e->zkey->n_public + 1) * sizeof(g1_affine_t);
                return bytes;
        }
        return 0;
}
