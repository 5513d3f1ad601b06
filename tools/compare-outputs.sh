#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare-outputs.sh [-k RELEASE] BASE - are the module's outputs
# byte-for-byte what BASE's were, for the same requests?
#
# A restructuring that claims to change no behaviour is checked here:
# the module of git revision BASE and the module of the working tree are
# built for RELEASE (default: the primary kernel) and loaded in turn in
# one boot, on one scratch tree, and each answers the same requests
# (tools/compare-guest.sh: every mode and flag set on links, loops,
# mounts, dots, devices, at= and the empty name; injections; refused
# requests; a batch; stats; features).  The first module is run twice
# and its first run thrown away, so that both answer on a warm dcache.
# Prints the differences and exits 1 if there are any.

set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
rel=$NS_PRIMARY_KERNEL
while getopts "k:" opt; do
	case $opt in
	k) rel=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
base=${1:?usage: compare-outputs.sh [-k RELEASE] BASE-REVISION}

rev=$(git -C "$top" rev-parse --verify "$base^{commit}") ||
	ns_die "$base: not a revision of this repository"
src=$top/build/compare/$rev
if [ ! -d "$src" ]; then
	mkdir -p "$src.tmp"
	git -C "$top" archive "$rev" | tar -x -C "$src.tmp"
	mv "$src.tmp" "$src"
fi
base_ko=$("$src/tools/build-module.sh" "$rel" | tail -n 1)
new_ko=$("$top/tools/build-module.sh" "$rel" | tail -n 1)
mkdir -p "$top/build/compare/ko"
cp "$base_ko" "$top/build/compare/ko/base.ko"
cp "$new_ko" "$top/build/compare/ko/new.ko"

cd "$top"
NS_KEEP_RUNS=0 "$top/tools/vm-run.sh" -k "$rel" -t 900 \
	"$top/tools/compare-guest.sh" "$top/build/compare/ko/base.ko" \
	"$top/build/compare/ko/new.ko"
