#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-summary.sh - count the test results in TAP/KTAP on stdin.
# Prints "PASSED FAILED SKIPPED".  Top-level result lines only: "ok N"
# (with "# SKIP" a skip), "not ok N" (always a failure, even with a
# directive).  Diagnostics and other lines are ignored.

awk '
/^not ok [0-9]+/ { f++; next }
/^ok [0-9]+.*# *SKIP/ { s++; next }
/^ok [0-9]+/ { p++; next }
END { printf "%d %d %d\n", p, f, s }
'
