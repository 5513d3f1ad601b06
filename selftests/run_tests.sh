#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_tests.sh MODULE_DIR BIN_DIR - the whole selftest suite, in the VM.
#
# Runs the life-cycle test, then loads namei_shadow from MODULE_DIR,
# runs every test program in BIN_DIR, and unloads it.  Prints each
# program's TAP as it comes; a program that fails without reporting a
# failing case gets a "not ok" line of its own, so nothing is lost.

set -u
usage="usage: run_tests.sh MODULE_DIR BIN_DIR"
# Absolute: tests that reload the module run in directories of their own.
mod_dir=$(cd "${1:?$usage}" && pwd) || exit 1
bin_dir=$(cd "${2:?$usage}" && pwd) || exit 1
here=$(cd "$(dirname "$0")" && pwd)
ko=$mod_dir/namei-shadow.ko
failed=0

kmemleak=/sys/kernel/debug/kmemleak
# The debug kernel is slow: fewer walks in rcu_test's race loops.
[ -e "$kmemleak" ] && export NS_RACE_SCALE=${NS_RACE_SCALE:-0.1}
# The test-only modules built beside the module (symlink_test loads one).
export NS_TESTMODS="${NS_TESTMODS:-$(dirname "$mod_dir")/testmods}"
# The module itself, for tests that unload and reload it (cli_test).
export NS_KO="$ko"

[ "$(id -u)" = 0 ] || { echo "not ok 1 run_tests.sh must run as root in the VM"; exit 1; }

# Leaks from before the suite (boot) are not ours.  The automatic scans
# (each about 7 s of a core under TCG) would find nothing the two scans
# at the end do not: off.
[ -w "$kmemleak" ] && echo clear >"$kmemleak" && echo scan=off >"$kmemleak"

# Harness tests only: load a module that misbehaves on purpose, to
# show that the suite's run then fails.
if [ -n "${NS_SELFTEST_INJECT:-}" ]; then
	echo "# injecting $NS_SELFTEST_INJECT on purpose"
	insmod "$NS_SELFTEST_INJECT"
fi

run_prog() {
	local name=$1 out rc t0=$SECONDS
	shift
	echo "# selftest: $name"
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	echo "# selftest: $name took $((SECONDS - t0))s"
	if [ "$rc" != 0 ]; then
		failed=1
		printf '%s\n' "$out" | grep -q '^not ok ' ||
			echo "not ok 1 $name exited with status $rc"
	fi
}

run_prog module_test bash "$here/module_test.sh" "$ko"

if insmod "$ko"; then
	for prog in "$bin_dir"/*_test; do
		[ -x "$prog" ] && run_prog "$(basename "$prog")" "$prog"
	done
	run_prog trace_test bash "$here/trace_test.sh"
	echo "# selftest: unload"
	if rmmod namei_shadow; then
		echo "ok 1 rmmod namei_shadow after the suite"
	else
		echo "not ok 1 rmmod namei_shadow after the suite"
		failed=1
	fi
else
	echo "not ok 1 insmod $ko for the suite"
	failed=1
fi

# The same walks in each lower RCU mode, forced at load: every mode on
# every kernel (the first pass ran the best one, rcu=auto).
for mode in within-mount off; do
	echo "# selftest: rcu=$mode"
	if insmod "$ko" rcu=$mode; then
		for prog in resolve_test symlink_test rcu_test; do
			[ -x "$bin_dir/$prog" ] && run_prog "$prog (rcu=$mode)" "$bin_dir/$prog"
		done
		if rmmod namei_shadow; then
			echo "ok 1 rmmod namei_shadow after the rcu=$mode suite"
		else
			echo "not ok 1 rmmod namei_shadow after the rcu=$mode suite"
			failed=1
		fi
	else
		echo "not ok 1 insmod $ko rcu=$mode"
		failed=1
	fi
done

# kmemleak, where the kernel has it (the debug kernel): two scans, as
# an object is reported only once it has looked unreferenced twice.
echo "# selftest: kmemleak"
if [ -w "$kmemleak" ]; then
	echo scan >"$kmemleak"
	sleep 2
	echo scan >"$kmemleak"
	leaks=$(cat "$kmemleak")
	if [ -z "$leaks" ]; then
		echo "ok 1 kmemleak finds no unreferenced object after the suite"
	else
		printf '%s\n' "$leaks" | sed 's/^/# /'
		printf '%s\n' "$leaks" | head -n 20 >/dev/kmsg
		echo "not ok 1 kmemleak finds no unreferenced object after the suite"
		failed=1
	fi
else
	echo "ok 1 kmemleak after the suite # SKIP this kernel has no kmemleak"
fi
exit $failed
