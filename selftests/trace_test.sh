#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# trace_test.sh - namei_shadow's tracepoints and the bpftrace tools in
# tools/bpftrace (KTAP).  Runs as root in the test VM with the module
# loaded; makes its scratch tree on a tmpfs in a mount namespace of its
# own.  Each event must fire with its documented fields for a walk
# built to produce it, and nothing when disabled; each script must
# print what it claims for a generated workload.

set -u
if [ -z "${NS_TRACE_TEST_UNSHARED:-}" ]; then
	NS_TRACE_TEST_UNSHARED=1 exec unshare -m --propagation private "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "${NS_KSFT_DIR:?NS_KSFT_DIR must point at the kselftest directory}/kselftest/ktap_helpers.sh"

D=/sys/kernel/debug/namei_shadow
T=/sys/kernel/tracing
bt=$top/tools/bpftrace
# on /mnt, not /tmp: the tree under test (a clone in /tmp) must stay visible
S=/mnt/nst
out=$(mktemp -d /dev/shm/nstrace.XXXXXX)

[ -d "$T/events" ] || mount -t tracefs nodev "$T"
mount -t tmpfs nst /mnt
mkdir -p $S/a/b $S/mnt
touch $S/a/b/f
ln -s a $S/l1
ln -s l1/b $S/l2
ln -s l2/f $S/l3
mount -t tmpfs nst-mnt $S/mnt
touch $S/mnt/inside

# The workload, as a script bpftrace -c can run (it splits no quotes).
cat >"$out/walks.sh" <<EOF
#!/bin/sh
for r in $S/l3 $S/mnt/inside /proc/self/cwd "inject=dseq@1 path=$S/a/b" \
	 "inject=estale@1 path=$S/a/b" $S/a/b/../b/f $S/no-such; do
	echo "\$r" > $D/resolve
done
EOF
find /usr/share/doc -maxdepth 1 | head -500 >"$out/paths"
printf '#!/bin/sh\nexec cat %s > %s/batch\n' "$out/paths" "$D" >"$out/batch.sh"

ktap_print_header
ktap_set_plan 10

# check DESCRIPTION COMMAND...: one KTAP result; on failure, show $shown
shown=
check() {
	local desc=$1
	shift
	if "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
		[ -n "$shown" ] && sed 's/^/# /' "$out/$shown" | head -40
	fi
	shown=
}
has() {	# has FILE ERE...: every pattern is in FILE
	local f=$1 p
	shift
	for p in "$@"; do
		grep -q -E -- "$p" "$out/$f" || { echo "# $f lacks: $p"; return 1; }
	done
}

events="walk_start step unlazy restart link_push link_pop mount verdict"
all_off() {
	local e
	for e in $events; do
		[ "$(cat "$T/events/namei_shadow/$e/enable" 2>/dev/null)" = 0 ] || return 1
	done
}
check "the eight events exist and are off by default" all_off

echo >"$T/trace"
sh "$out/walks.sh"
cp "$T/trace" "$out/trace-off"
nothing() { ! grep -q -E "walk_start:|step:|link_push:|verdict:" "$out/trace-off"; }
shown=trace-off check "disabled, they write nothing to the trace buffer" nothing

echo 1 >"$T/events/namei_shadow/enable"
echo >"$T/trace"
sh "$out/walks.sh"
echo 0 >"$T/events/namei_shadow/enable"
cp "$T/trace" "$out/trace"
shown=trace check "enabled in tracefs, each fires with its documented fields" has trace \
	"walk_start: path=$S/l3 mode=rcu request=lookup flags=0x" \
	"step: n=2 name=nst mode=rcu how=[a-z-]+ type=dir err=0 seq_retry=0" \
	"step: n=[0-9]+ name=no-such mode=[a-z]+ how=[a-z-]+ type=error err=-2 " \
	"link_push: depth=1 total=1 body=l2/f mode=rcu" \
	"link_push: depth=3 total=3 body=a mode=rcu" \
	"link_pop: depth=[0-2]" \
	"mount: direction=down mode=(rcu|ref) dev=0:[0-9]+" \
	"unlazy: reason=magic step=[0-9]+ success=1" \
	"unlazy: reason=complete step=[0-9]+ success=1" \
	"restart: reason=dseq mode=ref" \
	"restart: reason=estale mode=reval" \
	"verdict: path=$S/mnt/inside verdict=match shadow_err=0 kernel_err=0 checked=1 mode=(rcu|ref) unlazy=" \
	"verdict: path=$S/no-such verdict=match shadow_err=-2 kernel_err=-2 "

# bpftrace attaches to them by name and reads every field.
bpftrace -q -e 'tracepoint:namei_shadow:link_push { printf("push %d %d %s %s\n", args->depth, args->total, str(args->body), str(args->mode)); }
tracepoint:namei_shadow:verdict { printf("verdict %s %s %d %d %s\n", str(args->path), str(args->verdict), args->shadow_err, args->kernel_err, str(args->unlazy)); }' \
	-c "/bin/sh $out/walks.sh" >"$out/bt" 2>&1
shown=bt check "bpftrace attaches as tracepoint:namei_shadow:<event> and reads the fields" \
	has bt "^push 3 3 a rcu$" "^verdict $S/no-such match -2 -2 "

run_bt() {	# run_bt SCRIPT WORKLOAD: the script's output in $out/SCRIPT
	timeout 120 bpftrace "$bt/$1.bt" -c "/bin/sh $2" >"$out/$1" 2>&1
}

run_bt ns-unlazy "$out/walks.sh"
shown=ns-unlazy check "ns-unlazy.bt counts unlazies by reason and restarts" has ns-unlazy \
	'^@unlazy\[magic, legitimized\]: 1$' '^@restart\[dseq, ref\]: 1$' \
	'^@restart\[estale, reval\]: 1$' '^@attempts\[rcu\]: [0-9]+$'

run_bt ns-linkdepth "$out/walks.sh"
shown=ns-linkdepth check "ns-linkdepth.bt: the l3 -> l2 -> l1 chain reaches depth 3" \
	has ns-linkdepth '^@max_depth: 3$' '^@depth: $'

run_bt ns-steplat "$out/walks.sh"
shown=ns-steplat check "ns-steplat.bt: a latency histogram of RCU and REF steps" \
	has ns-steplat '^@step_ns\[rcu\]: $' '^@step_ns\[ref\]: $' '^@steps\[rcu\]: [0-9]+$' \
	'^\[[0-9]+K?, [0-9]+[KM]?\) +[0-9]+ \|@'

run_bt ns-mismatch "$out/walks.sh"
no_mismatch_line() { ! grep -q '^[0-9]' "$out/ns-mismatch"; }
shown=ns-mismatch check "ns-mismatch.bt: seven matching walks counted, no mismatch printed" \
	eval 'has ns-mismatch "^@verdicts\[match\]: 7$" "^TIME\(ms\) +PID" && no_mismatch_line'

run_bt ns-parity "$out/batch.sh"
n=$(wc -l <"$out/paths")
# the shadow: one RCU attempt per request; the kernel: two walks per
# request (before and after the shadow), and the writer's own opens
parity() {
	awk -v n="$n" '$1 == "shadow" && $2 == n { s = 1 }
		$1 == "kernel" && $2 >= 2 * n { k = 1 }
		END { exit !(s && k) }' "$out/ns-parity"
}
shown=ns-parity check "ns-parity.bt: both walkers' RCU attempts for $n requests" parity

# The events hold copies: the buffer reads without faulting (a fault
# would be a splat, which fails the run) once the module is gone.
after_rmmod() {
	rmmod namei_shadow || return 1
	cat "$T/trace" >/dev/null
	local rc=$?
	insmod "${NS_KO:?}" && return $rc
}
check "after rmmod the trace buffer, holding its events, still reads" after_rmmod

umount $S/mnt /mnt
rm -rf "$out"
ktap_finished
