#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh - make deb: the Debian source package (native) and the
# namei-shadow-dkms .deb, built by dpkg-buildpackage from a copy of the
# tree (its git files where it is a checkout, else all but build/) in
# build/deb, then checked by lintian: any tag, down to pedantic and
# informational ones, fails.  Prints the .deb's path last.

set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/deb
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
src=$out/namei-shadow-$ver

rm -rf "$out"
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp -a --parents -t "$src")
else
	tar -C "$top" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
fi

ns_log "building namei-shadow $ver (source and namei-shadow-dkms) in $out"
if ! (cd "$src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	ns_die "dpkg-buildpackage failed, see $out/build.log"
fi
deb=$out/namei-shadow-dkms_${ver}_all.deb
[ -f "$deb" ] || ns_die "dpkg-buildpackage made no $deb"

changes=$(compgen -G "$out/namei-shadow_${ver}_*.changes" | head -n 1)
lintian --pedantic --display-info "$changes" >"$out/lintian.log" 2>&1 || true
if grep -q -E '^[EWIPX]: ' "$out/lintian.log"; then
	grep -E '^[EWIPX]: ' "$out/lintian.log" >&2
	ns_die "lintian (pedantic) tags the package: see $out/lintian.log"
fi
echo "$deb"
