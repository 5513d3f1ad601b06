// SPDX-License-Identifier: GPL-2.0
/*
 * Churn: the correct walker, many requests, everything changing at once
 * -- renames, RENAME_EXCHANGE, symlink swaps, mounts, chmod and chown,
 * drop_caches -- asked by a root writer and an unprivileged one, each
 * with a thread that flips its cwd and dup2()s another directory onto
 * its at= descriptor.  Every answer must be "match" or, with evidence,
 * "raced": a "mismatch" here is a false one, the classification's bug.
 * NS_RACE_SCALE scales the number of requests (the debug kernel: 0.1).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define C		"/tmp/nsc"
#define BATCH		NS_DIR "/batch"
#define MISMATCHES	NS_DIR "/mismatches"
#define NOBODY		65534
#define AT_FD		100	/* the writers' at= descriptor, flipped */
#define OUT_MAX		(4 * 1024 * 1024)

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/*
 * C/x/{a/c/f, b/f}: a/c and b swap places; C/x/y/f renamed to g and back
 * C/l -> x/a or x/b, swapped; C/m: a tmpfs comes and goes
 * C/p (0700 <-> 0755) and C/q (owner root <-> nobody, 0700), each with f
 * C/d1, C/d2: the cwd and at= directories flipped, both with x -> ../x
 */
static void build_tree(void)
{
	enter_scratch_namespace("nsc");
	mkdir_p(C, 0755);
	mkdir_p(C "/x", 0755);
	mkdir_p(C "/x/a", 0755);
	mkdir_p(C "/x/a/c", 0755);
	mkfile(C "/x/a/c/f");
	mkdir_p(C "/x/b", 0755);
	mkfile(C "/x/b/f");
	mkdir_p(C "/x/y", 0755);
	mkfile(C "/x/y/f");
	mklink("x/a", C "/l");
	mkdir_p(C "/m", 0755);
	mkdir_p(C "/p", 0755);
	mkfile(C "/p/f");
	mkdir_p(C "/q", 0700);
	mkfile(C "/q/f");
	mkdir_p(C "/d1", 0755);
	mkdir_p(C "/d2", 0711);
	mklink("../x", C "/d1/x");
	mklink("../p", C "/d2/x");
	mkfile(C "/d2/f");
}

/* ------------------------------------------------------------------ */
/* The churners: each a process looping until killed                  */

static void exchange_once(void)
{
	syscall(SYS_renameat2, AT_FDCWD, C "/x/a/c", AT_FDCWD, C "/x/b",
		RENAME_EXCHANGE);
}

static void rename_once(void)
{
	rename(C "/x/y/f", C "/x/y/g");
	rename(C "/x/y/g", C "/x/y/f");
}

static void swap_link_once(void)
{
	symlink("x/b", C "/l.new");
	rename(C "/l.new", C "/l");
	symlink("x/a", C "/l.new");
	rename(C "/l.new", C "/l");
}

static void remount_once(void)
{
	if (!mount("nsc-flip", C "/m", "tmpfs", 0, NULL))
		umount2(C "/m", MNT_DETACH);
}

static void chmod_once(void)
{
	chmod(C "/p", 0700);
	chmod(C "/p", 0755);
}

static void chown_once(void)
{
	chown(C "/q", NOBODY, NOBODY);
	chown(C "/q", 0, 0);
}

static void drop_caches_once(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		write(fd, "2", 1);
		close(fd);
	}
	usleep(20000);
}

static pid_t start_loop(void (*body)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			body();
	}
	return pid;
}

/* ------------------------------------------------------------------ */
/* The writers                                                         */

/* Its own state, flipped under it: cwd and the at= descriptor. */
static void *flip_own_state(void *unused)
{
	int d1 = open(C "/d1", O_PATH | O_DIRECTORY);
	int d2 = open(C "/d2", O_PATH | O_DIRECTORY);

	for (;;) {
		dup2(d1, AT_FD);
		chdir(C "/d1");
		dup2(d2, AT_FD);
		chdir(C "/d2");
	}
	return NULL;
}

static const char *const requests[] = {
	"path=" C "/x/a/c/f",
	"path=" C "/x/b/f",
	"path=" C "/x/a/c/../c/../c/f",
	"mode=parent path=" C "/x/b/f",
	"path=" C "/x/y/f",
	"flags=nofollow path=" C "/x/y/g",
	"path=" C "/l/c/f",
	"path=" C "/l/f",
	"flags=nofollow path=" C "/l",
	"path=" C "/m/.",
	"path=" C "/m/..",
	"mode=mountpoint path=" C "/m",
	"path=" C "/p/f",
	"mode=open path=" C "/p/f",
	"path=" C "/q/f",
	"mode=parent path=" C "/q/f",
	"path=x/a/c/f",
	"path=x/f",
	"path=f",
	"at=100 path=x/b/f",
	"at=100 path=x/f",
	"at=100 path=f",
	"at=100 flags=empty path=",
	"mode=open at=100 path=f",
	"mode=open at=100 flags=empty path=",
	"mode=parent at=100 path=x/..",
	"path=..",
};

#define NREQ	(sizeof(requests) / sizeof(requests[0]))

struct counts {
	long requests, match, mismatch, raced, unchecked, divergent, error;
};

static void add_summary(struct counts *c, const char *out)
{
	const char *s = strstr(out, "summary ");
	struct counts b = {};

	if (!s || sscanf(s, "summary requests=%ld match=%ld mismatch=%ld raced=%ld "
			 "unchecked=%ld divergent=%ld error=%ld", &b.requests,
			 &b.match, &b.mismatch, &b.raced, &b.unchecked,
			 &b.divergent, &b.error) != 7) {
		c->error++;
		return;
	}
	c->requests += b.requests;
	c->match += b.match;
	c->mismatch += b.mismatch;
	c->raced += b.raced;
	c->unchecked += b.unchecked;
	c->divergent += b.divergent;
	c->error += b.error;
}

/*
 * Send @total requests in batches through @fd; the tallies go to @pipe
 * as one struct counts.  Runs in a process of its own (privileges may
 * have been dropped), with the thread that flips its cwd and at= fd.
 */
static void writer(int fd, long total, int pipe)
{
	char *in = malloc(65536), *out = malloc(OUT_MAX);
	struct counts c = {};
	pthread_t flipper;
	long sent = 0;
	size_t i = 0;
	int len, n;

	if (!in || !out || pthread_create(&flipper, NULL, flip_own_state, NULL))
		exit(1);
	while (sent < total) {
		for (len = 0, n = 0; n < 200 && sent + n < total; n++, i++)
			len += snprintf(in + len, 65536 - len, "%s\n",
					requests[i % NREQ]);
		sent += n;
		if (write(fd, in, len) != len) {
			c.error += n;
			continue;
		}
		len = pread(fd, out, OUT_MAX - 1, 0);
		if (len < 0) {
			c.error += n;
			continue;
		}
		out[len] = '\0';
		add_summary(&c, out);
	}
	write(pipe, &c, sizeof(c));
	exit(0);
}

static pid_t start_writer(long total, int unprivileged, int pipe)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	fd = open(BATCH, O_RDWR);
	if (fd < 0)
		exit(1);
	if (unprivileged && (setresgid(NOBODY, NOBODY, NOBODY) ||
			     setresuid(NOBODY, NOBODY, NOBODY)))
		exit(1);
	writer(fd, total, pipe);
	return 0;
}

static long scaled(long n)
{
	const char *scale = getenv("NS_RACE_SCALE");

	return scale ? (long)(n * atof(scale)) : n;
}

static void show_mismatches(void)
{
	char line[512];
	FILE *f = fopen(MISMATCHES, "r");
	int n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n++ < 200)
		fprintf(stderr, "# %s", line);
	fclose(f);
}

FIXTURE(churn) {
	int unused;
};

FIXTURE_SETUP(churn)
{
}

FIXTURE_TEARDOWN(churn)
{
}

TEST_F_TIMEOUT(churn, everything_at_once, 900)
{
	void (*churners[])(void) = {
		exchange_once, rename_once, swap_link_once, remount_once,
		chmod_once, chown_once, drop_caches_once,
	};
	pid_t pids[16], writers[2];
	struct counts total = {}, c;
	long each = scaled(50000);
	int i, n = 0, pipefd[2];
	FILE *f;

	build_tree();
	f = fopen(MISMATCHES, "w");
	ASSERT_NE(NULL, f);
	fputs("clear\n", f);
	fclose(f);
	ASSERT_EQ(0, pipe(pipefd));
	for (i = 0; i < sizeof(churners) / sizeof(churners[0]); i++)
		pids[n++] = start_loop(churners[i]);
	writers[0] = start_writer(each, 0, pipefd[1]);
	writers[1] = start_writer(each, 1, pipefd[1]);
	for (i = 0; i < 2; i++) {
		int status;

		ASSERT_EQ(writers[i], waitpid(writers[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	for (i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(sizeof(c), read(pipefd[0], &c, sizeof(c)));
		total.requests += c.requests;
		total.match += c.match;
		total.mismatch += c.mismatch;
		total.raced += c.raced;
		total.unchecked += c.unchecked;
		total.divergent += c.divergent;
		total.error += c.error;
	}
	fprintf(stderr, "# churn: %ld requests: %ld match, %ld raced, %ld unchecked, "
		"%ld mismatch, %ld error\n", total.requests, total.match, total.raced,
		total.unchecked, total.mismatch, total.error);
	if (total.mismatch)
		show_mismatches();
	EXPECT_EQ(2 * each, total.requests);
	EXPECT_EQ(0, total.mismatch);
	EXPECT_EQ(0, total.error);
	EXPECT_EQ(0, total.divergent);
	/* the churn must have touched the walks, or it proved nothing */
	EXPECT_LT(0, total.raced);
	while (!umount2(C "/m", MNT_DETACH))
		;
}

TEST_HARNESS_MAIN
