#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak_test.sh - after the suite, kmemleak finds no unreferenced
# object (KTAP), where the kernel has kmemleak (the debug kernel).  Two
# scans, as an object is reported only once it has looked unreferenced
# twice.  Objects from before the suite count too: make check clears
# kmemleak before it starts (echo clear >/sys/kernel/debug/kmemleak).

set -u
. "$(dirname "$0")/ns_module.sh"
kmemleak=/sys/kernel/debug/kmemleak

ktap_print_header
if [ ! -w "$kmemleak" ]; then
	ktap_skip_all "this kernel has no kmemleak ($kmemleak)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 1
echo scan >"$kmemleak"
sleep 2
echo scan >"$kmemleak"
leaks=$(cat "$kmemleak")
if [ -z "$leaks" ]; then
	ktap_test_pass "kmemleak finds no unreferenced object after the suite"
else
	printf '%s\n' "$leaks" | sed 's/^/# /'
	printf '%s\n' "$leaks" | head -n 20 >/dev/kmsg
	ktap_test_fail "kmemleak finds no unreferenced object after the suite"
fi
ktap_finished
