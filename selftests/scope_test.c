// SPDX-License-Identifier: GPL-2.0
/*
 * Scoped lookup: openat2's RESOLVE_* walked by the shadow (resolve=),
 * checked against the kernel by the module, and each answer against
 * openat2(2) itself, called from this process with the same start and
 * the same how.resolve.  The tree and the cases are those published in
 * the kernel's tools/testing/selftests/openat2/resolve_test.c; the
 * rename attack is its rename_attack_test.c, through the shadow.
 */
#define _GNU_SOURCE
#include <linux/openat2.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define S	"/tmp/nss"
#define ROOT	S "/root"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* openat2(2): the fd, or -errno. */
static int sys_openat2(int dfd, const char *path, __u64 flags, __u64 resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	int fd = syscall(SYS_openat2, dfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

/*
 * resolve_test.c's tree, under ROOT:
 *   procexe -> /proc/self/exe, procroot -> /proc/self/root, root/,
 *   mnt/ (a tmpfs: self -> ../mnt/, absself -> /mnt/), etc/passwd,
 *   creatlink -> /newfile3, reletc -> etc/, relsym -> etc/passwd,
 *   absetc -> /etc/, abssym -> /etc/passwd, abscheeky -> /cheeky,
 *   cheeky/ (absself -> /, self -> ../../root/, garbageself ->
 *   /../../root/, passwd -> ../cheeky/../cheeky/../etc/../etc/passwd,
 *   abspasswd -> /../cheeky/../cheeky/../etc/../etc/passwd, dotdotlink
 *   and garbagelink: fourteen ".." up to etc/passwd, the second from /)
 */
static void build_tree(void)
{
	enter_scratch_namespace("nss");
	mkdir_p(S, 0755);
	mkdir_p(ROOT, 0755);
	mklink("/proc/self/exe", ROOT "/procexe");
	mklink("/proc/self/root", ROOT "/procroot");
	mkdir_p(ROOT "/root", 0755);
	mkdir_p(ROOT "/mnt", 0755);
	must(!mount("nss-mnt", ROOT "/mnt", "tmpfs", MS_NOSUID | MS_NODEV, NULL), "mnt");
	mklink("../mnt/", ROOT "/mnt/self");
	mklink("/mnt/", ROOT "/mnt/absself");
	mkdir_p(ROOT "/etc", 0755);
	mkfile(ROOT "/etc/passwd");
	mklink("/newfile3", ROOT "/creatlink");
	mklink("etc/", ROOT "/reletc");
	mklink("etc/passwd", ROOT "/relsym");
	mklink("/etc/", ROOT "/absetc");
	mklink("/etc/passwd", ROOT "/abssym");
	mklink("/cheeky", ROOT "/abscheeky");
	mkdir_p(ROOT "/cheeky", 0755);
	mklink("/", ROOT "/cheeky/absself");
	mklink("../../root/", ROOT "/cheeky/self");
	mklink("/../../root/", ROOT "/cheeky/garbageself");
	mklink("../cheeky/../cheeky/../etc/../etc/passwd", ROOT "/cheeky/passwd");
	mklink("/../cheeky/../cheeky/../etc/../etc/passwd", ROOT "/cheeky/abspasswd");
	mklink("../../../../../../../../../../../../../../etc/passwd",
	       ROOT "/cheeky/dotdotlink");
	mklink("/../../../../../../../../../../../../../../etc/passwd",
	       ROOT "/cheeky/garbagelink");
}

/* The RESOLVE_* flags and resolve='s words for them. */
static const struct {
	__u64 flag;
	const char *word;
} words[] = {
	{ RESOLVE_BENEATH, "beneath" }, { RESOLVE_IN_ROOT, "in_root" },
	{ RESOLVE_NO_XDEV, "no_xdev" }, { RESOLVE_NO_MAGICLINKS, "no_magiclinks" },
	{ RESOLVE_NO_SYMLINKS, "no_symlinks" }, { RESOLVE_CACHED, "cached" },
};

static void resolve_words(__u64 resolve, char *out, size_t size)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (resolve & words[i].flag)
			n += snprintf(out + n, size - n, "%s%s", n ? "," : "",
				      words[i].word);
}

/* A case of resolve_test.c: the start (NULL: ROOT), the name, how. */
struct scope_case {
	const char *dir;
	const char *path;
	__u64 resolve;
	__u64 oflags;		/* O_NOFOLLOW, or 0 */
};

#define B	RESOLVE_BENEATH
#define IR	RESOLVE_IN_ROOT
#define NX	RESOLVE_NO_XDEV
#define NM	RESOLVE_NO_MAGICLINKS
#define NS	RESOLVE_NO_SYMLINKS

static const struct scope_case cases[] = {
	/* RESOLVE_BENEATH */
	{ NULL, "/", B }, { NULL, "cheeky/absself", B }, { NULL, "abscheeky/absself", B },
	{ NULL, "..", B }, { NULL, "../root/", B }, { NULL, "cheeky/self", B },
	{ NULL, "abscheeky/self", B }, { NULL, "cheeky/garbageself", B },
	{ NULL, "abscheeky/garbageself", B }, { NULL, "root", B }, { NULL, "etc", B },
	{ NULL, "etc/passwd", B }, { NULL, "relsym", B }, { NULL, "cheeky/passwd", B },
	{ NULL, "abscheeky/passwd", B }, { NULL, "abssym", B }, { NULL, "/etc/passwd", B },
	{ NULL, "cheeky/abspasswd", B }, { NULL, "abscheeky/abspasswd", B },
	{ NULL, "cheeky/dotdotlink", B }, { NULL, "abscheeky/dotdotlink", B },
	{ NULL, "cheeky/garbagelink", B }, { NULL, "abscheeky/garbagelink", B },
	/* RESOLVE_IN_ROOT */
	{ NULL, "/", IR }, { NULL, "cheeky/absself", IR }, { NULL, "abscheeky/absself", IR },
	{ NULL, "..", IR }, { NULL, "../root/", IR }, { NULL, "cheeky/self", IR },
	{ NULL, "cheeky/garbageself", IR }, { NULL, "abscheeky/garbageself", IR },
	{ NULL, "root", IR }, { NULL, "etc", IR }, { NULL, "etc/passwd", IR },
	{ NULL, "relsym", IR }, { NULL, "cheeky/passwd", IR }, { NULL, "abscheeky/passwd", IR },
	{ NULL, "abssym", IR }, { NULL, "/etc/passwd", IR }, { NULL, "cheeky/abspasswd", IR },
	{ NULL, "abscheeky/abspasswd", IR }, { NULL, "cheeky/dotdotlink", IR },
	{ NULL, "abscheeky/dotdotlink", IR }, { NULL, "/../../../../abscheeky/dotdotlink", IR },
	{ NULL, "cheeky/garbagelink", IR }, { NULL, "abscheeky/garbagelink", IR },
	{ NULL, "/../../../../abscheeky/garbagelink", IR },
	/* RESOLVE_NO_XDEV */
	{ NULL, "mnt", NX }, { NULL, "mnt/", NX }, { NULL, "mnt/.", NX },
	{ "mnt", ".", NX }, { "mnt", "..", NX }, { "mnt", "../mnt", NX },
	{ "mnt", "self", NX }, { "mnt", "absself", NX }, { "mnt", "/", NX },
	{ "/", "/", NX }, { NULL, "/proc/1", NX }, { NULL, "/tmp", NX },
	{ "/proc", "self/root", NX }, { "/proc", "self/cwd", NX },
	{ "/proc", "self/fd/%d", NX },
	/* RESOLVE_NO_MAGICLINKS */
	{ NULL, "relsym", NM }, { NULL, "procexe", NM }, { NULL, "/proc/self/exe", NM },
	{ NULL, "/proc/self/exe", NM, O_NOFOLLOW }, { NULL, "procroot/etc", NM },
	{ NULL, "/proc/self/root/etc", NM }, { NULL, "/proc/self/root/etc", NM, O_NOFOLLOW },
	/* RESOLVE_NO_SYMLINKS */
	{ NULL, ".", NS }, { NULL, "root", NS }, { NULL, "etc", NS }, { NULL, "etc/passwd", NS },
	{ NULL, "relsym", NS }, { NULL, "relsym", NS, O_NOFOLLOW }, { NULL, "absetc", NS },
	{ NULL, "absetc", NS, O_NOFOLLOW }, { NULL, "cheeky/garbagelink", NS },
	{ NULL, "cheeky/garbagelink", NS, O_NOFOLLOW }, { NULL, "reletc", NS },
	{ NULL, "reletc", NS, O_NOFOLLOW }, { NULL, "procexe", NS },
	{ NULL, "procexe", NS, O_NOFOLLOW }, { NULL, "/proc/self/exe", NS },
	{ NULL, "/proc/self/exe", NS, O_NOFOLLOW },
	/*
	 * An absolute link on the root's own mount: nd_jump_root asks
	 * NO_XDEV's question before it takes the root, so a walk that has
	 * not taken it yet (no "..", no absolute name so far) is refused.
	 */
	{ "/usr", "lib64/ld-linux-x86-64.so.2", NX },
	{ "/usr", "bin/../lib64/ld-linux-x86-64.so.2", NX },
	/* and together: a magic link inside a scoped walk, links and mounts */
	{ "/proc", "self/exe", B }, { "/proc", "self/exe", IR },
	{ "/proc", "self/fd/%d", B }, { NULL, "mnt/self", B | NX },
	{ NULL, "reletc/passwd", IR | NS }, { NULL, "cheeky/passwd", B | NM },
};

FIXTURE(scope) {
	int fd;			/* resolve */
	int rootfd;		/* ROOT */
	int devnull;		/* the descriptor self/fd/%d names */
	int top;		/* "/", to leave the scratch namespace's tree */
};

FIXTURE_SETUP(scope)
{
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd);
	build_tree();
	self->rootfd = open(ROOT, O_PATH | O_DIRECTORY);
	ASSERT_LE(0, self->rootfd);
	self->devnull = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, self->devnull);
}

FIXTURE_TEARDOWN(scope)
{
	EXPECT_EQ(0, umount2(ROOT "/mnt", 0));
	EXPECT_EQ(0, umount2("/tmp", MNT_DETACH));
	close(self->devnull);
	close(self->rootfd);
	close(self->fd);
}

/* The start of @c: ROOT, or its dir (relative to ROOT, or absolute). */
static int case_start(const struct scope_case *c, int rootfd)
{
	if (!c->dir)
		return dup(rootfd);
	return openat(rootfd, c->dir, O_PATH | O_DIRECTORY);
}

/* "dev=M:m" and the inode of an fd, as a result's shadow line has them. */
static void fd_object(int fd, char *dev, size_t size, unsigned long *ino)
{
	struct stat st;

	dev[0] = '\0';
	*ino = 0;
	if (fstat(fd, &st))
		return;
	snprintf(dev, size, "%u:%u", major(st.st_dev), minor(st.st_dev));
	*ino = st.st_ino;
}

/*
 * One case through the shadow, in @mode (lookup, or open with O_PATH),
 * against openat2(2) with O_PATH from this process: the same errno, or
 * the same object; and the module's verdict match.  Returns the errno.
 */
static int check_case(struct __test_metadata *_metadata, int fd, int rootfd,
		      const struct scope_case *c, const char *path,
		      const char *mode)
{
	char req[PATH_MAX + 256], rwords[128], dev[32];
	int start = case_start(c, rootfd), got;
	unsigned long ino;
	struct result r;

	EXPECT_LE(0, start) TH_LOG("start %s: %s", c->dir, strerror(errno));
	if (start < 0)
		return 0;
	resolve_words(c->resolve, rwords, sizeof(rwords));
	snprintf(req, sizeof(req), "mode=%s flags=%s%s at=%d resolve=%s path=%s", mode,
		 c->oflags & O_NOFOLLOW ? "nofollow" : "follow",
		 strcmp(mode, "open") ? "" : ",path", start, rwords, path);
	got = sys_openat2(start, path, O_PATH | O_CLOEXEC | c->oflags, c->resolve);
	EXPECT_EQ(0, resolve(fd, req, &r)) TH_LOG("%s: no result", req);
	if (!r.text)
		goto out;
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s:\n%s", req, r.text);
	EXPECT_STREQ(errno_name(got < 0 ? -got : 0), r.shadow_err)
		TH_LOG("openat2(%s, %s) gave %s:\n%s", c->dir ?: "root", path,
		       errno_name(got < 0 ? -got : 0), r.text);
	if (got >= 0) {
		fd_object(got, dev, sizeof(dev), &ino);
		EXPECT_STREQ(dev, r.dev) TH_LOG("%s:\n%s", req, r.text);
		EXPECT_EQ(ino, r.ino) TH_LOG("%s: openat2 found %lu:\n%s", req, ino, r.text);
		close(got);
	}
	result_free(&r);
out:
	close(start);
	return got < 0 ? -got : 0;
}

/* Every published case, looked up and opened O_PATH: as openat2 answers. */
TEST_F(scope, openat2_resolve_cases)
{
	static const char *const modes[] = { "lookup", "open" };
	int exdev = 0, eloop = 0, ok = 0, err;
	char path[64];
	size_t i, m;

	for (m = 0; m < 2; m++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			snprintf(path, sizeof(path), cases[i].path, self->devnull);
			err = check_case(_metadata, self->fd, self->rootfd, &cases[i],
					 path, modes[m]);
			exdev += err == EXDEV;
			eloop += err == ELOOP;
			ok += !err;
		}
	}
	fprintf(stderr, "# %d cases: %d found, %d EXDEV, %d ELOOP\n",
		(int)(2 * sizeof(cases) / sizeof(cases[0])), ok, exdev, eloop);
	/* the scopes refused what they refuse */
	EXPECT_LT(20, exdev);
	EXPECT_LT(10, eloop);
	EXPECT_LT(40, ok);
}

/* The other two modes: the kernel's own answer, with the same flags. */
TEST_F(scope, parent_and_mountpoint_modes_match)
{
	static const char *const modes[] = { "parent", "mountpoint" };
	char req[256], rwords[128], path[64];
	struct result r;
	size_t i, m;
	int start;

	for (m = 0; m < 2; m++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			start = case_start(&cases[i], self->rootfd);
			ASSERT_LE(0, start);
			snprintf(path, sizeof(path), cases[i].path, self->devnull);
			resolve_words(cases[i].resolve, rwords, sizeof(rwords));
			snprintf(req, sizeof(req), "mode=%s at=%d resolve=%s path=%s",
				 modes[m], start, rwords, path);
			ASSERT_EQ(0, resolve(self->fd, req, &r));
			EXPECT_STREQ("match", r.verdict) TH_LOG("%s:\n%s", req, r.text);
			result_free(&r);
			close(start);
		}
	}
}

/* Where a scope refused, the walk line and the step say which, and where. */
TEST_F(scope, the_refusal_is_shown)
{
	static const struct {
		const char *req, *walk, *step;
	} shown[] = {
		{ "resolve=beneath path=..", " scope=beneath@1 ", " scope=beneath " },
		{ "resolve=beneath path=/etc", " scope=beneath@0 ", NULL },
		{ "resolve=no_xdev path=mnt", " scope=no_xdev@1 ", " scope=no_xdev " },
		{ "resolve=no_symlinks path=relsym", " scope=no_symlinks@1 ",
		  " scope=no_symlinks " },
		{ "resolve=no_magiclinks path=/proc/self/exe", " scope=no_magiclinks@4 ",
		  " scope=no_magiclinks " },
		{ "resolve=in_root path=/proc/self/exe", NULL, NULL },
	};
	char req[128];
	struct result r;
	size_t i;

	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		snprintf(req, sizeof(req), "at=%d %s", self->rootfd, shown[i].req);
		ASSERT_EQ(0, resolve(self->fd, req, &r));
		EXPECT_STREQ("match", r.verdict) TH_LOG("%s:\n%s", req, r.text);
		if (shown[i].walk) {
			EXPECT_NE(NULL, strstr(line_of(r.text, "walk") ?: "", shown[i].walk))
				TH_LOG("%s:\n%s", req, r.text);
		} else {
			EXPECT_EQ(NULL, strstr(r.text, " scope=")) TH_LOG("%s:\n%s", req, r.text);
		}
		if (shown[i].step)
			EXPECT_NE(NULL, strstr(r.text, shown[i].step)) TH_LOG("%s", r.text);
		result_free(&r);
	}
}

/* What the grammar refuses, with its reason, and nothing done. */
TEST_F(scope, refused_requests)
{
	static const struct {
		const char *req, *reason;
	} refused[] = {
		{ "resolve=beneath,in_root path=x", "contradict" },
		{ "resolve=sideways path=x", "resolve= takes" },
		{ "resolve= path=x", "resolve= takes" },
		{ "semantics=4.2 resolve=beneath path=x", "4.2 had no scoped lookup" },
	};
	struct result r;
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ASSERT_EQ(0, resolve(self->fd, refused[i].req, &r));
		EXPECT_EQ(EINVAL, r.write_errno) TH_LOG("%s", refused[i].req);
		EXPECT_NE(NULL, strstr(r.text, refused[i].reason))
			TH_LOG("%s: %s", refused[i].req, r.text);
		result_free(&r);
	}
}

/* The RCU mode the module runs is @mode. */
static int rcu_mode_is(const char *mode)
{
	char got[64];

	module_rcu_mode(got, sizeof(got));
	return !strcmp(got, mode);
}

/*
 * RESOLVE_CACHED: found in the dcache, in RCU mode; or EAGAIN, as the
 * walk would block (a name not cached, a 9p name whose revalidation
 * cannot be done in RCU mode, an O_TRUNC) -- as openat2 says.  A ".."
 * out of a mount the kernel climbs in RCU mode, which the shadow cannot
 * (it would need struct mount): never a mismatch, unchecked if the
 * answers differ.
 */
TEST_F(scope, cached)
{
	static const struct scope_case hot[] = {
		{ NULL, "etc/passwd", RESOLVE_CACHED }, { NULL, "relsym", RESOLVE_CACHED },
		{ NULL, "cheeky/passwd", RESOLVE_CACHED },
		{ NULL, "cheeky/passwd", RESOLVE_CACHED | B },
		{ NULL, "mnt/absself", RESOLVE_CACHED | IR },
	};
	char req[256], name[64];
	struct result r;
	size_t i;
	int got;

	if (!rcu_mode_is("full"))
		SKIP(return, "RESOLVE_CACHED is RCU mode's, and the shadow's is the kernel's only where it crosses mounts (rcu mode=full)");
	for (i = 0; i < sizeof(hot) / sizeof(hot[0]); i++) {
		/* once uncached, to fill the dcache */
		got = openat(self->rootfd, hot[i].path, O_PATH);
		ASSERT_LE(0, got);
		close(got);
		check_case(_metadata, self->fd, self->rootfd, &hot[i], hot[i].path, "lookup");
	}
	/* a name never looked up: not in the dcache */
	snprintf(name, sizeof(name), "etc/cold-%d", getpid());
	{
		struct scope_case cold = { NULL, name, RESOLVE_CACHED };

		EXPECT_EQ(EAGAIN, check_case(_metadata, self->fd, self->rootfd, &cold,
					     name, "lookup"));
	}
	/* O_TRUNC: refused before any walk; the module cannot ask the kernel */
	snprintf(req, sizeof(req), "mode=open flags=trunc at=%d resolve=cached path=etc/passwd",
		 self->rootfd);
	ASSERT_EQ(0, resolve(self->fd, req, &r));
	got = sys_openat2(self->rootfd, "etc/passwd", O_RDONLY | O_TRUNC, RESOLVE_CACHED);
	EXPECT_EQ(-EAGAIN, got);
	EXPECT_STREQ("-EAGAIN", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_STREQ("unchecked", r.verdict) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, "reason=cached-trunc-refused-before-the-walk"))
		TH_LOG("%s", r.text);
	result_free(&r);
	/* ".." out of the mount: the kernel stays in RCU mode, the shadow cannot */
	got = openat(self->rootfd, "mnt/self", O_PATH);
	ASSERT_LE(0, got);
	close(got);
	snprintf(req, sizeof(req), "at=%d resolve=cached path=mnt/self", self->rootfd);
	ASSERT_EQ(0, resolve(self->fd, req, &r));
	if (strcmp(r.verdict, "match")) {
		EXPECT_STREQ("unchecked", r.verdict) TH_LOG("%s", r.text);
		EXPECT_NE(NULL, strstr(r.text, "reason=left-rcu-where-the-kernel-need-not"))
			TH_LOG("%s", r.text);
	}
	result_free(&r);
}

/*
 * ".." from a mount's root whose mountpoint is the walk's root: the
 * kernel's choose_mountpoint climbs to the root and stays where it was
 * (in_root), so RESOLVE_NO_XDEV has nothing to refuse.  A tmpfs on "/"
 * of a namespace of the child's own, its cwd that tmpfs's root ("/.."
 * crosses onto it), the process root the covered "/".
 */
static int dotdot_under_a_mount_on_the_root(void)
{
	int fd = open(RESOLVE, O_RDWR), got;
	char dev[32];
	unsigned long ino;
	struct result r;

	if (fd < 0 || unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("nss-over-root", "/", "tmpfs", 0, NULL) || chdir("/.."))
		return 2;
	got = sys_openat2(AT_FDCWD, "..", O_PATH, RESOLVE_NO_XDEV);
	if (got < 0 || resolve(fd, "resolve=no_xdev path=..", &r))
		return 3;
	fd_object(got, dev, sizeof(dev), &ino);
	if (strcmp(r.verdict, "match") || strcmp(r.shadow_err, "0") ||
	    strcmp(r.dev, dev) || r.ino != ino) {
		fprintf(stderr, "# openat2 found %s %lu:\n%s", dev, ino, r.text);
		return 4;
	}
	return 0;
}

TEST(no_xdev_dotdot_under_a_mount_on_the_root)
{
	expect_child_ok(_metadata, dotdot_under_a_mount_on_the_root);
}

/* ------------------------------------------------------------------ */
/* rename_attack_test.c, through the shadow                            */

static long *attack_changes;

/* a/c and b swap places, for ever; each swap counted. */
static pid_t spawn_attack(void)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	for (;;)
		if (!syscall(SYS_renameat2, AT_FDCWD, S "/ra/a/c", AT_FDCWD, S "/ra/b",
			     RENAME_EXCHANGE))
			__atomic_add_fetch(attack_changes, 1, __ATOMIC_RELAXED);
}

/*
 * ".." climbed over and over from c, relative to a descriptor on a,
 * while a/c and b swap places: no walk of the shadow may end outside a
 * -- it finds a itself, or says EXDEV (BENEATH) or EAGAIN (a rename
 * moved while it climbed) -- and every verdict is match or raced.
 */
static void rename_attack(struct __test_metadata *_metadata, int fd, const char *word)
{
	static const char victim[] = "c/../../c/../../c/../../c/../../c/../../c/../.."
		"/c/../../c/../../c/../../c/../..";
	long i, walks = race_walks(4000), escapes = 0, verdicts[3] = {};
	long exdev = 0, eagain = 0, found = 0, changes;
	char req[256], dev[32];
	unsigned long ino;
	struct result r;
	pid_t pid;
	int afd;

	afd = open(S "/ra/a", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, afd);
	fd_object(afd, dev, sizeof(dev), &ino);
	snprintf(req, sizeof(req), "at=%d resolve=%s path=%s", afd, word, victim);
	*attack_changes = 0;
	pid = spawn_attack();
	ASSERT_LT(0, pid);
	for (i = 0; i < walks; i++) {
		if (resolve(fd, req, &r))
			break;
		if (!strcmp(r.shadow_err, "-EXDEV"))
			exdev++;
		else if (!strcmp(r.shadow_err, "-EAGAIN"))
			eagain++;
		else if (!strcmp(r.shadow_err, "0") && !strcmp(r.dev, dev) && r.ino == ino)
			found++;
		else if (escapes++ < 5)
			fprintf(stderr, "# %s: escaped:\n%s", word, r.text);
		verdicts[!strcmp(r.verdict, "match") ? 0 :
			 !strcmp(r.verdict, "raced") ? 1 : 2]++;
		if (strcmp(r.verdict, "match") && strcmp(r.verdict, "raced"))
			fprintf(stderr, "# %s: %s:\n%s", word, r.verdict, r.text);
		result_free(&r);
	}
	changes = __atomic_load_n(attack_changes, __ATOMIC_RELAXED);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(afd);
	fprintf(stderr, "# rename attack, %s: %ld walks: %ld found a, %ld EXDEV, %ld EAGAIN, "
		"%ld escapes; %ld match, %ld raced, %ld other; %ld swaps\n", word, i,
		found, exdev, eagain, escapes, verdicts[0], verdicts[1], verdicts[2], changes);
	EXPECT_EQ(walks, i);
	EXPECT_EQ(0, escapes);
	EXPECT_EQ(0, verdicts[2]);
	/* the swaps ran while the walks did */
	EXPECT_LT(0, changes);
}

TEST_F_TIMEOUT(scope, rename_attack, 600)
{
	attack_changes = mmap(NULL, sizeof(*attack_changes), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, attack_changes);
	mkdir_p(S "/ra", 0755);
	mkdir_p(S "/ra/a", 0755);
	mkdir_p(S "/ra/a/c", 0755);
	mkdir_p(S "/ra/b", 0755);
	rename_attack(_metadata, self->fd, "beneath");
	rename_attack(_metadata, self->fd, "in_root");
	munmap(attack_changes, sizeof(*attack_changes));
}

TEST_HARNESS_MAIN
