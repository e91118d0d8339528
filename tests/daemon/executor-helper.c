/* SPDX-License-Identifier: Apache-2.0 */
/* The worker and prover helpers as test-executor runs them (cuzkd's main() dispatches the
 * same way): executor-helper --worker FD NICE | --prover FD THREADS DEVICE LANES SRS MSM_WINDOW. */
#include <stdio.h>
#include <string.h>

#include "daemon/executor/helper-main.h"

int main(int argc, char **argv) {
        if (argc >= 2 && strcmp(argv[1], "--worker") == 0)
                return worker_main(argc, argv);
        if (argc >= 2 && strcmp(argv[1], "--prover") == 0)
                return prover_main(argc, argv);
        fprintf(stderr,
                "Usage: %s --worker FD NICE | --prover FD THREADS DEVICE LANES SRS MSM_WINDOW\n",
                argc > 0 ? argv[0] : "executor-helper");
        return 2;
}
