/* SPDX-License-Identifier: Apache-2.0 */
/* The provers' idle time as cuzk-bench reports it: GetStatus's provers[].idle_usec at the
 * batch's start and at its end. What grew in between is the time the provers waited for
 * work (synthesis, admission) while the daemon had some: the gaps between partitions. */
#include <assert.h>

#include "cuzk-bench.h"

void bench_idle_add_status(struct bench_idle *idle, const Cuzk__V1__GetStatusResponse *s) {
        size_t n;

        assert(idle);
        assert(s);

        n = s->n_provers < BENCH_MAX_PROVERS ? s->n_provers : BENCH_MAX_PROVERS;
        if (idle->samples == 0) {
                idle->n_provers = (unsigned)n;
                for (size_t i = 0; i < n; i++) {
                        idle->index[i] = s->provers[i]->index;
                        idle->start_usec[i] = s->provers[i]->idle_usec;
                }
        }
        /* The provers are fixed while the daemon runs; one restarted may list fewer. */
        if (n < idle->n_provers)
                idle->n_provers = (unsigned)n;
        for (size_t i = 0; i < idle->n_provers; i++)
                idle->end_usec[i] = s->provers[i]->idle_usec;
        idle->samples++;
}

/* Prover i's idle time during the batch: since the first sample, or since the daemon's
 * restart (its counts start again from 0). */
static uint64_t idle_delta_usec(const struct bench_idle *idle, unsigned i) {
        return idle->end_usec[i] >= idle->start_usec[i] ? idle->end_usec[i] - idle->start_usec[i]
                                                        : idle->end_usec[i];
}

void bench_print_idle(FILE *f, const struct bench_idle *idle) {
        uint64_t total = 0;

        assert(f);
        assert(idle);

        /* The reference daemon lists no provers: nothing to say. */
        if (idle->samples < 2 || idle->n_provers == 0) {
                fputs("gpu idle:      not reported\n", f);
                return;
        }
        for (unsigned i = 0; i < idle->n_provers; i++)
                total += idle_delta_usec(idle, i);
        fprintf(f, "gpu idle:      %.1f s between partitions", (double)total / 1e6);
        for (unsigned i = 0; idle->n_provers > 1 && i < idle->n_provers; i++)
                fprintf(f, "%sprover %u: %.1f s", i ? ", " : " (", idle->index[i],
                        (double)idle_delta_usec(idle, i) / 1e6);
        fputs(idle->n_provers > 1 ? ")\n" : "\n", f);
}
