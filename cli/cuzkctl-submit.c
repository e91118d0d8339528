/* SPDX-License-Identifier: Apache-2.0 */
/* cuzkctl submit / prove / await: building a SubmitProofRequest from the
 * command line and printing a job's result. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/hex.h"
#include "common/parse-number.h"
#include "cuzkctl.h"
#include "job-input-options.h"

#define MAX_VANILLA_PROOFS 64
#define MAX_INPUT_FILE_BYTES (1ull << 30)

static const char submit_options_text[] =
        "  -k, --kind=KIND             porep, snap, window-post, winning-post, groth16,\n"
        "                              synthetic-pce (or the ProofKind name)\n"
        "  -r, --request-id=ID         idempotency key: the same id gives the same job\n"
        "  -p, --priority=P            low, normal, high or critical\n"
        "      --sector-size=BYTES     --registered-proof=N  --sector-number=N\n"
        "      --miner-id=N            --partition-index=N\n"
        "      --vanilla-proof=FILE    the vanilla proof (PoRep: the C1 JSON envelope)\n"
        "      --vanilla-proofs=FILE   one of several vanilla proofs (repeat the option)\n"
        "      --randomness=HEX        --comm-r-old=HEX  --comm-r-new=HEX  --comm-d-new=HEX\n"
        "  groth16 (any circuit, snarkjs files; paths as the daemon sees them):\n"
        "      --zkey=PATH  --wtns=PATH, or --wtns-data=FILE to send the witness itself\n"
        "  synthetic-pce:\n"
        "      --pce=PATH  --params=PATH  --witness=PATH  --partitions=N\n";

/* Everything a SubmitProofRequest points to, freed together. */
struct submit_args {
        Cuzk__V1__SubmitProofRequest request;
        ProtobufCBinaryData vanilla_proofs[MAX_VANILLA_PROOFS];
        char *paths[5]; /* resolved zkey, wtns, pce, params, witness */
        uint8_t *buffers[MAX_VANILLA_PROOFS + 6];
        size_t n_buffers;
        const char *proof_out;
};

static void submit_args_done(struct submit_args *a) {
        for (size_t i = 0; i < a->n_buffers; i++)
                free(a->buffers[i]);
        for (size_t i = 0; i < sizeof(a->paths) / sizeof(a->paths[0]); i++)
                free(a->paths[i]);
}

static int read_whole_file(struct submit_args *a, const char *path, ProtobufCBinaryData *ret) {
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        struct stat st;
        uint8_t *data;

        if (!f || fstat(fileno(f), &st) < 0) {
                fprintf(stderr, "cuzkctl: cannot read %s: %s\n", path, strerror(errno));
                return -errno;
        }
        if ((uint64_t)st.st_size > MAX_INPUT_FILE_BYTES) {
                fprintf(stderr, "cuzkctl: %s: %lld bytes, more than the 1 GiB a request takes\n",
                        path, (long long)st.st_size);
                return -EFBIG;
        }
        data = malloc(st.st_size ? (size_t)st.st_size : 1);
        if (!data)
                return -ENOMEM;
        /* Owned by the arguments from here on, freed with them. */
        a->buffers[a->n_buffers++] = data;
        if (fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
                fprintf(stderr, "cuzkctl: cannot read %s: %s\n", path,
                        ferror(f) ? strerror(errno) : "file shrank");
                return -EIO;
        }
        *ret = (ProtobufCBinaryData){(size_t)st.st_size, data};
        return 0;
}

static int parse_hex(struct submit_args *a, const char *option, const char *hex,
                     ProtobufCBinaryData *ret) {
        size_t n, bad;
        uint8_t *data;

        hex = hex_skip_prefix(hex);
        n = strlen(hex);
        if (n % 2) {
                fprintf(stderr, "cuzkctl: --%s: an even number of hex digits expected\n", option);
                return -EINVAL;
        }
        data = malloc(n / 2 + 1);
        if (!data)
                return -ENOMEM;
        if (hex_decode(hex, n / 2, data, &bad) < 0) {
                fprintf(stderr, "cuzkctl: --%s: '%.2s' is not hex\n", option, hex + bad);
                free(data);
                return -EINVAL;
        }
        *ret = (ProtobufCBinaryData){n / 2, data};
        a->buffers[a->n_buffers++] = data;
        return 0;
}

static int parse_u64(const char *option, const char *s, uint64_t max, uint64_t *ret) {
        if (parse_unsigned_range(s, 0, max, 0, ret) < 0) {
                fprintf(stderr, "cuzkctl: --%s=%s: expected a number up to %llu\n", option, s,
                        (unsigned long long)max);
                return -EINVAL;
        }
        return 0;
}

/* The daemon has another working directory: send absolute paths. */
static int resolve_path(const char *option, const char *path, char **slot, char **ret) {
        char *resolved = realpath(path, NULL);

        if (!resolved) {
                fprintf(stderr, "cuzkctl: --%s=%s: %s\n", option, path, strerror(errno));
                return -errno;
        }
        free(*slot);
        *slot = resolved;
        *ret = resolved;
        return 0;
}

static int parse_enum(const ProtobufCEnumDescriptor *d, const char *option, const char *s,
                      const char *const aliases[][2], int *ret) {
        char upper[64];
        const ProtobufCEnumValue *v;
        size_t i;

        for (i = 0; aliases && aliases[i][0]; i++)
                if (!strcasecmp(s, aliases[i][0])) {
                        s = aliases[i][1];
                        break;
                }
        for (i = 0; s[i] && i + 1 < sizeof(upper); i++)
                upper[i] = (char)toupper((unsigned char)s[i]);
        upper[i] = 0;
        v = protobuf_c_enum_descriptor_get_value_by_name(d, upper);
        if (!v || v->value == 0) {
                fprintf(stderr, "cuzkctl: --%s=%s: unknown value; see --help\n", option, s);
                return -EINVAL;
        }
        *ret = v->value;
        return 0;
}

enum {
        OPT_SECTOR_SIZE = 256,
        OPT_REGISTERED_PROOF,
        OPT_SECTOR_NUMBER,
        OPT_MINER_ID,
        OPT_PARTITION_INDEX,
        OPT_VANILLA_PROOF,
        OPT_VANILLA_PROOFS,
        OPT_RANDOMNESS,
        OPT_COMM_R_OLD,
        OPT_COMM_R_NEW,
        OPT_COMM_D_NEW,
        OPT_ZKEY,
        OPT_WTNS,
        OPT_WTNS_DATA,
        OPT_PCE,
        OPT_PARAMS,
        OPT_WITNESS,
        OPT_PARTITIONS,
        OPT_PROOF_OUT,
};

static const struct option submit_long_options[] = {
        {"kind", required_argument, NULL, 'k'},
        {"request-id", required_argument, NULL, 'r'},
        {"priority", required_argument, NULL, 'p'},
        {"sector-size", required_argument, NULL, OPT_SECTOR_SIZE},
        {"sector-number", required_argument, NULL, OPT_SECTOR_NUMBER},
        {"partition-index", required_argument, NULL, OPT_PARTITION_INDEX},
        {"vanilla-proof", required_argument, NULL, OPT_VANILLA_PROOF},
        {"vanilla-proofs", required_argument, NULL, OPT_VANILLA_PROOFS},
        JOB_INPUT_LONG_OPTIONS,
        {"wtns-data", required_argument, NULL, OPT_WTNS_DATA},
        {"proof-out", required_argument, NULL, OPT_PROOF_OUT},
        {"help", no_argument, NULL, 'h'},
        {0, 0, 0, 0},
};

static const char *const submit_kind_aliases[][2] = {
        {"porep", "POREP_SEAL_COMMIT"},
        {"snap", "SNAP_DEALS_UPDATE"},
        {"window-post", "WINDOW_POST_PARTITION"},
        {"winning-post", "WINNING_POST"},
        {"groth16", "GROTH16_SNARKJS"},
        {"synthetic-pce", "SYNTHETIC_PCE"},
        {NULL, NULL},
};

static int add_vanilla_proof(struct submit_args *a, const char *path) {
        Cuzk__V1__SubmitProofRequest *req = &a->request;
        int r;

        if (req->n_vanilla_proofs == MAX_VANILLA_PROOFS) {
                fprintf(stderr, "cuzkctl: at most %d --vanilla-proofs\n", MAX_VANILLA_PROOFS);
                return -E2BIG;
        }
        r = read_whole_file(a, path, &a->vanilla_proofs[req->n_vanilla_proofs]);
        if (r == 0)
                req->n_vanilla_proofs++;
        return r;
}

static int parse_u32(const char *option, const char *s, uint32_t *ret) {
        uint64_t v;
        int r = parse_u64(option, s, UINT32_MAX, &v);

        if (r == 0)
                *ret = (uint32_t)v;
        return r;
}

/* Applies one option getopt_long() returned (other than --help) to the
 * request of "cuzkctl COMMAND"; 0 or negative errno after printing why. */
static int apply_option(int c, char *arg, const char *command, bool with_output,
                        struct submit_args *a) {
        Cuzk__V1__SubmitProofRequest *req = &a->request;
        int value = 0, r;

        switch (c) {
        case 'k':
                r = parse_enum(&cuzk__v1__proof_kind__descriptor, "kind", arg, submit_kind_aliases,
                               &value);
                req->proof_kind = (Cuzk__V1__ProofKind)value;
                return r;
        case 'r':
                req->request_id = arg;
                return 0;
        case 'p':
                r = parse_enum(&cuzk__v1__priority__descriptor, "priority", arg, NULL, &value);
                req->priority = (Cuzk__V1__Priority)value;
                return r;
        case OPT_SECTOR_SIZE:
                return parse_u64("sector-size", arg, UINT64_MAX, &req->sector_size);
        case OPT_REGISTERED_PROOF:
                return parse_u64("registered-proof", arg, UINT64_MAX, &req->registered_proof);
        case OPT_SECTOR_NUMBER:
                return parse_u64("sector-number", arg, UINT64_MAX, &req->sector_number);
        case OPT_MINER_ID:
                return parse_u64("miner-id", arg, UINT64_MAX, &req->miner_id);
        case OPT_PARTITION_INDEX:
                return parse_u32("partition-index", arg, &req->partition_index);
        case OPT_PARTITIONS:
                return parse_u32("partitions", arg, &req->partitions);
        case OPT_VANILLA_PROOF:
                return read_whole_file(a, arg, &req->vanilla_proof);
        case OPT_VANILLA_PROOFS:
                return add_vanilla_proof(a, arg);
        case OPT_RANDOMNESS:
                return parse_hex(a, "randomness", arg, &req->randomness);
        case OPT_COMM_R_OLD:
                return parse_hex(a, "comm-r-old", arg, &req->comm_r_old);
        case OPT_COMM_R_NEW:
                return parse_hex(a, "comm-r-new", arg, &req->comm_r_new);
        case OPT_COMM_D_NEW:
                return parse_hex(a, "comm-d-new", arg, &req->comm_d_new);
        case OPT_ZKEY:
                return resolve_path("zkey", arg, &a->paths[0], &req->zkey_path);
        case OPT_WTNS:
                return resolve_path("wtns", arg, &a->paths[1], &req->wtns_path);
        case OPT_WTNS_DATA:
                return read_whole_file(a, arg, &req->wtns);
        case OPT_PCE:
                return resolve_path("pce", arg, &a->paths[2], &req->pce_path);
        case OPT_PARAMS:
                return resolve_path("params", arg, &a->paths[3], &req->params_path);
        case OPT_WITNESS:
                return resolve_path("witness", arg, &a->paths[4], &req->witness_path);
        case OPT_PROOF_OUT:
                a->proof_out = arg;
                if (!with_output) {
                        fprintf(stderr, "cuzkctl %s: --proof-out belongs to prove\n", command);
                        return -EINVAL;
                }
                return 0;
        default: /* getopt_long() has said what was wrong */
                return -EINVAL;
        }
}

/* Returns 0, -1 after printing help, or CTL_EXIT_USAGE. */
static int parse_submit(int argc, char **argv, const char *text, bool with_output,
                        struct submit_args *a) {
        Cuzk__V1__SubmitProofRequest *req = &a->request;
        int c, r = 0;

        *req = (Cuzk__V1__SubmitProofRequest)CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        req->vanilla_proofs = a->vanilla_proofs;
        while (r == 0 && (c = getopt_long(argc, argv, "k:r:p:h", submit_long_options, NULL)) >= 0) {
                if (c == 'h') {
                        fputs(text, stdout);
                        fputs(submit_options_text, stdout);
                        return -1;
                }
                r = apply_option(c, optarg, argv[0], with_output, a);
        }
        if (r == 0 && optind < argc) {
                fprintf(stderr, "cuzkctl %s: unexpected argument '%s'\n", argv[0], argv[optind]);
                r = -EINVAL;
        }
        if (r == 0 && req->proof_kind == CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED) {
                fprintf(stderr, "cuzkctl %s: --kind is required\n", argv[0]);
                r = -EINVAL;
        }
        if (r < 0) {
                fprintf(stderr, "Try 'cuzkctl %s --help'.\n", argv[0]);
                return CTL_EXIT_USAGE;
        }
        return 0;
}

int ctl_submit(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] = "Usage: cuzkctl submit --kind KIND [OPTIONS]\n"
                                   "Queues a proof and prints its job id, queue position and "
                                   "GPU.\n\nOptions:\n";
        struct submit_args args = {0};
        struct api_client *client = NULL;
        ProtobufCMessage *response = NULL;
        const Cuzk__V1__SubmitProofResponse *s;
        int r;

        r = parse_submit(argc, argv, text, false, &args);
        if (r == 0)
                r = ctl_connect(ctx, &client);
        if (r == 0)
                r = ctl_call(ctx, client, API_METHOD_SUBMIT_PROOF, &args.request.base, 60000,
                             &response);
        if (r == 0) {
                s = (const Cuzk__V1__SubmitProofResponse *)response;
                printf("job: %s\nqueue position: %u\n", s->job_id, s->queue_position);
                if (s->assigned_gpu[0])
                        printf("gpu: %s\n", s->assigned_gpu);
                protobuf_c_message_free_unpacked(response, NULL);
        }
        api_client_free(client);
        submit_args_done(&args);
        return r < 0 ? CTL_EXIT_OK : r;
}

int ctl_prove(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] =
                "Usage: cuzkctl prove --kind KIND [OPTIONS]\n"
                "Submits a proof, waits for it and prints the result (exit status 1 unless\n"
                "it completed).\n\nOptions:\n"
                "      --proof-out=FILE        write the proof bytes there instead of hex\n";
        struct submit_args args = {0};
        Cuzk__V1__ProveRequest request = CUZK__V1__PROVE_REQUEST__INIT;
        struct api_client *client = NULL;
        ProtobufCMessage *response = NULL;
        const Cuzk__V1__ProveResponse *p;
        int r;

        r = parse_submit(argc, argv, text, true, &args);
        if (r == 0)
                r = ctl_connect(ctx, &client);
        request.submit = &args.request;
        if (r == 0)
                r = ctl_call(ctx, client, API_METHOD_PROVE, &request.base, -1, &response);
        if (r == 0) {
                p = (const Cuzk__V1__ProveResponse *)response;
                if (p->result)
                        r = ctl_print_result(stdout, p->result, args.proof_out);
                else {
                        fprintf(stderr, "cuzkctl prove: the daemon sent no result\n");
                        r = CTL_EXIT_FAILED;
                }
                protobuf_c_message_free_unpacked(response, NULL);
        }
        api_client_free(client);
        submit_args_done(&args);
        return r < 0 ? CTL_EXIT_OK : r;
}

int ctl_await(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] =
                "Usage: cuzkctl await [OPTIONS] JOB_ID\n"
                "Waits for a job and prints its result (exit status 1 unless it completed).\n"
                "\nOptions:\n"
                "  -w, --wait=MS           let the daemon wait at most MS ms (default: until "
                "done)\n"
                "      --proof-out=FILE    write the proof bytes there instead of hex\n";
        static const struct option options[] = {
                {"wait", required_argument, NULL, 'w'},
                {"proof-out", required_argument, NULL, OPT_PROOF_OUT},
                {"help", no_argument, NULL, 'h'},
                {0, 0, 0, 0},
        };
        Cuzk__V1__AwaitProofRequest request = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        const char *proof_out = NULL;
        struct api_client *client;
        ProtobufCMessage *response;
        int c, r;

        while ((c = getopt_long(argc, argv, "w:h", options, NULL)) >= 0) {
                switch (c) {
                case 'w':
                        if (parse_u64("wait", optarg, UINT64_MAX, &request.timeout_ms) < 0)
                                return CTL_EXIT_USAGE;
                        break;
                case OPT_PROOF_OUT:
                        proof_out = optarg;
                        break;
                case 'h':
                        fputs(text, stdout);
                        return CTL_EXIT_OK;
                default:
                        fputs("Try 'cuzkctl await --help'.\n", stderr);
                        return CTL_EXIT_USAGE;
                }
        }
        if (optind != argc - 1) {
                fprintf(stderr, "cuzkctl await: expected one JOB_ID.\n%s", text);
                return CTL_EXIT_USAGE;
        }
        request.job_id = argv[optind];
        r = ctl_connect(ctx, &client);
        if (r != CTL_EXIT_OK)
                return r;
        r = ctl_call(ctx, client, API_METHOD_AWAIT_PROOF, &request.base, -1, &response);
        if (r == CTL_EXIT_OK) {
                r = ctl_print_result(stdout, (const Cuzk__V1__AwaitProofResponse *)response,
                                     proof_out);
                protobuf_c_message_free_unpacked(response, NULL);
        }
        api_client_free(client);
        return r;
}
