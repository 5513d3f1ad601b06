# SPDX-License-Identifier: GPL-2.0
#
# ns_module.sh - sourced by the suite's scripts: kselftest's KTAP
# helpers, and which namei_shadow to load.  NS_KO names a .ko to insmod
# (make check's, built for the kernel under test); without it, the
# installed module is loaded with modprobe (the -dkms package's).

# ktap_helpers.sh: installed beside this directory, or in NS_KSFT_DIR
# (the kselftest tree, when run by make run_tests from the build tree)
. "${NS_KSFT_DIR:-$(dirname "$0")/..}/kselftest/ktap_helpers.sh"

ns_loaded() { grep -q '^namei_shadow ' /proc/modules; }

# ns_load [PARAM=VALUE...]: load namei_shadow with these parameters
ns_load() {
	if [ -n "${NS_KO:-}" ]; then
		insmod "$NS_KO" "$@"
	else
		modprobe namei_shadow "$@"
	fi
}

ns_unload() { rmmod namei_shadow; }

# the .ko ns_load loads
ns_ko() {
	if [ -n "${NS_KO:-}" ]; then
		echo "$NS_KO"
	else
		modinfo -n namei_shadow
	fi
}
