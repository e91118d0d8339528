/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Feature probing for memwatch: tracepoints and functions are looked up in the kernel's
 * BTF (a raw tracepoint NAME exists when the typedef btf_trace_NAME does), fentry support
 * by loading a probe program, kprobes by the presence of their perf PMU or tracefs file.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf/memwatch-internal.h"
#include "bpf/memwatch-probe.h"
#include "common/log.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

static bool btf_has(const struct btf *btf, const char *name, __u32 kind) {
        return btf__find_by_name_kind(btf, name, kind) > 0;
}

/* The type id behind typedefs and qualifiers. */
static const struct btf_type *btf_resolve(const struct btf *btf, __u32 id) {
        const struct btf_type *t = btf__type_by_id(btf, id);

        while (t && (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t)))
                t = btf__type_by_id(btf, t->type);
        return t;
}

/* Whether oom:mark_victim's prototype is (void *, struct task_struct *, ...): the typedef
 * btf_trace_mark_victim is a pointer to that function prototype. */
static bool mark_victim_passes_task(const struct btf *btf) {
        const struct btf_type *t, *param;
        const struct btf_param *params;
        __s32 id;

        id = btf__find_by_name_kind(btf, "btf_trace_mark_victim", BTF_KIND_TYPEDEF);
        if (id <= 0)
                return false;
        t = btf_resolve(btf, id);
        if (!t || !btf_is_ptr(t))
                return false;
        t = btf_resolve(btf, t->type);
        if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 2)
                return false;
        params = btf_params(t);
        param = btf_resolve(btf, params[1].type);
        if (!param || !btf_is_ptr(param))
                return false;
        param = btf_resolve(btf, param->type);
        return param && btf_is_struct(param) &&
               strcmp(btf__name_by_offset(btf, param->name_off), "task_struct") == 0;
}

static bool kprobes_available(void) {
        return access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0 ||
               access("/sys/kernel/tracing/kprobe_events", F_OK) == 0 ||
               access("/sys/kernel/debug/tracing/kprobe_events", F_OK) == 0;
}

int memwatch_probe_features(memwatch_features_t *ret) {
        struct btf *btf;

        assert(ret);

        if (access(VMLINUX_BTF, R_OK) < 0)
                return memwatch_unavailable("the kernel exposes no BTF (" VMLINUX_BTF ": %s)",
                                            strerror(errno));
        btf = btf__load_vmlinux_btf();
        if (!btf)
                return memwatch_unavailable("cannot read the kernel's BTF (" VMLINUX_BTF ": %s)",
                                            strerror(errno));

        *ret = (memwatch_features_t){
                .direct_reclaim =
                        btf_has(btf, "btf_trace_mm_vmscan_direct_reclaim_begin",
                                BTF_KIND_TYPEDEF) &&
                        btf_has(btf, "btf_trace_mm_vmscan_direct_reclaim_end", BTF_KIND_TYPEDEF),
                .memcg_reclaim =
                        btf_has(btf, "btf_trace_mm_vmscan_memcg_reclaim_begin", BTF_KIND_TYPEDEF) &&
                        btf_has(btf, "btf_trace_mm_vmscan_memcg_reclaim_end", BTF_KIND_TYPEDEF),
                .mark_victim = btf_has(btf, "btf_trace_mark_victim", BTF_KIND_TYPEDEF),
                .mark_victim_has_task = mark_victim_passes_task(btf),
                .kprobe_available = kprobes_available(),
        };
        if (btf_has(btf, "__mem_cgroup_handle_over_high", BTF_KIND_FUNC))
                ret->high_function = "__mem_cgroup_handle_over_high";
        else if (btf_has(btf, "mem_cgroup_handle_over_high", BTF_KIND_FUNC))
                ret->high_function = "mem_cgroup_handle_over_high";
        btf__free(btf);

        if (!ret->high_function)
                ret->high_mode = MEMWATCH_ATTACH_NONE;
        else if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACING, NULL) > 0)
                ret->high_mode = MEMWATCH_ATTACH_FENTRY;
        else if (ret->kprobe_available)
                ret->high_mode = MEMWATCH_ATTACH_KPROBE;
        else
                ret->high_mode = MEMWATCH_ATTACH_NONE;
        return 0;
}

const char *memwatch_attach_mode_name(memwatch_attach_mode_t mode) {
        switch (mode) {
        case MEMWATCH_ATTACH_FENTRY:
                return "fentry";
        case MEMWATCH_ATTACH_KPROBE:
                return "kprobe";
        default:
                return "none";
        }
}
