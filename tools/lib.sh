# SPDX-License-Identifier: GPL-2.0
# Shared settings for the namei_shadow host tools.  Sourced, not run.

NS_TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NS_CACHE="${NS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/namei-shadow}"

# The supported kernels, by track: a track is a Debian suite and the
# metapackage whose dependency names the kernel release that suite
# ships now.  Debian keeps one release of a package per suite, so a
# pinned release leaves the archive; tools/tracks.sh resolves each
# track (make kernels, make check, make run) and records what it found
# in $NS_TRACKS_FILE.  Until it has, the release the README was last
# measured on.  The primary first.  NS_TRACKS are make check's;
# experimental's release candidate, generic and PREEMPT_RT, is resolved,
# fetched and built for (make module KREL=7.3-rt-amd64) but not yet in
# make check's matrix.
NS_TRACKS=${NS_TRACKS:-"bookworm-6.12 bookworm sid"}
NS_TRACKS_RC=${NS_TRACKS_RC-"experimental experimental-rt"}
NS_TRACKS_FILE=${NS_TRACKS_FILE:-$NS_CACHE/tracks}

ns_track_suite() {	# as ns_apt takes it
	case "$1" in
	sid) echo sid ;;
	experimental*) echo experimental ;;
	*) echo host ;;
	esac
}

ns_track_meta() {
	case "$1" in
	bookworm-6.12) echo linux-image-6.12-amd64 ;;
	experimental-rt) echo linux-image-rt-amd64 ;;
	*) echo linux-image-amd64 ;;
	esac
}

ns_track_measured() {
	case "$1" in
	bookworm-6.12) echo 6.12.118+deb12-amd64 ;;
	bookworm) echo 6.1.0-57-amd64 ;;
	sid) echo 7.2.13+deb14-amd64 ;;
	experimental) echo 7.3-amd64 ;;
	experimental-rt) echo 7.3-rt-amd64 ;;
	esac
}

# The release a track stands for: the one recorded, else the measured one.
ns_track_release() {
	local rel=
	[ -f "$NS_TRACKS_FILE" ] && rel=$(awk -v t="$1" '$1 == t { print $2 }' "$NS_TRACKS_FILE")
	echo "${rel:-$(ns_track_measured "$1")}"
}

# The debug kernel is built from the host's linux-source-6.12 (make
# check installs it), named for its version: 6.12.118-1~deb12u1 gives
# 6.12.118-dbgk.  Before it is installed, the version apt would install.
ns_debug_kernel() {
	local v
	v=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || v=
	[ -n "$v" ] || v=$(apt-cache policy linux-source-6.12 2>/dev/null | sed -n 's/^ *Candidate: //p') || v=
	case "$v" in
	6.12.*) echo "${v%%-*}${1:-}-dbgk" ;;
	*) echo "6.12${1:-}-dbgk" ;;
	esac
}

# NS_KERNELS_DEFAULT, NS_PRIMARY_KERNEL, NS_DEBUG_KERNEL: from the
# tracks (again after tools/tracks.sh has recorded them).
ns_set_kernels() {
	local t
	NS_KERNELS_DEFAULT=
	for t in $NS_TRACKS; do
		NS_KERNELS_DEFAULT="${NS_KERNELS_DEFAULT:+$NS_KERNELS_DEFAULT }$(ns_track_release "$t")"
	done
	NS_PRIMARY_KERNEL=$(ns_track_release bookworm-6.12)
	NS_DEBUG_KERNEL=$(ns_debug_kernel)
	NS_DEBUG_RT_KERNEL=$(ns_debug_kernel -rt)	# make debug-kernel-rt
}
ns_set_kernels

ns_die() {
	echo "namei-shadow: $*" >&2
	exit 1
}

ns_log() {
	echo "namei-shadow: $*" >&2
}

# ns_result STATUS DESCRIPTION: one TAP result, "ok N DESCRIPTION" when
# STATUS is 0, else "not ok N DESCRIPTION" and ns_failed=1; N counts
# from 1 in each script.  Returns 0 for ok, 1 for not ok.
ns_n=0
ns_failed=0
ns_result() {
	ns_n=$((ns_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $ns_n $2"
		return 0
	fi
	echo "not ok $ns_n $2"
	ns_failed=1
	return 1
}

# The Debian suite a release comes from: "host" for the host's own
# (bookworm: 6.1 and 6.12), else a suite reached through a private apt
# configuration (tools/apt-suite.sh).  Sid's kernels carry +deb14;
# experimental's release candidates are named for the next release
# alone (7.3-amd64, 7.3-rt-amd64).
ns_kernel_suite() {
	case "$1" in
	*+deb14-*) echo sid ;;
	*.*.*) echo host ;;
	*) echo experimental ;;
	esac
}

# apt-get/apt-cache against SUITE: the host's own apt, or the suite's
# private configuration.
ns_apt() {
	local suite=$1 cmd=$2
	shift 2
	if [ "$suite" = host ]; then
		"$cmd" -o APT::Sandbox::User=root -q "$@"
	else
		"$NS_TOOLS/apt-suite.sh" "$suite" "$cmd" "$@"
	fi
}

# The directory a kernel release is unpacked into.
ns_kernel_dir() {
	echo "$NS_CACHE/kernels/$1"
}

# ns_headers_dep RELEASE PREFIX: the package linux-headers-RELEASE
# depends on whose name starts with PREFIX -- linux-headers- gives its
# -common headers (6.1.0-57-common, 6.12.118+deb12-common-rt,
# 7.3-common), linux-kbuild- its kbuild (linux-kbuild-6.1,
# linux-kbuild-7.2.13+deb14): from the downloaded headers package, else
# the suite's lists.  No name is built from the release's spelling.
ns_headers_dep() {
	local deb deps
	deb=$(compgen -G "$NS_CACHE/debs/linux-headers-${1}_*.deb" | head -n 1) || deb=
	if [ -n "$deb" ]; then
		deps=$(dpkg-deb -f "$deb" Depends)
	else
		deps=$(ns_apt "$(ns_kernel_suite "$1")" apt-cache show "linux-headers-$1" 2>/dev/null |
			sed -n 's/^Depends: //p' | head -n 1) || deps=
	fi
	tr ',|' '\n\n' <<<"$deps" | sed -n "s/^ *\($2[^ ]*\).*/\1/p" |
		grep -v -x -F "linux-headers-$1" | head -n 1
}

# The KDIR for a release: Debian's unpacked headers, or the debug
# kernel's build tree.  Fetches or builds on first use.
ns_kdir() {
	case "$1" in
	"$NS_DEBUG_KERNEL") "$NS_TOOLS/build-debug-kernel.sh" ;;
	"$NS_DEBUG_RT_KERNEL") "$NS_TOOLS/build-debug-kernel.sh" rt ;;
	*) "$NS_TOOLS/fetch-kernel.sh" "$1" ;;
	esac
}

# ns_kmake RELEASE MAKE-ARGS...: make -C KDIR MAKE-ARGS for RELEASE, on
# the host where it can build for RELEASE, else in the release's build
# root (tools/build-root.sh): chrooted, in a private mount namespace
# with /proc (objtool reads it) and the source tree at its own path.
ns_kmake() {
	local rel=$1 root top
	shift
	root=$("$NS_TOOLS/build-root.sh" "$rel") || return 1
	if [ -z "$root" ]; then
		make -C "$(ns_kdir "$rel")" "$@"
		return
	fi
	top=$(cd "$NS_TOOLS/.." && pwd)
	unshare --mount --propagation private -- /bin/sh -c '
		root=$1 top=$2 kdir=$3
		shift 3
		mount -t proc proc "$root/proc" &&
		mkdir -p "$root$top" && mount --bind "$top" "$root$top" &&
		exec chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root \
			LANG=C.UTF-8 make -C "$kdir" "$@"' \
		ns_kmake "$root" "$top" "/usr/src/linux-headers-$rel" "$@"
}

# ns_link_sources DIR: the module's sources, as symlinks in DIR, a build
# directory.  checker/ is a directory of links, not a link: Kbuild
# writes each object beside its source, and must not write into the tree.
ns_link_sources() {
	local dest=$1 top f
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	mkdir -p "$dest/checker"
	find "$dest" -maxdepth 1 -name '*.c' -xtype l -delete
	for f in Kbuild include debian "$top"/*.c; do
		ln -sfn "$top/${f##*/}" "$dest/${f##*/}"
	done
	find "$dest/checker" -xtype l -delete
	for f in "$top"/checker/*.c; do
		ln -sfn "$f" "$dest/checker/${f##*/}"
	done
}
