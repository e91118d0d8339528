/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU prover backend: zk/groth16.h's stages in the split shape. It waits for
 * nothing, so the times it measures are the partition's computation alone (without the
 * prover's mapping and unmapping of a/b/c around prove_start). */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/log.h"
#include "daemon/prover/prover-backend.h"

struct cpu_backend {
        struct prover_backend base;
        unsigned threads;
};

struct prover_partial {
        const struct groth16_pk *pk;
        const fr_t *w;
        struct groth16_msm_results msm; /* b2 filled by prove_finish */
        uint64_t stage_usec;            /* prove_start's H and G1 MSMs */
};

static void cpu_partial_free(struct prover_partial *partial) {
        free(partial);
}

static int cpu_prove_start(struct prover_backend *backend, const struct prover_inputs *in,
                           struct prover_partial **ret) {
        struct cpu_backend *cpu = (struct cpu_backend *)backend;
        struct groth16_msm_results msm = {0};
        struct prover_partial *partial;
        ntt_domain_t *domain = NULL;
        uint64_t t0;
        int r;

        assert(backend);
        assert(in && in->pk);
        if (in->compact)
                return log_error_errno(EOPNOTSUPP,
                                       "%s: a compact witness for the CPU backend, which takes "
                                       "a, b, c from the worker",
                                       in->circuit_path ? in->circuit_path : "(no circuit)");
        assert(in->w && in->a && in->b && in->c);
        assert(in->log_domain_size == in->pk->log_domain_size);
        assert(ret);

        t0 = clock_now_usec();
        r = groth16_domain_new(&domain, in->pk->h_convention, in->log_domain_size);
        if (r < 0)
                return log_error_errno(r, "NTT domain of 2^%u points: %m", in->log_domain_size);
        r = groth16_compute_h(domain, in->pk->h_convention, in->a, in->b, in->c);
        ntt_domain_free(domain);
        if (r < 0)
                return log_error_errno(r, "Computing H on 2^%u points failed: %m",
                                       in->log_domain_size);
        /* H's scalars are in a now. */
        r = groth16_msm_g1(in->pk, in->w, in->a, &msm, cpu->threads);
        if (r < 0)
                return log_error_errno(r, "G1 multi-scalar multiplications failed: %m");

        partial = malloc(sizeof(*partial));
        if (!partial)
                return -ENOMEM;
        *partial = (struct prover_partial){
                .pk = in->pk, .w = in->w, .msm = msm, .stage_usec = clock_now_usec() - t0};
        *ret = partial;
        return 0;
}

static int cpu_prove_finish(struct prover_backend *backend, struct prover_partial *partial,
                            struct groth16_proof *ret, struct prover_timings *ret_timings) {
        struct cpu_backend *cpu = (struct cpu_backend *)backend;
        _cleanup_free_ struct prover_partial *p = partial;
        fr_t r_blind, s_blind;
        uint64_t t0;
        int r;

        assert(backend);
        assert(partial);
        assert(ret);

        t0 = clock_now_usec();
        r = groth16_msm_b_g2(p->pk, p->w, &p->msm.b2, cpu->threads);
        if (r < 0)
                return log_error_errno(r, "The B_G2 multi-scalar multiplication failed: %m");
        if (ret_timings)
                *ret_timings = (struct prover_timings){.stage_measured = true,
                                                       .tail_measured = true,
                                                       .stage_usec = p->stage_usec,
                                                       .tail_usec = clock_now_usec() - t0};
        r = groth16_random_rs(&r_blind, &s_blind);
        if (r < 0)
                return log_error_errno(r, "Drawing r, s failed: %m");
        groth16_assemble(p->pk, &p->msm, &r_blind, &s_blind, ret);
        return 0;
}

static void cpu_free(struct prover_backend *backend) {
        free(backend);
}

static const struct prover_backend_ops cpu_ops = {
        .name = "cpu",
        .prove_start = cpu_prove_start,
        .prove_finish = cpu_prove_finish,
        .partial_free = cpu_partial_free,
        .free = cpu_free,
};

int prover_backend_cpu_new(unsigned threads, struct prover_backend **ret) {
        struct cpu_backend *cpu;

        assert(ret);
        cpu = calloc(1, sizeof(*cpu));
        if (!cpu)
                return -ENOMEM;
        cpu->base.ops = &cpu_ops;
        cpu->threads = threads;
        *ret = &cpu->base;
        return 0;
}
