/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/ref.h"

#include <stdlib.h>
#include <string.h>

#ifndef CUZK_SOURCE_ROOT
#error "CUZK_SOURCE_ROOT must be defined by the build"
#endif

FILE *ref_run(const char *script, const char *args) {
        char cmd[4096];
        FILE *f;

        snprintf(cmd, sizeof(cmd), "node '%s/tests/node/%s' %s", CUZK_SOURCE_ROOT, script,
                 args ? args : "");
        f = popen(cmd, "r");
        if (!f) {
                fprintf(stderr, "ref: cannot run %s\n", cmd);
                abort();
        }
        return f;
}

json_t *ref_next(FILE *f) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        json_t *v;
        json_error_t err;

        n = getline(&line, &cap, f);
        if (n <= 0) {
                free(line);
                return NULL;
        }
        v = json_loads(line, 0, &err);
        if (!v) {
                fprintf(stderr, "ref: bad JSON line from reference script: %s (%s)\n", line,
                        err.text);
                abort();
        }
        free(line);
        return v;
}

int ref_close(FILE *f) {
        int status = pclose(f);
        return status;
}

bool ref_hex_to_limbs(uint64_t *limbs, size_t n, const char *hex) {
        size_t len;

        memset(limbs, 0, n * sizeof(uint64_t));
        if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
                hex += 2;
        len = strlen(hex);
        for (size_t i = 0; i < len; i++) {
                char c = hex[len - 1 - i];
                uint64_t d;
                if (c >= '0' && c <= '9')
                        d = (uint64_t)(c - '0');
                else if (c >= 'a' && c <= 'f')
                        d = (uint64_t)(c - 'a' + 10);
                else if (c >= 'A' && c <= 'F')
                        d = (uint64_t)(c - 'A' + 10);
                else
                        return false;
                if (d == 0)
                        continue;
                if (i / 16 >= n)
                        return false;
                limbs[i / 16] |= d << (4 * (i % 16));
        }
        return true;
}

void ref_limbs_to_hex(char *buf, const uint64_t *limbs, size_t n) {
        static const char digits[] = "0123456789abcdef";
        size_t pos = 0;
        bool started = false;

        buf[pos++] = '0';
        buf[pos++] = 'x';
        for (size_t i = n * 16; i-- > 0;) {
                unsigned d = (unsigned)(limbs[i / 16] >> (4 * (i % 16))) & 0xf;
                if (!d && !started && i)
                        continue;
                started = true;
                buf[pos++] = digits[d];
        }
        buf[pos] = 0;
}

static const char *json_hex(const json_t *v) {
        const char *s = json_string_value(v);
        if (!s) {
                fprintf(stderr, "ref: expected a hex string in the reference output\n");
                abort();
        }
        return s;
}

void ref_fp_from_json(fp_t *r, const json_t *v) {
        uint64_t l[FP_LIMBS];
        const char *s = json_hex(v);
        if (!ref_hex_to_limbs(l, FP_LIMBS, s) || !fp_from_canonical(r, l)) {
                fprintf(stderr, "ref: %s is not an Fp element\n", s);
                abort();
        }
}

void ref_fr_from_json(fr_t *r, const json_t *v) {
        uint64_t l[FR_LIMBS];
        const char *s = json_hex(v);
        if (!ref_hex_to_limbs(l, FR_LIMBS, s) || !fr_from_canonical(r, l)) {
                fprintf(stderr, "ref: %s is not an Fr element\n", s);
                abort();
        }
}

void ref_fp2_from_json(fp2_t *r, const json_t *v) {
        if (!json_is_array(v) || json_array_size(v) != 2) {
                fprintf(stderr, "ref: expected [c0, c1] for an Fp2 element\n");
                abort();
        }
        ref_fp_from_json(&r->c0, json_array_get(v, 0));
        ref_fp_from_json(&r->c1, json_array_get(v, 1));
}

static const json_t *json_key(const json_t *obj, const char *key) {
        const json_t *v = json_object_get(obj, key);
        if (!v) {
                fprintf(stderr, "ref: key '%s' missing in the reference output\n", key);
                abort();
        }
        return v;
}

void ref_get_fp(fp_t *r, const json_t *obj, const char *key) {
        ref_fp_from_json(r, json_key(obj, key));
}

void ref_get_fr(fr_t *r, const json_t *obj, const char *key) {
        ref_fr_from_json(r, json_key(obj, key));
}

void ref_get_fp2(fp2_t *r, const json_t *obj, const char *key) {
        ref_fp2_from_json(r, json_key(obj, key));
}

static uint64_t rng_state[4];

static uint64_t rotl(uint64_t x, int k) {
        return (x << k) | (x >> (64 - k));
}

void test_rng_seed(uint64_t seed) {
        /* splitmix64 to spread the seed over the state */
        for (int i = 0; i < 4; i++) {
                uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                rng_state[i] = z ^ (z >> 31);
        }
}

uint64_t test_rng_u64(void) {
        uint64_t *s = rng_state;
        uint64_t result = rotl(s[1] * 5, 7) * 9;
        uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
}

void test_rng_fp(fp_t *r) {
        uint64_t l[FP_LIMBS];
        do {
                for (int i = 0; i < FP_LIMBS; i++)
                        l[i] = test_rng_u64();
                l[FP_LIMBS - 1] &= (1ULL << 61) - 1;
        } while (!fp_from_canonical(r, l));
}

void test_rng_fr(fr_t *r) {
        uint64_t l[FR_LIMBS];
        do {
                for (int i = 0; i < FR_LIMBS; i++)
                        l[i] = test_rng_u64();
                l[FR_LIMBS - 1] &= (1ULL << 63) - 1;
        } while (!fr_from_canonical(r, l));
}

void test_rng_fp2(fp2_t *r) {
        test_rng_fp(&r->c0);
        test_rng_fp(&r->c1);
}
