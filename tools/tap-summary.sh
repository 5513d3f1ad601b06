#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-summary.sh - count the test results in TAP/KTAP on stdin.
# Prints "PASSED FAILED SKIPPED".  A result is "ok N" ("# SKIP": a
# skip) or "not ok N" (always a failure, even with a directive).
#
# kselftest's runner gives one top-level result per program and nests
# the program's own results, indented by "# ": where a program has
# nested results, those are counted instead of its own line, and a
# failed program with no failed result of its own (it crashed, timed
# out, bailed out) counts as one failure more.  Deeper levels and
# diagnostics are ignored.

awk '
function flush_top(failed, skipped) {
	if (np + nf + ns == 0) {
		if (failed) f++; else if (skipped) s++; else p++
	} else {
		p += np; f += nf; s += ns
		if (failed && nf == 0) f++
	}
	np = nf = ns = 0
}
/^not ok [0-9]+/ { flush_top(1, 0); next }
/^ok [0-9]+.*# *SKIP/ { flush_top(0, 1); next }
/^ok [0-9]+/ { flush_top(0, 0); next }
/^# not ok [0-9]+/ { nf++; next }
/^# ok [0-9]+.*# *SKIP/ { ns++; next }
/^# ok [0-9]+/ { np++; next }
END { printf "%d %d %d\n", p, f, s }
'
