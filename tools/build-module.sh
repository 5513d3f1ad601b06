#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh RELEASE - build namei_shadow and the test-only modules
# for RELEASE into build/RELEASE/{module,testmods}, with W=1, on the host
# or in the release's build root (tools/build-root.sh), and print the
# path of namei-shadow.ko as the last line.  Kbuild
# builds in the M= directory, so each release gets a directory of
# symlinks to the sources and the kernels never share an object file.
# Any compiler warning fails the build.
#
# NS_BREAK=dotdot builds, into build/RELEASE/module-broken-dotdot, a
# deliberately broken walker whose ".." ignores the walk's root: the
# harness uses it to show that the suite can fail.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

rel=${1:?usage: build-module.sh RELEASE}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/$rel
# The release's build root, where it needs one: made here, not inside a
# build whose output goes to a log, so its progress line is seen.
"$NS_TOOLS/build-root.sh" "$rel" >/dev/null

link_tree() {
	local dest=$1 src=$2
	shift 2
	mkdir -p "$dest"
	for f in "$@"; do
		ln -sfn "$src/$f" "$dest/$f"
	done
}

build() {
	local dir=$1 log=$1/build.log
	shift
	# Sparse as C=2 would run it, asked for by KBUILD_CHECKSRC itself:
	# Debian's 7.2 kbuild lacks scripts/checker-valid.sh, so its C=2
	# turns sparse off ("not available or not up to date").
	# check-static.sh makes sure every source was checked.
	if ! ns_kmake "$rel" M="$dir" W=1 ${NS_SPARSE:+KBUILD_CHECKSRC=2} "$@" modules >"$log" 2>&1; then
		cat "$log" >&2
		ns_die "build failed in $dir for $rel"
	fi
	if grep -E -q 'warning:|error:' "$log"; then
		grep -E 'warning:|error:' "$log" >&2
		ns_die "build of $dir for $rel is not warning-free at W=1"
	fi
}

if [ "${NS_BREAK:-}" = dotdot ]; then
	ns_link_sources "$out/module-broken-dotdot"
	build "$out/module-broken-dotdot" NS_TEST_BREAK_DOTDOT=y
	echo "$out/module-broken-dotdot/namei-shadow.ko"
	exit 0
fi
ns_link_sources "$out/module"
link_tree "$out/testmods" "$top/selftests/modules" Kbuild $(cd "$top/selftests/modules" && ls ./*.[ch] | sed 's|^\./||')
link_tree "$out/testmods" "$top" include
build "$out/module"
build "$out/testmods"
echo "$out/module/namei-shadow.ko"
