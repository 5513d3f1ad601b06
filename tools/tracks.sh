#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tracks.sh [--update] - the supported kernels by track (lib.sh): each
# track resolved to the release its Debian suite ships now -- the
# release its metapackage depends on, in the suite's package lists --
# recorded in $NS_TRACKS_FILE ($NS_CACHE/tracks), and printed, "TRACK RELEASE" a line.
#
# The lists are refreshed first (the host's apt-get update, the private
# lists of other suites) with --update, or when the release of one of
# make check's tracks is not unpacked in the cache yet: a release about
# to be fetched must be one the archive still has.  A release that differs from the one
# recorded before (or, the first time, from the one the README was
# measured on) is said on stderr.  A track that cannot be resolved (no
# network, no such metapackage) keeps the release it had, with a line
# saying so: never a failure.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

resolve() {	# TRACK: the release its metapackage depends on, or nothing
	ns_apt "$(ns_track_suite "$1")" apt-cache depends "$(ns_track_meta "$1")" 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(.*-amd64\)$/\1/p' | head -n 1
}

update_lists() {
	local t suite done=" "
	for t in $NS_TRACKS $NS_TRACKS_RC; do
		suite=$(ns_track_suite "$t")
		case "$done" in *" $suite "*) continue ;; esac
		done="$done$suite "
		if [ "$suite" = host ]; then
			apt-get update -q >/dev/null 2>&1
		else
			"$NS_TOOLS/apt-suite.sh" "$suite" update 2>/dev/null
		fi || ns_log "could not refresh the package lists of $suite; resolving from the lists there are"
	done
}

# each track resolved from the lists there are; again once refreshed
declare -A now
resolve_all() {
	local t
	for t in $NS_TRACKS $NS_TRACKS_RC; do
		now[$t]=$(resolve "$t")
	done
}
resolve_all
update=
[ "${1:-}" = --update ] && update=1
for t in $NS_TRACKS; do
	[ -n "${now[$t]}" ] && [ -f "$(ns_kernel_dir "${now[$t]}")/.unpacked" ] || update=1
done
if [ -n "$update" ]; then
	update_lists
	resolve_all
fi

mkdir -p "$(dirname "$NS_TRACKS_FILE")"
tmp=$(mktemp "$NS_TRACKS_FILE.XXXXXX") || exit 1
for t in $NS_TRACKS $NS_TRACKS_RC; do
	had=$(ns_track_release "$t")
	rel=${now[$t]}
	if [ -z "$rel" ]; then
		ns_log "track $t: Debian $(ns_track_suite "$t")'s lists name no release for $(ns_track_meta "$t"); keeping $had"
		rel=$had
	elif [ "$rel" != "$had" ]; then
		ns_log "track $t: Debian ships $rel now; $had has left the track, $rel takes its place"
	fi
	echo "$t $rel" >>"$tmp"
done
mv "$tmp" "$NS_TRACKS_FILE"
cat "$NS_TRACKS_FILE"
