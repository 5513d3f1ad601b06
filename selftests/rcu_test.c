// SPDX-License-Identifier: GPL-2.0
/*
 * RCU-walk: hot paths complete in RCU mode, cold ones (fresh names, or
 * after drop_caches) unlazy on a miss, mounts are crossed in RCU mode
 * ("full") or unlazied at ("within-mount"), every injected fallback
 * still matches, and walks racing renames, mounts and symlink swaps are
 * "match" or "raced", never "mismatch".  run_tests.sh runs it with the
 * module loaded in each RCU mode: auto (full where possible),
 * rcu=within-mount and rcu=off (every walk is a REF walk).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define R	"/tmp/nsr"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/* Asked once, before any test chroots away from debugfs. */
static const char *rcu_mode_now(void)
{
	static char mode[64];

	if (!mode[0])
		module_rcu_mode(mode, sizeof(mode));
	return mode;
}

static int rcu_on(void)
{
	return !strcmp(rcu_mode_now(), "full") ||
		!strcmp(rcu_mode_now(), "within-mount");
}

static int rcu_full(void)
{
	return !strcmp(rcu_mode_now(), "full");
}

/* The "walk" line's field @key, e.g. mode, unlazy, restart. */
static void walk_field(const struct result *r, const char *key, char *out,
		       size_t size)
{
	const char *l = line_of(r->text, "walk");

	out[0] = '\0';
	if (l)
		field(l, key, out, size);
}

static void build_tree(void)
{
	enter_scratch_namespace("nsr");
	mkdir_p(R, 0755);
	mkdir_p(R "/a", 0755);
	mkdir_p(R "/a/b", 0755);
	mkdir_p(R "/a/b/c", 0755);
	mkdir_p(R "/a/b/c/d", 0755);
	mkdir_p(R "/a/b/c/d/e", 0755);
	mkfile(R "/a/b/c/d/e/f");
	must(!symlink("a/b/c", R "/short"), "short");
	must(!symlink("/a/b/c/d", R "/abs"), "abs");
	must(!symlink("short/d/e", R "/chained"), "chained");
	mkdir_p(R "/mnt", 0755);
	must(!mount("nsr-mnt", R "/mnt", "tmpfs", 0, NULL), "mnt");
	mkfile(R "/mnt/inside");
	must(!chdir(R), "chdir");
}

FIXTURE(rcu) {
	int fd;
	int rootfd;
	int mount_seq_ko;	/* opened before the scratch tmpfs hides it */
};

FIXTURE_SETUP(rcu)
{
	self->mount_seq_ko = open_test_module("ns_test_mount_seq");
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_TRUE(rcu_on() || !strcmp(rcu_mode_now(), "off"))
		TH_LOG("features says rcu mode=%s", rcu_mode_now());
	build_tree();
	self->rootfd = open("/", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, self->rootfd);
}

FIXTURE_TEARDOWN(rcu)
{
	if (fchdir(self->rootfd) || chroot("."))
		fprintf(stderr, "# cannot leave the chroot\n");
	if (chdir("/"))
		fprintf(stderr, "# chdir /\n");
	EXPECT_EQ(0, umount2(R "/mnt", 0));
	EXPECT_EQ(0, umount2("/tmp", 0));
	close(self->rootfd);
	close(self->fd);
	if (self->mount_seq_ko >= 0)
		close(self->mount_seq_ko);
}

/* Resolve @req twice, the first to warm the dcache; @r is the second. */
static int resolve_warm(int fd, const char *req, struct result *r)
{
	struct result first;
	int err = resolve(fd, req, &first);

	if (err)
		return err;
	result_free(&first);
	return resolve(fd, req, r);
}

/*
 * Walk @req warm (resolve_warm) and check the second walk: verdict
 * match, and the walk line's mode and unlazy as given.  @r keeps the
 * result for the caller's own checks.
 */
static void expect_warm_walk(struct __test_metadata *_metadata, int fd,
			     const char *req, const char *mode,
			     const char *unlazy, struct result *r)
{
	char got_mode[16], got_unlazy[64];

	ASSERT_EQ(0, resolve_warm(fd, req, r));
	EXPECT_STREQ("match", r->verdict) TH_LOG("%s", r->text);
	walk_field(r, "mode", got_mode, sizeof(got_mode));
	walk_field(r, "unlazy", got_unlazy, sizeof(got_unlazy));
	EXPECT_STREQ(mode, got_mode) TH_LOG("%s: mode %s:\n%s", req, got_mode, r->text);
	EXPECT_STREQ(unlazy, got_unlazy) TH_LOG("%s: unlazy %s:\n%s", req, got_unlazy, r->text);
}

/* Walk @req twice; the second, hot walk must complete in RCU mode. */
static void expect_hot(struct __test_metadata *_metadata, int fd, const char *req)
{
	struct result r;

	/*
	 * The first walk touches the atime of links it follows; within the
	 * clock tick they were made in, relatime (atime <= mtime) would
	 * want it again next time, for the kernel's walk as for this one.
	 */
	usleep(20 * 1000);
	expect_warm_walk(_metadata, fd, req, rcu_on() ? "rcu" : "ref", "none", &r);
	/* no step in the other mode */
	EXPECT_EQ(NULL, strstr(r.text, rcu_on() ? " mode=ref " : " mode=rcu "))
		TH_LOG("%s", r.text);
	result_free(&r);
}

TEST_F(rcu, hot_deep_directory)
{
	expect_hot(_metadata, self->fd, "a/b/c/d/e/f");
}

TEST_F(rcu, hot_dotdot_chain)
{
	expect_hot(_metadata, self->fd, "a/b/c/../../b/c/d/../../../b/c/d/e/f");
}

TEST_F(rcu, hot_inline_links)
{
	expect_hot(_metadata, self->fd, "short/d/e/f");
	expect_hot(_metadata, self->fd, "chained/f");
}

TEST_F(rcu, hot_absolute_inline_link_in_a_chroot)
{
	ASSERT_EQ(0, chroot(R));
	ASSERT_EQ(0, chdir("/"));
	expect_hot(_metadata, self->fd, "/abs/e/f");
	expect_hot(_metadata, self->fd, "abs/../d/e");
}

/*
 * The guest's root is 9p (cache=loose), whose ->d_revalidate answers
 * -ECHILD to LOOKUP_RCU, as the kernel's own walk finds: however hot,
 * the walk leaves RCU mode at its first 9p name, "usr" (step 1).
 */
TEST_F(rcu, revalidating_9p_unlazies_at_its_first_name)
{
	struct result r;

	expect_warm_walk(_metadata, self->fd, "/usr/share", "ref",
			 rcu_on() ? "revalidate@1" : "none", &r);
	result_free(&r);
}

/* A name not in the dcache: the RCU lookup misses and the walk unlazies. */
TEST_F(rcu, cold_miss_unlazies)
{
	char req[64], unlazy[64];
	struct result r;

	snprintf(req, sizeof(req), "a/b/fresh-%d", getpid());
	ASSERT_EQ(0, resolve(self->fd, req, &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("-ENOENT", r.shadow_err);
	walk_field(&r, "unlazy", unlazy, sizeof(unlazy));
	EXPECT_STREQ(rcu_on() ? "miss@3" : "none", unlazy) TH_LOG("%s", r.text);
	result_free(&r);
}

/*
 * mount_lock moved while the walk was in RCU mode -- a mount or umount
 * anywhere, made to happen by ns_test_mount_seq as the shadow's RCU
 * lookup finds "c": whatever the walk stands on may have been covered
 * since, so it cannot complete in RCU mode, even on a mount it pinned.
 * Its unlazy fails, as __legitimize_mnt makes the kernel's fail, and
 * it starts again in REF mode.  A REF walk (rcu=off) never looks.
 */
TEST_F(rcu, mount_lock_moved_restarts)
{
	char cmd[128], mode[16], restart[32];
	struct result r;
	int fired;

	SKIP_WITHOUT_TESTMODS();
	ASSERT_LE(0, self->mount_seq_ko);
	ASSERT_EQ(0, resolve(self->fd, "a/b/c", &r));	/* warm */
	result_free(&r);
	snprintf(cmd, sizeof(cmd), "insmod /proc/self/fd/%d dir=" R "/a/b name=c",
		 self->mount_seq_ko);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, resolve(self->fd, "first=shadow path=a/b/c", &r));
	fired = module_param_int("ns_test_mount_seq", "fired");
	ASSERT_EQ(0, system("rmmod ns_test_mount_seq"));
	EXPECT_EQ(rcu_on(), fired) TH_LOG("%s", r.text);
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	walk_field(&r, "mode", mode, sizeof(mode));
	walk_field(&r, "restart", restart, sizeof(restart));
	EXPECT_STREQ("ref", mode) TH_LOG("%s", r.text);
	EXPECT_STREQ(rcu_on() ? "legitimize" : "", restart) TH_LOG("%s", r.text);
	result_free(&r);
}

/*
 * Dentries the dcache let go of (9p's, not tmpfs's, which are pinned):
 * the walk misses in RCU mode, unlazies and looks the name up again.
 * It starts in the 9p directory (a start is not revalidated), since a
 * 9p name found in the dcache already refuses RCU revalidation.
 */
TEST_F(rcu, cold_after_drop_caches_unlazies_on_a_miss)
{
	/* the kernel's walk, first by default, would warm the dcache */
	const char *dir = "/usr/share/common-licenses";
	const char *req = "first=shadow path=GPL-2";
	char unlazy[64];
	struct result r;
	struct stat st;
	int fd, i, cwd;

	cwd = open(".", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, cwd);
	ASSERT_EQ(0, chdir(dir));
	ASSERT_EQ(0, stat("GPL-2", &st));
	/*
	 * The dentry LRU gives a recently used dentry a second chance
	 * (DCACHE_REFERENCED): one pass clears the flag, the next frees.
	 */
	for (i = 0; i < 3; i++) {
		fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
		ASSERT_LE(0, fd);
		ASSERT_EQ(2, write(fd, "2\n", 2));
		close(fd);
	}
	ASSERT_EQ(0, resolve(self->fd, req, &r));
	EXPECT_EQ(0, fchdir(cwd));
	close(cwd);
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, " first=shadow ")) TH_LOG("%s", r.text);
	walk_field(&r, "unlazy", unlazy, sizeof(unlazy));
	EXPECT_STREQ(rcu_on() ? "miss@1" : "none", unlazy) TH_LOG("%s", r.text);
	result_free(&r);
}

/*
 * A mount on the way: "full" crosses it in RCU mode (mounts_down=1 on
 * an RCU step); "within-mount" unlazies there.  ".." out of a mount's
 * root unlazies in both (choosing the mountpoint is REF mode's).
 */
TEST_F(rcu, mount_crossing)
{
	char unlazy[64];
	struct result r;

	expect_warm_walk(_metadata, self->fd, "mnt/inside", rcu_full() ? "rcu" : "ref",
			 rcu_full() ? "none" : rcu_on() ? "mount@1" : "none", &r);
	EXPECT_NE(NULL, strstr(r.text, rcu_full() ? "mode=rcu name=inside " :
			       "mode=ref name=inside "))
		TH_LOG("%s", r.text);
	/* the step that crossed began in RCU mode, whichever mode ended it */
	EXPECT_NE(NULL, strstr(r.text, rcu_on() ? "mode=rcu name=mnt how=dcache mounts_down=1 " :
			       "mode=ref name=mnt how=dcache mounts_down=1 "))
		TH_LOG("%s", r.text);
	result_free(&r);
	ASSERT_EQ(0, resolve(self->fd, "mnt/../a", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	walk_field(&r, "unlazy", unlazy, sizeof(unlazy));
	EXPECT_STREQ(rcu_full() ? "mount-up@2" : rcu_on() ? "mount@1" : "none", unlazy)
		TH_LOG("%s", r.text);
	result_free(&r);
}

/* Two mounts stacked on one mountpoint: both crossed, the top one wins. */
TEST_F(rcu, stacked_mounts)
{
	char unlazy[64];
	struct result r;
	struct stat st;

	ASSERT_EQ(0, mount("nsr-top", R "/mnt", "tmpfs", 0, NULL));
	mkfile(R "/mnt/top");
	ASSERT_EQ(0, resolve_warm(self->fd, "mnt/top", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_EQ(0, stat(R "/mnt/top", &st));
	EXPECT_NE(NULL, strstr(r.text, "mounts_down=2 ")) TH_LOG("%s", r.text);
	walk_field(&r, "unlazy", unlazy, sizeof(unlazy));
	EXPECT_STREQ(rcu_full() ? "none" : rcu_on() ? "mount@1" : "none", unlazy)
		TH_LOG("%s", r.text);
	result_free(&r);
	ASSERT_EQ(0, resolve(self->fd, "mnt/inside", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("-ENOENT", r.shadow_err) TH_LOG("%s", r.text);
	result_free(&r);
	EXPECT_EQ(0, umount2(R "/mnt", 0));
}

/* Every fallback, made to happen: still the same answer. */
TEST_F(rcu, injected_fallbacks)
{
	static const struct {
		const char *inject, *field, *want;
	} cases[] = {
		{ "dseq@2", "restart", "dseq" },
		{ "legitimize@2", "restart", "legitimize" },
		{ "echild-permission@2", "unlazy", "permission@2" },
		{ "miss@3", "unlazy", "miss@3" },
		{ "estale@2", "restart", "estale" },
	};
	char req[128], got[64];
	struct result r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(req, sizeof(req), "inject=%s path=a/b/c/d", cases[i].inject);
		ASSERT_EQ(0, resolve(self->fd, req, &r));
		EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
		EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
		walk_field(&r, cases[i].field, got, sizeof(got));
		/* without RCU mode only the ESTALE retry exists */
		if (rcu_on() || !strcmp(cases[i].want, "estale")) {
			EXPECT_STREQ(cases[i].want, got)
				TH_LOG("%s:\n%s", cases[i].inject, r.text);
		}
		if (!strcmp(cases[i].want, "estale")) {
			walk_field(&r, "mode", got, sizeof(got));
			EXPECT_STREQ("reval", got) TH_LOG("%s", r.text);
		}
		result_free(&r);
	}
}

/*
 * The module's RCU lookup over the hash table against the kernel's own
 * __d_lookup_rcu, on the same names, where that can be called safely.
 */
TEST_F(rcu, lookup_agrees_with_the_kernels)
{
	static const char *const names[][2] = {
		{ R "/a", "b" }, { R "/a/b/c/d/e", "f" }, { R, "short" },
		{ R, "no-such-name" }, { R "/a", "b-nor-this" }, { "/usr", "bin" },
		{ "/usr/bin", "env" }, { "/proc", "self" }, { "/", "tmp" },
	};
	int fd = open(NS_DIR "/rcu_lookup_check", O_RDWR);
	char req[PATH_MAX], out[64];
	struct stat st;
	size_t i;
	ssize_t n;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, stat("/usr/bin/env", &st));	/* in the dcache */
	ASSERT_EQ(0, stat(R "/a/b/c/d/e/f", &st));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(req, sizeof(req), "%s %s", names[i][0], names[i][1]);
		ASSERT_LT(0, write(fd, req, strlen(req))) TH_LOG("%s: %s", req, strerror(errno));
		n = pread(fd, out, sizeof(out) - 1, 0);
		ASSERT_LT(0, n);
		out[n] = '\0';
		if (!strncmp(out, "unavailable", 11)) {
			close(fd);
			SKIP(return, "__d_lookup_rcu cannot be called safely on this CPU");
		}
		EXPECT_EQ(0, strncmp(out, "same ", 5)) TH_LOG("%s: %s", req, out);
		EXPECT_NE(NULL, strstr(out, strstr(names[i][1], "no") ? "found=n" : "found=y"))
			TH_LOG("%s: %s", req, out);
	}
	close(fd);
}

/* ------------------------------------------------------------------ */
/* Races: the answer is the kernel's, or the race is seen              */

/*
 * A race's verdicts are the module's own claims: each walk's answers
 * are also checked against what the test knows the path can resolve to
 * while the loop runs (struct answers), the shadow's and the kernel's
 * alike, whatever the verdict -- a walker wrong only while something
 * moves, whose wrong answers came out `raced`, fails here.  And the
 * race must have happened: its loop changed the tree while the walks
 * ran (its count of changes made, in shared memory, moved).
 */
struct tally {
	long match, raced, mismatch, other, outside;
};

static void count(struct tally *t, const struct result *r)
{
	if (!strcmp(r->verdict, "match"))
		t->match++;
	else if (!strcmp(r->verdict, "raced"))
		t->raced++;
	else if (!strcmp(r->verdict, "mismatch"))
		t->mismatch++;
	else
		t->other++;
}

/* Changes a loop made, counted where the test can read them. */
static long *loop_changes;

static pid_t start_loop(int (*body)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			if (body())
				__atomic_add_fetch(loop_changes, 1, __ATOMIC_RELAXED);
	}
	return pid;
}

static void stop_loop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int exchange_once(void)
{
	return !syscall(SYS_renameat2, AT_FDCWD, R "/race/a/c", AT_FDCWD,
			R "/race/b", RENAME_EXCHANGE);
}

static int remount_once(void)
{
	if (mount("nsr-flip", R "/race/m", "tmpfs", 0, NULL))
		return 0;
	return !umount2(R "/race/m", MNT_DETACH);
}

/* Not lazy: an umount the walk's transient reference can make EBUSY. */
static int remount_sync_once(void)
{
	if (mount("nsr-flip", R "/race/m", "tmpfs", 0, NULL))
		return 0;
	while (umount2(R "/race/m", 0))
		if (errno != EBUSY)
			return 0;
	return 1;
}

static int swap_link_once(void)
{
	unlink(R "/race/l");
	if (symlink("a", R "/race/l"))
		return 0;
	unlink(R "/race/l");
	return !symlink("b", R "/race/l");
}

/* Both walkers' answers are among those @ok allows; else counted and shown. */
static void check_answers(struct tally *t, const struct answers *ok,
			  const struct result *r, const char *what)
{
	int shadow = answer_allowed(ok, r->shadow_err, r->dev, r->ino);
	int kernel = !r->kernel_err[0] ||
		answer_allowed(ok, r->kernel_err, r->kernel_dev, r->kernel_ino);

	if (shadow && kernel)
		return;
	if (t->outside++ < 5)
		fprintf(stderr, "# %s: the %s answered what the path cannot be:\n%s",
			what, shadow ? "kernel" : "shadow", r->text);
}

static void race(struct __test_metadata *_metadata, int fd, int (*body)(void),
		 const char *req, const struct answers *ok, const char *what,
		 long walks)
{
	struct tally t = {};
	struct result r;
	long i, changes;
	pid_t pid;

	*loop_changes = 0;
	pid = start_loop(body);
	ASSERT_LT(0, pid);
	for (i = 0; i < walks; i++) {
		if (resolve(fd, req, &r))
			break;
		count(&t, &r);
		check_answers(&t, ok, &r, what);
		if (!strcmp(r.verdict, "mismatch"))
			fprintf(stderr, "# %s: mismatch:\n%s", what, r.text);
		result_free(&r);
	}
	changes = __atomic_load_n(loop_changes, __ATOMIC_RELAXED);
	stop_loop(pid);
	fprintf(stderr, "# %s: %ld walks: %ld match, %ld raced, %ld mismatch; "
		"%ld changes by the loop\n", what, i, t.match, t.raced, t.mismatch,
		changes);
	EXPECT_EQ(walks, i);
	EXPECT_EQ(0, t.mismatch);
	EXPECT_EQ(0, t.other);
	EXPECT_EQ(0, t.outside);
	/* the loop changed the tree while the walks ran: a race happened */
	EXPECT_LT(0, changes);
}

TEST_F_TIMEOUT(rcu, races, 900)
{
	struct answers exchange = {}, up = {}, into = {}, link = {};
	char req[256];
	int afd;

	loop_changes = mmap(NULL, sizeof(*loop_changes), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, loop_changes);
	mkdir_p(R "/race", 0755);
	mkdir_p(R "/race/a", 0755);
	mkdir_p(R "/race/a/c", 0755);
	mkdir_p(R "/race/b", 0755);
	mkdir_p(R "/race/m", 0755);
	mkfile(R "/race/b/x");
	afd = open(R "/race/a", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, afd);

	/*
	 * openat2's rename_attack_test: a/c and b swap places while ".."
	 * is walked from c, relative to an fd on a; the name resolves or
	 * not depending on where c is at each step: to either directory,
	 * or, from c's place as race/b, to no race/c at all.
	 */
	allow_object(&exchange, R "/race/a/c");
	allow_object(&exchange, R "/race/b");
	allow_errno(&exchange, "-ENOENT");
	snprintf(req, sizeof(req), "at=%d path=c/../c/../c/../c/../c", afd);
	race(_metadata, self->fd, exchange_once, req, &exchange, "rename exchange",
	     race_walks(100000));

	/* x back in b, where the exchange found it */
	if (access(R "/race/b/x", F_OK))
		ASSERT_TRUE(exchange_once());
	/*
	 * m/.. climbs from the mount's root to race, or from race/m itself:
	 * race/b/x either way -- unless the mount was detached under the
	 * walk, whose ".." then stays in it, with no b.
	 */
	allow_object(&up, R "/race/b/x");
	allow_errno(&up, "-ENOENT");
	race(_metadata, self->fd, remount_once, "race/m/../b/x", &up, "mount and umount",
	     race_walks(20000));
	/* the loop may have been stopped with a mount still on race/m */
	while (!umount2(R "/race/m", 0))
		;
	/* into the mount and no further: "full" mode legitimizes it */
	allow_object(&into, R "/race/m");
	allow_other_fs(&into, R "/race/m", tmpfs_root_ino(R "/race/m"));
	race(_metadata, self->fd, remount_once, "race/m/.", &into,
	     "mount and lazy umount, into", race_walks(10000));
	while (!umount2(R "/race/m", 0))
		;
	race(_metadata, self->fd, remount_sync_once, "race/m/.", &into,
	     "mount and umount, into", race_walks(10000));
	while (!umount2(R "/race/m", 0))
		;

	/* l -> a: a/c, whichever directory the exchange left there; l -> b: none */
	ASSERT_EQ(0, symlink("a", R "/race/l"));
	allow_object(&link, R "/race/a/c");
	allow_errno(&link, "-ENOENT");
	race(_metadata, self->fd, swap_link_once, "race/l/c", &link, "symlink swap",
	     race_walks(20000));
	close(afd);
	munmap(loop_changes, sizeof(*loop_changes));
}

TEST_HARNESS_MAIN
