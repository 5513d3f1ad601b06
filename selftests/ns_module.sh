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

# ns_load [PARAM=VALUE...]: load namei_shadow with these parameters,
# and live mode armed with the words of NS_LIVE where it is set (the
# debug kernel's run of the suite: every load of the module arms it)
ns_load() {
	if [ -n "${NS_LIVE:-}" ]; then
		set -- "live=\"$NS_LIVE\"" "$@"
	fi
	if [ -n "${NS_KO:-}" ]; then
		insmod "$NS_KO" "$@"
	else
		modprobe namei_shadow "$@"
	fi
}

ns_unload() { rmmod namei_shadow; }

# ns_live_pause: disarm live mode where it is armed (live= at load: the
# debug kernel's run of the suite), keeping its words for
# ns_live_resume.  Live mode's walks are the shadow's too, with their
# events: a test that counts the events of its own walks pauses it.
ns_live_pause() {
	local live=/sys/kernel/debug/namei_shadow/live
	ns_live_words=$(sed -n '1s/^live armed \(.*\) pending=[0-9]*$/\1/p' $live 2>/dev/null)
	[ -z "$ns_live_words" ] || echo stop >$live
}

# ns_live_resume: arm live mode again as ns_live_pause found it
ns_live_resume() {
	[ -z "${ns_live_words:-}" ] ||
		echo "start $ns_live_words" >/sys/kernel/debug/namei_shadow/live
}

# the .ko ns_load loads
ns_ko() {
	if [ -n "${NS_KO:-}" ]; then
		echo "$NS_KO"
	else
		modinfo -n namei_shadow
	fi
}
