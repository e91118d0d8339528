/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk setup --pce FILE.pce --params OUT.params --vk OUT.vk [--timing-only] [--seed HEX]
 *            [--bellperson-layout] */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/pce-file.h"
#include "circuits/pce-setup.h"
#include "cli.h"
#include "common/cleanup.h"
#include "common/hex.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "zk/groth16_pack.h"
#include "zk/groth16_setup.h"

static const char usage[] =
        "Usage: cuzk setup --pce FILE.pce --params OUT.params --vk OUT.vk\n"
        "                  [--timing-only] [--seed HEX] [--bellperson-layout]\n"
        "\n"
        "Generates a Groth16 key pair for the constraint system FILE.pce in\n"
        "bellperson's convention and writes it as OUT.params and OUT.vk. The toxic\n"
        "waste comes from getrandom(2) and is forgotten when the command exits.\n"
        "\n"
        "  --timing-only  random points with the key's shape and densities, fast:\n"
        "                 for measuring provers only. The files are marked, and\n"
        "                 `cuzk verify` refuses every proof made with them.\n"
        "  --seed HEX     derive the toxic waste from HEX (up to 64 bytes):\n"
        "                 reproducible keys FOR TESTS ONLY; anyone who knows the\n"
        "                 seed can forge proofs.\n"
        "  --bellperson-layout\n"
        "                 store a, b_g1 and b_g2 points only for the wires that A\n"
        "                 and B use, as bellperson's generator does (Filecoin's\n"
        "                 parameters): a smaller file that bellperson reads too.\n"
        "                 `cuzk prove` takes the densities from the circuit.\n"
        "\n"
        "Progress goes to stderr. Exit status: 0 success, 2 bad input, 3 internal\n"
        "error.\n";

#define SEED_MAX_BYTES 64

struct setup_args {
        const char *pce_path, *params_path, *vk_path, *seed_hex;
        bool timing_only, bellperson_layout;
};

static int parse_args(int argc, char **argv, struct setup_args *ret) {
        struct setup_args a = {0};
        const struct cli_option options[] = {
                {"pce", &a.pce_path, NULL, true},
                {"params", &a.params_path, NULL, true},
                {"vk", &a.vk_path, NULL, true},
                {"timing-only", NULL, &a.timing_only, false},
                {"seed", &a.seed_hex, NULL, false},
                {"bellperson-layout", NULL, &a.bellperson_layout, false},
        };
        int r;

        r = cli_parse_options(argc, argv, "setup", options, ELEMENTSOF(options), usage);
        if (r < 0)
                return r;
        if (a.timing_only && a.seed_hex) {
                fputs("cuzk setup: --seed has no meaning with --timing-only\n", stderr);
                return -EINVAL;
        }
        *ret = a;
        return 0;
}

static int parse_seed(const char *hex, uint8_t seed[SEED_MAX_BYTES], size_t *ret_bytes) {
        size_t len, bad;

        if (!strncmp(hex, "0x", 2))
                hex += 2;
        len = strlen(hex);
        if (len == 0 || len % 2 || len / 2 > SEED_MAX_BYTES) {
                fprintf(stderr,
                        "cuzk setup: --seed %s: expected an even number of hex digits, 2 to "
                        "%d\n",
                        hex, 2 * SEED_MAX_BYTES);
                return -EINVAL;
        }
        if (hex_decode(hex, len / 2, seed, &bad) < 0) {
                fprintf(stderr, "cuzk setup: --seed %s: '%.2s' is not a hex byte\n", hex,
                        hex + bad);
                return -EINVAL;
        }
        *ret_bytes = len / 2;
        return 0;
}

struct progress {
        double start;
};

static void print_progress(const char *stage, void *userdata) {
        const struct progress *p = userdata;

        fprintf(stderr, "cuzk setup: %s (%.1f s)\n", stage, cli_now() - p->start);
}

/* The toxic waste, from the seed when there is one. */
static int toxic_waste(const struct setup_args *args, struct groth16_toxic_waste *ret) {
        uint8_t seed[SEED_MAX_BYTES];
        size_t seed_bytes;
        int r;

        if (!args->seed_hex) {
                r = groth16_toxic_waste_random(ret);
                if (r < 0)
                        fprintf(stderr, "cuzk setup: getrandom: %s\n", strerror(-r));
                return r;
        }
        r = parse_seed(args->seed_hex, seed, &seed_bytes);
        if (r < 0)
                return r;
        fputs("cuzk setup: WARNING: toxic waste from --seed: this key is for tests only, "
              "anyone who knows the seed can forge proofs\n",
              stderr);
        groth16_toxic_waste_from_seed(ret, seed, seed_bytes);
        return 0;
}

static int generate(const struct setup_args *args, const struct pce *pce, unsigned threads,
                    struct progress *progress, struct groth16_keys **ret) {
        struct groth16_setup_options options = {
                .threads = threads,
                .progress = print_progress,
                .userdata = progress,
        };
        struct groth16_setup_circuit circuit = {
                .n_vars = pce->n_cols,
                .n_public = pce->n_public,
                .log_domain_size = pce_log_domain_size(pce),
                .a_columns = pce->density[0],
                .b_columns = pce->density[1],
        };
        struct groth16_toxic_waste tw;
        int r;

        if (args->timing_only)
                return groth16_setup_timing_only(&circuit, &options, ret);

        r = toxic_waste(args, &tw);
        if (r < 0)
                return r;
        print_progress("constraint matrices", progress);
        r = pce_groth16_setup(pce, &tw, &options, ret);
        /* Forget the toxic waste. */
        explicit_bzero(&tw, sizeof(tw));
        return r;
}

/* bellperson refuses an IC point at infinity: an input that no row uses. */
static int check_ic(const struct groth16_keys *k, const char *pce_path) {
        for (size_t j = 0; j <= k->vk.n_public; j++)
                if (g1_affine_is_infinity(&k->ic[j])) {
                        fprintf(stderr,
                                "%s: public input %zu appears in no constraint, so its IC point "
                                "is the point at infinity, which the .vk format cannot hold "
                                "(add input rows: cuzk pce from-r1cs does)\n",
                                pce_path, j);
                        return -EINVAL;
                }
        return 0;
}

/* pk with A's and B's points for the wires the circuit's A and B use only. */
struct packed_key {
        struct wire_density *a_density, *b_density;
        struct groth16_packed_arrays arrays;
        struct groth16_pk pk;
};

static void packed_key_free(struct packed_key *p) {
        wire_density_free(p->a_density);
        wire_density_free(p->b_density);
        groth16_packed_arrays_free(&p->arrays);
}

static int pack_key(const struct pce *pce, const struct groth16_pk *pk, struct packed_key *ret) {
        int r;

        if ((r = pce_wire_density(pce, PCE_A, &ret->a_density)) < 0 ||
            (r = pce_wire_density(pce, PCE_B, &ret->b_density)) < 0)
                return r;
        r = groth16_pk_pack(pk, ret->a_density, ret->b_density, &ret->arrays, &ret->pk);
        if (r < 0)
                return r;
        fprintf(stderr,
                "cuzk setup: bellperson layout: a %zu of %zu wires, b_g1 and b_g2 %zu of %zu\n",
                ret->a_density->count, pk->n_vars, ret->b_density->count, pk->n_vars);
        return 0;
}

int cli_setup_keys(const struct cli_setup_request *req, unsigned threads) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(packed_key_free) struct packed_key packed = {0};
        const struct pce *pce = req->pce;
        const struct groth16_pk *pk;
        struct progress progress = {.start = cli_now()};
        struct setup_args args = {.seed_hex = req->seed_hex, .timing_only = req->timing_only};
        int r;

        fprintf(stderr,
                "cuzk setup: %s: %" PRIu32 " rows (domain 2^%u), %" PRIu32 " wires, %" PRIu32
                " public inputs%s\n",
                req->pce_name, pce->n_rows, pce_log_domain_size(pce), pce->n_cols, pce->n_public,
                req->timing_only ? "; timing-only key" : "");

        r = generate(&args, pce, threads, &progress, &k);
        if (r == -EINVAL) {
                fprintf(stderr, "%s: cannot make a key for this constraint system\n",
                        req->pce_name);
                return EXIT_BAD_INPUT;
        }
        if (r < 0) {
                fprintf(stderr, "cuzk setup: %s\n", strerror(-r));
                return cli_exit_for_error(r);
        }
        if (!k->timing_only && check_ic(k, req->pce_name) < 0)
                return EXIT_BAD_INPUT;

        pk = &k->pk;
        if (req->bellperson_layout) {
                r = pack_key(pce, &k->pk, &packed);
                if (r < 0) {
                        fprintf(stderr, "cuzk setup: packing the key: %s\n", strerror(-r));
                        return cli_exit_for_error(r);
                }
                pk = &packed.pk;
        }
        print_progress("writing the key", &progress);
        r = k->timing_only ? bellperson_params_save_timing_only(req->params_path, pk, &k->vk)
                           : bellperson_params_save(req->params_path, pk, &k->vk);
        if (r < 0)
                return cli_exit_for_error(r);
        r = k->timing_only ? bellperson_vk_save_timing_only(req->vk_path, &k->vk, &k->pk.beta1,
                                                            &k->pk.delta1)
                           : bellperson_vk_save(req->vk_path, &k->vk, &k->pk.beta1, &k->pk.delta1);
        if (r < 0)
                return cli_exit_for_error(r);
        print_progress("done", &progress);
        return EXIT_OK;
}

int cmd_setup(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        struct setup_args args;
        int r;

        if (cli_setup_wants_zkey(argc, argv)) /* --r1cs/--zkey: cmd-setup-zkey.c */
                return cmd_setup_zkey(argc, argv, opts);
        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (parse_args(argc, argv, &args) < 0)
                return EXIT_BAD_INPUT;

        r = pce_load(args.pce_path, &pce);
        if (r < 0)
                return cli_exit_for_error(r);
        return cli_setup_keys(
                &(struct cli_setup_request){
                        .pce = pce,
                        .pce_name = args.pce_path,
                        .seed_hex = args.seed_hex,
                        .timing_only = args.timing_only,
                        .bellperson_layout = args.bellperson_layout,
                        .params_path = args.params_path,
                        .vk_path = args.vk_path,
                },
                opts->threads);
}
