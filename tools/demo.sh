#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# demo.sh KO - what make run shows, inside the VM.
set -e
dir=/sys/kernel/debug/namei_shadow
echo "== guest kernel $(uname -r)"
echo "== insmod $1"
insmod "$1"
echo "== ls $dir"
ls -l "$dir"
echo "== cat $dir/features"
cat "$dir/features"
echo "== rmmod namei_shadow"
rmmod namei_shadow
dmesg | grep 'namei_shadow:' | sed 's/^/dmesg: /'
