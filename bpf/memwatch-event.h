/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What memwatch.bpf.c and its loader (memwatch.c) exchange: the ring buffer
 * record and the per-cgroup counters kept in the map of watched cgroups.
 * Included by the BPF program (types from vmlinux.h) and by user space
 * (types from linux/types.h), so it holds plain fixed-size fields only.
 */
#pragma once

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Event kinds; also the index of the per-kind counters. 0 is unused so that a zeroed
 * record is recognisably invalid. */
#define MEMWATCH_RAW_DIRECT_RECLAIM 1 /* vmscan:mm_vmscan_direct_reclaim_begin/end */
#define MEMWATCH_RAW_MEMCG_RECLAIM 2  /* vmscan:mm_vmscan_memcg_reclaim_begin/end */
#define MEMWATCH_RAW_HIGH_THROTTLE 3  /* (__)mem_cgroup_handle_over_high entry/exit */
#define MEMWATCH_RAW_OOM_KILL 4       /* oom:mark_victim */
#define MEMWATCH_RAW_KINDS 5

/* How many cgroups may be watched at once (map size). */
#define MEMWATCH_MAX_WATCHED 1024
/* How many levels above a task's memory cgroup are searched for a watched one, so that
 * watching a parent (synth/) covers the workers below it. */
#define MEMWATCH_MAX_DEPTH 8

struct memwatch_raw_event {
        __u64 timestamp_ns; /* bpf_ktime_get_ns() at the end of the interval */
        __u64 cgroup_id;    /* the memory cgroup of the task (v1 or v2 directory inode) */
        __u64 watched_id;   /* the watched cgroup it lies in (itself or an ancestor) */
        __u64 duration_ns;  /* begin to end; 0 for OOM kills */
        __u64 pages;        /* reclaimed / over high at entry / the victim's total_vm */
        __u32 kind;         /* MEMWATCH_RAW_* */
        __u32 pid;          /* thread group id (the victim's for OOM kills) */
        __u32 tid;
        __u32 reserved;
        char comm[16];
};

/* The value of each watched cgroup's map entry, updated atomically by the programs. */
struct memwatch_raw_counters {
        __u64 events[MEMWATCH_RAW_KINDS];
        __u64 duration_ns[MEMWATCH_RAW_KINDS];
        __u64 pages[MEMWATCH_RAW_KINDS];
        __u64 dropped; /* events counted here but lost because the ring buffer was full */
};
