#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# harness-mismatch.sh BROKEN-MODULE TOP - the guest side of the
# harness case "a real mismatch is reported".  Run as root in the test
# VM by tools/harness-test.sh, with the host's root shared read-only.
# Loads the walker broken on purpose (NS_BREAK=dotdot: ".." ignores the
# walk's root), chroots nsresolve into a jail below a tmpfs and
# resolves "/.." there, where the kernel stays at the jail's root and
# the broken shadow climbs out of it: a mismatch nothing raced (the
# dentry it climbs to is the tmpfs's root, which has no name and must
# not count as a witness that moved).  Meanwhile
# tools/bpftrace/ns-mismatch.bt runs outside the jail.  Prints each
# check's result; exits 0 only if nsresolve exits 1 for a single walk
# and for a batch, names the mismatch in both, and ns-mismatch.bt
# prints it and counts it; and that mount_lock moving during the
# shadow's RCU walk does not make it "raced".  Then the same mismatch,
# 2,000 times, while a rename loop and a mount loop run outside the
# jail: rename_lock and mount_lock move all along, but nothing this
# walk rests on does, so every answer must still be a mismatch, none
# "raced".

set -u
broken=${1:?usage: harness-mismatch.sh BROKEN-MODULE TOP}
top=${2:?usage: harness-mismatch.sh BROKEN-MODULE-DIR TOP}
s=/mnt		# the guest's /mnt is the host's, read-only: a tmpfs on it
jail=$s/jail
failed=0

check() {	# check DESCRIPTION COMMAND...
	desc=$1
	shift
	if "$@"; then
		echo "ok: $desc"
	else
		echo "FAILED: $desc"
		failed=1
	fi
}

has() {		# has FILE EXTENDED-REGEX: and show FILE if it lacks it
	grep -q -E -- "$2" "$1" && return 0
	echo "--- $1 has no /$2/:"
	sed 's/^/    /' "$1"
	return 1
}

churn_counts() {
	has $s/churn '^batch requests=2000 ' && has $s/churn '^mismatch 2000$'
}

# Unrelated changes, as fast as they come, until $s/stop appears (a
# loop killed in the middle of a mount would leave it mounted); each
# counts what it changed, in a file.
rename_loop() {
	touch $s/u1
	exec python3 -c 'import os
n = 0
while not (n % 100 == 0 and os.path.exists("'$s'/stop")):
	os.rename("'$s'/u1", "'$s'/u2")
	os.rename("'$s'/u2", "'$s'/u1")
	n += 1
	if n % 100 == 0:
		open("'$s'/renames", "w").write(str(n))'
}

mount_loop() {
	n=0
	mkdir -p $s/um
	while [ ! -e $s/stop ] && mount -t tmpfs ns-churn $s/um && umount $s/um; do
		n=$((n + 1))
		echo $n >$s/mounts
	done
}

# Both loops ran all along (alive when told to stop) and changed things.
# Their counters are read once they have stopped: a loop rewrites its
# file in place, and a read in between finds it empty.
loops_ran() {
	local alive=0 renames mounts

	kill -0 $renamer $mounter && alive=1
	touch $s/stop
	wait $renamer $mounter
	renames=$(cat $s/renames 2>/dev/null)
	mounts=$(cat $s/mounts 2>/dev/null)
	[ $alive = 1 ] || { echo "--- a loop died before the batch ended"; return 1; }
	[ "${renames:-0}" -gt 0 ] && [ "${mounts:-0}" -gt 0 ] ||
		{ echo "--- renames ${renames:-none}, mounts ${mounts:-none}"; return 1; }
}

# The same escape by "/usr/../..", while ns_test_mount_seq moves
# mount_lock as the shadow's RCU walk finds "usr" in the jail (its bind
# of /usr, crossed): the walk starts again in REF mode, and what its RCU
# attempt stood on, which it could no longer hold, is no evidence.
mount_seq_mismatch() {
	insmod "$top/build/$(uname -r)/testmods/ns_test_mount_seq.ko" dir=$jail name=usr ||
		return 1
	chroot $jail /nsresolve /usr/../.. >$s/mseq 2>&1
	fired=$(cat /sys/module/ns_test_mount_seq/parameters/fired)
	rmmod ns_test_mount_seq
	[ "$fired" = 1 ] || { echo "--- ns_test_mount_seq did not fire"; return 1; }
	has $s/mseq '^walk mode=ref .*restarts=1 ' && has $s/mseq '^verdict mismatch$'
}

# Live mode on a real program's own lookup: stat(1) in the jail stats
# "/..", which the broken walker climbs out of.  The mismatch is
# counted, logged with who asked, and printed by ns-live.bt as it
# happens, with the request line that replays it.
live_mismatch() {
	local d=/sys/kernel/debug/namei_shadow
	echo "start comm=stat kinds=lookup" >$d/live || return 1
	timeout -k 10 120 bpftrace "$top/tools/bpftrace/ns-live.bt" \
		-c "/usr/sbin/chroot $jail /usr/bin/stat /.." >$s/live-bt 2>&1
	echo stop >$d/live
	cat $d/live >$s/live
	grep '^live comm=stat ' $d/mismatches >$s/live-log
	has $s/live '^verdict_mismatch [1-9]' &&
		has $s/live-log '^live comm=stat pid=[0-9]+ syscall=[0-9]+ caller=[a-z_]+.* kind=lookup .*name=/\.\.$' &&
		has $s/live-bt '^[0-9]+ +[0-9]+ +stat +lookup +0 +0 +[a-z_]+.* replay mode=lookup flags=(no)?follow path=/\.\.$'
}

batch_counts() {
	has $s/batch '^batch requests=3 ' && has $s/batch '^match 2$' &&
		has $s/batch '^mismatch 1$'
}

mount -t tmpfs ns-mismatch $s || exit 1
mkdir -p $jail/sys $jail/usr $jail/proc $jail/dev
ln -s usr/lib $jail/lib
ln -s usr/lib64 $jail/lib64
cp "$top/build/selftests/nsresolve" $jail/nsresolve
if ! { mount --rbind /sys $jail/sys && mount --bind /usr $jail/usr &&
	mount --bind /dev $jail/dev && mount -t proc proc $jail/proc; }; then
	echo "FAILED: the jail's mounts (sys, usr, dev, proc)"
	failed=1
elif ! insmod "$broken"; then
	echo "FAILED: the broken walker did not load"
	failed=1
else
	cat >$s/workload.sh <<EOF
chroot $jail /nsresolve /.. >$s/single 2>&1
echo \$? >$s/single.rc
printf '/..\n/\n/nsresolve\n' | chroot $jail /nsresolve --batch - >$s/batch 2>&1
echo \$? >$s/batch.rc
EOF
	timeout -k 10 120 bpftrace "$top/tools/bpftrace/ns-mismatch.bt" \
		-c "/bin/sh $s/workload.sh" >$s/bt 2>&1
	echo "bpftrace exit $?"
	check "nsresolve exits 1 on a mismatch" [ "$(cat $s/single.rc)" = 1 ]
	check "nsresolve shows the verdict mismatch" has $s/single '^verdict mismatch$'
	check "nsresolve --batch exits 1 on a mismatch" [ "$(cat $s/batch.rc)" = 1 ]
	check "nsresolve --batch counts one mismatch of three" batch_counts
	check "nsresolve --batch lists the mismatched path" has $s/batch \
		'^mismatch n=1 line=1 shadow=0 kernel=0 path=/\.\.$'
	check "ns-mismatch.bt prints the mismatch as it happens" has $s/bt \
		'^[0-9]+ +[0-9]+ +nsresolve +[-0-9]+ +0 +(rcu|ref) +.* /\.\.$'
	check "ns-mismatch.bt counts it" has $s/bt '^@verdicts\[mismatch\]: 2$'
	check "mount_lock moved in the RCU walk of a mismatch: started again, still a mismatch" \
		mount_seq_mismatch
	check "live mode: a program's own lookup mismatched, logged, and printed by ns-live.bt" \
		live_mismatch
	rename_loop &
	renamer=$!
	mount_loop &
	mounter=$!
	sleep 3		# python3 starting, under TCG
	yes /.. | head -n 2000 | chroot $jail /nsresolve --batch - >$s/churn 2>&1
	check "the rename and mount loops ran throughout, and changed things" loops_ran
	check "2,000 mismatches under unrelated renames and mounts, none raced" churn_counts
	rmmod namei_shadow || { echo "FAILED: rmmod"; failed=1; }
fi

umount $jail/proc
umount $jail/dev
umount $jail/usr
umount -R $jail/sys
umount $s || { echo "FAILED: umount $s"; failed=1; }
exit $failed
