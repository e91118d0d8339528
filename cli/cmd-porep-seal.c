/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk porep seal | synth-c1: a C1 output from a sealed or a synthetic sector. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-porep.h"
#include "common/cleanup.h"
#include "common/hex.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "filecoin/porep/ids.h"
#include "filecoin/seal/seal.h"
#include "filecoin/seal/synth-c1.h"

/* What seal and synth-c1 both take. */
struct seal_args {
        const char *proof, *out, *envelope, *miner, *sector, *ticket, *seed, *extra;
        const struct porep_config *cfg;
        uint8_t prover_id[32], ticket_bytes[32], seed_bytes[32];
        uint64_t sector_id;
};

static int parse_seal_args(int argc, char **argv, const char *command, const char *extra_name,
                           const char *usage, struct seal_args *a) {
        const struct cli_option options[] = {
                {"registered-proof", &a->proof, NULL, true},
                {"out", &a->out, NULL, true},
                {"envelope", &a->envelope, NULL, false},
                {"miner", &a->miner, NULL, false},
                {"sector", &a->sector, NULL, false},
                {"ticket", &a->ticket, NULL, false},
                {"seed", &a->seed, NULL, false},
                {extra_name, &a->extra, NULL, false},
        };
        uint64_t miner = 1000;
        int r = cli_parse_options(argc, argv, command, options, ELEMENTSOF(options), usage);

        if (r < 0)
                return r;
        r = cli_porep_config(command, a->proof, &a->cfg);
        if (r == 0 && a->miner && porep_parse_miner(a->miner, &miner) < 0) {
                fprintf(stderr,
                        "cuzk porep %s: --miner %s: expected an ID address (t01000) or number\n",
                        command, a->miner);
                r = -EINVAL;
        }
        if (r == 0 && a->sector &&
            parse_unsigned_range(a->sector, 0, UINT64_MAX, 10, &a->sector_id) < 0) {
                fprintf(stderr, "cuzk porep %s: --sector %s: expected a number\n", command,
                        a->sector);
                r = -EINVAL;
        }
        if (r == 0)
                r = porep_prover_id_from_miner(miner, a->prover_id) < 0 ? -EINVAL : 0;
        if (r == 0)
                r = cli_porep_hex32(command, "ticket", a->ticket, a->ticket_bytes);
        if (r == 0)
                r = cli_porep_hex32(command, "seed", a->seed, a->seed_bytes);
        return r;
}

static void print_hex(const char *name, const uint8_t v[32]) {
        printf("%s: ", name);
        for (unsigned i = 0; i < 32; i++)
                printf("%02x", v[i]);
        putchar('\n');
}

static void print_commitments(const struct c1_output *c1) {
        print_hex("comm_d", c1->comm_d);
        print_hex("comm_r", c1->comm_r);
}

static int read_data(const char *path, uint64_t bytes, uint8_t **ret) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        _cleanup_free_ uint8_t *data = NULL;
        struct stat st;

        if (fd < 0 || fstat(fd, &st) < 0)
                return log_error_errno(errno, "%s: %m", path);
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != bytes)
                return log_error_errno(EINVAL, "%s: %lld bytes, expected a regular file of %llu",
                                       path, (long long)st.st_size, (unsigned long long)bytes);
        data = malloc(bytes);
        if (!data)
                return log_error_errno(ENOMEM, "%s: %m", path);
        for (uint64_t done = 0; done < bytes;) {
                ssize_t n = read(fd, data + done, bytes - done);
                if (n <= 0)
                        return log_error_errno(n < 0 ? errno : EIO, "%s: %m", path);
                done += (uint64_t)n;
        }
        *ret = TAKE_PTR(data);
        return 0;
}

static void seal_progress(const char *stage, void *userdata) {
        log_info("%s: %s", (const char *)userdata, stage);
}

int cmd_porep_seal(int argc, char **argv, const struct cli_options *opts) {
        static const char usage[] =
                "Usage: cuzk porep seal --registered-proof NAME --out C1.json [--envelope FILE]\n"
                "       [--miner ID] [--sector N] [--ticket HEX] [--seed HEX] [--data FILE]\n";
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        _cleanup_free_ uint8_t *data = NULL;
        struct seal_args a = {0};
        struct seal_inputs in = {0};
        int r;

        (void)opts;
        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (parse_seal_args(argc, argv, "seal", "data", usage, &a) < 0)
                return EXIT_BAD_INPUT;
        if (a.extra && read_data(a.extra, a.cfg->sector_bytes, &data) < 0)
                return EXIT_BAD_INPUT;
        in = (struct seal_inputs){.cfg = a.cfg,
                                  .sector_id = a.sector_id,
                                  .data = data,
                                  .progress = seal_progress,
                                  .userdata = (void *)a.out};
        memcpy(in.prover_id, a.prover_id, 32);
        memcpy(in.ticket, a.ticket_bytes, 32);
        memcpy(in.seed, a.seed_bytes, 32);
        r = porep_seal(&in, &c1);
        if (r == -EINVAL) {
                fprintf(stderr,
                        "cuzk porep seal: %s: sealing takes 2 KiB, 8 MiB or 512 MiB sectors of "
                        "Fr32-padded data (the top two bits of every 32-byte node clear)\n",
                        a.cfg->name);
                return EXIT_BAD_INPUT;
        }
        if (r < 0 || cli_porep_save_c1(c1, a.sector_id, a.out, a.envelope) < 0)
                return EXIT_INTERNAL;
        print_commitments(c1);
        return EXIT_OK;
}

int cmd_porep_synth_c1(int argc, char **argv, const struct cli_options *opts) {
        static const char usage[] =
                "Usage: cuzk porep synth-c1 --registered-proof NAME --out C1.json [--envelope "
                "FILE]\n"
                "       [--miner ID] [--sector N] [--ticket HEX] [--seed HEX] [--key HEX]\n";
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        struct synth_c1_inputs in = {0};
        struct seal_args a = {0};
        int r;

        (void)opts;
        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (parse_seal_args(argc, argv, "synth-c1", "key", usage, &a) < 0 ||
            cli_porep_hex32("synth-c1", "key", a.extra, in.key) < 0)
                return EXIT_BAD_INPUT;
        in.cfg = a.cfg;
        in.sector_id = a.sector_id;
        memcpy(in.prover_id, a.prover_id, 32);
        memcpy(in.ticket, a.ticket_bytes, 32);
        memcpy(in.seed, a.seed_bytes, 32);
        r = synth_c1_create(&in, &c1);
        if (r == -EOPNOTSUPP) {
                fprintf(stderr,
                        "cuzk porep synth-c1: %s: only interactive PoRep (V1, V1_1) has challenges "
                        "that do not depend on comm_r\n",
                        a.cfg->name);
                return EXIT_BAD_INPUT;
        }
        if (r < 0 || cli_porep_save_c1(c1, a.sector_id, a.out, a.envelope) < 0)
                return EXIT_INTERNAL;
        print_commitments(c1);
        fputs("note: a synthetic C1 (not a sealed sector), for driving and benchmarking the "
              "circuit\n",
              stderr);
        return EXIT_OK;
}
