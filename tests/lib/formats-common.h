/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the tests of formats/ (test-formats*.c). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The circuits make-fixtures.sh builds. */
extern const char *const fixture_circuits[];
extern const size_t n_fixture_circuits;

/* "<fixtures dir>/<name>" (malloc): $CUZK_FIXTURES_DIR, else "fixtures"
 * beside the test executable, where tests/fixtures/meson.build puts them. */
char *fixture_path(const char *name);
/* fixture_path(circuit + "." + ext) */
char *fixture_file(const char *circuit, const char *ext);

/* The whole file (malloc); fails the test when it cannot be read. */
uint8_t *read_whole_file(const char *path, size_t *ret_size);
bool file_equals(const char *path, const uint8_t *data, size_t size);

/* An anonymous file holding data, readable at *path_out ("/proc/self/fd/N").
 * Returns the fd to close. */
int memfd_with(const void *data, size_t size, char path_out[64]);

/* Log messages are kept instead of printed while capturing (the refusal
 * tests provoke thousands). */
void log_capture(bool on);
const char *log_last_message(void);
size_t log_message_count(void);

/* $CUZK_TEST_SCALE (default 1): the sanitizer build runs fewer iterations. */
double test_scale(void);

/* A section of an iden3 container (.zkey, .wtns, .r1cs), parsed by the tests
 * independently of formats/. */
struct fixture_section {
        uint32_t type;
        size_t header; /* offset of its 12-byte header */
        size_t offset; /* of its data */
        size_t size;
};

/* The section table of a well-formed file (at most 16 sections, ending at
 * its end: the test fails otherwise), in file order. Returns the count. */
size_t fixture_sections(const uint8_t *data, size_t size, struct fixture_section out[16]);
