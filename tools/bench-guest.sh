#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-guest.sh KO COUNT REPEATS [quick] - in the VM (tools/bench.sh):
# the benchmark matrix, each cell a write to the module's `bench` file;
# "quick": tmpfs only, without the batch (make check's smoke run).
# Prints one line per cell and repeat:
#   cell <fs> <series> <x> <walker> <median> <p90> <min> <runs> <err>
# for the batch, "batch <repeat> <requests> <ns>", and for live mode
#   live <workload> <setting> <repeat> <ns> <seen> <taken> <dropped>
#        <shadowed> <match> <raced> <mismatch> <unchecked>
# (setting: off; probes, armed for no task; sample=100; sample=1; the
# four take turns in each repeat, on the same warm caches).  A hot cell's
# walkers take turns on the same warm dcache; a cold cell (fs
# "<fs>-cold": ext4 and the 9p root -- tmpfs has nothing to drop) times
# one walk of each walker after drop_caches.

set -uo pipefail
ko=${1:?usage: bench-guest.sh KO COUNT REPEATS}
count=${2:-1000}
repeats=${3:-3}
quick=${4:-}
# a cold walk is one walk: more repeats for its spread
cold_repeats=$((repeats < 7 ? 7 : repeats))
B=/sys/kernel/debug/namei_shadow/bench
tree=$(cd "$(dirname "$0")/.." && pwd)	# the tree, over the 9p root
T=/tmp/bench
EV=/sys/kernel/tracing/events/namei_shadow/enable

insmod "$ko" || { echo "bench-guest: insmod $ko failed" >&2; exit 2; }

# A tree for one filesystem at @1: a 40-deep chain of d/, chained and
# nested links, a mount to cross.
make_tree() {
	local top=$1 p=$1 i
	for i in $(seq 1 40); do p=$p/d; done
	mkdir -p "$p" && : >"$top/f"
	# chained: c0 -> c1 -> ... -> cN -> f
	ln -s f "$top/c39"
	for i in $(seq 38 -1 0); do ln -s "c$((i + 1))" "$top/c$i"; done
	# nested: n0 -> d, nI -> n(I-1)/d: each body pushes the next
	ln -s d "$top/n0"
	for i in $(seq 1 39); do ln -s "n$((i - 1))/d" "$top/n$i"; done
	mkdir -p "$top/m" && mount -t tmpfs m "$top/m" && mkdir -p "$top/m/d"
}

# N components: d/d/.../d
depth_path() {
	local p=d i
	for i in $(seq 2 "$1"); do p=$p/d; done
	echo "$p"
}

# One write to `bench`: @1 the line; its walker lines printed as cell
# lines of @2 fs, @3 series, @4 x.
bench_once() {
	local line=$1 fs=$2 series=$3 x=$4 out
	exec 4<>"$B"
	if ! printf '%s' "$line" >&4; then
		echo "bench-guest: refused: $line: $(cat <&4)" >&2
		exec 4>&-
		return 1
	fi
	out=$(cat <&4)
	exec 4>&-
	echo "$out" | sed -n "s|^walker \([^ ]*\) runs=\([0-9]*\) min=\([0-9]*\) median=\([0-9]*\) p90=\([0-9]*\) max=[0-9]* err=\(.*\)\$|cell $fs $series $x \1 \4 \5 \3 \2 \6|p"
}

# One hot cell: @1 fs, @2 series, @3 x, @4 the request.
cell() {
	local r
	for r in $(seq 1 "$repeats"); do
		bench_once "count=$count $4" "$1" "$2" "$3" || return 1
	done
}

# One cold cell, as cell(): each walker walks once right after
# drop_caches -- the dentries, inodes and blocks the walk needs are gone,
# so both go through lookup_slow and the filesystem's ->lookup -- the
# shadow first, then the kernel after caches dropped again.
cold_cell() {
	local r w
	for r in $(seq 1 "$cold_repeats"); do
		for w in shadow kernel; do
			sync
			echo 3 >/proc/sys/vm/drop_caches
			bench_once "count=1 walkers=$w $4" "$1" "$2" "$3" || return 1
		done
	done
}

# The matrix on one filesystem, from a cwd on it: a walk that starts on
# the 9p root would leave RCU mode at its first name (9p revalidates),
# in the kernel as in the shadow.
series() {
	local fs=$1 top=$2 d n
	cd "$top" || return 1
	for d in 1 2 4 8 16 32; do
		cell "$fs" depth "$d" "$(depth_path "$d")"
	done
	for n in 0 1 8 39; do
		if [ "$n" = 0 ]; then
			cell "$fs" chained 0 f
			cell "$fs" nested 0 d
		else
			cell "$fs" chained "$n" "c$((40 - n))"
			cell "$fs" nested "$n" "n$((n - 1))"
		fi
	done
	for d in 1 4 16; do
		cell "$fs" dotdot "$((2 * d))" "$(depth_path "$d")$(printf '/..%.0s' $(seq 1 "$d"))"
	done
	cell "$fs" mount 2 m/d
	# the same depths from /: REF-walk after the 9p root's first name
	for d in 1 8 32; do
		cell "$fs-from-root" depth "$d" "$top/$(depth_path "$d")"
	done
	cd /
}

mkdir -p $T && mount -t tmpfs bench $T || exit 2
mkdir -p $T/tmpfs $T/ext4
make_tree $T/tmpfs
if [ -z "$quick" ]; then
	modprobe -q ${NS_KROOT:+-d "$NS_KROOT"} loop
	modprobe -q ${NS_KROOT:+-d "$NS_KROOT"} ext4
	truncate -s 64M $T/ext4.img && mkfs.ext4 -q -F $T/ext4.img &&
		mount -o loop $T/ext4.img $T/ext4 && make_tree $T/ext4 ||
		echo "bench-guest: no ext4 on a loop device: skipped" >&2
fi

series tmpfs $T/tmpfs
mountpoint -q $T/ext4 && series ext4 $T/ext4
# the 9p root, read-only: what it has
cell 9p depth 3 /usr/share/doc
cell 9p depth 5 /usr/share/doc/bash/README
# cold: after drop_caches
if [ -z "$quick" ]; then
	if mountpoint -q $T/ext4; then
		cd $T/ext4
		for d in 1 8 32; do
			cold_cell ext4-cold depth "$d" "$(depth_path "$d")"
		done
		cold_cell ext4-cold chained 8 c32
		cd /
	fi
	cold_cell 9p-cold depth 5 /usr/share/doc/bash/README
fi
# every tracepoint on: the cost of watching
if [ -z "$quick" ] && [ -w "$EV" ]; then
	echo 1 >"$EV"
	cd $T/tmpfs
	for d in 1 8 32; do
		cell tmpfs-traced depth "$d" "$(depth_path "$d")"
	done
	cd /
	echo 0 >"$EV"
fi

# batch: checked requests per second, requests of depth 8, as many as
# one write of `batch` takes (features: batch max_bytes= max_requests=),
# in one write (dd: cat would split it where its buffer ends)
req=$T/tmpfs/$(depth_path 8)
F=/sys/kernel/debug/namei_shadow/features
max_bytes=$(sed -n 's/^batch max_bytes=\([0-9]*\) .*/\1/p' $F)
max_requests=$(sed -n 's/^batch .* max_requests=\([0-9]*\)$/\1/p' $F)
n=$((max_bytes / (${#req} + 1)))
[ "$n" -le "$max_requests" ] || n=$max_requests
[ -n "$quick" ] || for r in $(seq 1 "$repeats"); do
	yes "$req" | head -n "$n" >$T/batch.in
	t0=$(date +%s%N)
	dd if=$T/batch.in of=/sys/kernel/debug/namei_shadow/batch bs=$max_bytes \
		count=1 status=none || { echo "bench-guest: the batch was refused" >&2; exit 1; }
	t1=$(date +%s%N)
	echo "batch $r $n $((t1 - t0))"
done

# Live mode on real programs' lookups: each workload timed with live
# mode off, armed for no task (comm= that no task has: the probes'
# cost alone), at sample=100 and at sample=1, the four taking turns in
# each repeat on warm caches; the counters of each armed run.
L=/sys/kernel/debug/namei_shadow/live
live_counter() { sed -n "s/^$1 \([0-9]*\)\$/\1/p" "$L"; }
live_run() {
	local name=$1 setting=$2 r=$3 words=$4 t0 t1 c
	shift 4
	case $setting in
	off) ;;
	probes) echo "start comm=ns-nobody" >"$L" || return 1 ;;
	*) echo "start $words $setting" >"$L" || return 1 ;;
	esac
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	[ "$setting" = off ] || echo stop >"$L"
	printf 'live %s %s %s %s' "$name" "$setting" "$r" "$((t1 - t0))"
	for c in seen sampled dropped shadowed verdict_match verdict_raced \
		 verdict_mismatch verdict_unchecked; do
		printf ' %s' "$(case $setting in off|probes) echo 0 ;; *) live_counter "$c" ;; esac)"
	done
	echo
}
live_workload() {
	local name=$1 words=$2 r s
	shift 2
	"$@" >/dev/null 2>&1	# warm the caches
	for r in $(seq 1 "$repeats"); do
		for s in off probes sample=100 sample=1; do
			live_run "$name" "$s" "$r" "$words" "$@" || return 1
		done
	done
}
# A checkout of 3,000 files in 30 directories, committed, at @1.
make_checkout() {
	local d i
	git init -q "$1" || return 1
	for d in $(seq -w 1 30); do
		mkdir -p "$1/src$d"
		for i in $(seq -w 1 100); do echo "$d $i" >"$1/src$d/f$i.c"; done
	done
	git -C "$1" add -A &&
	git -C "$1" -c user.name=bench -c user.email=bench@localhost commit -q -m tree
}
if [ -z "$quick" ] && [ -e "$L" ]; then
	gitc() { git -C "$1" -c safe.directory='*' status --porcelain; }
	make_checkout $T/tmpfs/repo && live_workload git-status-tmpfs comm=git gitc $T/tmpfs/repo
	if mountpoint -q $T/ext4 && cp -a $T/tmpfs/repo $T/ext4/repo; then
		live_workload git-status-ext4 comm=git gitc $T/ext4/repo
	fi
	# ls -lR by absolute names (each walk starts on the 9p root, and
	# revalidates /tmp there: a round trip to the host, for the
	# shadow's walk as for the kernel's) and by names relative to a cwd
	# on the tmpfs (no 9p in the walk)
	cp -a /usr/share/doc $T/doc
	live_workload ls-lR-tmpfs-abs comm=ls ls -lR $T/doc
	lsrel() { (cd "$1" && ls -lR .); }
	live_workload ls-lR-tmpfs-rel comm=ls lsrel $T/doc
	live_workload find-usr-9p comm=find find /usr -xdev
	dpkg_L() { dpkg-query -L $(dpkg-query -W -f '${Package} '); }
	live_workload dpkg-L-all comm=dpkg-query dpkg_L
	rm -rf $T/doc $T/tmpfs/repo
	mountpoint -q $T/ext4 && rm -rf $T/ext4/repo
fi

umount $T/tmpfs/m
mountpoint -q $T/ext4 && { umount $T/ext4/m; umount $T/ext4; }
umount $T
rmmod namei_shadow || exit 1
