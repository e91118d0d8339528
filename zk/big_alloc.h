/* SPDX-License-Identifier: Apache-2.0 */
/*
 * malloc() for the big arrays (points, scalars, MSM scratch): from 2 MiB up
 * they are 2 MiB-aligned and advised for transparent huge pages, which
 * Debian's default THP mode ("madvise") gives only to advised ranges. Filling
 * a fresh array then takes one fault per 2 MiB instead of one per 4 KiB: on a
 * 2^17-domain proof that was a fifth of the wall time. Free with free().
 */
#pragma once

#include <stddef.h>

void *big_alloc(size_t bytes);
/* n * size bytes, zeroed; NULL on overflow. */
void *big_calloc(size_t n, size_t size);
/* Advises an existing mapping (an mmap()ed array) the same way; errors are ignored. */
void big_advise(void *p, size_t bytes);
