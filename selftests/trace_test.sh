#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# trace_test.sh - namei_shadow's tracepoints and the bpftrace tools in
# tools/bpftrace (KTAP).  Runs as root in the test VM, loading the
# module if it is not loaded (ns_module.sh); makes its scratch tree on
# a tmpfs in a mount namespace of its own.  Each event must fire with its documented fields for a walk
# built to produce it, and nothing when disabled; each script must
# print what it claims for a generated workload.

set -u
if [ -z "${NS_TRACE_TEST_UNSHARED:-}" ]; then
	NS_TRACE_TEST_UNSHARED=1 exec unshare -m --propagation private "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ns_module.sh"
ns_loaded || ns_load || ktap_exit_fail_msg "namei_shadow is not loaded, and loading $(ns_ko) failed"
# the scripts count the events of the workload's walks alone
ns_live_pause

D=/sys/kernel/debug/namei_shadow
T=/sys/kernel/tracing
bt=$here/bpftrace	# tools/bpftrace, installed beside this script
# on /mnt, not /tmp: the tree under test (a clone in /tmp) must stay visible
S=/mnt/nst
out=$(mktemp -d /dev/shm/nstrace.XXXXXX)

[ -d "$T/events" ] || mount -t tracefs nodev "$T"
mount -t tmpfs nst /mnt
mkdir -p $S/a/b $S/mnt $S/proc
touch $S/a/b/f
ln -s a $S/l1
ln -s l1/b $S/l2
ln -s l2/f $S/l3
mount -t tmpfs nst-mnt $S/mnt
touch $S/mnt/inside
mount -t proc nst-proc $S/proc

# The workload, as a script bpftrace -c can run (it splits no quotes).
# Relative to $S, a tmpfs, so that RCU mode lasts: the guest's root is
# 9p, whose names refuse RCU revalidation (/usr/share, the one walk
# that starts there, unlazies at "usr").  A procfs is mounted in $S for
# the magic link: reached in RCU mode where mounts are crossed in it
# (rcu=full), else the walk unlazies at that mount.
cat >"$out/walks.sh" <<EOF
#!/bin/sh
cd $S || exit 1
for r in l3 mnt/inside proc/self/cwd "inject=dseq@1 path=a/b" \
	 "inject=estale@1 path=a/b" a/b/../b/f no-such /usr/share; do
	echo "\$r" > $D/resolve
done
EOF

magic=magic
grep -q '^rcu mode=full ' $D/features || magic=mount

ktap_print_header
ktap_set_plan 11

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

events="walk_start step unlazy restart link_push link_pop mount verdict live_mismatch"
all_off() {
	local e
	for e in $events; do
		[ "$(cat "$T/events/namei_shadow/$e/enable" 2>/dev/null)" = 0 ] || return 1
	done
}
check "the nine events exist and are off by default" all_off

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
	"walk_start: path=l3 mode=rcu request=lookup flags=0x" \
	"step: n=[0-9]+ name=b mode=rcu how=[a-z-]+ type=dir err=0 seq_retry=0" \
	"step: n=[0-9]+ name=no-such mode=[a-z]+ how=[a-z-]+ type=error err=-2 " \
	"link_push: depth=1 total=1 body=l2/f mode=rcu" \
	"link_push: depth=3 total=3 body=a mode=rcu" \
	"link_pop: depth=[0-2]" \
	"mount: direction=down mode=(rcu|ref) dev=0:[0-9]+" \
	"unlazy: reason=$magic step=[0-9]+ success=1" \
	"unlazy: reason=revalidate step=1 success=1" \
	"unlazy: reason=complete step=[0-9]+ success=1" \
	"restart: reason=dseq mode=ref" \
	"restart: reason=estale mode=reval" \
	"verdict: path=mnt/inside verdict=match shadow_err=0 kernel_err=0 checked=1 mode=(rcu|ref) unlazy=" \
	"verdict: path=no-such verdict=match shadow_err=-2 kernel_err=-2 "

# bpftrace attaches to them by name and reads every field.
bpftrace -q -e 'tracepoint:namei_shadow:link_push { printf("push %d %d %s %s\n", args->depth, args->total, str(args->body), str(args->mode)); }
tracepoint:namei_shadow:verdict { printf("verdict %s %s %d %d %s\n", str(args->path), str(args->verdict), args->shadow_err, args->kernel_err, str(args->unlazy)); }' \
	-c "/bin/sh $out/walks.sh" >"$out/bt" 2>&1
shown=bt check "bpftrace attaches as tracepoint:namei_shadow:<event> and reads the fields" \
	has bt "^push 3 3 a rcu$" "^verdict no-such match -2 -2 "

run_bt() {	# run_bt SCRIPT WORKLOAD: the script's output in $out/SCRIPT
	timeout 120 bpftrace "$bt/$1.bt" -c "/bin/sh $2" >"$out/$1" 2>&1
}

run_bt ns-unlazy "$out/walks.sh"
shown=ns-unlazy check "ns-unlazy.bt counts unlazies by reason and restarts" has ns-unlazy \
	"^@unlazy\\[$magic, legitimized\\]: 1\$" '^@unlazy\[revalidate, legitimized\]: 1$' '^@restart\[dseq, ref\]: 1$' \
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
shown=ns-mismatch check "ns-mismatch.bt: eight matching walks counted, no mismatch printed" \
	eval 'has ns-mismatch "^@verdicts\[match\]: 8$" "^TIME\(ms\) +PID" && no_mismatch_line'

# kprobes refuse a name two symbols carry: the module's symbols must not
# take the kernel's names (the walker's functions are named as the
# kernel's, their symbols are ns_<name>), or the kernel's functions could
# not be probed by name while it is loaded.
# (kprobes count a name's symbols of every type, in the kernel and in
# every module: each of the module's functions is checked against all,
# but for what every module has: init_module, cleanup_module and, under
# KASAN, gcc's constructors _sub_I_* and _sub_D_*.)
unique_names() {
	awk '$3 ~ /^(__pfx_)?((init|cleanup)_module|_sub_[ID]_[0-9_]+)$/ { next }
	     $4 == "[namei_shadow]" { if ($2 ~ /^[tT]$/) mod[$3] = 1; next }
	     { other[$3] = 1 }
	     END { for (n in mod) if (n in other) { print "# the module has the symbol " n " too"; bad = 1 }
		   exit bad }' /proc/kallsyms
}
check "the module's symbols leave every kernel symbol's name unique" unique_names

# Parity: eight walks that stay in RCU mode to their end in both walkers
# (relative, in one tmpfs: no mount crossed, so in every rcu= mode; one
# in parent mode, path_parentat's in the kernel) and
# two that leave it early in both (/proc/self/...: "proc" is a 9p name),
# written as one batch from $S.  The kernel walks each request twice,
# the shadow once, and the shadow hands each of the two magic links to
# the kernel (one more walk each, which leaves RCU mode at the link).
# Walks outside the write (the shell's exec) are not counted.  The links
# were followed before, and long enough after they were made: relatime
# wants no atime update (which would unlazy the kernel's first walk).
cat >"$out/parity.sh" <<EOF
#!/bin/sh
printf '%s\\n' a a/b a/b/f l1 l3 a/b/../b/f . "mode=parent path=a/b/f" \\
	/proc/self/cwd /proc/self/root >$D/batch
EOF
sleep 0.1
cat $S/l3 $S/l1/b/f
# LOOKUP_RCU as the module reports the running kernel's value.
rcu=$(( $(grep -o ' rcu=0x[0-9a-f]*' $D/features | cut -d= -f2) ))
(cd $S && timeout 120 bpftrace "$bt/ns-parity.bt" "$rcu" -c "/bin/sh $out/parity.sh") \
	>"$out/ns-parity" 2>&1
#        walker rcu-attempts ref-attempts unlazy-end unlazy-early early%
shown=ns-parity check "ns-parity.bt: 8 walks unlazy at the end and 2 early, in both walkers" \
	has ns-parity '^kernel +22 +0 +16 +6 +27$' '^shadow +10 +0 +8 +2 +20$' \
	'^@shadow_early_reason\[revalidate\]: 2$' '^@kernel_early_caller\[$' \
	'^ +lookup_fast\+[0-9]+$'

# The events hold copies: the buffer reads without faulting (a fault
# would be a splat, which fails the run) once the module is gone.
after_rmmod() {
	rmmod namei_shadow || return 1
	cat "$T/trace" >/dev/null
	local rc=$?
	insmod "${NS_KO:?}" && return $rc
}
check "after rmmod the trace buffer, holding its events, still reads" after_rmmod

umount $S/proc $S/mnt /mnt
rm -rf "$out"
ns_live_resume
ktap_finished
