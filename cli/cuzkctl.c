/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkctl: talks to cuzkd over its gRPC API (cuzk.v1.ProvingEngine).
 *   cuzkctl [--socket PATH | --address HOST:PORT] [--timeout MS] COMMAND ...
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse-number.h"
#include "common/format-bytes.h"
#include "cuzkctl.h"
#include "api/api-server.h"

static const char usage[] =
        "Usage: cuzkctl [OPTIONS] COMMAND [ARGS...]\n"
        "\n"
        "Controls the cuzk proving daemon.\n"
        "\n"
        "Commands:\n"
        "  status                  GPUs, loaded SRS, queues, memory budget\n"
        "  metrics                 the Prometheus metrics, as the daemon writes them\n"
        "  submit --kind KIND ...  queue a proof; prints its job id\n"
        "  await JOB_ID            wait for a job and print its result\n"
        "  prove --kind KIND ...   submit and await in one call\n"
        "  cancel JOB_ID           cancel a job\n"
        "  preload CIRCUIT_ID      load a circuit's SRS (e.g. porep-32g)\n"
        "  evict CIRCUIT_ID        drop a circuit's SRS from memory\n"
        "\n"
        "Options:\n"
        "  -s, --socket=PATH        the daemon's unix socket (default $CUZK_SOCKET or\n"
        "                           " API_DEFAULT_SOCKET_PATH ")\n"
        "  -a, --address=HOST:PORT  talk TCP instead\n"
        "  -t, --timeout=MS         give up on connecting, and on a call, after MS\n"
        "                           milliseconds each (default: 60000; no limit for the\n"
        "                           call of await and prove)\n"
        "  -h, --help               this help; `cuzkctl COMMAND --help` for a command\n"
        "\n"
        "Exit status: 0 success, 1 the daemon is unreachable, refused the request or the\n"
        "job did not complete, 2 bad arguments.\n";

#define DEFAULT_TIMEOUT_MS 60000

static void print_connect_error(const struct ctl_context *ctx, int timeout_ms, int r) {
        char where[300];

        if (ctx->tcp_host)
                snprintf(where, sizeof(where), "%s port %u", ctx->tcp_host, ctx->tcp_port);
        else
                snprintf(where, sizeof(where), "%s", ctx->socket_path);
        if (r == -ETIMEDOUT)
                fprintf(stderr,
                        "cuzkctl: cannot connect to %s: not accepted within %d ms (is cuzkd "
                        "hung, or its backlog full?)\n",
                        where, timeout_ms);
        else
                fprintf(stderr, "cuzkctl: cannot connect to %s: %s%s\n", where, strerror(-r),
                        r == -ENOENT || r == -ECONNREFUSED ? " (is cuzkd running?)" : "");
}

/* A connect() waits while the daemon does not accept (hung, or its backlog full): bounded
 * by --timeout, else by the default of a call, also for await and prove, whose calls may
 * rightly wait for hours but whose connection never should. */
int ctl_connect(const struct ctl_context *ctx, struct api_client **ret) {
        int timeout_ms =
                ctx->timeout_ms == CTL_TIMEOUT_DEFAULT ? DEFAULT_TIMEOUT_MS : ctx->timeout_ms;
        int r;

        if (ctx->tcp_host)
                r = api_client_connect_tcp_within(ctx->tcp_host, (uint16_t)ctx->tcp_port,
                                                  timeout_ms, ret);
        else
                r = api_client_connect_unix_within(ctx->socket_path, timeout_ms, ret);
        if (r < 0)
                print_connect_error(ctx, timeout_ms, r);
        return r < 0 ? CTL_EXIT_FAILED : CTL_EXIT_OK;
}

int ctl_call(const struct ctl_context *ctx, struct api_client *client, enum api_method method,
             const ProtobufCMessage *request, int timeout_ms, ProtobufCMessage **ret_response) {
        const char *name = api_method_info(method)->name;
        struct api_call_result result;
        int r;

        if (ctx->timeout_ms != CTL_TIMEOUT_DEFAULT)
                timeout_ms = ctx->timeout_ms;
        r = api_client_call(client, method, request, timeout_ms, &result, ret_response);
        if (r == -ETIMEDOUT)
                fprintf(stderr, "cuzkctl: %s: no answer within %d ms\n", name, timeout_ms);
        else if (r < 0)
                fprintf(stderr, "cuzkctl: %s: %s\n", name, strerror(-r));
        else if (result.grpc_status != GRPC_STATUS_OK)
                fprintf(stderr, "cuzkctl: %s: %s%s%s\n", name,
                        result.grpc_status < 0 ? "no status from the daemon"
                                               : grpc_status_name(result.grpc_status),
                        result.message ? ": " : "", result.message ? result.message : "");
        api_call_result_done(&result);
        return r < 0 || !*ret_response ? CTL_EXIT_FAILED : CTL_EXIT_OK;
}

/* Handles --help and checks the number of operands of a simple command. */
static int simple_arguments(int argc, char **argv, const char *text, int operands) {
        for (int i = 1; i < argc; i++)
                if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
                        fputs(text, stdout);
                        return -1;
                }
        if (argc - 1 != operands) {
                fprintf(stderr, "cuzkctl %s: expected %d argument%s.\n%s", argv[0], operands,
                        operands == 1 ? "" : "s", text);
                return CTL_EXIT_USAGE;
        }
        return CTL_EXIT_OK;
}

/* A call with no arguments or one string argument, whose answer is printed. */
static int run_simple(const struct ctl_context *ctx, enum api_method method,
                      const ProtobufCMessage *request, ProtobufCMessage **ret_response) {
        struct api_client *client;
        int r;

        r = ctl_connect(ctx, &client);
        if (r != CTL_EXIT_OK)
                return r;
        r = ctl_call(ctx, client, method, request, DEFAULT_TIMEOUT_MS, ret_response);
        api_client_free(client);
        return r;
}

int ctl_status(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] = "Usage: cuzkctl status\n"
                                   "Prints the daemon's GPUs, loaded SRS, queues and memory.\n";
        Cuzk__V1__GetStatusRequest request = CUZK__V1__GET_STATUS_REQUEST__INIT;
        ProtobufCMessage *response;
        int r = simple_arguments(argc, argv, text, 0);

        if (r != CTL_EXIT_OK)
                return r < 0 ? CTL_EXIT_OK : r;
        r = run_simple(ctx, API_METHOD_GET_STATUS, &request.base, &response);
        if (r != CTL_EXIT_OK)
                return r;
        ctl_print_status(stdout, (const Cuzk__V1__GetStatusResponse *)response);
        protobuf_c_message_free_unpacked(response, NULL);
        return CTL_EXIT_OK;
}

int ctl_metrics(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] = "Usage: cuzkctl metrics\n"
                                   "Prints the daemon's metrics in the Prometheus text format.\n";
        Cuzk__V1__GetMetricsRequest request = CUZK__V1__GET_METRICS_REQUEST__INIT;
        ProtobufCMessage *response;
        int r = simple_arguments(argc, argv, text, 0);

        if (r != CTL_EXIT_OK)
                return r < 0 ? CTL_EXIT_OK : r;
        r = run_simple(ctx, API_METHOD_GET_METRICS, &request.base, &response);
        if (r != CTL_EXIT_OK)
                return r;
        fputs(((const Cuzk__V1__GetMetricsResponse *)response)->prometheus_text, stdout);
        protobuf_c_message_free_unpacked(response, NULL);
        return CTL_EXIT_OK;
}

int ctl_cancel(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] = "Usage: cuzkctl cancel JOB_ID\n"
                                   "Cancels a job; prints whether it was running.\n";
        Cuzk__V1__CancelProofRequest request = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        ProtobufCMessage *response;
        int r = simple_arguments(argc, argv, text, 1);

        if (r != CTL_EXIT_OK)
                return r < 0 ? CTL_EXIT_OK : r;
        request.job_id = argv[1];
        r = run_simple(ctx, API_METHOD_CANCEL_PROOF, &request.base, &response);
        if (r != CTL_EXIT_OK)
                return r;
        printf("%s: cancelled, %s\n", argv[1],
               ((const Cuzk__V1__CancelProofResponse *)response)->was_running ? "was running"
                                                                              : "was not running");
        protobuf_c_message_free_unpacked(response, NULL);
        return CTL_EXIT_OK;
}

int ctl_preload(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] = "Usage: cuzkctl preload CIRCUIT_ID\n"
                                   "Loads a circuit's SRS (e.g. porep-32g) ahead of its jobs.\n";
        Cuzk__V1__PreloadSrsRequest request = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        const Cuzk__V1__PreloadSrsResponse *p;
        ProtobufCMessage *response;
        int r = simple_arguments(argc, argv, text, 1);

        if (r != CTL_EXIT_OK)
                return r < 0 ? CTL_EXIT_OK : r;
        request.circuit_id = argv[1];
        r = run_simple(ctx, API_METHOD_PRELOAD_SRS, &request.base, &response);
        if (r != CTL_EXIT_OK)
                return r;
        p = (const Cuzk__V1__PreloadSrsResponse *)response;
        if (p->already_loaded)
                printf("%s: already loaded\n", argv[1]);
        else
                printf("%s: loaded in %llu ms\n", argv[1], (unsigned long long)p->load_time_ms);
        protobuf_c_message_free_unpacked(response, NULL);
        return CTL_EXIT_OK;
}

int ctl_evict(const struct ctl_context *ctx, int argc, char **argv) {
        static const char text[] = "Usage: cuzkctl evict CIRCUIT_ID\n"
                                   "Drops a circuit's SRS from memory.\n";
        Cuzk__V1__EvictSrsRequest request = CUZK__V1__EVICT_SRS_REQUEST__INIT;
        const Cuzk__V1__EvictSrsResponse *e;
        ProtobufCMessage *response;
        char freed[32];
        int r = simple_arguments(argc, argv, text, 1);

        if (r != CTL_EXIT_OK)
                return r < 0 ? CTL_EXIT_OK : r;
        request.circuit_id = argv[1];
        r = run_simple(ctx, API_METHOD_EVICT_SRS, &request.base, &response);
        if (r != CTL_EXIT_OK)
                return r;
        e = (const Cuzk__V1__EvictSrsResponse *)response;
        format_bytes(freed, sizeof(freed), e->freed_bytes);
        if (e->was_loaded)
                printf("%s: evicted, %s freed\n", argv[1], freed);
        else
                printf("%s: was not loaded\n", argv[1]);
        protobuf_c_message_free_unpacked(response, NULL);
        return CTL_EXIT_OK;
}

static int parse_address(const char *s, struct ctl_context *ctx) {
        static char host[256];
        const char *colon = strrchr(s, ':');
        uint64_t port;

        /* HOST:PORT, [V6ADDR]:PORT */
        if (!colon || colon == s || (size_t)(colon - s) >= sizeof(host))
                goto bad;
        if (parse_unsigned_range(colon + 1, 1, 65535, 10, &port) < 0)
                goto bad;
        memcpy(host, s, (size_t)(colon - s));
        host[colon - s] = 0;
        if (host[0] == '[' && host[strlen(host) - 1] == ']') {
                memmove(host, host + 1, strlen(host) - 2);
                host[strlen(host) - 2] = 0;
        }
        ctx->tcp_host = host;
        ctx->tcp_port = (unsigned)port;
        return 0;
bad:
        fprintf(stderr, "cuzkctl: --address=%s: expected HOST:PORT\n", s);
        return -EINVAL;
}

static int parse_timeout(const char *s, int *ret) {
        uint64_t v;

        if (parse_unsigned_range(s, 0, INT_MAX, 10, &v) < 0) {
                fprintf(stderr, "cuzkctl: --timeout=%s: expected milliseconds\n", s);
                return -EINVAL;
        }
        *ret = (int)v;
        return 0;
}

int main(int argc, char **argv) {
        static const struct option options[] = {
                {"socket", required_argument, NULL, 's'},
                {"address", required_argument, NULL, 'a'},
                {"timeout", required_argument, NULL, 't'},
                {"help", no_argument, NULL, 'h'},
                {0, 0, 0, 0},
        };
        static const struct {
                const char *name;
                int (*run)(const struct ctl_context *ctx, int argc, char **argv);
        } commands[] = {
                {"status", ctl_status},   {"metrics", ctl_metrics}, {"submit", ctl_submit},
                {"await", ctl_await},     {"prove", ctl_prove},     {"cancel", ctl_cancel},
                {"preload", ctl_preload}, {"evict", ctl_evict},
        };
        struct ctl_context ctx = {.timeout_ms = CTL_TIMEOUT_DEFAULT};
        int c, command;

        ctx.socket_path = getenv("CUZK_SOCKET");
        if (!ctx.socket_path || !ctx.socket_path[0])
                ctx.socket_path = API_DEFAULT_SOCKET_PATH;
        /* '+': stop at the command name, whose own options follow it */
        while ((c = getopt_long(argc, argv, "+s:a:t:h", options, NULL)) >= 0) {
                switch (c) {
                case 's':
                        ctx.socket_path = optarg;
                        break;
                case 'a':
                        if (parse_address(optarg, &ctx) < 0)
                                return CTL_EXIT_USAGE;
                        break;
                case 't':
                        if (parse_timeout(optarg, &ctx.timeout_ms) < 0)
                                return CTL_EXIT_USAGE;
                        break;
                case 'h':
                        fputs(usage, stdout);
                        return CTL_EXIT_OK;
                default:
                        fputs("Try 'cuzkctl --help'.\n", stderr);
                        return CTL_EXIT_USAGE;
                }
        }
        if (optind >= argc) {
                fputs(usage, stderr);
                return CTL_EXIT_USAGE;
        }
        command = optind;
        for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
                if (!strcmp(argv[command], commands[i].name)) {
                        /* Commands parse their own options, from argv[0] = their name. */
                        optind = 0;
                        return commands[i].run(&ctx, argc - command, argv + command);
                }
        fprintf(stderr, "cuzkctl: unknown command '%s'. Try 'cuzkctl --help'.\n", argv[command]);
        return CTL_EXIT_USAGE;
}
