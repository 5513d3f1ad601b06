#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# module_test.sh - load/unload life cycle of namei_shadow (KTAP).  Runs
# as root; unloads the module first if it is loaded, and leaves it
# unloaded.  The module is NS_KO, else the installed one (ns_module.sh).

set -u
. "$(dirname "$0")/ns_module.sh"

dir=/sys/kernel/debug/namei_shadow

ksym_lines() { grep -E '^(ksym|export) ' "$dir/features"; }

ktap_print_header
ktap_set_plan 17

if ns_loaded && ! ns_unload; then
	ktap_exit_fail_msg "namei_shadow is loaded and rmmod cannot unload it"
fi

if ns_load && ns_loaded; then
	ktap_test_pass "it loads as namei_shadow"
else
	ktap_exit_fail_msg "loading $(ns_ko) failed"
fi
ktap_test_result "debugfs directory and features file appear" test -r "$dir/features"
auto=$(ksym_lines)
# where kernels differ and no header tells, the kernel itself was asked
# (ktap_test_result splits its command into words: a function)
rule_asked() {
	grep -q -E '^rule unlink-may-reveal kernel=(y why=probe-refused-the-name|n why=probe-stepped-onto-the-name) err=' \
		"$dir/features"
}
ktap_test_result "the unlink-may-reveal rule was asked of the kernel at load, and features says its answer" \
	rule_asked

if rmmod namei_shadow && ! ns_loaded && [ ! -e "$dir" ]; then
	ktap_test_pass "rmmod unloads it and removes its debugfs directory"
else
	ktap_test_fail "rmmod unloads it and removes its debugfs directory"
fi

dmesg -C
if ns_load ksym_source=bogus 2>/dev/null; then
	rmmod namei_shadow
	ktap_test_fail "a bad ksym_source is refused"
elif dmesg | grep -q 'ksym_source=bogus: must be auto or gate' && ! ns_loaded && [ ! -e "$dir" ]; then
	ktap_test_pass "a bad ksym_source is refused with a message, leaving nothing behind"
else
	ktap_test_fail "a bad ksym_source is refused with a message, leaving nothing behind"
fi

# The kprobe call gate must find exactly what the direct call finds.
if ns_load ksym_source=gate; then
	gate=$(ksym_lines)
	grep -q '^ksym_source kprobe-gate ' "$dir/features"; through_gate=$?
	rmmod namei_shadow
	if [ "$through_gate" = 0 ] && [ "$gate" = "$auto" ]; then
		ktap_test_pass "ksym_source=gate finds the same symbols as the direct call"
	else
		ktap_test_fail "ksym_source=gate finds the same symbols as the direct call"
		diff <(echo "$auto") <(echo "$gate") | sed 's/^/# /'
	fi
else
	ktap_test_fail "ksym_source=gate finds the same symbols as the direct call"
fi

# Each RCU mode can be forced at load, and features says which is on.
# "full" is the default where __lookup_mnt and __legitimize_mnt are
# callable; where they are not, rcu=full must refuse to load.
full_usable=$(sed -n 's/^mounts_rcu usable=\([yn]\) .*/\1/p' <<<"$(ns_load && cat "$dir/features"; rmmod namei_shadow)")
modes_ok=true
for mode in full within-mount off; do
	if ns_load rcu=$mode 2>/dev/null; then
		line=$(grep '^rcu ' "$dir/features")
		rmmod namei_shadow
		case "$mode/$full_usable" in
		full/n) modes_ok=false; echo "# rcu=full loaded without mounts_rcu" ;;
		esac
		case "$line" in
		"rcu mode=$mode why=module-parameter "*) ;;
		*) modes_ok=false; echo "# rcu=$mode: features says: $line" ;;
		esac
	elif [ "$mode/$full_usable" != full/n ]; then
		modes_ok=false
		echo "# rcu=$mode did not load"
	fi
done
[ -n "$full_usable" ] || { modes_ok=false; echo "# no mounts_rcu line in features"; }
ktap_test_result "rcu=full|within-mount|off load, and features says so" $modes_ok

# The struct mount offset needs two mounts that agree.  Loaded from a
# mount namespace where /proc is the only mount it measures by (the
# others unmounted there), RCU mode stays within its mounts.
if [ "$full_usable" = y ]; then
	# the .ko opened first: it may live under one of the mounts that go
	unshare -m sh -c 'mount --make-rprivate / &&
		for m in /tmp /run /dev /sys; do
			while mountpoint -q $m; do umount -l $m || exit 1; done
		done && exec insmod /proc/self/fd/5' 5<"$(ns_ko)"
	line=$(grep '^mounts_rcu ' "$dir/features")
	mode=$(grep '^rcu ' "$dir/features")
	rmmod namei_shadow
	case "$line/$mode" in
	"mounts_rcu usable=n why=struct-mount-offset-unconfirmed "*"measured_on=1/rcu mode=within-mount "*)
		ktap_test_pass "one mount to measure struct mount by: no RCU mount crossing" ;;
	*)
		echo "# features says: $line / $mode"
		ktap_test_fail "one mount to measure struct mount by: no RCU mount crossing" ;;
	esac
else
	ktap_test_skip "one mount to measure struct mount by: mounts_rcu is not usable here at all"
fi

# ksym_hide= does without a kernel internal, as on a kernel that lacks
# it.  Without fs.protected_symlinks' variable the walker reads the
# sysctl file, which may sleep: never in RCU mode, where a trailing link
# unlazies ("protected") for REF mode to read it.  (Read in RCU mode, it
# slept under rcu_read_lock.)
resolve_req() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
os.write(fd, sys.argv[2].encode())
print(os.pread(fd, 65536, 0).decode())' "$dir/resolve" "$1"
}
if ns_load ksym_hide=sysctl_protected_symlinks; then
	scratch=$(mktemp -d)
	ln -s . "$scratch/lnk"
	# from a tmpfs directory: the 9p root's names unlazy ("revalidate")
	(cd "$scratch" && resolve_req "path=lnk") >/dev/null
	out=$(cd "$scratch" && resolve_req "path=lnk")
	hidden=$(grep '^ksym sysctl_protected_symlinks ' "$dir/features")
	rcu_on=$(grep -c '^rcu mode=\(full\|within-mount\) ' "$dir/features")
	rmmod namei_shadow
	rm -rf "$scratch"
	want="unlazy=protected@"
	[ "$rcu_on" = 1 ] || want="unlazy=none"
	case "$hidden" in
	*" found=n "*"why=hidden-by-ksym_hide") ;;
	*) out="$out (features: $hidden)"; want="hidden-by-ksym_hide" ;;
	esac
	if grep -q '^verdict match' <<<"$out" && grep -q "^walk .*$want" <<<"$out"; then
		ktap_test_pass "without the protected_symlinks variable, RCU mode unlazies to read the sysctl"
	else
		sed 's/^/# /' <<<"$out"
		ktap_test_fail "without the protected_symlinks variable, RCU mode unlazies to read the sysctl"
	fi
else
	ktap_test_fail "without the protected_symlinks variable, RCU mode unlazies to read the sysctl"
fi
dmesg -C
if ns_load ksym_hide=sysctl_protected_symlinks,no_such_symbol 2>/dev/null; then
	rmmod namei_shadow
	ktap_test_fail "a ksym_hide= naming no internal is refused"
else
	ktap_test_result "a ksym_hide= naming no internal is refused with a message, leaving nothing behind" \
		eval 'dmesg | grep -q "ksym_hide=.*: each name once" && ! ns_loaded'
fi

dmesg -C
if ns_load rcu=bogus 2>/dev/null; then
	rmmod namei_shadow
	ktap_test_fail "a bad rcu= is refused"
else
	ktap_test_result "a bad rcu= is refused with a message, leaving nothing behind" \
		eval 'dmesg | grep -q "rcu=bogus: must be auto, full, within-mount or off" && ! ns_loaded'
fi

# rmmod while live mode is armed, for every process, with lookups under
# way: it disarms and unloads.  A lookup taken and not yet walked again
# holds the module: a connect(2) that resolved its socket's name and
# waits (the listener's queue is full) keeps rmmod refused until it
# returns to user space, then rmmod succeeds.
live_rmmod() {
	local py=/usr/bin/python3 sock loop waiter ok=1
	[ -x $py ] || { echo "# no python3 for the waiting connect"; return 1; }
	sock=$(mktemp -u /dev/shm/nslive.XXXXXX)
	ns_load && echo start >"$dir/live" || return 1
	$py - "$sock" <<'EOF2' &
import os, socket, sys, time
l = socket.socket(socket.AF_UNIX); l.bind(sys.argv[1]); l.listen(0)
f = socket.socket(socket.AF_UNIX); f.connect(sys.argv[1])
pid = os.fork()
if pid == 0:
	w = socket.socket(socket.AF_UNIX); w.connect(sys.argv[1]); os._exit(0)
open(sys.argv[1] + ".waiting", "w").write(str(pid))
while not os.path.exists(sys.argv[1] + ".go"):
	time.sleep(0.05)
l.accept(); l.accept(); os.waitpid(pid, 0)
EOF2
	waiter=$!
	while :; do stat / >/dev/null; done &
	loop=$!
	while [ ! -s "$sock.waiting" ]; do sleep 0.1; done
	# the child is in its connect(2) (42), its socket's name looked up
	for i in $(seq 100); do
		[ "$(cut -d' ' -f1 "/proc/$(cat "$sock.waiting")/syscall" 2>/dev/null)" = 42 ] && break
		sleep 0.1
	done
	rmmod namei_shadow 2>/dev/null && { echo "# rmmod went through a pending lookup"; ok=0; }
	touch "$sock.go"
	wait $waiter
	kill $loop
	wait $loop 2>/dev/null
	for i in $(seq 50); do
		rmmod namei_shadow 2>/dev/null && break
		sleep 0.1
	done
	rm -f "$sock" "$sock.waiting" "$sock.go"
	[ $ok = 1 ] && ! ns_loaded
}
ktap_test_result "rmmod while live mode is armed: refused while a lookup is pending, then unloads" live_rmmod

# live= at load: a bad word fails the load with its reason in the log;
# good words arm live mode as `start` does, and the unload says what it
# saw since load.
dmesg -C
if NS_LIVE= ns_load 'live="comm=nsmod-live sample=0"' 2>/dev/null; then
	rmmod namei_shadow
	ktap_test_fail "a bad live= word is refused"
else
	ktap_test_result "a bad live= word fails the load with its reason, leaving nothing behind" \
		eval 'dmesg | grep -q "live=\"comm=nsmod-live sample=0\" refused: sample= takes N >= 1: one lookup in N (-EINVAL)" && ! ns_loaded && [ ! -e "$dir" ]'
fi

live_at_load() {
	local bin=/tmp/nsmod-live since n
	cp "$(command -v stat)" $bin || return 1
	dmesg -C
	NS_LIVE= ns_load 'live="comm=nsmod-live kinds=lookup"' || return 1
	grep '^live armed kinds=lookup sample=1 comm=nsmod-live pending=' "$dir/live" >/dev/null ||
		{ head -1 "$dir/live" | sed 's/^/# /'; rmmod namei_shadow; return 1; }
	$bin / /etc /nonexistent >/dev/null 2>&1
	rmmod namei_shadow || return 1
	rm -f $bin
	since=$(dmesg | grep -o 'live: since load .*')
	echo "# $since"
	n=$(printf '%s\n' "$since" | sed -n 's/^live: since load \([0-9]*\) lookups seen, \1 taken, 0 dropped, \1 shadowed: \([0-9]*\) match, 0 raced, 0 mismatch, 0 unchecked$/\2/p')
	[ "${n:-0}" -ge 3 ]
}
ktap_test_result "live= arms live mode at load; the unload reports its lookups (stat's three among them, all match)" live_at_load

# A rule the kernel could not be asked at load (ns_test_rule_blind
# sends the probe's walk elsewhere) is undecided; a walk that meets its
# case -- a name going between its lookup and the step onto it, made on
# cue by ns_test_going, met first by the shadow -- says so, and its
# verdict is never a mismatch.
rule_undecided() {
	local mods=$NS_TESTMODS going=$NS_TESTMODS/ns_test_going.ko
	local loaded fired rule went out

	insmod "$mods/ns_test_rule_blind.ko" || return 1
	ns_load
	loaded=$?
	fired=$(cat /sys/module/ns_test_rule_blind/parameters/fired)
	rmmod ns_test_rule_blind
	[ "$loaded" = 0 ] || return 1
	rule=$(grep '^rule unlink-may-reveal ' "$dir/features")
	stat "$going" >/dev/null &&
		insmod "$going" dir="$mods" name=ns_test_going.ko &&
		out=$(resolve_req "first=shadow path=$going") &&
		went=$(cat /sys/module/ns_test_going/parameters/fired)
	rmmod ns_test_going
	rmmod namei_shadow
	echo "# $rule"
	grep -E '^(walk|verdict) ' <<<"$out" | sed 's/^/# /'
	[ "$fired" = 1 ] && [ "${went:-0}" = 1 ] &&
		grep -q '^rule unlink-may-reveal kernel=undecided why=probe-name-never-went ' <<<"$rule" &&
		grep -q '^walk .* undecided=unlink-may-reveal ' <<<"$out" &&
		grep -q -E '^verdict (match|unchecked)' <<<"$out"
}
if [ -n "${NS_TESTMODS:-}" ] && [ -e "$NS_TESTMODS/ns_test_rule_blind.ko" ]; then
	ktap_test_result "a rule the kernel could not be asked is undecided; a walk that meets it says so, never a mismatch" \
		rule_undecided
else
	ktap_test_skip "a rule the kernel could not be asked is undecided: no test modules (NS_TESTMODS)"
fi

cycles_ok=true
for i in 1 2 3; do
	ns_load && cat "$dir/features" >/dev/null && rmmod namei_shadow || cycles_ok=false
done
ktap_test_result "three load/read/unload cycles" $cycles_ok

ktap_test_result "module is left unloaded" eval '! ns_loaded'
ktap_finished
