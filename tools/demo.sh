#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo.sh KO - what make run shows, inside the VM: the module's
# features, then a handful of real paths resolved by the shadow and by
# the kernel, with the verdict and every step of the shadow's walk.
set -e
dir=/sys/kernel/debug/namei_shadow
echo "== guest kernel $(uname -r)"
echo "== insmod $1"
insmod "$1"
echo "== ls $dir"
ls -l "$dir"
echo "== cat $dir/features"
cat "$dir/features"

# A scratch mount and a bind mount to walk through.
mkdir -p /tmp/demo/dir/sub /tmp/demo/mnt /tmp/demo/bind
mount -t tmpfs demo /tmp/demo/mnt
touch /tmp/demo/mnt/inside
mount --bind /tmp/demo/dir /tmp/demo/bind

resolve() {
	echo
	echo "== echo '$1' > $dir/resolve; cat $dir/resolve"
	exec 3<>"$dir/resolve"
	printf '%s' "$1" >&3 2>/dev/null ||
		echo "(the write was refused; its reason, read back:)"
	cat <&3
	exec 3>&-
}
cd /tmp/demo
resolve /usr/bin/env
resolve /lib/x86_64-linux-gnu/../../bin/sh
resolve /proc/self/status
resolve mnt/../bind/sub/..
resolve "mode=parent path=/tmp/demo/mnt/newfile"
resolve "mode=mountpoint path=/tmp/demo/mnt"
resolve /etc/nonexistent/passwd
resolve "flags=directory path=/etc/passwd"
resolve "mode=sideways path=/"

echo
echo "== cat $dir/stats"
cat "$dir/stats"
cd /
umount /tmp/demo/bind /tmp/demo/mnt
echo "== rmmod namei_shadow"
rmmod namei_shadow
dmesg | grep 'namei_shadow:' | sed 's/^/dmesg: /'
