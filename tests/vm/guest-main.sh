#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Run by the image's cuzk-vm-run from the 9p share /mnt/cuzk: the host put
# the scenario's name in /mnt/cuzk/scenario; results go to /mnt/cuzk/out.
# The image's runner starts it with /bin/sh; the scenarios are bash.
[ -n "${BASH_VERSION:-}" ] || exec /bin/bash "$0" "$@"
cd /mnt/cuzk || exit 1
export CUZK_VM_OUT=/mnt/cuzk/out
mkdir -p "$CUZK_VM_OUT"
: > "$CUZK_VM_OUT/result.log"
# shellcheck source=/dev/null
. ./lib.sh
scenario=$(cat scenario)
say "booted: $(uname -r), systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p'), uptime $(now) s at the start of scenario $scenario"
t0=$(now)
# shellcheck disable=SC1090
. "./scenario-$scenario.sh"
say "scenario $scenario took $(elapsed "$t0") s"
finish
journalctl -b --no-pager -o short-monotonic > "$CUZK_VM_OUT/journal.txt" 2>&1
sync
