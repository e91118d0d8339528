/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk-bench's command line: the reference's global options and `batch` flags,
 * plus the flags of cuzk's own job types. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "common/hex.h"
#include "common/parse-number.h"
#include "cuzk-bench.h"
#include "job-input-options.h"
#include "api/api-server.h"

static const char usage[] =
        "Usage: cuzk-bench [OPTIONS] batch --type TYPE [BATCH OPTIONS]\n"
        "\n"
        "Runs COUNT identical proofs through cuzkd, CONCURRENCY of them in flight, and\n"
        "reports a line per proof, wall and prove times, throughput and the daemon's\n"
        "peak memory.\n"
        "\n"
        "Options:\n"
        "  -s, --socket=PATH       cuzkd's unix socket (default $CUZK_SOCKET or\n"
        "                          " API_DEFAULT_SOCKET_PATH ")\n"
        "  -a, --addr=ADDR         unix:///PATH, or http://HOST:PORT for TCP\n"
        "      --log-level=LEVEL   error, warning, info (default) or debug\n"
        "  -h, --help              this help\n"
        "\n"
        "Batch options:\n"
        "  -t, --type=TYPE         snarkjs (groth16), synthetic (synthetic-pce, pce),\n"
        "                          porep, snap, wpost, winning\n"
        "  -c, --count=N           proofs to run (default 3)\n"
        "  -j, --concurrency=N     proofs in flight at once (default 1)\n"
        "      --verify            verify every proof (snarkjs and synthetic); a proof\n"
        "                          that does not verify fails the batch\n"
        "  snarkjs (paths as files here; the daemon is sent absolute paths):\n"
        "      --zkey=PATH         the proving key (.zkey)\n"
        "      --wtns=PATH         the witness (.wtns)\n"
        "  synthetic:\n"
        "      --pce=PATH          the precompiled constraints (cuzk pce synth)\n"
        "      --params=PATH       the bellperson parameters (cuzk setup)\n"
        "      --witness=PATH      the witness (.wtns)\n"
        "      --partitions=N      partitions per proof (default 1)\n"
        "  porep, snap, wpost, winning (the reference daemon's jobs):\n"
        "      --c1=PATH           PoRep: the C1 output JSON, bare or in Curio's envelope\n"
        "                          (sent as it is; registered proof, sector size and\n"
        "                          number from it unless given)\n"
        "      --vanilla=PATH      PoSt/SnapDeals: a JSON array of base64 vanilla proofs\n"
        "                          (or one raw proof)\n"
        "      --registered-proof=N  (default 0; PoRep: the C1's)\n"
        "      --sector-num=N      (default 1; PoRep: the envelope's SectorNum)\n"
        "      --miner-id=N        (default 1000)\n"
        "      --randomness=HEX    (default 32 zero bytes)\n"
        "      --comm-r-old=HEX  --comm-r-new=HEX  --comm-d-new=HEX\n"
        "\n"
        "Exit status: 0 every proof completed (and verified), 1 a proof failed or did not\n"
        "verify or the daemon is unreachable, 2 bad arguments or unreadable files,\n"
        "3 internal error.\n";

/* One line saying what is wrong, and where to look: exit status 2. */
static int bad(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(FILE *err, const char *fmt, ...) {
        va_list ap;

        fputs("cuzk-bench: ", err);
        va_start(ap, fmt);
        vfprintf(err, fmt, ap);
        va_end(ap);
        fputs("\nTry 'cuzk-bench --help'.\n", err);
        return -EINVAL;
}

static int parse_number(FILE *err, const char *option, const char *s, uint64_t min, uint64_t max,
                        uint64_t *ret) {
        char range[64];

        assert(option);
        assert(s);
        if (parse_unsigned_range(s, min, max, 10, ret) < 0) {
                snprintf(range, sizeof(range), "%llu..%llu", (unsigned long long)min,
                         (unsigned long long)max);
                fprintf(err, "cuzk-bench: --%s=%s: expected a number in %s\n", option, s, range);
                fputs("Try 'cuzk-bench --help'.\n", err);
                return -EINVAL;
        }
        return 0;
}

static int parse_type(FILE *err, const char *s, Cuzk__V1__ProofKind *ret) {
        static const struct {
                const char *name;
                Cuzk__V1__ProofKind kind;
        } types[] = {
                {"porep", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT},
                {"porep-c2", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT},
                {"seal-commit", CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT},
                {"snap", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE},
                {"snap-deals", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE},
                {"update", CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE},
                {"wpost", CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION},
                {"window-post", CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION},
                {"windowpost", CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION},
                {"winning", CUZK__V1__PROOF_KIND__WINNING_POST},
                {"winning-post", CUZK__V1__PROOF_KIND__WINNING_POST},
                {"winningpost", CUZK__V1__PROOF_KIND__WINNING_POST},
                {"snarkjs", CUZK__V1__PROOF_KIND__GROTH16_SNARKJS},
                {"groth16", CUZK__V1__PROOF_KIND__GROTH16_SNARKJS},
                {"synthetic", CUZK__V1__PROOF_KIND__SYNTHETIC_PCE},
                {"synthetic-pce", CUZK__V1__PROOF_KIND__SYNTHETIC_PCE},
                {"pce", CUZK__V1__PROOF_KIND__SYNTHETIC_PCE},
        };

        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
                if (!strcasecmp(s, types[i].name)) {
                        *ret = types[i].kind;
                        return 0;
                }
        return bad(err,
                   "--type=%s: unknown proof type; expected snarkjs, synthetic, porep, snap, "
                   "wpost or winning",
                   s);
}

static int parse_log_level(FILE *err, const char *s, int *ret) {
        static const struct {
                const char *name;
                int level;
        } levels[] = {
                {"error", LOG_ERR}, {"warn", LOG_WARNING}, {"warning", LOG_WARNING},
                {"info", LOG_INFO}, {"debug", LOG_DEBUG},  {"trace", LOG_DEBUG},
        };

        for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
                if (!strcasecmp(s, levels[i].name)) {
                        *ret = levels[i].level;
                        return 0;
                }
        return bad(err, "--log-level=%s: expected error, warning, info or debug", s);
}

/* unix:///PATH, http://HOST:PORT, HOST:PORT, [V6]:PORT */
static int parse_addr(FILE *err, const char *s, struct bench_options *o) {
        const char *hostport = s, *colon;
        uint64_t port;
        size_t length;

        if (!strncmp(s, "unix://", 7)) {
                if (!s[7])
                        return bad(err, "--addr=%s: expected unix:///PATH", s);
                o->socket_path = s + 7;
                o->tcp_host[0] = 0;
                return 0;
        }
        if (!strncmp(s, "http://", 7))
                hostport = s + 7;
        colon = strrchr(hostport, ':');
        if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof(o->tcp_host))
                return bad(err, "--addr=%s: expected unix:///PATH or http://HOST:PORT", s);
        if (parse_number(err, "addr", colon + 1, 1, 65535, &port) < 0)
                return -EINVAL;
        length = (size_t)(colon - hostport);
        if (hostport[0] == '[' && colon[-1] == ']') {
                hostport++;
                length -= 2;
        }
        memcpy(o->tcp_host, hostport, length);
        o->tcp_host[length] = 0;
        o->tcp_port = (uint16_t)port;
        return 0;
}

static int check_hex(FILE *err, const char *option, const char *s) {
        uint8_t *bytes;
        size_t n;

        if (hex_decode_alloc(s, &bytes, &n) < 0)
                return bad(err, "--%s=%s: expected hex bytes", option, s);
        free(bytes);
        return 0;
}

enum {
        OPT_LOG_LEVEL = 256,
        OPT_VERIFY,
        OPT_C1,
        OPT_VANILLA,
        OPT_REGISTERED_PROOF,
        OPT_SECTOR_NUM,
        OPT_MINER_ID,
        OPT_RANDOMNESS,
        OPT_COMM_R_OLD,
        OPT_COMM_R_NEW,
        OPT_COMM_D_NEW,
        OPT_ZKEY,
        OPT_WTNS,
        OPT_PCE,
        OPT_PARAMS,
        OPT_WITNESS,
        OPT_PARTITIONS,
};

/* The socket and log options, accepted before and after `batch`. */
static int parse_common(FILE *err, int c, struct bench_options *o) {
        switch (c) {
        case 's':
                o->socket_path = optarg;
                o->tcp_host[0] = 0;
                return 0;
        case 'a':
                return parse_addr(err, optarg, o);
        case OPT_LOG_LEVEL:
                return parse_log_level(err, optarg, &o->log_level);
        default:
                return 1;
        }
}

/* getopt's own complaints are off (opterr = 0): say what was wrong here. */
static int bad_option(FILE *err, int c, char **argv) {
        const char *arg = argv[optind - 1];

        if (c == ':')
                return bad(err, "%s: the option needs a value", arg);
        return bad(err, "%s: unknown option", arg);
}

static const struct option common_options[] = {
        {"socket", required_argument, NULL, 's'},
        {"addr", required_argument, NULL, 'a'},
        {"log-level", required_argument, NULL, OPT_LOG_LEVEL},
        {"help", no_argument, NULL, 'h'},
        {0, 0, 0, 0},
};

static int parse_batch_option(FILE *err, int c, struct bench_options *o) {
        uint64_t v;
        int r;

        switch (c) {
        case 't':
                o->type_name = optarg;
                return parse_type(err, optarg, &o->kind);
        case 'c':
                r = parse_number(err, "count", optarg, 1, BENCH_MAX_COUNT, &v);
                o->count = (unsigned)v;
                return r;
        case 'j':
                r = parse_number(err, "concurrency", optarg, 1, BENCH_MAX_CONCURRENCY, &v);
                o->concurrency = (unsigned)v;
                return r;
        case OPT_PARTITIONS:
                r = parse_number(err, "partitions", optarg, 1, BENCH_MAX_PARTITIONS, &v);
                o->partitions = (unsigned)v;
                return r;
        case OPT_REGISTERED_PROOF:
                o->registered_proof_given = true;
                return parse_number(err, "registered-proof", optarg, 0, UINT64_MAX,
                                    &o->registered_proof);
        case OPT_SECTOR_NUM:
                o->sector_num_given = true;
                return parse_number(err, "sector-num", optarg, 0, UINT64_MAX, &o->sector_num);
        case OPT_MINER_ID:
                return parse_number(err, "miner-id", optarg, 0, UINT64_MAX, &o->miner_id);
        case OPT_VERIFY:
                o->verify = true;
                return 0;
        case OPT_C1:
                o->c1_path = optarg;
                return 0;
        case OPT_VANILLA:
                o->vanilla_path = optarg;
                return 0;
        case OPT_RANDOMNESS:
                o->randomness_hex = optarg;
                return check_hex(err, "randomness", optarg);
        case OPT_COMM_R_OLD:
                o->comm_r_old_hex = optarg;
                return check_hex(err, "comm-r-old", optarg);
        case OPT_COMM_R_NEW:
                o->comm_r_new_hex = optarg;
                return check_hex(err, "comm-r-new", optarg);
        case OPT_COMM_D_NEW:
                o->comm_d_new_hex = optarg;
                return check_hex(err, "comm-d-new", optarg);
        case OPT_ZKEY:
                o->zkey_path = optarg;
                return 0;
        case OPT_WTNS:
                o->wtns_path = optarg;
                return 0;
        case OPT_PCE:
                o->pce_path = optarg;
                return 0;
        case OPT_PARAMS:
                o->params_path = optarg;
                return 0;
        case OPT_WITNESS:
                o->witness_path = optarg;
                return 0;
        default:
                return 1;
        }
}

/* Each job type's required files, and no file of another type. */
static int check_batch(FILE *err, const struct bench_options *o, bool partitions_given) {
        bool snarkjs = o->kind == CUZK__V1__PROOF_KIND__GROTH16_SNARKJS;
        bool synthetic = o->kind == CUZK__V1__PROOF_KIND__SYNTHETIC_PCE;
        bool porep = o->kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        bool reference = !snarkjs && !synthetic;

        if (!o->type_name)
                return bad(err, "batch: --type is required");
        if (snarkjs && (!o->zkey_path || !o->wtns_path))
                return bad(err, "--type=%s: --zkey and --wtns are required", o->type_name);
        if (synthetic && (!o->pce_path || !o->params_path || !o->witness_path))
                return bad(err, "--type=%s: --pce, --params and --witness are required",
                           o->type_name);
        if (porep && !o->c1_path)
                return bad(err, "--type=%s: --c1 is required for PoRep", o->type_name);
        if (reference && !porep && !o->vanilla_path)
                return bad(err, "--type=%s: --vanilla is required for PoSt and SnapDeals",
                           o->type_name);
        if (!snarkjs && (o->zkey_path || o->wtns_path))
                return bad(err, "--zkey and --wtns belong to --type=snarkjs, not %s", o->type_name);
        if (!synthetic && (o->pce_path || o->params_path || o->witness_path || partitions_given))
                return bad(err,
                           "--pce, --params, --witness and --partitions belong to "
                           "--type=synthetic, not %s",
                           o->type_name);
        if (!porep && o->c1_path)
                return bad(err, "--c1 belongs to --type=porep, not %s", o->type_name);
        if ((!reference || porep) && o->vanilla_path)
                return bad(err, "--vanilla belongs to --type=snap, wpost or winning, not %s",
                           o->type_name);
        if (reference && o->verify)
                return bad(err,
                           "--verify: proofs of --type=%s cannot be verified here; use snarkjs or "
                           "synthetic",
                           o->type_name);
        return 0;
}

static int parse_batch(int argc, char **argv, FILE *out, FILE *err, struct bench_options *o) {
        static const struct option options[] = {
                {"socket", required_argument, NULL, 's'},
                {"addr", required_argument, NULL, 'a'},
                {"log-level", required_argument, NULL, OPT_LOG_LEVEL},
                {"help", no_argument, NULL, 'h'},
                {"type", required_argument, NULL, 't'},
                {"count", required_argument, NULL, 'c'},
                {"concurrency", required_argument, NULL, 'j'},
                {"verify", no_argument, NULL, OPT_VERIFY},
                {"c1", required_argument, NULL, OPT_C1},
                {"vanilla", required_argument, NULL, OPT_VANILLA},
                {"sector-num", required_argument, NULL, OPT_SECTOR_NUM},
                JOB_INPUT_LONG_OPTIONS,
                {0, 0, 0, 0},
        };
        bool partitions_given = false;
        int c, r;

        while ((c = getopt_long(argc, argv, ":s:a:ht:c:j:", options, NULL)) >= 0) {
                if (c == 'h') {
                        fputs(usage, out);
                        return 1;
                }
                if (c == '?' || c == ':')
                        return bad_option(err, c, argv);
                partitions_given |= c == OPT_PARTITIONS;
                r = parse_common(err, c, o);
                if (r > 0)
                        r = parse_batch_option(err, c, o);
                if (r < 0)
                        return r;
        }
        if (optind < argc)
                return bad(err, "batch: unexpected argument '%s'", argv[optind]);
        return check_batch(err, o, partitions_given);
}

int bench_parse_args(int argc, char **argv, FILE *out, FILE *err, struct bench_options *ret) {
        struct bench_options o = {
                .log_level = LOG_INFO,
                .count = 3,
                .concurrency = 1,
                .sector_num = 1,
                .miner_id = 1000,
                .partitions = 1,
        };
        int c, r;

        assert(argc >= 1);
        assert(argv);
        assert(out);
        assert(err);
        assert(ret);

        o.socket_path = getenv("CUZK_SOCKET");
        if (!o.socket_path || !o.socket_path[0])
                o.socket_path = API_DEFAULT_SOCKET_PATH;
        optind = 0; /* a fresh scan, also when called more than once (tests) */
        opterr = 0;
        /* '+': stop at the command, whose options follow it; ':': report a
         * missing value as ':' rather than '?'. */
        while ((c = getopt_long(argc, argv, "+:s:a:h", common_options, NULL)) >= 0) {
                if (c == 'h') {
                        fputs(usage, out);
                        return 1;
                }
                if (c == '?' || c == ':')
                        return bad_option(err, c, argv);
                r = parse_common(err, c, &o);
                if (r != 0)
                        return r < 0 ? r : bad_option(err, '?', argv);
        }
        if (optind >= argc)
                return bad(err, "a command is expected: batch");
        if (strcmp(argv[optind], "batch") != 0)
                return bad(err,
                           "unknown command '%s'; cuzk-bench has batch (cuzkctl has status, "
                           "metrics and "
                           "preload)",
                           argv[optind]);
        /* The batch parser scans from argv[0] = "batch". */
        argc -= optind;
        argv += optind;
        optind = 0;
        r = parse_batch(argc, argv, out, err, &o);
        if (r != 0)
                return r;
        *ret = o;
        return 0;
}
