/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PoRep circuit's costs for one C1 output, as a markdown table: the
 * PCE (built or loaded from the cache, its file bytes), one partition's
 * witness (time, compact and full bytes), its a, b, c from the PCE, and
 * the row-by-row check without a PCE.
 * Usage: bench-porep-circuit C1.json [--pce-dir DIR] [--partition K]
 *                                    [--no-pce] [--check]
 * (--no-pce: witness and check only, for machines whose memory cannot hold
 * a 32 GiB PCE beside a, b and c.) Threads: OMP_NUM_THREADS.
 */
#include <errno.h>
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "circuits/cs/cs.h"
#include "circuits/pce-compact.h"
#include "circuits/pce-file.h"
#include "circuits/porep/porep-pce.h"
#include "circuits/porep/stacked.h"
#include "common/cleanup.h"
#include "zk/big_alloc.h"

struct options {
        const char *c1_path, *pce_dir;
        unsigned partition;
        bool no_pce, check;
};

static int parse(int argc, char **argv, struct options *o) {
        static const struct option long_options[] = {
                {"pce-dir", required_argument, NULL, 'd'},
                {"partition", required_argument, NULL, 'k'},
                {"no-pce", no_argument, NULL, 'n'},
                {"check", no_argument, NULL, 'c'},
                {0},
        };
        int c;

        while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1)
                switch (c) {
                case 'd':
                        o->pce_dir = optarg;
                        break;
                case 'k':
                        o->partition = (unsigned)strtoul(optarg, NULL, 10);
                        break;
                case 'n':
                        o->no_pce = true;
                        break;
                case 'c':
                        o->check = true;
                        break;
                default:
                        return -EINVAL;
                }
        if (optind + 1 != argc)
                return -EINVAL;
        o->c1_path = argv[optind];
        return 0;
}

static void row(const char *stage, double seconds, const char *bytes_note, double bytes) {
        if (bytes > 0)
                printf("| %s | %.2f | %.1f MB | %s |\n", stage, seconds, bytes / 1e6, bytes_note);
        else
                printf("| %s | %.2f | | %s |\n", stage, seconds, bytes_note);
}

/* The compact witness's bytes: inputs, the two bitmaps, the other values. */
static double compact_bytes(const struct cs *cs) {
        const struct cs_witness *w = cs_witness(cs);

        return (double)(w->n_inputs + 1) * sizeof(fr_t) +
               2.0 * (double)pce_bitmap_words(w->n_aux) * 8 + (double)w->n_nums * sizeof(fr_t);
}

static int bench_pce(const struct options *o, const struct porep_config *cfg, struct pce **ret) {
        double t0 = bench_now_sec();
        bool built = true;
        int r = o->pce_dir ? porep_pce_open(cfg, o->pce_dir, ret, &built)
                           : porep_pce_build(cfg, ret);

        if (r < 0)
                return r;
        row(built ? "PCE recorded (one thread)" : "PCE loaded from the cache", bench_now_sec() - t0,
            "file", (double)pce_file_bytes(*ret));
        return 0;
}

/* a, b, c of the witness from the PCE: from the compact witness, then
 * from the full one (expanded first), the two ways a prover can take. */
static int bench_abc(const struct pce *pce, const struct cs *cs) {
        _cleanup_free_ fr_t *w = NULL, *abc = NULL;
        _cleanup_free_ uint64_t *rank = NULL;
        unsigned log = pce_log_domain_size(pce);
        size_t n = 0, domain = (size_t)1 << log;
        struct pce_compact_witness cw;
        double t0;
        int r;

        abc = big_alloc(3 * domain * sizeof(fr_t));
        if (!abc)
                return -ENOMEM;
        /* Touched first: a prover reuses its a, b, c buffers, and first-touch
         * page faults on 12.9 GB (32 GiB) would be timed otherwise. */
        memset(abc, 0, 3 * domain * sizeof(fr_t));
        t0 = bench_now_sec();
        if ((r = cs_witness_compact(cs, &cw, &rank)) < 0 ||
            (r = pce_evaluate_compact(pce, &cw, log, abc, abc + domain, abc + 2 * domain)) < 0)
                return r;
        row("a, b, c from the compact witness", bench_now_sec() - t0, "a+b+c",
            3.0 * (double)domain * 32);
        t0 = bench_now_sec();
        if ((r = cs_witness_full(cs, &w, &n)) < 0)
                return r;
        row("full witness from the compact one", bench_now_sec() - t0, "full",
            (double)n * sizeof(fr_t));
        t0 = bench_now_sec();
        r = pce_evaluate(pce, w, n, log, abc, abc + domain, abc + 2 * domain);
        if (r < 0)
                return r;
        row("a, b, c from the full witness", bench_now_sec() - t0, "a+b+c",
            3.0 * (double)domain * 32);
        return 0;
}

static int run(const struct options *o, const struct c1_output *c1) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(cs_freep) struct cs *cs = NULL;
        uint64_t bad = 0;
        double t0;
        int r;

        printf("%s%s, partition %u, %d threads\n\n", c1->cfg->name,
               c1->synthetic_c1 ? " (synthetic C1)" : "", o->partition, omp_get_max_threads());
        printf("| stage | seconds | bytes | |\n|---|---|---|---|\n");
        if (!o->no_pce && (r = bench_pce(o, c1->cfg, &pce)) < 0)
                return r;
        t0 = bench_now_sec();
        if ((r = porep_circuit_witness(c1, o->partition, &cs)) < 0)
                return r;
        row("witness (challenges in parallel)", bench_now_sec() - t0, "compact", compact_bytes(cs));
        if (pce && (r = bench_abc(pce, cs)) < 0)
                return r;
        if (!o->check)
                return 0;
        t0 = bench_now_sec();
        if ((r = porep_circuit_check(c1, o->partition, &bad)) < 0)
                return r;
        row(bad == UINT64_MAX ? "every row holds (CS_VERIFY)" : "A ROW FAILS (CS_VERIFY)",
            bench_now_sec() - t0, "", 0);
        return bad == UINT64_MAX ? 0 : -EBADMSG;
}

int main(int argc, char **argv) {
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        struct options o = {0};
        int r;

        if (parse(argc, argv, &o) < 0) {
                fputs("usage: bench-porep-circuit C1.json [--pce-dir DIR] [--partition K] "
                      "[--no-pce] [--check]\n",
                      stderr);
                return 2;
        }
        if (c1_load_file(o.c1_path, &c1) < 0)
                return 2; /* logged, naming the file */
        r = run(&o, c1);
        if (r < 0)
                fprintf(stderr, "bench-porep-circuit: %s\n", strerror(-r));
        return r < 0 ? 1 : 0;
}
