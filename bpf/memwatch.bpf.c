// SPDX-License-Identifier: GPL-2.0
/*
 * Memory-pressure probes for cuzkd: reclaim, memory.high throttling and OOM
 * kills of tasks whose memory cgroup is (or lies below) a watched cgroup.
 *
 * A task's memory cgroup is its memory css (task->cgroups->subsys[memory_cgrp_id]);
 * its cgroup's kernfs id is the inode number of the cgroup directory, in the v1
 * memory hierarchy on hybrid hosts as well as on v2. User space puts the ids it
 * cares about into `watched`; each probe walks up to MEMWATCH_MAX_DEPTH memcg
 * ancestors, counts into the first watched entry and sends one ring buffer record
 * per interval (begin to end) or per OOM victim.
 *
 * Reclaim is attributed to the task that reclaims: the vmscan tracepoints carry no memcg
 * (on 6.1 and on 6.18 alike). A charge that hits a limit reclaims in the charging task,
 * whose memcg lies in the limited subtree; reclaim run by a write to memory.high,
 * memory.max or memory.reclaim is attributed to the writer's cgroup instead.
 *
 * Tracepoints are attached as raw tracepoints (no tracefs needed). The high
 * throttling probe exists twice, fentry/fexit and kprobe/kretprobe; the loader keeps
 * the pair the kernel accepts and sets the target function's name.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/memwatch-event.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader from the kernel's BTF: oom:mark_victim passes the victim's task_struct
 * (recent kernels, 6.18 here), or only its pid (6.1). With the pid only, the cgroup is the
 * one of the task that ran the OOM killer, which for a memcg OOM is the task whose charge
 * failed, in the same memcg subtree; the record then carries no comm. */
const volatile bool mark_victim_has_task = true;

struct {
        __uint(type, BPF_MAP_TYPE_HASH);
        __uint(max_entries, MEMWATCH_MAX_WATCHED);
        __type(key, __u64);
        __type(value, struct memwatch_raw_counters);
} watched SEC(".maps");

/* An interval in progress, per thread and kind; LRU, so that an end the kernel never
 * reported (a kretprobe missed) cannot fill the map. */
struct interval_start {
        __u64 timestamp_ns;
        __u64 cgroup_id;
        __u64 watched_id;
        __u64 pages;
};

struct {
        __uint(type, BPF_MAP_TYPE_LRU_HASH);
        __uint(max_entries, 16384);
        __type(key, __u64); /* kind << 32 | tid */
        __type(value, struct interval_start);
} starts SEC(".maps");

struct {
        __uint(type, BPF_MAP_TYPE_RINGBUF);
        __uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline struct cgroup_subsys_state *task_memcg_css(struct task_struct *task) {
        int subsys = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
        struct cgroup_subsys_state *css = NULL;
        struct css_set *cgroups;

        if (subsys < 0 || subsys >= CGROUP_SUBSYS_COUNT)
                return NULL;
        cgroups = BPF_CORE_READ(task, cgroups);
        if (!cgroups)
                return NULL;
        bpf_core_read(&css, sizeof(css), &cgroups->subsys[subsys]);
        return css;
}

/* The task's memory cgroup id and the nearest watched cgroup at or above it. */
static __always_inline struct memwatch_raw_counters *
find_watched(struct task_struct *task, __u64 *ret_cgroup_id, __u64 *ret_watched_id) {
        struct cgroup_subsys_state *css = task_memcg_css(task);
        struct memwatch_raw_counters *counters;
        __u64 id;

        if (!css)
                return NULL;
        *ret_cgroup_id = BPF_CORE_READ(css, cgroup, kn, id);
        for (int level = 0; level < MEMWATCH_MAX_DEPTH && css; level++) {
                id = BPF_CORE_READ(css, cgroup, kn, id);
                counters = bpf_map_lookup_elem(&watched, &id);
                if (counters) {
                        *ret_watched_id = id;
                        return counters;
                }
                css = BPF_CORE_READ(css, parent);
        }
        return NULL;
}

static __always_inline void count(struct memwatch_raw_counters *counters, __u32 kind,
                                  __u64 duration_ns, __u64 pages) {
        if (kind >= MEMWATCH_RAW_KINDS)
                return;
        __sync_fetch_and_add(&counters->events[kind], 1);
        __sync_fetch_and_add(&counters->duration_ns[kind], duration_ns);
        __sync_fetch_and_add(&counters->pages[kind], pages);
}

/* victim_pid: 0 to name task, else the pid to name instead (with no comm). */
static __always_inline void emit(struct memwatch_raw_counters *counters, __u32 kind,
                                 struct task_struct *task, __u32 victim_pid, __u64 cgroup_id,
                                 __u64 watched_id, __u64 duration_ns, __u64 pages) {
        struct memwatch_raw_event *e;

        count(counters, kind, duration_ns, pages);
        e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
        if (!e) {
                __sync_fetch_and_add(&counters->dropped, 1);
                return;
        }
        e->timestamp_ns = bpf_ktime_get_ns();
        e->cgroup_id = cgroup_id;
        e->watched_id = watched_id;
        e->duration_ns = duration_ns;
        e->pages = pages;
        e->kind = kind;
        e->reserved = 0;
        if (victim_pid) {
                e->pid = victim_pid;
                e->tid = victim_pid;
                __builtin_memset(e->comm, 0, sizeof(e->comm));
        } else {
                e->pid = BPF_CORE_READ(task, tgid);
                e->tid = BPF_CORE_READ(task, pid);
                BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
        }
        bpf_ringbuf_submit(e, 0);
}

static __always_inline __u64 start_key(__u32 kind) {
        return (__u64)kind << 32 | (__u32)bpf_get_current_pid_tgid();
}

static __always_inline void interval_begin(__u32 kind, __u64 pages) {
        struct task_struct *task = (struct task_struct *)bpf_get_current_task();
        struct interval_start start = {};
        __u64 key = start_key(kind);

        if (!find_watched(task, &start.cgroup_id, &start.watched_id))
                return;
        start.timestamp_ns = bpf_ktime_get_ns();
        start.pages = pages;
        bpf_map_update_elem(&starts, &key, &start, BPF_ANY);
}

/* pages_at_end: the count the end probe reports (reclaimed pages), or ~0 to keep the
 * one recorded at the beginning. */
static __always_inline void interval_end(__u32 kind, __u64 pages_at_end) {
        struct task_struct *task = (struct task_struct *)bpf_get_current_task();
        struct memwatch_raw_counters *counters;
        struct interval_start *start;
        __u64 key = start_key(kind);
        __u64 duration_ns, pages;

        start = bpf_map_lookup_elem(&starts, &key);
        if (!start)
                return;
        duration_ns = bpf_ktime_get_ns() - start->timestamp_ns;
        pages = pages_at_end == ~0ULL ? start->pages : pages_at_end;
        /* The cgroup may have stopped being watched meanwhile: then nothing is counted. */
        counters = bpf_map_lookup_elem(&watched, &start->watched_id);
        if (counters)
                emit(counters, kind, task, 0, start->cgroup_id, start->watched_id, duration_ns,
                     pages);
        bpf_map_delete_elem(&starts, &key);
}

// cppcheck-suppress unknownMacro ; cppcheck does not read bpf_helpers.h (SEC, BPF_PROG)
SEC("raw_tp/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_reclaim_begin) {
        interval_begin(MEMWATCH_RAW_DIRECT_RECLAIM, 0);
        return 0;
}

SEC("raw_tp/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_reclaim_end, unsigned long nr_reclaimed) {
        interval_end(MEMWATCH_RAW_DIRECT_RECLAIM, nr_reclaimed);
        return 0;
}

SEC("raw_tp/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_reclaim_begin) {
        interval_begin(MEMWATCH_RAW_MEMCG_RECLAIM, 0);
        return 0;
}

SEC("raw_tp/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_reclaim_end, unsigned long nr_reclaimed) {
        interval_end(MEMWATCH_RAW_MEMCG_RECLAIM, nr_reclaimed);
        return 0;
}

/* Starts a throttling interval when the current task is over memory.high. Before 6.10
 * mem_cgroup_handle_over_high() runs on every return to user space with
 * TIF_NOTIFY_RESUME (rseq sets it often) and returns at once when the task is not over
 * high; those calls are no throttling. */
static __always_inline void high_throttle_begin(void) {
        struct task_struct *task = (struct task_struct *)bpf_get_current_task();
        __u64 pages = 0;

        if (bpf_core_field_exists(task->memcg_nr_pages_over_high)) {
                pages = BPF_CORE_READ(task, memcg_nr_pages_over_high);
                if (pages == 0)
                        return;
        }
        interval_begin(MEMWATCH_RAW_HIGH_THROTTLE, pages);
}

/* The attach target (mem_cgroup_handle_over_high before 6.10, __mem_cgroup_handle_over_high
 * after) is set by the loader. */
SEC("fentry")
int BPF_PROG(high_throttle_fentry) {
        high_throttle_begin();
        return 0;
}

SEC("fexit")
int BPF_PROG(high_throttle_fexit) {
        interval_end(MEMWATCH_RAW_HIGH_THROTTLE, ~0ULL);
        return 0;
}

SEC("kprobe")
int BPF_KPROBE(high_throttle_kprobe) {
        high_throttle_begin();
        return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(high_throttle_kretprobe) {
        interval_end(MEMWATCH_RAW_HIGH_THROTTLE, ~0ULL);
        return 0;
}

SEC("raw_tp/mark_victim")
int BPF_PROG(oom_mark_victim, __u64 arg0) {
        struct task_struct *victim = (struct task_struct *)bpf_get_current_task();
        struct memwatch_raw_counters *counters;
        __u64 cgroup_id = 0, watched_id = 0;

        __u32 victim_pid = 0;
        __u64 total_vm = 0;

        if (mark_victim_has_task) {
                victim = (struct task_struct *)arg0;
                total_vm = BPF_CORE_READ(victim, mm, total_vm);
        } else {
                victim_pid = (__u32)arg0;
        }
        counters = find_watched(victim, &cgroup_id, &watched_id);
        if (counters)
                emit(counters, MEMWATCH_RAW_OOM_KILL, victim, victim_pid, cgroup_id, watched_id, 0,
                     total_vm);
        return 0;
}
