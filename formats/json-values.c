/* SPDX-License-Identifier: Apache-2.0 */
#include "json-values.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "decimal.h"
#include "zk/zk_error.h"

/* JSON paths in messages are at most this long ("vk_alphabeta_12[1][2][0]"). */
#define JSON_WHAT_MAX 128

/* Reads a decimal string into n canonical limbs; the caller checks the range. */
static int json_read_decimal(const json_t *v, const char *origin, const char *what, uint64_t *limbs,
                             size_t n, const char *bound) {
        const char *s = json_string_value(v);

        if (!s)
                return log_error_errno(EBADMSG,
                                       "%s: %s is not a string, expected a decimal number below %s",
                                       origin, what, bound);
        if (!decimal_to_limbs(limbs, n, s))
                return log_error_errno(EBADMSG,
                                       "%s: %s is \"%.80s\", expected a decimal number below %s",
                                       origin, what, s, bound);
        return 0;
}

int json_read_fp(const json_t *v, const char *origin, const char *what, fp_t *ret) {
        uint64_t limbs[FP_LIMBS];
        int k;

        assert(origin);
        assert(what);
        assert(ret);

        k = json_read_decimal(v, origin, what, limbs, FP_LIMBS, "p");
        if (k < 0)
                return k;
        if (!fp_from_canonical(ret, limbs))
                return log_error_errno(EBADMSG, "%s: %s is \"%.80s\", expected a value below p",
                                       origin, what, json_string_value(v));
        return 0;
}

int json_read_fr(const json_t *v, const char *origin, const char *what, fr_t *ret) {
        uint64_t limbs[FR_LIMBS];
        int k;

        assert(origin);
        assert(what);
        assert(ret);

        k = json_read_decimal(v, origin, what, limbs, FR_LIMBS, "r");
        if (k < 0)
                return k;
        if (!fr_from_canonical(ret, limbs))
                return log_error_errno(EBADMSG, "%s: %s is \"%.80s\", expected a value below r",
                                       origin, what, json_string_value(v));
        return 0;
}

/* The array v of exactly n elements (or min_n..n). */
static int json_read_array(const json_t *v, const char *origin, const char *what, size_t min_n,
                           size_t n) {
        if (!json_is_array(v) || json_array_size(v) < min_n || json_array_size(v) > n)
                return log_error_errno(EBADMSG, "%s: %s is not an array of %zu elements", origin,
                                       what, n);
        return 0;
}

int json_read_fp2(const json_t *v, const char *origin, const char *what, fp2_t *ret) {
        char name[JSON_WHAT_MAX];
        int k;

        assert(ret);
        k = json_read_array(v, origin, what, 2, 2);
        if (k < 0)
                return k;
        snprintf(name, sizeof(name), "%s[0]", what);
        k = json_read_fp(json_array_get(v, 0), origin, name, &ret->c0);
        if (k < 0)
                return k;
        snprintf(name, sizeof(name), "%s[1]", what);
        return json_read_fp(json_array_get(v, 1), origin, name, &ret->c1);
}

static int json_point_error(const char *origin, const char *what, int error) {
        return log_error_errno(EBADMSG, "%s: %s: %s", origin, what, zk_strerror(error));
}

/*
 * snarkjs writes affine points with z = 1 and infinity with z = 0 (and
 * accepts a missing z as 1); a Jacobian z would be a different point
 * encoding that it never writes, so it is refused.
 */
int json_read_g1(const json_t *v, const char *origin, const char *what, g1_affine_t *ret) {
        char name[JSON_WHAT_MAX];
        fp_t coord[3];
        int k;

        assert(ret);
        k = json_read_array(v, origin, what, 2, 3);
        if (k < 0)
                return k;
        fp_set_one(&coord[2]);
        for (size_t i = 0; i < json_array_size(v); i++) {
                snprintf(name, sizeof(name), "%s[%zu]", what, i);
                k = json_read_fp(json_array_get(v, i), origin, name, &coord[i]);
                if (k < 0)
                        return k;
        }
        if (fp_is_zero(&coord[2])) {
                g1_affine_set_infinity(ret);
                return 0;
        }
        if (!fp_is_one(&coord[2]))
                return log_error_errno(EBADMSG,
                                       "%s: %s[2] (z) is not 1 or 0, expected an affine point",
                                       origin, what);
        ret->x = coord[0];
        ret->y = coord[1];
        /* (0, 0) with z = 1 is no point: infinity is written with z = 0. */
        if (g1_affine_is_infinity(ret) || !g1_affine_is_on_curve(ret))
                return json_point_error(origin, what, ZK_E_NOT_ON_CURVE);
        if (!g1_affine_in_subgroup(ret))
                return json_point_error(origin, what, ZK_E_NOT_IN_SUBGROUP);
        return 0;
}

int json_read_g2(const json_t *v, const char *origin, const char *what, g2_affine_t *ret) {
        char name[JSON_WHAT_MAX];
        fp2_t coord[3];
        int k;

        assert(ret);
        k = json_read_array(v, origin, what, 2, 3);
        if (k < 0)
                return k;
        fp2_set_one(&coord[2]);
        for (size_t i = 0; i < json_array_size(v); i++) {
                snprintf(name, sizeof(name), "%s[%zu]", what, i);
                k = json_read_fp2(json_array_get(v, i), origin, name, &coord[i]);
                if (k < 0)
                        return k;
        }
        if (fp2_is_zero(&coord[2])) {
                g2_affine_set_infinity(ret);
                return 0;
        }
        if (!fp2_is_one(&coord[2]))
                return log_error_errno(
                        EBADMSG, "%s: %s[2] (z) is not [1, 0] or [0, 0], expected an affine point",
                        origin, what);
        ret->x = coord[0];
        ret->y = coord[1];
        /* (0, 0) with z = 1 is no point: infinity is written with z = 0. */
        if (g2_affine_is_infinity(ret) || !g2_affine_is_on_curve(ret))
                return json_point_error(origin, what, ZK_E_NOT_ON_CURVE);
        if (!g2_affine_in_subgroup(ret))
                return json_point_error(origin, what, ZK_E_NOT_IN_SUBGROUP);
        return 0;
}

const json_t *json_read_member(const json_t *obj, const char *origin, const char *key) {
        const json_t *v;

        assert(origin);
        assert(key);

        if (!json_is_object(obj)) {
                log_error("%s: not a JSON object, expected one with \"%s\"", origin, key);
                return NULL;
        }
        v = json_object_get(obj, key);
        if (!v)
                log_error("%s: \"%s\" is missing", origin, key);
        return v;
}

int json_read_expect_string(const json_t *obj, const char *origin, const char *key,
                            const char *expected) {
        const json_t *v = json_read_member(obj, origin, key);
        const char *s;

        assert(expected);
        if (!v)
                return -EBADMSG;
        s = json_string_value(v);
        if (!s || strcmp(s, expected) != 0)
                return log_error_errno(EOPNOTSUPP, "%s: \"%s\" is \"%.40s\", expected \"%s\"",
                                       origin, key, s ? s : "(not a string)", expected);
        return 0;
}

json_t *json_from_fp(const fp_t *a) {
        char buf[DECIMAL_BUFFER_SIZE(FP_LIMBS)];
        uint64_t limbs[FP_LIMBS];

        assert(a);
        fp_to_canonical(limbs, a);
        decimal_from_limbs(buf, limbs, FP_LIMBS);
        return json_string(buf);
}

json_t *json_from_fr(const fr_t *a) {
        char buf[DECIMAL_BUFFER_SIZE(FR_LIMBS)];
        uint64_t limbs[FR_LIMBS];

        assert(a);
        fr_to_canonical(limbs, a);
        decimal_from_limbs(buf, limbs, FR_LIMBS);
        return json_string(buf);
}

json_t *json_from_fp2(const fp2_t *a) {
        assert(a);
        return json_pack("[oo]", json_from_fp(&a->c0), json_from_fp(&a->c1));
}

json_t *json_from_g1(const g1_affine_t *p) {
        fp_t zero, one;

        assert(p);
        fp_set_zero(&zero);
        fp_set_one(&one);
        if (g1_affine_is_infinity(p))
                return json_pack("[ooo]", json_from_fp(&zero), json_from_fp(&one),
                                 json_from_fp(&zero));
        return json_pack("[ooo]", json_from_fp(&p->x), json_from_fp(&p->y), json_from_fp(&one));
}

json_t *json_from_g2(const g2_affine_t *p) {
        fp2_t zero, one;

        assert(p);
        fp2_set_zero(&zero);
        fp2_set_one(&one);
        if (g2_affine_is_infinity(p))
                return json_pack("[ooo]", json_from_fp2(&zero), json_from_fp2(&one),
                                 json_from_fp2(&zero));
        return json_pack("[ooo]", json_from_fp2(&p->x), json_from_fp2(&p->y), json_from_fp2(&one));
}

int json_load_path(const char *path, json_t **ret) {
        json_error_t error;
        json_t *root;

        assert(path);
        assert(ret);

        root = json_load_file(path, JSON_REJECT_DUPLICATES, &error);
        if (!root) {
                if (error.line < 0)
                        return log_error_errno(errno ? errno : EIO, "%s: cannot read: %s", path,
                                               error.text);
                return log_error_errno(EBADMSG, "%s:%d:%d: invalid JSON: %s", path, error.line,
                                       error.column, error.text);
        }
        *ret = root;
        return 0;
}

int json_save_path(const char *path, const json_t *root) {
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int fd = -EBADF;

        assert(path);
        assert(root);

        if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0) {
                tmp = NULL;
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        }
        fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "%s: cannot create %s: %m", path, tmp);
        if (json_dumpfd(root, fd, JSON_INDENT(1)) < 0 || fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
                int error = errno ? errno : EIO;
                unlink(tmp);
                return log_error_errno(error, "%s: cannot write %s: %m", path, tmp);
        }
        if (rename(tmp, path) < 0) {
                int error = errno;
                unlink(tmp);
                return log_error_errno(error, "%s: cannot rename %s over it: %m", path, tmp);
        }
        return 0;
}
