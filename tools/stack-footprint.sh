#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stack-footprint.sh RELEASE - the walker's stack footprint: the deepest
# chain of the module's own frames a walk can reach, from gcc's
# -fcallgraph-info=su output (each function's frame size and its calls)
# of a build for RELEASE.  The walk starts at ns_walk; frames
# of kernel functions it calls are not the walker's and count 0.  A
# cycle in the call graph (recursion) or a frame of dynamic size fails,
# as does a footprint of more than NS_STACK_LIMIT bytes (1024): the 4.2
# merge's claim is that the walker's stack stays small and does not
# grow with symlink nesting.  Prints one TAP line.

set -euo pipefail
. "$(dirname "$0")/lib.sh"
rel=${1:?usage: stack-footprint.sh RELEASE}
top=$(cd "$(dirname "$0")/.." && pwd)
limit=${NS_STACK_LIMIT:-1024}
dir=$top/build/$rel/stack

mkdir -p "$dir"
ns_link_sources "$dir"
if ! ns_kmake "$rel" M="$dir" KCFLAGS=-fcallgraph-info=su modules >"$dir/build.log" 2>&1; then
	sed 's/^/# /' "$dir/build.log"
	echo "not ok 1 stack footprint: the build for $rel failed"
	exit 1
fi

awk -v limit="$limit" -v rel="$rel" '
/^node:/ {
	match($0, /title: "[^"]*"/)
	t = substr($0, RSTART + 8, RLENGTH - 9)
	if (match($0, /\\n[0-9]+ bytes \([a-z,]+\)/)) {
		s = substr($0, RSTART + 2, RLENGTH - 2)
		split(s, w, " ")
		size[t] = w[1]
		# "dynamic,bounded": gcc knows the bound, and that is the size
		if (s ~ /dynamic/ && s !~ /bounded/)
			dynamic[t] = 1
		# the generated tracepoint probes, reached through static calls
		if (t ~ /:(trace_event_raw_event|perf_trace|__bpf_trace)_/ && w[1] > probe) {
			probe = w[1]
			probe_fn = short(t)
		}
	}
}
/^edge:/ {
	match($0, /sourcename: "[^"]*"/)
	src = substr($0, RSTART + 13, RLENGTH - 14)
	match($0, /targetname: "[^"]*"/)
	dst = substr($0, RSTART + 13, RLENGTH - 14)
	calls[src] = calls[src] " " dst
}
function short(t) { sub(/.*:/, "", t); return t }
# depth(f): f'"'"'s frame plus its deepest callee; path[f] the chain
function depth(f,    n, i, c, d, best, bestc, list) {
	if (f in done)
		return done[f]
	if (f in onstack) {
		cycle = cycle " " short(f)
		return 0
	}
	if (!(f in size))
		return 0
	if (f in dynamic)
		dyn = dyn " " short(f)
	onstack[f] = 1
	best = 0
	bestc = ""
	n = split(calls[f], list, " ")
	for (i = 1; i <= n; i++) {
		d = depth(list[i])
		if (d > best) {
			best = d
			bestc = list[i]
		}
	}
	delete onstack[f]
	done[f] = size[f] + best
	chain[f] = short(f) "(" size[f] ")" (bestc != "" ? " > " chain[bestc] : "")
	return done[f]
}
END {
	for (t in size)
		if (short(t) == "ns_walk")
			entry = t
	if (entry == "") {
		print "not ok 1 stack footprint: ns_walk not in the call graph"
		exit 1
	}
	total = depth(entry)
	print "# deepest chain: " chain[entry]
	if (cycle != "") {
		print "not ok 1 stack footprint on " rel ": the walker recurses:" cycle
		exit 1
	}
	if (dyn != "") {
		print "not ok 1 stack footprint on " rel ": frames of dynamic size:" dyn
		exit 1
	}
	if (total > limit) {
		print "not ok 1 stack footprint on " rel ": " total " bytes, over " limit
		exit 1
	}
	if (probe)
		print "# with a tracepoint on, its probe adds a frame of up to " probe " bytes (" probe_fn "), outside the walker"
	print "ok 1 stack footprint on " rel ": " total " bytes (limit " limit "), no recursion"
}' "$dir"/*.ci "$dir"/checker/*.ci
