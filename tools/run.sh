#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the demo (make run): build namei_shadow for the primary
# kernel, boot it in the VM, load the module and show what it reports.

set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
# the primary track's release as Debian ships it now
[ -n "${NS_RUN_KERNEL:-}" ] || { "$top/tools/tracks.sh" >/dev/null; ns_set_kernels; }
rel=${NS_RUN_KERNEL:-$NS_PRIMARY_KERNEL}

"$top/tools/install-deps.sh"
"$top/tools/fetch-kernel.sh" "$rel" >/dev/null
"$top/tools/build-module.sh" "$rel" >/dev/null
make -s -C "$top/selftests" OUTPUT="$top/build/selftests"
exec "$top/tools/vm-run.sh" -k "$rel" -t 300 sh "$top/tools/demo.sh" "$top/build/$rel/module/namei-shadow.ko"
