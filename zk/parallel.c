/* SPDX-License-Identifier: Apache-2.0 */
#include "parallel.h"

#include <omp.h>

unsigned zk_thread_count(void) {
        int n = omp_get_max_threads();
        return n > 0 ? (unsigned)n : 1;
}

void zk_set_thread_count(unsigned n) {
        omp_set_num_threads(n ? (int)n : omp_get_num_procs());
}
