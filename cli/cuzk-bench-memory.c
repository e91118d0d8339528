/* SPDX-License-Identifier: Apache-2.0 */
/* The daemon's memory as cuzk-bench reports it: the peak from GetMetrics
 * (BENCH_PEAK_MEMORY_METRIC), and the budget and reservations that GetStatus
 * showed while the batch ran. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/format-bytes.h"
#include "cuzk-bench.h"

#define METRICS_TIMEOUT_MS 10000

int bench_metric_value(const char *text, const char *name, double *ret) {
        const char *line, *next;
        size_t name_length;

        assert(text);
        assert(name);
        assert(ret);

        name_length = strlen(name);
        for (line = text; line && *line; line = next) {
                const char *p = line, *newline = strchr(line, '\n');
                char *end;
                double v;

                next = newline ? newline + 1 : NULL;

                /* "# HELP name ..." and "# TYPE name ..." are not samples. */
                if (strncmp(p, name, name_length) != 0 ||
                    (p[name_length] != ' ' && p[name_length] != '{'))
                        continue;
                p += name_length;
                if (*p == '{') {
                        p = strchr(p, '}');
                        if (!p)
                                return -EBADMSG;
                        p++;
                }
                while (*p == ' ')
                        p++;
                errno = 0;
                v = strtod(p, &end);
                if (end == p || errno || (*end != ' ' && *end != '\n' && *end != 0) || isnan(v))
                        return -EBADMSG;
                *ret = v;
                return 0;
        }
        return -ENOENT;
}

int bench_memory_read_peak(struct api_client *client, struct bench_memory *memory) {
        Cuzk__V1__GetMetricsRequest request = CUZK__V1__GET_METRICS_REQUEST__INIT;
        const Cuzk__V1__GetMetricsResponse *metrics;
        struct api_call_result result;
        ProtobufCMessage *response = NULL;
        double v;
        int r;

        assert(client);
        assert(memory);

        r = api_client_call(client, API_METHOD_GET_METRICS, &request.base, METRICS_TIMEOUT_MS,
                            &result, &response);
        if (r == 0 && !response)
                r = log_debug_errno(
                        EPROTO, "GetMetrics: %s%s%s", grpc_status_name(result.grpc_status),
                        result.message ? ": " : "", result.message ? result.message : "");
        api_call_result_done(&result);
        if (r < 0)
                return r;
        metrics = (const Cuzk__V1__GetMetricsResponse *)response;
        r = bench_metric_value(metrics->prometheus_text, BENCH_PEAK_MEMORY_METRIC, &v);
        if (r == -EBADMSG)
                log_warning("GetMetrics: %s is not a number of bytes", BENCH_PEAK_MEMORY_METRIC);
        if (r == 0 && v >= 0 && v < 1.8e19) {
                memory->peak_reported = true;
                memory->peak_bytes = (uint64_t)v;
        }
        protobuf_c_message_free_unpacked(response, NULL);
        return r == -ENOENT ? 0 : r;
}

void bench_memory_add_status(struct bench_memory *memory, const Cuzk__V1__GetStatusResponse *s) {
        assert(memory);
        assert(s);

        memory->status_samples++;
        memory->budget_bytes = s->memory_budget_bytes;
        memory->reserved_bytes = s->memory_reserved_bytes;
        if (s->memory_reserved_bytes > memory->max_reserved_bytes)
                memory->max_reserved_bytes = s->memory_reserved_bytes;
}

void bench_print_memory(FILE *f, const struct bench_memory *memory) {
        char peak[32], reserved[32], budget[32];

        assert(f);
        assert(memory);

        if (memory->peak_reported) {
                format_bytes(peak, sizeof(peak), memory->peak_bytes);
                fprintf(f, "peak memory:   %s (cuzkd's memory cgroup)\n", peak);
        } else
                fputs("peak memory:   not reported\n", f);
        if (memory->status_samples > 0 && memory->budget_bytes > 0) {
                format_bytes(reserved, sizeof(reserved), memory->max_reserved_bytes);
                format_bytes(budget, sizeof(budget), memory->budget_bytes);
                fprintf(f, "reserved:      at most %s of a %s budget (%u sample%s)\n", reserved,
                        budget, memory->status_samples, memory->status_samples == 1 ? "" : "s");
        }
}
