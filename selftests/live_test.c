// SPDX-License-Identifier: GPL-2.0
/*
 * Live mode: a child of the test walks a known set of paths -- links,
 * dots, a mount, a chroot, a permission failure, openat with a dirfd,
 * statx with AT_EMPTY_PATH, O_PATH and plain opens, an open that
 * creates -- while `live` follows only it (pid=).  How many lookups the
 * child made is not the module's to say: the kernel's own kprobe events
 * (tracefs) count the same functions for the same pid, and the module
 * must have taken exactly that many, judged every one, and called them
 * all match but the one open that created its file.  Then the filters
 * (comm=, sample=, rate=, kinds=), the refused words, and the start
 * changing between the kernel's walk and the shadow's.
 */
#define _GNU_SOURCE
#include <linux/openat2.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

#define LIVE	NS_DIR "/live"
#define L	"/tmp/nsl"
#define TRACEFS	"/sys/kernel/tracing"

/* Write @cmd to `live` on a fresh fd: 0, or the errno of the refusal. */
static int live(const char *cmd)
{
	int fd = open(LIVE, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, cmd, strlen(cmd)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* The counter @name of `live` ("seen", "unchecked start-changed"), or -1. */
static long live_counter(const char *name)
{
	FILE *f = fopen(LIVE, "r");
	char line[256];
	size_t n = strlen(name);
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/* Lookups taken and not yet walked again (the header's pending=). */
static long live_pending(void)
{
	FILE *f = fopen(LIVE, "r");
	char line[256], n[32] = "";

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		field(line, "pending", n, sizeof(n));
	fclose(f);
	return n[0] ? strtol(n, NULL, 10) : -1;
}

/* The symbols `features` says live mode probes ("none" where it cannot). */
static void live_symbols(char lookup[64], char parent[64], char open_[64])
{
	FILE *f = fopen(NS_DIR "/features", "r");
	char line[512];

	lookup[0] = parent[0] = open_[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "live ", 5))
			continue;
		field(line, "lookup", lookup, 64);
		field(line, "parent", parent, 64);
		field(line, "open", open_, 64);
	}
	fclose(f);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * The kernel's own count of its walks by one task, independent of the
 * module: kprobe events on the same functions, filtered by pid.
 */
static int kcount_start(pid_t pid)
{
	char lookup[64], parent[64], open_[64], buf[256];
	int fd;

	live_symbols(lookup, parent, open_);
	if (access(TRACEFS "/kprobe_events", W_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	fd = open(TRACEFS "/kprobe_events", O_WRONLY | O_APPEND);
	if (fd < 0)
		return -1;
	snprintf(buf, sizeof(buf), "p:nslive/nslive_lookup %s\n", lookup);
	if (write(fd, buf, strlen(buf)) < 0)
		goto fail;
	if (strcmp(parent, "none")) {
		snprintf(buf, sizeof(buf), "p:nslive/nslive_parent %s\n", parent);
		if (write(fd, buf, strlen(buf)) < 0)
			goto fail;
	}
	snprintf(buf, sizeof(buf), "p:nslive/nslive_open %s\n", open_);
	if (write(fd, buf, strlen(buf)) < 0)
		goto fail;
	close(fd);
	snprintf(buf, sizeof(buf), "common_pid == %d", pid);
	if (write_file(TRACEFS "/events/nslive/filter", buf) ||
	    write_file(TRACEFS "/trace", "") ||
	    write_file(TRACEFS "/events/nslive/enable", "1"))
		return -1;
	return 0;
fail:
	close(fd);
	return -1;
}

/* How many walks the kprobe events saw; they are taken away. */
static long kcount_stop(void)
{
	FILE *f;
	char line[512];
	long n = 0;

	write_file(TRACEFS "/events/nslive/enable", "0");
	f = fopen(TRACEFS "/trace", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (line[0] != '#' && strstr(line, ": nslive_"))
				n++;
		fclose(f);
	}
	write_file(TRACEFS "/kprobe_events", "");
	return n;
}

static void build_tree(void)
{
	enter_scratch_namespace("nsl");
	mkdir_p(L, 0755);
	mkdir_p(L "/a", 0755);
	mkdir_p(L "/a/b", 0755);
	mkfile(L "/a/b/f");
	mklink("a/b", L "/l");
	mklink("/a/b/f", L "/abs");
	mkdir_p(L "/p", 0700);
	mkfile(L "/p/f");
	mkdir_p(L "/mnt", 0755);
	must(!mount("nsl-mnt", L "/mnt", "tmpfs", 0, NULL), "mnt");
	mkfile(L "/mnt/inside");
}

FIXTURE(live) {
	char armed[512];	/* the words live mode was armed with before */
};

/*
 * Live mode as the test found it (armed for the whole suite, say: the
 * live= parameter), to be armed again after: "start WORD..." from the
 * state line "live armed WORD... pending=N", or "".
 */
static void live_armed_words(char *out, size_t size)
{
	FILE *f = fopen(LIVE, "r");
	char line[512] = "", *end;

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "live armed ", 11)) {
		end = strstr(line, " pending=");
		if (end)
			*end = '\0';
		snprintf(out, size, "start %s", line + 11);
	}
	fclose(f);
}

FIXTURE_SETUP(live)
{
	live_armed_words(self->armed, sizeof(self->armed));
	build_tree();
	ASSERT_EQ(0, live("stop"));
	ASSERT_EQ(0, live("reset"));
}

FIXTURE_TEARDOWN(live)
{
	live("stop");
	if (self->armed[0] && live(self->armed))
		fprintf(stderr, "# could not arm live mode again: %s\n", self->armed);
	umount2(L "/mnt", MNT_DETACH);
	umount2("/tmp", MNT_DETACH);
}

/* openat2(2): the fd, or -errno. */
static int scoped_open(int dfd, const char *path, int flags, __u64 resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	int fd = syscall(SYS_openat2, dfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

/* Everything the walked child does, in order; exits 0 if each did as expected. */
static int known_walks(void)
{
	struct stat st;
	int dfd, fd, bad = 0;

	bad |= stat(L "/l/f", &st);				/* a link */
	bad |= stat(L "/a/../a/b/./f", &st);			/* dots */
	bad |= stat(L "/mnt/inside", &st);			/* a mount */
	bad |= lstat(L "/l", &st);				/* nofollow */
	bad |= !stat(L "/nope", &st) || errno != ENOENT;	/* ENOENT */
	bad |= !stat(L "/a/b/f/", &st) || errno != ENOTDIR;	/* ENOTDIR */
	dfd = open(L "/a", O_PATH | O_DIRECTORY);		/* O_PATH */
	bad |= dfd < 0;
	bad |= fstatat(dfd, "b/f", &st, 0);			/* from a dirfd */
	bad |= fstatat(dfd, "", &st, AT_EMPTY_PATH);		/* AT_EMPTY_PATH */
	bad |= syscall(SYS_statx, dfd, "", AT_EMPTY_PATH, 0, &st) < 0 && errno != ENOSYS;
	fd = openat(dfd, "b/f", O_RDONLY);			/* open from a dirfd */
	bad |= fd < 0;
	close(fd);
	/* openat2's scopes */
	fd = scoped_open(dfd, "b/f", O_RDONLY, RESOLVE_BENEATH);
	bad |= fd < 0;
	close(fd);
	bad |= scoped_open(dfd, "../a/b/f", O_PATH, RESOLVE_BENEATH) != -EXDEV;
	fd = scoped_open(dfd, "/b/../../b/f", O_PATH, RESOLVE_IN_ROOT);
	bad |= fd < 0;
	close(fd);
	bad |= scoped_open(AT_FDCWD, L "/l/f", O_PATH, RESOLVE_NO_SYMLINKS) != -ELOOP;
	bad |= scoped_open(AT_FDCWD, L "/mnt/inside", O_PATH, RESOLVE_NO_XDEV) != -EXDEV;
	fd = open(L "/a/b/new", O_CREAT | O_WRONLY, 0644);	/* creates: unchecked */
	bad |= fd < 0;
	close(fd);
	bad |= chdir(L "/a");
	bad |= stat("b/f", &st);				/* from the cwd */
	bad |= chroot(L) || chdir("/");				/* a chroot */
	bad |= stat("/abs", &st);				/* an absolute link in it */
	bad |= stat("/../../a/b/f", &st);			/* ".." at its root */
	bad |= setresuid(NOBODY, NOBODY, NOBODY);
	bad |= !stat("/p/f", &st) || errno != EACCES;		/* no search permission */
	close(dfd);
	return bad;
}

/* Fork a child that waits for a byte on a pipe, then runs @body and exits. */
static pid_t fork_waiting(int (*body)(void), int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(2);
		_exit(body());
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static int wait_ok(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		!WEXITSTATUS(status);
}

TEST_F(live, a_child_walked_as_the_kernel_counted)
{
	char cmd[64];
	long seen, kernel;
	pid_t pid;
	int go;

	pid = fork_waiting(known_walks, &go);
	ASSERT_LT(0, pid);
	snprintf(cmd, sizeof(cmd), "start pid=%d", pid);
	ASSERT_EQ(0, live(cmd));
	ASSERT_EQ(0, kcount_start(pid)) TH_LOG("tracefs kprobe events: %s", strerror(errno));
	ASSERT_EQ(1, write(go, "x", 1));
	close(go);
	EXPECT_TRUE(wait_ok(pid));
	kernel = kcount_stop();
	ASSERT_EQ(0, live("stop"));
	seen = live_counter("seen");
	TH_LOG("the kernel's kprobe events counted %ld walks; live saw %ld", kernel, seen);
	EXPECT_LT(15, kernel);
	EXPECT_EQ(kernel, seen);
	EXPECT_EQ(seen, live_counter("sampled"));
	EXPECT_EQ(0, live_counter("dropped"));
	/* all walked by the shadow but the open that created its file */
	EXPECT_EQ(seen - 1, live_counter("shadowed"));
	EXPECT_EQ(0, live_counter("verdict_mismatch"));
	EXPECT_EQ(0, live_counter("verdict_raced"));
	/* the one open that created its file, and nothing else */
	EXPECT_EQ(1, live_counter("verdict_unchecked"));
	EXPECT_EQ(1, live_counter("unchecked open-created"));
	EXPECT_EQ(seen - 1, live_counter("verdict_match"));
	EXPECT_EQ(0, live_pending());
}

static int stat_n_times(void)
{
	struct stat st;
	int i, bad = 0;

	prctl(PR_SET_NAME, "nslive-comm");
	for (i = 0; i < 20; i++)
		bad |= stat(L "/a/b/f", &st);
	return bad;
}

/* comm= takes the child by its name; sample=4 one lookup in four. */
TEST_F(live, comm_and_sample)
{
	pid_t pid;
	int go;

	pid = fork_waiting(stat_n_times, &go);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, live("start comm=nslive-comm sample=4"));
	ASSERT_EQ(1, write(go, "x", 1));
	close(go);
	EXPECT_TRUE(wait_ok(pid));
	ASSERT_EQ(0, live("stop"));
	EXPECT_EQ(20, live_counter("seen"));
	EXPECT_EQ(5, live_counter("sampled"));
	EXPECT_EQ(5, live_counter("verdict_match"));
}

/* rate=3: at most three a second, the rest counted as rate_limited. */
TEST_F(live, rate_caps_and_counts)
{
	pid_t pid;
	int go;

	pid = fork_waiting(stat_n_times, &go);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, live("start comm=nslive-comm rate=3"));
	ASSERT_EQ(1, write(go, "x", 1));
	close(go);
	EXPECT_TRUE(wait_ok(pid));
	ASSERT_EQ(0, live("stop"));
	EXPECT_EQ(20, live_counter("seen"));
	EXPECT_EQ(20, live_counter("sampled") + live_counter("rate_limited"));
	EXPECT_GE(6, live_counter("sampled"));	/* at most two seconds' worth */
	EXPECT_LE(3, live_counter("sampled"));
	EXPECT_EQ(live_counter("sampled"), live_counter("verdict_match"));
}

/* A bad word is refused with EINVAL and changes nothing; its reason is read back. */
TEST_F(live, bad_words_refused)
{
	static const char *const bad[] = {
		"start bogus", "start sample=0", "start rate=x", "start pid=-3",
		"start comm=", "start comm=a-name-longer-than-15", "start under=relative",
		"start kinds=lookup,sideways", "start cgroup=/no/such/cgroup", "begin",
		"start pid",
	};
	char text[512];
	size_t i;
	ssize_t n;
	int fd;

	ASSERT_EQ(0, live("start comm=nslive-keep"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_NE(0, live(bad[i])) TH_LOG("%s was taken", bad[i]);
		fd = open(LIVE, O_RDWR);
		ASSERT_LE(0, fd);
		EXPECT_GT(0, write(fd, bad[i], strlen(bad[i])));
		n = pread(fd, text, sizeof(text) - 1, 0);
		close(fd);
		ASSERT_LT(0, n);
		text[n] = '\0';
		EXPECT_EQ(0, strncmp(text, "error err=-E", 12)) TH_LOG("%s: %s", bad[i], text);
		EXPECT_NE(NULL, strstr(text, " reason=")) TH_LOG("%s: %s", bad[i], text);
		/* the words before it still hold */
		EXPECT_NE(NULL, strstr(text, "live armed ")) TH_LOG("%s: %s", bad[i], text);
		EXPECT_NE(NULL, strstr(text, " comm=nslive-keep ")) TH_LOG("%s: %s", bad[i], text);
	}
}

/*
 * The start moves between the kernel's walk and the shadow's: a thread
 * opens a FIFO by a name relative to the cwd, and waits in the open for
 * a writer after the kernel resolved the name; another thread of the
 * process changes the shared cwd, then opens the FIFO for writing.  The
 * shadow cannot walk the first open from where the kernel did:
 * unchecked, start-changed -- never a mismatch.
 */
static volatile pid_t reader_tid;

static void *open_relative(void *ret)
{
	prctl(PR_SET_NAME, "nslive-cwd");
	reader_tid = syscall(SYS_gettid);
	*(int *)ret = open("fifo", O_RDONLY);
	return NULL;
}

/* Is thread @tid of this process inside openat(2)? */
static int in_openat(pid_t tid)
{
	char path[64], text[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	return atoi(text) == SYS_openat;
}

static int cwd_moves(void)
{
	int i, fd, rd = -1;
	pthread_t t;

	if (pthread_create(&t, NULL, open_relative, &rd))
		return 3;
	for (i = 0; i < 1000 && !(reader_tid && in_openat(reader_tid)); i++)
		usleep(10 * 1000);
	if (i == 1000 || chdir("/"))
		return 4;
	fd = open(L "/a/fifo", O_WRONLY);
	pthread_join(t, NULL);
	close(fd);
	close(rd);
	return fd < 0 || rd < 0 ? 5 : 0;
}

TEST_F(live, start_changed_between_the_walks)
{
	pid_t pid;
	int go;

	ASSERT_EQ(0, mkfifo(L "/a/fifo", 0666));
	ASSERT_EQ(0, chdir(L "/a"));
	pid = fork_waiting(cwd_moves, &go);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, live("start comm=nslive-cwd kinds=open"));
	ASSERT_EQ(1, write(go, "x", 1));
	close(go);
	EXPECT_TRUE(wait_ok(pid));
	ASSERT_EQ(0, live("stop"));
	EXPECT_EQ(0, chdir("/"));
	EXPECT_EQ(1, live_counter("seen"));
	EXPECT_EQ(1, live_counter("unchecked start-changed"));
	EXPECT_EQ(0, live_counter("verdict_mismatch"));
}

TEST_HARNESS_MAIN
