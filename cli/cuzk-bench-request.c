/* SPDX-License-Identifier: Apache-2.0 */
/* The SubmitProofRequest that every job of a batch sends: cuzk's job types
 * as absolute paths, the reference's as file contents and hex fields. */
#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/hex.h"
#include "common/log.h"
#include "cuzk-bench.h"
#include "filecoin/c1/c1.h"

/* A C1 output of a 32 GiB sector is ~51 MB; the daemon accepts 128 MiB. */
#define MAX_INPUT_FILE_BYTES (128u << 20)
/* What the reference sends as sector_size, whatever the job. */
#define REFERENCE_SECTOR_SIZE (UINT64_C(32) << 30)
#define REFERENCE_RANDOMNESS_BYTES 32

static int base64_digit(char c) {
        if (c >= 'A' && c <= 'Z')
                return c - 'A';
        if (c >= 'a' && c <= 'z')
                return c - 'a' + 26;
        if (c >= '0' && c <= '9')
                return c - '0' + 52;
        if (c == '+')
                return 62;
        if (c == '/')
                return 63;
        return -1;
}

int bench_base64_decode(const char *text, uint8_t **ret, size_t *ret_length) {
        _cleanup_free_ uint8_t *bytes = NULL;
        size_t n, digits, out = 0;
        uint32_t acc = 0;

        assert(text);
        assert(ret);
        assert(ret_length);

        n = strlen(text);
        /* Padding only at the end, at most two. */
        digits = n;
        while (digits > 0 && n - digits < 2 && text[digits - 1] == '=')
                digits--;
        if (digits % 4 == 1 || (n != digits && n % 4 != 0))
                return -EINVAL;
        bytes = malloc(digits * 3 / 4 + 1);
        if (!bytes)
                return -ENOMEM;
        for (size_t i = 0; i < digits; i++) {
                int d = base64_digit(text[i]);

                if (d < 0)
                        return -EINVAL;
                acc = acc << 6 | (uint32_t)d;
                if (i % 4 == 3) {
                        bytes[out++] = (uint8_t)(acc >> 16);
                        bytes[out++] = (uint8_t)(acc >> 8);
                        bytes[out++] = (uint8_t)acc;
                        acc = 0;
                }
        }
        /* The tail: 2 digits make a byte, 3 digits two. */
        if (digits % 4 == 2)
                bytes[out++] = (uint8_t)(acc >> 4);
        else if (digits % 4 == 3) {
                bytes[out++] = (uint8_t)(acc >> 10);
                bytes[out++] = (uint8_t)(acc >> 2);
        }
        *ret = TAKE_PTR(bytes);
        *ret_length = out;
        return 0;
}

static int read_file(const char *option, const char *path, uint8_t **ret, size_t *ret_length) {
        _cleanup_fclose_ FILE *f = NULL;
        _cleanup_free_ uint8_t *data = NULL;
        struct stat st;
        size_t n;

        f = fopen(path, "rbe");
        if (!f)
                return log_error_errno(errno, "--%s=%s: cannot open: %m", option, path);
        if (fstat(fileno(f), &st) < 0)
                return log_error_errno(errno, "--%s=%s: %m", option, path);
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > MAX_INPUT_FILE_BYTES)
                return log_error_errno(EINVAL, "--%s=%s: expected a regular file of at most %u MiB",
                                       option, path, MAX_INPUT_FILE_BYTES >> 20);
        data = malloc((size_t)st.st_size + 1);
        if (!data)
                return -ENOMEM;
        n = fread(data, 1, (size_t)st.st_size, f);
        if (n != (size_t)st.st_size)
                // cppcheck-suppress memleak ; freed by _cleanup_
                return log_error_errno(EIO, "--%s=%s: short read (%zu of %lld bytes)", option, path,
                                       n, (long long)st.st_size);
        data[n] = 0; /* the JSON parser reads it as a string */
        *ret = TAKE_PTR(data);
        *ret_length = n;
        return 0;
}

/* The daemon has another working directory: it is sent absolute paths, of
 * files that exist (a typo fails here, not in every job). */
static int resolve(struct bench_request *r, unsigned slot, const char *option, const char *path,
                   char **ret) {
        struct stat st;

        if (!path)
                return 0;
        r->paths[slot] = realpath(path, NULL);
        if (!r->paths[slot])
                return log_error_errno(errno, "--%s=%s: %m", option, path);
        if (stat(r->paths[slot], &st) < 0 || !S_ISREG(st.st_mode))
                return log_error_errno(EINVAL, "--%s=%s: expected a regular file", option, path);
        *ret = r->paths[slot];
        return 0;
}

static int hex_field(struct bench_request *r, unsigned slot, const char *option, const char *hex,
                     ProtobufCBinaryData *ret) {
        int k;

        if (!hex)
                return 0;
        k = hex_decode_alloc(hex, &r->buffers[slot], &ret->len);
        if (k < 0)
                return log_error_errno(k, "--%s=%s: expected hex bytes", option, hex);
        ret->data = r->buffers[slot];
        return 0;
}

/* --vanilla: a JSON array of base64 strings (Go's json.Marshal of [][]byte),
 * else the whole file as one raw proof, as the reference reads it. */
static int load_vanilla(struct bench_request *r, const char *path) {
        _cleanup_free_ uint8_t *data = NULL;
        json_t *root, *item;
        size_t length, i;
        int k = 0;

        k = read_file("vanilla", path, &data, &length);
        if (k < 0)
                return k;
        root = json_loadb((const char *)data, length, 0, NULL);
        if (!json_is_array(root) || json_array_size(root) == 0) {
                json_decref(root);
                r->vanilla_proofs = calloc(1, sizeof(*r->vanilla_proofs));
                r->vanilla_buffers = calloc(1, sizeof(*r->vanilla_buffers));
                if (!r->vanilla_proofs || !r->vanilla_buffers)
                        return -ENOMEM;
                r->vanilla_proofs[0] = (ProtobufCBinaryData){.len = length, .data = data};
                r->vanilla_buffers[0] = TAKE_PTR(data);
                r->n_vanilla_proofs = 1;
                return 0;
        }
        r->vanilla_proofs = calloc(json_array_size(root), sizeof(*r->vanilla_proofs));
        r->vanilla_buffers = calloc(json_array_size(root), sizeof(*r->vanilla_buffers));
        if (!r->vanilla_proofs || !r->vanilla_buffers)
                k = -ENOMEM;
        json_array_foreach(root, i, item) {
                if (k < 0)
                        break;
                if (!json_is_string(item) ||
                    bench_base64_decode(json_string_value(item), &r->vanilla_buffers[i],
                                        &r->vanilla_proofs[i].len) < 0) {
                        k = log_error_errno(
                                EINVAL, "--vanilla=%s: entry %zu is not a base64 string", path, i);
                        break;
                }
                r->vanilla_proofs[i].data = r->vanilla_buffers[i];
                r->n_vanilla_proofs = i + 1;
        }
        json_decref(root);
        return k;
}

/* A PoRep job's fields as Curio fills them from the sector: the registered proof and sector
 * size of the C1 output, the sector number of its envelope (options given win). */
static int porep_fields(const struct bench_options *o, const uint8_t *c1_text, size_t length,
                        Cuzk__V1__SubmitProofRequest *s) {
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        struct c1_envelope_info env = {0};
        int r;

        r = c1_parse_any((const char *)c1_text, length, o->c1_path, &c1, &env);
        if (r < 0)
                return r == -ENOMEM ? r : -EINVAL;
        s->registered_proof = o->registered_proof_given ? o->registered_proof : c1->cfg->id;
        s->sector_size = c1->cfg->sector_bytes;
        s->sector_number = o->sector_num_given || !env.present ? o->sector_num : env.sector_num;
        return 0;
}

int bench_request_build(const struct bench_options *o, struct bench_request *ret) {
        struct bench_request r = {.submit = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT};
        Cuzk__V1__SubmitProofRequest *s = &r.submit;
        static uint8_t zero_randomness[REFERENCE_RANDOMNESS_BYTES];
        int k = 0;

        assert(o);
        assert(ret);

        s->proof_kind = o->kind;
        switch (o->kind) {
        case CUZK__V1__PROOF_KIND__GROTH16_SNARKJS:
                k = resolve(&r, 0, "zkey", o->zkey_path, &s->zkey_path);
                if (k >= 0)
                        k = resolve(&r, 1, "wtns", o->wtns_path, &s->wtns_path);
                break;
        case CUZK__V1__PROOF_KIND__SYNTHETIC_PCE:
                k = resolve(&r, 2, "pce", o->pce_path, &s->pce_path);
                if (k >= 0)
                        k = resolve(&r, 3, "params", o->params_path, &s->params_path);
                if (k >= 0)
                        k = resolve(&r, 4, "witness", o->witness_path, &s->witness_path);
                s->partitions = o->partitions;
                break;
        default:
                /* The reference's jobs, with its defaults. */
                s->sector_size = REFERENCE_SECTOR_SIZE;
                s->registered_proof = o->registered_proof;
                s->sector_number = o->sector_num;
                s->miner_id = o->miner_id;
                if (o->c1_path)
                        k = read_file("c1", o->c1_path, &r.buffers[0], &s->vanilla_proof.len);
                if (k >= 0 && o->c1_path)
                        k = porep_fields(o, r.buffers[0], s->vanilla_proof.len, s);
                s->vanilla_proof.data = r.buffers[0];
                if (k >= 0 && o->vanilla_path)
                        k = load_vanilla(&r, o->vanilla_path);
                s->vanilla_proofs = r.vanilla_proofs;
                s->n_vanilla_proofs = r.n_vanilla_proofs;
                s->randomness = (ProtobufCBinaryData){sizeof(zero_randomness), zero_randomness};
                if (k >= 0)
                        k = hex_field(&r, 1, "randomness", o->randomness_hex, &s->randomness);
                if (k >= 0)
                        k = hex_field(&r, 2, "comm-r-old", o->comm_r_old_hex, &s->comm_r_old);
                if (k >= 0)
                        k = hex_field(&r, 3, "comm-r-new", o->comm_r_new_hex, &s->comm_r_new);
                if (k >= 0)
                        k = hex_field(&r, 4, "comm-d-new", o->comm_d_new_hex, &s->comm_d_new);
                break;
        }
        if (k < 0) {
                bench_request_done(&r);
                return k;
        }
        *ret = r;
        return 0;
}

void bench_request_done(struct bench_request *r) {
        assert(r);
        for (size_t i = 0; i < ELEMENTSOF(r->paths); i++)
                free(r->paths[i]);
        for (size_t i = 0; i < ELEMENTSOF(r->buffers); i++)
                free(r->buffers[i]);
        for (size_t i = 0; r->vanilla_buffers && i < r->n_vanilla_proofs; i++)
                free(r->vanilla_buffers[i]);
        free(r->vanilla_buffers);
        free(r->vanilla_proofs);
        *r = (struct bench_request){0};
}
