#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# An independent gRPC client (@grpc/grpc-js, node/cuzkd-grpcjs.js) against a real cuzkd.
# Usage: test-cuzkd-grpcjs.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR NODE
source "$(dirname "$0")/../lib/cuzkd-lib.sh"
NODE=$6

start_cuzkd --max-workers 1 --budget 1G
check "the grpc-js client's checks" \
        "$NODE" "$(dirname "$0")/../node/cuzkd-grpcjs.js" "$SOCK" "$ZKEY" "$WTNS" "$VK"
finish
