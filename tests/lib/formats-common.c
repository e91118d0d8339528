/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/formats-common.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "formats/binfile.h"

const char *const fixture_circuits[] = {"bits", "pubinputs", "edge", "outputs"};
const size_t n_fixture_circuits = ELEMENTSOF(fixture_circuits);

char *fixture_path(const char *name) {
        const char *dir = getenv("CUZK_FIXTURES_DIR");
        char exe[PATH_MAX];
        char *path = NULL;
        ssize_t n;

        if (dir && *dir) {
                assert_true(asprintf(&path, "%s/%s", dir, name) >= 0);
                return path;
        }
        n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        assert_true(n > 0);
        exe[n] = 0;
        assert_true(asprintf(&path, "%s/fixtures/%s", dirname(exe), name) >= 0);
        return path;
}

char *fixture_file(const char *circuit, const char *ext) {
        _cleanup_free_ char *name = NULL;

        assert_true(asprintf(&name, "%s.%s", circuit, ext) >= 0);
        return fixture_path(name);
}

uint8_t *read_whole_file(const char *path, size_t *ret_size) {
        FILE *f = fopen(path, "rb");
        uint8_t *data;
        long size;

        if (!f)
                fail_msg("cannot open fixture %s: %m (did the build run "
                         "tests/fixtures/make-fixtures.sh?)",
                         path);
        assert_int_equal(fseek(f, 0, SEEK_END), 0);
        size = ftell(f);
        assert_true(size >= 0);
        rewind(f);
        data = malloc((size_t)size + 1);
        assert_non_null(data);
        assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
        fclose(f);
        *ret_size = (size_t)size;
        return data;
}

bool file_equals(const char *path, const uint8_t *data, size_t size) {
        size_t n;
        _cleanup_free_ uint8_t *found = read_whole_file(path, &n);

        return n == size && memcmp(found, data, size) == 0;
}

int memfd_with(const void *data, size_t size, char path_out[64]) {
        int fd = memfd_create("formats-test", MFD_CLOEXEC);

        assert_true(fd >= 0);
        assert_int_equal(write(fd, data, size), (ssize_t)size);
        snprintf(path_out, 64, "/proc/self/fd/%d", fd);
        return fd;
}

static char last_message[1024];
static size_t message_count;

static void capture_sink(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        snprintf(last_message, sizeof(last_message), "%s", message);
        message_count++;
}

void log_capture(bool on) {
        last_message[0] = 0;
        message_count = 0;
        log_set_sink(on ? capture_sink : NULL, NULL);
}

const char *log_last_message(void) {
        return last_message;
}

size_t log_message_count(void) {
        return message_count;
}

double test_scale(void) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double v = s ? atof(s) : 1.0;

        return v > 0 && v <= 1 ? v : 1.0;
}

size_t fixture_sections(const uint8_t *data, size_t size, struct fixture_section out[16]) {
        size_t pos = 12, n;

        assert_true(size >= 12);
        n = bin_le32(data + 8);
        assert_true(n <= 16);
        for (size_t i = 0; i < n; i++) {
                assert_true(pos + 12 <= size);
                out[i] = (struct fixture_section){
                        .type = bin_le32(data + pos),
                        .header = pos,
                        .offset = pos + 12,
                        .size = (size_t)bin_le64(data + pos + 4),
                };
                pos = out[i].offset + out[i].size;
        }
        assert_int_equal(pos, size);
        return n;
}
