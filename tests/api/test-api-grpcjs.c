/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Wire compatibility with a real gRPC stack, @grpc/grpc-js from npm, using
 * api/cuzk.proto through @grpc/proto-loader:
 *   - its client calls our server (toy handler) with every method, one
 *     unknown method and calls in flight together; every request arrives
 *     field for field, every answer (and error status and message) is what
 *     our own client gets for the same call;
 *   - our client calls its server with every method; every request arrives
 *     field for field and every answer, an error with a non-ASCII message
 *     included, comes back as it sent it.
 * Messages are compared as JSON in proto-loader's form (tests/lib/api-json.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "api/api-client.h"
#include "tests/lib/ref.h"
#include "tests/lib/api-json.h"
#include "tests/lib/api-toy.h"

#define TIMEOUT_MS 20000
#define MAX_CALLS 16

struct test_call {
        enum api_method method;
        const ProtobufCMessage *request;
};

static uint8_t proof[192 * 3];

/* The calls both directions make, each request with every field set. */
static size_t build_calls(struct test_call *calls) {
        static uint8_t bytes[4][32];
        static ProtobufCBinaryData vanilla_proofs[2];
        static Cuzk__V1__SubmitProofRequest porep = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        static Cuzk__V1__SubmitProofRequest groth16 = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        static Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        static Cuzk__V1__AwaitProofRequest await_missing = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        static Cuzk__V1__ProveRequest prove = CUZK__V1__PROVE_REQUEST__INIT;
        static Cuzk__V1__CancelProofRequest cancel = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        static Cuzk__V1__CancelProofRequest cancel_missing = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        static Cuzk__V1__GetStatusRequest status = CUZK__V1__GET_STATUS_REQUEST__INIT;
        static Cuzk__V1__GetMetricsRequest metrics = CUZK__V1__GET_METRICS_REQUEST__INIT;
        static Cuzk__V1__PreloadSrsRequest preload = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        static Cuzk__V1__PreloadSrsRequest preload_new = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        static Cuzk__V1__EvictSrsRequest evict = CUZK__V1__EVICT_SRS_REQUEST__INIT;
        static const char envelope[] = "{\"SectorNum\":42,\"Phase1Out\":\"eyJhIjoxfQ==\","
                                       "\"SectorSize\":34359738368}";
        size_t n = 0;

        for (int k = 0; k < 4; k++)
                for (int i = 0; i < 32; i++)
                        bytes[k][i] = (uint8_t)(k * 64 + i * 7);
        vanilla_proofs[0] = (ProtobufCBinaryData){5, bytes[0]};
        vanilla_proofs[1] = (ProtobufCBinaryData){0, NULL}; /* an empty element too */

        porep.request_id = (char *)"curio/f01000/42";
        porep.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        porep.sector_size = 34359738368ull;
        porep.registered_proof = 8;
        porep.priority = CUZK__V1__PRIORITY__CRITICAL;
        porep.vanilla_proof = (ProtobufCBinaryData){strlen(envelope), (uint8_t *)envelope};
        porep.n_vanilla_proofs = 2;
        porep.vanilla_proofs = vanilla_proofs;
        porep.sector_number = 42;
        porep.miner_id = 18446744073709551615ull; /* all 64 bits */
        porep.randomness = (ProtobufCBinaryData){32, bytes[0]};
        porep.partition_index = 4294967295u;
        porep.comm_r_old = (ProtobufCBinaryData){32, bytes[1]};
        porep.comm_r_new = (ProtobufCBinaryData){32, bytes[2]};
        porep.comm_d_new = (ProtobufCBinaryData){31, bytes[3]};
        calls[n++] = (struct test_call){API_METHOD_SUBMIT_PROOF, &porep.base};

        await.job_id = (char *)"job-1";
        await.timeout_ms = 5000000000ull; /* above 32 bits */
        calls[n++] = (struct test_call){API_METHOD_AWAIT_PROOF, &await.base};

        groth16.request_id = (char *)"groth16-ü";
        groth16.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_SNARKJS;
        groth16.priority = CUZK__V1__PRIORITY__LOW;
        groth16.zkey_path = (char *)"/var/lib/cuzk/circuit.zkey";
        groth16.wtns_path = (char *)"/tmp/w.wtns";
        groth16.wtns = (ProtobufCBinaryData){7, bytes[2]};
        groth16.pce_path = (char *)"/p.pce";
        groth16.params_path = (char *)"/p.params";
        groth16.witness_path = (char *)"/p.wtns";
        groth16.partitions = 10;
        prove.submit = &groth16;
        calls[n++] = (struct test_call){API_METHOD_PROVE, &prove.base};

        cancel.job_id = (char *)"job-2";
        calls[n++] = (struct test_call){API_METHOD_CANCEL_PROOF, &cancel.base};
        calls[n++] = (struct test_call){API_METHOD_GET_STATUS, &status.base};
        calls[n++] = (struct test_call){API_METHOD_GET_METRICS, &metrics.base};
        preload.circuit_id = (char *)"porep-32g";
        calls[n++] = (struct test_call){API_METHOD_PRELOAD_SRS, &preload.base};
        evict.circuit_id = (char *)"porep-32g";
        calls[n++] = (struct test_call){API_METHOD_EVICT_SRS, &evict.base};
        /* Errors: NOT_FOUND, one with a message that needs percent-encoding. */
        cancel_missing.job_id = (char *)"job-404";
        calls[n++] = (struct test_call){API_METHOD_CANCEL_PROOF, &cancel_missing.base};
        await_missing.job_id = (char *)"100% ünknown";
        calls[n++] = (struct test_call){API_METHOD_AWAIT_PROOF, &await_missing.base};
        preload_new.circuit_id = (char *)"snap-32g";
        calls[n++] = (struct test_call){API_METHOD_PRELOAD_SRS, &preload_new.base};
        assert_true(n <= MAX_CALLS);
        return n;
}

static json_t *call_json(const struct test_call *c) {
        return json_pack("{s:s, s:o}", "method", api_method_info(c->method)->name, "request",
                         test_api_message_to_json(c->request));
}

static void write_json_line(FILE *f, json_t *v) {
        char *text = json_dumps(v, JSON_COMPACT);

        assert_non_null(text);
        fprintf(f, "%s\n", text);
        free(text);
        json_decref(v);
}

static void assert_json_equal(json_t *got, json_t *expect, const char *what) {
        if (!json_equal(got, expect)) {
                char *a = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
                char *b = json_dumps(expect, JSON_COMPACT | JSON_SORT_KEYS);
                fail_msg("%s:\n got    %s\n expect %s", what, a, b);
        }
}

/* What our own client gets for a call: {"response"} or {"code", "details"}. */
static json_t *c_client_answer(struct api_client *client, const struct test_call *c) {
        struct api_call_result result;
        ProtobufCMessage *response;
        json_t *answer;

        assert_int_equal(
                api_client_call(client, c->method, c->request, TIMEOUT_MS, &result, &response), 0);
        if (response) {
                answer = json_pack("{s:o}", "response", test_api_message_to_json(response));
                protobuf_c_message_free_unpacked(response, NULL);
        } else {
                answer = json_pack("{s:i, s:s}", "code", result.grpc_status, "details",
                                   result.message ? result.message : "");
        }
        api_call_result_done(&result);
        return answer;
}

/* The answer part of a grpc-client.js line. */
static json_t *node_answer(json_t *line) {
        json_t *response = json_object_get(line, "response");

        if (response)
                return json_pack("{s:O}", "response", response);
        return json_pack("{s:O, s:O}", "code", json_object_get(line, "code"), "details",
                         json_object_get(line, "details"));
}

static void test_grpcjs_client_to_our_server(void **state) {
        struct toy_server_options options = {.proof = proof, .proof_length = sizeof(proof)};
        struct toy_server *toy, *replay_toy;
        struct test_call calls[MAX_CALLS], order[MAX_CALLS + 3];
        char calls_path[] = "/tmp/cuzk-grpcjs-calls-XXXXXX", args[512];
        struct api_client *replay;
        size_t n, n_order = 0;
        int fd, last[_API_METHOD_COUNT];
        json_t *line;
        FILE *f;
        (void)state;

        n = build_calls(calls);
        assert_int_equal(toy_server_start(&options, &toy), 0);
        fd = mkstemp(calls_path);
        assert_true(fd >= 0);
        f = fdopen(fd, "w");
        assert_non_null(f);
        for (size_t i = 0; i < n; i++) {
                write_json_line(f, call_json(&calls[i]));
                order[n_order++] = calls[i];
        }
        /* Three calls in flight together on grpc-js's one connection. */
        write_json_line(f, json_pack("{s:[o,o,o]}", "parallel", call_json(&calls[4]),
                                     call_json(&calls[5]), call_json(&calls[10])));
        order[n_order++] = calls[4];
        order[n_order++] = calls[5];
        order[n_order++] = calls[10];
        write_json_line(f, json_pack("{s:s}", "path", "/cuzk.v1.ProvingEngine/Nope"));
        fclose(f);

        snprintf(args, sizeof(args), "'%s' '%s'", toy_server_socket(toy), calls_path);
        f = ref_run("grpc-client.js", args);

        /* Our client replays the same calls on a fresh server: same answers. */
        assert_int_equal(toy_server_start(&options, &replay_toy), 0);
        assert_int_equal(api_client_connect_unix(toy_server_socket(replay_toy), &replay), 0);
        for (size_t i = 0; i < n_order; i++) {
                json_t *expect = c_client_answer(replay, &order[i]), *got;
                char what[64];

                line = ref_next(f);
                assert_non_null(line);
                assert_string_equal(json_string_value(json_object_get(line, "method")),
                                    api_method_info(order[i].method)->name);
                got = node_answer(line);
                snprintf(what, sizeof(what), "call %zu (%s)", i,
                         api_method_info(order[i].method)->name);
                assert_json_equal(got, expect, what);
                json_decref(got);
                json_decref(expect);
                json_decref(line);
        }
        line = ref_next(f);
        assert_non_null(line);
        assert_int_equal(json_integer_value(json_object_get(line, "code")), 12);
        assert_non_null(strstr(json_string_value(json_object_get(line, "details")),
                               "/cuzk.v1.ProvingEngine/Nope"));
        json_decref(line);
        assert_null(ref_next(f));
        assert_int_equal(ref_close(f), 0);

        /* The last request of each method arrived as sent. */
        for (int m = 0; m < _API_METHOD_COUNT; m++)
                last[m] = -1;
        for (size_t i = 0; i < n_order; i++)
                last[order[i].method] = (int)i;
        for (int m = 0; m < _API_METHOD_COUNT; m++) {
                _cleanup_free_ uint8_t *data = NULL;
                ProtobufCMessage *received;
                json_t *got, *expect;
                size_t length;

                assert_true(last[m] >= 0);
                assert_int_equal(toy_server_last_request(toy, (enum api_method)m, &data, &length),
                                 0);
                received = protobuf_c_message_unpack(api_method_info((enum api_method)m)->request,
                                                     NULL, length, data);
                assert_non_null(received);
                got = test_api_message_to_json(received);
                expect = test_api_message_to_json(order[last[m]].request);
                assert_json_equal(got, expect, api_method_info((enum api_method)m)->name);
                json_decref(got);
                json_decref(expect);
                protobuf_c_message_free_unpacked(received, NULL);
        }
        api_client_free(replay);
        toy_server_stop(replay_toy);
        toy_server_stop(toy);
        unlink(calls_path);
}

/* The node server's answers, one per method; EvictSRS fails. */
static json_t *node_server_answers(void) {
        static Cuzk__V1__SubmitProofResponse submit = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        static Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        static Cuzk__V1__ProveResponse prove = CUZK__V1__PROVE_RESPONSE__INIT;
        static Cuzk__V1__CancelProofResponse cancel = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        static Cuzk__V1__GetMetricsResponse metrics = CUZK__V1__GET_METRICS_RESPONSE__INIT;
        static Cuzk__V1__PreloadSrsResponse preload = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        Cuzk__V1__GetStatusResponse status;
        json_t *answers;

        submit.job_id = (char *)"node-job-7";
        submit.queue_position = 4000000000u;
        submit.assigned_gpu = (char *)"gpu3";
        result.job_id = (char *)"node-job-7";
        result.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        result.proof = (ProtobufCBinaryData){sizeof(proof), proof};
        result.error_message = (char *)"partition 3: out of memory (retried twice)";
        result.queue_wait_ms = 1;
        result.srs_load_ms = 22;
        result.synthesis_ms = 333;
        result.gpu_compute_ms = 4444;
        result.total_ms = 9000000000ull;
        result.proof_json = (char *)"{}";
        result.public_json = (char *)"[]";
        prove.result = &result;
        cancel.was_running = true;
        metrics.prometheus_text = (char *)toy_metrics_text;
        preload.already_loaded = false;
        preload.load_time_ms = 123456789012ull;
        toy_fill_status(&status);

        answers = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "SubmitProof",
                            test_api_message_to_json(&submit.base), "AwaitProof",
                            test_api_message_to_json(&result.base), "Prove",
                            test_api_message_to_json(&prove.base), "CancelProof",
                            test_api_message_to_json(&cancel.base), "GetStatus",
                            test_api_message_to_json(&status.base), "GetMetrics",
                            test_api_message_to_json(&metrics.base), "PreloadSRS",
                            test_api_message_to_json(&preload.base));
        json_object_set_new(answers, "EvictSRS",
                            json_pack("{s:{s:i, s:s}}", "error", "code", 9, "details",
                                      "circuit porep-32g is in use (ünïcode, 100%)"));
        return answers;
}

static void test_our_client_to_grpcjs_server(void **state) {
        char dir[] = "/tmp/cuzk-grpcjs-XXXXXX", socket_path[128], answers_path[128], args[512];
        struct test_call calls[MAX_CALLS];
        bool used[_API_METHOD_COUNT] = {0};
        struct test_call sent[_API_METHOD_COUNT];
        struct api_client *client = NULL;
        json_t *answers, *line;
        size_t n, n_sent = 0;
        FILE *f;
        (void)state;

        n = build_calls(calls);
        assert_non_null(mkdtemp(dir));
        snprintf(socket_path, sizeof(socket_path), "%s/node.sock", dir);
        snprintf(answers_path, sizeof(answers_path), "%s/answers.json", dir);
        answers = node_server_answers();
        assert_int_equal(json_dump_file(answers, answers_path, JSON_COMPACT), 0);

        snprintf(args, sizeof(args), "'%s' '%s' %d", socket_path, answers_path,
                 (int)_API_METHOD_COUNT);
        f = ref_run("grpc-server.js", args);
        line = ref_next(f);
        assert_non_null(line);
        assert_true(json_is_true(json_object_get(line, "ready")));
        json_decref(line);
        assert_int_equal(api_client_connect_unix(socket_path, &client), 0);

        /* The first call of each method, checked against the node server's answer. */
        for (size_t i = 0; i < n; i++) {
                const char *name = api_method_info(calls[i].method)->name;
                json_t *got, *expect, *answer = json_object_get(answers, name);

                if (used[calls[i].method])
                        continue;
                used[calls[i].method] = true;
                sent[n_sent++] = calls[i];
                got = c_client_answer(client, &calls[i]);
                if (json_object_get(answer, "error"))
                        expect = json_pack(
                                "{s:O, s:O}", "code",
                                json_object_get(json_object_get(answer, "error"), "code"),
                                "details",
                                json_object_get(json_object_get(answer, "error"), "details"));
                else
                        expect = json_pack("{s:O}", "response", answer);
                assert_json_equal(got, expect, name);
                json_decref(got);
                json_decref(expect);
        }
        assert_int_equal(n_sent, _API_METHOD_COUNT);

        /* What the node server received, in order. */
        for (size_t i = 0; i < n_sent; i++) {
                json_t *expect = test_api_message_to_json(sent[i].request);

                line = ref_next(f);
                assert_non_null(line);
                assert_string_equal(json_string_value(json_object_get(line, "method")),
                                    api_method_info(sent[i].method)->name);
                assert_json_equal(json_object_get(line, "request"), expect,
                                  api_method_info(sent[i].method)->name);
                json_decref(expect);
                json_decref(line);
        }
        /* The node server ends once its clients have gone. */
        api_client_free(client);
        assert_int_equal(ref_close(f), 0);
        json_decref(answers);
        unlink(answers_path);
        unlink(socket_path);
        rmdir(dir);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_grpcjs_client_to_our_server),
                cmocka_unit_test(test_our_client_to_grpcjs_server),
        };

        for (size_t i = 0; i < sizeof(proof); i++)
                proof[i] = (uint8_t)(i * 13 + 5);
        return cmocka_run_group_tests(tests, NULL, NULL);
}
