#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# package-guest.sh VERSION ROOT [DKMS_TREE] - in the VM, as root: the
# -dkms package as a user meets it (TAP).  ROOT is a Debian root where
# the package was installed and DKMS built namei_shadow for the running
# kernel; chrooted into it: modprobe loads that module (depmod ran), of
# VERSION; modinfo documents its parameters; run_kselftest.sh, installed
# in ROOT's /opt/kselftest, runs programs of the suite that load it
# themselves (modprobe, no NS_KO).  With DKMS_TREE, the root dkms
# installed into on the host (make dkms-source, --installtree): modprobe
# -d DKMS_TREE loads the module built there for this kernel too.

set -u
usage="usage: package-guest.sh VERSION ROOT [DKMS_TREE]"
ver=${1:?$usage}
root=${2:?$usage}
tree=${3:-}
rel=$(uname -r)
. "$(dirname "$0")/lib.sh"
result() { ns_result "$1" "$rel: $2"; }

# ROOT, read-only over 9p, as a machine: a mount of its own (the tests
# make their / private), its own /tmp, the kernel's files
mount --bind "$root" "$root" &&
mount -t tmpfs tmpfs "$root/tmp" &&
for d in proc sys dev; do mount --rbind "/$d" "$root/$d" || exit 1; done ||
	{ result 1 "$root cannot be set up to chroot into"; exit 1; }
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

in_root modprobe namei_shadow
loaded=$?
where=$(in_root modinfo -n namei_shadow)
have=$(cat /sys/module/namei_shadow/version 2>/dev/null)
echo "# modprobe namei_shadow: exit $loaded, $where, version $have"
[ "$loaded" = 0 ] && [ "$have" = "$ver" ] &&
case "$where" in "/lib/modules/$rel/updates/dkms/namei_shadow.ko"*) ;; *) false ;; esac
result $? "modprobe namei_shadow loads the package's module, $ver, from updates/dkms"

# each parameter, with its description: "name:description (type)"
parms=$(in_root modinfo -F parm namei_shadow)
printf '%s\n' "$parms" | sed 's/^/# parm /'
for p in ksym_source ksym_hide rcu live; do
	printf '%s\n' "$parms" | grep -q -E "^$p:[^ ].{10,} \(charp\)$" || false
done
result $? "modinfo documents its parameters (ksym_source, ksym_hide, rcu, live)"

rmmod namei_shadow
# two programs that need nothing the root may lack (no loop device, no
# test-only modules): the whole suite runs the same way in make check
out=$(in_root /opt/kselftest/run_kselftest.sh -t namei_shadow:features_test \
	-t namei_shadow:batch_test 2>&1)
printf '%s\n' "$out" | sed 's/^/# | /'
printf '%s\n' "$out" | grep -q '^ok 1 selftests: namei_shadow: features_test$' &&
printf '%s\n' "$out" | grep -q '^ok 2 selftests: namei_shadow: batch_test$' &&
grep -q '^namei_shadow ' /proc/modules
result $? "run_kselftest.sh runs the suite's programs, which modprobe the module themselves"
rmmod namei_shadow
result $? "rmmod namei_shadow after them"

if [ -n "$tree" ]; then
	modprobe -d "$tree" namei_shadow &&
	[ "$(cat /sys/module/namei_shadow/version)" = "$ver" ] &&
	[ "$(modinfo -b "$tree" -n namei_shadow)" = "$tree/lib/modules/$rel/updates/dkms/namei_shadow.ko" ] &&
	rmmod namei_shadow
	result $? "dkms on the host, from make dkms-source: modprobe loads what it installed"
fi
exit $ns_failed
