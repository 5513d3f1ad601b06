#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [-k RELEASE]... [-n COUNT] [-r REPEATS] [-q] - make bench: the
# shadow against the kernel on the same walks, on each supported kernel
# (or those given), in the VM.  tools/bench-guest.sh walks the matrix
# through the module's `bench` file; this writes, in build/bench/,
# <release>.out (the raw cells), table.txt (every kernel's table) and
# bench-<release>.svg (ns/lookup against depth and against links, one
# line per walker) with the same plot as text in bench-<release>.txt,
# and prints the table.  Timings are TCG's: read the
# ratios, taken in one boot, not the absolute figures.  -q: tmpfs only,
# no batch (make check's smoke run).

set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
kernels=() count=1000 repeats=3 quick=
while getopts "k:n:r:q" opt; do
	case $opt in
	q) quick=quick ;;
	k) kernels+=("$OPTARG") ;;
	n) count=$OPTARG ;;
	r) repeats=$OPTARG ;;
	*) exit 2 ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || read -r -a kernels <<<"$NS_KERNELS_DEFAULT"

"$top/tools/install-deps.sh"
command -v gnuplot >/dev/null || NS_EXTRA_PKGS=gnuplot-nox "$top/tools/install-deps.sh"
mkdir -p "$out"
: >"$out/table.txt"
for rel in "${kernels[@]}"; do
	"$top/tools/fetch-kernel.sh" "$rel" >/dev/null
	ko=$("$top/tools/build-module.sh" "$rel" | tail -n 1)
	stack=$("$top/tools/stack-footprint.sh" "$rel" | tail -n 1)
	ns_log "$rel: the matrix, $count walks a walker a cell, $repeats repeats"
	"$top/tools/vm-run.sh" -k "$rel" -t 1800 "$top/tools/bench-guest.sh" \
		"$ko" "$count" "$repeats" $quick >"$out/$rel.out"
	python3 "$top/tools/bench-report.py" "$rel" "$out/$rel.out" \
		"$out/bench-$rel.svg" "$stack" >>"$out/table.txt"
done
cat "$out/table.txt"
