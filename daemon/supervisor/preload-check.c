/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/supervisor/preload-check.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "circuits/pce-file.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "daemon/supervisor/job.h"
#include "zk/point_encoding.h"

static int read_at(int fd, uint64_t offset, void *buf, size_t size) {
        ssize_t n = pread(fd, buf, size, (off_t)offset);

        if (n < 0)
                return -errno;
        return (size_t)n == size ? 0 : -EBADMSG;
}

/* A .zkey is judged as a job on it would be (job-shape.c): its Groth16 header
 * sections for BLS12-381; the details of a refusal are not the client's to read. */
static bool zkey_header_ok(int fd, uint64_t size, const char *path) {
        const struct job_file zkey = {.path = path, .fd = fd, .size = size};
        struct job_shape shape;
        char details[256];

        return job_shape_snarkjs_file(&zkey, 1, &shape, details, sizeof(details)) >= 0;
}

static int read_count_at(void *userdata, uint64_t offset, uint32_t *ret) {
        uint8_t count[4];
        int r;

        r = read_at(*(const int *)userdata, offset, count, sizeof(count));
        if (r < 0)
                return r;
        *ret = bellperson_be32(count);
        return 0;
}

/* The verifying key's IC count and each section's count, walked against the size. */
static bool params_header_ok(int fd, uint64_t size) {
        uint8_t start[BELLPERSON_TIMING_ONLY_MARKER_BYTES], count[4];
        struct bellperson_params_layout layout;
        uint64_t vk_bytes;

        if (read_at(fd, 0, start, sizeof(start)) < 0)
                return false;
        vk_bytes = bellperson_timing_only_marker_bytes(start, sizeof(start));
        if (read_at(fd, vk_bytes + BELLPERSON_VK_FIXED_BYTES - 4, count, 4) < 0 ||
            bellperson_be32(count) == 0)
                return false;
        vk_bytes += BELLPERSON_VK_FIXED_BYTES +
                    (uint64_t)bellperson_be32(count) * G1_UNCOMPRESSED_BYTES;
        return bellperson_params_walk(size, vk_bytes, read_count_at, &fd, &layout) >= 0 &&
               layout.end == size;
}

/* Magic, version, the header's checksum, and the file size it records. */
static bool pce_header_ok(int fd, uint64_t size) {
        uint8_t header[PCE_FILE_HEADER_BYTES];

        if (read_at(fd, 0, header, sizeof(header)) < 0)
                return false;
        return pce_header_check(header, sizeof(header), NULL, 0) >= 0 &&
               pce_header_file_bytes(header) == size;
}

int preload_check_header(int fd, uint64_t size, enum preload_file_kind kind, const char *path,
                         char *message, size_t message_size) {
        static const char *const expected[] = {
                [PRELOAD_FILE_ZKEY] = "a snarkjs Groth16 .zkey for BLS12-381",
                [PRELOAD_FILE_PARAMS] = "bellperson Groth16 parameters (.params) whose counts "
                                        "match the file size",
                [PRELOAD_FILE_PCE] = "a version 1 cuzk PCE file with a valid header",
        };
        bool ok;

        assert(fd >= 0);
        assert(path);
        assert(message);
        ok = kind == PRELOAD_FILE_ZKEY     ? zkey_header_ok(fd, size, path)
             : kind == PRELOAD_FILE_PARAMS ? params_header_ok(fd, size)
                                           : pce_header_ok(fd, size);
        if (ok)
                return 0;
        snprintf(message, message_size, "%s: not a circuit's key: its header is not that of %s",
                 path, expected[kind]);
        return -EINVAL;
}
