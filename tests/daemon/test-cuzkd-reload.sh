#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# SIGHUP (systemctl reload): cuzkd reads its configuration file and drop-ins again and
# applies TotalBudget= at once (GetStatus shows the new budget, jobs still complete); a
# key only a restart applies (Socket=, Lanes=) is named in the log and the socket stays; a
# drop-in that does not load leaves the running configuration as it was, and cuzkd
# serves on.
# Usage: test-cuzkd-reload.sh CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR
source "$(dirname "$0")/../lib/cuzkd-lib.sh"

conf=$DIR/cuzkd.conf
mkdir -p "$conf.d"
printf '[Memory]\nTotalBudget=1G\n' >"$conf"

# The budget GetStatus reports, as cuzkctl prints it ("... reserved of 1.0 GiB").
budget_shown() { ctl status | sed -n 's/^memory budget: .* reserved of \([^ ,;]*\( [KMGT]iB\)\?\).*/\1/p'; }

start_cuzkd --config "$conf" --max-workers 1
check "the budget is TotalBudget=1G at start" test "$(budget_shown)" = "1.0 GiB"

printf '[Memory]\nTotalBudget=2G\n' >"$conf.d/50-budget.conf"
kill -HUP "$CUZKD_PID"
check "a drop-in's TotalBudget=2G applies on SIGHUP" wait_log "reload: memory budget 1073741824 -> 2147483648 bytes" 10
check "GetStatus shows the new budget" test "$(budget_shown)" = "2.0 GiB"
job=$(submit_job -r after-reload)
check "a job after the reload completes and verifies" await_verified "$job"

printf '[Daemon]\nSocket=%s\n' "$DIR/other.sock" >"$conf.d/60-socket.conf"
kill -HUP "$CUZKD_PID"
check "a changed Socket= is named as needing a restart" wait_log "reload: Socket= changed; it takes effect when cuzkd restarts" 10
check "and the socket in use stays" ctl_quiet status
rm "$conf.d/60-socket.conf"

# The GPU tuning is handed to each prover when it starts: a change waits for a restart too.
printf '[GPU]\nLanes=1\n' >"$conf.d/65-gpu.conf"
kill -HUP "$CUZKD_PID"
check "a changed Lanes= is named as needing a restart" wait_log "reload: Lanes= changed; it takes effect when cuzkd restarts" 10
rm "$conf.d/65-gpu.conf"

printf '[Memory]\nTotalBudget=lots\n' >"$conf.d/70-bad.conf"
kill -HUP "$CUZKD_PID"
check "a bad drop-in is refused with its file and line" wait_log "70-bad.conf:2" 10
check "and the running configuration stays" test "$(budget_shown)" = "2.0 GiB"
job=$(submit_job -r after-bad-reload)
check "cuzkd serves on: a job completes" await_verified "$job"
finish
