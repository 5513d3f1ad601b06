#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh [-k RELEASE] [-t SECONDS] [-m MiB] [--] COMMAND [ARG...]
#
# Boots RELEASE (default: the primary kernel) in QEMU with the host root
# shared read-only over 9p, runs COMMAND inside, in the current
# directory, and exits with its status.  The command's output comes
# back out of band on the guest's ttyS1 and is printed on stdout.
#
# The run fails (non-zero, with a "vm-run: FAIL" line on stderr) when
# the guest log shows a panic, oops, BUG, WARNING, lockdep or RCU
# splat (tools/splat-patterns), when the guest outlives the timeout,
# or when no exit status came back; a splat made while the kernel
# booted, before the command ran, is named as such.  Exit codes: the
# command's own, or 124 timeout, 125 splat, 126 no exit status, 127 setup error.
#
# Environment: NS_ACCEL=auto|tcg|kvm (auto: KVM only where a probe boot
# has shown it works), NS_KEEP_RUNS=1|0 keeps or removes the run
# directory (default: kept when the run failed), NS_APPEND
# adds kernel parameters.

set -euo pipefail
. "$(dirname "$0")/lib.sh"
tools=$(cd "$(dirname "$0")" && pwd)

rel=$NS_PRIMARY_KERNEL
timeout=300
mem=2048
while getopts "k:t:m:" opt; do
	case $opt in
	k) rel=$OPTARG ;;
	t) timeout=$OPTARG ;;
	m) mem=$OPTARG ;;
	*) exit 127 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: vm-run.sh [-k RELEASE] [-t SECONDS] [-m MiB] [--] COMMAND [ARG...]" >&2; exit 127; }

kdir=$(ns_kernel_dir "$rel")
vmlinuz=$kdir/root/boot/vmlinuz-$rel
[ -f "$vmlinuz" ] || { ns_log "no kernel $vmlinuz: run tools/fetch-kernel.sh $rel"; exit 127; }
command -v qemu-system-x86_64 >/dev/null || { ns_log "qemu-system-x86_64 missing: apt-get install qemu-system-x86"; exit 127; }

# The initramfs depends on the kernel's modules and on vm-init.
initrd=$kdir/initramfs.gz
if [ ! -f "$initrd" ] || [ "$tools/vm-init" -nt "$initrd" ] || [ "$tools/mkinitramfs.sh" -nt "$initrd" ]; then
	"$tools/mkinitramfs.sh" "$rel" "$initrd" || exit 127
fi

mkdir -p "$NS_CACHE/runs"
run=$(mktemp -d "$NS_CACHE/runs/run.XXXXXX")
cleanup() {
	local keep_runs=${NS_KEEP_RUNS:-${failed:-1}}
	if [ "$keep_runs" = 1 ]; then
		ns_log "run directory kept: $run"
	else
		rm -rf "$run"
	fi
}
trap cleanup EXIT

# The command, as a script the guest reads over 9p.
{
	printf '#!/bin/sh\n'
	printf '%q ' "$@" | sed 's/^/exec /'
	printf '\n'
} >"$run/cmd.sh"

accel_args() {
	case "${NS_ACCEL:-auto}" in
	tcg) echo "-accel tcg -cpu max" ;;
	kvm) echo "-accel kvm -cpu host" ;;
	auto)
		if [ "$("$tools/kvm-probe.sh")" = kvm ]; then
			echo "-accel kvm -cpu host"
		else
			echo "-accel tcg -cpu max"
		fi ;;
	*) ns_log "NS_ACCEL must be auto, tcg or kvm"; exit 127 ;;
	esac
}
accel=$(accel_args)

# Directories under /tmp or /run that the guest must still see.
keep=
for dir in "$PWD" "$run" "$NS_CACHE"; do
	case "$dir" in /tmp/*|/run/*) keep=$keep${keep:+:}$dir ;; esac
done

append="console=ttyS0 loglevel=5 panic=-1 panic_on_warn=1 oops=panic"
append="$append ns_script=$run/cmd.sh ns_cwd=$PWD ns_kroot=$kdir/root"
[ -n "$keep" ] && append="$append ns_keep=$keep"
# Under TCG the guest's TSC is the host's rdtsc, and this host (itself a
# VM, booted tsc=unstable) can jump it: a debug-kernel run once saw the
# TSC leap 13378 s against hpet's 0.48 s, and reported a soft lockup
# "stuck for 12462s" and an RCU stall that were the jump.  The guest
# keeps time by hpet instead, and sched_clock filters the TSC.
case "$accel" in *tcg*) append="$append tsc=unstable" ;; esac
# Parameters a kernel needs to boot here (the debug kernel's pci=noacpi).
[ -f "$kdir/cmdline" ] && append="$append $(cat "$kdir/cmdline")"
[ -n "${NS_APPEND:-}" ] && append="$append $NS_APPEND"

boot() {
	start=$(date +%s.%N)
	set +e
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$timeout" qemu-system-x86_64 $accel \
		-m "$mem" -smp 2 -nodefaults -display none -no-reboot -monitor none \
		-serial "file:$run/console.log" -serial "file:$run/result.log" \
		-kernel "$vmlinuz" -initrd "$initrd" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-append "$append" </dev/null >"$run/qemu.log" 2>&1
	qrc=$?
	set -e
}

# The line vm-init prints as the command starts: a splat before it is
# the kernel's own, made while it booted.
command_started() {
	tr -d '\r' <"$run/console.log" | grep -q '^vm-init: the command starts$'
}

# A kernel that dies before the command starts (7.2 under TCG, once:
# an int3 oops in enqueue_timer 1.1 s into the boot) has run nothing of
# ours: it is booted once more, and said so.  A second such boot fails.
boot
if ! command_started && [ "$qrc" != 124 ] && [ "$qrc" != 137 ]; then
	first=$(grep -v '^#' "$tools/splat-patterns" | grep -E -f - -m 1 "$run/console.log" || true)
	ns_log "$rel died while booting, before the command started (${first:-no splat, qemu exit $qrc}): booting once more; that boot's log is $run/console.boot1.log"
	mv "$run/console.log" "$run/console.boot1.log"
	: >"$run/result.log"
	boot
fi
elapsed=$(echo "$(date +%s.%N) - $start" | bc)

tr -d '\r' <"$run/result.log" >"$run/result.txt" 2>/dev/null || : >"$run/result.txt"
status=$(sed -n 's/^NS_VM_EXIT=\([0-9]*\)$/\1/p' "$run/result.txt" | tail -n 1)
grep -v '^NS_VM_EXIT=' "$run/result.txt" || true

fail() {
	local code=$1
	shift
	echo "vm-run: FAIL ($rel): $*" >&2
	echo "vm-run: last lines of the guest log ($run/console.log):" >&2
	tail -n 40 "$run/console.log" | tr -d '\r' | sed 's/^/  | /' >&2
	failed=1
	exit "$code"
}

# A splat before vm-init's "the command starts" is the kernel's own, made
# while it booted: named as such, with the command's first splat after it.
first_splat() {
	grep -v '^#' "$tools/splat-patterns" | grep -E -f - -m 1 "$1" || true
}
tr -d '\r' <"$run/console.log" >"$run/console.txt"
mark=$(grep -n -m 1 '^vm-init: the command starts$' "$run/console.txt" | cut -d: -f1 || true)
# no mark: the command never started, and the whole log is the boot's
[ -n "$mark" ] || mark=$(($(wc -l <"$run/console.txt") + 1))
head -n "$((${mark:-1} - 1))" "$run/console.txt" >"$run/boot.txt"
tail -n "+${mark:-1}" "$run/console.txt" >"$run/command.txt"
boot_splat=$(first_splat "$run/boot.txt")
splat=$(first_splat "$run/command.txt")
[ -n "$boot_splat" ] && fail 125 "guest log shows a splat while the kernel booted, before the command ran: $boot_splat${splat:+; in the command: $splat}"
[ -n "$splat" ] && fail 125 "guest log shows a splat: $splat"
[ "$qrc" = 124 ] || [ "$qrc" = 137 ] && fail 124 "guest still running after ${timeout}s (killed)"
[ -z "$status" ] && fail 126 "no exit status came back from the guest (qemu exit $qrc; $(tail -c 300 "$run/qemu.log"))"

failed=0
printf 'vm-run: %s: exit %s in %.1fs\n' "$rel" "$status" "$elapsed" >&2
exit "$status"
