#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo.sh KO - what make run shows, inside the VM: the module's
# features, then a handful of real paths resolved by the shadow and by
# the kernel, shown by nsresolve: every step of the shadow's walk as a
# tree, the verdict, and a small batch.
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

# Each walk as nsresolve (tools/nsresolve.c) shows it: the tree of
# steps, the walk's mode, both answers and the verdict.
ns=$(cd "$(dirname "$0")/.." && pwd)/build/selftests/nsresolve
resolve() {
	echo
	echo "== nsresolve $*"
	"$ns" "$@" || echo "(exit status $?)"
}
cd /tmp/demo
resolve /usr/bin/env
resolve /lib/x86_64-linux-gnu/../../bin/sh
resolve /proc/self/status
resolve mnt/../bind/sub/..
resolve --mode=parent /tmp/demo/mnt/newfile
resolve --mode=mountpoint /tmp/demo/mnt
resolve /etc/nonexistent/passwd
resolve --flags=directory /etc/passwd
resolve --json /proc/self/cwd
resolve --flags=sideways /

echo
printf '%s\n' "== printf '/etc/passwd\\n/etc/nonexistent\\nmode=sideways path=/\\n' | nsresolve --batch -"
# (stderr through a pipe: no progress line on the serial console)
printf '/etc/passwd\n/etc/nonexistent\nmode=sideways path=/\n' |
	{ "$ns" --batch - 2>&1; echo "(exit status $?)"; } | cat

echo
echo "== cat $dir/stats"
cat "$dir/stats"
cd /
umount /tmp/demo/bind /tmp/demo/mnt
echo "== rmmod namei_shadow"
rmmod namei_shadow
dmesg | grep 'namei_shadow:' | sed 's/^/dmesg: /'
