#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rcu_modes_test.sh - the walks of resolve_test, symlink_test, rcu_test
# and scope_test again in each lower RCU mode, forced at load (KTAP): the
# suite's first pass ran the best mode the kernel allows, rcu=auto.
# Unloads the module the earlier tests left loaded (that it unloads
# shows they left no reference to it), and leaves it unloaded.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ns_module.sh"
progs="resolve_test symlink_test rcu_test scope_test"
modes="within-mount off"
# The slow debug kernel (where NS_RACE_SCALE is set) walks scope_test's
# cases in the suite's first pass only, and the others again with RCU
# mode off only: every REF-mode path under lockdep and KASAN.
# within-mount differs from the first pass only in where RCU mode ends.
if [ -n "${NS_RACE_SCALE:-}" ]; then
	progs="resolve_test symlink_test rcu_test"
	modes=off
fi
nmodes=$(set -- $modes; echo $#)
nprogs=$(set -- $progs; echo $#)

ktap_print_header
ktap_set_plan $((1 + nmodes * (nprogs + 1)))

if ns_loaded; then
	ktap_test_result "rmmod namei_shadow after the suite" ns_unload
else
	ktap_test_skip "rmmod namei_shadow after the suite: it was not loaded"
fi

for mode in $modes; do
	if ! ns_load rcu=$mode; then
		for prog in $progs; do
			ktap_test_fail "$prog (rcu=$mode): loading $(ns_ko) rcu=$mode failed"
		done
		ktap_test_fail "rmmod namei_shadow after the rcu=$mode walks"
		continue
	fi
	for prog in $progs; do
		echo "# $prog (rcu=$mode)"
		"$here/$prog" 2>&1 | sed 's/^/# /'
		ktap_test_result "$prog (rcu=$mode)" test "${PIPESTATUS[0]}" = 0
	done
	ktap_test_result "rmmod namei_shadow after the rcu=$mode walks" ns_unload
done
ktap_finished
