/* SPDX-License-Identifier: Apache-2.0 */
/* The split GPU prover: gpu-prove.h. Host code over gpu.h and zk/. */
#include "cuda/gpu-prove.h"
#include "cuda/gpu-prove-internal.h"

#include <assert.h>
#include <errno.h>
#include <numa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "zk/msm.h"

/* A partial's GPU work: queued on its lane, being collected (by the thread
 * that finishes it, or by a start that needs its lane), or collected. */
enum partial_state {
        PARTIAL_QUEUED,
        PARTIAL_COLLECTING,
        PARTIAL_COLLECTED,
};

struct gpu_prove_partial {
        gpu_prover_t *prover;
        const struct groth16_pk *pk;
        const fr_t *w;
        struct groth16_msm_results msm;
        struct lane *lane; /* while QUEUED or COLLECTING */
        enum partial_state state;
        uint64_t seq;
        int gpu_result; /* the GPU stage's and, on the GPU, the tail's */
        bool g2_on_gpu;
        bool thread_started;
        pthread_t thread;
        int g2_result;
        unsigned cpu_threads;
        uint64_t start_usec, stage_usec, g2_begin_usec, g2_end_usec;
        gpu_stage_split_t split;
        uint64_t upload_bytes;        /* host to device for this partition */
        struct pinned_buffer *pinned; /* its compact witness's copy, or NULL */
};

static uint64_t now_usec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The GPU's NUMA node from sysfs (-1: unknown, as on single-node hosts). */
static int device_numa_node(const char *pci_bus_id) {
        char path[96];
        FILE *f;
        int node = -1;

        snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/numa_node", pci_bus_id);
        f = fopen(path, "re");
        if (!f)
                return -1;
        if (fscanf(f, "%d", &node) != 1)
                node = -1;
        fclose(f);
        return node;
}

/* A lane's context, its MSMs as the tuning says. */
static int lane_context_new(const gpu_prover_t *prover, gpu_context_t **ret) {
        int r = gpu_context_new(ret, prover->ordinal);
        if (r < 0)
                return r;
        gpu_set_msm_window_bits(*ret, prover->tuning.msm_window_bits);
        gpu_set_msm_profile(*ret, prover->msm_profile);
        return 0;
}

void gpu_prover_set_msm_profile(gpu_prover_t *prover, bool on) {
        assert(prover);
        pthread_mutex_lock(&prover->lock);
        prover->msm_profile = on;
        for (unsigned i = 0; i < prover->tuning.lanes; i++)
                if (prover->lanes[i].ctx)
                        gpu_set_msm_profile(prover->lanes[i].ctx, on);
        pthread_mutex_unlock(&prover->lock);
}

/* Threads and pages near the GPU: the SRS is read over PCIe from there, and
 * the CPU tail reads it too. */
static void move_to_gpu_node(gpu_prover_t *p, const gpu_device_info_t *info) {
        p->numa_node = device_numa_node(info->pci_bus_id);
        if (p->numa_node < 0 || numa_available() < 0)
                return;
        if (numa_run_on_node(p->numa_node) < 0)
                (void)log_warning_errno(errno,
                                        "Cannot run the prover on NUMA node %d of GPU %s: %m",
                                        p->numa_node, info->pci_bus_id);
        numa_set_preferred(p->numa_node);
}

int gpu_prover_new_tuned(int ordinal, unsigned cpu_threads, gpu_g2_placement_t placement,
                         const struct gpu_tuning *tuning, gpu_prover_t **ret) {
        _cleanup_free_ gpu_prover_t *p = NULL;
        gpu_device_info_t info;
        int r;

        assert(tuning);
        assert(ret);
        if (gpu_tuning_check(tuning) < 0)
                return log_error_errno(EINVAL,
                                       "GPU tuning refused: Lanes=%u (expected 1 to %d), "
                                       "SrsResidence=%d, MsmWindow=%u (expected 0 or %d to %d)",
                                       tuning->lanes, GPU_LANES_MAX, (int)tuning->srs,
                                       tuning->msm_window_bits, GPU_MSM_WINDOW_BITS_MIN,
                                       GPU_MSM_WINDOW_BITS_MAX);
        p = calloc(1, sizeof(*p));
        if (!p)
                return -ENOMEM;
        p->ordinal = ordinal;
        p->tuning = *tuning;
        r = gpu_context_new(&p->ctx, ordinal);
        if (r < 0)
                return r;
        /* The first lane always exists: a start never waits for one that cannot. */
        r = lane_context_new(p, &p->lanes[0].ctx);
        if (r < 0) {
                gpu_context_free(p->ctx);
                return r;
        }
        p->cpu_threads = cpu_threads;
        p->placement = placement;
        pthread_mutex_init(&p->lock, NULL);
        pthread_cond_init(&p->changed, NULL);
        gpu_context_info(p->ctx, &info);
        move_to_gpu_node(p, &info);
        log_info("GPU prover on %s (%s, %.0f GiB), NUMA node %d, up to %u partitions in flight, "
                 "SRS %s, MSM window %s",
                 info.name, info.pci_bus_id, (double)info.memory_bytes / (1u << 30), p->numa_node,
                 p->tuning.lanes, gpu_srs_residence_to_string(p->tuning.srs),
                 p->tuning.msm_window_bits ? "fixed" : "auto");
        *ret = TAKE_PTR(p);
        return 0;
}

int gpu_prover_new(int ordinal, unsigned cpu_threads, gpu_g2_placement_t placement,
                   gpu_prover_t **ret) {
        struct gpu_tuning defaults;

        gpu_tuning_defaults(&defaults);
        return gpu_prover_new_tuned(ordinal, cpu_threads, placement, &defaults, ret);
}

void gpu_prover_free(gpu_prover_t *prover) {
        if (!prover)
                return;
        resident_keys_free(prover);
        pinned_free_all(prover);
        for (size_t i = 0; i < GPU_LANES_MAX; i++) {
                assert(!prover->lanes[i].busy);
                gpu_pce_witness_free(prover->lanes[i].pce_witness);
                gpu_context_free(prover->lanes[i].ctx);
        }
        gpu_context_free(prover->ctx);
        pthread_cond_destroy(&prover->changed);
        pthread_mutex_destroy(&prover->lock);
        free(prover);
}

unsigned gpu_prover_lanes(const gpu_prover_t *prover) {
        assert(prover);
        return prover->tuning.lanes;
}

const char *gpu_prover_device_name(const gpu_prover_t *prover) {
        static _Thread_local gpu_device_info_t info;
        assert(prover);
        gpu_context_info(prover->ctx, &info);
        return info.name;
}

int gpu_prover_memory(gpu_prover_t *prover, uint64_t *ret_free, uint64_t *ret_total) {
        size_t free_bytes, total_bytes;
        int r;

        assert(prover);
        r = gpu_memory_info(prover->ctx, &free_bytes, &total_bytes);
        if (r < 0)
                return r;
        *ret_free = free_bytes;
        *ret_total = total_bytes;
        return 0;
}

uint64_t gpu_prover_scratch_peak(gpu_prover_t *prover) {
        uint64_t most = 0;
        assert(prover);
        pthread_mutex_lock(&prover->lock);
        for (unsigned i = 0; i < prover->tuning.lanes; i++)
                if (prover->lanes[i].scratch_bytes > most)
                        most = prover->lanes[i].scratch_bytes;
        pthread_mutex_unlock(&prover->lock);
        return most;
}

uint64_t gpu_prover_partition_bytes(const struct groth16_pk *pk) {
        assert(pk);
        return partition_device_bytes(pk);
}

int gpu_prover_numa_node(const gpu_prover_t *prover) {
        assert(prover);
        return prover->numa_node;
}

bool gpu_g2_choose_gpu(gpu_g2_placement_t placement, double gpu_stage_ns_per_point,
                       double cpu_g2_ns_per_point, double gpu_g2_ns_per_point,
                       uint64_t domain_points, uint64_t g2_points) {
        if (placement != GPU_G2_AUTO)
                return placement == GPU_G2_GPU;
        /* Each place once, CPU first, before the rates decide. */
        if (cpu_g2_ns_per_point <= 0)
                return false;
        if (gpu_g2_ns_per_point <= 0)
                return true;
        const double stage = gpu_stage_ns_per_point * (double)domain_points;
        const double cpu_tail = cpu_g2_ns_per_point * (double)g2_points;
        const double gpu_tail = gpu_g2_ns_per_point * (double)g2_points;
        const double on_cpu = cpu_tail > stage ? cpu_tail : stage;
        return stage + gpu_tail < on_cpu;
}

static void *cpu_tail_thread(void *arg) {
        gpu_prove_partial_t *p = arg;

        p->g2_begin_usec = now_usec();
        p->g2_result = groth16_msm_b_g2(p->pk, p->w, &p->msm.b2, p->cpu_threads);
        p->g2_end_usec = now_usec();
        return NULL;
}

/* Exponential average: new figures count for half. */
static void update_rate(double *rate, uint64_t usec, uint64_t points) {
        const double ns = points ? (double)usec * 1e3 / (double)points : 0;
        *rate = *rate > 0 ? (*rate + ns) / 2 : ns;
}

/* The B_G2 MSM on the GPU, on the lane that queued the partition: B's
 * scalars are still on the device from its B_G1 MSM. */
static int gpu_tail(gpu_prover_t *prover, gpu_context_t *ctx, gpu_prove_partial_t *p) {
        const size_t n = groth16_pk_b_points(p->pk);
        int r;

        p->g2_begin_usec = now_usec();
        r = gpu_groth16_b_g2(ctx, p->pk, resident_points(prover, p->pk), &p->msm.b2);
        p->g2_end_usec = now_usec();
        if (r < 0)
                return log_error_errno(r, "GPU B_G2 MSM of %zu points failed: %s", n,
                                       gpu_context_last_error(ctx));
        pthread_mutex_lock(&prover->lock);
        update_rate(&prover->gpu_g2_ns_per_point, p->g2_end_usec - p->g2_begin_usec, n);
        pthread_mutex_unlock(&prover->lock);
        return 0;
}

/* Says when a lane's scratch grew, beside what lane_partition_bytes set
 * aside for it (a warning where it took more: the SRS's residence and the
 * lanes opened count on that). Under prover->lock, the lane still held. */
static void note_scratch(const gpu_prover_t *prover, struct lane *lane,
                         const struct groth16_pk *pk) {
        const size_t bytes = gpu_scratch_bytes(lane->ctx);
        const uint64_t estimate = lane_partition_bytes(prover, pk);

        if (bytes <= lane->scratch_bytes)
                return;
        lane->scratch_bytes = bytes;
        (void)log_full_errno(
                bytes > estimate ? LOG_WARNING : LOG_DEBUG, 0,
                "GPU lane scratch %.2f GiB after a 2^%u partition (set aside: %.2f GiB)",
                (double)bytes / (1u << 30), pk->log_domain_size, (double)estimate / (1u << 30));
}

/*
 * The GPU work of a partial this thread has marked COLLECTING: wait for
 * its lane, write its MSM results and (with run_tail, when placed there)
 * run its B_G2 tail on the same lane; then the lane is free again.
 */
static int collect_claimed(gpu_prover_t *prover, gpu_prove_partial_t *p, bool run_tail) {
        struct lane *lane = p->lane;
        const uint64_t domain = (uint64_t)1 << p->pk->log_domain_size;
        double stage_ms = 0;
        int r;

        r = gpu_groth16_collect(lane->ctx, &stage_ms, &p->split);
        if (r < 0)
                (void)log_error_errno(r, "GPU stage of a 2^%u partition failed: %s",
                                      p->pk->log_domain_size, gpu_context_last_error(lane->ctx));
        p->stage_usec = (uint64_t)(stage_ms * 1e3);
        if (r >= 0) {
                pthread_mutex_lock(&prover->lock);
                update_rate(&prover->gpu_stage_ns_per_point, p->stage_usec, domain);
                pthread_mutex_unlock(&prover->lock);
        }
        if (r >= 0 && run_tail && p->g2_on_gpu)
                r = gpu_tail(prover, lane->ctx, p);
        /* The lane's next stage counts its idle time from here. */
        if (r >= 0)
                r = gpu_groth16_partition_done(lane->ctx);

        pthread_mutex_lock(&prover->lock);
        if (r >= 0)
                note_scratch(prover, lane, p->pk);
        p->gpu_result = r;
        p->state = PARTIAL_COLLECTED;
        lane->busy = NULL;
        p->lane = NULL;
        pthread_cond_broadcast(&prover->changed);
        pthread_mutex_unlock(&prover->lock);
        return r;
}

/* Collects p unless another thread is at it (then waits for that) or has
 * done it; returns the GPU work's result. */
static int collect(gpu_prover_t *prover, gpu_prove_partial_t *p, bool run_tail) {
        pthread_mutex_lock(&prover->lock);
        while (p->state == PARTIAL_COLLECTING)
                pthread_cond_wait(&prover->changed, &prover->lock);
        if (p->state == PARTIAL_COLLECTED) {
                pthread_mutex_unlock(&prover->lock);
                return p->gpu_result;
        }
        p->state = PARTIAL_COLLECTING;
        pthread_mutex_unlock(&prover->lock);
        return collect_claimed(prover, p, run_tail);
}

void gpu_prove_partial_free(gpu_prove_partial_t *partial) {
        if (!partial)
                return;
        /* a partial still queued frees its lane (nothing if never queued) */
        (void)collect(partial->prover, partial, false);
        if (partial->thread_started)
                (void)pthread_join(partial->thread, NULL);
        pinned_put(partial->prover, partial->pinned); /* the upload is done */
        free(partial);
}

static void gpu_prove_partial_freep(gpu_prove_partial_t **p) {
        gpu_prove_partial_free(*p);
}

/* A free lane for pk's partition under prover->lock: one already sized for
 * it, else the first lane (it grows as a lone context always did), else a
 * new or larger one while the card's free memory holds a partition. */
static struct lane *free_lane(gpu_prover_t *prover, const struct groth16_pk *pk) {
        for (unsigned i = 0; i < prover->tuning.lanes; i++) {
                struct lane *l = &prover->lanes[i];
                size_t free_bytes = 0, total_bytes;

                if (l->busy)
                        continue;
                if (!(l->ctx && l->log_domain >= pk->log_domain_size && l->n_vars >= pk->n_vars) &&
                    i > 0 &&
                    (gpu_memory_info(prover->ctx, &free_bytes, &total_bytes) < 0 ||
                     free_bytes < lane_partition_bytes(prover, pk)))
                        continue;
                if (!l->ctx && lane_context_new(prover, &l->ctx) < 0)
                        continue; /* logged; the open lanes still serve */
                if (l->log_domain < pk->log_domain_size)
                        l->log_domain = pk->log_domain_size;
                if (l->n_vars < pk->n_vars)
                        l->n_vars = pk->n_vars;
                return l;
        }
        return NULL;
}

/* The oldest partial whose GPU work nobody collects yet, or NULL. */
static gpu_prove_partial_t *oldest_queued(gpu_prover_t *prover) {
        gpu_prove_partial_t *oldest = NULL;

        for (unsigned i = 0; i < prover->tuning.lanes; i++) {
                gpu_prove_partial_t *q = prover->lanes[i].busy;
                if (q && q->state == PARTIAL_QUEUED && (!oldest || q->seq < oldest->seq))
                        oldest = q;
        }
        return oldest;
}

/* Gives p a lane. With none free, this thread collects the oldest partial
 * itself (its results wait in it for its finish), so that one thread may
 * start any number of partials before finishing them. */
static void acquire_lane(gpu_prover_t *prover, const struct groth16_pk *pk,
                         gpu_prove_partial_t *p) {
        pthread_mutex_lock(&prover->lock);
        for (;;) {
                struct lane *l = free_lane(prover, pk);
                gpu_prove_partial_t *oldest;

                if (l) {
                        l->busy = p;
                        p->lane = l;
                        p->state = PARTIAL_QUEUED;
                        p->seq = prover->started++;
                        break;
                }
                oldest = oldest_queued(prover);
                if (oldest) {
                        oldest->state = PARTIAL_COLLECTING;
                        pthread_mutex_unlock(&prover->lock);
                        (void)collect_claimed(prover, oldest, true);
                        pthread_mutex_lock(&prover->lock);
                } else
                        pthread_cond_wait(&prover->changed, &prover->lock);
        }
        pthread_mutex_unlock(&prover->lock);
}

/* A partial of pk holding a lane, its tail placed (on the GPU without a
 * host witness w or with the key's bases on the card, whose host copy may
 * be gone) and, on the CPU, started. */
static int partial_begin(gpu_prover_t *prover, const struct groth16_pk *pk, const fr_t *w,
                         gpu_prove_partial_t **ret) {
        _cleanup_(gpu_prove_partial_freep) gpu_prove_partial_t *p = NULL;
        const uint64_t domain = (uint64_t)1 << pk->log_domain_size;
        int r;

        p = calloc(1, sizeof(*p));
        if (!p)
                return -ENOMEM;
        *p = (gpu_prove_partial_t){.prover = prover,
                                   .pk = pk,
                                   .w = w,
                                   .state = PARTIAL_COLLECTED,
                                   .cpu_threads = prover->cpu_threads};
        acquire_lane(prover, pk, p);
        p->start_usec = now_usec();
        pthread_mutex_lock(&prover->lock);
        p->g2_on_gpu = !w || resident_points(prover, pk) ||
                       gpu_g2_choose_gpu(prover->placement, prover->gpu_stage_ns_per_point,
                                         prover->cpu_g2_ns_per_point, prover->gpu_g2_ns_per_point,
                                         domain, groth16_pk_b_points(pk));
        pthread_mutex_unlock(&prover->lock);
        if (!p->g2_on_gpu) {
                r = -pthread_create(&p->thread, NULL, cpu_tail_thread, p);
                if (r < 0)
                        return log_error_errno(r, "Starting the B_G2 tail thread: %m");
                p->thread_started = true;
        }
        *ret = TAKE_PTR(p);
        return 0;
}

int gpu_prove_start(gpu_prover_t *prover, const struct groth16_pk *pk, const fr_t *w, const fr_t *a,
                    const fr_t *b, const fr_t *c, gpu_prove_partial_t **ret) {
        _cleanup_(gpu_prove_partial_freep) gpu_prove_partial_t *p = NULL;
        gpu_context_t *ctx;
        fr_t *d_h = NULL;
        int r;

        assert(prover && pk && w && a && b && c && ret);
        r = partial_begin(prover, pk, w, &p);
        if (r < 0)
                return r;
        ctx = p->lane->ctx;
        p->upload_bytes = (3 * ((uint64_t)1 << pk->log_domain_size) + pk->n_vars) * sizeof(fr_t);
        r = gpu_groth16_h(ctx, pk->h_convention, pk->log_domain_size, a, b, c, &d_h);
        if (r >= 0)
                r = gpu_groth16_msm_g1_queue(ctx, pk, resident_points(prover, pk), w, d_h, &p->msm);
        if (r < 0)
                return log_error_errno(r, "GPU stage of a 2^%u partition failed: %s",
                                       pk->log_domain_size, gpu_context_last_error(ctx));
        *ret = TAKE_PTR(p);
        return 0;
}

int gpu_prover_upload_pce(gpu_prover_t *prover, const struct pce *pce, gpu_pce_t **ret) {
        assert(prover && pce && ret);
        return gpu_pce_upload(prover->ctx, pce, ret);
}

int gpu_prove_start_compact(gpu_prover_t *prover, const struct groth16_pk *pk, const gpu_pce_t *pce,
                            const struct pce_compact_witness *w, gpu_prove_partial_t **ret) {
        _cleanup_(gpu_prove_partial_freep) gpu_prove_partial_t *p = NULL;
        struct lane *lane;
        fr_t *d_h = NULL;
        int r;

        assert(prover && pk && pce && w && ret);
        /* the pinned copy while the partitions ahead hold the lanes; without
         * one, the upload stages w itself */
        struct pce_compact_witness pinned_w;
        struct pinned_buffer *pinned = NULL;
        r = compact_witness_pin(prover, w, &pinned_w, &pinned);
        if (r >= 0)
                w = &pinned_w;
        else if (r != -EBUSY)
                log_debug_errno(r, "No pinned copy of a compact witness: %m");
        r = partial_begin(prover, pk, NULL, &p);
        if (r < 0) {
                pinned_put(prover, pinned);
                return r;
        }
        p->pinned = pinned;
        lane = p->lane;
        if (!lane->pce_witness && (r = gpu_pce_witness_new(lane->ctx, &lane->pce_witness)) < 0)
                return log_error_errno(r, "GPU witness slot: %s",
                                       gpu_context_last_error(lane->ctx));
        r = gpu_groth16_h_compact(lane->ctx, lane->pce_witness, pce, w, pk->h_convention,
                                  pk->log_domain_size, &d_h, &p->upload_bytes);
        if (r >= 0)
                r = gpu_groth16_msm_g1_queue_compact(lane->ctx, lane->pce_witness, pk,
                                                     resident_points(prover, pk), w, d_h, &p->msm);
        if (r < 0)
                return log_error_errno(r,
                                       "GPU stage of a 2^%u partition from its compact "
                                       "witness failed: %s",
                                       pk->log_domain_size, gpu_context_last_error(lane->ctx));
        *ret = TAKE_PTR(p);
        return 0;
}

void gpu_stage_split_format(const gpu_stage_split_t *split, char *buf, size_t size) {
        assert(split && buf);
        snprintf(buf, size,
                 "a, b, c %.1f ms, H's transforms %.1f ms, MSMs: H %.1f ms, A %.1f ms, B_G1 "
                 "%.1f ms, L %.1f ms; the lane idle %.1f ms before it",
                 split->abc_ms, split->ntt_ms, split->msm_h_ms, split->msm_a_ms, split->msm_b1_ms,
                 split->msm_l_ms, split->idle_ms);
}

/* Waits for p's GPU work and its tail; the timings (may be NULL). */
static int finish_msm(gpu_prover_t *prover, gpu_prove_partial_t *p, gpu_prove_timings_t *timings) {
        int r;

        assert(p->prover == prover);
        r = collect(prover, p, true);
        if (r < 0)
                return r; /* collect said what failed */
        if (p->thread_started) {
                (void)pthread_join(p->thread, NULL);
                p->thread_started = false;
                if (p->g2_result < 0)
                        return log_error_errno(p->g2_result,
                                               "CPU B_G2 MSM of %zu points failed: %m",
                                               groth16_pk_b_points(p->pk));
                pthread_mutex_lock(&prover->lock);
                update_rate(&prover->cpu_g2_ns_per_point, p->g2_end_usec - p->g2_begin_usec,
                            groth16_pk_b_points(p->pk));
                pthread_mutex_unlock(&prover->lock);
        }
        if (timings) {
                /* the stage as the stream timed it, from the partition's start */
                const uint64_t gpu_done = p->start_usec + p->stage_usec;
                const uint64_t hidden_end = p->g2_end_usec < gpu_done ? p->g2_end_usec : gpu_done;
                *timings = (gpu_prove_timings_t){
                        .gpu_stage_usec = p->stage_usec,
                        .g2_usec = p->g2_end_usec - p->g2_begin_usec,
                        .g2_on_gpu = p->g2_on_gpu,
                        .overlap_usec = p->g2_on_gpu || hidden_end < p->g2_begin_usec
                                                ? 0
                                                : hidden_end - p->g2_begin_usec,
                        .upload_bytes = p->upload_bytes,
                        .split = p->split,
                };
        }
        return 0;
}

int gpu_prove_finish_msm(gpu_prover_t *prover, gpu_prove_partial_t *partial,
                         struct groth16_msm_results *ret, gpu_prove_timings_t *timings) {
        _cleanup_(gpu_prove_partial_freep) gpu_prove_partial_t *p = NULL;
        int r;

        assert(prover && partial && ret);
        p = partial;
        r = finish_msm(prover, p, timings);
        if (r >= 0)
                *ret = p->msm;
        return r;
}

int gpu_prove_finish(gpu_prover_t *prover, gpu_prove_partial_t *partial,
                     struct groth16_proof *proof, gpu_prove_timings_t *timings) {
        _cleanup_(gpu_prove_partial_freep) gpu_prove_partial_t *p = NULL;
        fr_t r_blind, s_blind;
        int r;

        assert(prover && partial && proof);
        p = partial;
        r = finish_msm(prover, p, timings);
        if (r < 0)
                return r;
        r = groth16_random_rs(&r_blind, &s_blind);
        if (r < 0)
                return log_error_errno(r, "Drawing r, s failed: %m");
        groth16_assemble(p->pk, &p->msm, &r_blind, &s_blind, proof);
        return 0;
}
