/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/supervisor/preload-check.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "circuits/pce-crc32c.h"
#include "circuits/pce-file.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_vk.h"
#include "formats/binfile.h"

/* A .params file's sections after the verifying key: h, l, a, b_g1 (G1), b_g2 (G2). */
#define PARAMS_SECTIONS 5
#define G1_UNCOMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192
/* Offsets in a PCE header (circuits/pce-file.h). */
#define PCE_HEADER_FILE_BYTES_OFFSET 176
#define PCE_HEADER_CHECKSUM_OFFSET 252

static int read_at(int fd, uint64_t offset, void *buf, size_t size) {
        ssize_t n = pread(fd, buf, size, (off_t)offset);

        if (n < 0)
                return -errno;
        return (size_t)n == size ? 0 : -EBADMSG;
}

/* Section `type` of a binfile (zkey): its offset and size, every section before it within
 * the file. */
static int zkey_section(int fd, uint64_t file_size, uint32_t type, uint64_t *ret_offset,
                        uint64_t *ret_size) {
        uint8_t header[12], section[12];
        uint64_t pos = 12;
        int r = read_at(fd, 0, header, sizeof(header));

        if (r < 0)
                return r;
        if (memcmp(header, "zkey", 4) != 0)
                return -EBADMSG;
        for (uint32_t i = 0, n = bin_le32(header + 8); i < n; i++) {
                uint64_t size;

                r = read_at(fd, pos, section, sizeof(section));
                if (r < 0)
                        return r;
                size = bin_le64(section + 4);
                if (size > file_size - pos - 12)
                        return -EBADMSG;
                if (bin_le32(section) == type) {
                        *ret_offset = pos + 12;
                        *ret_size = size;
                        return 0;
                }
                pos += 12 + size;
        }
        return -EBADMSG;
}

/* Sections 1 (protocol 1: Groth16) and 2 (BLS12-381's 48- and 32-byte elements). */
static bool zkey_header_ok(int fd, uint64_t size) {
        uint8_t buf[4];
        uint64_t offset, section_size;

        if (zkey_section(fd, size, 1, &offset, &section_size) < 0 || section_size < 4 ||
            read_at(fd, offset, buf, 4) < 0 || bin_le32(buf) != 1)
                return false;
        if (zkey_section(fd, size, 2, &offset, &section_size) < 0 || section_size < 4 + 48 + 4 ||
            read_at(fd, offset, buf, 4) < 0 || bin_le32(buf) != 48)
                return false;
        return read_at(fd, offset + 4 + 48, buf, 4) >= 0 && bin_le32(buf) == 32;
}

/* The verifying key's IC count and each section's count, walked against the size. */
static bool params_header_ok(int fd, uint64_t size) {
        static const uint64_t point_bytes[PARAMS_SECTIONS] = {
                G1_UNCOMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES,
                G1_UNCOMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES};
        uint8_t start[BELLPERSON_TIMING_ONLY_MARKER_BYTES], count[4];
        uint64_t pos;

        if (read_at(fd, 0, start, sizeof(start)) < 0)
                return false;
        pos = bellperson_timing_only_marker_bytes(start, sizeof(start));
        if (read_at(fd, pos + BELLPERSON_VK_FIXED_BYTES - 4, count, 4) < 0 ||
            bellperson_be32(count) == 0)
                return false;
        pos += BELLPERSON_VK_FIXED_BYTES + (uint64_t)bellperson_be32(count) * G1_UNCOMPRESSED_BYTES;
        for (int s = 0; s < PARAMS_SECTIONS; s++) {
                if (pos > size || read_at(fd, pos, count, 4) < 0)
                        return false;
                pos += 4 + (uint64_t)bellperson_be32(count) * point_bytes[s];
        }
        return pos == size;
}

/* Magic, version, the header's checksum, and the file size it records. */
static bool pce_header_ok(int fd, uint64_t size) {
        uint8_t header[PCE_FILE_HEADER_BYTES];

        if (read_at(fd, 0, header, sizeof(header)) < 0)
                return false;
        return memcmp(header, PCE_FILE_MAGIC, 8) == 0 && bin_le32(header + 8) == PCE_FILE_VERSION &&
               bin_le32(header + 12) == PCE_FILE_HEADER_BYTES &&
               bin_le32(header + PCE_HEADER_CHECKSUM_OFFSET) ==
                       pce_crc32c(0, header, PCE_HEADER_CHECKSUM_OFFSET) &&
               bin_le64(header + PCE_HEADER_FILE_BYTES_OFFSET) == size;
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
        ok = kind == PRELOAD_FILE_ZKEY     ? zkey_header_ok(fd, size)
             : kind == PRELOAD_FILE_PARAMS ? params_header_ok(fd, size)
                                           : pce_header_ok(fd, size);
        if (ok)
                return 0;
        snprintf(message, message_size, "%s: not a circuit's key: its header is not that of %s",
                 path, expected[kind]);
        return -EINVAL;
}
