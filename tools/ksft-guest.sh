#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksft-guest.sh KSFT_DIR MODULE_DIR - in the VM, as root: the suite as
# installed by "make -C selftests install INSTALL_PATH=KSFT_DIR", run by
# its own runner, KSFT_DIR/run_kselftest.sh, against the namei-shadow.ko
# in MODULE_DIR (NS_KO) and the test-only modules beside it
# (NS_TESTMODS).  Prints the runner's KTAP.  The runner's exit status
# says nothing of the results: this script's does (1 if any test
# failed, or if a program was skipped whole for want of what make
# check provides).

set -u
usage="usage: ksft-guest.sh KSFT_DIR MODULE_DIR"
ksft=$(cd "${1:?$usage}" && pwd) || exit 1
mod_dir=$(cd "${2:?$usage}" && pwd) || exit 1
kmemleak=/sys/kernel/debug/kmemleak

[ "$(id -u)" = 0 ] || { echo "not ok 1 ksft-guest.sh must run as root in the VM"; exit 1; }

export NS_KO=$mod_dir/namei-shadow.ko
export NS_TESTMODS=${NS_TESTMODS:-$(dirname "$mod_dir")/testmods}
# The debug kernel is slow: fewer walks in the race loops.  There the
# suite also runs with live mode armed for its own processes, at every
# load of the module (ns_load and ns_module.h pass NS_LIVE as live=):
# one lookup in a hundred they make is walked again, under KASAN,
# lockdep and kmemleak, and each unload says in the kernel log what
# live mode saw.  (sample=10 made the suite 6 minutes longer, 29 in
# all: make check's critical path on a fresh machine.)
if [ -e "$kmemleak" ]; then
	export NS_RACE_SCALE=${NS_RACE_SCALE:-0.1}
	export NS_LIVE=${NS_LIVE-sample=100}
fi

# Leaks from before the suite (boot) are not ours.  The automatic scans
# (each about 7 s of a core under TCG) would find nothing the two scans
# of kmemleak_test.sh do not: off.
[ -w "$kmemleak" ] && echo clear >"$kmemleak" && echo scan=off >"$kmemleak"

# Harness tests only: load a module that misbehaves on purpose, to
# show that the suite's run then fails.
if [ -n "${NS_SELFTEST_INJECT:-}" ]; then
	echo "# injecting $NS_SELFTEST_INJECT on purpose"
	insmod "$NS_SELFTEST_INJECT"
fi

NS_KSFT_DIR=$ksft . "$ksft/namei_shadow/ns_module.sh"
# the kernel log as the suite goes (the ring buffer does not keep it all)
klog=$(mktemp)
dmesg --follow --notime >"$klog" 2>/dev/null &
klog_pid=$!
ns_load || { echo "not ok 1 insmod $NS_KO"; exit 1; }
out=$(mktemp)
began=$SECONDS
# each program's time, after its result line: where make check's
# minutes go
"$ksft/run_kselftest.sh" | while IFS= read -r line; do
	printf '%s\n' "$line"
	case $line in
	"ok "*" selftests: "* | "not ok "*" selftests: "*)
		echo "# ${line#*selftests: namei_shadow: } took $((SECONDS - began))s"
		began=$SECONDS ;;
	esac
done | tee "$out"

failed=0
grep -q '^not ok ' "$out" && failed=1
# A program skipped whole: only kmemleak_test.sh, where there is none.
n=$(grep -c -E '^(not )?ok [0-9]+ ' "$out")
while read -r name; do
	[ "$name" = kmemleak_test.sh ] && [ ! -e "$kmemleak" ] && continue
	n=$((n + 1))
	echo "not ok $n $name was skipped whole: make check gives it all it needs"
	failed=1
done < <(sed -n 's/^ok [0-9]* selftests: namei_shadow: \([^ ]*\) # SKIP.*/\1/p' "$out")
[ "$(grep -c -E '^(not )?ok [0-9]+ selftests: ' "$out")" = "$(wc -l <"$ksft/kselftest-list.txt")" ] || {
	echo "not ok $((n + 1)) run_kselftest.sh ran fewer programs than kselftest-list.txt lists"
	failed=1
}
# Live mode armed for the suite: what each load saw, said at its
# unload; a mismatch among the suite's own lookups fails the run.
if [ -n "${NS_LIVE:-}" ]; then
	! ns_loaded || rmmod namei_shadow
	sleep 1
	n=$(grep -c -E '^(not )?ok [0-9]+ ' "$out")
	grep -o 'live: since load .*' "$klog" | sed 's/^/# /'
	if ! grep -q -E 'live: since load [1-9][0-9]* lookups seen' "$klog"; then
		echo "not ok $((n + 1)) live mode, armed for the suite, saw none of its lookups"
		failed=1
	elif grep -q -E 'live: since load .* [1-9][0-9]* mismatch' "$klog"; then
		echo "not ok $((n + 1)) live mode, armed for the suite, found mismatches in its lookups"
		failed=1
	else
		echo "ok $((n + 1)) live mode, armed for the suite: its lookups walked again, no mismatch"
	fi
fi
kill $klog_pid 2>/dev/null
rm -f "$out" "$klog"
exit $failed
