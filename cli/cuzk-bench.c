/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk-bench batch: runs a batch of identical proofs through cuzkd and
 * reports them as the reference daemon's cuzk-bench does, with the daemon's
 * peak memory, its provers' idle time between partitions and, with --verify,
 * every proof checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "cuzk-bench.h"

/* Errors from the loaders and the client, named as this program's. */
static void log_to_stderr(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        fprintf(stderr, "cuzk-bench: %s\n", message);
}

static int exit_for_error(int r) {
        return r == -ENOMEM ? BENCH_EXIT_INTERNAL : BENCH_EXIT_USAGE;
}

/* Checks every completed proof; returns how many do not verify. */
static unsigned verify_all(const struct bench_verifier *verifier, const struct bench_job *jobs,
                           unsigned count, unsigned *ret_checked) {
        unsigned invalid = 0, checked = 0;
        char reason[256];
        int r;

        for (unsigned i = 0; i < count; i++) {
                if (!jobs[i].sample.completed)
                        continue;
                checked++;
                r = bench_verifier_check(verifier, jobs[i].response, reason, sizeof(reason));
                if (r == 1)
                        continue;
                invalid++;
                if (r < 0)
                        printf("  job %s: cannot verify: %s\n", jobs[i].response->job_id,
                               strerror(-r));
                else
                        printf("  job %s: DOES NOT VERIFY: %s\n", jobs[i].response->job_id, reason);
        }
        *ret_checked = checked;
        return invalid;
}

int main(int argc, char **argv) {
        _cleanup_(bench_verifier_freep) struct bench_verifier *verifier = NULL;
        _cleanup_free_ struct bench_sample *samples = NULL;
        _cleanup_free_ struct bench_job *jobs = NULL;
        struct bench_request request = {0};
        struct bench_memory memory = {0};
        struct bench_idle idle = {0};
        struct api_client *client = NULL;
        struct bench_summary summary;
        struct bench_options o;
        unsigned invalid = 0, checked = 0;
        double seconds;
        int r;

        r = bench_parse_args(argc, argv, stdout, stderr, &o);
        if (r != 0)
                return r > 0 ? BENCH_EXIT_OK : BENCH_EXIT_USAGE;
        log_set_max_level(o.log_level);
        log_set_sink(log_to_stderr, NULL);

        r = bench_request_build(&o, &request);
        if (r < 0)
                return exit_for_error(r);
        /* The key is read before the batch, so that a bad file fails at once. */
        if (o.verify) {
                r = bench_verifier_new(&o, &verifier);
                if (r < 0) {
                        bench_request_done(&request);
                        return exit_for_error(r);
                }
        }
        jobs = calloc(o.count, sizeof(*jobs));
        samples = calloc(o.count, sizeof(*samples));
        if (!jobs || !samples) {
                bench_request_done(&request);
                return BENCH_EXIT_INTERNAL;
        }
        /* An unreachable daemon is one clear error, not COUNT failed jobs. */
        if (bench_connect(&o, &client) < 0) {
                bench_request_done(&request);
                // cppcheck-suppress memleak ; freed by _cleanup_
                return BENCH_EXIT_FAILED;
        }

        bench_print_header(stdout, &o);
        fflush(stdout);
        r = bench_run_batch(&o, &request.submit, stdout, jobs, &seconds, &memory, &idle);
        if (r < 0) {
                api_client_free(client);
                bench_request_done(&request);
                // cppcheck-suppress memleak ; freed by _cleanup_
                return BENCH_EXIT_INTERNAL;
        }
        for (unsigned i = 0; i < o.count; i++)
                samples[i] = jobs[i].sample;
        bench_summarize(samples, o.count, seconds, o.concurrency, &summary);
        if (verifier)
                invalid = verify_all(verifier, jobs, o.count, &checked);
        bench_print_summary(stdout, &summary);
        if (verifier)
                printf("verified:      %u of %u completed proofs\n", checked - invalid, checked);
        /* A connection idle for the whole batch may have been closed: one retry. */
        if (bench_memory_read_peak(client, &memory) < 0) {
                api_client_free(client);
                client = NULL;
                if (bench_connect(&o, &client) == 0)
                        (void)bench_memory_read_peak(client, &memory);
        }
        bench_print_memory(stdout, &memory);
        bench_print_idle(stdout, &idle);

        api_client_free(client);
        bench_jobs_free(jobs, o.count);
        bench_request_done(&request);
        return summary.failed > 0 || invalid > 0 ? BENCH_EXIT_FAILED : BENCH_EXIT_OK;
}
