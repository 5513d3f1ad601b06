#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-static.sh - checkpatch.pl (from Debian's linux-source-6.12, in
# --strict mode) on every module source, then sparse (C=2) with W=1 on
# every supported kernel, and the walker's stack footprint there
# (tools/stack-footprint.sh).  One TAP line per check; any finding fails it.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$("$top/tools/ksource.sh") || exit 1

result() { ns_result "$@"; }

# The sources of a build that sparse did not check (no "CHECK" line).
unchecked_sources() {
	local dir c
	for dir in "$1"/module "$1"/testmods; do
		for c in "$dir"/*.c "$dir"/checker/*.c; do
			[ -e "$c" ] || continue
			case "$c" in *.mod.c) continue ;; esac
			grep -q -E "^  CHECK   (.*/)?${c#"$dir"/}\$" "$dir/build.log" ||
				printf ' %s' "${c#"$1"/}"
		done
	done
}

cd "$top" || exit 1
for f in *.c checker/*.c include/*.h selftests/modules/*.[ch]; do
	ignore=
	# TRACE_EVENT()'s layout is the kernel's own convention for trace headers
	[ "$f" = include/ns_trace.h ] && ignore="--ignore PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE"
	out=$(perl "$ksrc/scripts/checkpatch.pl" --no-tree --strict --terse $ignore -f "$f" 2>&1)
	rc=$?
	if [ "$rc" = 0 ] && ! echo "$out" | grep -q -E ': (ERROR|WARNING|CHECK):'; then
		result 0 "checkpatch --strict $f"
	else
		echo "$out" | grep -v 'total:' | sed 's/^/# /'
		result 1 "checkpatch --strict $f"
	fi
done

for rel in ${NS_KERNELS:-$NS_KERNELS_DEFAULT}; do
	log=$(mktemp)
	# A fresh build, so sparse sees every file.
	rm -rf "$top/build/$rel"
	if NS_SPARSE=1 "$top/tools/build-module.sh" "$rel" >"$log" 2>&1; then
		findings=$(grep -h -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' \
			"$top/build/$rel"/*/build.log || true)
		unchecked=$(unchecked_sources "$top/build/$rel")
		if [ -n "$unchecked" ]; then
			echo "# sparse did not check:$unchecked"
			result 1 "sparse C=2 and W=1 clean on $rel"
		elif [ -z "$findings" ]; then
			result 0 "sparse C=2 and W=1 clean on $rel"
		else
			echo "$findings" | sed 's/^/# /'
			result 1 "sparse C=2 and W=1 clean on $rel"
		fi
	else
		sed 's/^/# /' "$log"
		result 1 "sparse C=2 and W=1 clean on $rel"
	fi
	rm -f "$log"
	# The walker's stack: printed, and failed above 1 KiB.
	out=$("$top/tools/stack-footprint.sh" "$rel" 2>&1)
	rc=$?
	echo "$out" | grep '^#' || true
	result "$rc" "$(echo "$out" | sed -n 's/^\(not \)\{0,1\}ok 1 //p')"
done
exit $ns_failed
