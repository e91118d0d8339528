/* SPDX-License-Identifier: Apache-2.0 */
/* POREP_SEAL_COMMIT jobs: their checks on arrival and their proofs' (see job-porep.h). */
#include "daemon/supervisor/job-porep.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "circuits/porep/params-size.h"
#include "circuits/porep/porep-pce.h"
#include "circuits/porep/public-inputs.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/log-journal.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/ids.h"
#include "filecoin/porep/registered-proof.h"
#include "filecoin/vanilla/verify.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "zk/groth16.h"

struct job_porep {
        const struct porep_config *cfg;
        struct bellperson_vk *vk;
        char *vk_path;
        fr_t *inputs; /* a row of n_inputs a partition */
        size_t n_inputs;
};

struct job_porep *job_porep_free(struct job_porep *p) {
        if (!p)
                return NULL;
        bellperson_vk_free(p->vk);
        free(p->vk_path);
        free(p->inputs);
        free(p);
        return NULL;
}

static void c1_output_unref(struct c1_output **c1) {
        c1_output_free(*c1);
}

static int porep_config_of(const Cuzk__V1__SubmitProofRequest *request,
                           const struct porep_config **ret, char *msg, size_t msg_size) {
        const struct porep_config *cfg = NULL;

        if (request->registered_proof < POREP_N_REGISTERED)
                cfg = porep_config_by_id((unsigned)request->registered_proof);
        if (!cfg) {
                snprintf(msg, msg_size,
                         "registered_proof %" PRIu64 ": not a RegisteredSealProof, expected 0 "
                         "to %u",
                         request->registered_proof, POREP_N_REGISTERED - 1);
                return -EINVAL;
        }
        if (cfg->challenges == POREP_CHALLENGES_NON_INTERACTIVE) {
                snprintf(msg, msg_size,
                         "registered_proof %u (%s): non-interactive PoRep is not supported yet; "
                         "cuzkd proves the interactive and synthetic kinds (0 to 14)",
                         cfg->id, cfg->name);
                return -EOPNOTSUPP;
        }
        *ret = cfg;
        return 0;
}

int job_porep_partitions(const Cuzk__V1__SubmitProofRequest *request, unsigned *ret, char *msg,
                         size_t msg_size) {
        const struct porep_config *cfg;
        int r;

        assert(request);
        assert(ret);
        r = porep_config_of(request, &cfg, msg, msg_size);
        if (r < 0)
                return r;
        *ret = cfg->partitions;
        return 0;
}

/*
 * Runs call with the log's latest error captured into msg (the parsers and the vanilla
 * check say what is wrong in one line, naming the field), prefixed by what was checked.
 */
#define CAPTURED(r, msg, msg_size, what, call)                        \
        do {                                                          \
                char _said[768] = "";                                 \
                log_journal_capture(_said, sizeof(_said));            \
                (r) = (call);                                         \
                log_journal_capture(NULL, 0);                         \
                if ((r) < 0)                                          \
                        snprintf((msg), (msg_size), "%s: %s", (what), \
                                 _said[0] ? _said : strerror(-(r)));  \
        } while (0)

/* The C1 output, bare or in Curio's envelope: the spool's file at path (a reloaded job), or
 * the request's vanilla_proof in memory (path NULL: checked before anything is spooled). */
static int load_c1(const Cuzk__V1__SubmitProofRequest *request, const char *path,
                   struct c1_output **ret, struct c1_envelope_info *ret_env,
                   uint64_t *ret_file_bytes, char *msg, size_t msg_size) {
        struct bellperson_map map = {0};
        int r;

        if (!path) {
                CAPTURED(r, msg, msg_size, "vanilla_proof is not a C1 output",
                         c1_parse_any((const char *)request->vanilla_proof.data,
                                      request->vanilla_proof.len, "vanilla_proof", ret, ret_env));
                *ret_file_bytes = request->vanilla_proof.len;
                return r;
        }
        CAPTURED(r, msg, msg_size, "vanilla_proof", bellperson_map_file(path, &map));
        if (r < 0)
                return r;
        CAPTURED(r, msg, msg_size, "vanilla_proof is not a C1 output",
                 c1_parse_any((const char *)map.data, map.size, "vanilla_proof", ret, ret_env));
        *ret_file_bytes = map.size;
        bellperson_unmap_file(&map);
        return r;
}

/* The request's registered proof, sector size and number against the C1 output's own. */
static int check_claims(const Cuzk__V1__SubmitProofRequest *request, const struct c1_output *c1,
                        const struct c1_envelope_info *env, char *msg, size_t msg_size) {
        const struct porep_config *cfg = c1->cfg;

        if (request->registered_proof != cfg->id) {
                snprintf(msg, msg_size,
                         "registered_proof %" PRIu64 ", but the C1 output in vanilla_proof is "
                         "%s (%u)",
                         request->registered_proof, cfg->name, cfg->id);
                return -EINVAL;
        }
        /* proto3 cannot tell 0 from unset: 0 claims nothing. */
        if (request->sector_size != 0 && request->sector_size != cfg->sector_bytes) {
                snprintf(msg, msg_size,
                         "sector_size %" PRIu64 ", expected %" PRIu64 " for %s (or 0)",
                         request->sector_size, cfg->sector_bytes, cfg->name);
                return -EINVAL;
        }
        if (env->present && request->sector_number != 0 &&
            env->sector_num != request->sector_number) {
                snprintf(msg, msg_size,
                         "sector_number %" PRIu64 ", but vanilla_proof's envelope says "
                         "SectorNum %" PRIu64,
                         request->sector_number, env->sector_num);
                return -EINVAL;
        }
        return 0;
}

/* replica_id binds the seal to the miner's sector: the verifier derives it from miner_id
 * and sector_number (seal.rs verify_seal), so a C1 of another sector could never verify. */
static int check_replica_id(const Cuzk__V1__SubmitProofRequest *request, const struct c1_output *c1,
                            const struct c1_envelope_info *env, char *msg, size_t msg_size) {
        uint8_t prover_id[POREP_PROVER_ID_BYTES], porep_id[POREP_ID_BYTES], replica_id[32];
        uint64_t sector = request->sector_number;

        if (request->miner_id == 0) /* unset: nothing to compare with */
                return 0;
        if (sector == 0 && env->present)
                sector = env->sector_num;
        (void)porep_prover_id_from_miner(request->miner_id, prover_id);
        porep_id_bytes(c1->cfg, porep_id);
        porep_replica_id(prover_id, sector, c1->ticket, c1->comm_d, porep_id, replica_id);
        if (memcmp(replica_id, c1->replica_id, sizeof(replica_id)) != 0) {
                snprintf(msg, msg_size,
                         "vanilla_proof: the C1 output's replica_id is not that of miner f0%" PRIu64
                         " sector %" PRIu64
                         " (from its ticket and comm_d): sealed for another miner or sector",
                         request->miner_id, sector);
                return -EINVAL;
        }
        return 0;
}

/* Walks a .params file's section counts (without decoding a point): a file shorter than its
 * counts say is truncated. */
static int check_params_file(const char *path, const char *cache, const struct porep_config *cfg,
                             char *msg, size_t msg_size) {
        _cleanup_(bellperson_unmap_file) struct bellperson_map map = {0};
        struct bellperson_params_layout layout;
        struct groth16_circuit_counts counts;
        char expected[64] = "a file in bellperson's layout";
        uint64_t vk_bytes;
        int r;

        if (porep_circuit_counts(cfg, &counts) == 0)
                snprintf(expected, sizeof(expected), "%" PRIu64 " bytes",
                         groth16_circuit_params_bytes(&counts));

        CAPTURED(r, msg, msg_size, "parameters", bellperson_map_file(path, &map));
        if (r < 0) {
                snprintf(msg, msg_size,
                         "%s: %s: the parameters of %s (%s), expected in ParameterCache=%s", path,
                         strerror(-r), cfg->name, expected, cache);
                return r;
        }
        CAPTURED(r, msg, msg_size, "parameters",
                 bellperson_vk_measure(map.data, map.size, path, &vk_bytes));
        if (r < 0)
                return r;
        r = bellperson_params_walk_image(map.data, map.size, vk_bytes, &layout);
        /* Bytes after the last section are not judged here; a file cut short is refused,
         * naming the first section it ends before (or, cut in the last, the size its counts
         * need). */
        if (r < 0 && layout.n_sections < BELLPERSON_PARAMS_SECTIONS)
                snprintf(msg, msg_size,
                         "%s: truncated: %zu bytes, it ends before its %s section (the "
                         "parameters of %s: %s)",
                         path, map.size, bellperson_params_section_name(layout.n_sections),
                         cfg->name, expected);
        else if (r < 0)
                snprintf(msg, msg_size,
                         "%s: truncated: %zu bytes, its sections' counts need %" PRIu64
                         " (the parameters of %s: %s)",
                         path, map.size, layout.end, cfg->name, expected);
        return r;
}

/* The network's file names in the parameter cache, the .vk loaded. */
static int load_parameters(struct job *job, const struct porep_config *cfg, const char *cache,
                           char *msg, size_t msg_size) {
        struct job_porep *p = job->porep;
        char params[POREP_PCE_PATH_MAX], vk[POREP_PCE_PATH_MAX];
        int r;

        if (porep_params_file_path(cfg, cache, ".params", params, sizeof(params)) < 0 ||
            porep_params_file_path(cfg, cache, ".vk", vk, sizeof(vk)) < 0) {
                snprintf(msg, msg_size, "ParameterCache=%s: the path is too long", cache);
                return -ENAMETOOLONG;
        }
        job->params_path = strdup(params);
        p->vk_path = strdup(vk);
        if (!job->params_path || !p->vk_path) {
                snprintf(msg, msg_size, "out of memory naming the parameter files");
                return -ENOMEM;
        }
        r = check_params_file(job->params_path, cache, cfg, msg, msg_size);
        if (r < 0)
                return r;
        if (access(p->vk_path, R_OK) < 0) {
                r = -errno;
                snprintf(msg, msg_size,
                         "%s: %s: the verifying key of %s, expected in ParameterCache=%s",
                         p->vk_path, strerror(-r), cfg->name, cache);
                return r;
        }
        CAPTURED(r, msg, msg_size, "verifying key", bellperson_vk_load(p->vk_path, &p->vk));
        if (r < 0)
                return r;
        p->n_inputs = porep_public_input_count(cfg);
        if (p->vk->vk.n_public != p->n_inputs) {
                snprintf(msg, msg_size, "%s: %zu public inputs, %s's circuit has %zu", p->vk_path,
                         (size_t)p->vk->vk.n_public, cfg->name, p->n_inputs);
                return -EINVAL;
        }
        if (p->vk->timing_only)
                log_warning("%s is a timing-only key: job %s's proofs cannot be verified",
                            p->vk_path, job->id);
        return 0;
}

static double seconds_now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The PCE of cfg's size in dir, built and saved there on first use (about a second for
 * 2 KiB, minutes for 32 GiB: said in the log and the unit's status line meanwhile). */
static int pce_cached(const struct porep_config *cfg, const char *dir, char **ret_path, char *msg,
                      size_t msg_size) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        char path[POREP_PCE_PATH_MAX];
        double t0;
        int r;

        if (porep_pce_path(cfg, dir, path) < 0) {
                snprintf(msg, msg_size, "PceCache=%s: the path is too long", dir);
                return -ENAMETOOLONG;
        }
        if (access(path, F_OK) < 0) {
                if (mkdir(dir, 0750) < 0 && errno != EEXIST) {
                        r = -errno;
                        snprintf(msg, msg_size, "PceCache=%s: cannot create it: %s", dir,
                                 strerror(-r));
                        return r;
                }
                log_info("%s: no PCE of %s yet: recording its circuit's shape (first use; "
                         "about a second for 2 KiB, minutes for 32 GiB)",
                         path, cfg->name);
                (void)sd_notifyf(false, "STATUS=Building the PCE of %s in %s", cfg->name, dir);
                t0 = seconds_now();
                CAPTURED(r, msg, msg_size, "PCE", porep_pce_open(cfg, dir, &pce, NULL));
                if (r < 0)
                        return r;
                log_info("%s: the PCE of %s built in %.1f s (%" PRIu32 " constraints, %" PRIu32
                         " wires)",
                         path, cfg->name, seconds_now() - t0, pce->n_rows, pce->n_cols);
                (void)sd_notifyf(false, "STATUS=PCE of %s built; admitting jobs", cfg->name);
        }
        *ret_path = strdup(path);
        return *ret_path ? 0 : -ENOMEM;
}

/* Every partition's public inputs, as the verifier derives them from the C1's commitments. */
static int derive_public_inputs(struct job_porep *p, const struct c1_output *c1, char *msg,
                                size_t msg_size) {
        int r = 0;

        p->inputs = calloc((size_t)c1->n_partitions * p->n_inputs, sizeof(fr_t));
        if (!p->inputs)
                return -ENOMEM;
        for (unsigned k = 0; r >= 0 && k < c1->n_partitions; k++)
                CAPTURED(r, msg, msg_size, "public inputs",
                         porep_public_inputs(c1->cfg, c1->replica_id, c1->comm_d, c1->comm_r,
                                             c1->seed, k, p->inputs + k * p->n_inputs));
        return r;
}

/* The C1 output's checks: the request's claims, the replica id, every vanilla proof. */
static int check_c1(const Cuzk__V1__SubmitProofRequest *request, const char *c1_path,
                    struct c1_output **ret, uint64_t *ret_file_bytes, char *msg, size_t msg_size) {
        _cleanup_(c1_output_unref) struct c1_output *c1 = NULL;
        struct c1_envelope_info env = {0};
        int r;

        if (c1_path && !*c1_path)
                c1_path = NULL;
        if (!c1_path && request->vanilla_proof.len == 0) {
                snprintf(msg, msg_size,
                         "vanilla_proof is required: Curio's envelope "
                         "{\"SectorNum\",\"Phase1Out\",\"SectorSize\"} or a C1 output JSON");
                return -EINVAL;
        }
        r = load_c1(request, c1_path, &c1, &env, ret_file_bytes, msg, msg_size);
        if (r >= 0)
                r = check_claims(request, c1, &env, msg, msg_size);
        if (r >= 0)
                r = check_replica_id(request, c1, &env, msg, msg_size);
        if (r < 0)
                return r;
        CAPTURED(r, msg, msg_size, "the vanilla proofs fail the native check",
                 vanilla_verify(c1, "vanilla_proof"));
        if (r < 0)
                return r;
        *ret = TAKE_PTR(c1);
        return 0;
}

int job_porep_inputs(struct job *job, const Cuzk__V1__SubmitProofRequest *request,
                     const char *c1_path, const struct job_settings *settings, char *msg,
                     size_t msg_size) {
        _cleanup_(c1_output_unref) struct c1_output *c1 = NULL;
        uint64_t c1_bytes = 0;
        int r;

        assert(job);
        assert(request);
        assert(settings);
        job->porep = calloc(1, sizeof(*job->porep));
        if (!job->porep)
                return -ENOMEM;
        r = check_c1(request, c1_path, &c1, &c1_bytes, msg, msg_size);
        if (r < 0)
                return r;
        job->porep->cfg = c1->cfg;
        if (c1->synthetic_c1)
                log_warning("job %s: a synthetic C1 output (cuzk porep synth-c1), not a sealed "
                            "sector: its proof proves nothing about any sector",
                            job->id);
        r = load_parameters(job, c1->cfg, settings->parameter_cache, msg, msg_size);
        if (r >= 0)
                r = derive_public_inputs(job->porep, c1, msg, msg_size);
        if (r >= 0)
                r = pce_cached(c1->cfg, settings->pce_cache, &job->pce_path, msg, msg_size);
        if (r >= 0)
                r = job_shape_pce(job->pce_path, job->params_path, settings->prover_threads,
                                  &job->shape, msg, msg_size);
        if (r < 0)
                return r;
        /* The worker holds the C1 (its text and the parsed output, each smaller than the
         * file) and, for the full form, the constraint system's copy of the witness besides
         * what the partition's figure counts; for the compact form, the witness it
         * synthesizes in that form alone. */
        job->shape.rest_bytes += 2 * c1_bytes + job->shape.n_vars * sizeof(fr_t);
        job_shape_compact_synthesized(&job->shape);
        job->shape.compact_abc_bytes += 2 * c1_bytes;
        /* Checked from memory: the spool names its file (job_set_input_path). */
        if (c1_path && *c1_path && !(job->c1_path = strdup(c1_path)))
                return -ENOMEM;
        job->inputs.kind = JOB_POREP_C2;
        job->inputs.pce_path = job->pce_path;
        job->inputs.params_path = job->params_path;
        job->inputs.c1_path = job->c1_path;
        return 0;
}

int job_porep_verify(const struct job *job, unsigned k, const uint8_t *proof, size_t size,
                     char *msg, size_t msg_size) {
        const struct job_porep *p;
        struct groth16_proof decoded;
        int r;

        assert(job);
        assert(job->porep);
        assert(k < job->inputs.partitions);
        p = job->porep;
        if (p->vk->timing_only)
                return 0;
        r = filecoin_proof_decode(proof, size, job->id, &decoded);
        if (r >= 0)
                r = groth16_verify(&p->vk->vk, p->inputs + k * p->n_inputs, &decoded);
        if (r == 1)
                return 0;
        snprintf(msg, msg_size,
                 "partition %u: the proof does not verify against %s with the public inputs of "
                 "the C1 output%s%s",
                 k, p->vk_path, r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
        return -EBADMSG;
}

static const struct {
        const char *suffix;
        uint64_t sector_bytes;
} porep_circuit_sizes[] = {
        {"2k", UINT64_C(2) << 10},   {"8m", UINT64_C(8) << 20},   {"512m", UINT64_C(512) << 20},
        {"32g", UINT64_C(32) << 30}, {"64g", UINT64_C(64) << 30},
};

#define POREP_CIRCUIT_PREFIX "porep-"

bool job_porep_is_circuit_alias(const char *circuit_id) {
        assert(circuit_id);
        return strncmp(circuit_id, POREP_CIRCUIT_PREFIX, strlen(POREP_CIRCUIT_PREFIX)) == 0;
}

/* The PCE+PARAMS of cfg's size, without building anything. */
static int size_circuit_id(const struct porep_config *cfg, const struct job_settings *settings,
                           char *ret, size_t size, char *pce, size_t pce_size) {
        char params[POREP_PCE_PATH_MAX];

        if (pce_size < POREP_PCE_PATH_MAX || porep_pce_path(cfg, settings->pce_cache, pce) < 0 ||
            porep_params_file_path(cfg, settings->parameter_cache, ".params", params,
                                   sizeof(params)) < 0)
                return -ENAMETOOLONG;
        if ((size_t)snprintf(ret, size, "%s+%s", pce, params) >= size)
                return -ENAMETOOLONG;
        return 0;
}

int job_porep_circuit_id(const char *alias, const struct job_settings *settings, bool build,
                         char *ret, size_t size, char *msg, size_t msg_size) {
        const char *suffix = alias + strlen(POREP_CIRCUIT_PREFIX);
        const struct porep_config *cfg = NULL;
        char pce[POREP_PCE_PATH_MAX];
        _cleanup_free_ char *built = NULL;
        int r;

        assert(job_porep_is_circuit_alias(alias));
        assert(settings && ret && msg);
        for (size_t i = 0; i < ELEMENTSOF(porep_circuit_sizes); i++)
                if (!strcmp(suffix, porep_circuit_sizes[i].suffix))
                        cfg = porep_config_by_sector_bytes(porep_circuit_sizes[i].sector_bytes);
        if (!cfg) {
                snprintf(msg, msg_size,
                         "circuit %s: not a PoRep circuit id, expected porep-2k, porep-8m, "
                         "porep-512m, porep-32g or porep-64g",
                         alias);
                return -EINVAL;
        }
        r = size_circuit_id(cfg, settings, ret, size, pce, sizeof(pce));
        if (r < 0) {
                snprintf(msg, msg_size, "circuit %s: a path is too long", alias);
                return r;
        }
        if (build)
                r = pce_cached(cfg, settings->pce_cache, &built, msg, msg_size);
        return r;
}

int job_porep_circuit_alias(const char *circuit_id, const struct job_settings *settings, char *ret,
                            size_t size) {
        char id[2 * POREP_PCE_PATH_MAX], pce[POREP_PCE_PATH_MAX];

        assert(circuit_id && settings && ret);
        for (size_t i = 0; i < ELEMENTSOF(porep_circuit_sizes); i++) {
                const struct porep_config *cfg =
                        porep_config_by_sector_bytes(porep_circuit_sizes[i].sector_bytes);

                if (cfg && size_circuit_id(cfg, settings, id, sizeof(id), pce, sizeof(pce)) >= 0 &&
                    !strcmp(id, circuit_id)) {
                        snprintf(ret, size, POREP_CIRCUIT_PREFIX "%s",
                                 porep_circuit_sizes[i].suffix);
                        return 1;
                }
        }
        return 0;
}
