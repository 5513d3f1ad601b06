#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kvm-probe.sh - print "kvm" if a KVM guest actually boots here, else "tcg"
#
# /dev/kvm can exist where nested KVM still fails ("emulation failure",
# a hang), so the only honest test is a boot.  The answer is cached per
# host kernel in $NS_CACHE; delete the file to probe again.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

cache=$NS_CACHE/kvm-probe.$(uname -r)
if [ -f "$cache" ]; then
	cat "$cache"
	exit 0
fi
answer=tcg
if [ -w /dev/kvm ] && [ -f "$(ns_kernel_dir "$NS_PRIMARY_KERNEL")/root/boot/vmlinuz-$NS_PRIMARY_KERNEL" ]; then
	ns_log "probing whether KVM boots a guest here (once, up to 30 s)"
	if NS_ACCEL=kvm "$(dirname "$0")/vm-run.sh" -t 30 true >/dev/null 2>&1; then
		answer=kvm
	fi
	ns_log "accelerator: $answer"
fi
mkdir -p "$NS_CACHE"
echo "$answer" >"$cache"
echo "$answer"
