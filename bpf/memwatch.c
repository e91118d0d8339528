/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memwatch loader (libbpf-tools style): open the skeleton, choose which programs to
 * load from the features the kernel offers, set the read-only configuration, load, attach
 * each program on its own (one that cannot attach only loses its kind), and hand the ring
 * buffer's epoll fd to the caller's event loop.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/memwatch-event.h"
#include "bpf/memwatch-internal.h"
#include "bpf/memwatch-probe.h"
#include "bpf/memwatch.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "memwatch.skel.h"

_Static_assert(MEMWATCH_RAW_KINDS == _MEMWATCH_KIND_MAX, "kinds differ between BPF and API");
_Static_assert(MEMWATCH_RAW_DIRECT_RECLAIM == MEMWATCH_DIRECT_RECLAIM &&
                       MEMWATCH_RAW_MEMCG_RECLAIM == MEMWATCH_MEMCG_RECLAIM &&
                       MEMWATCH_RAW_HIGH_THROTTLE == MEMWATCH_HIGH_THROTTLE &&
                       MEMWATCH_RAW_OOM_KILL == MEMWATCH_OOM_KILL,
               "kind numbers differ between BPF and API");

struct memwatch {
        struct memwatch_bpf *skel;
        struct ring_buffer *ring;
        memwatch_event_fn fn;
        void *userdata;
        unsigned probes;
};

/* libbpf's own messages (the verifier log among them) are detail for debugging: the
 * reason a caller sees is logged by us, with context. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap) {
        char line[1024];
        size_t len;

        if (level == LIBBPF_DEBUG)
                return 0;
        vsnprintf(line, sizeof(line), fmt, ap);
        len = strlen(line);
        while (len > 0 && line[len - 1] == '\n')
                line[--len] = '\0';
        log_debug("%s", line); /* libbpf prefixes its own "libbpf: " */
        return 0;
}

static void skel_destroyp(struct memwatch_bpf **skel) {
        if (*skel)
                memwatch_bpf__destroy(*skel);
}

/* Opens and loads the skeleton with the programs the kernel offers; the high throttling
 * pair in mode. Returns negative errno from libbpf. */
static int open_and_load(const memwatch_features_t *features, memwatch_attach_mode_t mode,
                         struct memwatch_bpf **ret) {
        __attribute__((cleanup(skel_destroyp))) struct memwatch_bpf *skel = NULL;
        int r;

        assert(features);
        assert(ret);

        skel = memwatch_bpf__open();
        if (!skel)
                return -(errno ? errno : ENOMEM);
        skel->rodata->mark_victim_has_task = features->mark_victim_has_task;

        bpf_program__set_autoload(skel->progs.direct_reclaim_begin, features->direct_reclaim);
        bpf_program__set_autoload(skel->progs.direct_reclaim_end, features->direct_reclaim);
        bpf_program__set_autoload(skel->progs.memcg_reclaim_begin, features->memcg_reclaim);
        bpf_program__set_autoload(skel->progs.memcg_reclaim_end, features->memcg_reclaim);
        bpf_program__set_autoload(skel->progs.oom_mark_victim, features->mark_victim);
        bpf_program__set_autoload(skel->progs.high_throttle_fentry, mode == MEMWATCH_ATTACH_FENTRY);
        bpf_program__set_autoload(skel->progs.high_throttle_fexit, mode == MEMWATCH_ATTACH_FENTRY);
        bpf_program__set_autoload(skel->progs.high_throttle_kprobe, mode == MEMWATCH_ATTACH_KPROBE);
        bpf_program__set_autoload(skel->progs.high_throttle_kretprobe,
                                  mode == MEMWATCH_ATTACH_KPROBE);
        if (mode == MEMWATCH_ATTACH_FENTRY) {
                r = bpf_program__set_attach_target(skel->progs.high_throttle_fentry, 0,
                                                   features->high_function);
                if (r >= 0)
                        r = bpf_program__set_attach_target(skel->progs.high_throttle_fexit, 0,
                                                           features->high_function);
                if (r < 0)
                        return r;
        }

        r = memwatch_bpf__load(skel);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(skel);
        return 0;
}

/* Attaches a begin/end pair (end first, so that no interval starts without its end);
 * on failure neither stays attached. function: the kprobe target, NULL for programs
 * whose section names their target. */
static int attach_pair(struct bpf_program *begin, struct bpf_program *end, const char *function,
                       struct bpf_link **ret_begin, struct bpf_link **ret_end) {
        struct bpf_link *end_link, *begin_link;

        end_link = function ? bpf_program__attach_kprobe(end, true, function)
                            : bpf_program__attach(end);
        if (!end_link)
                return -errno;
        begin_link = function ? bpf_program__attach_kprobe(begin, false, function)
                              : bpf_program__attach(begin);
        if (!begin_link) {
                int r = -errno;
                bpf_link__destroy(end_link);
                return r;
        }
        *ret_begin = begin_link;
        *ret_end = end_link;
        return 0;
}

static void attach_all(memwatch_t *mw, const memwatch_features_t *features,
                       memwatch_attach_mode_t mode) {
        struct memwatch_bpf *s = mw->skel;
        int r;

        if (features->direct_reclaim) {
                r = attach_pair(s->progs.direct_reclaim_begin, s->progs.direct_reclaim_end, NULL,
                                &s->links.direct_reclaim_begin, &s->links.direct_reclaim_end);
                if (r < 0)
                        log_debug_errno(r, "memwatch: attaching the direct reclaim probes: %m");
                else
                        mw->probes |= 1u << MEMWATCH_DIRECT_RECLAIM;
        }
        if (features->memcg_reclaim) {
                r = attach_pair(s->progs.memcg_reclaim_begin, s->progs.memcg_reclaim_end, NULL,
                                &s->links.memcg_reclaim_begin, &s->links.memcg_reclaim_end);
                if (r < 0)
                        log_debug_errno(r, "memwatch: attaching the memcg reclaim probes: %m");
                else
                        mw->probes |= 1u << MEMWATCH_MEMCG_RECLAIM;
        }
        if (mode != MEMWATCH_ATTACH_NONE) {
                bool fentry = mode == MEMWATCH_ATTACH_FENTRY;
                r = attach_pair(
                        fentry ? s->progs.high_throttle_fentry : s->progs.high_throttle_kprobe,
                        fentry ? s->progs.high_throttle_fexit : s->progs.high_throttle_kretprobe,
                        fentry ? NULL : features->high_function,
                        fentry ? &s->links.high_throttle_fentry : &s->links.high_throttle_kprobe,
                        fentry ? &s->links.high_throttle_fexit : &s->links.high_throttle_kretprobe);
                if (r < 0)
                        log_debug_errno(r, "memwatch: attaching %s probes to %s: %m",
                                        memwatch_attach_mode_name(mode), features->high_function);
                else
                        mw->probes |= 1u << MEMWATCH_HIGH_THROTTLE;
        }
        if (features->mark_victim) {
                s->links.oom_mark_victim = bpf_program__attach(s->progs.oom_mark_victim);
                if (!s->links.oom_mark_victim)
                        log_debug_errno(errno, "memwatch: attaching the OOM victim probe: %m");
                else
                        mw->probes |= 1u << MEMWATCH_OOM_KILL;
        }
}

static int on_ring_record(void *ctx, void *data, size_t size) {
        const struct memwatch_raw_event *raw = data;
        memwatch_t *mw = ctx;
        memwatch_event_t event;

        if (size < sizeof(*raw) || raw->kind == 0 || raw->kind >= _MEMWATCH_KIND_MAX) {
                log_debug("memwatch: ignoring a ring buffer record of %zu bytes, kind %u", size,
                          size >= sizeof(*raw) ? raw->kind : 0);
                return 0;
        }
        event = (memwatch_event_t){
                .kind = (memwatch_kind_t)raw->kind,
                .cgroup_id = raw->cgroup_id,
                .watched_id = raw->watched_id,
                .pid = raw->pid,
                .tid = raw->tid,
                .duration_ns = raw->duration_ns,
                .pages = raw->pages,
                .timestamp_ns = raw->timestamp_ns,
        };
        memcpy(event.comm, raw->comm, sizeof(event.comm));
        event.comm[sizeof(event.comm) - 1] = '\0';
        mw->fn(&event, mw->userdata);
        return 0;
}

/* "high_throttle: fentry on __mem_cgroup_handle_over_high" or why it is missing. */
static void describe_high_probe(const memwatch_features_t *features, memwatch_attach_mode_t mode,
                                bool attached, char *buf, size_t size) {
        if (attached)
                snprintf(buf, size, "%s on %s", memwatch_attach_mode_name(mode),
                         features->high_function);
        else if (!features->high_function)
                snprintf(buf, size, "none (no mem_cgroup_handle_over_high in the kernel)");
        else if (mode == MEMWATCH_ATTACH_NONE)
                snprintf(buf, size, "none (neither fentry nor kprobes on this kernel)");
        else
                snprintf(buf, size, "none (%s on %s did not attach)",
                         memwatch_attach_mode_name(mode), features->high_function);
}

int memwatch_new(memwatch_event_fn fn, void *userdata, memwatch_t **ret) {
        _cleanup_memwatch_ memwatch_t *mw = NULL;
        memwatch_features_t features;
        memwatch_attach_mode_t mode;
        char high[160];
        int r;

        assert(fn);
        assert(ret);

        r = memwatch_probe_features(&features);
        if (r < 0)
                return r;
        libbpf_set_print(libbpf_print);

        mw = calloc(1, sizeof(*mw));
        if (!mw)
                return log_error_errno(ENOMEM, "memwatch: allocating: %m");
        mw->fn = fn;
        mw->userdata = userdata;

        /* fentry is tried first where the kernel has BPF trampolines; a kernel may still
         * refuse the target (not traceable), and kprobes remain. */
        for (mode = features.high_mode;;) {
                r = open_and_load(&features, mode, &mw->skel);
                if (r >= 0)
                        break;
                if (r == -EPERM || r == -EACCES)
                        return memwatch_unavailable("loading the probes: %s (needs CAP_BPF and "
                                                    "CAP_PERFMON, or CAP_SYS_ADMIN)",
                                                    strerror(-r));
                if (mode == MEMWATCH_ATTACH_NONE)
                        return memwatch_unavailable("loading the probes: %s", strerror(-r));
                log_debug_errno(r, "memwatch: loading with %s on %s: %m; trying without",
                                memwatch_attach_mode_name(mode), features.high_function);
                mode = mode == MEMWATCH_ATTACH_FENTRY && features.kprobe_available
                               ? MEMWATCH_ATTACH_KPROBE
                               : MEMWATCH_ATTACH_NONE;
        }

        attach_all(mw, &features, mode);
        if (mw->probes == 0)
                return memwatch_unavailable("no probe could be attached (tracepoints "
                                            "vmscan:*reclaim*, oom:mark_victim)");

        mw->ring = ring_buffer__new(bpf_map__fd(mw->skel->maps.events), on_ring_record, mw, NULL);
        if (!mw->ring)
                return memwatch_unavailable("creating the ring buffer reader: %s", strerror(errno));

        describe_high_probe(&features, mode, mw->probes & (1u << MEMWATCH_HIGH_THROTTLE), high,
                            sizeof(high));
        log_info("memwatch: eBPF probes attached: direct_reclaim %s, memcg_reclaim %s, "
                 "oom_kill %s (victim %s), high_throttle %s",
                 mw->probes & (1u << MEMWATCH_DIRECT_RECLAIM) ? "yes" : "no",
                 mw->probes & (1u << MEMWATCH_MEMCG_RECLAIM) ? "yes" : "no",
                 mw->probes & (1u << MEMWATCH_OOM_KILL) ? "yes" : "no",
                 features.mark_victim_has_task ? "task" : "pid only", high);
        *ret = TAKE_PTR(mw);
        return 0;
}

memwatch_t *memwatch_free(memwatch_t *mw) {
        if (!mw)
                return NULL;
        ring_buffer__free(mw->ring);
        if (mw->skel)
                memwatch_bpf__destroy(mw->skel);
        free(mw);
        return NULL;
}

unsigned memwatch_probes(const memwatch_t *mw) {
        assert(mw);
        return mw->probes;
}

int memwatch_watch(memwatch_t *mw, int cg_dirfd, uint64_t *ret_id) {
        struct memwatch_raw_counters zero = {};
        uint64_t id;
        int r;

        assert(mw);
        assert(cg_dirfd >= 0);

        r = memwatch_cgroup_id(cg_dirfd, &id);
        if (r < 0)
                return r;
        r = bpf_map__update_elem(mw->skel->maps.watched, &id, sizeof(id), &zero, sizeof(zero),
                                 BPF_NOEXIST);
        if (r == -E2BIG)
                return log_error_errno(r,
                                       "memwatch: cannot watch cgroup %llu: %d cgroups are "
                                       "watched already, the most there is room for",
                                       (unsigned long long)id, MEMWATCH_MAX_WATCHED);
        if (r < 0 && r != -EEXIST)
                return log_error_errno(r, "memwatch: watching cgroup %llu: %m",
                                       (unsigned long long)id);
        if (ret_id)
                *ret_id = id;
        return 0;
}

int memwatch_unwatch(memwatch_t *mw, uint64_t id) {
        int r;

        assert(mw);

        r = bpf_map__delete_elem(mw->skel->maps.watched, &id, sizeof(id), 0);
        if (r == -ENOENT)
                return log_debug_errno(r, "memwatch: cgroup %llu was not watched",
                                       (unsigned long long)id);
        if (r < 0)
                return log_error_errno(r, "memwatch: unwatching cgroup %llu: %m",
                                       (unsigned long long)id);
        return 0;
}

int memwatch_fd(const memwatch_t *mw) {
        assert(mw);
        return ring_buffer__epoll_fd(mw->ring);
}

int memwatch_consume(memwatch_t *mw) {
        int r;

        assert(mw);

        r = ring_buffer__consume(mw->ring);
        if (r < 0)
                return log_error_errno(r, "memwatch: reading the ring buffer: %m");
        return r;
}

int memwatch_counters(const memwatch_t *mw, uint64_t id, memwatch_counters_t *ret) {
        struct memwatch_raw_counters raw;
        int r;

        assert(mw);
        assert(ret);

        r = bpf_map__lookup_elem(mw->skel->maps.watched, &id, sizeof(id), &raw, sizeof(raw), 0);
        if (r == -ENOENT)
                return log_debug_errno(r, "memwatch: cgroup %llu is not watched",
                                       (unsigned long long)id);
        if (r < 0)
                return log_error_errno(r, "memwatch: reading counters of cgroup %llu: %m",
                                       (unsigned long long)id);
        *ret = (memwatch_counters_t){.dropped = raw.dropped};
        for (size_t k = 0; k < _MEMWATCH_KIND_MAX; k++) {
                ret->events[k] = raw.events[k];
                ret->duration_ns[k] = raw.duration_ns[k];
                ret->pages[k] = raw.pages[k];
        }
        return 0;
}

int memwatch_probe_runtime(const memwatch_t *mw, uint64_t *ret_runs, uint64_t *ret_ns) {
        struct bpf_program *prog;
        uint64_t runs = 0, ns = 0;

        assert(mw);
        assert(ret_runs);
        assert(ret_ns);

        bpf_object__for_each_program(prog, mw->skel->obj) {
                struct bpf_prog_info info = {};
                __u32 len = sizeof(info);
                int fd = bpf_program__fd(prog);

                if (fd < 0) /* not loaded: the kernel lacks its hook */
                        continue;
                if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
                        return log_error_errno(errno, "memwatch: reading statistics of %s: %m",
                                               bpf_program__name(prog));
                runs += info.run_cnt;
                ns += info.run_time_ns;
        }
        *ret_runs = runs;
        *ret_ns = ns;
        return 0;
}
