#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# package-test.sh - make check's tests of the packaging (TAP): the way a
# Debian user installs namei_shadow, on every supported kernel.
#
#  - make deb: the source package and namei-shadow-dkms's .deb, lintian
#    clean (tools/make-deb.sh);
#  - dkms on the host, from make dkms-source, for each kernel the host
#    can build for (add, build, install with --kernelsourcedir, into a
#    tree of build/package's, never the host's /lib/modules);
#  - the .deb installed with dpkg in a Debian root that has a kernel's
#    headers (bookworm: 6.12; sid: 7.2), whose DKMS builds the module;
#    then, in the bookworm root, 6.1's headers installed after it: DKMS
#    builds the module for the new kernel too;
#  - each kernel booted in the VM, the root it was built in chrooted
#    into: modprobe, modinfo, run_kselftest.sh (tools/package-guest.sh).
#
# Each step's failure is a "not ok" line; the roots are cached copies
# of Debian roots made once (tools/debian-root.sh).  With --roots, only
# makes those (make check starts that early, in the background).

set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/package
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
bookworm=$(ns_track_release bookworm-6.12) added=$(ns_track_release bookworm)
sid=$(ns_track_release sid)

# The Debian roots the .deb goes into, "NAME SUITE PACKAGES": 6.1's
# headers, added later, need their compiler's package; sid's, the
# kernel, as on a machine that runs it (without its modules.dep, sid's
# dkms installs the module but leaves depmod undone).
roots=("bookworm host dkms,linux-headers-$bookworm,linux-compiler-gcc-12-x86"
       "sid sid dkms,linux-headers-$sid,linux-image-$sid")
base_root() {	# NAME: its cached root, made where missing
	local r name suite pkgs
	for r in "${roots[@]}"; do
		read -r name suite pkgs <<<"$r"
		[ "$name" = "$1" ] || continue
		"$top/tools/debian-root.sh" "roots/pkg-$name" "$suite" "$pkgs"
		return
	done
	return 1
}
if [ "${1:-}" = --roots ]; then
	for r in "${roots[@]}"; do
		base_root "${r%% *}" >/dev/null || exit 1
	done
	exit 0
fi

result() {	# STATUS DESCRIPTION [LOG]: on failure, LOG's end
	ns_result "$1" "package: $2" && return
	[ -n "${3:-}" ] && tail -n 40 "$3" | sed 's/^/# /'
}

# in_root ROOT COMMAND...: COMMAND chrooted in ROOT, with /proc and /dev
in_root() {
	local root=$1
	shift
	unshare -m --propagation private sh -c 'r=$1; shift
		mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" &&
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"' \
		in_root "$root" "$@"
}

built_in() {	# ROOT RELEASE: DKMS built and installed the module there
	# (compressed as the kernel's own modules are: .ko.xz on 6.12)
	compgen -G "$1/lib/modules/$2/updates/dkms/namei_shadow.ko*" >/dev/null &&
	in_root "$1" dkms status -m namei-shadow -v "$ver" -k "$2" | grep -q ': installed'
}

rm -rf --one-file-system "$out"
mkdir -p "$out"

deb=$("$top/tools/make-deb.sh" 2>"$out/make-deb.log" | tail -n 1)
result $? "make deb: namei-shadow $ver, source and namei-shadow-dkms, lintian clean" "$out/make-deb.log"

# dkms on the host, for the kernels the host builds for itself
tree=$out/dkms-host
dkms_host() {
	local rel=$1 opts
	opts=(--dkmstree "$tree/var" --sourcetree "$tree/src" --installtree "$tree/lib/modules"
	      -m namei-shadow -v "$ver" -k "$rel" --kernelsourcedir "$(ns_kdir "$rel")")
	mkdir -p "$tree/lib/modules/$rel" &&
	dkms build "${opts[@]}" && dkms install --no-depmod "${opts[@]}" &&
	depmod -b "$tree" "$rel" &&
	[ "$(modinfo -b "$tree" -k "$rel" -F version namei_shadow)" = "$ver" ]
}
mkdir -p "$tree/var" &&
make -s -C "$top" dkms-source DESTDIR="$tree/src/namei-shadow-$ver" >"$out/dkms-host.log" 2>&1 &&
dkms add --dkmstree "$tree/var" --sourcetree "$tree/src" --installtree "$tree/lib/modules" \
	-m namei-shadow -v "$ver" >>"$out/dkms-host.log" 2>&1
result $? "dkms add, from make dkms-source" "$out/dkms-host.log"
host_rels=()
for rel in $NS_KERNELS_DEFAULT; do
	[ -z "$("$top/tools/build-root.sh" "$rel")" ] || continue
	host_rels+=("$rel")
	dkms_host "$rel" >>"$out/dkms-host.log" 2>&1
	result $? "dkms build and install for $rel on the host (--kernelsourcedir)" "$out/dkms-host.log"
done

# root_with_deb NAME: a copy of the cached Debian root NAME with the
# .deb installed by dpkg; prints its directory
root_with_deb() {
	local base copy=$out/root-$1
	base=$(base_root "$1") || return 1
	cp -a "$base" "$copy" && cp "$deb" "$copy/tmp/" &&
	in_root "$copy" dpkg -i "/tmp/${deb##*/}" >&2 &&
	echo "$copy"
}

bw=$(root_with_deb bookworm 2>"$out/root-bookworm.log")
built_in "$bw" "$bookworm"
result $? "dpkg -i the .deb in a bookworm root with $bookworm's headers: DKMS builds it" "$out/root-bookworm.log"

debs=()
for p in "linux-headers-$added" "$(ns_headers_dep "$added" linux-kbuild-)" \
	 "$(ns_headers_dep "$added" linux-headers-)"; do
	debs+=("$(compgen -G "$NS_CACHE/debs/${p}_*.deb" | head -n 1)")
done
cp "${debs[@]}" "$bw/tmp/" && in_root "$bw" sh -c 'dpkg -i /tmp/linux-*.deb' >"$out/root-bookworm-added.log" 2>&1 &&
built_in "$bw" "$added"
result $? "then $added's headers installed: DKMS builds it for the new kernel" "$out/root-bookworm-added.log"

sr=$(root_with_deb sid 2>"$out/root-sid.log")
built_in "$sr" "$sid"
result $? "dpkg -i the .deb in a sid root with $sid's headers: DKMS builds it" "$out/root-sid.log"

# the installed suite, in each root, for run_kselftest.sh there
for r in "$bw" "$sr"; do
	[ -d "$r" ] && mkdir -p "$r/opt" && cp -a "$top/build/kselftest" "$r/opt/kselftest"
done

for rel in $NS_KERNELS_DEFAULT; do
	case "$rel" in "$sid") root=$sr ;; *) root=$bw ;; esac
	t=
	case " ${host_rels[*]} " in *" $rel "*) t=$tree ;; esac
	"$top/tools/vm-run.sh" -k "$rel" -t 300 bash "$top/tools/package-guest.sh" "$ver" "$root" $t \
		>"$out/vm-$rel.log" 2>&1
	rc=$?
	# the guest's own results, nested under this one
	sed -n 's/^\(not \)\{0,1\}ok [0-9]* /# &/p' "$out/vm-$rel.log"
	result $rc "in the VM on $rel: modprobe, modinfo, run_kselftest.sh" "$out/vm-$rel.log"
done
exit $ns_failed
