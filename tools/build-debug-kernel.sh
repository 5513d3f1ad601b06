#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh - build the debug kernel (KASAN, lockdep,
# PROVE_RCU, DEBUG_ATOMIC_SLEEP, KMEMLEAK, ...) from Debian's
# linux-source-6.12, once, out of tree, into the kernel cache, laid out
# like an unpacked Debian kernel so the VM runner boots it the same way.
# Rebuilds only when tools/debug-kernel/debug.config changes.  Prints
# the KDIR (the O= build tree) on stdout.

set -euo pipefail
. "$(dirname "$0")/lib.sh"
tools=$(cd "$(dirname "$0")" && pwd)
fragment=$tools/debug-kernel/debug.config
rel=$NS_DEBUG_KERNEL
base=$NS_CACHE/debug-kernel
src=$base/linux-source-6.12
out=$base/build
fragments=("$fragment")
# "rt": the same kernel made PREEMPT_RT (debug-kernel/rt.config on top)
if [ "${1:-}" = rt ]; then
	fragments+=("$tools/debug-kernel/rt.config")
	rel=$NS_DEBUG_RT_KERNEL
	out=$base/build-rt
fi
kdir=$(ns_kernel_dir "$rel")
stamp=$kdir/.built
want=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$out"
	exit 0
fi

tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || ns_die "$tarball missing: apt-get install linux-source-6.12"
command -v pahole >/dev/null || ns_die "pahole missing: apt-get install dwarves"
for t in flex bison bc; do
	command -v $t >/dev/null || ns_die "$t missing: apt-get install $t"
done

t0=$(date +%s)
# extracted again when linux-source-6.12 moved on (and the name with it)
version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
if [ "$(cat "$src/.extracted" 2>/dev/null)" != "$version" ]; then
	ns_log "extracting $tarball ($version) for the debug kernel"
	rm -rf "$src"
	mkdir -p "$base"
	tar -xJf "$tarball" -C "$base"
	echo "$version" >"$src/.extracted"
fi

ns_log "configuring the debug kernel ($rel) from ${fragments[*]}"
mkdir -p "$out"
make -s -C "$src" O="$out" tinyconfig >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${fragments[@]}" >/dev/null
make -s -C "$src" O="$out" olddefconfig >&2
# Every line of the fragments must have survived (Kconfig drops what
# it cannot satisfy, silently); a later fragment's line for an option
# stands for the earlier ones'.
awk '/^(CONFIG_|# CONFIG_)/ { k = $0; sub(/^# /, "", k); sub(/[= ].*/, "", k); last[k] = $0 }
     END { for (k in last) print last[k] }' "${fragments[@]}" | while read -r line; do
	grep -qxF "$line" "$out/.config" ||
		ns_die "debug kernel config lost '$line' (a dependency is missing from $fragment)"
done

ns_log "building the debug kernel (about 12 minutes on 2 cores)"
nice -n 5 make -s -C "$src" O="$out" -j"$(nproc)" bzImage modules >"$base/build.log" 2>&1 ||
	{ tail -n 30 "$base/build.log" >&2; ns_die "debug kernel build failed, see $base/build.log"; }

[ "$(cat "$out/include/config/kernel.release")" = "$rel" ] ||
	ns_die "debug kernel release is $(cat "$out/include/config/kernel.release"), not $rel"

rm -rf "$kdir"
mkdir -p "$kdir/root/boot"
cp "$out/arch/x86/boot/bzImage" "$kdir/root/boot/vmlinuz-$rel"
make -s -C "$src" O="$out" INSTALL_MOD_PATH="$kdir/root" modules_install >&2
# Under KASAN + lockdep + TCG the ACPI PCI interrupt-link methods take
# ~15 s at boot; legacy routing avoids them (ACPI still gives SMP).
echo "pci=noacpi" >"$kdir/cmdline"
echo "$want" >"$stamp"
ns_log "debug kernel built in $(($(date +%s) - t0))s"
echo "$out"
