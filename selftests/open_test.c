// SPDX-License-Identifier: GPL-2.0
/*
 * mode=open: the open handler's decisions as a dry run, checked against
 * real open(2) calls.  For every target of a scratch directory and every
 * combination of creat, excl, nofollow, directory, path, trunc and the
 * access mode, the shadow says what open(2) would do; the scratch state
 * must not change by asking; then open(2) itself is called on the same
 * name, and the two must agree on the errno, on whether something was
 * created, and on the object opened.  Opens that create nothing are
 * also checked inside the module, against the kernel's O_PATH open.
 * Then the named divergences between 4.2 and the running kernel.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define O	"/tmp/nso"
#define W	O "/w"


static const struct { int flag; const char *name; } bits[] = {
	{ O_CREAT, "creat" }, { O_EXCL, "excl" }, { O_NOFOLLOW, "nofollow" },
	{ O_DIRECTORY, "directory" }, { O_PATH, "path" }, { O_TRUNC, "trunc" },
};

static const struct { int flag; const char *name; } accs[] = {
	{ O_RDONLY, NULL }, { O_WRONLY, "wronly" }, { O_RDWR, "rdwr" },
};

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	return remove(path);
}

/* A fresh scratch directory, made as root whoever is testing. */
static void reset_scratch(void)
{
	uid_t euid = geteuid();

	must(!seteuid(0), "seteuid(0)");
	nftw(W, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	mkdir_p(W, 0755);
	mkdir_p(W "/dir", 0755);
	mkfile(W "/dir/inner");
	must(!truncate(W "/dir/inner", 1), "dir/inner");
	mkfile(W "/file");
	must(!truncate(W "/file", 1), "file");
	must(!symlink("file", W "/lnk"), "lnk");
	must(!symlink("dir", W "/dlnk"), "dlnk");
	must(!symlink("newfile", W "/dangling"), "dangling");
	must(!mknod(W "/null", S_IFCHR | 0666, makedev(1, 3)), "null");
	mkdir_p(W "/nowrite", 0755);
	mkfile(W "/nowrite/file");
	must(!chdir(W), "chdir into the new scratch directory");
	must(!seteuid(euid), "seteuid back");
}

/* The scratch directory as text: every name, its type and size. */
static char snap_buf[16384];
static size_t snap_len;

static int snap_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	snap_len += snprintf(snap_buf + snap_len, sizeof(snap_buf) - snap_len,
			     "%s %o %lld\n", path, st->st_mode, (long long)st->st_size);
	return snap_len >= sizeof(snap_buf);
}

static char *snapshot(void)
{
	snap_len = 0;
	snap_buf[0] = '\0';
	nftw(W, snap_one, 16, FTW_PHYS);
	return strdup(snap_buf);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* "flags=creat,excl,..." for @oflags; none: "flags=follow" (open's default). */
static void flag_list(int oflags, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(accs) / sizeof(accs[0]); i++)
		if (accs[i].name && (oflags & O_ACCMODE) == accs[i].flag)
			n += snprintf(buf + n, size - n, "%s,", accs[i].name);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (oflags & bits[i].flag)
			n += snprintf(buf + n, size - n, "%s,", bits[i].name);
	if (n)
		buf[n - 1] = '\0';
	else
		snprintf(buf, size, "follow");
}

/*
 * The scratch directory as the last check left it, when that was as
 * reset_scratch() makes it; NULL when it must be made afresh.  Most
 * opens change nothing, and remaking the directory for each of them
 * was most of this test's time on the debug kernel.
 */
static char *scratch_now;

/*
 * One target, one set of flags: the shadow's dry run, then open(2).
 * Returns the number of disagreements (each one logged).
 */
static int check_open(int fd, int atfd, const char *target, int oflags)
{
	char flags[128], req[256], dev[32];
	char *before, *after_shadow, *after_open;
	int ofd, oerr, bad = 0, created;
	struct result r;
	struct stat st;

	if (!scratch_now) {
		reset_scratch();
		scratch_now = snapshot();
	}
	before = scratch_now;
	scratch_now = NULL;
	flag_list(oflags, flags, sizeof(flags));
	if (atfd >= 0)
		snprintf(req, sizeof(req), "mode=open flags=%s at=%d path=%s", flags,
			 atfd, target);
	else
		snprintf(req, sizeof(req), "mode=open flags=%s path=%s", flags, target);
	if (resolve(fd, req, &r) || r.write_errno) {
		fprintf(stderr, "# %s: refused: %s", req, r.text ? r.text : "");
		result_free(&r);
		free(before);
		return 1;
	}
	after_shadow = snapshot();
	if (strcmp(before, after_shadow)) {
		fprintf(stderr, "# %s: the dry run changed the scratch directory\n", req);
		bad++;
	}
	ofd = openat(atfd >= 0 ? atfd : AT_FDCWD, target, oflags, 0644);
	oerr = ofd < 0 ? errno : 0;
	if (ofd >= 0) {
		fstat(ofd, &st);
		close(ofd);
	}
	after_open = snapshot();
	created = count_lines(after_open) > count_lines(before);

	if (strcmp(errno_name(oerr), r.shadow_err)) {
		fprintf(stderr, "# %s: open(2) gives %s, the shadow %s\n%s", req,
			errno_name(oerr), r.shadow_err, r.text);
		bad++;
	}
	if (created != !!strstr(r.text, "shadow err=0 action=create") &&
	    created != !!strstr(r.text, " action=create ")) {
		fprintf(stderr, "# %s: open(2) %s, the shadow says otherwise\n%s", req,
			created ? "created a file" : "created nothing", r.text);
		bad++;
	}
	if (!oerr && !created) {
		snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
		if (strcmp(dev, r.dev) || st.st_ino != r.ino) {
			fprintf(stderr, "# %s: open(2) opened %s ino %lu\n%s", req, dev,
				(unsigned long)st.st_ino, r.text);
			bad++;
		}
	}
	if (strcmp(r.verdict, (oflags & O_CREAT) && !(oflags & O_PATH) ?
		   "unchecked" : "match")) {
		fprintf(stderr, "# %s: verdict %s\n%s", req, r.verdict, r.text);
		bad++;
	}
	result_free(&r);
	/* unchanged by the dry run and by open(2): the next check starts here */
	if (!strcmp(before, after_shadow) && !strcmp(before, after_open)) {
		scratch_now = after_open;
		after_open = NULL;
	}
	free(before);
	free(after_shadow);
	free(after_open);
	return bad;
}

/* Every access mode and every subset of the other flags, on @target. */
static int check_all_flags(int fd, int atfd, const char *target)
{
	size_t a, mask, i;
	int bad = 0;

	for (a = 0; a < sizeof(accs) / sizeof(accs[0]); a++) {
		for (mask = 0; mask < 1u << (sizeof(bits) / sizeof(bits[0])); mask++) {
			int oflags = accs[a].flag;

			for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
				if (mask & (1u << i))
					oflags |= bits[i].flag;
			bad += check_open(fd, atfd, target, oflags);
		}
	}
	return bad;
}

/*
 * A representative set, for the variants that repeat the checks
 * elsewhere (ext4, at=) and for the debug kernel: each access mode,
 * truncation, creation, O_PATH and the walk flags.
 */
static int check_some_flags(int fd, int atfd, const char *target)
{
	static const int some[] = {
		O_RDONLY, O_WRONLY, O_RDWR, O_RDONLY | O_TRUNC, O_WRONLY | O_TRUNC,
		O_WRONLY | O_CREAT, O_RDONLY | O_CREAT | O_EXCL, O_PATH,
		O_RDONLY | O_DIRECTORY, O_RDONLY | O_NOFOLLOW, O_PATH | O_NOFOLLOW,
		O_RDONLY | O_CREAT | O_DIRECTORY,
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(some); i++)
		bad += check_open(fd, atfd, target, some[i]);
	return bad;
}

/* The file being executed, for ETXTBSY. */
static pid_t busy_pid = -1;

static void start_busy(struct __test_metadata *_metadata)
{
	char exe[PATH_MAX] = "", proc[64];
	int i;

	ASSERT_EQ(0, system("cp /bin/sleep " O "/busy"));
	busy_pid = fork();
	ASSERT_LE(0, busy_pid);
	if (busy_pid == 0) {
		execl(O "/busy", "busy", "1000", (char *)NULL);
		_exit(127);
	}
	snprintf(proc, sizeof(proc), "/proc/%d/exe", busy_pid);
	for (i = 0; i < 1000 && strcmp(exe, O "/busy"); i++) {
		ssize_t n = readlink(proc, exe, sizeof(exe) - 1);

		exe[n > 0 ? n : 0] = '\0';
		usleep(10000);
	}
	ASSERT_STREQ(O "/busy", exe);
}

static void stop_busy(void)
{
	if (busy_pid > 0) {
		kill(busy_pid, SIGKILL);
		waitpid(busy_pid, NULL, 0);
	}
	busy_pid = -1;
}

/*
 * The scratch mounts: a tmpfs /tmp in a private namespace (O on an ext4
 * of its own for @ext4), in O a read-only tmpfs, a read-only bind mount,
 * a file being executed, a socket and an append-only file.
 */
static void setup_mounts(struct __test_metadata *_metadata, int ext4)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = O "/sock" };
	int sfd;

	enter_scratch_namespace("nso");
	mkdir_p(O, 0755);
	if (ext4)
		mount_ext4("/tmp/nso.img", O);
	mkdir_p(O "/ro", 0755);
	ASSERT_EQ(0, mount("nso-ro", O "/ro", "tmpfs", 0, NULL));
	mkfile(O "/ro/file");
	ASSERT_EQ(0, mount(NULL, O "/ro", NULL, MS_REMOUNT | MS_RDONLY, NULL));
	mkdir_p(O "/rosrc", 0755);
	mkfile(O "/rosrc/file");
	mkdir_p(O "/robind", 0755);
	ASSERT_EQ(0, mount(O "/rosrc", O "/robind", NULL, MS_BIND, NULL));
	ASSERT_EQ(0, mount(NULL, O "/robind", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL));
	start_busy(_metadata);
	sfd = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, bind(sfd, (struct sockaddr *)&sun, sizeof(sun)));
	close(sfd);
	mkfile(O "/append");
	ASSERT_EQ(0, system("chattr +a " O "/append"));
	reset_scratch();
}

static void teardown_mounts(struct __test_metadata *_metadata, int ext4)
{
	if (seteuid(0))
		fprintf(stderr, "# cannot get root back\n");
	if (chdir("/"))
		fprintf(stderr, "# chdir /\n");
	stop_busy();
	EXPECT_EQ(0, system("chattr -a " O "/append"));
	EXPECT_EQ(0, umount2(O "/robind", 0)) TH_LOG("ro bind mount busy");
	EXPECT_EQ(0, umount2(O "/ro", 0)) TH_LOG("ro mount busy");
	if (ext4)
		EXPECT_EQ(0, umount2(O, 0)) TH_LOG("ext4 mount busy");
	EXPECT_EQ(0, umount2("/tmp", 0)) TH_LOG("scratch mount busy");
}

FIXTURE(open) {
	int fd;
};

/*
 * One target of the scratch directory, as root or as nobody; on tmpfs
 * with every flag, or on ext4 or through an at= descriptor (on O: the
 * target is then under w/) with a representative set.
 */
FIXTURE_VARIANT(open) {
	const char *target;
	int nobody;
	int ext4;
	int at;
};

#define TARGET(name, path, as_nobody) \
	FIXTURE_VARIANT_ADD(open, name) { .target = path, .nobody = as_nobody }
#define TARGET_EXT4(name, path, as_nobody) \
	FIXTURE_VARIANT_ADD(open, ext4_##name) { \
		.target = path, .nobody = as_nobody, .ext4 = 1 }
#define TARGET_AT(name, path, as_nobody) \
	FIXTURE_VARIANT_ADD(open, at_##name) { \
		.target = path, .nobody = as_nobody, .at = 1 }

TARGET(file, "file", 0);
TARGET(dir, "dir", 0);
TARGET(link_to_file, "lnk", 0);
TARGET(link_to_dir, "dlnk", 0);
TARGET(dangling, "dangling", 0);
TARGET(missing, "missing", 0);
TARGET(dot, ".", 0);
TARGET(dotdot, "..", 0);
TARGET(dir_slash, "dir/", 0);
TARGET(file_slash, "file/", 0);
TARGET(missing_slash, "missing/", 0);
TARGET(link_to_file_slash, "lnk/", 0);
TARGET(link_to_dir_slash, "dlnk/", 0);
TARGET(dangling_slash, "dangling/", 0);
TARGET(char_device, "null", 0);
TARGET(inner_file, "dir/inner", 0);
TARGET(readonly_mount_file, "../ro/file", 0);
TARGET(readonly_mount_new, "../ro/new", 0);
TARGET(nobody_file, "file", 1);
TARGET(nobody_unwritable_dir_new, "nowrite/new", 1);
TARGET(nobody_unwritable_file, "nowrite/file", 1);
TARGET(nobody_inner_file, "dir/inner", 1);
TARGET(nobody_missing, "missing", 1);
/* What vfs_open() refuses: ETXTBSY, EROFS on a read-only bind, ENXIO, EPERM */
TARGET(busy_executable, "../busy", 0);
TARGET(readonly_bind_file, "../robind/file", 0);
TARGET(socket, "../sock", 0);
TARGET(append_only, "../append", 0);
TARGET(nobody_busy_executable, "../busy", 1);
TARGET_EXT4(file, "file", 0);
TARGET_EXT4(dir, "dir", 0);
TARGET_EXT4(link_to_file, "lnk", 0);
TARGET_EXT4(dangling, "dangling", 0);
TARGET_EXT4(missing, "missing", 0);
TARGET_EXT4(file_slash, "file/", 0);
TARGET_EXT4(dotdot, "..", 0);
TARGET_EXT4(busy_executable, "../busy", 0);
TARGET_EXT4(readonly_bind_file, "../robind/file", 0);
TARGET_EXT4(socket, "../sock", 0);
TARGET_EXT4(append_only, "../append", 0);
TARGET_EXT4(nobody_file, "file", 1);
TARGET_EXT4(nobody_unwritable_dir_new, "nowrite/new", 1);
TARGET_AT(file, "w/file", 0);
TARGET_AT(dir, "w/dir", 0);
TARGET_AT(link_to_file, "w/lnk", 0);
TARGET_AT(dot, ".", 0);
TARGET_AT(missing, "w/missing", 0);
TARGET_AT(busy_executable, "busy", 0);
TARGET_AT(socket, "sock", 0);
TARGET_AT(nobody_unwritable_file, "w/nowrite/file", 1);

FIXTURE_SETUP(open)
{
	/* the debug kernel is built without a block layer */
	if (variant->ext4 && access("/sys/block", F_OK))
		SKIP(return, "this kernel has no block layer: no loop device, no ext4");
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd);
	setup_mounts(_metadata, variant->ext4);
}

FIXTURE_TEARDOWN(open)
{
	teardown_mounts(_metadata, variant->ext4);
	close(self->fd);
}

/*
 * 192 combinations on tmpfs, the representative set elsewhere and on
 * the slow debug kernel (each request there costs a hundred times
 * more; its lockdep and KASAN see every handler with the set).
 */
TEST_F_TIMEOUT(open, every_flag, 600)
{
	int atfd = -1, bad;

	if (variant->at) {
		atfd = open(O, O_PATH | O_DIRECTORY);
		ASSERT_LE(0, atfd);
	}
	if (variant->nobody)
		ASSERT_EQ(0, seteuid(NOBODY));
	/* the slow debug kernel (NS_RACE_SCALE set): the representative set */
	if (variant->ext4 || variant->at || getenv("NS_RACE_SCALE"))
		bad = check_some_flags(self->fd, atfd, variant->target);
	else
		bad = check_all_flags(self->fd, atfd, variant->target);
	EXPECT_EQ(0, bad) TH_LOG("%d disagreements on %s", bad, variant->target);
	if (atfd >= 0)
		close(atfd);
}

/* ------------------------------------------------------------------ */
/* Where 4.2 and the running kernel differ                             */

/*
 * Since 6.4 (and in the stable kernels it went back to, Debian's 6.1
 * among them) open(2) refuses O_CREAT|O_DIRECTORY; before, it created
 * the file and then gave ENOTDIR.  Asked of open(2) itself.
 */
static int refuses_creat_directory(void)
{
	int fd = open("/.no-such-dir/x", O_CREAT | O_DIRECTORY | O_RDONLY, 0644);

	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EINVAL;
}

struct divergence_case {
	const char *request;	/* without semantics= */
	const char *name;	/* the divergence the shadow must name */
	const char *running;	/* the shadow's errno by default */
	const char *v42;	/* its errno with semantics=4.2 */
};

/*
 * Each named divergence: by default the shadow answers as this kernel
 * and names it; with semantics=4.2 it answers as 4.2, and the verdict is
 * "divergent".  A request without one is never "divergent".
 */
FIXTURE(divergence) {
	int fd;
};

FIXTURE_SETUP(divergence)
{
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd);
	setup_mounts(_metadata, 0);
}

FIXTURE_TEARDOWN(divergence)
{
	teardown_mounts(_metadata, 0);
	close(self->fd);
}

TEST_F(divergence, named)
{
	const struct divergence_case cases[] = {
		{ "mode=open flags=creat,excl path=.", "open-excl-dot", "-EEXIST", "-EISDIR" },
		{ "mode=open flags=creat,excl path=/", "open-excl-dot", "-EEXIST", "-EISDIR" },
		{ "mode=open flags=directory,nofollow path=lnk", "open-directory-nofollow",
		  "-ENOTDIR", "-ELOOP" },
		{ "mode=open flags=creat,directory path=missing", "open-creat-directory",
		  refuses_creat_directory() ? "-EINVAL" : "-ENOTDIR", "0" },
		{ "flags=follow path=../nosym/l", "nosymfollow", "-ELOOP", "0" },
	};
	char req[256];
	struct result r;
	size_t i;

	mkdir_p(O "/nosym", 0755);
	ASSERT_EQ(0, mount("nso-nosym", O "/nosym", "tmpfs", 256 /* MS_NOSYMFOLLOW */, NULL));
	ASSERT_EQ(0, symlink("../w/dir", O "/nosym/l"));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[64];

		ASSERT_EQ(0, resolve(self->fd, cases[i].request, &r));
		snprintf(want, sizeof(want), " divergence=%s", cases[i].name);
		EXPECT_NE(NULL, strstr(r.text, want)) TH_LOG("%s", r.text);
		EXPECT_STREQ(cases[i].running, r.shadow_err) TH_LOG("%s", r.text);
		EXPECT_STRNE("divergent", r.verdict) TH_LOG("%s", r.text);
		EXPECT_STRNE("mismatch", r.verdict) TH_LOG("%s", r.text);
		result_free(&r);

		snprintf(req, sizeof(req), "semantics=4.2 %s", cases[i].request);
		ASSERT_EQ(0, resolve(self->fd, req, &r));
		EXPECT_STREQ(cases[i].v42, r.shadow_err) TH_LOG("%s", r.text);
		EXPECT_STREQ("divergent", r.verdict) TH_LOG("%s", r.text);
		result_free(&r);
	}
	/* nothing to diverge on: never "divergent" */
	ASSERT_EQ(0, resolve(self->fd, "semantics=4.2 mode=open flags=rdwr path=file", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_EQ(NULL, strstr(r.text, "divergence=")) TH_LOG("%s", r.text);
	result_free(&r);
	ASSERT_EQ(0, resolve(self->fd, "semantics=4.2 path=lnk", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	result_free(&r);
	EXPECT_EQ(0, umount2(O "/nosym", 0));
}

/*
 * A trailing link's body is walked without the open's intent: the
 * kernel's open_last_lookups drops LOOKUP_OPEN, LOOKUP_CREATE and
 * LOOKUP_EXCL once step_into() hands it a body, so the filesystem is
 * not told "open" or "create" of the body's own directories (the final
 * name gets them again).  ns_test_lookup_flags counts what tmpfs's
 * lookup of the body's first name is told; the shadow walks first.
 */
TEST(link_body_walked_without_the_open_intent)
{
	static const char *const reqs[] = {
		"first=shadow mode=open path=/tmp/i/lnk",
		"first=shadow mode=open flags=rdwr path=/tmp/i/lnk",
		"first=shadow mode=open flags=creat path=/tmp/i/lnk",
		"first=shadow mode=open flags=creat,excl path=/tmp/i/dlnk/new",
	};
	int ko = open_test_module("ns_test_lookup_flags");
	char cmd[64];
	struct result r;
	unsigned int i;
	int fd;

	SKIP_WITHOUT_TESTMODS();
	ASSERT_LE(0, ko);
	fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, fd);
	enter_scratch_namespace("nso-intent");
	ASSERT_EQ(0, mkdir("/tmp/i", 0755));
	ASSERT_EQ(0, symlink("gone/x", "/tmp/i/lnk"));
	ASSERT_EQ(0, symlink("gone", "/tmp/i/dlnk"));
	snprintf(cmd, sizeof(cmd), "insmod /proc/self/fd/%d name=gone", ko);
	ASSERT_EQ(0, system(cmd));
	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		ASSERT_EQ(0, resolve(fd, reqs[i], &r));
		EXPECT_STREQ("-ENOENT", r.shadow_err) TH_LOG("%s", r.text);
		EXPECT_STRNE("mismatch", r.verdict) TH_LOG("%s", r.text);
		result_free(&r);
	}
	EXPECT_LE(1, module_param_int("ns_test_lookup_flags", "calls"));
	EXPECT_EQ(0, module_param_int("ns_test_lookup_flags", "with_intent"))
		TH_LOG("tmpfs was told of an open intent on a link body's directory");
	EXPECT_EQ(0, system("rmmod ns_test_lookup_flags"));
	close(ko);
	close(fd);
	EXPECT_EQ(0, umount2("/tmp", 0));
}

TEST(open_only_flags_refused_elsewhere)
{
	int fd = open(RESOLVE, O_RDWR);
	struct result r;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, resolve(fd, "flags=creat path=/tmp", &r));
	EXPECT_EQ(EINVAL, r.write_errno) TH_LOG("%s", r.text);
	result_free(&r);
	ASSERT_EQ(0, resolve(fd, "semantics=4.3 path=/tmp", &r));
	EXPECT_EQ(EINVAL, r.write_errno) TH_LOG("%s", r.text);
	result_free(&r);
	close(fd);
}

TEST_HARNESS_MAIN
