#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh [RELEASE...] - fetch and unpack Debian kernels for the test VM
#
# For each release, downloads (apt-get download, never installs) the
# unsigned image, the arch and -common headers and the matching
# linux-kbuild package into $NS_CACHE/debs, unpacks them with dpkg-deb -x
# into $NS_CACHE/kernels/RELEASE/root, and makes the unpacked headers
# usable as KDIR.  A second run finds everything in place and downloads
# nothing.  Prints the KDIR of each release on stdout.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

fetch_debs() {
	local rel=$1 debs=$NS_CACHE/debs pkg want=()
	local base
	base=$(ns_kernel_base "$rel")

	mkdir -p "$debs"
	for pkg in "linux-image-$rel-unsigned" "linux-headers-$rel" \
		   "linux-headers-$base-common" "$(ns_kbuild_pkg "$rel")"; do
		compgen -G "$debs/${pkg}_*.deb" >/dev/null || want+=("$pkg")
	done
	[ ${#want[@]} -eq 0 ] && return 0

	ns_log "downloading ${want[*]}"
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "${want[@]}") >&2 ||
		ns_die "apt-get download failed for ${want[*]} (is 'apt-get update' done and the release still in the archive?)"
}

# The headers' Makefile includes the -common tree by its absolute
# /usr/src path; point it at our unpacked copy instead.
fix_kdir() {
	local rel=$1 root=$2 mk base
	base=$(ns_kernel_base "$rel")
	mk=$root/usr/src/linux-headers-$rel/Makefile
	sed -i "s|/usr/src/linux-headers-$base-common|$root/usr/src/linux-headers-$base-common|g" "$mk"
	grep -q "$root/usr/src" "$mk" || ns_die "$mk: could not redirect the -common include"
}

unpack() {
	local rel=$1 dir root tmp deb base
	dir=$(ns_kernel_dir "$rel")
	root=$dir/root
	[ -f "$dir/.unpacked" ] && return 0

	base=$(ns_kernel_base "$rel")
	tmp=$dir/root.tmp
	rm -rf "$tmp" "$root"
	mkdir -p "$tmp"
	for deb in "$NS_CACHE"/debs/linux-image-"$rel"-unsigned_*.deb \
		   "$NS_CACHE"/debs/linux-headers-"$rel"_*.deb \
		   "$NS_CACHE"/debs/linux-headers-"$base"-common_*.deb \
		   "$NS_CACHE"/debs/"$(ns_kbuild_pkg "$rel")"_*.deb; do
		[ -f "$deb" ] || ns_die "missing package file $deb"
		dpkg-deb -x "$deb" "$tmp"
	done
	mv "$tmp" "$root"
	fix_kdir "$rel" "$root"
	# modules.dep for the unpacked tree, so the initramfs builder can
	# ask modprobe for dependencies.
	depmod -b "$root" "$rel"
	touch "$dir/.unpacked"
}

main() {
	local rel
	[ $# -gt 0 ] || set -- $NS_KERNELS_DEFAULT
	command -v apt-get >/dev/null || ns_die "apt-get not found: this tool needs a Debian host"
	command -v depmod >/dev/null || ns_die "depmod not found: apt-get install kmod"
	for rel in "$@"; do
		[ -f "$(ns_kernel_dir "$rel")/.unpacked" ] || fetch_debs "$rel"
		unpack "$rel"
		echo "$(ns_kernel_dir "$rel")/root/usr/src/linux-headers-$rel"
	done
}

main "$@"
