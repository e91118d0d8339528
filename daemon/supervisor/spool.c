/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spool (see spool.h). A job directory is built under a temporary
 * hidden name and renamed into place whole, so <dir>/<job_id> always has
 * its request.pb and meta; a removed job is first renamed back to a hidden
 * name. Hidden temporary names found at start-up are what a crash left and
 * are cleaned up.
 */
#include "spool.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"

#include "daemon/supervisor/spool-internal.h"

/* Job ids become directory names: no '/', nothing hidden, nothing that
 * looks like the spool's own ".corrupt" names. */
bool spool_job_id_valid(const char *job_id) {
        size_t len = strlen(job_id);

        if (len == 0 || len > SPOOL_JOB_ID_MAX || job_id[0] == '.' ||
            strstr(job_id, SPOOL_CORRUPT_SUFFIX))
                return false;
        for (size_t i = 0; i < len; i++) {
                char c = job_id[i];

                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == ':'))
                        return false;
        }
        return true;
}

static int check_job_id(const struct spool *spool, const char *job_id) {
        if (!spool_job_id_valid(job_id))
                return log_error_errno(EINVAL,
                                       "spool %s: job id '%s' is not usable as a directory name, "
                                       "expected 1..%d of [A-Za-z0-9._:-] not starting with '.'",
                                       spool->dir, job_id, SPOOL_JOB_ID_MAX);
        return 0;
}

static int mkdir_parents(const char *dir) {
        char path[PATH_MAX];
        size_t len = strlen(dir);

        if (len >= sizeof(path))
                return -ENAMETOOLONG;
        memcpy(path, dir, len + 1);
        for (char *p = path + 1;; p++) {
                if (*p != '/' && *p)
                        continue;
                char saved = *p;

                *p = 0;
                if (mkdir(path, SPOOL_DIR_MODE) < 0 && errno != EEXIST)
                        return -errno;
                *p = saved;
                if (!saved)
                        return 0;
        }
}

/* A daemon killed while starting a worker leaves that child between fork and exec, still
 * holding the lock's descriptor until its exec closes it (milliseconds); a restart at once
 * (systemd, a test) would be refused. When the pid recorded in the lock is dead, the lock
 * is retried this long before the refusal. */
#define SPOOL_LOCK_DEAD_HOLDER_WAIT_MS 5000
#define SPOOL_LOCK_RETRY_MS 50

/* The pid written into the lock by its holder, or 0. */
static pid_t spool_lock_holder(int fd, char *text, size_t size) {
        ssize_t n = pread(fd, text, size - 1, 0);
        char *end;
        long pid;

        text[n > 0 ? n : 0] = 0;
        text[strcspn(text, "\n")] = 0;
        errno = 0;
        pid = strtol(text, &end, 10);
        return errno == 0 && end != text && *end == 0 && pid > 0 && pid <= INT_MAX ? (pid_t)pid : 0;
}

static bool pid_dead(pid_t pid) {
        return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
}

/* Takes <dir>/.lock (flock, held until the spool is closed) and writes our pid into it.
 * A second daemon on the same spool would prove every pending job a second time and take
 * the socket over: it is refused, naming the holder's pid. */
static int spool_lock(const char *dir, int dir_fd, int *ret_fd) {
        _cleanup_close_ int fd = -EBADF;
        char pid[32] = "";
        int len, waited_ms = 0;

        fd = openat(dir_fd, SPOOL_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, SPOOL_FILE_MODE);
        if (fd < 0)
                return log_error_errno(errno, "spool %s: cannot open " SPOOL_LOCK ": %m", dir);
        while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
                if (errno != EWOULDBLOCK)
                        return log_error_errno(errno, "spool %s: cannot lock " SPOOL_LOCK ": %m",
                                               dir);
                if (pid_dead(spool_lock_holder(fd, pid, sizeof(pid))) &&
                    waited_ms < SPOOL_LOCK_DEAD_HOLDER_WAIT_MS) {
                        if (waited_ms == 0)
                                log_info("spool %s: the cuzkd that held it (pid %s) is gone; "
                                         "waiting up to %d ms for its children to let go",
                                         dir, pid, SPOOL_LOCK_DEAD_HOLDER_WAIT_MS);
                        usleep(SPOOL_LOCK_RETRY_MS * 1000);
                        waited_ms += SPOOL_LOCK_RETRY_MS;
                        continue;
                }
                return log_error_errno(
                        EBUSY,
                        "spool %s: in use by another cuzkd (pid %s holds %s/" SPOOL_LOCK
                        "); expected one cuzkd per spool directory "
                        "(SpoolDirectory=)",
                        dir, *pid ? pid : "unknown", dir);
        }
        len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)len, 0) != len)
                log_warning_errno(errno, "spool %s: cannot write our pid into " SPOOL_LOCK ": %m",
                                  dir);
        *ret_fd = TAKE_FD(fd);
        return 0;
}

int spool_open(const char *dir, struct spool **ret) {
        _cleanup_close_ int fd = -EBADF, lock_fd = -EBADF;
        struct spool *spool;
        int r;

        assert(dir);
        assert(ret);

        if (dir[0] != '/')
                return log_error_errno(EINVAL, "spool %s: expected an absolute path", dir);
        r = mkdir_parents(dir);
        if (r < 0 && r != -ENOTDIR)
                return log_error_errno(r, "spool %s: cannot create: %m", dir);
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
                r = -errno;
                if (r == -ENOTDIR)
                        return log_error_errno(r,
                                               "spool %s: not a directory, expected the spool "
                                               "directory (SpoolDirectory=)",
                                               dir);
                return log_error_errno(r, "spool %s: cannot open: %m", dir);
        }
        if (faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) < 0)
                return log_error_errno(errno, "spool %s: not writable: %m", dir);
        r = spool_lock(dir, fd, &lock_fd);
        if (r < 0)
                return r;

        spool = calloc(1, sizeof(*spool));
        if (!spool || !(spool->dir = strdup(dir))) {
                free(spool);
                return log_error_errno(ENOMEM, "spool %s: out of memory", dir);
        }
        spool->dir_fd = TAKE_FD(fd);
        spool->lock_fd = TAKE_FD(lock_fd);
        r = spool_set_max_bytes(spool, 0);
        if (r < 0) {
                spool_free(spool);
                return r;
        }
        *ret = spool;
        return 0;
}

void spool_free(struct spool *spool) {
        if (!spool)
                return;
        if (spool->dir_fd >= 0)
                close(spool->dir_fd);
        if (spool->lock_fd >= 0)
                close(spool->lock_fd); /* the lock goes with it */
        free(spool->quarantined);
        free(spool->dir);
        free(spool);
}

int spool_set_max_bytes(struct spool *spool, uint64_t max_bytes) {
        struct statvfs vfs;

        assert(spool);
        if (max_bytes == 0) {
                if (fstatvfs(spool->dir_fd, &vfs) < 0)
                        return log_error_errno(errno,
                                               "spool %s: cannot read its filesystem's "
                                               "size: %m",
                                               spool->dir);
                max_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize / 10;
                if (max_bytes > SPOOL_AUTO_MAX_BYTES || max_bytes == 0)
                        max_bytes = SPOOL_AUTO_MAX_BYTES;
        }
        spool->max_bytes = max_bytes;
        return 0;
}

uint64_t spool_max_bytes(const struct spool *spool) {
        assert(spool);
        return spool->max_bytes;
}

uint64_t spool_used_bytes(const struct spool *spool) {
        assert(spool);
        return spool->used_bytes;
}

uint64_t spool_dir_bytes_at(int parent_fd, const char *name) {
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        uint64_t bytes = 0;
        struct stat st;
        int fd;

        fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return 0;
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return 0;
        }
        while ((de = readdir(d)))
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    S_ISREG(st.st_mode))
                        bytes += (uint64_t)st.st_size;
        return bytes;
}

void spool_uncount(struct spool *spool, uint64_t bytes) {
        uint64_t used = atomic_load(&spool->used_bytes);

        while (!atomic_compare_exchange_weak(&spool->used_bytes, &used,
                                             used > bytes ? used - bytes : 0))
                ;
}

/* Removes the directory name below parent_fd with the files in it (the
 * spool's directories hold no subdirectories). */
int spool_remove_dir_at(int parent_fd, const char *name) {
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int fd;

        fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return -errno;
        }
        while ((errno = 0, de = readdir(d))) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (unlinkat(dirfd(d), de->d_name, 0) < 0 &&
                    (errno != EISDIR || unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0))
                        return -errno;
        }
        if (errno)
                return -errno;
        if (unlinkat(parent_fd, name, AT_REMOVEDIR) < 0)
                return -errno;
        return 0;
}

/* The request's inline input, stored once as a file of its own (NULL: none): the witness,
 * or a PoRep job's C1 output (up to ~51 MB at 32 GiB), which the worker reads by path. */
static const ProtobufCBinaryData *inline_input(const Cuzk__V1__SubmitProofRequest *request,
                                               const char **ret_name) {
        if (request->wtns.len > 0) {
                *ret_name = SPOOL_WTNS;
                return &request->wtns;
        }
        if (request->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT &&
            request->vanilla_proof.len > 0) {
                *ret_name = SPOOL_C1;
                return &request->vanilla_proof;
        }
        return NULL;
}

static int pack_request(const Cuzk__V1__SubmitProofRequest *request, uint8_t **ret,
                        size_t *ret_size) {
        Cuzk__V1__SubmitProofRequest without_wtns = *request;
        const char *name;
        const ProtobufCBinaryData *input = inline_input(request, &name);
        size_t size;
        uint8_t *buf;

        if (input == &request->wtns)
                without_wtns.wtns = (ProtobufCBinaryData){0};
        else if (input)
                without_wtns.vanilla_proof = (ProtobufCBinaryData){0};
        size = cuzk__v1__submit_proof_request__get_packed_size(&without_wtns);
        buf = malloc(size ? size : 1);
        if (!buf)
                return -ENOMEM;
        if (cuzk__v1__submit_proof_request__pack(&without_wtns, buf) != size) {
                free(buf);
                return -EIO;
        }
        *ret = buf;
        *ret_size = size;
        return 0;
}

/* The owner's lines: "owner=anonymous" for a peer without credentials (TCP), else its
 * uid, gid and supplementary groups. */
static int format_owner(const struct api_peer *owner, char **ret) {
        char groups[API_PEER_MAX_GROUPS * 11 + 1] = "";
        size_t len = 0;

        if (!owner->known)
                return asprintf(ret, "owner=anonymous\n") < 0 ? -ENOMEM : 0;
        for (unsigned i = 0; i < owner->n_groups && i < API_PEER_MAX_GROUPS; i++)
                len += (size_t)snprintf(groups + len, sizeof(groups) - len, "%s%u", i ? "," : "",
                                        (unsigned)owner->groups[i]);
        return asprintf(ret, "owner_uid=%u\nowner_gid=%u\nowner_groups=%s\n", (unsigned)owner->uid,
                        (unsigned)owner->gid, groups) < 0
                       ? -ENOMEM
                       : 0;
}

/* meta: "key=value" lines. The request id is written for people reading the
 * spool; bytes outside printable ASCII (and '\') are written as \xNN. */
static int format_meta(const char *request_id, uint64_t submitted_usec,
                       const struct api_peer *owner, char **ret) {
        _cleanup_free_ char *owner_lines = NULL;
        char *text, *grown;
        size_t len;
        int n;

        if (format_owner(owner, &owner_lines) < 0)
                return -ENOMEM;
        n = asprintf(&text, "submitted_usec=%" PRIu64 "\n%srequest_id=", submitted_usec,
                     owner_lines);
        if (n < 0)
                return -ENOMEM;
        len = (size_t)n;
        grown = realloc(text, len + 4 * strlen(request_id) + 2);
        if (!grown) {
                free(text);
                return -ENOMEM;
        }
        text = grown;
        for (const char *c = request_id; *c; c++) {
                unsigned char u = (unsigned char)*c;

                if (u < 0x20 || u >= 0x7f || u == '\\')
                        len += (size_t)sprintf(text + len, "\\x%02x", u);
                else
                        text[len++] = (char)u;
        }
        text[len++] = '\n';
        text[len] = 0;
        *ret = text;
        return 0;
}

/* The job's directory, built under a hidden name and renamed whole: a crash leaves either
 * the complete job or a temporary directory that start-up removes. */
static int write_job_dir(struct spool *spool, const char *job_id, const uint8_t *packed,
                         size_t packed_size, const char *meta, const char *input_name,
                         const ProtobufCBinaryData *input) {
        _cleanup_close_ int tmp_fd = -EBADF;
        char tmp_name[NAME_MAX + 1];
        int r;

        r = atomic_file_tmp_name(job_id, tmp_name, sizeof(tmp_name));
        if (r < 0)
                return log_error_errno(r, "spool %s: job %s: %m", spool->dir, job_id);
        if (mkdirat(spool->dir_fd, tmp_name, SPOOL_DIR_MODE) < 0)
                return log_error_errno(errno, "spool %s: cannot create %s: %m", spool->dir,
                                       tmp_name);
        tmp_fd = openat(spool->dir_fd, tmp_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (tmp_fd < 0)
                r = -errno;
        spool_slow_disk();
        if (r == 0)
                r = atomic_file_write_at(tmp_fd, SPOOL_REQUEST, packed, packed_size,
                                         SPOOL_FILE_MODE);
        if (r == 0)
                r = atomic_file_write_at(tmp_fd, SPOOL_META, meta, strlen(meta), SPOOL_FILE_MODE);
        if (r == 0 && input)
                r = atomic_file_write_at(tmp_fd, input_name, input->data, input->len,
                                         SPOOL_FILE_MODE);
        if (r == 0 && renameat(spool->dir_fd, tmp_name, spool->dir_fd, job_id) < 0)
                r = -errno;
        if (r == 0 && fsync(spool->dir_fd) < 0)
                r = -errno;
        if (r < 0) {
                (void)spool_remove_dir_at(spool->dir_fd, tmp_name);
                return log_error_errno(r, "spool %s: job %s: cannot write it to disk: %m",
                                       spool->dir, job_id);
        }
        return 0;
}

int spool_save_job(struct spool *spool, const char *job_id,
                   const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                   const struct api_peer *owner, char **ret_input_path) {
        _cleanup_free_ uint8_t *packed = NULL;
        _cleanup_free_ char *meta = NULL, *input_path = NULL;
        const ProtobufCBinaryData *input;
        const char *input_name = NULL;
        size_t packed_size;
        uint64_t job_bytes, used_bytes;
        struct stat st;
        int r;

        assert(spool);
        assert(job_id);
        assert(request);
        assert(owner);

        r = check_job_id(spool, job_id);
        if (r < 0)
                return r;
        if (request->request_id && strlen(request->request_id) > SPOOL_REQUEST_ID_MAX)
                return log_error_errno(EINVAL,
                                       "spool %s: job %s: request id of %zu bytes, expected at "
                                       "most %d",
                                       spool->dir, job_id, strlen(request->request_id),
                                       SPOOL_REQUEST_ID_MAX);
        if (fstatat(spool->dir_fd, job_id, &st, AT_SYMLINK_NOFOLLOW) == 0)
                return log_error_errno(EEXIST, "spool %s: job %s is already spooled", spool->dir,
                                       job_id);
        input = inline_input(request, &input_name);
        if (input && asprintf(&input_path, "%s/%s/%s", spool->dir, job_id, input_name) < 0)
                return log_error_errno(ENOMEM, "spool %s: job %s: out of memory", spool->dir,
                                       job_id);
        r = pack_request(request, &packed, &packed_size);
        if (r == 0)
                r = format_meta(request->request_id ? request->request_id : "", submitted_usec,
                                owner, &meta);
        if (r < 0)
                return log_error_errno(r, "spool %s: job %s: cannot encode the request: %m",
                                       spool->dir, job_id);
        job_bytes = packed_size + strlen(meta) + (input ? input->len : 0);
        used_bytes = atomic_load(&spool->used_bytes);
        if (used_bytes + job_bytes > spool->max_bytes)
                return log_warning_errno(EDQUOT,
                                         "spool %s: job %s refused: its %" PRIu64
                                         " bytes would bring the spool to %" PRIu64
                                         ", above SpoolMaxBytes=%" PRIu64,
                                         spool->dir, job_id, job_bytes, used_bytes + job_bytes,
                                         (uint64_t)spool->max_bytes);

        r = write_job_dir(spool, job_id, packed, packed_size, meta, input_name, input);
        if (r < 0)
                return r;
        spool->used_bytes += job_bytes;
        log_debug("spool %s: job %s saved (%zu bytes of request, %zu of inline input)", spool->dir,
                  job_id, packed_size, input ? input->len : 0);
        if (ret_input_path)
                *ret_input_path = TAKE_PTR(input_path);
        return 0;
}

int spool_open_job_dir(const struct spool *spool, const char *job_id) {
        int fd = openat(spool->dir_fd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        return fd;
}

int spool_open_job_checked(const struct spool *spool, const char *job_id) {
        int r = check_job_id(spool, job_id), fd;

        if (r < 0)
                return r;
        fd = spool_open_job_dir(spool, job_id);
        if (fd < 0)
                return log_error_errno(fd, "spool %s: job %s: cannot open its directory: %m",
                                       spool->dir, job_id);
        return fd;
}

int spool_remove_job(struct spool *spool, const char *job_id) {
        char tmp_name[NAME_MAX + 1];
        int r;

        assert(spool);
        assert(job_id);

        r = check_job_id(spool, job_id);
        if (r < 0)
                return r;
        /* Out of sight first, in one step: a crash while deleting leaves a
         * hidden directory that start-up removes, never half a job. */
        r = atomic_file_tmp_name(job_id, tmp_name, sizeof(tmp_name));
        if (r < 0)
                return log_error_errno(r, "spool %s: job %s: %m", spool->dir, job_id);
        if (renameat(spool->dir_fd, job_id, spool->dir_fd, tmp_name) < 0) {
                r = -errno;
                if (r == -ENOENT)
                        return log_debug_errno(r, "spool %s: job %s: not spooled", spool->dir,
                                               job_id);
                return log_error_errno(r, "spool %s: job %s: cannot remove: %m", spool->dir,
                                       job_id);
        }
        spool_uncount(spool, spool_dir_bytes_at(spool->dir_fd, tmp_name));
        spool_slow_disk();
        if (fsync(spool->dir_fd) < 0)
                return log_error_errno(errno, "spool %s: cannot sync: %m", spool->dir);
        r = spool_remove_dir_at(spool->dir_fd, tmp_name);
        if (r < 0)
                log_warning_errno(r,
                                  "spool %s: job %s: cannot delete %s (removed at the next "
                                  "start): %m",
                                  spool->dir, job_id, tmp_name);
        return 0;
}
