#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-root.sh RELEASE - where modules for RELEASE must be built.
#
# Prints nothing when the host can build for RELEASE itself: it has the
# compiler the release's headers were configured with
# (CONFIG_CC_VERSION_TEXT) and a C library as new as the release's
# linux-kbuild tools (objtool, modpost) need.  Otherwise prints the
# directory of RELEASE's own Debian build root, made once with
# mmdebstrap from the release's suite (that compiler, make, libc6-dev,
# bc, kmod, sparse and the release's headers, installed there as Debian
# installs them) and cached under $NS_CACHE/buildroots.  Run builds
# there with ns_kmake (lib.sh).

set -euo pipefail
. "$(dirname "$0")/lib.sh"

rel=${1:?usage: build-root.sh RELEASE}
kdir=$(ns_kdir "$rel")
root=$NS_CACHE/buildroots/$rel

# "x86_64-linux-gnu-gcc-16 (Debian 16.2.0-4) 16.2.0" -> x86_64-linux-gnu-gcc-16
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$kdir/.config")
[ -n "$cc" ] || ns_die "$kdir/.config names no compiler (CONFIG_CC_VERSION_TEXT)"

# The version of libc6 the release's linux-kbuild package depends on.
kbuild_libc() {
	local deb
	deb=$(compgen -G "$NS_CACHE/debs/$(ns_headers_dep "$rel" linux-kbuild-)_*.deb" | head -n 1) || return 0
	dpkg-deb -f "$deb" Depends | tr ',' '\n' |
		sed -n 's/^ *libc6 (>= \([^)]*\)).*/\1/p' | head -n 1
}

host_can_build() {
	local need have
	command -v "$cc" >/dev/null || return 1
	need=$(kbuild_libc)
	[ -z "$need" ] && return 0
	have=$(dpkg-query -W -f='${Version}' libc6 2>/dev/null) || return 1
	dpkg --compare-versions "$have" ge "$need"
}

host_can_build && exit 0

# The compiler's Debian package: x86_64-linux-gnu-gcc-16 -> gcc-16.
cc_pkg=${cc#*-linux-gnu-}
suite=$(ns_kernel_suite "$rel")
[ "$suite" = host ] && ns_die "$rel is the host's own kernel, but the host lacks $cc: apt-get install $cc_pkg"
pkgs="$cc_pkg,make,libc6-dev,bc,kmod,sparse,linux-headers-$rel"
exec "$NS_TOOLS/debian-root.sh" "buildroots/$rel" "$suite" "$pkgs"
