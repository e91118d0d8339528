/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zkey_constraints_load() (formats/zkey-constraints.h), the synthesis
 * worker's reader, against zkey_load() + zkey_to_groth16_matrices(), the
 * prover's, on the snarkjs fixtures:
 *   - the matrices are the same, term for term;
 *   - a damaged key is refused with zkey_load()'s errno and message: every
 *     truncation and every flipped byte of a small key, other protocols,
 *     missing files;
 *   - the point sections are not read: with all of them overwritten by
 *     garbage zkey_load() refuses the key and zkey_constraints_load() still
 *     gives the right matrices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "formats/binfile.h"
#include "formats/zkey-constraints.h"
#include "formats/zkey.h"
#include "tests/lib/formats-common.h"

/* The sections zkey-constraints.c must not touch (formats/zkey.h). */
static const uint32_t POINT_SECTIONS[] = {3, 5, 6, 7, 8, 9};

/* What a loader made of a file: 0 and the constraints, or an errno and its message. */
struct outcome {
        int r;
        char message[1024];
        size_t n_messages;
        struct zkey_constraints cs;
};

static void outcome_free(struct outcome *o) {
        zkey_constraints_free(&o->cs);
}

static void finish_outcome(int r, struct outcome *ret) {
        ret->r = r;
        ret->n_messages = log_message_count();
        snprintf(ret->message, sizeof(ret->message), "%s", r < 0 ? log_last_message() : "");
        log_capture(false);
}

/* The prover's way: the whole key, then the matrices from its coefficients. */
static void load_reference(const char *path, struct outcome *ret) {
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        int r;

        *ret = (struct outcome){0};
        log_capture(true);
        r = zkey_load(path, &zk);
        if (r == 0) {
                ret->cs = (struct zkey_constraints){
                        .n_vars = zk->n_vars,
                        .n_public = zk->n_public,
                        .domain_size = zk->domain_size,
                        .log2_domain_size = zk->log2_domain_size,
                };
                r = zkey_to_groth16_matrices(zk, &ret->cs.a, &ret->cs.b);
                assert_int_equal(r, 0);
        }
        finish_outcome(r, ret);
}

static void load_constraints(const char *path, struct outcome *ret) {
        *ret = (struct outcome){0};
        log_capture(true);
        finish_outcome(zkey_constraints_load(path, &ret->cs), ret);
}

static void assert_same_matrix(const struct sparse_matrix *x, const struct sparse_matrix *y) {
        uint64_t n;

        assert_int_equal(x->n_rows, y->n_rows);
        assert_int_equal(x->n_cols, y->n_cols);
        assert_memory_equal(x->row_start, y->row_start,
                            ((size_t)x->n_rows + 1) * sizeof(*x->row_start));
        n = sparse_n_terms(x);
        if (n == 0)
                return;
        assert_memory_equal(x->col, y->col, n * sizeof(*x->col));
        assert_memory_equal(x->coeff, y->coeff, n * sizeof(*x->coeff));
}

static void assert_same_constraints(const struct zkey_constraints *x,
                                    const struct zkey_constraints *y) {
        assert_int_equal(x->n_vars, y->n_vars);
        assert_int_equal(x->n_public, y->n_public);
        assert_int_equal(x->domain_size, y->domain_size);
        assert_int_equal(x->log2_domain_size, y->log2_domain_size);
        assert_same_matrix(&x->a, &y->a);
        assert_same_matrix(&x->b, &y->b);
}

/* Both refused the file the same way, with one message naming it. */
static void assert_same_refusal(const struct outcome *ref, const struct outcome *got,
                                const char *path) {
        if (ref->r != got->r || strcmp(ref->message, got->message) != 0)
                fail_msg("%s: zkey_load: %d \"%s\"; zkey_constraints_load: %d \"%s\"", path, ref->r,
                         ref->message, got->r, got->message);
        assert_true(got->r < 0);
        assert_int_equal(got->n_messages, 1);
        assert_non_null(strstr(got->message, path));
}

/* zkey_load's message is about a point section (which the other loader skips). */
static bool message_is_about_points(const char *message, const char *path) {
        regex_t re;
        bool found;

        /* "<path>: IC section has ...", "<path>: corrupt: H section (type 9) is missing", ... */
        assert_int_equal(
                regcomp(&re, "^: (corrupt: )?(IC|A|B1|B2|C|H) section", REG_EXTENDED | REG_NOSUB),
                0);
        found = strncmp(message, path, strlen(path)) == 0 &&
                regexec(&re, message + strlen(path), 0, NULL, 0) == 0;
        regfree(&re);
        return found;
}

static bool is_point_section(uint32_t type) {
        for (size_t i = 0; i < ELEMENTSOF(POINT_SECTIONS); i++)
                if (POINT_SECTIONS[i] == type)
                        return true;
        return false;
}

/* offset lies in the data of a point section. */
static bool in_point_data(const struct fixture_section *s, size_t n, size_t offset) {
        for (size_t i = 0; i < n; i++)
                if (is_point_section(s[i].type) && offset >= s[i].offset &&
                    offset < s[i].offset + s[i].size)
                        return true;
        return false;
}

static void test_same_matrices(void **state) {
        (void)state;
        for (size_t i = 0; i < n_fixture_circuits; i++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[i], "zkey");
                _cleanup_(outcome_free) struct outcome ref = {0}, got = {0};

                load_reference(path, &ref);
                load_constraints(path, &got);
                assert_int_equal(ref.r, 0);
                assert_int_equal(got.r, 0);
                assert_int_equal(got.n_messages, 0);
                assert_same_constraints(&ref.cs, &got.cs);
                /* What a supervisor would reserve is what is allocated. */
                assert_int_equal(zkey_constraints_bytes(sparse_n_terms(&got.cs.a) +
                                                                sparse_n_terms(&got.cs.b),
                                                        got.cs.domain_size),
                                 2 * ((uint64_t)got.cs.domain_size + 1) * sizeof(uint64_t) +
                                         (sparse_n_terms(&got.cs.a) + sparse_n_terms(&got.cs.b)) *
                                                 (sizeof(uint32_t) + sizeof(fr_t)));
                /* Not a vacuous comparison: every fixture constrains something. */
                assert_true(sparse_n_terms(&got.cs.a) > 0);
                assert_true(sparse_n_terms(&got.cs.b) > 0);
                print_message("%s: 2^%u rows, %u columns, %lu + %lu terms: same matrices\n",
                              fixture_circuits[i], got.cs.log2_domain_size, got.cs.n_vars,
                              (unsigned long)sparse_n_terms(&got.cs.a),
                              (unsigned long)sparse_n_terms(&got.cs.b));
        }
}

/* Every truncation of the small key, and truncations around each section of the others. */
static void test_truncated(void **state) {
        (void)state;
        for (size_t i = 0; i < n_fixture_circuits; i++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[i], "zkey");
                size_t size, n;
                _cleanup_free_ uint8_t *data = read_whole_file(path, &size);
                struct fixture_section s[16];
                size_t cuts[16 * 4 + 16], n_cuts = 0, tried = 0;
                bool every = strcmp(fixture_circuits[i], "edge") == 0;

                n = fixture_sections(data, size, s);
                for (size_t j = 0; j < n; j++) {
                        cuts[n_cuts++] = s[j].header;
                        cuts[n_cuts++] = s[j].header + 5;
                        cuts[n_cuts++] = s[j].offset + s[j].size / 2;
                        cuts[n_cuts++] = s[j].offset + s[j].size - 1;
                }
                for (size_t len = 0; len < 16; len++)
                        cuts[n_cuts++] = len;
                for (size_t k = 0; k < (every ? size : n_cuts); k++) {
                        size_t len = every ? k : cuts[k];
                        _cleanup_(outcome_free) struct outcome ref = {0}, got = {0};
                        char mpath[64];
                        int fd;

                        if (len >= size)
                                continue;
                        fd = memfd_with(data, len, mpath);
                        load_reference(mpath, &ref);
                        load_constraints(mpath, &got);
                        close(fd);
                        assert_same_refusal(&ref, &got, mpath);
                        tried++;
                }
                print_message("%s: %zu truncations refused alike\n", fixture_circuits[i], tried);
        }
}

/*
 * Every byte of the small key flipped (three ways): both loaders agree,
 * except where only a point section is damaged, which zkey_constraints_load
 * does not read: then it must give the original matrices whatever zkey_load
 * says. Elsewhere it may load what zkey_load refuses only when zkey_load's
 * reason is a point section (nVars, nPublic or a section type changed).
 * The sanitizer build (CUZK_TEST_SCALE < 1) takes every 1/scale-th byte.
 */
static void test_flipped_bytes(void **state) {
        static const uint8_t FLIPS[] = {0x01, 0x80, 0xff};
        _cleanup_free_ char *path = fixture_file("edge", "zkey");
        _cleanup_(outcome_free) struct outcome original = {0};
        size_t size, n, refused = 0, loaded = 0, points_only = 0, tried = 0;
        const size_t stride = (size_t)(1.0 / test_scale() + 0.5);
        _cleanup_free_ uint8_t *data = read_whole_file(path, &size);
        struct fixture_section s[16];
        char mpath[64];
        int fd;

        (void)state;
        n = fixture_sections(data, size, s);
        load_reference(path, &original);
        assert_int_equal(original.r, 0);
        fd = memfd_with(data, size, mpath);

        for (size_t offset = 0; offset < size; offset += stride)
                for (size_t f = 0; f < ELEMENTSOF(FLIPS); f++) {
                        _cleanup_(outcome_free) struct outcome ref = {0}, got = {0};
                        uint8_t byte = data[offset] ^ FLIPS[f];
                        bool point_data = in_point_data(s, n, offset);

                        assert_int_equal(pwrite(fd, &byte, 1, (off_t)offset), 1);
                        load_constraints(mpath, &got);
                        if (point_data) {
                                assert_int_equal(got.r, 0);
                                assert_same_constraints(&original.cs, &got.cs);
                                points_only++;
                        } else {
                                load_reference(mpath, &ref);
                                if (ref.r == 0) {
                                        assert_int_equal(got.r, 0);
                                        assert_same_constraints(&ref.cs, &got.cs);
                                        loaded++;
                                } else if (got.r == 0) {
                                        if (!message_is_about_points(ref.message, mpath))
                                                fail_msg("offset %zu ^ 0x%02x: zkey_load refused "
                                                         "\"%s\", zkey_constraints_load did not",
                                                         offset, FLIPS[f], ref.message);
                                        points_only++;
                                } else {
                                        assert_same_refusal(&ref, &got, mpath);
                                        refused++;
                                }
                        }
                        assert_int_equal(pwrite(fd, &data[offset], 1, (off_t)offset), 1);
                        tried++;
                }
        close(fd);
        print_message("edge: %zu flips: %zu refused alike, %zu loaded alike, %zu hit only points\n",
                      tried, refused, loaded, points_only);
        /* Each kind of outcome happened. */
        assert_true(refused > 0 && loaded > 0 && points_only > 0);
}

/* Other files and protocols, named faults in sections 1, 2 and 4. */
static void test_named_faults(void **state) {
        _cleanup_free_ char *plonk = fixture_file("edge", "plonk.zkey");
        _cleanup_free_ char *wtns = fixture_file("edge", "wtns");
        _cleanup_free_ char *path = fixture_file("pubinputs", "zkey");
        const char *files[] = {plonk, wtns, "/nonexistent/cuzk.zkey", "/"};
        static const char *const expected[] = {"expected 1 (groth16)", "expected \"zkey\"",
                                               "cannot open", "is a directory"};
        size_t size, n;
        _cleanup_free_ uint8_t *data = read_whole_file(path, &size);
        struct fixture_section s[16];
        const struct fixture_section *coefs = NULL;

        (void)state;
        for (size_t i = 0; i < ELEMENTSOF(files); i++) {
                _cleanup_(outcome_free) struct outcome ref = {0}, got = {0};

                load_reference(files[i], &ref);
                load_constraints(files[i], &got);
                assert_same_refusal(&ref, &got, files[i]);
                assert_non_null(strstr(got.message, expected[i]));
        }

        n = fixture_sections(data, size, s);
        for (size_t i = 0; i < n; i++)
                if (s[i].type == 4)
                        coefs = &s[i];
        assert_non_null(coefs);
        assert_true(coefs->size >= 4 + 44);
        /* The first entry's matrix, constraint, signal and value (0xff...: not below r). */
        for (size_t field = 0; field < 4; field++) {
                _cleanup_free_ uint8_t *bad = malloc(size);
                _cleanup_(outcome_free) struct outcome ref = {0}, got = {0};
                static const char *const what[] = {"matrix is", "constraint is", "signal is",
                                                   "value is not below r"};
                char mpath[64];
                int fd;

                assert_non_null(bad);
                memcpy(bad, data, size);
                memset(bad + coefs->offset + 4 + 4 * field, 0xff, field < 3 ? 4 : 32);
                fd = memfd_with(bad, size, mpath);
                load_reference(mpath, &ref);
                load_constraints(mpath, &got);
                close(fd);
                assert_same_refusal(&ref, &got, mpath);
                assert_int_equal(got.r, -EBADMSG);
                assert_non_null(strstr(got.message, what[field]));
        }
}

/*
 * Every point section overwritten with garbage (not points of the curve):
 * zkey_load refuses the key, zkey_constraints_load gives the matrices that
 * zkey_load gives for the intact key, so it did not read them.
 */
static void test_points_not_read(void **state) {
        (void)state;
        for (size_t i = 0; i < n_fixture_circuits; i++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[i], "zkey");
                _cleanup_(outcome_free) struct outcome original = {0}, ref = {0}, got = {0};
                size_t size, n, garbage = 0;
                _cleanup_free_ uint8_t *data = read_whole_file(path, &size);
                struct fixture_section s[16];
                char mpath[64];
                int fd;

                load_reference(path, &original);
                assert_int_equal(original.r, 0);
                n = fixture_sections(data, size, s);
                for (size_t j = 0; j < n; j++)
                        if (is_point_section(s[j].type)) {
                                for (size_t b = 0; b < s[j].size; b++)
                                        data[s[j].offset + b] = (uint8_t)(0xa5 ^ (b * 131));
                                garbage += s[j].size;
                        }
                assert_true(garbage > size / 2);

                fd = memfd_with(data, size, mpath);
                load_reference(mpath, &ref);
                load_constraints(mpath, &got);
                close(fd);
                assert_true(ref.r < 0);
                assert_true(message_is_about_points(ref.message, mpath));
                assert_int_equal(got.r, 0);
                assert_same_constraints(&original.cs, &got.cs);
                print_message("%s: %zu of %zu bytes garbage: zkey_load: \"%s\"; matrices intact\n",
                              fixture_circuits[i], garbage, size, ref.message);
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_same_matrices),   cmocka_unit_test(test_truncated),
                cmocka_unit_test(test_flipped_bytes),   cmocka_unit_test(test_named_faults),
                cmocka_unit_test(test_points_not_read),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
