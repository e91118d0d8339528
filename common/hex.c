/* SPDX-License-Identifier: Apache-2.0 */
#include "common/hex.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"

int hex_digit_value(char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -EINVAL;
}

const char *hex_skip_prefix(const char *hex) {
        assert(hex);

        if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
                return hex + 2;
        return hex;
}

int hex_decode(const char *hex, size_t n_bytes, uint8_t *out, size_t *ret_bad_offset) {
        assert(hex || n_bytes == 0);
        assert(out || n_bytes == 0);

        for (size_t i = 0; i < n_bytes; i++) {
                int hi = hex_digit_value(hex[2 * i]), lo;

                if (hi < 0 || (lo = hex_digit_value(hex[2 * i + 1])) < 0) {
                        if (ret_bad_offset)
                                *ret_bad_offset = 2 * i;
                        return -EINVAL;
                }
                out[i] = (uint8_t)(hi << 4 | lo);
        }
        return 0;
}

int hex_decode_alloc(const char *hex, uint8_t **ret, size_t *ret_length) {
        _cleanup_free_ uint8_t *bytes = NULL;
        size_t n;
        int r;

        assert(hex);
        assert(ret);
        assert(ret_length);

        hex = hex_skip_prefix(hex);
        n = strlen(hex);
        if (n % 2)
                return -EINVAL;
        bytes = malloc(n / 2 + 1); /* +1: an empty string is a valid, empty buffer */
        if (!bytes)
                return -ENOMEM;
        r = hex_decode(hex, n / 2, bytes, NULL);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(bytes);
        *ret_length = n / 2;
        return 0;
}
