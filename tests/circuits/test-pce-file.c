/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PCE files (circuits/pce-file.h): CRC-32C against its published check
 * values, the chunked checksum, save/load round trips, and refusals with
 * the right message: every truncation, every header byte and every body
 * byte flipped, and files whose checksums hold but whose contents or counts
 * are wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/pce-crc32c.h"
#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "formats/binfile.h"
#include "tests/lib/formats-common.h"
#include "tests/lib/pce-compare.h"
#include "tests/lib/ref.h"
#include "zk/parallel.h"

static char tmp_dir[] = "/tmp/test-pce-file-XXXXXX";

/* Messages are captured for the whole run: each check starts a capture
 * (log_capture(true) forgets the previous message) and reads it after. */
static int setup_dir(void **state) {
        (void)state;
        log_capture(true);
        return mkdtemp(tmp_dir) ? 0 : -1;
}

static int remove_dir(void **state) {
        (void)state;
        log_capture(false);
        return rmdir(tmp_dir);
}

static char *tmp_path(const char *name) {
        char *path;
        assert_true(asprintf(&path, "%s/%s", tmp_dir, name) > 0);
        return path;
}

static void test_crc32c_check_values(void **state) {
        /* RFC 3720 B.4 and the usual "123456789" check value. */
        uint8_t zeros[32] = {0}, ones[32], up[32];

        (void)state;
        memset(ones, 0xff, sizeof(ones));
        for (int i = 0; i < 32; i++)
                up[i] = (uint8_t)i;
        for (int portable = 0; portable <= 1; portable++) {
                uint32_t (*crc)(uint32_t, const void *, size_t) =
                        portable ? pce_crc32c_portable : pce_crc32c;
                assert_int_equal(crc(0, "123456789", 9), 0xe3069283);
                assert_int_equal(crc(0, zeros, 32), 0x8a9136aa);
                assert_int_equal(crc(0, ones, 32), 0x62a8ab43);
                assert_int_equal(crc(0, up, 32), 0x46dd794e);
                assert_int_equal(crc(0, "", 0), 0);
                /* Continuing a CRC is the CRC of the concatenation. */
                assert_int_equal(crc(crc(0, "1234", 4), "56789", 5), 0xe3069283);
        }
}

static void test_crc32c_paths_agree(void **state) {
        uint8_t buf[300];

        (void)state;
        test_rng_seed(11);
        for (size_t i = 0; i < sizeof(buf); i++)
                buf[i] = (uint8_t)test_rng_u64();
        /* Every length and misalignment the 8-byte loop can meet. */
        for (size_t off = 0; off < 8; off++)
                for (size_t n = 0; n + off <= 200; n++)
                        assert_int_equal(pce_crc32c(7, buf + off, n),
                                         pce_crc32c_portable(7, buf + off, n));
}

/* The chunked checksum by its definition, sequentially. */
static uint32_t chunked_by_definition(const uint8_t *p, uint64_t n) {
        uint32_t outer = 0;

        for (uint64_t at = 0; at < n; at += PCE_CHECKSUM_CHUNK_BYTES) {
                uint64_t len =
                        n - at < PCE_CHECKSUM_CHUNK_BYTES ? n - at : PCE_CHECKSUM_CHUNK_BYTES;
                uint32_t c = pce_crc32c_portable(0, p + at, (size_t)len);
                uint8_t le[4] = {(uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16),
                                 (uint8_t)(c >> 24)};
                outer = pce_crc32c_portable(outer, le, 4);
        }
        return outer;
}

static void test_chunked_checksum(void **state) {
        const uint64_t chunk = PCE_CHECKSUM_CHUNK_BYTES;
        const uint64_t sizes[] = {0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + chunk / 2};
        uint64_t max = sizes[ELEMENTSOF(sizes) - 1];
        _cleanup_free_ uint8_t *buf = malloc(max);

        (void)state;
        assert_non_null(buf);
        test_rng_seed(12);
        for (uint64_t i = 0; i < max; i++)
                buf[i] = (uint8_t)test_rng_u64();
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                uint64_t n = sizes[s];
                uint32_t expect = chunked_by_definition(buf, n);
                struct pce_checksum c;

                for (unsigned threads = 1; threads <= 2; threads++) {
                        zk_set_thread_count(threads);
                        assert_int_equal(pce_checksum_of(buf, n), expect);
                }
                zk_set_thread_count(0);
                /* Fed in uneven pieces, as the writer does. */
                pce_checksum_init(&c);
                for (uint64_t at = 0; at < n;) {
                        uint64_t piece = 1 + test_rng_u64() % (chunk + chunk / 3);
                        if (piece > n - at)
                                piece = n - at;
                        pce_checksum_update(&c, buf + at, piece);
                        at += piece;
                }
                assert_int_equal(pce_checksum_final(&c), expect);
        }
}

static void check_file_round_trip(const struct pce *pce, const fr_t *w, const char *name) {
        _cleanup_free_ char *path = tmp_path(name);
        _cleanup_(pce_freep) struct pce *loaded = NULL;
        unsigned log = pce_log_domain_size(pce);
        size_t n = (size_t)1 << log;
        _cleanup_free_ fr_t *before = malloc(3 * n * sizeof(fr_t));
        _cleanup_free_ fr_t *after = malloc(3 * n * sizeof(fr_t));
        struct stat st;

        assert_true(before && after);
        assert_int_equal(pce_save(pce, path), 0);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal((uint64_t)st.st_size, pce_file_bytes(pce));
        assert_int_equal(st.st_mode & 0777, 0644);
        assert_int_equal(pce_load(path, &loaded), 0);
        assert_non_null(loaded->mapping); /* mapped, not copied */
        expect_same_pce(pce, loaded);
        assert_int_equal(pce_memory_bytes(loaded), pce_memory_bytes(pce));

        assert_int_equal(pce_evaluate(pce, w, pce->n_cols, log, before, before + n, before + 2 * n),
                         0);
        assert_int_equal(pce_evaluate(loaded, w, pce->n_cols, log, after, after + n, after + 2 * n),
                         0);
        assert_memory_equal(before, after, 3 * n * sizeof(fr_t));
        assert_int_equal(unlink(path), 0);
}

static void test_round_trip_synthetic(void **state) {
        struct synthetic_params p = {
                .seed = 3, .n_rows = 4064, .n_aux = SYNTHETIC_DEFAULT, .n_public = 5};
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;

        (void)state;
        assert_int_equal(synthetic_generate(&p, &pce, &w), 0);
        check_file_round_trip(pce, w, "synthetic.pce");
}

/* A small PCE from plain matrices with n_distinct random coefficients in A
 * (so that A's ids are wider), input rows included. */
static struct pce *small_pce(uint32_t n_distinct, fr_t **ret_w) {
        const uint32_t n_rows = 12, n_cols = 16, n_public = 3;
        uint32_t n = n_distinct + 2 * n_rows;
        _cleanup_free_ uint32_t *rows = malloc(n * sizeof(uint32_t));
        _cleanup_free_ uint32_t *cols = malloc(n * sizeof(uint32_t));
        _cleanup_free_ fr_t *coeffs = malloc(n * sizeof(fr_t));
        fr_t *w = malloc(n_cols * sizeof(fr_t));
        struct sparse_matrix m[PCE_N_MATRICES];
        struct pce *pce = NULL;

        assert_true(rows && cols && coeffs && w);
        for (uint32_t k = 0; k < n; k++) {
                rows[k] = k % n_rows;
                cols[k] = (uint32_t)(test_rng_u64() % n_cols);
                if (k < n_distinct)
                        test_rng_fr(&coeffs[k]);
                else
                        fr_from_u64(&coeffs[k], k % 3 ? 1 : 2);
        }
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                /* B and C get the small coefficients only. */
                uint32_t skip = k == PCE_A ? 0 : n_distinct;
                assert_int_equal(sparse_from_triplets(&m[k], n_rows, n_cols, rows + skip,
                                                      cols + skip, coeffs + skip, n - skip),
                                 0);
        }
        assert_int_equal(pce_from_sparse(&m[0], &m[1], &m[2], n_public, PCE_INPUT_ROWS, &pce), 0);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                sparse_free(&m[k]);
        for (uint32_t i = 0; i < n_cols; i++)
                test_rng_fr(&w[i]);
        *ret_w = w;
        return pce;
}

static void test_round_trip_wide_ids(void **state) {
        static const struct {
                uint32_t n_distinct, id_bytes;
        } cases[] = {{5, 1}, {300, 2}, {70000, 4}};

        (void)state;
        test_rng_seed(13);
        for (size_t c = 0; c < ELEMENTSOF(cases); c++) {
                _cleanup_free_ fr_t *w = NULL;
                _cleanup_(pce_freep) struct pce *pce = small_pce(cases[c].n_distinct, &w);
                assert_int_equal(pce->m[PCE_A].id_bytes, cases[c].id_bytes);
                check_file_round_trip(pce, w, "wide.pce");
        }
}

/* The count of aux allocated as values goes through the file and is what a header-only
 * reader sizes a compact witness by; without it, every aux is the bound. */
static void test_aux_values_recorded(void **state) {
        _cleanup_free_ char *path = tmp_path("counted.pce");
        _cleanup_free_ fr_t *w = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        struct pce_file_shape shape;

        (void)state;
        test_rng_seed(16);
        pce = small_pce(4, &w);
        assert_int_equal(pce_save(pce, path), 0);
        assert_int_equal(pce_file_shape(path, &shape), 0);
        assert_int_equal(shape.max_aux_values, pce->n_cols - 1 - pce->n_public);

        pce->flags |= PCE_AUX_VALUES;
        pce->n_aux_values = 5;
        check_file_round_trip(pce, w, "counted-trip.pce");
        assert_int_equal(pce_save(pce, path), 0);
        assert_int_equal(pce_file_shape(path, &shape), 0);
        assert_int_equal(shape.max_aux_values, 5);
        assert_int_equal(unlink(path), 0);
}

/* The bytes of a small valid PCE file. */
static uint8_t *small_file(size_t *ret_size) {
        _cleanup_free_ char *path = tmp_path("small.pce");
        _cleanup_free_ fr_t *w = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        uint8_t *bytes;

        test_rng_seed(14);
        pce = small_pce(4, &w);
        assert_int_equal(pce_save(pce, path), 0);
        bytes = read_whole_file(path, ret_size);
        assert_int_equal(unlink(path), 0);
        return bytes;
}

/* Loads data from an anonymous file: returns the error, keeps the message. */
static int load_bytes(const uint8_t *data, size_t size, char path[64]) {
        struct pce *pce = NULL;
        int fd = memfd_with(data, size, path);
        int r;

        log_capture(true);
        r = pce_load(path, &pce);
        close(fd);
        if (r == 0)
                pce_free(pce);
        return r;
}

static void expect_refused(const uint8_t *data, size_t size, int error, const char *phrase,
                           const char *what, size_t index) {
        char path[64];
        int r;

        r = load_bytes(data, size, path);
        if (r != -error)
                fail_msg("%s %zu: load returned %d, expected %d", what, index, r, -error);
        if (log_message_count() != 1 || !strstr(log_last_message(), path) ||
            !strstr(log_last_message(), phrase))
                fail_msg("%s %zu: %zu messages, the last \"%s\" should name the file and say "
                         "\"%s\"",
                         what, index, log_message_count(), log_last_message(), phrase);
}

static void test_small_file_loads(void **state) {
        size_t size;
        _cleanup_free_ uint8_t *bytes = small_file(&size);
        char path[64];

        (void)state;
        assert_int_equal(load_bytes(bytes, size, path), 0);
        assert_true(size > PCE_FILE_HEADER_BYTES + 500);
}

static void test_every_truncation(void **state) {
        size_t size;
        _cleanup_free_ uint8_t *bytes = small_file(&size);
        _cleanup_free_ uint8_t *longer = malloc(size + 1);
        char expected_size[64];

        (void)state;
        snprintf(expected_size, sizeof(expected_size), "expected %zu", size);
        for (size_t n = 0; n < size; n++)
                expect_refused(bytes, n, EBADMSG,
                               n < PCE_FILE_HEADER_BYTES ? "too short" : expected_size,
                               "truncated to", n);
        assert_non_null(longer);
        memcpy(longer, bytes, size);
        longer[size] = 0;
        expect_refused(longer, size + 1, EBADMSG, expected_size, "extended to", size + 1);
}

static void test_every_header_byte_flipped(void **state) {
        size_t size;
        _cleanup_free_ uint8_t *bytes = small_file(&size);

        (void)state;
        for (size_t i = 0; i < PCE_FILE_HEADER_BYTES; i++)
                for (unsigned bit = 0; bit < 8; bit += 7) {
                        const char *phrase = i < 8    ? "not a PCE file"
                                             : i < 12 ? "PCE version"
                                             : i < 16 ? "header size"
                                                      : "header checksum";
                        bytes[i] ^= (uint8_t)(1u << bit);
                        expect_refused(bytes, size, i >= 8 && i < 12 ? EOPNOTSUPP : EBADMSG, phrase,
                                       "header byte", i);
                        bytes[i] ^= (uint8_t)(1u << bit);
                }
}

static void test_every_body_byte_flipped(void **state) {
        size_t size;
        _cleanup_free_ uint8_t *bytes = small_file(&size);

        (void)state;
        for (size_t i = PCE_FILE_HEADER_BYTES; i < size; i++) {
                bytes[i] ^= 0x10;
                expect_refused(bytes, size, EBADMSG, "body checksum", "body byte", i);
                bytes[i] ^= 0x10;
        }
}

/* Makes both checksums right again after an edit. */
static void reseal(uint8_t *bytes, size_t size) {
        bin_put_le32(bytes + 184,
                     pce_checksum_of(bytes + PCE_FILE_HEADER_BYTES, size - PCE_FILE_HEADER_BYTES));
        bin_put_le32(bytes + 252, pce_crc32c(0, bytes, 252));
}

/* The file offset of an array of matrix k (0 row starts, 1 columns, 2 ids, 3 values). */
static uint64_t array_at(const uint8_t *bytes, size_t k, size_t array) {
        return bin_le64(bytes + 32 + 48 * k + 16 + 8 * array);
}

struct edit {
        const char *name;
        void (*apply)(uint8_t *bytes);
        int error;
        const char *phrase;
};

static void column_out_of_range(uint8_t *b) {
        bin_put_le32(b + array_at(b, 1, 1), 16); /* n_cols */
}
static void id_out_of_range(uint8_t *b) {
        b[array_at(b, 2, 2) + 1] = 200; /* C has a table of a few values, 1-byte ids */
}
static void row_goes_back(uint8_t *b) {
        bin_put_le64(b + array_at(b, 0, 0) + 8 * 3, 1000);
}
static void rows_end_early(uint8_t *b) {
        uint64_t at = array_at(b, 1, 0) + 8 * 16; /* n_rows = 12 + 4 input rows */
        bin_put_le64(b + at, bin_le64(b + at) - 1);
}
static void value_not_reduced(uint8_t *b) {
        uint8_t *v = b + array_at(b, 0, 3) + 32 * 2;
        for (size_t i = 0; i < FR_LIMBS; i++)
                bin_put_le64(v + 8 * i, BLS12_381_R[i]);
}
static void one_is_not_one(uint8_t *b) {
        b[array_at(b, 1, 3)] ^= 1;
}
static void input_row_moved(uint8_t *b) {
        /* A's last term is input row n_public's w[3]: make it w[2]. */
        uint64_t n_terms = bin_le64(b + 32);
        bin_put_le32(b + array_at(b, 0, 1) + 4 * (n_terms - 1), 2);
}
static void too_few_columns(uint8_t *b) {
        bin_put_le32(b + 28, 3); /* n_public + 1 = 4 */
}
static void unknown_flag(uint8_t *b) {
        bin_put_le32(b + 16, 1u << 9 | 1);
}
static void offset_moved(uint8_t *b) {
        bin_put_le64(b + 32 + 48 + 24, array_at(b, 1, 1) + 64);
}
static void id_width_wrong(uint8_t *b) {
        bin_put_le32(b + 32 + 12, 2);
}
static void reserved_set(uint8_t *b) {
        b[200] = 1;
}
static void aux_values_unflagged(uint8_t *b) {
        bin_put_le64(b + PCE_FILE_AUX_VALUES_OFFSET, 1);
}
static void aux_values_too_many(uint8_t *b) {
        bin_put_le32(b + 16, bin_le32(b + 16) | PCE_AUX_VALUES);
        bin_put_le64(b + PCE_FILE_AUX_VALUES_OFFSET, 13); /* 16 columns, 3 public: 12 aux */
}
static void size_field_wrong(uint8_t *b) {
        bin_put_le64(b + 176, bin_le64(b + 176) + 64);
}
static void terms_overflow(uint8_t *b) {
        bin_put_le64(b + 32 + 48, UINT64_MAX / 2);
}
static void no_table(uint8_t *b) {
        bin_put_le32(b + 32 + 48 * 2 + 8, 1);
}
static void version_two(uint8_t *b) {
        bin_put_le32(b + 8, 2);
}

/* Files whose checksums hold: the checks behind them still refuse. */
static void test_sealed_but_wrong(void **state) {
        static const struct edit edits[] = {
                {"column", column_out_of_range, EBADMSG, "has column 16, expected below 16"},
                {"id", id_out_of_range, EBADMSG, "has coefficient id 200, expected below"},
                {"row order", row_goes_back, EBADMSG, "row 3 starts at term 1000"},
                {"row end", rows_end_early, EBADMSG, "rows start at 0 and end at"},
                {"value", value_not_reduced, EBADMSG, "is not below the field prime r"},
                {"one", one_is_not_one, EBADMSG, "are not +1 and -1"},
                {"input row", input_row_moved, EBADMSG, "input row 15 is not A = w[3]"},
                {"columns", too_few_columns, EBADMSG, "3 columns, expected at least"},
                {"flags", unknown_flag, EOPNOTSUPP, "flags 0x201"},
                {"offset", offset_moved, EBADMSG, "matrix B: columns at offset"},
                {"id width", id_width_wrong, EBADMSG, "ids of 2 bytes, expected 1"},
                {"reserved", reserved_set, EBADMSG, "header byte 200 is 0x01"},
                {"unflagged", aux_values_unflagged, EBADMSG, "counted without flag 0x2"},
                {"aux values", aux_values_too_many, EBADMSG, "13 aux allocated as values"},
                {"file size", size_field_wrong, EBADMSG, "header says"},
                {"overflow", terms_overflow, EBADMSG, "overflow"},
                {"table", no_table, EBADMSG, "matrix C: 1 coefficients"},
                {"version", version_two, EOPNOTSUPP, "PCE version 2, expected 1"},
        };
        size_t size;
        _cleanup_free_ uint8_t *bytes = small_file(&size);
        _cleanup_free_ uint8_t *edited = malloc(size);

        (void)state;
        assert_non_null(edited);
        for (size_t e = 0; e < ELEMENTSOF(edits); e++) {
                memcpy(edited, bytes, size);
                edits[e].apply(edited);
                reseal(edited, size);
                print_message("%-10s -> ", edits[e].name);
                expect_refused(edited, size, edits[e].error, edits[e].phrase, edits[e].name, e);
                print_message("%s\n", log_last_message());
        }
}

static void test_save_errors(void **state) {
        _cleanup_free_ char *bad = tmp_path("missing/dir/x.pce");
        _cleanup_free_ char *good = tmp_path("replace.pce");
        _cleanup_free_ fr_t *w = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(pce_freep) struct pce *loaded = NULL;
        struct dirent *entry;
        DIR *dir;
        FILE *f;

        (void)state;
        test_rng_seed(15);
        pce = small_pce(3, &w);
        log_capture(true);
        assert_int_equal(pce_save(pce, bad), -ENOENT);
        assert_non_null(strstr(log_last_message(), bad));

        /* An existing file is replaced whole; no temporary file stays. */
        f = fopen(good, "w");
        assert_non_null(f);
        fputs("old contents", f);
        fclose(f);
        assert_int_equal(pce_save(pce, good), 0);
        assert_int_equal(pce_load(good, &loaded), 0);
        expect_same_pce(pce, loaded);
        assert_int_equal(unlink(good), 0);

        log_capture(true);
        assert_int_equal(pce_load(good, &loaded), -ENOENT);
        assert_non_null(strstr(log_last_message(), good));

        /* Nothing left behind, temporary files included. */
        dir = opendir(tmp_dir);
        assert_non_null(dir);
        while ((entry = readdir(dir)))
                if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
                        fail_msg("%s left in %s", entry->d_name, tmp_dir);
        closedir(dir);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_crc32c_check_values),
                cmocka_unit_test(test_crc32c_paths_agree),
                cmocka_unit_test(test_chunked_checksum),
                cmocka_unit_test(test_round_trip_synthetic),
                cmocka_unit_test(test_round_trip_wide_ids),
                cmocka_unit_test(test_aux_values_recorded),
                cmocka_unit_test(test_small_file_loads),
                cmocka_unit_test(test_every_truncation),
                cmocka_unit_test(test_every_header_byte_flipped),
                cmocka_unit_test(test_every_body_byte_flipped),
                cmocka_unit_test(test_sealed_but_wrong),
                cmocka_unit_test(test_save_errors),
        };
        return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
