#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the whole test suite (make check).
#
# Installs what is missing (apt-get), fetches the supported kernels,
# builds the module for each kernel and the selftests (installed as
# kselftest installs them), boots each kernel in the VM and runs the
# suite there through run_kselftest.sh -- the three Debian kernels and
# their harness tests, make bench's smoke run, the packaging (make deb,
# DKMS on every kernel, the .deb in Debian roots: tools/package-test.sh),
# then the debug kernel (built once, cached: in the background from the
# start) and its own, with the static checks beside its suite.
#
# NS_KERNELS picks the kernels (make check-debug: the debug kernel
# only); NS_STATIC=0 leaves out the static checks.  Every result is a
# TAP line; the last line is "N passed, N failed, N skipped" over
# everything, every kernel.

set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
logs=$top/build/logs
mkdir -p "$logs"
# the kernels each track ships now (a line where one has moved on)
"$top/tools/tracks.sh" >"$logs/tracks.log" && ns_set_kernels
kernels=${NS_KERNELS:-$NS_KERNELS_DEFAULT $NS_DEBUG_KERNEL}
total_p=0 total_f=0 total_s=0
t0=$(date +%s)

# stage NAME COMMAND...: run a stage, show its TAP, add up its results.
# A stage that fails without a failing TAP line counts as one failure.
stage() {
	local name=$1 log=$logs/$1.log rc p f s
	shift
	echo "# ---- $name"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	read -r p f s < <("$top/tools/tap-summary.sh" <"$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - $name failed (exit $rc), see $log"
		f=1
	fi
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
	echo "# $name: $p passed, $f failed, $s skipped ($(($(date +%s) - t0))s so far)"
	return "$rc"
}

deps() {
	"$top/tools/install-deps.sh" && echo "ok 1 deps: the packages the tools need"
}

prepare() {
	sed 's/^/# track /' "$logs/tracks.log"
	"$top/tools/fetch-kernel.sh" $debian >/dev/null &&
	tracks_replace_stale &&
	"$top/tools/ksource.sh" >/dev/null &&
	make -s -C "$top/selftests" OUTPUT="$top/build/selftests" install \
		INSTALL_PATH="$top/build/kselftest" >/dev/null &&
	echo "ok 2 prepare: kernels, kselftest files, selftests built and installed"
}

# A track whose recorded release has left it (one that never was, here)
# is given the release the track ships now, with a line saying so.
tracks_replace_stale() {
	local rec now out
	rec=$(mktemp) || return 1
	echo "bookworm-6.12 6.12.1+deb12-amd64" >"$rec"
	now=$(ns_track_release bookworm-6.12)
	out=$(NS_TRACKS=bookworm-6.12 NS_TRACKS_RC= NS_TRACKS_FILE=$rec "$top/tools/tracks.sh" 2>&1)
	if [ "$out" = "namei-shadow: track bookworm-6.12: Debian ships $now now; 6.12.1+deb12-amd64 has left the track, $now takes its place
bookworm-6.12 $now" ] && [ "$(cat "$rec")" = "bookworm-6.12 $now" ]; then
		echo "ok 1 prepare: a track's release that left the archive is replaced by its current one, with a line saying so"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok 1 prepare: a track's stale release replaced by its current one"
	fi
	rm -f "$rec"
}

# The suite as a user runs it: installed (prepare), by kselftest's own
# runner, run_kselftest.sh, in the VM (tools/ksft-guest.sh).
suite() {
	local rel=$1
	"$top/tools/build-module.sh" "$rel" >/dev/null || return 1
	local limit=600
	[ "$rel" = "$NS_DEBUG_KERNEL" ] && limit=2400	# KASAN+lockdep under TCG
	"$top/tools/vm-run.sh" -k "$rel" -t "$limit" \
		bash "$top/tools/ksft-guest.sh" "$top/build/kselftest" "$top/build/$rel/module"
}

# The debug kernel is built (once; then it is cached) in the background
# from the start, at the lowest priority: the VM suites of the Debian
# kernels leave most of a core idle, and the build takes that instead of
# twenty minutes of its own.  debug_kernel waits for it.
debug_build_log=$logs/debug-kernel-build.log
start_debug_build() {
	nice -n 19 "$top/tools/build-debug-kernel.sh" >"$debug_build_log" 2>&1 &
	debug_pid=$!
	trap 'kill "$debug_pid" 2>/dev/null' EXIT
}

debug_kernel() {
	grep -v '^/' "$debug_build_log"
	[ "$debug_rc" = 0 ] &&
	echo "ok 1 debug kernel $NS_DEBUG_KERNEL built and cached"
}

debian=
has_debug=
for rel in $kernels; do
	if [ "$rel" = "$NS_DEBUG_KERNEL" ]; then has_debug=1; else debian="$debian $rel"; fi
done

# make bench, once, small (tmpfs only, 20 walks a cell, one repeat), on
# the primary kernel: the matrix runs, every cell's walkers gave the same
# answer, the table and the plot are written.  Speed is not tested.
bench_smoke() {
	local table=$top/build/bench/table.txt cells
	"$top/tools/bench.sh" -q -k "$NS_PRIMARY_KERNEL" -n 20 -r 1 >/dev/null || {
		echo "not ok 1 make bench (small) failed"; return 1; }
	cells=$(grep -c -E '^(tmpfs|9p) ' "$table")
	if [ "$cells" -lt 20 ]; then
		echo "not ok 1 make bench: $cells cells in its table, 20 or more expected"
	elif grep -q DIFFER "$table"; then
		grep DIFFER "$table" | sed 's/^/# /'
		echo "not ok 1 make bench: the walkers answered a cell differently"
	elif [ ! -s "$top/build/bench/bench-$NS_PRIMARY_KERNEL.svg" ] ||
	     ! grep -q 'against depth' "$top/build/bench/bench-$NS_PRIMARY_KERNEL.txt"; then
		echo "not ok 1 make bench: no plot (SVG and text)"
	else
		echo "ok 1 make bench (small): $cells cells, the same answers, a table and a plot"
		return 0
	fi
	return 1
}

# The static checks use no VM.  With the debug kernel, they run beside
# its suite, at the lowest priority: that VM keeps about 1.35 of the 2
# cores busy for 23 minutes, and the checks take the rest.  Run first,
# they took their CPU from the debug kernel's build, which that suite
# waits for.  Their stage is shown after the debug kernel's.
static_log=$logs/static.bg.log
static_start() {
	nice -n 19 "$top/tools/check-static.sh" >"$static_log" 2>&1 &
	static_pid=$!
	trap 'kill "$debug_pid" "$static_pid" 2>/dev/null' EXIT
}
static_shown() {	# (waited for by checks: stage runs this in a pipe)
	cat "$static_log"
	rm -f "$static_log"
	return "$static_rc"
}

# Everything after the packages and the kernels, in the order given.
checks() {
	local static=
	[ "${NS_STATIC:-1}" = 0 ] || static=1
	[ -n "$static" ] && [ -z "$has_debug" ] && stage static "$top/tools/check-static.sh"
	for rel in $debian; do
		stage "suite-$rel" suite "$rel"
	done
	case " $kernels " in
	*" $NS_PRIMARY_KERNEL "*)
		# the primary first; the broken walker is tried on each Debian kernel
		others=()
		for rel in $debian; do
			[ "$rel" = "$NS_PRIMARY_KERNEL" ] || others+=("$rel")
		done
		stage harness "$top/tools/harness-test.sh" "$NS_PRIMARY_KERNEL" "${others[@]}"
		stage bench bench_smoke
		stage package "$top/tools/package-test.sh" ;;
	esac
	if [ -n "$has_debug" ]; then
		wait "$debug_pid"
		debug_rc=$?
		[ -n "$static" ] && static_start
		if stage debug-kernel debug_kernel; then
			stage "suite-$NS_DEBUG_KERNEL" suite "$NS_DEBUG_KERNEL"
			stage harness-debug "$top/tools/harness-test.sh" --debug "$NS_DEBUG_KERNEL"
		fi
		if [ -n "$static" ]; then
			wait "$static_pid"
			static_rc=$?
			stage static static_shown
		fi
	fi
}

if stage deps deps; then
	# the debug kernel's build needs only the packages: it starts first
	[ -n "$has_debug" ] && start_debug_build
	# and the package stage's Debian roots (made once, then cached),
	# mostly downloads and unpacking: its stage waits for them
	case " $kernels " in *" $NS_PRIMARY_KERNEL "*)
		"$top/tools/package-test.sh" --roots >"$logs/package-roots.log" 2>&1 & ;;
	esac
	stage prepare prepare && checks
fi

echo "# make check: $(($(date +%s) - t0))s on $(nproc) cores, logs in $logs"
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" = 0 ] && [ "$total_p" -gt 0 ]
