/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading the spool back at start-up (spool_load_all, see spool.h): job
 * directories oldest first, what a crash left cleaned up, a job that cannot
 * be read renamed to <job_id>.corrupt and skipped.
 */
#include "spool.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"

#include "daemon/supervisor/spool-internal.h"

static void request_freep(Cuzk__V1__SubmitProofRequest **r) {
        if (*r)
                cuzk__v1__submit_proof_request__free_unpacked(*r, NULL);
}

static void result_freep(Cuzk__V1__AwaitProofResponse **r) {
        if (*r)
                cuzk__v1__await_proof_response__free_unpacked(*r, NULL);
}

/* Reads a whole file below dir_fd; -EFBIG above max_size. */
static int read_file_at(int dir_fd, const char *name, size_t max_size, uint8_t **ret,
                        size_t *ret_size) {
        _cleanup_close_ int fd = -EBADF;
        _cleanup_free_ uint8_t *buf = NULL;
        struct stat st;
        size_t done = 0;

        fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        if ((uint64_t)st.st_size > max_size)
                return -EFBIG;
        buf = malloc((size_t)st.st_size + 1);
        if (!buf)
                return -ENOMEM;
        while (done < (size_t)st.st_size) {
                ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                if (n == 0)
                        return -EIO; /* shrank under us */
                done += (size_t)n;
        }
        buf[done] = 0;
        *ret = TAKE_PTR(buf);
        *ret_size = done;
        return 0;
}

/* The unsigned decimal after "key=" at the start of a line of text, or -ENOENT. */
static int meta_number(const char *text, const char *key, unsigned long long max,
                       unsigned long long *ret) {
        size_t key_len = strlen(key);
        char *end;

        for (const char *line = text; line;
             line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
                if (strncmp(line, key, key_len) || line[key_len] != '=')
                        continue;
                line += key_len + 1;
                if (*line < '0' || *line > '9')
                        return -EBADMSG;
                errno = 0;
                *ret = strtoull(line, &end, 10);
                if (errno || (*end && *end != '\n') || *ret > max)
                        return -EBADMSG;
                return 0;
        }
        return -ENOENT;
}

/* "owner_groups=g1,g2": the supplementary groups. */
static int meta_groups(const char *text, struct api_peer *owner) {
        const char *line = strstr(text, "\nowner_groups=");
        char *end;

        if (!line)
                return -EBADMSG;
        line += strlen("\nowner_groups=");
        while (*line && *line != '\n') {
                unsigned long long gid;

                if (*line < '0' || *line > '9' || owner->n_groups == API_PEER_MAX_GROUPS)
                        return -EBADMSG;
                errno = 0;
                gid = strtoull(line, &end, 10);
                if (errno || gid > UINT32_MAX || (*end && *end != ',' && *end != '\n'))
                        return -EBADMSG;
                owner->groups[owner->n_groups++] = (gid_t)gid;
                line = *end == ',' ? end + 1 : end;
        }
        return 0;
}

/* The owner lines (spool.c's format_owner); a meta written before owners were recorded
 * has none, and its job was accepted with the daemon's rights: root's. */
static int meta_owner(const char *text, struct api_peer *ret) {
        unsigned long long uid, gid;
        int r;

        *ret = (struct api_peer){.known = true};
        if (strstr(text, "\nowner=anonymous\n")) {
                ret->known = false;
                return 0;
        }
        r = meta_number(text, "owner_uid", UINT32_MAX, &uid);
        if (r == -ENOENT)
                return 0;
        if (r == 0)
                r = meta_number(text, "owner_gid", UINT32_MAX, &gid);
        if (r < 0)
                return -EBADMSG;
        ret->uid = (uid_t)uid;
        ret->gid = (gid_t)gid;
        return meta_groups(text, ret);
}

int spool_read_meta(int job_fd, uint64_t *ret_submitted_usec, struct api_peer *ret_owner) {
        _cleanup_free_ uint8_t *text = NULL;
        unsigned long long usec;
        size_t size;
        int r;

        r = read_file_at(job_fd, SPOOL_META, SPOOL_META_MAX, &text, &size);
        if (r < 0)
                return r;
        /* "submitted_usec=N" on its own line */
        r = meta_number((const char *)text, "submitted_usec", UINT64_MAX, &usec);
        if (r < 0)
                return -EBADMSG;
        *ret_submitted_usec = usec;
        return meta_owner((const char *)text, ret_owner);
}

struct spool_entry {
        char job_id[SPOOL_JOB_ID_MAX + 1];
        uint64_t submitted_usec;
        struct api_peer owner;
};

static int spool_entry_compare(const void *a, const void *b) {
        const struct spool_entry *x = a, *y = b;

        if (x->submitted_usec != y->submitted_usec)
                return x->submitted_usec < y->submitted_usec ? -1 : 1;
        return strcmp(x->job_id, y->job_id);
}

/* Whether a top-level entry is a job directory; cleans up what a crash left. */
static bool spool_entry_is_job(struct spool *spool, const struct dirent *de) {
        struct stat st;
        int r;

        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                return false;
        if (atomic_file_is_tmp_name(de->d_name)) {
                r = spool_remove_dir_at(spool->dir_fd, de->d_name);
                if (r == -ENOTDIR)
                        r = unlinkat(spool->dir_fd, de->d_name, 0) < 0 ? -errno : 0;
                if (r < 0)
                        log_warning_errno(r, "spool %s: cannot remove the leftover %s: %m",
                                          spool->dir, de->d_name);
                else
                        log_debug("spool %s: removed the leftover %s", spool->dir, de->d_name);
                return false;
        }
        if (de->d_name[0] == '.')
                return false;
        if (strstr(de->d_name, SPOOL_CORRUPT_SUFFIX)) {
                spool_remember_quarantined(spool, de->d_name);
                return false;
        }
        if (fstatat(spool->dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISDIR(st.st_mode) || !spool_job_id_valid(de->d_name)) {
                log_warning("spool %s: %s is not a job directory, ignored", spool->dir, de->d_name);
                return false;
        }
        return true;
}

/* The job directories with their submission times, oldest first. Jobs
 * whose meta cannot be read are marked corrupt here. */
static int spool_list(struct spool *spool, struct spool_entry **ret, size_t *ret_n) {
        _cleanup_(closedirp) DIR *d = NULL;
        _cleanup_free_ struct spool_entry *entries = NULL;
        size_t n = 0, allocated = 0;
        struct dirent *de;
        int fd, r;

        fd = openat(spool->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "spool %s: cannot open: %m", spool->dir);
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return log_error_errno(errno, "spool %s: cannot read: %m", spool->dir);
        }
        while ((errno = 0, de = readdir(d))) {
                _cleanup_close_ int job_fd = -EBADF;
                struct api_peer owner;
                uint64_t usec = 0;

                if (!spool_entry_is_job(spool, de))
                        continue;
                job_fd = spool_open_job_dir(spool, de->d_name);
                r = job_fd < 0 ? job_fd : spool_read_meta(job_fd, &usec, &owner);
                if (r < 0) {
                        spool_quarantine(spool, de->d_name, "cannot read " SPOOL_META, r, NULL,
                                         NULL);
                        continue;
                }
                if (n == allocated) {
                        size_t more = allocated ? 2 * allocated : 16;
                        struct spool_entry *p = reallocarray(entries, more, sizeof(*p));

                        if (!p)
                                return log_error_errno(ENOMEM, "spool %s: out of memory",
                                                       spool->dir);
                        entries = p;
                        allocated = more;
                }
                /* spool_job_id_valid() checked the length */
                memcpy(entries[n].job_id, de->d_name, strlen(de->d_name) + 1);
                entries[n].owner = owner;
                entries[n++].submitted_usec = usec;
        }
        if (errno)
                return log_error_errno(errno, "spool %s: cannot read: %m", spool->dir);
        if (n > 0)
                qsort(entries, n, sizeof(*entries), spool_entry_compare);
        *ret = TAKE_PTR(entries);
        *ret_n = n;
        return 0;
}

/* Removes temporary files a crash left inside a job directory. */
static void clean_job_dir(const struct spool *spool, int job_fd, const char *job_id) {
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int fd;

        fd = openat(job_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return;
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return;
        }
        while ((de = readdir(d)))
                if (atomic_file_is_tmp_name(de->d_name)) {
                        if (unlinkat(job_fd, de->d_name, 0) < 0)
                                log_warning_errno(errno,
                                                  "spool %s: job %s: cannot remove the "
                                                  "leftover %s: %m",
                                                  spool->dir, job_id, de->d_name);
                        else
                                log_debug("spool %s: job %s: removed the leftover %s", spool->dir,
                                          job_id, de->d_name);
                }
}

/* A request.pb that unpacks but says nothing (empty, or cut before its proof kind, the
 * first field a client sets) is not a job: running it would answer "proof kind 0 is not
 * implemented" for a job that was accepted. */
static const char *request_problem(const Cuzk__V1__SubmitProofRequest *request, size_t size) {
        if (size == 0)
                return SPOOL_REQUEST " is empty";
        if (request->proof_kind == CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED)
                return SPOOL_REQUEST " has no proof kind (cut short?)";
        return NULL;
}

/* A result.pb is written once, whole, with a final status; an empty or cut one would turn
 * a finished job into "FAILED" with no message. */
static const char *result_problem(const Cuzk__V1__AwaitProofResponse *result, size_t size,
                                  const char *job_id) {
        if (size == 0)
                return SPOOL_RESULT " is empty";
        if (result->job_id && *result->job_id && strcmp(result->job_id, job_id))
                return SPOOL_RESULT " is another job's";
        switch (result->status) {
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED:
                if (result->proof.len == 0 && (!result->proof_json || !*result->proof_json))
                        return SPOOL_RESULT " says COMPLETED but holds no proof (cut short?)";
                return NULL;
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED:
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED:
                return NULL;
        default:
                return SPOOL_RESULT " holds no final status (cut short?)";
        }
}

/* Reads and checks request.pb and result.pb (absent: *ret_result NULL); on a problem the
 * job is quarantined (a negative errno). */
static int read_job_files(struct spool *spool, const struct spool_entry *entry, int job_fd,
                          Cuzk__V1__SubmitProofRequest **ret_request,
                          Cuzk__V1__AwaitProofResponse **ret_result) {
        _cleanup_(request_freep) Cuzk__V1__SubmitProofRequest *request = NULL;
        _cleanup_(result_freep) Cuzk__V1__AwaitProofResponse *result = NULL;
        _cleanup_free_ uint8_t *buf = NULL;
        const char *problem;
        size_t size;
        int r;

        r = read_file_at(job_fd, SPOOL_REQUEST, UINT32_MAX, &buf, &size);
        if (r < 0)
                return spool_quarantine(spool, entry->job_id, "cannot read " SPOOL_REQUEST, r, NULL,
                                        &entry->owner);
        request = cuzk__v1__submit_proof_request__unpack(NULL, size, buf);
        if (!request)
                return spool_quarantine(spool, entry->job_id,
                                        SPOOL_REQUEST " is not a SubmitProofRequest message",
                                        EBADMSG, NULL, &entry->owner);
        problem = request_problem(request, size);
        if (problem)
                return spool_quarantine(spool, entry->job_id, problem, EBADMSG, request->request_id,
                                        &entry->owner);
        free(TAKE_PTR(buf));

        r = read_file_at(job_fd, SPOOL_RESULT, UINT32_MAX, &buf, &size);
        if (r < 0 && r != -ENOENT)
                return spool_quarantine(spool, entry->job_id, "cannot read " SPOOL_RESULT, r,
                                        request->request_id, &entry->owner);
        if (r == 0) {
                result = cuzk__v1__await_proof_response__unpack(NULL, size, buf);
                problem = result ? result_problem(result, size, entry->job_id)
                                 : SPOOL_RESULT " is not an AwaitProofResponse message";
                if (problem)
                        return spool_quarantine(spool, entry->job_id, problem, EBADMSG,
                                                request->request_id, &entry->owner);
        }
        *ret_request = TAKE_PTR(request);
        *ret_result = TAKE_PTR(result);
        return 0;
}

/* Loads one job and calls back; corrupt jobs are quarantined and skipped (0, *ret_loaded
 * false). */
static int spool_load_job(struct spool *spool, const struct spool_entry *entry,
                          spool_job_fn callback, void *userdata, bool *ret_loaded) {
        _cleanup_(request_freep) Cuzk__V1__SubmitProofRequest *request = NULL;
        _cleanup_(result_freep) Cuzk__V1__AwaitProofResponse *result = NULL;
        _cleanup_free_ char *input_path = NULL;
        _cleanup_close_ int job_fd = -EBADF;
        struct stat st;

        job_fd = spool_open_job_dir(spool, entry->job_id);
        if (job_fd < 0) {
                spool_quarantine(spool, entry->job_id, "cannot open", job_fd, NULL, &entry->owner);
                return 0;
        }
        clean_job_dir(spool, job_fd, entry->job_id);
        if (read_job_files(spool, entry, job_fd, &request, &result) < 0)
                return 0;

        /* The inline input: a witness, or a PoRep job's C1 output. */
        for (size_t i = 0; i < 2 && !input_path; i++) {
                const char *name = i == 0 ? SPOOL_WTNS : SPOOL_C1;

                if (fstatat(job_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    asprintf(&input_path, "%s/%s/%s", spool->dir, entry->job_id, name) < 0)
                        return log_error_errno(ENOMEM, "spool %s: out of memory", spool->dir);
        }

        spool->used_bytes += spool_dir_bytes_at(spool->dir_fd, entry->job_id);
        *ret_loaded = true;
        return callback(userdata, entry->job_id, request, entry->submitted_usec, &entry->owner,
                        input_path, result);
}

int spool_load_all(struct spool *spool, spool_job_fn callback, void *userdata) {
        _cleanup_free_ struct spool_entry *entries = NULL;
        size_t n = 0, n_loaded = 0;
        int r;

        assert(spool);
        assert(callback);

        /* Counted again from what is there. */
        spool->used_bytes = 0;
        spool->n_quarantined = spool->n_quarantined_kept = 0;
        r = spool_list(spool, &entries, &n);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++) {
                bool loaded = false;

                r = spool_load_job(spool, &entries[i], callback, userdata, &loaded);
                if (r < 0)
                        return r;
                n_loaded += loaded;
        }
        log_debug("spool %s: %zu jobs loaded, %" PRIu64 " bytes of SpoolMaxBytes=%" PRIu64
                  ", %zu quarantined",
                  spool->dir, n_loaded, (uint64_t)spool->used_bytes, (uint64_t)spool->max_bytes,
                  spool->n_quarantined);
        return 0;
}
