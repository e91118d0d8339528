/* SPDX-License-Identifier: Apache-2.0 */
#include "bellperson_io.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zk/point_encoding.h"

/* Below this many points a parallel region costs more than it saves. */
#define PARALLEL_MIN_POINTS 4096
/* Large enough that a 47 GB file is a few thousand writes. */
#define WRITER_BUFFER_BYTES ((size_t)8 << 20)

int bellperson_map_file(const char *path, struct bellperson_map *ret) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;
        void *p;

        assert(path);
        assert(ret);

        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "%s: cannot open: %m", path);
        if (fstat(fd, &st) < 0)
                return log_error_errno(errno, "%s: cannot stat: %m", path);
        if (!S_ISREG(st.st_mode))
                return log_error_errno(EBADF, "%s: not a regular file", path);
        if ((uint64_t)st.st_size > SIZE_MAX)
                return log_error_errno(EFBIG, "%s: %" PRIu64 " bytes do not fit in memory", path,
                                       (uint64_t)st.st_size);

        /* mmap() refuses a length of 0; the parsers report the truncation. */
        if (st.st_size == 0) {
                *ret = (struct bellperson_map){.data = NULL, .size = 0};
                return 0;
        }
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
                return log_error_errno(errno, "%s: cannot map %" PRIu64 " bytes: %m", path,
                                       (uint64_t)st.st_size);
        *ret = (struct bellperson_map){.data = p, .size = (size_t)st.st_size};
        return 0;
}

void bellperson_map_drop(const struct bellperson_map *m, const char *path, uint64_t offset,
                         uint64_t len) {
        const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
        _cleanup_close_ int fd = -EBADF;
        uint64_t start, end;

        assert(m && path);
        if (!m->data || offset >= m->size)
                return;
        end = len > m->size - offset ? m->size : offset + len;
        /* Whole pages: one shared with a section not read yet is read again from the file. */
        start = offset / page * page;
        end = end % page ? end + page - end % page : end;
        if (end > m->size)
                end = m->size; /* the mapping's last page is whole anyway */
        (void)madvise((uint8_t *)m->data + start, end - start, MADV_DONTNEED);
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd >= 0)
                (void)posix_fadvise(fd, (off_t)start, (off_t)(end - start), POSIX_FADV_DONTNEED);
}

void bellperson_unmap_file(struct bellperson_map *m) {
        assert(m);
        if (m->data)
                munmap((void *)m->data, m->size);
        *m = (struct bellperson_map){0};
}

int bellperson_load_file(const char *path, bellperson_parse_fn parse, void *ret) {
        _cleanup_(bellperson_unmap_file) struct bellperson_map map = {0};
        int r;

        assert(path);
        assert(parse);
        assert(ret);

        r = bellperson_map_file(path, &map);
        if (r < 0)
                return r;
        return parse(map.data, map.size, path, ret);
}

typedef int (*point_decode_fn)(void *out, const uint8_t *in, unsigned flags);

static int g1_decode_uncompressed(void *out, const uint8_t *in, unsigned flags) {
        return g1_decode(out, in, G1_UNCOMPRESSED_BYTES, POINT_FORMAT_UNCOMPRESSED, flags);
}

static int g2_decode_uncompressed(void *out, const uint8_t *in, unsigned flags) {
        return g2_decode(out, in, G2_UNCOMPRESSED_BYTES, POINT_FORMAT_UNCOMPRESSED, flags);
}

static int decode_points(uint8_t *out, size_t out_size, const uint8_t *in, size_t in_size,
                         uint64_t n, unsigned flags, point_decode_fn decode,
                         uint64_t *ret_bad_index) {
        uint64_t first_bad = UINT64_MAX;

        assert(out || n == 0);
        assert(in || n == 0);
        assert(ret_bad_index);

        /* Every thread decodes (and first-touches) its own contiguous range. */
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (n >= PARALLEL_MIN_POINTS)
        for (uint64_t i = 0; i < n; i++)
                if (decode(out + i * out_size, in + i * in_size, flags) < 0 && i < first_bad)
                        first_bad = i;

        if (first_bad == UINT64_MAX)
                return 0;
        /* Decode the first bad one again to learn why it is bad. */
        *ret_bad_index = first_bad;
        return decode(out + first_bad * out_size, in + first_bad * in_size, flags);
}

int bellperson_decode_g1_points(g1_affine_t *out, const uint8_t *in, uint64_t n, unsigned flags,
                                uint64_t *ret_bad_index) {
        return decode_points((uint8_t *)out, sizeof(*out), in, G1_UNCOMPRESSED_BYTES, n, flags,
                             g1_decode_uncompressed, ret_bad_index);
}

int bellperson_decode_g2_points(g2_affine_t *out, const uint8_t *in, uint64_t n, unsigned flags,
                                uint64_t *ret_bad_index) {
        return decode_points((uint8_t *)out, sizeof(*out), in, G2_UNCOMPRESSED_BYTES, n, flags,
                             g2_decode_uncompressed, ret_bad_index);
}

struct bellperson_writer {
        char *path;
        struct atomic_file file;
        uint8_t *buf; /* WRITER_BUFFER_BYTES */
        size_t used;
        bool finished;
};

struct bellperson_writer *bellperson_writer_free(struct bellperson_writer *w) {
        if (!w)
                return NULL;
        /* Deletes the temporary file unless it was renamed. */
        atomic_file_close(&w->file);
        free(w->buf);
        free(w->path);
        free(w);
        return NULL;
}

int bellperson_writer_open(const char *path, struct bellperson_writer **ret) {
        _cleanup_(bellperson_writer_freep) struct bellperson_writer *w = NULL;
        int r;

        assert(path);
        assert(ret);

        w = calloc(1, sizeof(*w));
        if (!w)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        w->file = (struct atomic_file){.fd = -EBADF, .dir_fd = -EBADF};
        w->path = strdup(path);
        w->buf = malloc(WRITER_BUFFER_BYTES);
        if (!w->path || !w->buf)
                // cppcheck-suppress memleak ; freed by _cleanup_
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        /* Parameters and keys are public data. */
        r = atomic_file_open(path, 0644, &w->file);
        if (r < 0)
                return log_error_errno(r, "%s: cannot create a temporary file beside it: %m", path);

        *ret = TAKE_PTR(w);
        return 0;
}

static int writer_flush(struct bellperson_writer *w) {
        int r = atomic_file_append(&w->file, w->buf, w->used);

        if (r < 0)
                return log_error_errno(r, "%s: cannot write %s: %m", w->path, w->file.tmp_name);
        w->used = 0;
        return 0;
}

int bellperson_write_u32(struct bellperson_writer *w, uint32_t v) {
        int r;

        assert(w);
        assert(!w->finished);

        if (WRITER_BUFFER_BYTES - w->used < 4) {
                r = writer_flush(w);
                if (r < 0)
                        return r;
        }
        w->buf[w->used++] = (uint8_t)(v >> 24);
        w->buf[w->used++] = (uint8_t)(v >> 16);
        w->buf[w->used++] = (uint8_t)(v >> 8);
        w->buf[w->used++] = (uint8_t)v;
        return 0;
}

typedef void (*point_encode_fn)(uint8_t *out, const void *p);

static void g1_encode_uncompressed(uint8_t *out, const void *p) {
        g1_encode(out, G1_UNCOMPRESSED_BYTES, p, POINT_FORMAT_UNCOMPRESSED);
}

static void g2_encode_uncompressed(uint8_t *out, const void *p) {
        g2_encode(out, G2_UNCOMPRESSED_BYTES, p, POINT_FORMAT_UNCOMPRESSED);
}

static int write_points(struct bellperson_writer *w, const uint8_t *points, size_t point_size,
                        uint64_t n, size_t encoded_size, point_encode_fn encode) {
        int r;

        assert(w);
        assert(!w->finished);
        assert(points || n == 0);

        while (n > 0) {
                uint64_t room = (WRITER_BUFFER_BYTES - w->used) / encoded_size;
                uint64_t chunk = n < room ? n : room;
                uint8_t *out = w->buf + w->used;

                if (chunk == 0) {
                        r = writer_flush(w);
                        if (r < 0)
                                return r;
                        continue;
                }
#pragma omp parallel for schedule(static) if (chunk >= PARALLEL_MIN_POINTS)
                for (uint64_t i = 0; i < chunk; i++)
                        encode(out + i * encoded_size, points + i * point_size);
                w->used += chunk * encoded_size;
                points += chunk * point_size;
                n -= chunk;
        }
        return 0;
}

int bellperson_write_g1_points(struct bellperson_writer *w, const g1_affine_t *p, uint64_t n) {
        return write_points(w, (const uint8_t *)p, sizeof(*p), n, G1_UNCOMPRESSED_BYTES,
                            g1_encode_uncompressed);
}

int bellperson_write_g2_points(struct bellperson_writer *w, const g2_affine_t *p, uint64_t n) {
        return write_points(w, (const uint8_t *)p, sizeof(*p), n, G2_UNCOMPRESSED_BYTES,
                            g2_encode_uncompressed);
}

int bellperson_writer_finish(struct bellperson_writer *w) {
        int r;

        assert(w);
        assert(!w->finished);

        r = writer_flush(w);
        if (r < 0)
                return r;
        r = atomic_file_commit(&w->file);
        if (r < 0)
                return log_error_errno(r, "%s: cannot sync and rename %s to it: %m", w->path,
                                       w->file.tmp_name);
        w->finished = true;
        return 0;
}
