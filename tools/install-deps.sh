#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh - install, with apt-get, the host packages the build and
# the test VM need.  Installs only what is missing; does nothing, and
# needs no network, when all are there.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(qemu-system-x86 busybox-static cpio kmod xz-utils file bc make gcc
      dwarves bpftrace python3 sparse linux-source-6.12 libc6-dev
      flex bison libelf-dev libssl-dev mmdebstrap
      rsync dpkg-dev debhelper dh-dkms dkms lintian)
# make bench's plots: NS_EXTRA_PKGS=gnuplot-nox, only when asked
read -r -a extra <<<"${NS_EXTRA_PKGS:-}"
pkgs+=("${extra[@]}")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" = 0 ] || ns_die "missing packages ${missing[*]}; run as root or install them"
ns_log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		ns_die "apt-get install ${missing[*]} failed"
fi
