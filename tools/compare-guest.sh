#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare-guest.sh BASE.ko NEW.ko - in the VM (tools/compare-outputs.sh):
# builds a scratch tree, then loads each module in turn and records
# what it answers to one fixed set of requests; prints the differences
# and exits 1 if there are any.  Requests go to `resolve` one by one
# (as root, and as an unprivileged writer through an fd root opened),
# then all at once to `batch`; `stats` and `features` close each run.

set -uo pipefail
base_ko=${1:?usage: compare-guest.sh BASE.ko NEW.ko}
new_ko=${2:?usage: compare-guest.sh BASE.ko NEW.ko}
S=/tmp/cmp
out=/tmp/compare-out
mkdir -p "$out"

# The tree: every kind of object and crossing the walker treats apart.
build_tree() {
	mkdir -p $S && mount -t tmpfs -o mode=755 cmp $S || exit 2
	mkdir -p $S/d/sub/deep $S/noexec/in $S/mnt $S/stack $S/bsrc/sub \
		$S/jail/inner $S/sticky $S/ro $S/nosym $S/loops $S/chain
	echo data >$S/d/file
	echo data >$S/file
	: >$S/noexec/in/f
	chmod 0700 $S/noexec
	chmod 0711 $S/d/sub
	mount -t tmpfs lower $S/stack && mkdir $S/stack/lowerdir
	mount -t tmpfs upper $S/stack && mkdir $S/stack/upperdir
	mount -t tmpfs inner $S/mnt && mkdir -p $S/mnt/a/b && : >$S/mnt/a/f
	mkdir -p $S/bsrc/sub/deep && mount --bind $S/bsrc/sub $S/d/sub/deep
	mount -t tmpfs -o ro rofs $S/ro
	mount -t tmpfs -o nosymfollow nosym $S/nosym && ln -s ../file $S/nosym/l
	chmod 1777 $S/sticky
	ln -s /tmp/cmp/file $S/sticky/plink && chown -h 1000:1000 $S/sticky/plink
	mkfifo $S/fifo
	ln -s d $S/ld
	ln -s d/ $S/ldslash
	ln -s /tmp/cmp/d/file $S/labs
	ln -s nowhere $S/dangling
	ln -s mnt $S/lmnt
	ln -s / $S/lroot
	ln -s /// $S/lslashes
	ln -s . $S/ldot
	ln -s .. $S/ldotdot
	ln -s /dev/null $S/lnull
	ln -s /proc/self/cwd $S/lmagic
	ln -s a $S/loops/b && ln -s b $S/loops/a
	ln -s self $S/loops/self
	ln -s ../d $S/chain/l0
	for i in $(seq 1 40); do ln -s "l$((i - 1))" "$S/chain/l$i"; done
	ln -s l39/sub $S/chain/nested
}

paths=(
	"" "/" "." ".." "/.." "//" "/tmp/cmp" "/tmp/cmp/" "$S/d" "$S/d/" "$S/d/."
	"$S/d/.." "$S/d/file" "$S/d/file/" "$S/d/file/." "$S/d/nope" "$S/d/nope/x"
	"$S/d/sub/deep" "$S/d/sub/deep/" "$S/d/sub/deep/.." "$S/noexec/in/f"
	"$S/noexec" "$S/mnt" "$S/mnt/a/.." "$S/mnt/.." "$S/stack" "$S/stack/lowerdir"
	"$S/stack/upperdir" "$S/stack/.." "$S/ro" "$S/nosym/l" "$S/nosym/l/"
	"$S/sticky/plink" "$S/fifo" "$S/ld" "$S/ld/" "$S/ld/file" "$S/ldslash"
	"$S/ldslash/file" "$S/labs" "$S/labs/" "$S/dangling" "$S/dangling/"
	"$S/lmnt" "$S/lmnt/a" "$S/lroot" "$S/lroot/tmp" "$S/lslashes" "$S/ldot"
	"$S/ldot/ld/file" "$S/ldotdot" "$S/ldotdot/cmp/d" "$S/lnull" "$S/lmagic"
	"$S/lmagic/d" "$S/loops/a" "$S/loops/self/x" "$S/chain/l38" "$S/chain/l39"
	"$S/chain/l40" "$S/chain/l38/file" "$S/chain/l39/file" "$S/chain/nested"
	"/proc/self/fd/0" "/proc/self/cwd/d" "/proc/self/root/tmp"
	"/proc/self/net" "/dev/null" "/usr/bin/env" "/usr/lib/../bin" "/etc/passwd/"
	"d/file" "../cmp/ld/" "ld/sub/deep/.." "chain/l39"
	"$S/d/sub/deep/../../sub" "$S/$(printf 'x%.0s' $(seq 1 300))"
)
lookup_flags=("" "flags=nofollow " "flags=directory " "flags=follow,directory "
	"flags=empty " "flags=reval " "flags=nofollow,directory ")
open_flags=("" "flags=nofollow " "flags=directory " "flags=path " "flags=path,nofollow "
	"flags=creat " "flags=creat,excl " "flags=trunc " "flags=wronly "
	"flags=rdwr " "flags=creat,directory " "flags=creat,nofollow "
	"flags=wronly,trunc,nofollow ")

requests() {
	local p f m s
	for p in "${paths[@]}"; do
		for s in "" "semantics=4.2 "; do
			for m in lookup parent mountpoint; do
				for f in "${lookup_flags[@]}"; do
					echo "mode=$m $f${s}path=$p"
				done
			done
			for f in "${open_flags[@]}"; do
				echo "mode=open $f${s}path=$p"
			done
		done
		echo "at=3 path=$p"
		echo "at=3 mode=open flags=creat path=$p"
		echo "first=shadow path=$p"
	done
	for i in dseq legitimize echild-permission miss estale; do
		for n in 0 1 2 3 5; do
			echo "inject=$i@$n path=$S/ld/sub/deep/../file"
			echo "inject=$i@$n mode=open flags=creat path=$S/chain/l3/new"
		done
	done
	# refused requests: each with its reason
	printf '%s\n' "mode=bogus path=/" "flags=follow,nofollow path=/" \
		"flags=creat path=/" "at=-1 path=x" "at=+3 path=x" "bogus=1 path=/" \
		"mode=open mode=open path=/" "inject=dseq path=/" \
		"mode=lookup" "semantics=5 path=/" "first=both path=/"
}

# Three runs -- the base module twice (the first thrown away: it warms
# the dcache), then the new one -- from one process, so that every run
# sees the same /proc/self; the unprivileged requests are made with uid
# and gid 1000 as the real and effective ids, root kept only as the saved
# set-user-ID to come back by.  Outputs go to $out/<run>.<file>.  In
# python: a process per request would take minutes under TCG.
run_all() {
	python3 - "$out" "$S" "$base_ko" "$new_ko" <<'PY'
import os, subprocess, sys
out, scratch, base_ko, new_ko = sys.argv[1:]
D = "/sys/kernel/debug/namei_shadow"
reqs = open(out + "/requests", "rb").read().split(b"\n")[:-1]

def ask(fd, req):
    try:
        os.write(fd, req)
        status = b"0"
    except OSError as e:
        status = str(e.errno).encode()
    os.lseek(fd, 0, 0)
    chunks = [b"### " + req + b" (write: " + status + b")\n"]
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)

def as_user(uid):
    if uid:
        os.setgroups([])
        os.setresgid(uid, uid, 0)
        os.setresuid(uid, uid, 0)
    else:
        os.setresuid(0, 0, 0)
        os.setresgid(0, 0, 0)
        os.setgroups([0])

def save(tag, name, data):
    with open("%s/%s.%s" % (out, tag, name), "wb") as f:
        f.write(data)

def read(name):
    with open(D + "/" + name, "rb") as f:
        return f.read()

def run(ko, tag):
    subprocess.run(["insmod", ko], check=True)
    with open(D + "/stats", "w") as f:
        f.write("reset")
    d = os.open(scratch + "/d", os.O_RDONLY)
    if d != 3:
        os.dup2(d, 3)
        os.close(d)
    os.chdir(scratch)
    fd = os.open(D + "/resolve", os.O_RDWR)
    save(tag, "resolve", b"".join(ask(fd, r) for r in reqs))
    as_user(1000)
    unpriv = b"".join(ask(fd, r) for r in reqs if not r.startswith(b"inject"))
    as_user(0)
    save(tag, "unpriv", unpriv)
    os.close(fd)
    batch = b""
    for r in reqs:
        if not r.startswith(b"at=") and len(batch) + len(r) < 60000:
            batch += r + b"\n"
    fd = os.open(D + "/batch", os.O_RDWR)
    os.write(fd, batch)
    os.lseek(fd, 0, 0)
    save(tag, "batch", os.read(fd, 1 << 24))
    os.close(fd)
    os.close(3)
    for name in ("stats", "features", "mismatches"):
        save(tag, name, read(name))
    os.chdir("/")
    subprocess.run(["rmmod", "namei_shadow"], check=True)

run(base_ko, "warm")
run(base_ko, "base")
run(new_ko, "new")
PY
}

build_tree
requests >"$out/requests"
echo "$(wc -l <"$out/requests") requests"
run_all || exit 2
status=0
for f in resolve unpriv batch stats features mismatches; do
	if cmp -s "$out/base.$f" "$out/new.$f"; then
		echo "same: $f ($(wc -c <"$out/new.$f") bytes)"
	else
		echo "DIFFERENT: $f"
		diff -u "$out/base.$f" "$out/new.$f" | head -n 200
		status=1
	fi
done
# the base module's two runs: how much a warm dcache changes
for f in resolve unpriv batch; do
	cmp -s "$out/warm.$f" "$out/base.$f" ||
		echo "note: $f: $(diff "$out/warm.$f" "$out/base.$f" | grep -c '^<') lines differ between the base module's two runs"
done
umount -R $S
exit $status
