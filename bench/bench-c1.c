/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The time to parse a C1 output (filecoin/c1: c1_parse_any, the file
 * mapped and in the page cache) and to check it (vanilla_verify), best and
 * mean of repeated runs, one markdown row per file:
 *   | file | bytes | parse ms (best / mean) | verify ms (best / mean) | runs |
 * Usage: bench-c1 C1.json...   (bare C1 outputs or Curio's envelopes)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench-util.h"
#include "common/cleanup.h"
#include "filecoin/c1/c1.h"
#include "filecoin/vanilla/verify.h"

/* Each measurement repeats until it took this long and ran MIN_RUNS times. */
#define MIN_MEASURE_SEC 2.0
#define MIN_RUNS 3

struct c1_run {
        const char *text, *path;
        size_t len;
        struct c1_output *c1; /* parsed once for the verify runs */
};

static void run_parse(void *userdata) {
        struct c1_run *run = userdata;
        struct c1_output *c1 = NULL;

        if (c1_parse_any(run->text, run->len, run->path, &c1, NULL) < 0)
                exit(EXIT_FAILURE); /* the parser said why on stderr */
        c1_output_free(c1);
}

static void run_verify(void *userdata) {
        const struct c1_run *run = userdata;

        if (vanilla_verify(run->c1, run->path) < 0)
                exit(EXIT_FAILURE);
}

static void unmap(struct c1_run *run) {
        if (run->text)
                munmap((void *)run->text, run->len);
        c1_output_free(run->c1);
}

static int map_file(const char *path, struct c1_run *run) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat st;
        void *p;

        if (fd < 0 || fstat(fd, &st) < 0) {
                fprintf(stderr, "bench-c1: %s: %s\n", path, strerror(errno));
                return -errno;
        }
        if (!S_ISREG(st.st_mode) || st.st_size == 0) {
                fprintf(stderr, "bench-c1: %s: %lld bytes, expected a non-empty regular file\n",
                        path, (long long)st.st_size);
                return -EINVAL;
        }
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (p == MAP_FAILED) {
                fprintf(stderr, "bench-c1: %s: %s\n", path, strerror(errno));
                return -errno;
        }
        *run = (struct c1_run){.text = p, .path = path, .len = (size_t)st.st_size};
        return 0;
}

static int bench_file(const char *path) {
        _cleanup_(unmap) struct c1_run run = {0};
        struct bench_timing parse, verify;

        if (map_file(path, &run) < 0)
                return -EINVAL;
        if (c1_parse_any(run.text, run.len, path, &run.c1, NULL) < 0)
                return -EINVAL;
        bench_repeat(run_parse, &run, MIN_RUNS, MIN_MEASURE_SEC, &parse);
        bench_repeat(run_verify, &run, MIN_RUNS, MIN_MEASURE_SEC, &verify);
        printf("| %s | %zu | %.1f / %.1f | %.1f / %.1f | %u / %u |\n", path, run.len,
               parse.best_sec * 1e3, parse.mean_sec * 1e3, verify.best_sec * 1e3,
               verify.mean_sec * 1e3, parse.runs, verify.runs);
        return 0;
}

int main(int argc, char **argv) {
        int status = EXIT_SUCCESS;

        if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
                fputs("Usage: bench-c1 C1.json...\n", argc < 2 ? stderr : stdout);
                return argc < 2 ? EXIT_FAILURE : EXIT_SUCCESS;
        }
        puts("| file | bytes | parse ms (best / mean) | verify ms (best / mean) | runs |");
        puts("|---|---|---|---|---|");
        for (int i = 1; i < argc; i++)
                if (bench_file(argv[i]) < 0)
                        status = EXIT_FAILURE;
        return status;
}
