# SPDX-License-Identifier: GPL-2.0
# Shared settings for the namei_shadow host tools.  Sourced, not run.

NS_KERNELS_DEFAULT="6.12.118+deb12-amd64 6.1.0-57-amd64"
NS_DEBUG_KERNEL="6.12.118-dbgk"
NS_PRIMARY_KERNEL="6.12.118+deb12-amd64"
NS_CACHE="${NS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/namei-shadow}"

ns_die() {
	echo "namei-shadow: $*" >&2
	exit 1
}

ns_log() {
	echo "namei-shadow: $*" >&2
}

# The directory a kernel release is unpacked into.
ns_kernel_dir() {
	echo "$NS_CACHE/kernels/$1"
}

# Debian's version-independent names for a release: the -common headers
# and the linux-kbuild package.  6.12.118+deb12-amd64 -> 6.12.118+deb12,
# kbuild linux-kbuild-6.12.118+deb12; 6.1.0-57-amd64 -> 6.1.0-57,
# kbuild linux-kbuild-6.1 (the 6.1 packages are not per-ABI).
ns_kernel_base() {
	echo "${1%-amd64}"
}

ns_kbuild_pkg() {
	local base
	base=$(ns_kernel_base "$1")
	case "$base" in
	*+deb*) echo "linux-kbuild-$base" ;;
	*) echo "linux-kbuild-$(echo "$base" | cut -d. -f1-2)" ;;
	esac
}

# The KDIR for a release: Debian's unpacked headers, or the debug
# kernel's build tree.  Fetches or builds on first use.
ns_kdir() {
	local tools
	tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	case "$1" in
	"$NS_DEBUG_KERNEL") "$tools/build-debug-kernel.sh" ;;
	*) "$tools/fetch-kernel.sh" "$1" ;;
	esac
}
