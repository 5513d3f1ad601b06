#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cli_test.sh - nsresolve, the CLI (tools/nsresolve.c), in the VM (KTAP).
#
# Runs as root, loading namei_shadow if it is not loaded (ns_module.sh):
# one test unloads the module and loads it again; it is left loaded.  The
# scratch tree is a tmpfs in a private mount namespace.  nsresolve is
# built beside this script (the suite's TEST_GEN_PROGS_EXTENDED).
#
# Exit status 1 on a mismatch is not tested here: the module this suite
# loads has no mismatch to give.  The harness tests it with a walker
# broken on purpose (tools/harness-test.sh, tools/harness-mismatch.sh).

set -u
. "$(dirname "$0")/ns_module.sh"

# Everything below runs in a private mount namespace of its own.
if [ -z "${NS_CLI_PRIVATE:-}" ]; then
	NS_CLI_PRIVATE=1 exec unshare -m --propagation private bash "$0" "$@"
fi

ns=$(cd "$(dirname "$0")" && pwd)/nsresolve
dir=/sys/kernel/debug/namei_shadow
S=/tmp/nscli
py=$(command -v /usr/bin/python3 || command -v python3)
out=
rc=

stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$dir/stats"; }
# nsresolve's output and status, stderr included
run() { out=$("$ns" "$@" 2>&1); rc=$?; }
show() { printf '%s\n' "$out" | sed 's/^/# | /'; echo "# exit status $rc"; }
result() {	# DESC OK: a test line; on failure, what nsresolve said
	if [ "$2" = 0 ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
		show
	fi
}

ktap_print_header
ktap_set_plan 35

[ -x "$ns" ] || ktap_exit_fail_msg "no $ns: make -C selftests builds it"
ns_loaded || ns_load || ktap_exit_fail_msg "namei_shadow is not loaded, and loading $(ns_ko) failed"
[ -n "$py" ] || ktap_exit_fail_msg "no python3 for the JSON checks"

# ------------------------------------------------------------------
# The scratch tree
#
#   S/dir/file   S/rel -> dir/file   S/abs -> /tmp/nscli/dir/file
#   S/c1 -> c2 -> c3 -> dir/file     S/ln -> dir
#   S/nest -> ln/../ln/file          S/mnt: a tmpfs holding inside
#   S/sp ace/a\b, S/nl<newline>name, S/<0xff>, S/123: names to get back
umask 022
mkdir -p "$S" && mount -t tmpfs -o mode=0755 nscli "$S" ||
	ktap_exit_fail_msg "cannot mount the scratch tmpfs"
mkdir "$S/dir" "$S/mnt" "$S/sp ace"
touch "$S/dir/file" "$S/sp ace/a\\b" "$S/nl
name" "$S/$(printf '\377')" "$S/123"
ln -s dir/file "$S/rel"
ln -s "$S/dir/file" "$S/abs"
ln -s c2 "$S/c1"
ln -s c3 "$S/c2"
ln -s dir/file "$S/c3"
ln -s dir "$S/ln"
ln -s ln/../ln/file "$S/nest"
mount -t tmpfs -o mode=0755 nsclimnt "$S/mnt" && touch "$S/mnt/inside" ||
	ktap_exit_fail_msg "cannot mount the scratch mount"
cd "$S" || exit 1

# namei -l's first columns for a real file, from stat(1): an oracle of
# the mode and owner fields independent of the module.
cols() { stat -c '%A %U %G' "$1"; }

# check_tree DESC EXPECTED ARG...: the tree (the lines before "walk")
# must be EXPECTED, the verdict match, the exit status 0.
check_tree() {
	local desc=$1 expected=$2 tree
	shift 2
	run --color=never "$@"
	tree=$(printf '%s\n' "$out" | sed '/^walk /,$d')
	if [ "$rc" = 0 ] && [ "$tree" = "$expected" ] &&
	   printf '%s\n' "$out" | grep -qx 'verdict match'; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
		diff <(printf '%s\n' "$expected") <(printf '%s\n' "$tree") | sed 's/^/# /'
		show
	fi
}

check_tree "tree: a relative link" "f: rel
drwxr-xr-x root root .
lrwxrwxrwx root root rel -> dir/file
drwxr-xr-x root root   dir
-rw-r--r-- root root   file" rel

check_tree "tree: an absolute link jumps to the root and crosses two mounts" "f: abs
drwxr-xr-x root root .
lrwxrwxrwx root root abs -> /tmp/nscli/dir/file
$(cols /tmp)   tmp [mount]
drwxr-xr-x root root   nscli [mount]
drwxr-xr-x root root   dir
-rw-r--r-- root root   file" abs

check_tree "tree: a chain of links stays at one level" "f: c1
drwxr-xr-x root root .
lrwxrwxrwx root root c1 -> c2
lrwxrwxrwx root root   c2 -> c3
lrwxrwxrwx root root   c3 -> dir/file
drwxr-xr-x root root   dir
-rw-r--r-- root root   file" c1

check_tree "tree: a link inside a link body nests, and .. in a body" "f: nest
drwxr-xr-x root root .
lrwxrwxrwx root root nest -> ln/../ln/file
lrwxrwxrwx root root   ln -> dir
drwxr-xr-x root root     dir
drwxr-xr-x root root   ..
lrwxrwxrwx root root   ln -> dir
drwxr-xr-x root root     dir
-rw-r--r-- root root   file" nest

check_tree "tree: a mount crossed down and up again" "f: mnt/../mnt/inside
drwxr-xr-x root root .
drwxr-xr-x root root mnt [mount]
drwxr-xr-x root root .. [mount up]
drwxr-xr-x root root mnt [mount]
-rw-r--r-- root root inside" mnt/../mnt/inside

# /proc/self is this nsresolve: the subshell's pid before its exec.
desc="tree: /proc/self/cwd, a magic link the kernel follows"
out=$(cd "$S/dir" && echo "pid $BASHPID" && exec "$ns" --color=never /proc/self/cwd/file 2>&1)
rc=$?
pid=$(printf '%s\n' "$out" | sed -n '1s/^pid //p')
tree=$(printf '%s\n' "$out" | sed '1d; /^walk /,$d')
expected="f: /proc/self/cwd/file
$(cols /) /
$(cols /proc) proc [mount]
lrwxrwxrwx root root self -> $pid
dr-xr-xr-x root root   $pid
drwxr-xr-x root root cwd [magic: followed by the kernel]
-rw-r--r-- root root file"
if [ "$rc" = 0 ] && [ "$tree" = "$expected" ] && printf '%s\n' "$out" | grep -qx 'verdict match'; then
	ktap_test_pass "$desc"
else
	ktap_test_fail "$desc"
	diff <(printf '%s\n' "$expected") <(printf '%s\n' "$tree") | sed 's/^/# /'
	show
fi

check_tree "tree: a missing component shows its error, as namei does" "f: dir/nothing/file
drwxr-xr-x root root .
drwxr-xr-x root root dir
                     nothing - No such file or directory (-ENOENT)" dir/nothing/file

# The lines after the tree: the walk, both answers, the verdict.
run --color=never rel
printf '%s\n' "$out" | sed -n '/^walk /,$p' | {
	read -r walk && read -r shadow && read -r kernel && read -r verdict &&
	[[ $walk =~ ^walk\ mode=(rcu|ref|reval)\ unlazy=([a-z-]+@[0-9]+|none)\ restarts=[0-9]+\ steps=3\ links=1$ ]] &&
	[ "$shadow" = "shadow err=0 path=$S/dir/file type=reg" ] &&
	[ "$kernel" = "kernel err=0 path=$S/dir/file type=reg oracle=kern_path" ] &&
	[ "$verdict" = "verdict match" ] && ! read -r _
}
result "walk, shadow, kernel and verdict lines follow the tree" $?

# Two paths: two walks, a blank line between.
run --color=never rel dir/file
[ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^f: ')" = 2 ] &&
	printf '%s\n' "$out" | grep -qx ''
result "several paths: one walk each" $?

# Options become the request's keys; a refused request exits 2.
run --color=never --mode=parent --flags=directory --first=shadow dir/file
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qx "shadow err=0 path=$S/dir type=dir last=file last_type=norm"
result "--mode=parent --flags --first: the parent and its last component" $?

run --color=never --resolve=beneath ../nscli/rel
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qx "shadow err=-EXDEV" &&
	printf '%s\n' "$out" | grep -q '^walk .* scope=beneath@1 '
result "--resolve=beneath: .. out of the start is EXDEV, and the walk says where" $?

run --color=never --flags=bogus rel
[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q '^refused err=-EINVAL reason=.'
result "a request the module refuses: its reason, exit status 2" $?

# ------------------------------------------------------------------
# Colour
run --color=never rel
c_never=$(printf '%s' "$out" | grep -c $'\033')
run rel
c_pipe=$(printf '%s' "$out" | grep -c $'\033')
run --color=always rel
c_always=$(printf '%s' "$out" | grep -c $'\033')
[ "$c_never" = 0 ] && [ "$c_pipe" = 0 ] && [ "$c_always" -gt 0 ]
result "colour: never, none on a pipe (auto), always" $?

# a terminal: a devpts of our own for script(1)
tty_ok=false
mkdir -p /dev/pts 2>/dev/null
if mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts 2>/dev/null &&
   script -qec true /dev/null >/dev/null 2>&1; then
	tty_ok=true
fi
if $tty_ok; then
	out=$(TERM=xterm script -qec "$ns rel" /dev/null </dev/null 2>&1)
	tty_color=$(printf '%s' "$out" | grep -c $'\033\\[')
	out=$(TERM=xterm NO_COLOR=1 script -qec "$ns rel" /dev/null </dev/null 2>&1)
	tty_nocolor=$(printf '%s' "$out" | grep -c $'\033\\[')
	out=$(TERM=dumb script -qec "$ns rel" /dev/null </dev/null 2>&1)
	tty_dumb=$(printf '%s' "$out" | grep -c $'\033\\[')
	rc=0
	[ "$tty_color" -gt 0 ] && [ "$tty_nocolor" = 0 ] && [ "$tty_dumb" = 0 ]
	result "colour: auto on a terminal, none there with NO_COLOR or TERM=dumb" $?
else
	ktap_test_skip "colour on a terminal: no pty in this VM (devpts)"
fi

# ------------------------------------------------------------------
# JSON: one object a line, checked by python
json_check() {	# DESC PYTHON ARG...: stdin of PYTHON is the JSON lines
	local desc=$1 code=$2 perr
	shift 2
	run --json "$@"
	jrc=$rc
	perr=$(printf '%s\n' "$out" | S="$S" "$py" -c "$code" 2>&1)
	prc=$?
	if [ "$prc" = 0 ] && [ "$jrc" = "${want_rc:-0}" ]; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
		printf '%s\n' "$perr" | sed 's/^/# py: /'
		show
	fi
}

json_check "--json: request, answers, verdict, walk and every step" '
import json, os, sys
S = os.environ["S"]
objs = [json.loads(l) for l in sys.stdin]
assert len(objs) == 2, objs
o = objs[0]
assert o["request"] == {"mode": "lookup", "flags": "follow", "at": "cwd", "path": "nest"}, o["request"]
st = os.stat(S + "/dir/file")
for who in ("shadow", "kernel"):
    a = o[who]
    assert a["err"] == 0 and a["path"] == S + "/dir/file", a
    assert a["ino"] == st.st_ino and a["dev"] == "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev)), a
    assert a["type"] == "reg" and a.get("perm", "0644") == "0644", a
assert o["kernel"]["oracle"] == "kern_path"
assert o["verdict"] == "match"
w = o["walk"]
assert w["mode"] in ("rcu", "ref", "reval") and w["restarts"] >= 0 and w["links"] == 3, w
steps = o["steps"]
assert [s.get("name") for s in steps] == [None, "nest", "ln", "dir", "..", "ln", "dir", "file"], steps
assert [s["n"] for s in steps] == list(range(8)) and w["steps"] == 7
assert steps[0]["how"] == "start" and steps[0]["at"] == "cwd"
assert steps[1]["body"] == "ln/../ln/file" and steps[1]["link"] == 1
assert steps[2]["body"] == "dir" and steps[4]["how"] == "dotdot"
assert objs[1]["steps"][1].get("mounts_down") == 1, objs[1]["steps"]
' nest mnt/inside

json_check "--json: names come back as they are (space, backslash, newline, non-UTF-8, digits)" '
import json, os, sys
S = os.environ["S"]
objs = [json.loads(l) for l in sys.stdin]
want = [S + "/sp ace/a\\b", S + "/nl\nname", S + "/\udcff", S + "/123"]
got = [o["shadow"]["path"] for o in objs]
assert got == want, got
assert [o["steps"][-1]["name"] for o in objs] == ["a\\b", "nl\nname", "\udcff", "123"]
assert objs[2]["request"]["path"].encode("utf-8", "surrogateescape") == b"\xff"
assert all(o["verdict"] == "match" for o in objs)
' "sp ace/a\\b" "nl
name" "$(printf '\377')" 123

want_rc=2 json_check "--json: a refused request is its text and the error" '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
assert len(objs) == 1
o = objs[0]
assert o["request"] == "mode=lookup flags=bogus path=rel", o
assert o["error"]["err"] == "-EINVAL" and len(o["error"]["reason"]) > 5, o
assert set(o) == {"request", "error"}
' --mode=lookup --flags=bogus rel

# --raw: the module's text as a direct write to resolve gives it
exec 3<>"$dir/resolve"
for i in 1 2; do
	printf 'path=rel' >&3
	direct=$(cat <&3)
done
exec 3>&-
run --raw rel
[ "$rc" = 0 ] && [ "$out" = "$direct" ]
result "--raw: the text resolve gives, unchanged" $?

# A result longer than one read: 2000 steps of "./", the trace clipped
long=$(printf './%.0s' $(seq 2000))dir/file
exec 3<>"$dir/resolve"
printf 'path=%s' "$long" >&3
direct=$(cat <&3)
exec 3>&-
run --raw "$long"
raw_out=$out raw_rc=$rc
run --json "$long"
jrc=$rc
shown=$(printf '%s\n' "$out" | "$py" -c '
import json, sys
o = json.loads(sys.stdin.read())
w = o["walk"]
assert w["steps"] == 2002 and w["steps_shown"] < 2002, w
assert len(o["steps"]) == w["steps_shown"] + 1 and o["verdict"] == "match"
print(w["steps_shown"])' 2>&1)
run --color=never "$long"
out="$raw_rc $jrc $rc ${#direct} ${#raw_out} shown=$shown: $(printf '%s\n' "$out" | grep '^walk ')"
[ "$raw_rc" = 0 ] && [ "$jrc" = 0 ] && [ "$rc" = 0 ] && [ ${#direct} -gt 65536 ] &&
	[ "$raw_out" = "$direct" ] && [[ $out =~ steps=2002\ steps_shown=$shown\  ]]
result "a result longer than 64 KiB is read whole (${#direct} bytes)" $?

# ------------------------------------------------------------------
# Batch: 10000 generated requests, split into writes by size and count
# (4500 on the slow debug kernel, where run_tests.sh sets NS_RACE_SCALE:
# still more than one write's 4096)
N=10000
[ -n "${NS_RACE_SCALE:-}" ] && N=4500
N_ERR=$(((N - 10) / 1000 + 1))
N_UNCHECKED=$((N / 10 - N_ERR))
mkdir "$S/chain"
for d in $(seq 0 49); do
	mkdir "$S/d$d"
	for f in 0 1 2 3 4 5 6; do : >"$S/d$d/f$f"; done
done
for l in $(seq 0 19); do ln -s "d$l/f$((l % 7))" "$S/l$l"; done
ln -s ../d0/f0 "$S/chain/c0"
for c in $(seq 1 9); do ln -s "c$((c - 1))" "$S/chain/c$c"; done
gen_batch() {	# N: requests; 1 in 1000 refused, 1 in 10 unchecked
	local i
	for ((i = 0; i < $1; i++)); do
		case $((i % 10)) in
		0) echo "$S/d$((i % 50))/f$((i % 7))" ;;
		1) echo "$S/d$((i % 50))/missing$i" ;;
		2) echo "$S/l$((i % 20))" ;;
		3) echo "$S/d$((i % 50))/../d$(((i + 1) % 50))/./f1" ;;
		4) echo "mode=parent path=$S/d$((i % 50))/new$i" ;;
		5) echo "flags=nofollow path=$S/l$((i % 20))" ;;
		6) echo "/usr/bin/../lib/../etc/passwd" ;;
		7) echo "d$((i % 50))/f2/.." ;;
		8) echo "$S/chain/c$((i % 10))/../f3" ;;
		9) if [ $((i % 1000)) = 9 ]; then echo "mode=sideways path=/"
		   else echo "flags=nocheck path=$S/l1"; fi ;;
		esac
		[ $((i % 997)) = 0 ] && echo
	done
}
gen_batch $N >"$S/batch.txt"
bytes=$(stat -c %s "$S/batch.txt")
declare -A before after
for k in requests rejected verdict_match verdict_mismatch verdict_raced verdict_unchecked verdict_divergent; do
	before[$k]=$(stat_of $k)
done
t0=$(date +%s)
run --batch "$S/batch.txt"
echo "# batch of $N ($bytes bytes): $(($(date +%s) - t0))s"
for k in "${!before[@]}"; do after[$k]=$(stat_of $k); done
count() { printf "%s\n" "$out" | awk -v k="$1" 'NF == 2 && $1 == k { print $2 }'; }
delta() { echo $((after[$1] - before[$1])); }
ok=0
[ "$rc" = 0 ] || ok=1
head=$(printf '%s\n' "$out" | head -n 1)
writes=${head##*writes=}
[[ $head =~ ^batch\ requests=$N\ writes=[0-9]+$ ]] || ok=1
# at most 65536 bytes and 4096 requests a write
[ "${writes:-0}" -ge $(((bytes + 65535) / 65536)) ] &&
	[ "${writes:-0}" -ge $(((N + 4095) / 4096)) ] || ok=1
for v in match mismatch raced unchecked divergent; do
	if [ "$(count $v)" != "$(delta verdict_$v)" ]; then
		echo "# $v: nsresolve says $(count $v), stats $(delta verdict_$v)"
		ok=1
	fi
done
[ "$(count error)" = "$(delta rejected)" ] && [ "$(count error)" = $N_ERR ] || ok=1
[ "$(count unchecked)" = $N_UNCHECKED ] && [ "$(count mismatch)" = 0 ] || ok=1
[ "$(delta requests)" = $((N - N_ERR)) ] || ok=1
[ "$(printf '%s\n' "$out" | grep -c '^error n=[0-9]* line=[0-9]* err=-EINVAL reason=.')" = $N_ERR ] || ok=1
# the first refused request: input line 10 (one empty line before it)
printf '%s\n' "$out" | grep -q '^error n=10 line=11 ' || ok=1
if [ "$ok" = 0 ]; then
	ktap_test_pass "--batch: $N requests in $writes writes, counts equal the stats delta"
else
	ktap_test_fail "--batch: $N requests, counts equal the stats delta"
	for k in "${!before[@]}"; do echo "# stats $k: ${before[$k]} -> ${after[$k]}"; done
	show
fi

# --raw: the module's summary lines, one per request, and one a write
run --raw --batch "$S/batch.txt"
[ "$rc" = 0 ] &&
	[ "$(printf '%s\n' "$out" | grep -c '^n=[0-9]* verdict=')" = "$N" ] &&
	[ "$(printf '%s\n' "$out" | grep -c '^summary requests=')" = "$writes" ] &&
	printf '%s\n' "$out" | grep -q "^n=1 verdict=match shadow=0 kernel=0 mode=[a-z]* unlazy=[a-z@0-9-]* restarts=0 $(stat -c 'dev=%Hd:%Ld ino=%i' /tmp/nscli/d0/f0) path=/tmp/nscli/d0/f0\$"
result "--batch --raw: the module's lines, unchanged" $?

# from stdin, as JSON
desc="--batch - --json: stdin, and the summary as one JSON object"
out=$(printf 'rel\n\nmode=sideways path=/\n%s\n' "flags=nocheck path=$S/c1" | "$ns" --json --batch - 2>&1)
rc=$?
perr=$(printf '%s\n' "$out" | "$py" -c '
import json, sys
lines = sys.stdin.read().splitlines()
assert len(lines) == 1, lines
o = json.loads(lines[0])
assert o["requests"] == 3 and o["writes"] == 1, o
assert (o["match"], o["error"], o["unchecked"], o["mismatch"]) == (1, 1, 1, 0), o
assert len(o["listed"]) == 1 and o["listed"][0].startswith("error n=2 line=3 err=-EINVAL reason="), o
' 2>&1)
if [ "$rc" = 0 ] && [ -z "$perr" ]; then
	ktap_test_pass "$desc"
else
	ktap_test_fail "$desc"
	printf '%s\n' "$perr" | sed 's/^/# py: /'
	show
fi

# the progress line, on a terminal only
if $tty_ok; then
	gen_batch 4500 >"$S/batch2.txt"
	tty_out=$(script -qec "$ns --batch $S/batch2.txt" /dev/null </dev/null 2>&1)
	run --batch "$S/batch2.txt"
	printf '%s' "$tty_out" | grep -q $'\r4500/4500 requests, 0 mismatches' &&
		! printf '%s' "$out" | grep -q '/4500 requests'
	result "--batch: a progress line on a terminal, none elsewhere" $?
else
	ktap_test_skip "--batch progress on a terminal: no pty in this VM (devpts)"
fi

# ------------------------------------------------------------------
# Live mode: armed for one command name, a program's lookups, watched

run --live start comm=nscli-live kinds=lookup
[ "$rc" = 0 ] && grep -q '^live armed kinds=lookup .* comm=nscli-live ' $dir/live
result "--live start: armed with the words given" $?
cp "$(command -v stat)" "$S/nscli-live"
"$S/nscli-live" "$S/rel" "$S/abs" "$S/nest" >/dev/null
run --live watch --count=1
n=$(printf '%s\n' "$out" | sed -n 's/^lookups   seen \([0-9]*\) .*/\1/p')
[ "$rc" = 0 ] && [ "${n:-0}" -ge 3 ] &&
	printf '%s\n' "$out" | grep -q "^lookups   seen $n  taken $n  shadowed $n  dropped 0 " &&
	printf '%s\n' "$out" | grep -q "^verdicts  match $n  raced 0  mismatch 0  unchecked 0\$" &&
	printf '%s\n' "$out" | grep -q '^kernel    lookups begun in RCU mode [1-9][0-9]*, restarted in REF mode [0-9]* ([0-9.]*%)$'
result "--live watch --count=1: the program's lookups (its three stats among them), all match" $?
run --live start comm=nscli-live sample=0
[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q '^nsresolve: live start comm=nscli-live sample=0: refused: sample= takes N >= 1: one lookup in N (-EINVAL)$' &&
	grep -q '^live armed kinds=lookup .* comm=nscli-live ' $dir/live
result "--live start with a bad word: exit 2, the module's reason; still armed as before" $?
run --live stop
[ "$rc" = 0 ] && grep -q '^live off ' $dir/live
result "--live stop: disarmed" $?
rm -f "$S/nscli-live"

# ------------------------------------------------------------------
# Exit statuses and usage errors

usage_ok=0
for args in "" "--bogus rel" "--raw --json rel" "--mode=sideways rel" \
	    "--color=purple rel" "--at=3 rel" "--batch $S/batch.txt rel" \
	    "--batch $S/batch.txt --mode=parent" "--batch $S/none" "--live sideways" \
	    "--live watch --raw" "--count=2 rel" "--live watch --count=0"; do
	# shellcheck disable=SC2086
	run $args
	if [ "$rc" != 2 ] || ! printf '%s\n' "$out" | grep -q '^nsresolve: '; then
		echo "# nsresolve $args: exit $rc"
		show
		usage_ok=1
	fi
done
run --help
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^usage: nsresolve' || usage_ok=1
rc=0 out=
result "usage errors exit 2 with a message; --help exits 0" $usage_ok

# ------------------------------------------------------------------
# The environment: each problem named, with what to do about it
NSRESOLVE_DIR=$S/dir run rel
[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q "^nsresolve: $S/dir is not on debugfs .*mount -t debugfs none /sys/kernel/debug"
result "NSRESOLVE_DIR on a directory that is not debugfs" $?

out=$(unshare -m --propagation private sh -c 'umount -l /sys/kernel/debug && exec "$1" rel' sh "$ns" 2>&1)
rc=$?
[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q '^nsresolve: debugfs is not mounted on /sys/kernel/debug .*: mount -t debugfs none /sys/kernel/debug$'
result "debugfs not mounted" $?

out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ns" rel 2>&1)
rc=$?
out2=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ns" --batch "$S/batch.txt" 2>&1)
rc2=$?
[ "$rc" = 2 ] && [ "$rc2" = 2 ] && printf '%s\n%s\n' "$out" "$out2" | grep -c 'permission denied: .*root-only: run nsresolve as root' | grep -qx 2
result "an unprivileged user is told it needs root" $?

if rmmod namei_shadow; then
	run rel
	[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q '^nsresolve: the namei_shadow module is not loaded .*: modprobe namei_shadow$'
	result "the module not loaded" $?
	ns_load || ktap_exit_fail_msg "loading $(ns_ko) again failed"
else
	ktap_test_fail "the module not loaded: rmmod namei_shadow failed"
fi
run rel
[ "$rc" = 0 ]
result "the module loaded again: nsresolve works" $?

cd /
umount "$S/mnt" && umount "$S"
result "the scratch mounts unmount (no reference left behind)" $?
ns_loaded
result "namei_shadow is left loaded" $?
ktap_finished
