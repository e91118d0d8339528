/* SPDX-License-Identifier: Apache-2.0 */
#include "wtns-save.h"

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

#define WTNS_VERSION 2
#define WTNS_SECTION_HEADER 1
#define WTNS_SECTION_VALUES 2
/* Values converted per write: 32 MiB of output. */
#define VALUES_PER_BATCH ((size_t)1 << 20)

/* The temporary file until it is renamed (unlinked if it never is), and
 * the conversion buffer. */
struct tmp_file {
        char *path;
        FILE *f;
        int renamed;
        uint8_t *buf;
};

static void tmp_file_done(struct tmp_file *t) {
        if (t->f)
                fclose(t->f);
        if (t->path && !t->renamed)
                (void)unlink(t->path);
        free(t->path);
        free(t->buf);
}

static void le32(uint8_t *p, uint32_t v) {
        for (int i = 0; i < 4; i++)
                p[i] = (uint8_t)(v >> (8 * i));
}

static void le64(uint8_t *p, uint64_t v) {
        for (int i = 0; i < 8; i++)
                p[i] = (uint8_t)(v >> (8 * i));
}

/* Everything before the values: container, header section, values section head. */
static size_t encode_preamble(uint8_t *out, uint32_t n_values) {
        uint8_t *p = out;

        memcpy(p, "wtns", 4);
        le32(p + 4, WTNS_VERSION);
        le32(p + 8, 2); /* sections */
        p += 12;

        le32(p, WTNS_SECTION_HEADER);
        le64(p + 4, 4 + FR_BYTES + 4);
        le32(p + 12, FR_BYTES);
        for (size_t i = 0; i < FR_LIMBS; i++)
                le64(p + 16 + 8 * i, BLS12_381_R[i]);
        le32(p + 16 + FR_BYTES, n_values);
        p += 12 + 4 + FR_BYTES + 4;

        le32(p, WTNS_SECTION_VALUES);
        le64(p + 4, (uint64_t)n_values * FR_BYTES);
        p += 12;
        return (size_t)(p - out);
}

int wtns_save(const char *path, const fr_t *values, uint32_t n_values) {
        _cleanup_(tmp_file_done) struct tmp_file t = {0};
        uint8_t preamble[128];
        FILE *f;
        size_t n;
        int fd;

        assert(path);
        assert(values || n_values == 0);

        if (n_values == 0)
                return log_error_errno(EINVAL, "%s: a witness needs at least the constant 1", path);
        t.buf = malloc(VALUES_PER_BATCH * FR_BYTES);
        if (!t.buf || asprintf(&t.path, "%s.tmp-XXXXXX", path) < 0) {
                t.path = NULL;
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        }
        fd = mkostemp(t.path, O_CLOEXEC);
        if (fd < 0) {
                int r = log_error_errno(errno, "%s: cannot create %s: %m", path, t.path);
                free(t.path);
                t.path = NULL; /* nothing to unlink */
                return r;
        }
        t.f = fdopen(fd, "w");
        if (!t.f) {
                close(fd);
                return log_error_errno(errno, "%s: cannot open %s: %m", path, t.path);
        }
        /* mkostemp() makes it 0600; a witness file gets the usual mode. */
        if (fchmod(fd, 0644) < 0)
                return log_error_errno(errno, "%s: cannot chmod %s: %m", path, t.path);

        n = encode_preamble(preamble, n_values);
        if (fwrite(preamble, 1, n, t.f) != n)
                return log_error_errno(errno ? errno : EIO, "%s: cannot write %s: %m", path,
                                       t.path);
        for (size_t start = 0; start < n_values; start += VALUES_PER_BATCH) {
                size_t count =
                        n_values - start < VALUES_PER_BATCH ? n_values - start : VALUES_PER_BATCH;
#pragma omp parallel for schedule(static) if (count >= 65536)
                for (size_t i = 0; i < count; i++)
                        fr_to_le_bytes(t.buf + i * FR_BYTES, &values[start + i]);
                if (fwrite(t.buf, FR_BYTES, count, t.f) != count)
                        return log_error_errno(errno ? errno : EIO, "%s: cannot write %s: %m", path,
                                               t.path);
        }

        if (fflush(t.f) != 0 || fsync(fileno(t.f)) < 0)
                return log_error_errno(errno ? errno : EIO, "%s: cannot sync %s: %m", path, t.path);
        f = TAKE_PTR(t.f);
        if (fclose(f) != 0)
                return log_error_errno(errno ? errno : EIO, "%s: cannot close %s: %m", path,
                                       t.path);
        if (rename(t.path, path) < 0)
                return log_error_errno(errno, "%s: cannot rename %s to it: %m", path, t.path);
        t.renamed = 1;
        return 0;
}
