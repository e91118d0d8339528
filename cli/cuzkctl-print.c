/* SPDX-License-Identifier: Apache-2.0 */
/* How cuzkctl prints the daemon's answers: one fact per line, plain text. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/format-bytes.h"
#include "cuzkctl.h"

static const char *enum_name(const ProtobufCEnumDescriptor *descriptor, int value) {
        const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(descriptor, value);

        return v ? v->name : "?";
}

void ctl_print_status(FILE *f, const Cuzk__V1__GetStatusResponse *s) {
        char a[32], b[32];

        fprintf(f, "uptime: %" PRIu64 " s\n", s->uptime_seconds);
        fprintf(f, "proofs: %" PRIu64 " completed, %" PRIu64 " failed\n", s->total_proofs_completed,
                s->total_proofs_failed);
        format_bytes(a, sizeof(a), s->pinned_memory_bytes);
        format_bytes(b, sizeof(b), s->pinned_memory_limit_bytes);
        fprintf(f, "pinned memory: %s of %s\n", a, b);
        if (s->memory_budget_bytes) {
                format_bytes(a, sizeof(a), s->memory_reserved_bytes);
                format_bytes(b, sizeof(b), s->memory_budget_bytes);
                fprintf(f, "memory budget: %s reserved of %s%s\n", a, b,
                        s->admission_paused ? ", admission paused by memory pressure" : "");
        }
        if (s->memory_enforcement[0])
                fprintf(f, "memory enforcement: %s\n", s->memory_enforcement);
        if (s->stalled_worker_kills || s->stalled_prover_kills)
                fprintf(f,
                        "stalled: %" PRIu64 " worker%s and %" PRIu64 " prover%s killed for "
                        "making no progress, their partitions retried\n",
                        s->stalled_worker_kills, s->stalled_worker_kills == 1 ? "" : "s",
                        s->stalled_prover_kills, s->stalled_prover_kills == 1 ? "" : "s");
        for (size_t i = 0; i < s->n_gpus; i++) {
                const Cuzk__V1__GPUStatus *g = s->gpus[i];
                format_bytes(a, sizeof(a), g->vram_free_bytes);
                format_bytes(b, sizeof(b), g->vram_total_bytes);
                fprintf(f, "gpu %u: %s, %s free of %s, ", g->ordinal, g->name, a, b);
                if (g->current_job_id[0])
                        fprintf(f, "running %s (%s)\n", g->current_job_id, g->current_proof_kind);
                else
                        fprintf(f, "idle\n");
        }
        for (size_t i = 0; i < s->n_provers; i++) {
                const Cuzk__V1__ProverStatus *p = s->provers[i];

                fprintf(f,
                        "prover %u: %s, backend %s, pid %u, %s, %" PRIu64 " proved, %" PRIu64
                        " failed, %u restarts, %u in hand",
                        p->index, p->device, p->backend, p->pid,
                        !p->in_service ? "out of service"
                        : p->ready     ? "ready"
                                       : "starting",
                        p->partitions_proved, p->partitions_failed, p->restarts, p->in_hand);
                if (p->srs_bytes) {
                        format_bytes(a, sizeof(a), p->srs_bytes);
                        fprintf(f, ", keys %s", a);
                }
                if (p->current_job_id[0])
                        fprintf(f, ", running %s", p->current_job_id);
                /* Waiting for work while the daemon had some: the gaps between partitions. */
                fprintf(f, ", idle %.1f s\n", (double)p->idle_usec / 1e6);
        }
        for (size_t i = 0; i < s->n_loaded_srs; i++) {
                const Cuzk__V1__SRSStatus *srs = s->loaded_srs[i];
                format_bytes(a, sizeof(a), srs->size_bytes);
                fprintf(f, "srs %s: %s, %s, %u references\n", srs->circuit_id,
                        enum_name(&cuzk__v1__srsstatus__tier__descriptor, srs->tier), a,
                        srs->ref_count);
        }
        for (size_t i = 0; i < s->n_queues; i++)
                fprintf(f, "queue %s: %u pending, %u in progress\n", s->queues[i]->proof_kind,
                        s->queues[i]->pending, s->queues[i]->in_progress);
}

static int write_file(const char *path, const uint8_t *data, size_t length) {
        FILE *f = fopen(path, "we");
        bool written = f && fwrite(data, 1, length, f) == length && fflush(f) == 0;

        if (f && fclose(f) != 0)
                written = false;
        if (!written) {
                fprintf(stderr, "cuzkctl: cannot write the proof to %s: %s\n", path,
                        strerror(errno));
                return -EIO;
        }
        return 0;
}

int ctl_print_result(FILE *f, const Cuzk__V1__AwaitProofResponse *r, const char *proof_path) {
        fprintf(f, "job: %s\n", r->job_id);
        fprintf(f, "status: %s\n",
                enum_name(&cuzk__v1__await_proof_response__status__descriptor, r->status));
        if (r->error_message[0])
                fprintf(f, "error: %s\n", r->error_message);
        if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
                return CTL_EXIT_FAILED;
        fprintf(f,
                "time: queue %" PRIu64 " ms, srs load %" PRIu64 " ms, synthesis %" PRIu64
                " ms, gpu %" PRIu64 " ms, total %" PRIu64 " ms\n",
                r->queue_wait_ms, r->srs_load_ms, r->synthesis_ms, r->gpu_compute_ms, r->total_ms);
        fprintf(f, "proof bytes: %zu\n", r->proof.len);
        if (proof_path) {
                if (write_file(proof_path, r->proof.data, r->proof.len) < 0)
                        return CTL_EXIT_FAILED;
        } else if (r->proof.len) {
                fputs("proof: ", f);
                for (size_t i = 0; i < r->proof.len; i++)
                        fprintf(f, "%02x", r->proof.data[i]);
                fputc('\n', f);
        }
        if (r->proof_json[0])
                fprintf(f, "proof json: %s\n", r->proof_json);
        if (r->public_json[0])
                fprintf(f, "public json: %s\n", r->public_json);
        return CTL_EXIT_OK;
}
