#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksource.sh - extract from Debian's linux-source-6.12 the few files the
# project uses (checkpatch.pl and its data; kselftest's headers, lib.mk,
# runner and run_kselftest.sh) into
# $NS_CACHE/linux-source-6.12, once.  Prints that directory.  Nothing of
# it is copied into the source tree.

set -euo pipefail
. "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.12.tar.xz
dest=$NS_CACHE/linux-source-6.12
files=(scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
       tools/testing/selftests/kselftest.h tools/testing/selftests/kselftest_harness.h
       tools/testing/selftests/kselftest tools/testing/selftests/lib.mk
       tools/testing/selftests/run_kselftest.sh)

# The stamp names the files: a list that grew is extracted again.
if [ "$(cat "$dest/.extracted" 2>/dev/null)" != "${files[*]}" ]; then
	[ -f "$tarball" ] || ns_die "$tarball missing: apt-get install linux-source-6.12"
	ns_log "extracting checkpatch and kselftest headers from $tarball"
	rm -rf "$dest.tmp"
	mkdir -p "$dest.tmp"
	tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1 \
		"${files[@]/#/linux-source-6.12/}"
	rm -rf "$dest"
	mv "$dest.tmp" "$dest"
	echo "${files[*]}" >"$dest/.extracted"
fi
echo "$dest"
