/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gRPC API (api/) through a real unix socket: the server with a
 * toy handler on its own thread, the client library on the test thread.
 *   - every method round trips, requests arrive field for field, answers
 *     come back field for field, handler errors become gRPC statuses;
 *   - framing: a message split over DATA frames of 1 and 7 bytes, 100 MiB
 *     messages both ways, zero-length messages, a length above the limit,
 *     compressed and malformed prefixes, cut-short and extra messages,
 *     garbage protobuf, strings holding a NUL byte, unknown methods;
 *   - concurrency and deferred answers: streams in flight together on one
 *     connection and on two, AwaitProof answered later from the loop or on
 *     its timeout, calls abandoned by a client that resets or disconnects;
 *   - socket activation (an inherited listening fd) and TCP;
 *   - the request memory cap: messages beyond it wait for room and complete.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cleanup.h"
#include "api/api-client.h"
#include "api/grpc-frame.h"
#include "tests/lib/api-toy.h"

#define PROOF_BYTES 1920 /* a 32 GiB PoRep proof: 10 partitions of 192 bytes */
#define TIMEOUT_MS 20000
#define LARGE_BYTES (100u * 1024 * 1024)

static uint8_t proof[PROOF_BYTES];

static struct toy_server *start_toy(const struct toy_server_options *extra) {
        struct toy_server_options options = {.proof = proof, .proof_length = sizeof(proof)};
        struct toy_server *toy;

        if (extra)
                options = *extra;
        assert_int_equal(toy_server_start(&options, &toy), 0);
        return toy;
}

static struct api_client *connect_toy(const struct toy_server *toy) {
        struct api_client *client;

        assert_int_equal(api_client_connect_unix(toy_server_socket(toy), &client), 0);
        return client;
}

/* Calls a method that must answer OK; returns the response. */
static ProtobufCMessage *call_ok(struct api_client *client, enum api_method method,
                                 const ProtobufCMessage *request) {
        struct api_call_result result;
        ProtobufCMessage *response;
        int r;

        r = api_client_call(client, method, request, TIMEOUT_MS, &result, &response);
        if (r < 0 || result.grpc_status != 0)
                fail_msg("%s: r=%d status=%d message=%s", api_method_info(method)->name, r,
                         result.grpc_status, result.message ? result.message : "");
        assert_int_equal(result.http_status, 200);
        api_call_result_done(&result);
        return response;
}

/* Calls a method that must fail; returns the status, message in *ret_message. */
static int call_status(struct api_client *client, enum api_method method,
                       const ProtobufCMessage *request, char **ret_message) {
        struct api_call_result result;
        ProtobufCMessage *response;
        int status;

        assert_int_equal(api_client_call(client, method, request, TIMEOUT_MS, &result, &response),
                         0);
        assert_null(response);
        status = result.grpc_status;
        if (ret_message) {
                *ret_message = result.message;
                result.message = NULL;
        }
        api_call_result_done(&result);
        return status;
}

/* Sends raw bytes (prefix included) to a path; returns the gRPC status. */
static int call_raw_status(struct api_client *client, const char *path, const void *body,
                           size_t length, char **ret_message) {
        struct api_call_result result;
        int status;

        assert_int_equal(api_client_call_raw(client, path, body, length, TIMEOUT_MS, &result), 0);
        status = result.grpc_status;
        if (ret_message) {
                *ret_message = result.message;
                result.message = NULL;
        }
        api_call_result_done(&result);
        return status;
}

static uint8_t *pack(const ProtobufCMessage *m, size_t *ret_length) {
        size_t n = protobuf_c_message_get_packed_size(m);
        uint8_t *buffer = malloc(n ? n : 1);

        assert_non_null(buffer);
        protobuf_c_message_pack(m, buffer);
        *ret_length = n;
        return buffer;
}

/* Same fields, same values: protobuf-c packs deterministically in field order. */
static void assert_same_message(const ProtobufCMessage *a, const ProtobufCMessage *b) {
        size_t na, nb;
        _cleanup_free_ uint8_t *pa = pack(a, &na);
        _cleanup_free_ uint8_t *pb = pack(b, &nb);

        assert_ptr_equal(a->descriptor, b->descriptor);
        assert_int_equal(na, nb);
        assert_memory_equal(pa, pb, na);
}

/* The request the server received last for method equals sent. */
static void assert_received(struct toy_server *toy, enum api_method method,
                            const ProtobufCMessage *sent) {
        _cleanup_free_ uint8_t *data = NULL;
        ProtobufCMessage *received;
        size_t length;

        assert_int_equal(toy_server_last_request(toy, method, &data, &length), 0);
        received = protobuf_c_message_unpack(api_method_info(method)->request, NULL, length, data);
        assert_non_null(received);
        assert_same_message(received, sent);
        protobuf_c_message_free_unpacked(received, NULL);
}

static uint8_t *pattern(size_t length, uint8_t seed) {
        uint8_t *p = malloc(length ? length : 1);

        assert_non_null(p);
        for (size_t i = 0; i < length; i++)
                p[i] = (uint8_t)(i * 131 + seed + (i >> 12));
        return p;
}

/* A PoRep submission with every reference field set, and vanilla_proof bytes. */
static void fill_submit(Cuzk__V1__SubmitProofRequest *req, ProtobufCBinaryData *vanilla_proofs,
                        const uint8_t *vanilla, size_t vanilla_length) {
        static uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
        static uint8_t vp0[] = {1, 2, 3}, vp1[] = {0, 0, 0, 0xff};

        for (int i = 0; i < 32; i++) {
                randomness[i] = (uint8_t)i;
                comm_r_old[i] = (uint8_t)(0x40 + i);
                comm_r_new[i] = (uint8_t)(0x80 + i);
                comm_d_new[i] = (uint8_t)(0xc0 + i);
        }
        *req = (Cuzk__V1__SubmitProofRequest)CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        req->request_id = (char *)"curio-sector-1234";
        req->proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        req->sector_size = 34359738368ull;
        req->registered_proof = 8;
        req->priority = CUZK__V1__PRIORITY__HIGH;
        req->vanilla_proof = (ProtobufCBinaryData){vanilla_length, (uint8_t *)vanilla};
        vanilla_proofs[0] = (ProtobufCBinaryData){sizeof(vp0), vp0};
        vanilla_proofs[1] = (ProtobufCBinaryData){sizeof(vp1), vp1};
        req->n_vanilla_proofs = 2;
        req->vanilla_proofs = vanilla_proofs;
        req->sector_number = 1234;
        req->miner_id = 0xfffffffffffull;
        req->randomness = (ProtobufCBinaryData){32, randomness};
        req->partition_index = 9;
        req->comm_r_old = (ProtobufCBinaryData){32, comm_r_old};
        req->comm_r_new = (ProtobufCBinaryData){32, comm_r_new};
        req->comm_d_new = (ProtobufCBinaryData){32, comm_d_new};
}

static void assert_completed(const Cuzk__V1__AwaitProofResponse *r, const char *job_id,
                             const uint8_t *expect_proof, size_t expect_length) {
        assert_string_equal(r->job_id, job_id);
        assert_int_equal(r->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
        assert_int_equal(r->proof.len, expect_length);
        assert_memory_equal(r->proof.data, expect_proof, expect_length);
        assert_string_equal(r->error_message, "");
        assert_int_equal(r->queue_wait_ms, 1);
        assert_int_equal(r->srs_load_ms, 2);
        assert_int_equal(r->synthesis_ms, 3);
        assert_int_equal(r->gpu_compute_ms, 4);
        assert_int_equal(r->total_ms, 10);
        assert_string_equal(r->proof_json, "{\"protocol\":\"groth16\"}");
        assert_string_equal(r->public_json, "[\"33\"]");
}

static void test_every_method(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        Cuzk__V1__SubmitProofRequest submit;
        ProtobufCBinaryData vanilla_proofs[2];
        static const char envelope[] =
                "{\"SectorNum\":1234,\"Phase1Out\":\"e30=\",\"SectorSize\":34359738368}";
        char *message;
        (void)state;

        fill_submit(&submit, vanilla_proofs, (const uint8_t *)envelope, strlen(envelope));

        /* SubmitProof, twice with one request_id: one job. */
        for (int i = 0; i < 2; i++) {
                Cuzk__V1__SubmitProofResponse *r = (Cuzk__V1__SubmitProofResponse *)call_ok(
                        client, API_METHOD_SUBMIT_PROOF, &submit.base);
                assert_string_equal(r->job_id, "job-1");
                assert_int_equal(r->queue_position, 0);
                assert_string_equal(r->assigned_gpu, "gpu0");
                protobuf_c_message_free_unpacked(&r->base, NULL);
                assert_received(toy, API_METHOD_SUBMIT_PROOF, &submit.base);
        }

        /* AwaitProof of a finished job. */
        {
                Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
                await.job_id = (char *)"job-1";
                await.timeout_ms = 30000;
                Cuzk__V1__AwaitProofResponse *r = (Cuzk__V1__AwaitProofResponse *)call_ok(
                        client, API_METHOD_AWAIT_PROOF, &await.base);
                assert_completed(r, "job-1", proof, sizeof(proof));
                protobuf_c_message_free_unpacked(&r->base, NULL);
                assert_received(toy, API_METHOD_AWAIT_PROOF, &await.base);

                await.job_id = (char *)"job-404";
                assert_int_equal(call_status(client, API_METHOD_AWAIT_PROOF, &await.base, &message),
                                 GRPC_STATUS_NOT_FOUND);
                assert_string_equal(message, "no job job-404");
                free(message);
        }

        /* Prove: a new job (cuzk's Groth16 extension fields), answered at once. */
        {
                Cuzk__V1__SubmitProofRequest groth16 = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
                Cuzk__V1__ProveRequest prove = CUZK__V1__PROVE_REQUEST__INIT;
                static uint8_t wtns[] = {'w', 't', 'n', 's', 2, 0, 0, 0};
                groth16.request_id = (char *)"groth16-1";
                groth16.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_SNARKJS;
                groth16.priority = CUZK__V1__PRIORITY__CRITICAL;
                groth16.zkey_path = (char *)"/var/lib/cuzk/circuit.zkey";
                groth16.wtns_path = (char *)"/tmp/witness.wtns";
                groth16.wtns = (ProtobufCBinaryData){sizeof(wtns), wtns};
                groth16.pce_path = (char *)"/var/lib/cuzk/porep.pce";
                groth16.params_path = (char *)"/var/lib/cuzk/porep.params";
                groth16.witness_path = (char *)"/tmp/porep.wtns";
                groth16.partitions = 10;
                prove.submit = &groth16;
                Cuzk__V1__ProveResponse *r =
                        (Cuzk__V1__ProveResponse *)call_ok(client, API_METHOD_PROVE, &prove.base);
                assert_non_null(r->result);
                assert_completed(r->result, "job-2", proof, sizeof(proof));
                protobuf_c_message_free_unpacked(&r->base, NULL);
                assert_received(toy, API_METHOD_PROVE, &prove.base);
        }

        /* CancelProof: a finished job was not running; an unknown one is NOT_FOUND. */
        {
                Cuzk__V1__CancelProofRequest cancel = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
                cancel.job_id = (char *)"job-2";
                Cuzk__V1__CancelProofResponse *r = (Cuzk__V1__CancelProofResponse *)call_ok(
                        client, API_METHOD_CANCEL_PROOF, &cancel.base);
                assert_false(r->was_running);
                protobuf_c_message_free_unpacked(&r->base, NULL);
                assert_received(toy, API_METHOD_CANCEL_PROOF, &cancel.base);
                cancel.job_id = (char *)"job-9";
                assert_int_equal(
                        call_status(client, API_METHOD_CANCEL_PROOF, &cancel.base, &message),
                        GRPC_STATUS_NOT_FOUND);
                /* The server names the method and the errno it got. */
                assert_string_equal(message, "CancelProof: No such file or directory");
                free(message);
        }

        /* GetStatus: every field, nested and repeated ones included. */
        {
                Cuzk__V1__GetStatusRequest request = CUZK__V1__GET_STATUS_REQUEST__INIT;
                Cuzk__V1__GetStatusResponse expect;
                ProtobufCMessage *r = call_ok(client, API_METHOD_GET_STATUS, &request.base);
                toy_fill_status(&expect);
                assert_same_message(r, &expect.base);
                protobuf_c_message_free_unpacked(r, NULL);
        }

        /* GetMetrics. */
        {
                Cuzk__V1__GetMetricsRequest request = CUZK__V1__GET_METRICS_REQUEST__INIT;
                Cuzk__V1__GetMetricsResponse *r = (Cuzk__V1__GetMetricsResponse *)call_ok(
                        client, API_METHOD_GET_METRICS, &request.base);
                assert_string_equal(r->prometheus_text, toy_metrics_text);
                protobuf_c_message_free_unpacked(&r->base, NULL);
        }

        /* PreloadSRS and EvictSRS, loaded and not; an empty id is refused. */
        {
                Cuzk__V1__PreloadSrsRequest preload = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
                Cuzk__V1__EvictSrsRequest evict = CUZK__V1__EVICT_SRS_REQUEST__INIT;
                Cuzk__V1__PreloadSrsResponse *p;
                Cuzk__V1__EvictSrsResponse *e;

                preload.circuit_id = (char *)"porep-32g";
                p = (Cuzk__V1__PreloadSrsResponse *)call_ok(client, API_METHOD_PRELOAD_SRS,
                                                            &preload.base);
                assert_true(p->already_loaded);
                assert_int_equal(p->load_time_ms, 0);
                protobuf_c_message_free_unpacked(&p->base, NULL);
                assert_received(toy, API_METHOD_PRELOAD_SRS, &preload.base);
                preload.circuit_id = (char *)"winning-post-32g";
                p = (Cuzk__V1__PreloadSrsResponse *)call_ok(client, API_METHOD_PRELOAD_SRS,
                                                            &preload.base);
                assert_false(p->already_loaded);
                assert_int_equal(p->load_time_ms, 4242);
                protobuf_c_message_free_unpacked(&p->base, NULL);
                preload.circuit_id = (char *)"";
                assert_int_equal(call_status(client, API_METHOD_PRELOAD_SRS, &preload.base, NULL),
                                 GRPC_STATUS_INVALID_ARGUMENT);

                evict.circuit_id = (char *)"porep-32g";
                e = (Cuzk__V1__EvictSrsResponse *)call_ok(client, API_METHOD_EVICT_SRS,
                                                          &evict.base);
                assert_true(e->was_loaded);
                assert_int_equal(e->freed_bytes, 47244640256ull);
                protobuf_c_message_free_unpacked(&e->base, NULL);
                assert_received(toy, API_METHOD_EVICT_SRS, &evict.base);
        }

        /* A handler's -EINVAL is INVALID_ARGUMENT. */
        submit.proof_kind = CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED;
        assert_int_equal(call_status(client, API_METHOD_SUBMIT_PROOF, &submit.base, &message),
                         GRPC_STATUS_INVALID_ARGUMENT);
        assert_string_equal(message, "SubmitProof: Invalid argument");
        free(message);

        api_client_free(client);
        toy_server_stop(toy);
}

/* A status message with '%', non-ASCII and control bytes survives percent-encoding. */
static void test_status_message_encoding(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        char *message;
        (void)state;

        await.job_id = (char *)"100% sûr\ttab";
        assert_int_equal(call_status(client, API_METHOD_AWAIT_PROOF, &await.base, &message),
                         GRPC_STATUS_NOT_FOUND);
        assert_string_equal(message, "no job 100% sûr\ttab");
        free(message);
        api_client_free(client);
        toy_server_stop(toy);
}

/* A 3 KiB request over DATA frames of 1 byte, then of 7 (the prefix split too). */
static void test_split_data_frames(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        static const size_t frame_sizes[] = {1, 7};
        _cleanup_free_ uint8_t *vanilla = pattern(3000, 5);
        ProtobufCBinaryData vanilla_proofs[2];
        Cuzk__V1__SubmitProofRequest submit;
        (void)state;

        fill_submit(&submit, vanilla_proofs, vanilla, 3000);
        for (size_t i = 0; i < sizeof(frame_sizes) / sizeof(frame_sizes[0]); i++) {
                api_client_set_max_data_frame(client, frame_sizes[i]);
                ProtobufCMessage *r = call_ok(client, API_METHOD_SUBMIT_PROOF, &submit.base);
                protobuf_c_message_free_unpacked(r, NULL);
                assert_received(toy, API_METHOD_SUBMIT_PROOF, &submit.base);
        }
        api_client_free(client);
        toy_server_stop(toy);
}

/* 100 MiB up (a SubmitProof vanilla_proof) and 100 MiB down (an AwaitProof proof). */
static void test_large_messages(void **state) {
        _cleanup_free_ uint8_t *large = pattern(LARGE_BYTES, 9);
        struct toy_server_options options = {.proof = large, .proof_length = LARGE_BYTES};
        struct toy_server *toy = start_toy(&options);
        struct api_client *client = connect_toy(toy);
        Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        ProtobufCBinaryData vanilla_proofs[2];
        Cuzk__V1__SubmitProofRequest submit;
        Cuzk__V1__AwaitProofResponse *r;
        ProtobufCMessage *s;
        (void)state;

        fill_submit(&submit, vanilla_proofs, large, LARGE_BYTES);
        s = call_ok(client, API_METHOD_SUBMIT_PROOF, &submit.base);
        protobuf_c_message_free_unpacked(s, NULL);
        assert_received(toy, API_METHOD_SUBMIT_PROOF, &submit.base);

        await.job_id = (char *)"job-1";
        r = (Cuzk__V1__AwaitProofResponse *)call_ok(client, API_METHOD_AWAIT_PROOF, &await.base);
        assert_completed(r, "job-1", large, LARGE_BYTES);
        protobuf_c_message_free_unpacked(&r->base, NULL);
        api_client_free(client);
        toy_server_stop(toy);
}

/* An empty message is a request with every field at its default. */
static void test_zero_length_message(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        static const uint8_t empty[GRPC_FRAME_PREFIX_BYTES] = {0};
        struct api_call_result result;
        Cuzk__V1__GetStatusResponse expect;
        ProtobufCMessage *r;
        (void)state;

        assert_int_equal(api_client_call_raw(client, api_method_info(API_METHOD_GET_STATUS)->path,
                                             empty, sizeof(empty), TIMEOUT_MS, &result),
                         0);
        assert_int_equal(result.grpc_status, GRPC_STATUS_OK);
        r = protobuf_c_message_unpack(&cuzk__v1__get_status_response__descriptor, NULL,
                                      result.body_length, result.body);
        assert_non_null(r);
        toy_fill_status(&expect);
        assert_same_message(r, &expect.base);
        protobuf_c_message_free_unpacked(r, NULL);
        api_call_result_done(&result);

        /* The handler sees a SubmitProofRequest with no proof kind. */
        assert_int_equal(call_raw_status(client, api_method_info(API_METHOD_SUBMIT_PROOF)->path,
                                         empty, sizeof(empty), NULL),
                         GRPC_STATUS_INVALID_ARGUMENT);
        api_client_free(client);
        toy_server_stop(toy);
}

static void test_malformed_requests(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        const char *submit_path = api_method_info(API_METHOD_SUBMIT_PROOF)->path;
        const char *status_path = api_method_info(API_METHOD_GET_STATUS)->path;
        const struct {
                const char *what;
                const uint8_t *body;
                size_t length;
                int expect;
        } cases[] = {
                /* Field 1 as a length-delimited string running past the end. */
                {"garbage protobuf", (const uint8_t[]){0, 0, 0, 0, 3, 0x0a, 0x7f, 0x41}, 8,
                 GRPC_STATUS_INVALID_ARGUMENT},
                {"wire type 7", (const uint8_t[]){0, 0, 0, 0, 2, 0x0f, 0x00}, 7,
                 GRPC_STATUS_INVALID_ARGUMENT},
                {"no message", NULL, 0, GRPC_STATUS_INVALID_ARGUMENT},
                {"half a prefix", (const uint8_t[]){0, 0, 0}, 3, GRPC_STATUS_INVALID_ARGUMENT},
                {"message cut short", (const uint8_t[]){0, 0, 0, 0, 10, 0x08, 1}, 7,
                 GRPC_STATUS_INVALID_ARGUMENT},
                {"two messages", (const uint8_t[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 10,
                 GRPC_STATUS_INVALID_ARGUMENT},
                {"compressed", (const uint8_t[]){1, 0, 0, 0, 2, 0x10, 1}, 7,
                 GRPC_STATUS_UNIMPLEMENTED},
                {"flag byte 2", (const uint8_t[]){2, 0, 0, 0, 0}, 5, GRPC_STATUS_INVALID_ARGUMENT},
                /* 300 MiB announced, a few bytes sent: refused before the rest comes. */
                {"over the limit", (const uint8_t[]){0, 0x12, 0xc0, 0, 0, 1, 2, 3}, 8,
                 GRPC_STATUS_RESOURCE_EXHAUSTED},
        };
        (void)state;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                int status =
                        call_raw_status(client, submit_path, cases[i].body, cases[i].length, NULL);
                if (status != cases[i].expect)
                        fail_msg("%s: status %d, expected %d", cases[i].what, status,
                                 cases[i].expect);
        }
        /* The connection is still good after all that. */
        assert_int_equal(
                call_raw_status(client, status_path, (const uint8_t[]){0, 0, 0, 0, 0}, 5, NULL),
                GRPC_STATUS_OK);
        api_client_free(client);
        toy_server_stop(toy);
}

/* A string field with a NUL byte (a path that protobuf-c would cut short there) is refused
 * before the handler sees it, naming the field, in every method and at any depth. */
static void test_nul_in_strings(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        /* SubmitProofRequest{proof_kind = 100, zkey_path = "/tmp/x\0/etc/shadow"}. */
        static const uint8_t submit[] = {0,   0,   0,   0,   23,  0x10, 100, 0xa2, 0x06, 18,
                                         '/', 't', 'm', 'p', '/', 'x',  0,   '/',  'e',  't',
                                         'c', '/', 's', 'h', 'a', 'd',  'o', 'w'};
        /* ProveRequest{submit = {wtns_path = "/w\0"}}. */
        static const uint8_t prove[] = {0, 0, 0, 0, 8, 0x0a, 6, 0xaa, 0x06, 3, '/', 'w', 0};
        /* PreloadSrsRequest{circuit_id = "/k.zkey\0x"}. */
        static const uint8_t preload[] = {0,   0,   0,   0,   11,  0x0a, 9, '/',
                                          'k', '.', 'z', 'k', 'e', 'y',  0, 'x'};
        static const struct {
                enum api_method method;
                const uint8_t *body;
                size_t length;
                const char *field;
        } cases[] = {
                {API_METHOD_SUBMIT_PROOF, submit, sizeof(submit), "SubmitProofRequest.zkey_path"},
                {API_METHOD_PROVE, prove, sizeof(prove), "ProveRequest.submit.wtns_path"},
                {API_METHOD_PRELOAD_SRS, preload, sizeof(preload), "PreloadSrsRequest.circuit_id"},
        };
        _cleanup_free_ uint8_t *data = NULL;
        size_t length;
        (void)state;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                const char *path = api_method_info(cases[i].method)->path;
                char *message = NULL;

                assert_int_equal(
                        call_raw_status(client, path, cases[i].body, cases[i].length, &message),
                        GRPC_STATUS_INVALID_ARGUMENT);
                assert_non_null(message);
                if (!strstr(message, cases[i].field) || !strstr(message, "NUL byte"))
                        fail_msg("%s: \"%s\" does not name %s", path, message, cases[i].field);
                free(message);
                assert_int_equal(toy_server_last_request(toy, cases[i].method, &data, &length),
                                 -ENOENT);
        }
        api_client_free(client);
        toy_server_stop(toy);
}

static void test_unknown_methods(void **state) {
        struct toy_server *toy = start_toy(NULL);
        struct api_client *client = connect_toy(toy);
        static const uint8_t empty[GRPC_FRAME_PREFIX_BYTES] = {0};
        static const char *const paths[] = {
                "/cuzk.v1.ProvingEngine/Nope",
                "/cuzk.v2.ProvingEngine/GetStatus",
                "/cuzk.v1.ProvingEngine/getstatus",
                "/",
        };
        char *message;
        (void)state;

        for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
                assert_int_equal(call_raw_status(client, paths[i], empty, sizeof(empty), &message),
                                 GRPC_STATUS_UNIMPLEMENTED);
                assert_non_null(strstr(message, paths[i]));
                free(message);
        }
        api_client_free(client);
        toy_server_stop(toy);
}

static uint8_t *frame(const ProtobufCMessage *m, size_t *ret_length) {
        size_t n = protobuf_c_message_get_packed_size(m);
        uint8_t *buffer = malloc(GRPC_FRAME_PREFIX_BYTES + n);

        assert_non_null(buffer);
        grpc_frame_prefix(buffer, (uint32_t)n);
        protobuf_c_message_pack(m, buffer + GRPC_FRAME_PREFIX_BYTES);
        *ret_length = GRPC_FRAME_PREFIX_BYTES + n;
        return buffer;
}

static void submit_one(struct api_client *client) {
        Cuzk__V1__SubmitProofRequest submit;
        ProtobufCBinaryData vanilla_proofs[2];

        fill_submit(&submit, vanilla_proofs, (const uint8_t *)"{}", 2);
        protobuf_c_message_free_unpacked(call_ok(client, API_METHOD_SUBMIT_PROOF, &submit.base),
                                         NULL);
}

static void wait_for_waiters(struct toy_server *toy, unsigned n) {
        for (int i = 0; i < 2000 && toy_server_open_waiters(toy) != n; i++)
                usleep(1000);
        assert_int_equal(toy_server_open_waiters(toy), n);
}

/* AwaitProof left open while other calls on the same connection and on a
 * second one complete; then the job finishes and both waiters are answered. */
static void test_deferred_and_concurrent(void **state) {
        struct toy_server_options options = {
                .proof = proof, .proof_length = sizeof(proof), .jobs_stay_running = true};
        struct toy_server *toy = start_toy(&options);
        struct api_client *client = connect_toy(toy), *other = connect_toy(toy);
        Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        Cuzk__V1__GetMetricsRequest metrics = CUZK__V1__GET_METRICS_REQUEST__INIT;
        _cleanup_free_ uint8_t *await_body = NULL;
        size_t await_length;
        struct api_call_result result;
        int32_t first, second;
        ProtobufCMessage *r;
        (void)state;

        submit_one(client);
        await.job_id = (char *)"job-1";
        await_body = frame(&await.base, &await_length);
        assert_int_equal(api_client_start(client, api_method_info(API_METHOD_AWAIT_PROOF)->path,
                                          await_body, await_length, &first),
                         0);
        assert_int_equal(api_client_start(other, api_method_info(API_METHOD_AWAIT_PROOF)->path,
                                          await_body, await_length, &second),
                         0);
        /* A call started after the first finishes before it, on the same connection. */
        r = call_ok(client, API_METHOD_GET_METRICS, &metrics.base);
        protobuf_c_message_free_unpacked(r, NULL);
        r = call_ok(other, API_METHOD_GET_METRICS, &metrics.base);
        protobuf_c_message_free_unpacked(r, NULL);
        wait_for_waiters(toy, 2);

        toy_server_complete_jobs(toy);
        for (int i = 0; i < 2; i++) {
                Cuzk__V1__AwaitProofResponse *a;
                assert_int_equal(api_client_wait(i ? other : client, i ? second : first, TIMEOUT_MS,
                                                 &result),
                                 0);
                assert_int_equal(result.grpc_status, GRPC_STATUS_OK);
                a = (Cuzk__V1__AwaitProofResponse *)protobuf_c_message_unpack(
                        &cuzk__v1__await_proof_response__descriptor, NULL, result.body_length,
                        result.body);
                assert_non_null(a);
                assert_completed(a, "job-1", proof, sizeof(proof));
                protobuf_c_message_free_unpacked(&a->base, NULL);
                api_call_result_done(&result);
        }
        assert_int_equal(toy_server_open_waiters(toy), 0);
        assert_int_equal(toy_server_abandoned_calls(toy), 0);
        api_client_free(other);
        api_client_free(client);
        toy_server_stop(toy);
}

/* AwaitProof with timeout_ms answers TIMEOUT from the loop when it passes;
 * CancelProof of a running job answers its Prove waiter CANCELLED. */
static void test_deferred_timeout_and_cancel(void **state) {
        struct toy_server_options options = {
                .proof = proof, .proof_length = sizeof(proof), .jobs_stay_running = true};
        struct toy_server *toy = start_toy(&options);
        struct api_client *client = connect_toy(toy), *other = connect_toy(toy);
        Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        Cuzk__V1__CancelProofRequest cancel = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        Cuzk__V1__SubmitProofRequest submit = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        Cuzk__V1__ProveRequest prove = CUZK__V1__PROVE_REQUEST__INIT;
        Cuzk__V1__AwaitProofResponse *a;
        Cuzk__V1__CancelProofResponse *c;
        _cleanup_free_ uint8_t *prove_body = NULL;
        struct api_call_result result;
        Cuzk__V1__ProveResponse *p;
        size_t prove_length;
        int32_t prove_call;
        double start;
        int r;
        (void)state;

        submit_one(client);
        await.job_id = (char *)"job-1";
        await.timeout_ms = 200;
        start = clock_now_seconds();
        a = (Cuzk__V1__AwaitProofResponse *)call_ok(client, API_METHOD_AWAIT_PROOF, &await.base);
        assert_true(clock_now_seconds() - start >= 0.19);
        assert_string_equal(a->job_id, "job-1");
        assert_int_equal(a->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
        protobuf_c_message_free_unpacked(&a->base, NULL);

        submit.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
        submit.request_id = (char *)"winning";
        prove.submit = &submit;
        prove_body = frame(&prove.base, &prove_length);
        /* A client that gives up on a waiting call resets its stream: abandoned. */
        assert_int_equal(api_client_start(other, api_method_info(API_METHOD_PROVE)->path,
                                          prove_body, prove_length, &prove_call),
                         0);
        wait_for_waiters(toy, 1);
        r = api_client_wait(other, prove_call, 0, &result);
        if (r != -ETIMEDOUT)
                fail_msg("r=%d status=%d http=%d %s", r, result.grpc_status, result.http_status,
                         result.message);
        api_call_result_done(&result);
        wait_for_waiters(toy, 0);
        assert_int_equal(toy_server_abandoned_calls(toy), 1);

        /* Again (the same request_id: the same job-2), cancelled from the other client. */
        assert_int_equal(api_client_start(other, api_method_info(API_METHOD_PROVE)->path,
                                          prove_body, prove_length, &prove_call),
                         0);
        wait_for_waiters(toy, 1);
        cancel.job_id = (char *)"job-2";
        c = (Cuzk__V1__CancelProofResponse *)call_ok(client, API_METHOD_CANCEL_PROOF, &cancel.base);
        assert_true(c->was_running);
        protobuf_c_message_free_unpacked(&c->base, NULL);
        assert_int_equal(api_client_wait(other, prove_call, TIMEOUT_MS, &result), 0);
        p = (Cuzk__V1__ProveResponse *)protobuf_c_message_unpack(
                &cuzk__v1__prove_response__descriptor, NULL, result.body_length, result.body);
        assert_non_null(p);
        assert_non_null(p->result);
        assert_string_equal(p->result->job_id, "job-2");
        assert_int_equal(p->result->status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED);
        assert_string_equal(p->result->error_message, "cancelled by request");
        protobuf_c_message_free_unpacked(&p->base, NULL);
        api_call_result_done(&result);

        api_client_free(other);
        api_client_free(client);
        toy_server_stop(toy);
}

/* A client that disconnects with a call open: the daemon is told, once. */
static void test_disconnect_abandons(void **state) {
        struct toy_server_options options = {
                .proof = proof, .proof_length = sizeof(proof), .jobs_stay_running = true};
        struct toy_server *toy = start_toy(&options);
        struct api_client *client = connect_toy(toy);
        Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        _cleanup_free_ uint8_t *body = NULL;
        size_t length;
        int32_t call;
        (void)state;

        submit_one(client);
        await.job_id = (char *)"job-1";
        body = frame(&await.base, &length);
        assert_int_equal(api_client_start(client, api_method_info(API_METHOD_AWAIT_PROOF)->path,
                                          body, length, &call),
                         0);
        assert_int_equal(api_client_start(client, api_method_info(API_METHOD_AWAIT_PROOF)->path,
                                          body, length, &call),
                         0);
        wait_for_waiters(toy, 2);
        api_client_free(client);
        wait_for_waiters(toy, 0);
        assert_int_equal(toy_server_abandoned_calls(toy), 2);
        toy_server_stop(toy);
}

/* Stopping the server with a call open closes the connection under the client. */
static void test_server_stop_with_open_call(void **state) {
        struct toy_server_options options = {
                .proof = proof, .proof_length = sizeof(proof), .jobs_stay_running = true};
        struct toy_server *toy = start_toy(&options);
        struct api_client *client = connect_toy(toy);
        Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
        _cleanup_free_ uint8_t *body = NULL;
        struct api_call_result result;
        size_t length;
        int32_t call;
        (void)state;

        submit_one(client);
        await.job_id = (char *)"job-1";
        body = frame(&await.base, &length);
        assert_int_equal(api_client_start(client, api_method_info(API_METHOD_AWAIT_PROOF)->path,
                                          body, length, &call),
                         0);
        wait_for_waiters(toy, 1);
        toy_server_stop(toy);
        assert_int_equal(api_client_wait(client, call, TIMEOUT_MS, &result), -ECONNRESET);
        api_call_result_done(&result);
        api_client_free(client);
}

/* An inherited listening socket (socket activation), and TCP on loopback. */
static void test_activation_and_tcp(void **state) {
        struct toy_server_options options = {.proof = proof,
                                             .proof_length = sizeof(proof),
                                             .socket_activation = true,
                                             .tcp = true};
        struct toy_server *toy = start_toy(&options);
        Cuzk__V1__GetMetricsRequest metrics = CUZK__V1__GET_METRICS_REQUEST__INIT;
        struct api_client *clients[2];
        (void)state;

        clients[0] = connect_toy(toy);
        assert_int_not_equal(toy_server_tcp_port(toy), 0);
        assert_int_equal(api_client_connect_tcp("127.0.0.1", toy_server_tcp_port(toy), &clients[1]),
                         0);
        for (int i = 0; i < 2; i++) {
                Cuzk__V1__GetMetricsResponse *r = (Cuzk__V1__GetMetricsResponse *)call_ok(
                        clients[i], API_METHOD_GET_METRICS, &metrics.base);
                assert_string_equal(r->prometheus_text, toy_metrics_text);
                protobuf_c_message_free_unpacked(&r->base, NULL);
                api_client_free(clients[i]);
        }
        toy_server_stop(toy);
}

/* The frame reader alone, fed one byte at a time. */
/* One client of test_request_memory_cap, on its own thread: three SubmitProof calls
 * in flight on its connection; the number that ended OK in ok. */
struct memory_client {
        const struct toy_server *toy;
        const uint8_t *body;
        size_t length;
        int ok;
};

static void *memory_client_run(void *userdata) {
        struct memory_client *m = userdata;
        const char *path = api_method_info(API_METHOD_SUBMIT_PROOF)->path;
        struct api_call_result result;
        struct api_client *client;
        int32_t calls[3];

        if (api_client_connect_unix(toy_server_socket(m->toy), &client) < 0)
                return NULL;
        for (int i = 0; i < 3; i++)
                if (api_client_start(client, path, m->body, m->length, &calls[i]) < 0)
                        calls[i] = -1;
        for (int i = 0; i < 3; i++) {
                if (calls[i] < 0 || api_client_wait(client, calls[i], TIMEOUT_MS, &result) < 0)
                        continue;
                m->ok += result.grpc_status == GRPC_STATUS_OK;
                api_call_result_done(&result);
        }
        api_client_free(client);
        return NULL;
}

/* The request memory cap: messages that together exceed it all complete (a stream
 * waits for room, and gets its window when another's message is decoded, on its
 * connection or another), the buffered bytes stay under the cap and an eighth, and
 * all of it is given back. A cap below the largest message is refused. */
static void test_request_memory_cap(void **state) {
        const size_t message_bytes = 3u << 20, cap_bytes = 4u << 20;
        struct api_server_options server_options = {.max_message_bytes = cap_bytes,
                                                    .max_request_memory_bytes = cap_bytes};
        struct toy_server_options options = {
                .proof = proof, .proof_length = sizeof(proof), .server_options = &server_options};
        _cleanup_free_ uint8_t *large = pattern(message_bytes, 5);
        _cleanup_free_ uint8_t *body = NULL;
        struct api_request_memory_stats stats;
        ProtobufCBinaryData vanilla_proofs[2];
        Cuzk__V1__SubmitProofRequest submit;
        struct memory_client clients[2];
        pthread_t threads[2];
        struct toy_server *toy;
        size_t length;
        (void)state;

        server_options.max_request_memory_bytes = cap_bytes - 1;
        assert_int_equal(toy_server_start(&options, &toy), -EINVAL);
        server_options.max_request_memory_bytes = cap_bytes;

        toy = start_toy(&options);
        fill_submit(&submit, vanilla_proofs, large, message_bytes);
        body = frame(&submit.base, &length);
        for (int c = 0; c < 2; c++) {
                clients[c] = (struct memory_client){.toy = toy, .body = body, .length = length};
                assert_int_equal(pthread_create(&threads[c], NULL, memory_client_run, &clients[c]),
                                 0);
        }
        for (int c = 0; c < 2; c++) {
                pthread_join(threads[c], NULL);
                assert_int_equal(clients[c].ok, 3);
        }
        toy_server_request_memory(toy, &stats);
        assert_int_equal(stats.cap_bytes, cap_bytes);
        assert_true(stats.peak_bytes > message_bytes);
        assert_true(stats.peak_bytes <= cap_bytes + cap_bytes / 8);
        assert_int_equal(stats.reserved_bytes, 0);
        assert_int_equal(stats.unadmitted_bytes, 0);
        assert_int_equal(stats.waiting_calls, 0);
        toy_server_stop(toy);
}

static void test_frame_reader(void **state) {
        static const uint8_t stream[] = {0, 0, 0, 0, 3, 'a', 'b', 'c'};
        struct grpc_frame_reader r;
        char *s;
        (void)state;

        grpc_frame_reader_init(&r, 16);
        for (size_t i = 0; i < sizeof(stream); i++) {
                assert_false(r.complete);
                assert_int_equal(grpc_frame_reader_feed(&r, stream + i, 1), 0);
        }
        assert_int_equal(grpc_frame_reader_finish(&r), 0);
        assert_int_equal(r.message_length, 3);
        assert_memory_equal(r.message, "abc", 3);
        assert_int_equal(grpc_frame_reader_feed(&r, stream, 1), -EBADMSG);
        assert_int_equal(r.error, GRPC_STATUS_INVALID_ARGUMENT);
        grpc_frame_reader_done(&r);

        grpc_frame_reader_init(&r, 16);
        assert_int_equal(grpc_frame_reader_feed(&r, (const uint8_t[]){0, 0, 0, 0, 17}, 5),
                         -EBADMSG);
        assert_int_equal(r.error, GRPC_STATUS_RESOURCE_EXHAUSTED);
        assert_null(r.message); /* nothing allocated for a refused length */
        grpc_frame_reader_done(&r);

        /* The buffer grows with the bytes, not at the prefix. */
        grpc_frame_reader_init(&r, 1u << 20);
        assert_int_equal(grpc_frame_reader_feed(&r, (const uint8_t[]){0, 0, 0x10, 0, 0}, 5), 0);
        assert_true(grpc_frame_reader_has_length(&r));
        assert_int_equal(r.message_length, 1u << 20);
        assert_null(r.message);
        assert_int_equal(grpc_frame_reader_feed(&r, stream, 8), 0);
        assert_non_null(r.message);
        assert_true(r.message_allocated >= 8 && r.message_allocated < (1u << 20));
        grpc_frame_reader_done(&r);

        s = grpc_message_encode("a%b\n\xc3\xa9~");
        assert_string_equal(s, "a%25b%0A%C3%A9~");
        free(s);
        s = grpc_message_decode("a%25b%0a%C3%A9~%4", 17);
        assert_string_equal(s, "a%b\n\xc3\xa9~%4");
        free(s);
        assert_int_equal(grpc_status_from_errno(-ENOENT), GRPC_STATUS_NOT_FOUND);
        assert_int_equal(grpc_status_from_errno(-EIO), GRPC_STATUS_INTERNAL);
        assert_string_equal(grpc_status_name(12), "UNIMPLEMENTED");
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_frame_reader),
                cmocka_unit_test(test_request_memory_cap),
                cmocka_unit_test(test_every_method),
                cmocka_unit_test(test_status_message_encoding),
                cmocka_unit_test(test_split_data_frames),
                cmocka_unit_test(test_large_messages),
                cmocka_unit_test(test_zero_length_message),
                cmocka_unit_test(test_malformed_requests),
                cmocka_unit_test(test_nul_in_strings),
                cmocka_unit_test(test_unknown_methods),
                cmocka_unit_test(test_deferred_and_concurrent),
                cmocka_unit_test(test_deferred_timeout_and_cancel),
                cmocka_unit_test(test_disconnect_abandons),
                cmocka_unit_test(test_server_stop_with_open_call),
                cmocka_unit_test(test_activation_and_tcp),
        };

        for (size_t i = 0; i < sizeof(proof); i++)
                proof[i] = (uint8_t)(i * 7 + 1);
        return cmocka_run_group_tests(tests, NULL, NULL);
}
