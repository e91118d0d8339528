/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "daemon/supervisor/cuzkd-args.h"

#define CUZKD_DEFAULT_CONFIG "/etc/cuzk/cuzkd.conf"

static const char usage[] =
        "Usage: cuzkd [OPTIONS]\n"
        "\n"
        "The cuzk proving daemon: serves cuzk.v1.ProvingEngine (gRPC) on a unix socket and\n"
        "proves the jobs it is given within a memory budget.\n"
        "\n"
        "Options (each overrides the configuration):\n"
        "  -c, --config=PATH       configuration file (default " CUZKD_DEFAULT_CONFIG ",\n"
        "                          then PATH.d/*.conf; built-in defaults where missing)\n"
        "  -s, --socket=PATH       the unix socket to listen on (Socket=)\n"
        "      --spool-dir=DIR     where accepted jobs are kept (SpoolDirectory=)\n"
        "      --budget=SIZE       the memory budget, e.g. 8G or auto (TotalBudget=)\n"
        "      --max-workers=N     synthesis workers at once (MaxWorkers=)\n"
        "      --log-level=LEVEL   err, warning, notice, info or debug (LogLevel=)\n"
        "  -h, --help              this help\n";

static int parse_log_level(const char *s, int *ret) {
        static const struct {
                const char *name;
                int level;
        } levels[] = {{"err", LOG_ERR},       {"error", LOG_ERR}, {"warning", LOG_WARNING},
                      {"notice", LOG_NOTICE}, {"info", LOG_INFO}, {"debug", LOG_DEBUG}};

        for (size_t i = 0; i < ELEMENTSOF(levels); i++)
                if (!strcmp(s, levels[i].name)) {
                        *ret = levels[i].level;
                        return 0;
                }
        return -EINVAL;
}

/* Returns 1 to go on, 0 after --help, -EINVAL on bad arguments (reported). */
int cuzkd_parse_args(int argc, char **argv, struct cuzkd_overrides *ret) {
        enum { ARG_SPOOL = 0x100, ARG_BUDGET, ARG_MAX_WORKERS, ARG_LOG_LEVEL };
        static const struct option options[] = {
                {"config", required_argument, NULL, 'c'},
                {"socket", required_argument, NULL, 's'},
                {"spool-dir", required_argument, NULL, ARG_SPOOL},
                {"budget", required_argument, NULL, ARG_BUDGET},
                {"max-workers", required_argument, NULL, ARG_MAX_WORKERS},
                {"log-level", required_argument, NULL, ARG_LOG_LEVEL},
                {"help", no_argument, NULL, 'h'},
                {0, 0, 0, 0},
        };
        int c;

        *ret = (struct cuzkd_overrides){.config_path = CUZKD_DEFAULT_CONFIG};
        while ((c = getopt_long(argc, argv, "c:s:h", options, NULL)) >= 0) {
                switch (c) {
                case 'c':
                        ret->config_path = optarg;
                        break;
                case 's':
                        ret->socket = optarg;
                        break;
                case ARG_SPOOL:
                        ret->spool_dir = optarg;
                        break;
                case ARG_BUDGET:
                        ret->budget = optarg;
                        break;
                case ARG_MAX_WORKERS:
                        ret->max_workers = optarg;
                        break;
                case ARG_LOG_LEVEL:
                        ret->log_level = optarg;
                        break;
                case 'h':
                        fputs(usage, stdout);
                        return 0;
                default:
                        fputs("Try 'cuzkd --help'.\n", stderr);
                        return -EINVAL;
                }
        }
        if (optind != argc) {
                fprintf(stderr, "cuzkd: unexpected argument '%s'. Try 'cuzkd --help'.\n",
                        argv[optind]);
                return -EINVAL;
        }
        return 1;
}

static int copy_path(char *dst, size_t size, const char *src, const char *option) {
        if (strlen(src) >= size) {
                fprintf(stderr, "cuzkd: %s=%s: longer than %zu bytes\n", option, src, size - 1);
                return -ENAMETOOLONG;
        }
        snprintf(dst, size, "%s", src);
        return 0;
}

int cuzkd_apply_overrides(struct config *config, const struct cuzkd_overrides *o) {
        uint64_t n;
        int r;

        if (o->socket && (r = copy_path(config->socket_path, sizeof(config->socket_path), o->socket,
                                        "--socket")) < 0)
                return r;
        if (o->spool_dir && (r = copy_path(config->spool_dir, sizeof(config->spool_dir),
                                           o->spool_dir, "--spool-dir")) < 0)
                return r;
        if (o->budget && config_parse_size(o->budget, true, &config->total_budget_bytes) < 0) {
                fprintf(stderr, "cuzkd: --budget=%s: expected a size such as 8G, or auto\n",
                        o->budget);
                return -EINVAL;
        }
        if (o->max_workers) {
                if (parse_unsigned_range(o->max_workers, 0, 4096, 10, &n) < 0) {
                        fprintf(stderr, "cuzkd: --max-workers=%s: expected 0 to 4096\n",
                                o->max_workers);
                        return -EINVAL;
                }
                config->max_workers = (unsigned)n;
        }
        if (o->log_level && parse_log_level(o->log_level, &config->log_level) < 0) {
                fprintf(stderr,
                        "cuzkd: --log-level=%s: expected err, warning, notice, info or debug\n",
                        o->log_level);
                return -EINVAL;
        }
        return 0;
}
