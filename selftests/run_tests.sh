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
mod_dir=${1:?usage: run_tests.sh MODULE_DIR BIN_DIR}
bin_dir=${2:?usage: run_tests.sh MODULE_DIR BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
ko=$mod_dir/namei-shadow.ko
failed=0

[ "$(id -u)" = 0 ] || { echo "not ok 1 run_tests.sh must run as root in the VM"; exit 1; }

run_prog() {
	local name=$1 out rc
	shift
	echo "# selftest: $name"
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
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
exit $failed
