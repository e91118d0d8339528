/* SPDX-License-Identifier: Apache-2.0 */
#include "fuzz-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>

#include "common/log.h"

static int fuzz_fd = -1;
static char fuzz_path[64];

static void discard(int level, const char *message, void *userdata) {
        (void)level;
        (void)message;
        (void)userdata;
}

void fuzz_quiet(void) {
        log_set_sink(discard, NULL);
}

const char *fuzz_file(const uint8_t *data, size_t size) {
        fuzz_file_close();
        fuzz_fd = memfd_create("fuzz-input", MFD_CLOEXEC);
        if (fuzz_fd < 0) {
                perror("memfd_create");
                abort();
        }
        for (size_t done = 0; done < size;) {
                ssize_t n = write(fuzz_fd, data + done, size - done);
                if (n <= 0) {
                        perror("write to memfd");
                        abort();
                }
                done += (size_t)n;
        }
        snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d", fuzz_fd);
        return fuzz_path;
}

void fuzz_file_close(void) {
        if (fuzz_fd >= 0)
                close(fuzz_fd);
        fuzz_fd = -1;
}
