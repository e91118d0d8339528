/* SPDX-License-Identifier: Apache-2.0 */
#include "zk/big_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void big_advise(void *p, size_t bytes) {
        uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);

        /* The whole huge pages inside [p, p + bytes). */
        if (p && end > start)
                (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
}

void *big_alloc(size_t bytes) {
        size_t rounded;
        void *p;

        if (bytes < HUGE_PAGE)
                return malloc(bytes ? bytes : 1);
        rounded = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        if (rounded < bytes)
                return NULL;
        p = aligned_alloc(HUGE_PAGE, rounded);
        if (p)
                big_advise(p, rounded);
        return p;
}

void *big_calloc(size_t n, size_t size) {
        void *p;

        if (size && n > SIZE_MAX / size)
                return NULL;
        if (n * size < HUGE_PAGE)
                return calloc(n ? n : 1, size ? size : 1);
        p = big_alloc(n * size);
        if (p)
                memset(p, 0, n * size);
        return p;
}
