/* SPDX-License-Identifier: Apache-2.0 */
#include "zk_error.h"

#include <limits.h>
#include <string.h>

static const char *const zk_error_text[ZK_E_MAX_ - ZK_ERROR_BASE] = {
        [ZK_E_WRONG_LENGTH - ZK_ERROR_BASE] = "wrong length",
        [ZK_E_BAD_FLAGS - ZK_ERROR_BASE] = "bad flag bits",
        [ZK_E_NOT_CANONICAL - ZK_ERROR_BASE] = "coordinate not canonical (>= p)",
        [ZK_E_NOT_ON_CURVE - ZK_ERROR_BASE] = "not on the curve",
        [ZK_E_NOT_IN_SUBGROUP - ZK_ERROR_BASE] = "not in the prime-order subgroup",
        [ZK_E_INFINITY_NOT_ZERO - ZK_ERROR_BASE] = "infinity with non-zero bits",
};

const char *zk_strerror(int r) {
        int code;

        if (r == INT_MIN)
                return "unknown error";
        code = r < 0 ? -r : r;
        if (code >= ZK_ERROR_BASE && code < ZK_E_MAX_)
                return zk_error_text[code - ZK_ERROR_BASE];
        return strerror(code);
}
