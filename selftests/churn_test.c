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
#include <sys/mman.h>
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
#define F1		C "/x/a/c/f"	/* as build_tree left them */
#define F2		C "/x/b/f"
#define DC		C "/x/a/c"
#define DB		C "/x/b"
#define FY		C "/x/y/f"

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

static int exchange_once(void)
{
	return !syscall(SYS_renameat2, AT_FDCWD, C "/x/a/c", AT_FDCWD, C "/x/b",
			RENAME_EXCHANGE);
}

static int rename_once(void)
{
	return !rename(C "/x/y/f", C "/x/y/g") && !rename(C "/x/y/g", C "/x/y/f");
}

static int swap_link_once(void)
{
	return !symlink("x/b", C "/l.new") && !rename(C "/l.new", C "/l") &&
		!symlink("x/a", C "/l.new") && !rename(C "/l.new", C "/l");
}

static int remount_once(void)
{
	return !mount("nsc-flip", C "/m", "tmpfs", 0, NULL) &&
		!umount2(C "/m", MNT_DETACH);
}

static int chmod_once(void)
{
	return !chmod(C "/p", 0700) && !chmod(C "/p", 0755);
}

static int chown_once(void)
{
	return !chown(C "/q", NOBODY, NOBODY) && !chown(C "/q", 0, 0);
}

static int drop_caches_once(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int done = fd >= 0 && write(fd, "2", 1) == 1;

	if (fd >= 0)
		close(fd);
	usleep(20000);
	return done;
}

/* Each churner's count of the changes it made, in shared memory. */
static long *changes;

static pid_t start_loop(int (*body)(void), long *made)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			if (body())
				__atomic_add_fetch(made, 1, __ATOMIC_RELAXED);
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

/*
 * The requests, and what each may answer while everything churns, as
 * the tree's layout says (build_tree): objects named by their paths
 * before the churn, errnos; the cwd and the at= descriptor are d1 or
 * d2, q and p may be closed to the unprivileged writer.
 */
enum {
	EACCES_UNPRIV = 1,	/* p or q closed to nobody */
	TMPFS_ROOT = 2,		/* the root of a tmpfs that came on m */
	ANY_LINK = 4,		/* l, remade by each swap */
};

static const struct request {
	const char *req;
	const char *objects[3];
	const char *errnos[2];
	int also;
} requests[] = {
	{ "path=" C "/x/a/c/f", { F1, F2 } },
	{ "path=" C "/x/b/f", { F1, F2 } },
	{ "path=" C "/x/a/c/../c/../c/f", { F1, F2 }, { "-ENOENT" } },
	{ "mode=parent path=" C "/x/b/f", { DC, DB } },
	{ "path=" C "/x/y/f", { FY }, { "-ENOENT" } },
	{ "flags=nofollow path=" C "/x/y/g", { FY }, { "-ENOENT" } },
	{ "path=" C "/l/c/f", { F1, F2 }, { "-ENOENT" } },
	{ "path=" C "/l/f", { F1, F2 }, { "-ENOENT" } },
	{ "flags=nofollow path=" C "/l", {}, {}, ANY_LINK },
	{ "path=" C "/m/.", { C "/m" }, {}, TMPFS_ROOT },
	{ "path=" C "/m/..", { C }, {}, TMPFS_ROOT },
	{ "mode=mountpoint path=" C "/m", { C "/m" }, {}, TMPFS_ROOT },
	{ "path=" C "/p/f", { C "/p/f" }, {}, EACCES_UNPRIV },
	{ "mode=open path=" C "/p/f", { C "/p/f" }, {}, EACCES_UNPRIV },
	{ "path=" C "/q/f", { C "/q/f" }, {}, EACCES_UNPRIV },
	{ "mode=parent path=" C "/q/f", { C "/q" }, {}, EACCES_UNPRIV },
	{ "path=x/a/c/f", { F1, F2 }, { "-ENOENT" }, EACCES_UNPRIV },
	{ "path=x/f", { C "/p/f" }, { "-ENOENT" }, EACCES_UNPRIV },
	{ "path=f", { C "/d2/f" }, { "-ENOENT" } },
	{ "at=100 path=x/b/f", { F1, F2 }, { "-ENOENT" }, EACCES_UNPRIV },
	{ "at=100 path=x/f", { C "/p/f" }, { "-ENOENT" }, EACCES_UNPRIV },
	{ "at=100 path=f", { C "/d2/f" }, { "-ENOENT" } },
	{ "at=100 flags=empty path=", { C "/d1", C "/d2" } },
	{ "mode=open at=100 path=f", { C "/d2/f" }, { "-ENOENT" } },
	/* a directory opened for reading: d2 (0711) is not nobody's to read */
	{ "mode=open at=100 flags=empty path=", { C "/d1", C "/d2" }, {}, EACCES_UNPRIV },
	{ "mode=parent at=100 path=x/..", { C "/x", C "/p" }, {}, EACCES_UNPRIV },
	{ "path=..", { C } },
};

#define NREQ	(sizeof(requests) / sizeof(requests[0]))

struct counts {
	long requests, match, mismatch, raced, unchecked, divergent, error;
	long outside;		/* answers the tree could not have given */
};

/* Each request's answers, for the root writer [0] and nobody [1]. */
static struct answers allowed[2][NREQ];

static void allow_answers(unsigned long tmpfs_root)
{
	const struct request *q;
	size_t i, k;
	int u;

	for (u = 0; u < 2; u++) {
		for (i = 0; i < NREQ; i++) {
			struct answers *a = &allowed[u][i];

			q = &requests[i];
			for (k = 0; k < 3 && q->objects[k]; k++)
				allow_object(a, q->objects[k]);
			for (k = 0; k < 2 && q->errnos[k]; k++)
				allow_errno(a, q->errnos[k]);
			if (u && (q->also & EACCES_UNPRIV))
				allow_errno(a, "-EACCES");
			if (q->also & TMPFS_ROOT)
				allow_other_fs(a, C "/m", tmpfs_root);
			if (q->also & ANY_LINK)
				allow_any_on(a, C "/l");
		}
	}
}

/*
 * The lines of one batch of @n requests, the first of them request
 * @first: each answer checked against what it may be.
 */
static void check_lines(struct counts *c, const char *out, size_t first,
			int unpriv)
{
	char line[1024], err[32], dev[32], ino[32], n[16];
	const char *p = out;
	size_t i;

	while (*p) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		field(line, "n", n, sizeof(n));
		field(line, "shadow", err, sizeof(err));
		if (!n[0] || !err[0])
			continue;
		field(line, "dev", dev, sizeof(dev));
		field(line, "ino", ino, sizeof(ino));
		i = (first + strtoul(n, NULL, 10) - 1) % NREQ;
		if (answer_allowed(&allowed[unpriv][i], err, dev,
				   strtoul(ino, NULL, 10)))
			continue;
		if (c->outside++ < 5)
			fprintf(stderr, "# %s: %s: the shadow answered what the tree cannot give: %s\n",
				unpriv ? "nobody" : "root", requests[i].req, line);
	}
}

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
static void writer(int fd, long total, int pipe, int unpriv)
{
	char *in = malloc(65536), *out = malloc(OUT_MAX);
	int d1 = open(C "/d1", O_PATH | O_DIRECTORY);
	struct counts c = {};
	pthread_t flipper;
	long sent = 0;
	size_t i = 0, first;
	int len, n;

	/* cwd and at= are d1 or d2 from the first request on */
	if (d1 < 0 || dup2(d1, AT_FD) != AT_FD || chdir(C "/d1"))
		exit(1);
	if (!in || !out || pthread_create(&flipper, NULL, flip_own_state, NULL))
		exit(1);
	while (sent < total) {
		first = i;
		for (len = 0, n = 0; n < 200 && sent + n < total; n++, i++)
			len += snprintf(in + len, 65536 - len, "%s\n",
					requests[i % NREQ].req);
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
		check_lines(&c, out, first, unpriv);
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
	writer(fd, total, pipe, unprivileged);
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
	static const struct {
		int (*body)(void);
		const char *name;
	} churners[] = {
		{ exchange_once, "rename exchange" }, { rename_once, "rename" },
		{ swap_link_once, "symlink swap" }, { remount_once, "mount" },
		{ chmod_once, "chmod" }, { chown_once, "chown" },
		{ drop_caches_once, "drop_caches" },
	};
	const int nchurners = sizeof(churners) / sizeof(churners[0]);
	pid_t pids[16], writers[2];
	struct counts total = {}, c;
	long each = scaled(50000);
	int i, pipefd[2];
	FILE *f;

	build_tree();
	allow_answers(tmpfs_root_ino(C "/m"));
	changes = mmap(NULL, nchurners * sizeof(*changes), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, changes);
	f = fopen(MISMATCHES, "w");
	ASSERT_NE(NULL, f);
	fputs("clear\n", f);
	fclose(f);
	ASSERT_EQ(0, pipe(pipefd));
	for (i = 0; i < nchurners; i++)
		pids[i] = start_loop(churners[i].body, &changes[i]);
	writers[0] = start_writer(each, 0, pipefd[1]);
	writers[1] = start_writer(each, 1, pipefd[1]);
	for (i = 0; i < 2; i++) {
		int status;

		ASSERT_EQ(writers[i], waitpid(writers[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	for (i = 0; i < nchurners; i++) {
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
		total.outside += c.outside;
	}
	fprintf(stderr, "# churn: %ld requests: %ld match, %ld raced, %ld unchecked, "
		"%ld mismatch, %ld error; %ld answers outside the tree's\n",
		total.requests, total.match, total.raced, total.unchecked,
		total.mismatch, total.error, total.outside);
	if (total.mismatch)
		show_mismatches();
	EXPECT_EQ(2 * each, total.requests);
	EXPECT_EQ(0, total.mismatch);
	EXPECT_EQ(0, total.error);
	EXPECT_EQ(0, total.divergent);
	/* every request here can be asked of the kernel, and judged */
	EXPECT_EQ(0, total.unchecked);
	/* whatever the verdicts say, every answer is one the tree allows */
	EXPECT_EQ(0, total.outside);
	/* the churn must have touched the walks, or it proved nothing */
	EXPECT_LT(0, total.raced);
	for (i = 0; i < nchurners; i++) {
		fprintf(stderr, "# %s: %ld changes\n", churners[i].name, changes[i]);
		EXPECT_LT(0, changes[i]) TH_LOG("the %s loop changed nothing", churners[i].name);
	}
	munmap(changes, nchurners * sizeof(*changes));
	while (!umount2(C "/m", MNT_DETACH))
		;
}

TEST_HARNESS_MAIN
