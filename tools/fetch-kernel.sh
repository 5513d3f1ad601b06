#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh [RELEASE...] - fetch and unpack Debian kernels for the test VM
# (without a RELEASE: the release of each track, tools/tracks.sh)
#
# For each release, downloads (apt-get download, never installs) the
# unsigned image and modules, the arch and -common headers and the
# matching linux-kbuild package, from the release's Debian suite (the
# host's, or another through tools/apt-suite.sh), into $NS_CACHE/debs,
# unpacks them with dpkg-deb -x
# into $NS_CACHE/kernels/RELEASE/root, and makes the unpacked headers
# usable as KDIR.  A second run finds everything in place and downloads
# nothing.  Prints the KDIR of each release on stdout.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The packages of a release, as its suite splits them: bookworm ships
# the image and its modules in linux-image-REL-unsigned; sid splits
# them into linux-binary-REL (vmlinuz), linux-base-REL (config,
# modules.builtin, modules.order) and linux-modules-REL.  Either
# way the arch and -common headers and linux-kbuild come beside.
kernel_pkgs() {
	local rel=$1 suite=$2
	if ns_apt "$suite" apt-cache show "linux-binary-$rel" >/dev/null 2>&1; then
		echo "linux-binary-$rel" "linux-base-$rel" "linux-modules-$rel"
	else
		echo "linux-image-$rel-unsigned"
	fi
	echo "linux-headers-$rel" "$(ns_headers_dep "$rel" linux-headers-)" \
		"$(ns_headers_dep "$rel" linux-kbuild-)"
}

fetch_debs() {
	local rel=$1 dir=$2 suite pkg want=()
	suite=$(ns_kernel_suite "$rel")

	mkdir -p "$NS_CACHE/debs"
	kernel_pkgs "$rel" "$suite" | tr ' ' '\n' >"$dir/pkgs"
	while read -r pkg; do
		compgen -G "$NS_CACHE/debs/${pkg}_*.deb" >/dev/null || want+=("$pkg")
	done <"$dir/pkgs"
	[ ${#want[@]} -eq 0 ] && return 0

	ns_log "downloading ${want[*]} (Debian $suite)"
	(cd "$NS_CACHE/debs" && ns_apt "$suite" apt-get download "${want[@]}") >&2 ||
		ns_die "apt-get download failed for ${want[*]} (is the $suite package list current, and the release still in the archive?)"
}

# The headers' Makefile names the -common tree (and on sid its own
# output directory, KBUILD_OUTPUT=) by absolute /usr/src paths; point
# them at our unpacked copy instead.
fix_kdir() {
	local rel=$1 root=$2 mk
	mk=$root/usr/src/linux-headers-$rel/Makefile
	sed -i "s|/usr/src/linux-headers-|$root/usr/src/linux-headers-|g" "$mk"
	grep -q "$root/usr/src" "$mk" || ns_die "$mk: could not redirect the -common include"
}

# Sid's packages are merged-/usr: modules and vmlinuz under /usr/lib.
# Links give every release the same layout (lib/modules/REL,
# boot/vmlinuz-REL), for depmod, the initramfs and the VM runner.
merge_usr_layout() {
	local rel=$1 root=$2
	if [ ! -e "$root/lib" ] && [ -d "$root/usr/lib/modules" ]; then
		ln -s usr/lib "$root/lib"
	fi
	if [ ! -e "$root/boot/vmlinuz-$rel" ] && [ -f "$root/usr/lib/modules/$rel/vmlinuz" ]; then
		mkdir -p "$root/boot"
		ln -s "../usr/lib/modules/$rel/vmlinuz" "$root/boot/vmlinuz-$rel"
	fi
	[ -f "$root/boot/vmlinuz-$rel" ] || ns_die "$rel: no vmlinuz in its packages"
}

unpack() {
	local rel=$1 dir root tmp deb pkg
	dir=$(ns_kernel_dir "$rel")
	root=$dir/root
	[ -f "$dir/.unpacked" ] && return 0

	tmp=$dir/root.tmp
	rm -rf "$tmp" "$root"
	mkdir -p "$tmp"
	while read -r pkg; do
		deb=$(compgen -G "$NS_CACHE/debs/${pkg}_*.deb" | head -n 1) ||
			ns_die "missing package file for $pkg in $NS_CACHE/debs"
		dpkg-deb -x "$deb" "$tmp"
	done <"$dir/pkgs"
	mv "$tmp" "$root"
	merge_usr_layout "$rel" "$root"
	fix_kdir "$rel" "$root"
	# modules.dep for the unpacked tree, so the initramfs builder can
	# ask modprobe for dependencies.
	depmod -b "$root" "$rel"
	touch "$dir/.unpacked"
}

main() {
	local rel
	# no release named: what each track ships now
	if [ $# -eq 0 ]; then
		"$NS_TOOLS/tracks.sh" >/dev/null
		ns_set_kernels
		set -- $NS_KERNELS_DEFAULT
	fi
	command -v apt-get >/dev/null || ns_die "apt-get not found: this tool needs a Debian host"
	command -v depmod >/dev/null || ns_die "depmod not found: apt-get install kmod"
	for rel in "$@"; do
		mkdir -p "$(ns_kernel_dir "$rel")"
		[ -f "$(ns_kernel_dir "$rel")/.unpacked" ] || fetch_debs "$rel" "$(ns_kernel_dir "$rel")"
		unpack "$rel"
		echo "$(ns_kernel_dir "$rel")/root/usr/src/linux-headers-$rel"
	done
}

main "$@"
