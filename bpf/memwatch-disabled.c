/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memwatch in a build without eBPF (-Dbpf=disabled, or clang, bpftool, libbpf or the
 * kernel's BTF missing at build time): the same API, so that cuzkd calls it
 * unconditionally; no memwatch_t can exist, memwatch_new() says why once.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>

#include "bpf/memwatch-internal.h"
#include "bpf/memwatch.h"

int memwatch_new(memwatch_event_fn fn, void *userdata, memwatch_t **ret) {
        assert(fn);
        assert(ret);
        (void)userdata;
        return memwatch_unavailable("cuzk was built without eBPF support (meson -Dbpf: "
                                    "clang, bpftool, libbpf and the build host's BTF)");
}

memwatch_t *memwatch_free(memwatch_t *mw) {
        assert(!mw);
        return NULL;
}

unsigned memwatch_probes(const memwatch_t *mw) {
        assert(mw);
        return 0;
}

int memwatch_watch(memwatch_t *mw, int cg_dirfd, uint64_t *ret_id) {
        assert(mw);
        assert(cg_dirfd >= 0);
        (void)ret_id;
        return -EOPNOTSUPP;
}

int memwatch_unwatch(memwatch_t *mw, uint64_t id) {
        assert(mw);
        (void)id;
        return -EOPNOTSUPP;
}

int memwatch_fd(const memwatch_t *mw) {
        assert(mw);
        return -EOPNOTSUPP;
}

int memwatch_consume(memwatch_t *mw) {
        assert(mw);
        return -EOPNOTSUPP;
}

int memwatch_counters(const memwatch_t *mw, uint64_t id, memwatch_counters_t *ret) {
        assert(mw);
        assert(ret);
        (void)id;
        return -EOPNOTSUPP;
}

int memwatch_probe_runtime(const memwatch_t *mw, uint64_t *ret_runs, uint64_t *ret_ns) {
        assert(mw);
        assert(ret_runs);
        assert(ret_ns);
        return -EOPNOTSUPP;
}
