/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk porep parents (--registered-proof NAME | --sector-size SIZE) [--out DIR]
 *
 * Writes the SDR parent cache of a registered proof under the name and in
 * the directory where rust-fil-proofs looks for it (vanilla/cache.rs
 * cache_path, settings.rs): DIR/v28-sdr-parent-<hex>.cache, with DIR from
 * --out, else $FIL_PROOFS_PARENT_CACHE, else $FIL_PROOFS_CACHE_DIR (default
 * "/var/tmp/") followed by "filecoin-parents", the two joined without a
 * separator as settings.rs joins them. Prints the file, its SHA-256 and
 * whether parent_cache.json lists that digest.
 *
 * The entries go through parent_cache_append() with a progress callback,
 * so that a 32 GiB cache (56 GiB, 20 to 30 minutes on 2 cores) says how
 * far it is.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli-porep-circuit.h"
#include "cli-porep.h"
#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/graph/parent-cache.h"
#include "filecoin/sha256/sha256.h"

/* Seconds between two progress lines (none for caches written faster). */
#define PROGRESS_EVERY_S 5.0

static const char parents_usage[] =
        "Usage: cuzk porep parents (--registered-proof NAME | --sector-size SIZE) [--out DIR]\n"
        "\n"
        "Writes the SDR parent cache of a registered proof as rust-fil-proofs does,\n"
        "DIR/v28-sdr-parent-<hex>.cache, and prints its name, its SHA-256 and\n"
        "whether it matches the digest in rust-fil-proofs' parent_cache.json. DIR\n"
        "defaults to $FIL_PROOFS_PARENT_CACHE, else $FIL_PROOFS_CACHE_DIR (default\n"
        "/var/tmp/) followed by filecoin-parents. SIZE is 2KiB, 8MiB, 512MiB, 32GiB\n"
        "or 64GiB (the V1_1 proof). See cuzk-porep(1).\n";

/* The reference's directory when --out is not given, into buf. */
static int default_dir(char *buf, size_t size) {
        const char *env = getenv("FIL_PROOFS_PARENT_CACHE"), *base;
        int n;

        assert(buf);

        if (env && *env)
                n = snprintf(buf, size, "%s", env);
        else {
                base = getenv("FIL_PROOFS_CACHE_DIR");
                n = snprintf(buf, size, "%sfilecoin-parents", base ? base : "/var/tmp/");
        }
        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* mkdir -p dir (0755 less the umask), as the reference's ensure_parent() does. */
static int make_directories(const char *dir) {
        _cleanup_free_ char *p = NULL;
        struct stat st;

        assert(dir && *dir);

        p = strdup(dir);
        if (!p)
                return -ENOMEM;
        for (char *s = p + 1; *s; s++) {
                if (*s != '/')
                        continue;
                *s = 0;
                if (mkdir(p, 0755) < 0 && errno != EEXIST)
                        return -errno;
                *s = '/';
        }
        if (mkdir(p, 0755) < 0 && errno != EEXIST)
                return -errno;
        if (stat(p, &st) < 0)
                return -errno;
        return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

struct progress {
        double t0, last;
};

static void report_progress(uint64_t done, uint64_t nodes, void *userdata) {
        struct progress *p = userdata;
        double now = cli_now();

        if (now - p->last < PROGRESS_EVERY_S)
                return;
        p->last = now;
        /* Without -v too: a 32 GiB cache takes 20 to 30 minutes on 2 cores. */
        fprintf(stderr, "cuzk porep parents: %" PRIu64 " of %" PRIu64 " nodes (%.0f%%), %.0f s\n",
                done, nodes, 100.0 * (double)done / (double)nodes, now - p->t0);
}

static void hex_lower(const uint8_t *bytes, size_t n, char *out) {
        for (size_t i = 0; i < n; i++)
                snprintf(out + 2 * i, 3, "%02x", bytes[i]);
}

/* The lines of the result; false when parent_cache.json lists another digest. */
static bool print_result(const char *path, const char *name,
                         const uint8_t digest[SHA256_DIGEST_BYTES]) {
        const char *expected = parent_cache_manifest_digest(name);
        char hex[2 * SHA256_DIGEST_BYTES + 1];

        hex_lower(digest, SHA256_DIGEST_BYTES, hex);
        printf("file: %s\nsha256: %s\n", path, hex);
        if (!expected)
                puts("manifest: not listed (parent_cache.json has only the production "
                     "interactive PoRep graphs)");
        else if (!strcmp(expected, hex))
                puts("manifest: match");
        else
                printf("manifest: MISMATCH, parent_cache.json has %s\n", expected);
        return !expected || !strcmp(expected, hex);
}

/* Writes g's cache to path, committed only when the manifest agrees with it. */
static int write_cache(const struct sdr_graph *g, const char *path, const char *name) {
        _cleanup_(atomic_file_close) struct atomic_file f = {.fd = -EBADF, .dir_fd = -EBADF};
        struct progress p = {.t0 = cli_now(), .last = cli_now()};
        struct parent_cache_progress progress = {.done = report_progress, .userdata = &p};
        uint8_t digest[SHA256_DIGEST_BYTES];
        int r;

        r = atomic_file_open(path, 0644, &f);
        if (r < 0)
                return log_error_errno(r, "%s: cannot create the parent cache: %m", path);
        r = parent_cache_append(g, &f, &progress, digest);
        if (r < 0)
                return log_error_errno(r, "%s: cannot write the parent cache: %m", path);
        if (!print_result(path, name, digest))
                /* As cache.rs refuses a newly generated cache that differs: not kept. */
                return parent_cache_check_manifest(path, name, digest);
        r = atomic_file_commit(&f);
        if (r < 0)
                return log_error_errno(r, "%s: cannot commit the parent cache: %m", path);
        return 0;
}

int cmd_porep_parents(int argc, char **argv, const struct cli_options *opts) {
        const char *sector_size = NULL, *registered_proof = NULL, *out = NULL;
        const struct cli_option options[] = {
                {"registered-proof", &registered_proof, NULL, false},
                {"sector-size", &sector_size, NULL, false},
                {"out", &out, NULL, false},
        };
        const struct porep_config *cfg;
        char dir[PATH_MAX], name[PARENT_CACHE_NAME_MAX], path[PATH_MAX];
        struct sdr_graph g;
        int r, n;

        (void)opts;
        if (cli_wants_help(argc, argv, parents_usage))
                return EXIT_OK;
        if (cli_parse_options(argc, argv, "porep parents", options, ELEMENTSOF(options),
                              parents_usage) < 0 ||
            cli_porep_select("parents", sector_size, registered_proof, &cfg) < 0)
                return EXIT_BAD_INPUT;
        if (out && !*out) {
                fputs("cuzk porep parents: --out '': expected a directory\n", stderr);
                return EXIT_BAD_INPUT;
        }
        r = out ? (strlen(out) < sizeof(dir) ? 0 : -ENAMETOOLONG) : default_dir(dir, sizeof(dir));
        if (r < 0) {
                fprintf(stderr,
                        "cuzk porep parents: %s: expected a directory name shorter than %zu\n",
                        out ? "--out" : "$FIL_PROOFS_PARENT_CACHE or $FIL_PROOFS_CACHE_DIR",
                        sizeof(dir));
                return EXIT_BAD_INPUT;
        }
        if (out)
                strcpy(dir, out);
        r = make_directories(dir);
        if (r < 0) {
                log_error_errno(r, "cuzk porep parents: %s: cannot make the directory: %m", dir);
                return cli_exit_for_error(r);
        }
        r = sdr_graph_init(&g, cfg);
        if (r < 0) {
                log_error_errno(r, "cuzk porep parents: %s: cannot build its graph: %m", cfg->name);
                return EXIT_INTERNAL;
        }
        parent_cache_name(&g, name);
        n = snprintf(path, sizeof(path), "%s/%s" PARENT_CACHE_SUFFIX, dir, name);
        if (n < 0 || (size_t)n >= sizeof(path)) {
                fprintf(stderr, "cuzk porep parents: %s: directory name too long\n", dir);
                return EXIT_BAD_INPUT;
        }
        return write_cache(&g, path, name) < 0 ? EXIT_INTERNAL : EXIT_OK;
}
