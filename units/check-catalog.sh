#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The journald catalog and daemon/message-ids.h agree: every CUZK_MID_*
# id has exactly one catalog entry with a Subject:, every catalog entry is
# an id of the header, ids are 128-bit lower-case hex, and journalctl
# parses the catalog (when journalctl is installed).
# Usage: check-catalog.sh units/cuzk.catalog daemon/message-ids.h
set -eu

catalog=$1
header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sed -n 's/^#define CUZK_MID_[A-Z_]* "\(.*\)"$/\1/p' "$header" | sort > "$tmp/header"
sed -n 's/^-- \(.*\)$/\1/p' "$catalog" | sort > "$tmp/catalog"

fail=0
[ -s "$tmp/header" ] || { echo "FAIL: no CUZK_MID_* ids in $header"; exit 1; }
if bad=$(grep -v -x '[0-9a-f]\{32\}' "$tmp/header" "$tmp/catalog"); then
        echo "FAIL: not a 128-bit lower-case hex id: $bad"
        fail=1
fi
if dup=$( (uniq -d "$tmp/header"; uniq -d "$tmp/catalog") | grep .); then
        echo "FAIL: an id appears twice: $dup"
        fail=1
fi
if diff=$(comm -3 "$tmp/header" "$tmp/catalog" | grep .); then
        echo "FAIL: ids of $header (left) and $catalog (right) differ:"
        echo "$diff"
        fail=1
fi
entries=$(grep -c '^-- ' "$catalog")
subjects=$(grep -c '^Subject: ' "$catalog")
if [ "$entries" != "$subjects" ]; then
        echo "FAIL: $entries catalog entries but $subjects Subject: lines"
        fail=1
fi
if command -v journalctl >/dev/null; then
        mkdir -p "$tmp/root/usr/lib/systemd/catalog" "$tmp/root/var/lib/systemd/catalog"
        cp "$catalog" "$tmp/root/usr/lib/systemd/catalog/cuzk.catalog"
        journalctl --root="$tmp/root" --update-catalog
        listed=$(journalctl --root="$tmp/root" --list-catalog | grep -c ' cuzk: ' || true)
        if [ "$listed" != "$entries" ]; then
                echo "FAIL: journalctl lists $listed of the $entries entries of $catalog"
                fail=1
        fi
fi
[ $fail = 0 ] && echo "PASS: $entries catalog entries match $header"
exit $fail
