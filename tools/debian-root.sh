#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debian-root.sh NAME SUITE PKG[,PKG...] - a Debian root of SUITE with
# PKGs installed (by apt, with their dependencies, without their
# recommendations), made once with mmdebstrap into $NS_CACHE/NAME
# (NAME: a relative path) and reused while SUITE and PKGs stay the same.
# Prints its directory.  SUITE "host" is the host's own release, from
# the host's own apt sources; any other suite comes from the host's
# mirror (tools/apt-suite.sh).  No mirror is named here.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="usage: debian-root.sh NAME SUITE PKG[,PKG...]"
name=${1:?$usage}
suite=${2:?$usage}
pkgs=${3:?$usage}
root=$NS_CACHE/$name
stamp="$suite $pkgs"

# one maker at a time (make check makes its roots in the background);
# a waiter finds the root made
mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9
if [ -f "$root/.ready" ] && [ "$(cat "$root/.ready")" = "$stamp" ]; then
	echo "$root"
	exit 0
fi

command -v mmdebstrap >/dev/null || ns_die "mmdebstrap missing: apt-get install mmdebstrap (make deps)"
if [ "$suite" = host ]; then
	release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$release" ] || ns_die "/etc/os-release names no VERSION_CODENAME"
	sources=()
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && sources+=("$f")
	done
	[ ${#sources[@]} -gt 0 ] || ns_die "the host has no apt sources"
elif [ "$suite" = experimental ]; then
	# not a whole suite: it goes on top of sid
	release=sid
	uri=$("$NS_TOOLS/apt-suite.sh" "$suite" uri)
	sources=("deb $uri sid main" "deb $uri experimental main")
else
	release=$suite
	sources=("deb $("$NS_TOOLS/apt-suite.sh" "$suite" uri) $suite main")
fi

ns_log "setting up a Debian $release root with $pkgs (once, about a minute and 600 MB) in $root"
t0=$(date +%s)
# --one-file-system: a killed mmdebstrap can leave its mounts behind
rm -rf --one-file-system "$root.tmp" "$root"
# INITRD=No: a kernel image installed here (headers depend on it) gets
# no initramfs, which nothing here boots and which took two minutes
if ! INITRD=No mmdebstrap --variant=apt --include="$pkgs" \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--aptopt='APT::Install-Recommends "false"' \
		"$release" "$root.tmp" "${sources[@]}" >"$root.log" 2>&1; then
	tail -n 20 "$root.log" >&2
	rm -rf --one-file-system "$root.tmp"
	ns_die "mmdebstrap of the Debian $release root $name failed, see $root.log"
fi
mv "$root.tmp" "$root"
echo "$stamp" >"$root/.ready"
ns_log "Debian root $name ready in $(($(date +%s) - t0))s"
echo "$root"
