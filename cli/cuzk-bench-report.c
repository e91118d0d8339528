/* SPDX-License-Identifier: Apache-2.0 */
/* What cuzk-bench prints: the batch header, a line per proof and the
 * summary, in the reference's words, and the summary's arithmetic. */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "cuzk-bench.h"

const char *bench_status_label(int status) {
        switch (status) {
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED:
                return "COMPLETED";
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED:
                return "FAILED";
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED:
                return "CANCELLED";
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT:
                return "TIMEOUT";
        default:
                return "UNKNOWN";
        }
}

static void stats_add(struct bench_stats *s, double v, unsigned n_before) {
        if (n_before == 0) {
                *s = (struct bench_stats){.avg = v, .min = v, .max = v};
                return;
        }
        /* avg holds the sum until bench_summarize() divides. */
        s->avg += v;
        if (v < s->min)
                s->min = v;
        if (v > s->max)
                s->max = v;
}

static int compare_double(const void *a, const void *b) {
        const double x = *(const double *)a, y = *(const double *)b;
        return (x > y) - (x < y);
}

/*
 * The steady span runs from the warm-th completed proof's end to the last
 * one's, and the proofs that ended in it count whole. cuzkd serves a job's
 * partitions before a later job's, so proofs end in the order they began
 * and those that end in the span were proven there, but for the partitions
 * of the next one already in flight at its start. (Counting each proof by
 * the share of its wall time in the span undercounts them: each waits
 * behind the one before, then runs; a 32 GiB batch that ran at 12.9 s a
 * proof read 15.5.)
 */
static void summarize_steady(const struct bench_sample *samples, size_t n, unsigned warm,
                             struct bench_summary *s) {
        _cleanup_free_ double *ends = NULL;
        size_t k = 0;

        s->warm = warm;
        if (warm == 0 || s->completed <= warm)
                return;
        ends = malloc(s->completed * sizeof(*ends));
        if (!ends)
                return; /* no steady line rather than a wrong one */
        for (size_t i = 0; i < n; i++)
                if (samples[i].completed)
                        ends[k++] = samples[i].end_seconds;
        qsort(ends, k, sizeof(*ends), compare_double);
        s->steady_proofs = s->completed - warm;
        s->steady_seconds = ends[k - 1] - ends[warm - 1];
}

void bench_summarize(const struct bench_sample *samples, size_t n, double total_seconds,
                     unsigned warm, struct bench_summary *ret) {
        struct bench_summary s = {.jobs = (unsigned)n, .total_seconds = total_seconds};

        assert(samples || n == 0);
        assert(ret);

        for (size_t i = 0; i < n; i++) {
                if (!samples[i].completed) {
                        s.failed++;
                        continue;
                }
                stats_add(&s.wall_seconds, samples[i].wall_seconds, s.completed);
                stats_add(&s.prove_seconds, (double)samples[i].prove_ms / 1000.0, s.completed);
                s.completed++;
        }
        if (s.completed > 0) {
                s.wall_seconds.avg /= s.completed;
                s.prove_seconds.avg /= s.completed;
                /* A batch shorter than the clock's resolution has no rate. */
                if (total_seconds > 0) {
                        s.proofs_per_minute = s.completed / total_seconds * 60.0;
                        s.seconds_per_proof = total_seconds / s.completed;
                }
        }
        summarize_steady(samples, n, warm, &s);
        *ret = s;
}

void bench_print_result_line(FILE *f, unsigned index, unsigned count, const char *label,
                             const struct bench_sample *sample, const char *error) {
        assert(f);
        assert(label);
        assert(sample);

        fprintf(f, "  [%u/%u] %s — %.1fs (prove=%" PRIu64 " ms, queue=%" PRIu64 " ms)", index,
                count, label, sample->wall_seconds, sample->prove_ms, sample->queue_ms);
        if (error && error[0])
                fprintf(f, ": %s", error);
        fputc('\n', f);
}

void bench_print_header(FILE *f, const struct bench_options *o) {
        assert(f);
        assert(o);

        fputs("=== Batch Benchmark ===\n", f);
        fprintf(f, "proof type:  %s\n", o->type_name);
        fprintf(f, "count:       %u\n", o->count);
        fprintf(f, "concurrency: %u\n", o->concurrency);
        if (o->kind == CUZK__V1__PROOF_KIND__SYNTHETIC_PCE)
                fprintf(f, "partitions:  %u\n", o->partitions);
        fputc('\n', f);
}

void bench_print_summary(FILE *f, const struct bench_summary *s) {
        assert(f);
        assert(s);

        fputs("\n=== Batch Summary ===\n", f);
        fprintf(f, "total time:    %.1fs\n", s->total_seconds);
        fprintf(f, "completed:     %u\n", s->completed);
        fprintf(f, "failed:        %u\n", s->failed);
        if (s->completed == 0)
                return;
        fprintf(f, "wall time:     avg=%.1fs min=%.1fs max=%.1fs\n", s->wall_seconds.avg,
                s->wall_seconds.min, s->wall_seconds.max);
        fprintf(f, "prove time:    avg=%.1fs min=%.1fs max=%.1fs\n", s->prove_seconds.avg,
                s->prove_seconds.min, s->prove_seconds.max);
        fprintf(f, "throughput:    %.3f proofs/min (%.1fs/proof)\n", s->proofs_per_minute,
                s->seconds_per_proof);
        if (s->steady_proofs > 0)
                fprintf(f,
                        "steady:        %.1fs/proof after the first %u (%u more ended in %.1fs)\n",
                        s->steady_seconds / s->steady_proofs, s->warm, s->steady_proofs,
                        s->steady_seconds);
}
