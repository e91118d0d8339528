#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian 12 VM image of the VM tests, or finds it in the cache:
#   ${CUZK_CACHE_DIR:-~/.cache/cuzk}/vm/<hash>/{rootfs.img,vmlinuz,initrd.img}
# where <hash> covers packages.list and guest/ (change either: a new image).
# Prints that directory. Needs root (debootstrap), debootstrap, mkfs.ext4
# and the network (CUZK_VM_MIRROR, default http://deb.debian.org/debian).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${CUZK_CACHE_DIR:-$HOME/.cache/cuzk}/vm
mirror=${CUZK_VM_MIRROR:-http://deb.debian.org/debian}
image_size=${CUZK_VM_IMAGE_SIZE:-3G}

log() { echo "vm-image: $*" >&2; }

[ "$(id -u)" = 0 ] || { log "debootstrap needs root"; exit 2; }
for tool in debootstrap mkfs.ext4 sha256sum; do
        command -v "$tool" >/dev/null || { log "$tool is missing (scripts/install-deps.sh)"; exit 2; }
done

packages=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages.list" | sort -u)
# The key: the package list and the files baked into the image, plus the
# layout version of what this script writes (bump it when that changes).
key=$( { echo "layout 2"; echo "$packages"; cat "$here/guest/cuzk-vm-test.service" \
        "$here/guest/cuzk-vm-run"; } | sha256sum | cut -c1-16)
dir=$cache/$key
if [ -f "$dir/complete" ]; then
        log "cached image $dir"
        echo "$dir"
        exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
start=$SECONDS
log "debootstrap bookworm (minbase + $(echo "$packages" | wc -l) packages) from $mirror"
# The downloaded packages are kept for the next image (a new package list).
mkdir -p "$cache/debs"
debootstrap --variant=minbase --cache-dir="$cache/debs" --include="$(echo "$packages" | paste -sd,)" \
        bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 || {
        tail -20 "$work/debootstrap.log" >&2
        log "debootstrap failed (log above)"
        exit 1
}
log "debootstrap done in $((SECONDS - start)) s"

# The system: no login prompt on the serial console (the scenario owns it),
# no timers that would run apt or e2scrub during a test (e2scrub_reap alone
# took 30 s of a TCG boot), a volatile journal.
echo cuzk-vm > "$root/etc/hostname"
: > "$root/etc/machine-id"
echo "/dev/vda / ext4 rw,noatime 0 1" > "$root/etc/fstab"
for unit in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer \
        apt-daily-upgrade.timer systemd-timesyncd.service e2scrub_reap.service \
        e2scrub_all.timer; do
        ln -sf /dev/null "$root/etc/systemd/system/$unit"
done
mkdir -p "$root/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' > "$root/etc/systemd/journald.conf.d/cuzk-vm.conf"
install -m 0755 "$here/guest/cuzk-vm-run" "$root/usr/local/sbin/cuzk-vm-run"
install -m 0644 "$here/guest/cuzk-vm-test.service" "$root/etc/systemd/system/cuzk-vm-test.service"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf ../cuzk-vm-test.service "$root/etc/systemd/system/multi-user.target.wants/cuzk-vm-test.service"
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*

kernel=$(find "$root/boot" -name 'vmlinuz-*' | sort -V | tail -n 1)
initrd=$(find "$root/boot" -name 'initrd.img-*' | sort -V | tail -n 1)
if [ ! -f "$kernel" ] || [ ! -f "$initrd" ]; then
        log "no kernel or initrd in $root/boot"
        exit 1
fi
cp "$kernel" "$work/vmlinuz"
cp "$initrd" "$work/initrd.img"
chmod 0644 "$work/vmlinuz" "$work/initrd.img"

truncate -s "$image_size" "$work/rootfs.img"
mkfs.ext4 -q -L cuzk-vm -d "$root" "$work/rootfs.img"
rm -rf "$root"
echo "$packages" > "$work/packages"
basename "$kernel" > "$work/kernel-version"
touch "$work/complete"
rm -rf "$dir"
mv "$work" "$dir"
trap - EXIT
log "image $dir built in $((SECONDS - start)) s"
echo "$dir"
