#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the cuzk .deb out of tree: the committed tree (git archive HEAD;
# CUZK_DEB_FROM=worktree takes the working tree instead: tracked and
# untracked files that git does not ignore) is copied to
#   ${CUZK_CACHE_DIR:-~/.cache/cuzk}/deb/src
# and dpkg-buildpackage -b -us -uc runs there, so that nothing is written
# into the clone. Prints the path of each .deb built (in .../deb/out), and
# runs lintian on them (its errors fail the build; warnings are shown).
# DEB_BUILD_OPTIONS=nocheck is the default here (the tests run elsewhere);
# set CUZK_DEB_CHECK=1 to run the unit suite during the build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
base=${CUZK_CACHE_DIR:-$HOME/.cache/cuzk}/deb
log() { echo "build-deb: $*" >&2; }

for tool in dpkg-buildpackage dh lintian; do
        command -v "$tool" >/dev/null || { log "$tool is missing (scripts/install-deps.sh)"; exit 2; }
done

rm -rf "$base/src" "$base/out"
mkdir -p "$base/src" "$base/out"
if [ "${CUZK_DEB_FROM:-head}" = worktree ]; then
        (cd "$here" && git ls-files -z --cached --others --exclude-standard |
                tar --null --files-from=- --ignore-failed-read -cf -) | tar -xf - -C "$base/src"
else
        git -C "$here" archive --format=tar HEAD | tar -xf - -C "$base/src"
fi
options=${DEB_BUILD_OPTIONS:-}
[ "${CUZK_DEB_CHECK:-0}" = 1 ] || options="${options:+$options }nocheck"
start=$SECONDS
log "dpkg-buildpackage in $base/src"
if ! (cd "$base/src" && DEB_BUILD_OPTIONS="$options" nice -n 10 \
        dpkg-buildpackage -b -us -uc -j2) > "$base/out/build.log" 2>&1; then
        tail -n 40 "$base/out/build.log" >&2
        log "dpkg-buildpackage failed; log: $base/out/build.log"
        exit 1
fi
mv "$base"/*.deb "$base"/*.buildinfo "$base"/*.changes "$base/out/"
log "built in $((SECONDS - start)) s"

changes=$(ls "$base"/out/*.changes)
lintian --fail-on error --info "$changes" > "$base/out/lintian.log" 2>&1 && lrc=0 || lrc=$?
sed 's/^/build-deb: lintian: /' "$base/out/lintian.log" >&2
if [ "$lrc" != 0 ]; then
        log "lintian reports errors (exit $lrc)"
        exit 1
fi
# A package without the daemon installs and passes lintian; say so plainly.
for path in ./usr/sbin/cuzkd ./usr/bin/cuzkctl ./usr/bin/cuzk-bench ./lib/systemd/system/cuzkd.service; do
        dpkg-deb -c "$base"/out/cuzk_*.deb | awk '{ print $6 }' | grep -qx "$path" ||
                log "WARNING: the package has no ${path#.} (not built or installed by this tree)"
done
ls "$base"/out/*.deb
