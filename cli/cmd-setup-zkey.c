/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk setup --r1cs FILE.r1cs --zkey OUT.zkey [--vk OUT.vk.json]: a snarkjs key from toxic waste.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "formats/r1cs.h"
#include "formats/snarkjs-json.h"
#include "formats/zkey-write.h"
#include "zk/groth16_setup.h"

static const char usage[] =
        "Usage: cuzk setup --r1cs FILE.r1cs --zkey OUT.zkey [--vk OUT.vk.json]\n"
        "\n"
        "Writes a snarkjs Groth16 proving key for the circom constraint system\n"
        "FILE.r1cs (BLS12-381) as `snarkjs zkey new` would before any phase-2\n"
        "contribution (delta = gamma = the generators), and with --vk its\n"
        "verification key as `snarkjs zkey export verificationkey` writes it.\n"
        "\n"
        "This is NOT a ceremony: tau, alpha and beta come from getrandom(2) and\n"
        "are forgotten when the command exits, and nobody else can check that.\n"
        "Such keys are for tests and benchmarks only.\n"
        "\n"
        "Progress goes to stderr. Exit status: 0 success, 2 bad input, 3 internal\n"
        "error.\n";

struct setup_zkey_args {
        const char *r1cs_path, *zkey_path, *vk_path;
};

bool cli_setup_wants_zkey(int argc, char **argv) {
        for (int i = 1; i < argc; i++)
                if (!strncmp(argv[i], "--r1cs", 6) || !strncmp(argv[i], "--zkey", 6))
                        return true;
        return false;
}

static int parse_args(int argc, char **argv, struct setup_zkey_args *ret) {
        struct setup_zkey_args a = {0};
        const struct cli_option options[] = {
                {"r1cs", &a.r1cs_path, NULL, true},
                {"zkey", &a.zkey_path, NULL, true},
                {"vk", &a.vk_path, NULL, false},
        };
        int r;

        r = cli_parse_options(argc, argv, "setup", options, ELEMENTSOF(options), usage);
        if (r < 0)
                return r;
        *ret = a;
        return 0;
}

/* Fails early, before the work, where an output cannot be created: opens
 * (and deletes) the temporary file the writer will use. */
static int check_writable(const char *path) {
        _cleanup_(atomic_file_close) struct atomic_file f = {.fd = -EBADF, .dir_fd = -EBADF};
        int r;

        r = atomic_file_open(path, 0644, &f);
        if (r < 0)
                fprintf(stderr, "%s: cannot write here: %s\n", path, strerror(-r));
        return r;
}

struct progress {
        double start;
};

static void print_progress(const char *stage, void *userdata) {
        const struct progress *p = userdata;

        fprintf(stderr, "cuzk setup: %s (%.1f s)\n", stage, cli_now() - p->start);
}

/* tau, alpha, beta from getrandom(2); gamma = delta = 1 as in `zkey new`. */
static int toxic_waste(struct groth16_toxic_waste *ret) {
        int r;

        r = groth16_toxic_waste_random(ret);
        if (r < 0) {
                fprintf(stderr, "cuzk setup: getrandom: %s\n", strerror(-r));
                return r;
        }
        fr_set_one(&ret->gamma);
        fr_set_one(&ret->delta);
        return 0;
}

/* The key pair of the circuit in zk (its coefficients) and cs (its C matrix). */
static int generate(const struct zkey *zk, const struct r1cs *cs, unsigned threads,
                    struct progress *progress, struct groth16_keys **ret) {
        _cleanup_(sparse_freep) struct sparse_matrix a = {0}, b = {0};
        const struct groth16_setup_options options = {
                .threads = threads,
                .progress = print_progress,
                .userdata = progress,
        };
        struct groth16_setup_circuit circuit = {
                .n_vars = zk->n_vars,
                .n_public = zk->n_public,
                .log_domain_size = zk->log2_domain_size,
                .c = &cs->matrices[R1CS_C],
        };
        struct groth16_toxic_waste tw;
        int r;

        /* A with the binding rows and B, exactly as the key's section 4 says. */
        r = zkey_to_groth16_matrices(zk, &a, &b);
        if (r < 0)
                return r;
        circuit.a = &a;
        circuit.b = &b;
        r = toxic_waste(&tw);
        if (r < 0)
                return r;
        r = groth16_setup_snarkjs(&circuit, &tw, &options, ret);
        explicit_bzero(&tw, sizeof(tw));
        return r;
}

static int save_vk(const char *path, const struct zkey *zk) {
        _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
        int r;

        r = snarkjs_vk_from_zkey(zk, &vk);
        if (r < 0)
                return r;
        return snarkjs_vk_save(path, vk);
}

int cmd_setup_zkey(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        struct progress progress = {.start = cli_now()};
        struct setup_zkey_args args;
        int r;

        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (parse_args(argc, argv, &args) < 0)
                return EXIT_BAD_INPUT;
        if (check_writable(args.zkey_path) < 0 ||
            (args.vk_path && check_writable(args.vk_path) < 0))
                return EXIT_BAD_INPUT;

        r = r1cs_load(args.r1cs_path, &cs);
        if (r < 0)
                return cli_exit_for_error(r);
        r = zkey_new_from_r1cs(cs, args.r1cs_path, &zk);
        if (r < 0)
                return cli_exit_for_error(r);
        fputs("cuzk setup: WARNING: toxic waste from getrandom(2), not a ceremony: this key is "
              "for tests and benchmarks only\n",
              stderr);
        fprintf(stderr,
                "cuzk setup: %s: %" PRIu32 " constraints, %" PRIu32 " wires, %" PRIu32
                " public signals, domain 2^%" PRIu32 "\n",
                args.r1cs_path, cs->n_constraints, zk->n_vars, zk->n_public, zk->log2_domain_size);

        r = generate(zk, cs, opts->threads, &progress, &k);
        if (r < 0) {
                fprintf(stderr, "%s: cannot make a key: %s\n", args.r1cs_path, strerror(-r));
                return cli_exit_for_error(r);
        }
        r = zkey_set_keys(zk, &k->pk, &k->vk);
        if (r < 0)
                return cli_exit_for_error(r);
        /* The key's arrays were copied: give their memory back before writing. */
        k = groth16_keys_free(k);

        print_progress("writing the key", &progress);
        r = zkey_save(args.zkey_path, zk, NULL);
        if (r < 0)
                return cli_exit_for_error(r);
        if (args.vk_path) {
                r = save_vk(args.vk_path, zk);
                if (r < 0)
                        return cli_exit_for_error(r);
        }
        print_progress("done", &progress);
        return EXIT_OK;
}
