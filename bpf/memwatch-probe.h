/* SPDX-License-Identifier: Apache-2.0 */
/* What the running kernel offers memwatch.bpf.c, found from its BTF and from which
 * attach mechanisms exist, before the skeleton is loaded. */
#pragma once

#include <stdbool.h>

typedef enum memwatch_attach_mode {
        MEMWATCH_ATTACH_NONE,
        MEMWATCH_ATTACH_FENTRY, /* fentry/fexit: BPF trampolines (BPF_PROG_TYPE_TRACING) */
        MEMWATCH_ATTACH_KPROBE, /* kprobe/kretprobe: the kprobe PMU or tracefs kprobe_events */
} memwatch_attach_mode_t;

typedef struct memwatch_features {
        bool direct_reclaim;       /* vmscan:mm_vmscan_direct_reclaim_begin/_end */
        bool memcg_reclaim;        /* vmscan:mm_vmscan_memcg_reclaim_begin/_end */
        bool mark_victim;          /* oom:mark_victim */
        bool mark_victim_has_task; /* ... with the victim's task_struct as first argument */
        /* mem_cgroup_handle_over_high (up to 6.9) or __mem_cgroup_handle_over_high; NULL
         * when the kernel has neither (inlined, or no memcg). */
        const char *high_function;
        /* The best mode for the high throttling probe; the loader falls back from fentry
         * to kprobe when loading fentry fails. */
        memwatch_attach_mode_t high_mode;
        bool kprobe_available;
} memwatch_features_t;

/* -EOPNOTSUPP (logged once) when the kernel has no BTF. */
int memwatch_probe_features(memwatch_features_t *ret);

const char *memwatch_attach_mode_name(memwatch_attach_mode_t mode);
