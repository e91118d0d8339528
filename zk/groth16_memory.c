/* SPDX-License-Identifier: Apache-2.0 */
/* The memory of one partition (see groth16_memory.h). */
#include "groth16_memory.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "fr.h"
#include "g1.h"
#include "g2.h"
#include "groth16.h"
#include "ntt.h"
#include "parallel.h"

/*
 * zk/msm.c's sizes and window choice, which its header does not export.
 * test-memory compares the total against measured peak RSS, so a change
 * there that this model misses fails that test.
 */
#define MSM_MAX_WINDOW_BITS 16
#define MSM_SCALAR_BITS 256
#define MSM_BLOCK_POINTS ((size_t)4096)
#define MSM_CHUNK_POINTS ((size_t)1 << 20)
#define MSM_TILES_PER_THREAD 4
#define MSM_ONES_BATCH ((size_t)1024)
#define MSM_SORTER_OPS ((size_t)4096)
#define MSM_AFFINE_MIN_POINTS ((size_t)2048)
#define MSM_COST_BATCH_ADD 0.7
#define MSM_COST_FULL_ADD 1.4
#define MSM_COST_DIGIT_SCAN 0.01

struct msm_window_plan {
        unsigned windows;
        size_t buckets_per_window;
        unsigned splits, tiles;
        bool affine;
};

/* msm.c's msm_plan_choose(): the window width of least estimated work. */
static struct msm_window_plan msm_plan(size_t windowed, unsigned threads) {
        bool affine = windowed >= MSM_AFFINE_MIN_POINTS;
        double add_cost = affine ? MSM_COST_BATCH_ADD : 1;
        double reduce_cost = MSM_COST_FULL_ADD + (affine ? 1 : MSM_COST_FULL_ADD);
        struct msm_window_plan best_plan = {0};
        double best = -1;

        for (unsigned c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
                unsigned windows = (MSM_SCALAR_BITS + c - 1) / c;
                size_t buckets = (size_t)1 << (c - 1);
                unsigned want = (MSM_TILES_PER_THREAD * threads + windows - 1) / windows;
                unsigned splits = want < buckets ? want : (unsigned)buckets;
                double tiles = (double)windows * splits;
                double cost = (double)windows * (double)windowed * add_cost +
                              (double)windows * (double)buckets * reduce_cost + tiles * 2 * c +
                              tiles * (double)windowed * MSM_COST_DIGIT_SCAN;

                if (best < 0 || cost < best) {
                        best = cost;
                        best_plan = (struct msm_window_plan){
                                .windows = windows,
                                .buckets_per_window = buckets,
                                .splits = splits,
                                .tiles = windows * splits,
                                .affine = affine,
                        };
                }
        }
        return best_plan;
}

size_t groth16_msm_scratch_bytes(size_t n, size_t windowed, unsigned threads, bool g2) {
        const size_t affine = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        const size_t xyzz = g2 ? sizeof(g2_xyzz_t) : sizeof(g1_xyzz_t);
        const size_t jac = g2 ? sizeof(g2_jac_t) : sizeof(g1_jac_t);
        const size_t field = g2 ? sizeof(fp2_t) : sizeof(fp_t);
        const size_t nblocks = (n + MSM_BLOCK_POINTS - 1) / MSM_BLOCK_POINTS;
        size_t windows_stage = 0, ones_stage;

        if (n == 0)
                return 0;
        if (windowed > n)
                windowed = n;
        if (!threads)
                threads = zk_thread_count();

        if (windowed > 0) {
                struct msm_window_plan plan = msm_plan(windowed, threads);
                size_t capacity = windowed < MSM_CHUNK_POINTS ? windowed : MSM_CHUNK_POINTS;
                size_t buckets = plan.windows * plan.buckets_per_window;
                size_t tile_buckets = (plan.buckets_per_window + plan.splits - 1) / plan.splits;

                /* chunk table, digits, their point indices, tile sums */
                windows_stage = (2 * nblocks + 1) * sizeof(size_t) +
                                plan.windows * capacity * sizeof(int32_t) +
                                capacity * sizeof(size_t) + plan.tiles * jac;
                if (plan.affine)
                        /* buckets, and per thread a sorter: op slot, point
                         * pointer and sign, touched list, segment start and
                         * length, sorted/acc/add points, home, scratch */
                        windows_stage +=
                                buckets * affine +
                                threads * (MSM_SORTER_OPS * (5 * sizeof(uint32_t) + sizeof(void *) +
                                                             sizeof(bool) + 3 * affine + field) +
                                           tile_buckets * sizeof(uint32_t));
                else
                        windows_stage += buckets * xyzz;
        }
        /* each thread's batch buffers for the scalars 1 */
        ones_stage = threads * MSM_ONES_BATCH * (2 * affine + field);
        /* per-block counts and per-thread sums live throughout */
        return 2 * nblocks * sizeof(size_t) + threads * xyzz +
               (windows_stage > ones_stage ? windows_stage : ones_stage);
}

static size_t max_size(size_t a, size_t b) {
        return a > b ? a : b;
}

size_t groth16_partition_bytes(const struct groth16_partition_shape *shape) {
        size_t n, n_h, n_private, witness, h_phase, g1_phase, g2_phase, g1_msm;
        unsigned threads;

        assert(shape);
        assert(shape->log_domain_size <= NTT_MAX_LOG_SIZE);
        assert(shape->n_vars > shape->n_public);

        n = (size_t)1 << shape->log_domain_size;
        n_h = groth16_h_bases(GROTH16_H_BELLPERSON, shape->log_domain_size);
        n_private = shape->n_vars - shape->n_public - 1;
        threads = shape->threads ? shape->threads : zk_thread_count();
        witness = shape->n_vars * sizeof(fr_t);

        h_phase = witness + 3 * n * sizeof(fr_t) + ntt_domain_bytes(shape->log_domain_size) +
                  shape->evaluate_bytes;

        g1_msm = groth16_msm_scratch_bytes(shape->n_vars, shape->g1_windowed, threads, false);
        g1_msm = max_size(g1_msm,
                          groth16_msm_scratch_bytes(n_private, shape->g1_windowed, threads, false));
        /* H's scalars are random-looking: all of them go through the windows. */
        g1_msm = max_size(g1_msm, groth16_msm_scratch_bytes(n_h, n_h, threads, false));
        g1_phase = witness + n * sizeof(fr_t) + shape->gathered * sizeof(fr_t) + g1_msm;
        /* H's scalars are released before the b_g2 MSM. */
        g2_phase = witness + shape->gathered * sizeof(fr_t) +
                   groth16_msm_scratch_bytes(shape->n_vars, shape->g2_windowed, threads, true);

        return max_size(h_phase, max_size(g1_phase, g2_phase));
}

/* A "Key:   123 kB" line of /proc/self/status, in bytes. */
static int proc_status_bytes(const char *key, size_t *ret) {
        _cleanup_fclose_ FILE *f = fopen("/proc/self/status", "re");
        size_t key_len = strlen(key);
        char line[256];

        if (!f)
                return -errno;
        while (fgets(line, sizeof(line), f)) {
                unsigned long long kib;

                if (strncmp(line, key, key_len) || line[key_len] != ':')
                        continue;
                if (sscanf(line + key_len + 1, "%llu kB", &kib) != 1)
                        return -EBADMSG;
                *ret = (size_t)kib * 1024;
                return 0;
        }
        return -ENOENT;
}

int process_peak_rss_reset(size_t *ret_rss_bytes) {
        _cleanup_close_ int fd = -EBADF;

        assert(ret_rss_bytes);
        /* "5" resets the peak resident set size (Linux 4.0). */
        fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (write(fd, "5", 1) != 1)
                return errno > 0 ? -errno : -EIO;
        return proc_status_bytes("VmRSS", ret_rss_bytes);
}

int process_peak_rss_bytes(size_t *ret_bytes) {
        assert(ret_bytes);
        return proc_status_bytes("VmHWM", ret_bytes);
}
