# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Shared by the test-cuzkd-*.sh integration tests (sourced, bash): a real
# cuzkd on a temporary socket and spool, in a v1/v2 memory cgroup of its own
# below ours when we may create one (so that its peak memory, workers and
# prover included, can be read), and helpers to drive it with cuzkctl.
#
# The sourcing script is run as: SCRIPT CUZKD CUZKCTL CUZK_BENCH CUZK FIXTURES_DIR

set -u
# shellcheck disable=SC2034 # CUZK_BENCH: for the scripts that source this
CUZKD=$1 CUZKCTL=$2 CUZK_BENCH=$3 CUZK=$4 FIXTURES=$5
TEST_NAME=$(basename "$0" .sh)
DIR=$(mktemp -d "/tmp/$TEST_NAME-XXXXXX")
SOCK=$DIR/sock
SPOOL=$DIR/spool
LOG=$DIR/cuzkd.log
CUZKD_PID=
CG=
FAILURES=0

# Small circuits: one proof takes about half a second on one core.
ZKEY=$FIXTURES/bits.zkey
WTNS=$FIXTURES/bits.wtns
VK=$FIXTURES/bits.vk.json
export OMP_WAIT_POLICY=passive

pass() { echo "PASS: $*"; }
fail() {
        echo "FAIL: $*"
        FAILURES=$((FAILURES + 1))
}
check() { # DESCRIPTION COMMAND...: PASS/FAIL by the command's status
        local what=$1
        shift
        if "$@"; then pass "$what"; else fail "$what"; fi
}

# Our memory cgroup (v2, else v1), where a child for cuzkd can be made.
# shellcheck source=scripts/cgroup-child.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/cgroup-child.sh"
make_cgroup() {
        CG=$(cgroup_child_make "$TEST_NAME-$$") || { CG=; return 1; }
}

# The peak memory of cuzkd's cgroup (all its processes), in bytes.
cgroup_peak_bytes() {
        if [ -f "$CG/memory.max_usage_in_bytes" ]; then cat "$CG/memory.max_usage_in_bytes";
        elif [ -f "$CG/memory.peak" ]; then cat "$CG/memory.peak";
        else echo 0; fi
}

remove_cgroup() {
        cgroup_child_remove "$CG"
}

# Starts cuzkd with the test's socket and spool and the given extra options; waits until
# it answers GetStatus.
start_cuzkd() {
        : >>"$LOG"
        echo "--- cuzkd $*" >>"$LOG"
        (
                [ -n "$CG" ] && echo "$BASHPID" >"$CG/cgroup.procs"
                exec "$CUZKD" --config /dev/null --socket "$SOCK" --spool-dir "$SPOOL" "$@"
        ) >>"$LOG" 2>&1 &
        CUZKD_PID=$!
        for _ in $(seq 100); do
                "$CUZKCTL" -s "$SOCK" -t 1000 status >/dev/null 2>&1 && return 0
                kill -0 "$CUZKD_PID" 2>/dev/null || break
                sleep 0.1
        done
        echo "cuzkd did not start; its log:"
        cat "$LOG"
        exit 1
}

# SIGTERM and wait (at most 20 s, then SIGKILL).
stop_cuzkd() {
        [ -n "$CUZKD_PID" ] || return 0
        kill -TERM "$CUZKD_PID" 2>/dev/null
        for _ in $(seq 200); do
                kill -0 "$CUZKD_PID" 2>/dev/null || break
                sleep 0.1
        done
        if kill -0 "$CUZKD_PID" 2>/dev/null; then
                fail "cuzkd $CUZKD_PID did not stop within 20 s of SIGTERM"
                kill -KILL "$CUZKD_PID"
        fi
        wait "$CUZKD_PID" 2>/dev/null
        local status=$?
        [ "$status" -eq 0 ] || fail "cuzkd exited with status $status after SIGTERM"
        if grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$LOG"; then
                fail "a sanitizer reported an error (see the log)"
        fi
        CUZKD_PID=
}

cleanup() {
        stop_cuzkd
        remove_cgroup
        if [ "$FAILURES" -ne 0 ]; then
                echo "--- cuzkd log ($LOG) ---"
                tail -n 80 "$LOG"
        fi
        rm -rf "$DIR"
}
trap cleanup EXIT
# meson stops a test that runs too long with SIGTERM: clean up then too.
trap 'exit 1' TERM INT

ctl() { "$CUZKCTL" -s "$SOCK" "$@"; }
ctl_quiet() { ctl "$@" >/dev/null; }

# Submits the fixture proof; prints the job id.
submit_job() {
        ctl submit --kind groth16 --zkey "$ZKEY" --wtns "$WTNS" "$@" | awk '/^job: / { print $2 }'
}

# A field of `cuzkctl status` (the text after "NAME: ").
status_field() { ctl status | sed -n "s/^$1: //p"; }

# A metric's value from GetMetrics.
metric() { ctl metrics | awk -v name="$1" '$1 == name { print $2 }'; }

# Awaits job $1 and checks that it completed with a proof that verifies.
await_verified() {
        local job=$1 out
        out=$(ctl await -w 30000 "$job") || { echo "$out"; return 1; }
        printf '%s\n' "$out" | awk -v proof="$DIR/$job.proof.json" -v pub="$DIR/$job.public.json" '
                /^proof json: / { p = 1; sub(/^proof json: /, "") }
                /^public json: / { p = 0; q = 1; sub(/^public json: /, "") }
                q { print > pub; next }
                p { print > proof }'
        "$CUZK" verify "$VK" "$DIR/$job.public.json" "$DIR/$job.proof.json" >/dev/null
}

# Waits up to $2 s (default 20) for the log to contain $1 (grep -E).
# wait_until TENTHS COMMAND...: polls COMMAND every 0.1 s until it succeeds, at most
# TENTHS times.
wait_until() {
        local tries=$1
        shift
        for _ in $(seq "$tries"); do
                "$@" && return 0
                sleep 0.1
        done
        return 1
}

wait_log() {
        local t=$((${2:-20} * 10))
        for _ in $(seq "$t"); do
                grep -qE -- "$1" "$LOG" && return 0
                sleep 0.1
        done
        return 1
}

finish() {
        if [ "$FAILURES" -ne 0 ]; then
                echo "$TEST_NAME: $FAILURES check(s) failed"
                exit 1
        fi
        echo "$TEST_NAME: all checks passed"
        exit 0
}

# The fault hooks (CUZK_TEST_*) exist only in a build with -Dtest_hooks=true; meson test
# says which build this is in CUZK_TEST_HOOKS. have_test_hooks: true with hooks, else
# says what is skipped.
have_test_hooks() {
        [ "${CUZK_TEST_HOOKS:-0}" = 1 ] && return 0
        echo "note: built without -Dtest_hooks=true: $1 skipped"
        return 1
}
# need_test_hooks WHAT: without hooks, what passed so far stands and the test ends 77.
need_test_hooks() {
        have_test_hooks "$1" && return 0
        if [ "$FAILURES" -ne 0 ]; then finish; fi
        echo "SKIP: $TEST_NAME needs the test hooks for $1"
        exit 77
}
