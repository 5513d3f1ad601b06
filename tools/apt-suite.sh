#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apt-suite.sh SUITE (uri | update | apt-get ARGS... | apt-cache ARGS...)
#
# apt-get or apt-cache against one Debian suite (sid, say) through a
# private configuration under $NS_CACHE/apt/SUITE: its own sources
# list, package lists and archive cache.  The host's apt configuration
# is never changed.  The mirror is the host's own: the URI its apt
# sources use for the host's release, never a name written here.  The
# suite's Release file may be past its Valid-Until date (an unstable
# mirror snapshot); the expiry is not enforced, the signature is.
#
#   uri       print the mirror URI
#   update    refresh the suite's package lists
#   apt-get download PKG...   (and any other apt-get/apt-cache command)
#
# The lists are fetched on first use; "update" refreshes them.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

suite=${1:?usage: apt-suite.sh SUITE (uri | update | apt-get ARGS... | apt-cache ARGS...)}
shift
dir=$NS_CACHE/apt/$suite

# The URI of the host's Debian mirror: the deb source that serves the
# host's own release (VERSION_CODENAME), in deb822 or one-line form.
host_mirror() {
	local codename f uri
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || ns_die "/etc/os-release names no VERSION_CODENAME"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk -v want="$codename" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "")
					print uris
				types = suites = uris = ""
			}
			/^[ \t]*$/ { flush(); next }
			/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
			/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
			/^URIs:/ { sub(/^URIs:[ \t]*/, ""); split($0, u, " "); uris = u[1] }
			END { flush() }' "$f" | head -n 1)
		[ -n "$uri" ] && { echo "$uri"; return 0; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		uri=$(awk -v want="$codename" '
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) while ($i !~ /\]$/) i++
				if ($i ~ /^\[/ || $i ~ /\]$/) i++
				if ($(i + 1) == want) { print $i; exit }
			}' "$f")
		[ -n "$uri" ] && { echo "$uri"; return 0; }
	done
	ns_die "no Debian mirror for $codename in the host's apt sources"
}

apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=-
	  -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
	  -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root -q)

setup() {
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	echo "deb $(host_mirror) $suite main" >"$dir/sources.list.tmp"
	mv "$dir/sources.list.tmp" "$dir/sources.list"
}

update() {
	setup
	ns_log "fetching the package lists of Debian $suite"
	apt-get "${apt_opts[@]}" update >&2 ||
		ns_die "apt-get update of $suite failed (mirror $(host_mirror))"
	touch "$dir/.updated"
}

case "${1:-}" in
uri) host_mirror ;;
update) update ;;
apt-get|apt-cache)
	[ -f "$dir/.updated" ] || update
	cmd=$1
	shift
	"$cmd" "${apt_opts[@]}" "$@" ;;
*) ns_die "apt-suite.sh: unknown command '${1:-}'" ;;
esac
