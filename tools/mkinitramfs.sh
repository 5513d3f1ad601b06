#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh RELEASE OUT - build the test VM's initramfs for RELEASE
#
# busybox-static, tools/vm-init as /init, and the kernel's own modules
# for 9p over virtio (with their dependencies, in load order, as
# modprobe --show-depends gives them from the unpacked tree).  Modules
# are stored uncompressed so busybox insmod can load them on any kernel.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

rel=${1:?usage: mkinitramfs.sh RELEASE OUT}
out=${2:?usage: mkinitramfs.sh RELEASE OUT}
root=$(ns_kernel_dir "$rel")/root
busybox=${BUSYBOX:-/bin/busybox}
tools=$(cd "$(dirname "$0")" && pwd)

[ -d "$root/lib/modules/$rel" ] || ns_die "$rel is not unpacked: run tools/fetch-kernel.sh $rel"
[ -x "$busybox" ] || ns_die "$busybox missing: apt-get install busybox-static"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ns_die "$busybox is not static: apt-get install busybox-static"

stage=$(mktemp -d)
trap 'rm -rf "$stage" "${tmp:-}"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,newroot,lib/modules}
cp "$busybox" "$stage/bin/busybox"
cp "$tools/vm-init" "$stage/init"
chmod 755 "$stage/init"

# Modules the guest needs before it can mount the host root.  What is
# built in (virtio_pci on 6.12, everything on the debug kernel) modprobe
# reports as "builtin", and it is skipped.
: >"$stage/lib/modules/load-order"
for mod in virtio_pci 9pnet_virtio 9p; do
	modprobe -d "$root" -S "$rel" --show-depends "$mod" ||
		ns_die "modprobe cannot resolve $mod for $rel"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' |
while read -r ko; do
	name=$(basename "$ko")
	case "$name" in
	*.xz) xz -dc "$ko" >"$stage/lib/modules/${name%.xz}"; name=${name%.xz} ;;
	*.zst) zstd -qdc "$ko" >"$stage/lib/modules/${name%.zst}"; name=${name%.zst} ;;
	*) cp "$ko" "$stage/lib/modules/$name" ;;
	esac
	echo "$name" >>"$stage/lib/modules/load-order"
done

# Written beside OUT under a name of its own, then renamed over it: two
# boots starting at once may both remake it, and each must see a whole
# one.
tmp=$(mktemp "$out.XXXXXX")
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
