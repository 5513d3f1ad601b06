#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# harness-test.sh [--debug] [RELEASE [RELEASE...]] - tests of the test
# harness itself (TAP).  Each case makes a VM run go wrong on purpose and
# checks that tools/vm-run.sh reports it as a failure, with a clear
# message, and never as a pass.  The cases run on the first RELEASE; the
# walker broken on purpose is tried on every RELEASE.  With --debug, on the debug kernel: the suite's run
# with a test-only module that sleeps under RCU, or reads past a
# kmalloc'ed buffer, loaded on purpose must fail.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
debug=
if [ "${1:-}" = --debug ]; then
	debug=1
	shift
fi
rel=${1:-$NS_PRIMARY_KERNEL}
releases=${*:-$rel}
err=$(mktemp)
trap 'rm -f "$err"' EXIT

result() {	# STATUS DESCRIPTION; on failure, what the run said
	ns_result "$1" "harness: $2" || sed 's/^/# /' "$err"
}

# expect CODE PATTERN DESCRIPTION VM-RUN-ARGS...
expect() {
	local code=$1 pattern=$2 desc=$3 rc
	shift 3
	NS_KEEP_RUNS=0 "$top/tools/vm-run.sh" -k "$rel" "$@" >/dev/null 2>"$err"
	rc=$?
	if [ "$rc" = "$code" ] && grep -q -E "$pattern" "$err"; then
		result 0 "$desc (exit $rc)"
	else
		echo "expected exit $code and /$pattern/, got exit $rc" >>"$err"
		result 1 "$desc"
	fi
}

if [ -n "$debug" ]; then
	"$top/tools/build-module.sh" "$rel" >/dev/null || exit 1
	for fault in "rcu_sleep|Voluntary context switch within RCU read-side critical section|sleeps under RCU" \
		     "oob|KASAN: slab-out-of-bounds|reads past a kmalloc buffer"; do
		IFS="|" read -r mod pattern desc <<<"$fault"
		expect 125 "FAIL .*splat.*$pattern" "the debug suite fails when a module $desc" \
			-t 300 env NS_SELFTEST_INJECT="$top/build/$rel/testmods/ns_test_$mod.ko" \
			bash "$top/tools/ksft-guest.sh" "$top/build/kselftest" "$top/build/$rel/module"
	done
	exit $ns_failed
fi

expect 0 "exit 0 in" "a passing guest command passes" -t 60 true
expect 3 "exit 3 in" "a guest command's non-zero status comes back" -t 60 sh -c 'exit 3'
expect 124 "FAIL .*still running after 15s" "a hanging guest is killed and fails" \
	-t 15 sleep 600
expect 125 "FAIL .*splat.*(WARNING|deliberate WARN)" "a module that WARNs fails the run" \
	-t 60 insmod "$top/build/$rel/testmods/ns_test_warn.ko"
# (No exec after the power-off: as the guest goes down, an exec can fail
# "not found", and the shell's 127 would come back as a status.)
expect 126 "FAIL .*no exit status" "a guest that dies without an exit status fails" \
	-t 60 sh -c 'echo o >/proc/sysrq-trigger; while :; do :; done'
# A kernel that dies while booting, before the command: booted once
# more, then, dying again, a failure named as the boot's.
NS_APPEND="rdinit=/nonexistent init=/nonexistent" expect 125 \
	"FAIL .*while the kernel booted, before the command ran: .*Kernel panic" \
	"a kernel that dies twice before the command fails, after one more boot" -t 60 true
grep -q 'died while booting, before the command started .*booting once more' "$err"
result $? "... and the boot it tried again is said"

# The suite's KTAP as make check counts it (tools/tap-summary.sh): the
# results a program nests count; a program that fails with no failing
# result of its own (it crashed, timed out) is one failure; a program
# skipped whole is one skip.
ktap='TAP version 13\n1..3\n# 1..2\n# ok 1 a\n# ok 2 b # SKIP why\nok 1 selftests: ns: p
# 1..1\n# ok 1 c\nnot ok 2 selftests: ns: q # TIMEOUT 900 seconds
# 1..0 # SKIP why\nok 3 selftests: ns: r # SKIP\n'
counted=$(printf "$ktap" | "$top/tools/tap-summary.sh")
echo "counted (passed failed skipped): $counted" >"$err"
[ "$counted" = "2 1 2" ]
result $? "the suite's KTAP counts each program's own results, and a program that fails without one"

# broken_walker RELEASE: a walker broken on purpose (".." ignores the
# root) must fail the resolve tests, and both oracles must catch it: the
# in-kernel cross-check and the stat(2) oracle.  It also gives nsresolve
# and ns-mismatch.bt a real mismatch to report (tools/harness-mismatch.sh,
# in the guest).
broken_walker() {
	local rel=$1 broken rc

	broken=$(NS_BREAK=dotdot "$top/tools/build-module.sh" "$rel" 2>"$err")
	if [ -z "$broken" ]; then
		result 1 "a broken walker builds for $rel"
		return
	fi
	NS_KEEP_RUNS=0 "$top/tools/vm-run.sh" -k "$rel" -t 300 sh -c \
		"insmod $broken && $top/build/selftests/resolve_test; rc=\$?; rmmod namei_shadow; exit \$rc" \
		>"$err" 2>&1
	rc=$?
	if [ "$rc" = 1 ] && grep -q 'FAIL  walk.chroot_root_dotdot' "$err" &&
	   grep -q 'cross-check failed' "$err" && grep -q '^verdict mismatch' "$err" &&
	   grep -q 'stat oracle: st_ino differs' "$err"; then
		result 0 "$rel: a broken walker fails the cross-check and the stat oracle (exit $rc)"
	else
		echo "expected exit 1 with both oracles failing chroot_root_dotdot, got exit $rc" >>"$err"
		result 1 "$rel: a broken walker fails the cross-check and the stat oracle"
	fi
	NS_KEEP_RUNS=0 "$top/tools/vm-run.sh" -k "$rel" -t 300 \
		sh "$top/tools/harness-mismatch.sh" "$broken" "$top" >"$err" 2>&1
	rc=$?
	if [ "$rc" = 0 ] && ! grep -q '^FAILED' "$err"; then
		result 0 "$rel: a real mismatch: nsresolve exits 1 and lists it, ns-mismatch.bt prints it"
	else
		echo "expected exit 0 from harness-mismatch.sh, got exit $rc" >>"$err"
		result 1 "$rel: a real mismatch: nsresolve exits 1 and lists it, ns-mismatch.bt prints it"
	fi
}

for r in $releases; do
	broken_walker "$r"
done

# The stack-footprint check fails a walker deeper than its limit.
out=$(NS_STACK_LIMIT=256 "$top/tools/stack-footprint.sh" "$rel" 2>&1)
rc=$?
echo "$out" >"$err"
[ "$rc" != 0 ] && echo "$out" | grep -q '^not ok 1 stack footprint .* over 256'
result $? "the stack-footprint check fails a walker over its limit"

# The summary counts a failing case as a failure, whatever else passed.
counts=$(printf 'ok 1 a\nnot ok 2 b\nok 3 c # SKIP x\n#ok 4 d\n' | "$top/tools/tap-summary.sh")
echo "tap-summary gave '$counts'" >"$err"
[ "$counts" = "1 1 1" ]
result $? "TAP summary counts pass, fail and skip"

exit $ns_failed
