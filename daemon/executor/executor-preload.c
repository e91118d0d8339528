/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Keys every prover holds (Preload=, PreloadSRS), supervisor side: the list
 * each prover process is sent in order when it is ready (again after a
 * restart), its IPC_KEY_LOADED answers, and evictions (EvictSRS, or the
 * scheduler making room), which every prover hears at once.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cg-memory.h"
#include "cgroup/cg-tree.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor-internal.h"

void executor_preload_progress(struct executor *e) {
        if (e->callbacks.preload_progress)
                e->callbacks.preload_progress(e->userdata);
}

/* The preloads this prover process has not been sent yet, in order. */
void executor_send_preloads(struct prover_slot *p) {
        struct executor *e = p->executor;

        while (p->ready && p->sock >= 0 && p->preloads_sent < e->n_preloads) {
                const struct executor_preload *pre = &e->preloads[p->preloads_sent];
                struct ipc_load_key load;
                int r;

                if (pre->evicted) { /* nothing to load, nothing to wait for */
                        p->preloads_sent++;
                        p->preloads_done++;
                        continue;
                }
                memset(&load, 0, sizeof(load));
                load.kind = pre->kind;
                snprintf(load.key_path, sizeof(load.key_path), "%s", pre->path);
                snprintf(load.circuit_path, sizeof(load.circuit_path), "%s",
                         pre->circuit_path ? pre->circuit_path : "");
                r = ipc_send(p->sock, IPC_LOAD_KEY, &load, sizeof(load), NULL, 0);
                if (r < 0) {
                        /* A full socket: the prover hangs (see executor_prover_relay); else
                         * it is going away, and its successor gets the preloads. */
                        if (r == -EAGAIN)
                                executor_prover_kill_hung(p);
                        return;
                }
                p->preloads_sent++;
        }
}

/* Prover p cannot load the preload of answer's key: once no prover in service can, it is
 * dropped and its circuit's reservation goes (preload_failed). */
static void preload_failed(struct prover_slot *p, const struct ipc_key_loaded *answer) {
        struct executor *e = p->executor;
        char circuit_id[2 * PATH_MAX + 2];

        for (unsigned i = 0; i < e->n_preloads; i++) {
                struct executor_preload *pre = &e->preloads[i];

                if (pre->evicted || strcmp(pre->path, answer->key_path) != 0)
                        continue;
                pre->failed_provers |= UINT32_C(1) << p->index;
                for (unsigned j = 0; j < e->n_provers; j++)
                        if (!e->provers[j].out_of_service &&
                            !(pre->failed_provers & UINT32_C(1) << j))
                                return; /* another prover may still hold it */
                pre->evicted = true;
                e->preload_failures++;
                /* Kept for executor_preload_state (a PreloadSRS call that waits for it). */
                free(pre->failure);
                pre->failure =
                        strdup(answer->message[0] ? answer->message : strerror(-answer->error));
                pre->failure_error = answer->error < 0 ? answer->error : -EIO;
                if (pre->circuit_path)
                        snprintf(circuit_id, sizeof(circuit_id), "%s+%s", pre->circuit_path,
                                 pre->path);
                else
                        snprintf(circuit_id, sizeof(circuit_id), "%s", pre->path);
                log_error("Preload of %s failed on every prover (%s); its reservation goes back "
                          "to the budget",
                          circuit_id,
                          answer->message[0] ? answer->message : strerror(-answer->error));
                if (e->callbacks.preload_failed)
                        e->callbacks.preload_failed(e->userdata, circuit_id,
                                                    answer->message[0] ? answer->message
                                                                       : strerror(-answer->error));
                return;
        }
}

void executor_prover_key_loaded(struct prover_slot *p, struct ipc_key_loaded *answer) {
        struct executor *e = p->executor;
        char label[64];

        answer->key_path[sizeof(answer->key_path) - 1] = 0;
        answer->message[sizeof(answer->message) - 1] = 0;
        if (answer->evicted) {
                if (p->evicts_in_flight > 0)
                        p->evicts_in_flight--;
                p->srs_bytes = answer->srs_bytes;
                log_info("%s: dropped %s (the prover holds %" PRIu64 " bytes of keys)",
                         executor_prover_label(p, label, sizeof(label)), answer->key_path,
                         p->srs_bytes);
                if (p->cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                        (void)cg_memory_set_min(p->cg_fd, p->srs_bytes);
                return;
        }
        if (p->preloads_done >= p->preloads_sent) {
                log_warning("Prover %u answered a preload it was not sent (%s)", p->index,
                            answer->key_path);
                return;
        }
        p->preloads_done++;
        p->srs_bytes = answer->srs_bytes ? answer->srs_bytes : p->srs_bytes;
        executor_prover_label(p, label, sizeof(label));
        if (answer->error < 0) {
                log_error("%s: preloading %s failed: %s", label, answer->key_path,
                          answer->message[0] ? answer->message : strerror(-answer->error));
                preload_failed(p, answer);
        } else {
                if (answer->load_usec)
                        log_info("%s: preloaded %s in %.3f s (the prover holds %" PRIu64
                                 " bytes of keys)",
                                 label, answer->key_path, answer->load_usec / 1e6, p->srs_bytes);
                if (p->evicts_in_flight == 0 && e->callbacks.key_held)
                        e->callbacks.key_held(e->userdata, p->index, (enum job_kind)answer->kind,
                                              answer->key_path, answer->key_host_bytes);
        }
        if (p->cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                (void)cg_memory_set_min(p->cg_fd, p->srs_bytes);
        executor_preload_progress(e);
}

int executor_preload_key(struct executor *e, enum job_kind kind, const char *key_path,
                         const char *circuit_path) {
        struct executor_preload *preloads;
        char *path, *circuit = NULL;

        assert(e);
        assert(key_path);
        if (strlen(key_path) >= PATH_MAX || (circuit_path && strlen(circuit_path) >= PATH_MAX))
                return log_error_errno(ENAMETOOLONG, "Preload of %s: a path is too long", key_path);
        for (unsigned i = 0; i < e->n_preloads; i++)
                if (!e->preloads[i].evicted && e->preloads[i].kind == kind &&
                    !strcmp(e->preloads[i].path, key_path))
                        return 0; /* every prover has it, or will */
        path = strdup(key_path);
        if (circuit_path)
                circuit = strdup(circuit_path);
        preloads = realloc(e->preloads, (e->n_preloads + 1) * sizeof(*preloads));
        if (!path || (circuit_path && !circuit) || !preloads) {
                free(path);
                free(circuit);
                if (preloads)
                        e->preloads = preloads;
                return log_error_errno(ENOMEM, "Out of memory for a preload");
        }
        e->preloads = preloads;
        e->preloads[e->n_preloads++] =
                (struct executor_preload){.kind = kind, .path = path, .circuit_path = circuit};
        for (unsigned i = 0; i < e->n_provers; i++)
                executor_send_preloads(&e->provers[i]);
        return 0;
}

void executor_evict_key(struct executor *e, enum job_kind kind, const char *key_path) {
        struct ipc_load_key evict;

        assert(e);
        assert(key_path);
        if (strlen(key_path) >= sizeof(evict.key_path))
                return;
        for (unsigned i = 0; i < e->n_preloads; i++)
                if (e->preloads[i].kind == kind && !strcmp(e->preloads[i].path, key_path))
                        e->preloads[i].evicted = true;
        memset(&evict, 0, sizeof(evict));
        evict.kind = kind;
        snprintf(evict.key_path, sizeof(evict.key_path), "%s", key_path);
        for (unsigned i = 0; i < e->n_provers; i++) {
                struct prover_slot *p = &e->provers[i];
                int r;

                /* A prover that is not up has no key; one whose socket is full hangs. */
                if (p->sock < 0)
                        continue;
                r = ipc_send(p->sock, IPC_EVICT_KEY, &evict, sizeof(evict), NULL, 0);
                if (r == -EAGAIN)
                        executor_prover_kill_hung(p);
                else if (r >= 0)
                        p->evicts_in_flight++;
        }
        /* A preload that waited for its load is settled now (executor_preload_state). */
        executor_preload_progress(e);
}

int executor_preload_state(const struct executor *e, enum job_kind kind, const char *key_path,
                           char *message, size_t message_size) {
        const struct executor_preload *pre = NULL;
        unsigned index = 0, in_service = 0;

        assert(e && key_path && message);
        /* The latest preload of the key: an older one was evicted or failed before it. */
        for (unsigned i = e->n_preloads; i-- > 0 && !pre;)
                if (e->preloads[i].kind == kind && !strcmp(e->preloads[i].path, key_path))
                        pre = &e->preloads[index = i];
        if (!pre) {
                snprintf(message, message_size, "not preloaded");
                return -ENOENT;
        }
        if (pre->failure) {
                snprintf(message, message_size, "no prover could load it: %s", pre->failure);
                return pre->failure_error;
        }
        if (pre->evicted) {
                snprintf(message, message_size, "evicted before every prover loaded it");
                return -ECANCELED;
        }
        /* Each prover answers its preloads in order: index is answered once it has
         * answered more than index of them. */
        for (unsigned i = 0; i < e->n_provers; i++) {
                const struct prover_slot *p = &e->provers[i];

                if (p->out_of_service)
                        continue;
                in_service++;
                if (!p->ready || p->preloads_done <= index)
                        return 0;
        }
        if (in_service == 0) {
                snprintf(message, message_size, "no prover is in service to load it");
                return -ENODEV;
        }
        return 1;
}

bool executor_preloads_settled(const struct executor *e) {
        assert(e);
        for (unsigned i = 0; i < e->n_provers; i++) {
                const struct prover_slot *p = &e->provers[i];

                if (p->out_of_service)
                        continue;
                if (!p->ready || p->preloads_done < e->n_preloads)
                        return false;
        }
        return true;
}

void executor_preloads_free(struct executor *e) {
        for (unsigned i = 0; i < e->n_preloads; i++) {
                free(e->preloads[i].path);
                free(e->preloads[i].circuit_path);
                free(e->preloads[i].failure);
        }
        free(e->preloads);
        e->preloads = NULL;
        e->n_preloads = 0;
}
