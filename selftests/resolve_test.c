// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the shadow walker through /sys/kernel/debug/namei_shadow/resolve.
 *
 * Every case is resolved by the shadow and by the kernel inside the
 * module, and must come back with verdict "match" AND the expected
 * errno; every success is also checked against a second, independent
 * oracle: stat(2)/lstat(2) from here, which must report the same
 * st_dev and st_ino.  The cases run over a scratch tree built on a
 * fresh tmpfs /tmp in a private mount namespace; every scratch mount
 * must unmount afterwards (a leaked reference would make it busy).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define T		"/tmp/nst"

/* T/chain/l0 -> ../dir, lN -> l(N-1): following lN follows N+1 links. */
static void build_chain(void)
{
	char name[64], target[64];
	int i;

	mkdir_p(T "/chain", 0755);
	mklink("../dir", T "/chain/l0");
	for (i = 1; i <= 40; i++) {
		snprintf(name, sizeof(name), T "/chain/l%d", i);
		snprintf(target, sizeof(target), "l%d", i - 1);
		mklink(target, name);
	}
}

/*
 * T/dir/{sub/,file}  T/file  T/noexec/child (mode 0700)
 * T/mnt: a tmpfs, holding inside
 * T/stack: two tmpfs on one directory, lower hidden, top visible
 * T/bindsrc/sub/deep, with T/bind a bind mount of T/bindsrc/sub
 * T/jail/inner (for chroot)   T/lnk -> dir  T/lnk2file -> file
 * T/dangling -> nowhere   T/lnk2mnt -> mnt   T/chain: 41 links (see build_chain)
 */
static void build_tree(void)
{
	enter_scratch_namespace("nst");
	mkdir_p(T, 0755);
	mkdir_p(T "/dir", 0755);
	mkdir_p(T "/dir/sub", 0755);
	mkfile(T "/dir/file");
	mkfile(T "/file");
	mkdir_p(T "/noexec", 0700);
	mkfile(T "/noexec/child");
	mkdir_p(T "/mnt", 0755);
	must(!mount("nst-mnt", T "/mnt", "tmpfs", 0, NULL), "tmpfs on mnt");
	mkfile(T "/mnt/inside");
	mkdir_p(T "/stack", 0755);
	must(!mount("nst-lower", T "/stack", "tmpfs", 0, NULL), "lower tmpfs");
	mkfile(T "/stack/lower");
	must(!mount("nst-top", T "/stack", "tmpfs", 0, NULL), "top tmpfs");
	mkfile(T "/stack/top");
	mkdir_p(T "/bindsrc", 0755);
	mkdir_p(T "/bindsrc/sub", 0755);
	mkfile(T "/bindsrc/sub/deep");
	mkdir_p(T "/bind", 0755);
	must(!mount(T "/bindsrc/sub", T "/bind", NULL, MS_BIND, NULL), "bind mount");
	mkdir_p(T "/jail", 0755);
	mkfile(T "/jail/inner");
	mklink("dir", T "/lnk");
	mklink("file", T "/lnk2file");
	mklink("nowhere", T "/dangling");
	mklink("mnt", T "/lnk2mnt");
	build_chain();
	mkdir_p(T "/bindsrc/sub/moving", 0755);
	must(!chdir(T), "chdir");
}

/* Every scratch mount must go: a reference leaked by a walk makes it busy. */
static int unmount_tree(void)
{
	static const char *const mounts[] = {
		T "/bind", T "/stack", T "/stack", T "/mnt", "/tmp",
	};

	return unmount_all(mounts, sizeof(mounts) / sizeof(mounts[0]));
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

enum at_kind { AT_NONE, AT_DIR, AT_OPATH, AT_FILE, AT_BAD, AT_CHAIN };
enum setup_kind { SETUP_NONE, SETUP_NOBODY, SETUP_CHROOT, SETUP_ESCAPE };
enum gen_kind { GEN_NONE, GEN_NAME256_TMPFS, GEN_NAME255_TMPFS,
		GEN_NAME256_PROCFS, GEN_NAME256_NOEXEC, GEN_PATH4095 };

FIXTURE(walk) {
	int fd;
	int dirfd, opathfd, filefd, chainfd;
	int rootfd;
	char path[PATH_MAX + 1];
};

FIXTURE_VARIANT(walk) {
	const char *path;
	const char *mode;	/* NULL: lookup */
	const char *flags;	/* NULL: the default */
	enum at_kind at;
	enum setup_kind setup;
	enum gen_kind gen;
	int expect;		/* errno, or 0 */
	const char *stat_path;	/* success: stat this instead of path */
	int stat_flags;		/* AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH */
	const char *last;	/* parent mode */
	const char *last_type;
};

#define CASE(name, ...) \
	FIXTURE_VARIANT_ADD(walk, name) { __VA_ARGS__ }

/* Start points */
CASE(absolute, .path = T "/dir/file");
CASE(relative, .path = "dir/file");
CASE(at_dirfd, .path = "sub", .at = AT_DIR);
CASE(at_opath_fd, .path = "sub", .at = AT_OPATH);
CASE(at_file_fd_enotdir, .path = "x", .at = AT_FILE, .expect = ENOTDIR);
CASE(at_bad_fd_ebadf, .path = "x", .at = AT_BAD, .expect = EBADF);
CASE(at_bad_fd_absolute_ok, .path = T "/file", .at = AT_BAD);
CASE(empty_without_flag_enoent, .path = "", .expect = ENOENT);
CASE(empty_with_flag_cwd, .path = "", .flags = "empty", .stat_path = ".");
CASE(empty_at_file_fd, .path = "", .flags = "empty", .at = AT_FILE,
     .stat_flags = AT_EMPTY_PATH);
CASE(empty_at_dirfd_without_flag, .path = "", .at = AT_DIR, .expect = ENOENT);
/* Slashes and dots */
CASE(root, .path = "/");
CASE(root_slashes, .path = "///");
CASE(root_dotdot, .path = "/..");
CASE(root_dotdot_dotdot, .path = "/../..");
CASE(dot, .path = ".");
CASE(dotdot, .path = "..");
CASE(dot_inside, .path = "dir/./sub");
CASE(double_slash, .path = "dir//sub");
CASE(trailing_slash_dir, .path = "dir/");
CASE(trailing_slashes_dir, .path = "dir///");
CASE(trailing_slash_file_enotdir, .path = "file/", .expect = ENOTDIR);
CASE(dotdot_after_file_enotdir, .path = "file/..", .expect = ENOTDIR);
CASE(dot_after_file_enotdir, .path = "file/.", .expect = ENOTDIR);
/* Errors on the way */
CASE(intermediate_file_enotdir, .path = "file/x", .expect = ENOTDIR);
CASE(missing_intermediate_enoent, .path = "missing/x", .expect = ENOENT);
CASE(missing_trailing_slash_enoent, .path = "missing/", .expect = ENOENT);
CASE(missing_last_enoent, .path = "dir/missing", .expect = ENOENT);
CASE(directory_flag_on_file, .path = "file", .flags = "directory",
     .expect = ENOTDIR);
CASE(directory_flag_on_dir, .path = "dir", .flags = "directory");
CASE(name_max_plus_one_tmpfs, .gen = GEN_NAME256_TMPFS, .expect = ENAMETOOLONG);
CASE(name_max_tmpfs_enoent, .gen = GEN_NAME255_TMPFS, .expect = ENOENT);
CASE(name_max_plus_one_procfs, .gen = GEN_NAME256_PROCFS, .expect = ENOENT);
CASE(path_4095_bytes, .gen = GEN_PATH4095);
/* Permissions, with the writer's credentials */
CASE(eacces_search, .path = "noexec/child", .setup = SETUP_NOBODY,
     .expect = EACCES);
CASE(eacces_over_enoent, .path = "noexec/missing", .setup = SETUP_NOBODY,
     .expect = EACCES);
CASE(eacces_dot, .path = "noexec/.", .setup = SETUP_NOBODY, .expect = EACCES);
CASE(eacces_dotdot, .path = "noexec/..", .setup = SETUP_NOBODY,
     .expect = EACCES);
CASE(eacces_over_enametoolong, .gen = GEN_NAME256_NOEXEC,
     .setup = SETUP_NOBODY, .expect = EACCES);
CASE(noexec_dir_itself_ok, .path = "noexec", .setup = SETUP_NOBODY);
CASE(root_searches_noexec, .path = "noexec/child");
/* Mounts */
CASE(mount_crossed, .path = "mnt");
CASE(mount_inside, .path = "mnt/inside");
CASE(mount_dotdot_out, .path = "mnt/..");
CASE(mount_dotdot_twice, .path = "mnt/../mnt/..");
CASE(mount_stack_top, .path = "stack");
CASE(mount_stack_top_file, .path = "stack/top");
CASE(mount_stack_lower_hidden, .path = "stack/lower", .expect = ENOENT);
CASE(mount_stack_dotdot, .path = "stack/..");
CASE(bind_mount_inside, .path = "bind/deep");
CASE(bind_mount_dotdot, .path = "bind/..");
CASE(mountpoint_mode_mount, .path = "mnt", .mode = "mountpoint");
CASE(mountpoint_mode_stack, .path = "stack", .mode = "mountpoint");
CASE(mountpoint_mode_plain, .path = "dir/file", .mode = "mountpoint");
CASE(mountpoint_mode_missing, .path = "dir/missing", .mode = "mountpoint",
     .expect = ENOENT);
/* LOOKUP_MOUNTPOINT walks as path_lookupat: its trailing rules apply */
CASE(mountpoint_mode_trailing_slash_file_enotdir, .path = "dir/file/",
     .mode = "mountpoint", .expect = ENOTDIR);
CASE(mountpoint_mode_directory_flag_file, .path = "dir/file",
     .mode = "mountpoint", .flags = "directory", .expect = ENOTDIR);
CASE(mountpoint_mode_trailing_slash_mount, .path = "mnt/", .mode = "mountpoint");
CASE(mountpoint_mode_link_followed, .path = "lnk2mnt", .mode = "mountpoint");
CASE(mountpoint_mode_link_nofollow, .path = "lnk2mnt", .mode = "mountpoint",
     .flags = "nofollow", .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(mountpoint_mode_link_trailing_slash, .path = "lnk2mnt/",
     .mode = "mountpoint", .flags = "nofollow");
CASE(mountpoint_mode_dotdot_mount, .path = "mnt/..", .mode = "mountpoint");
/* Parent mode: the parent, the last component and its type */
CASE(parent_norm, .path = "dir/file", .mode = "parent", .stat_path = "dir",
     .last = "file", .last_type = "norm");
CASE(parent_norm_missing_last, .path = "dir/nothing", .mode = "parent",
     .stat_path = "dir", .last = "nothing", .last_type = "norm");
CASE(parent_norm_trailing_slash, .path = "dir/sub/", .mode = "parent",
     .stat_path = "dir", .last = "sub", .last_type = "norm");
CASE(parent_dot, .path = "dir/.", .mode = "parent", .stat_path = "dir",
     .last = ".", .last_type = "dot");
CASE(parent_dotdot, .path = "dir/..", .mode = "parent", .stat_path = "dir",
     .last = "..", .last_type = "dotdot");
CASE(parent_root, .path = "/", .mode = "parent", .stat_path = "/",
     .last = "", .last_type = "root");
CASE(parent_single, .path = "file", .mode = "parent", .stat_path = ".",
     .last = "file", .last_type = "norm");
CASE(parent_absolute, .path = T "/mnt/inside", .mode = "parent",
     .stat_path = T "/mnt", .last = "inside", .last_type = "norm");
CASE(parent_at_dirfd, .path = "sub/x", .mode = "parent", .at = AT_DIR,
     .stat_path = T "/dir/sub", .last = "x", .last_type = "norm");
CASE(parent_enotdir, .path = "file/x", .mode = "parent", .expect = ENOTDIR);
CASE(parent_enoent, .path = "missing/x", .mode = "parent", .expect = ENOENT);
/* A chroot'ed writer */
CASE(chroot_root_dotdot, .path = "/..", .setup = SETUP_CHROOT);
CASE(chroot_dotdot_inner, .path = "/../../inner", .setup = SETUP_CHROOT);
CASE(chroot_relative_dotdot, .path = "..", .setup = SETUP_CHROOT);
/* A bind mount escaped by rename: ".." from outside its root */
CASE(bind_escape_dotdot_enoent, .path = "..", .setup = SETUP_ESCAPE,
     .expect = ENOENT);
CASE(bind_escape_dot_ok, .path = ".", .setup = SETUP_ESCAPE);
/* The 40-link boundary, relative to a dirfd */
CASE(at_chain_40_links, .path = "l39", .at = AT_CHAIN, .stat_path = T "/dir");
CASE(at_chain_41_links_eloop, .path = "l40", .at = AT_CHAIN, .expect = ELOOP);
CASE(at_chain_41_intermediate_eloop, .path = "l40/file", .at = AT_CHAIN,
     .expect = ELOOP);
CASE(at_chain_40_intermediate, .path = "l39/file", .at = AT_CHAIN,
     .stat_path = T "/dir/file");
/* Revalidating filesystems: the guest's 9p root, procfs */
CASE(ninep_root_file, .path = "/usr/bin/env");
CASE(ninep_dir, .path = "/usr/share");
CASE(procfs_self_status, .path = "/proc/self/status");
CASE(procfs_missing, .path = "/proc/self/nothing", .expect = ENOENT);
/* Trailing links and slashes */
CASE(trailing_link_nofollow, .path = "lnk", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(trailing_link_follow, .path = "lnk");
CASE(trailing_link_slash_nofollow, .path = "lnk/", .flags = "nofollow");
CASE(link_to_file_slash_enotdir, .path = "lnk2file/", .expect = ENOTDIR);
CASE(dangling_slash_enoent, .path = "dangling/", .expect = ENOENT);
CASE(dangling_follow_enoent, .path = "dangling", .expect = ENOENT);
CASE(link_nofollow_directory_enotdir, .path = "lnk",
     .flags = "nofollow,directory", .expect = ENOTDIR);

FIXTURE_SETUP(walk)
{
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", RESOLVE, strerror(errno));
	build_tree();
	self->rootfd = open("/", O_PATH | O_DIRECTORY);	/* this namespace's */
	ASSERT_LE(0, self->rootfd);
	self->dirfd = open(T "/dir", O_RDONLY | O_DIRECTORY);
	self->opathfd = open(T "/dir", O_PATH);
	self->filefd = open(T "/file", O_RDONLY);
	self->chainfd = open(T "/chain", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, self->chainfd);
	ASSERT_LE(0, self->dirfd);
	ASSERT_LE(0, self->opathfd);
	ASSERT_LE(0, self->filefd);
}

FIXTURE_TEARDOWN(walk)
{
	close(self->dirfd);
	close(self->opathfd);
	close(self->filefd);
	close(self->chainfd);
	/* back to full credentials and the real root */
	if (seteuid(0) || setegid(0))
		fprintf(stderr, "# cannot get root back\n");
	if (fchdir(self->rootfd) || chroot("."))
		fprintf(stderr, "# cannot leave the chroot\n");
	EXPECT_EQ(0, unmount_tree()) TH_LOG("a scratch mount stayed busy");
	close(self->rootfd);
	close(self->fd);
}

static int at_fd(FIXTURE_DATA(walk) *self, enum at_kind at)
{
	switch (at) {
	case AT_DIR:
		return self->dirfd;
	case AT_OPATH:
		return self->opathfd;
	case AT_FILE:
		return self->filefd;
	case AT_BAD:
		return 1000;
	case AT_CHAIN:
		return self->chainfd;
	default:
		return AT_FDCWD;
	}
}

/* What openat(2) (fstatat for AT_EMPTY_PATH) says about the same name. */
static int userspace_errno(int fd, const char *path, const char *flags)
{
	int nofollow = flags && strstr(flags, "nofollow");
	struct stat st;
	int ofd;

	if (flags && strstr(flags, "empty"))
		return fstatat(fd, path, &st, AT_EMPTY_PATH) ? errno : 0;
	ofd = openat(fd, path, O_PATH | (nofollow ? O_NOFOLLOW : 0));
	if (ofd < 0)
		return errno;
	close(ofd);
	return 0;
}

static const char *gen_path(char *buf, enum gen_kind gen, const char *path)
{
	const char *prefix = NULL;
	size_t n = 256;

	switch (gen) {
	case GEN_NONE:
		return path;
	case GEN_NAME255_TMPFS:
		n = 255;
		/* fall through */
	case GEN_NAME256_TMPFS:
		prefix = "dir/";
		break;
	case GEN_NAME256_PROCFS:
		prefix = "/proc/";
		break;
	case GEN_NAME256_NOEXEC:
		prefix = "noexec/";
		break;
	case GEN_PATH4095:
		/* slashes collapse: 4095 bytes naming T/dir/file */
		n = 4095 - strlen(T "/dir/file");
		memset(buf, '/', n);
		strcpy(buf + n, T "/dir/file");
		return buf;
	}
	strcpy(buf, prefix);
	memset(buf + strlen(prefix), 'x', n);
	buf[strlen(prefix) + n] = '\0';
	return buf;
}

TEST_F(walk, resolve)
{
	const char *path = gen_path(self->path, variant->gen, variant->path);
	const char *stat_path = variant->stat_path ? variant->stat_path : path;
	int fd = at_fd(self, variant->at);
	char *req = malloc(PATH_MAX + 128);
	struct result r;
	struct stat st;
	char dev[32];
	int n;

	ASSERT_NE(NULL, req);
	if (variant->setup == SETUP_NOBODY) {
		ASSERT_EQ(0, setegid(NOBODY));
		ASSERT_EQ(0, seteuid(NOBODY));
	} else if (variant->setup == SETUP_ESCAPE) {
		/* cwd inside the bind mount, then moved out of its root */
		ASSERT_EQ(0, chdir(T "/bind/moving"));
		ASSERT_EQ(0, rename(T "/bindsrc/sub/moving", T "/bindsrc/moved"));
	} else if (variant->setup == SETUP_CHROOT) {
		ASSERT_EQ(0, chroot(T "/jail"));
		ASSERT_EQ(0, chdir("/"));
	}
	n = snprintf(req, PATH_MAX + 128, "mode=%s",
		     variant->mode ? variant->mode : "lookup");
	if (variant->flags)
		n += snprintf(req + n, PATH_MAX + 128 - n, " flags=%s", variant->flags);
	if (variant->at)
		n += snprintf(req + n, PATH_MAX + 128 - n, " at=%d", fd);
	snprintf(req + n, PATH_MAX + 128 - n, " path=%s", path);

	ASSERT_EQ(0, resolve(self->fd, req, &r));
	ASSERT_EQ(0, r.write_errno) TH_LOG("write refused: %s", r.text);
	EXPECT_STREQ("match", r.verdict)
		TH_LOG("cross-check failed: shadow and kernel disagree:\n%s", r.text);
	EXPECT_STREQ(errno_name(variant->expect), r.shadow_err)
		TH_LOG("wrong errno:\n%s", r.text);
	if (!variant->expect && !strcmp(r.shadow_err, "0")) {
		int sfd = variant->stat_path ? AT_FDCWD : fd;

		ASSERT_EQ(0, fstatat(sfd, stat_path, &st, variant->stat_flags))
			TH_LOG("stat oracle: stat %s: %s", stat_path, strerror(errno));
		snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
		EXPECT_STREQ(dev, r.dev)
			TH_LOG("stat oracle: st_dev differs:\n%s", r.text);
		EXPECT_EQ((unsigned long)st.st_ino, r.ino)
			TH_LOG("stat oracle: st_ino differs:\n%s", r.text);
	}
	if (!variant->mode && !(variant->flags && strstr(variant->flags, "directory"))) {
		/* openat(2) itself must agree with the expected errno */
		int oerr = userspace_errno(fd, path, variant->flags);

		EXPECT_STREQ(errno_name(variant->expect), errno_name(oerr))
			TH_LOG("openat(2) from userspace disagrees: %s", strerror(oerr));
	}
	if (variant->last) {
		EXPECT_STREQ(variant->last, r.last) TH_LOG("%s", r.text);
		EXPECT_STREQ(variant->last_type, r.last_type) TH_LOG("%s", r.text);
	}
	result_free(&r);
	free(req);
}

/* ------------------------------------------------------------------ */
/* Bad input: a clear errno, a reason to read back, nothing changed    */

static void expect_refused(struct __test_metadata *_metadata, const char *req,
			   size_t len, int err)
{
	int fd = open(RESOLVE, O_RDWR);
	long before = stat_counter("requests");
	struct result r;
	char want[64];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, resolve_len(fd, req, len, &r));
	EXPECT_EQ(err, r.write_errno) TH_LOG("request '%.60s': %s", req, r.text);
	snprintf(want, sizeof(want), "error err=%s reason=", errno_name(err));
	EXPECT_EQ(0, strncmp(r.text, want, strlen(want))) TH_LOG("read back: %s", r.text);
	EXPECT_EQ(before, stat_counter("requests")) TH_LOG("a refused request was counted");
	result_free(&r);
	close(fd);
}

/* A request without NUL bytes: its length is its strlen. */
static void expect_refused_str(struct __test_metadata *_metadata,
			       const char *req, int err)
{
	expect_refused(_metadata, req, strlen(req), err);
}

TEST(bad_unknown_key)
{
	expect_refused_str(_metadata, "mode=lookup bogus=1 path=/", EINVAL);
}

TEST(bad_mode_value)
{
	expect_refused_str(_metadata, "mode=sideways path=/", EINVAL);
}

TEST(bad_flag)
{
	expect_refused_str(_metadata, "flags=follow,sideways path=/", EINVAL);
}

TEST(bad_contradicting_flags)
{
	expect_refused_str(_metadata, "flags=follow,nofollow path=/", EINVAL);
}

TEST(bad_at_value)
{
	expect_refused_str(_metadata, "at=three path=x", EINVAL);
	/* a descriptor number is digits: not AT_FDCWD's -100, nor "+3" */
	expect_refused_str(_metadata, "at=-100 path=x", EINVAL);
	expect_refused_str(_metadata, "at=+3 path=x", EINVAL);
}

/* write(2) of @len bytes at @buf to @file: 0, or the errno. */
static int write_errno(const char *file, const void *buf, size_t len)
{
	int fd = open(file, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) < 0)
		err = errno;
	close(fd);
	return err;
}

/* The control files read their one word, and only that word. */
TEST(control_words)
{
	EXPECT_EQ(0, write_errno(STATS, "  reset \n", 9));
	EXPECT_EQ(EINVAL, write_errno(STATS, "resets", 6));
	EXPECT_EQ(EFAULT, write_errno(STATS, (void *)1, 5));
	EXPECT_EQ(EINVAL, write_errno(NS_DIR "/mismatches", "junk", 4));
	EXPECT_EQ(EFAULT, write_errno(NS_DIR "/mismatches", (void *)1, 5));
	EXPECT_EQ(0, write_errno(NS_DIR "/mismatches", "clear\n", 6));
}

/* rcu_lookup_check: its own result per fd; a failed write leaves none. */
TEST(rcu_lookup_check_per_fd)
{
	int a = open(NS_DIR "/rcu_lookup_check", O_RDWR);
	int b = open(NS_DIR "/rcu_lookup_check", O_RDWR);
	char out[64] = "";

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(13, write(a, "  /usr   bin\n", 13)) TH_LOG("%s", strerror(errno));
	ASSERT_LT(0, pread(a, out, sizeof(out) - 1, 0));
	EXPECT_TRUE(!strncmp(out, "same found=y", 12) || !strncmp(out, "unavailable", 11))
		TH_LOG("%s", out);
	EXPECT_EQ(-1, write(b, "/usr b\0in", 9));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, pread(b, out, sizeof(out) - 1, 0));
	EXPECT_LT(0, pread(a, out, sizeof(out) - 1, 0));
	close(a);
	close(b);
}

TEST(bad_first_value)
{
	expect_refused_str(_metadata, "first=both path=/", EINVAL);
}

TEST(bad_key_twice)
{
	expect_refused_str(_metadata, "mode=lookup mode=parent path=/", EINVAL);
}

TEST(bad_path_without_key_after_options)
{
	expect_refused_str(_metadata, "mode=lookup /etc", EINVAL);
}

TEST(bad_embedded_nul)
{
	expect_refused(_metadata, "/etc\0/passwd", 12, EINVAL);
}

TEST(bad_empty_write)
{
	expect_refused_str(_metadata, "", EINVAL);
	expect_refused_str(_metadata, "\n", EINVAL);
}

TEST(bad_path_max)
{
	char *req = malloc(PATH_MAX + 16);

	ASSERT_NE(NULL, req);
	strcpy(req, "path=");
	memset(req + 5, '/', PATH_MAX);
	req[5 + PATH_MAX] = '\0';
	expect_refused_str(_metadata, req, ENAMETOOLONG);
	memset(req, 'x', PATH_MAX + 8);
	expect_refused(_metadata, req, PATH_MAX + 8, ENAMETOOLONG);
	free(req);
	req = malloc(3 * PATH_MAX);
	ASSERT_NE(NULL, req);
	memset(req, '/', 3 * PATH_MAX);
	expect_refused(_metadata, req, 3 * PATH_MAX, ENAMETOOLONG);
	free(req);
}

/* strlen 4095 is a path; 4096 is not (as getname_kernel has it). */
TEST(path_max_boundary)
{
	char *req = malloc(PATH_MAX + 16);
	int fd = open(RESOLVE, O_RDWR);
	struct result r;

	ASSERT_NE(NULL, req);
	ASSERT_LE(0, fd);
	strcpy(req, "path=");
	memset(req + 5, '/', PATH_MAX - 1);
	req[5 + PATH_MAX - 1] = '\0';
	ASSERT_EQ(0, resolve(fd, req, &r));
	EXPECT_EQ(0, r.write_errno);
	EXPECT_STREQ("match", r.verdict);
	EXPECT_STREQ("0", r.shadow_err);
	result_free(&r);
	close(fd);
	free(req);
}

TEST(trailing_newline_ignored)
{
	int fd = open(RESOLVE, O_RDWR);
	struct result r;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, resolve(fd, "/\n", &r));
	EXPECT_EQ(0, r.write_errno);
	EXPECT_NE(NULL, strstr(r.text, "request mode=lookup flags=follow at=cwd path=/\n"))
		TH_LOG("%s", r.text);
	result_free(&r);
	close(fd);
}

/* Names are escaped as mountinfo escapes them; a field never spans a space. */
TEST(escaped_names)
{
	int fd = open(RESOLVE, O_RDWR);
	struct result r;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, resolve(fd, "path=/no such\tdir\\x", &r));
	EXPECT_NE(NULL, strstr(r.text, "path=/no\\040such\\011dir\\134x\n"))
		TH_LOG("%s", r.text);
	EXPECT_STREQ("-ENOENT", r.shadow_err);
	result_free(&r);
	close(fd);
}

TEST(no_kernel_pointers)
{
	int fd = open(RESOLVE, O_RDWR);
	struct result r;
	regex_t re;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, regcomp(&re, "[0-9a-fA-F]{12,}", REG_EXTENDED | REG_NOSUB));
	ASSERT_EQ(0, resolve(fd, "/proc/self/status", &r));
	EXPECT_NE(0, regexec(&re, r.text, 0, NULL, 0)) TH_LOG("%s", r.text);
	result_free(&r);
	regfree(&re);
	close(fd);
}

TEST(file_modes)
{
	static const char *const files[] = {
		RESOLVE, STATS, MISMATCHES, NS_DIR "/batch", NS_DIR "/bench",
	};
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ASSERT_EQ(0, stat(files[i], &st));
		EXPECT_EQ(0600, st.st_mode & 07777) TH_LOG("%s", files[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Sessions: many writes on one fd, concurrent writers on many fds     */

TEST(many_writes_one_fd)
{
	static const char *const paths[] = { "/", "/proc", "/usr/bin", "/nonexistent" };
	int fd = open(RESOLVE, O_RDWR);
	long before = stat_counter("requests");
	struct result r;
	char want[64];
	int i;

	ASSERT_LE(0, fd);
	for (i = 0; i < 400; i++) {
		const char *p = paths[i % 4];

		ASSERT_EQ(0, resolve(fd, p, &r));
		snprintf(want, sizeof(want), " path=%s\n", p);
		ASSERT_NE(NULL, strstr(r.text, want)) TH_LOG("write %d: %s", i, r.text);
		ASSERT_STREQ("match", r.verdict);
		result_free(&r);
	}
	EXPECT_EQ(before + 400, stat_counter("requests"));
	close(fd);
}

struct writer {
	int id;
	int failures;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	int fd = open(RESOLVE, O_RDWR);
	char path[64], want[80];
	struct result r;
	int i;

	if (fd < 0) {
		w->failures++;
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/../%d/../self/writer-%d", w->id, w->id);
	snprintf(want, sizeof(want), "path=%s\n", path);
	for (i = 0; i < 100; i++) {
		if (resolve(fd, path, &r) || !strstr(r.text, want) ||
		    strcmp(r.verdict, "match"))
			w->failures++;
		result_free(&r);
	}
	close(fd);
	return NULL;
}

TEST(concurrent_writers)
{
	struct writer w[4];
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++) {
		w[i].id = i + 1;
		w[i].failures = 0;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, writer_main, &w[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("writer %d saw another's result", i + 1);
	}
}

/* flags=reval: the walk runs with LOOKUP_REVAL from the start, and says so. */
TEST(reval_flag)
{
	int fd = open(RESOLVE, O_RDWR);
	struct result r;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, resolve(fd, "flags=follow,reval path=/usr/bin/env", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, "\nwalk mode=reval restarts=0 ")) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, " mode=reval name=env how=revalidated "))
		TH_LOG("%s", r.text);
	result_free(&r);
	ASSERT_EQ(0, resolve(fd, "/usr/bin/env", &r));
	EXPECT_EQ(NULL, strstr(r.text, "\nwalk mode=reval")) TH_LOG("%s", r.text);
	EXPECT_EQ(NULL, strstr(r.text, " mode=reval ")) TH_LOG("%s", r.text);
	result_free(&r);
	close(fd);
}

/*
 * On a disk filesystem (ext4 on a loop device): mountpoint mode as the
 * running kernel walks it (trailing slashes, LOOKUP_DIRECTORY, a
 * trailing link, the mounts on a name, ".." out of one), and opens
 * relative to an at= fd -- each checked against the kernel's own
 * answer ("match") and the expected errno.
 */
TEST(disk_filesystem_mountpoint_and_open_at)
{
	static const struct {
		const char *req;
		const char *err;
	} cases[] = {
		{ "mode=mountpoint path=/tmp/nsx/e", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/dir", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/dir/file", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/dir/file/", "-ENOTDIR" },
		{ "mode=mountpoint flags=directory path=/tmp/nsx/e/dir/file", "-ENOTDIR" },
		{ "mode=mountpoint path=/tmp/nsx/e/dir/missing", "-ENOENT" },
		{ "mode=mountpoint path=/tmp/nsx/e/lnk", "0" },
		{ "mode=mountpoint flags=nofollow path=/tmp/nsx/e/lnk", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/lnk/", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/mnt", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/mnt/..", "0" },
		{ "mode=mountpoint path=/tmp/nsx/e/..", "0" },
		{ "mode=open at=%d path=dir/file", "0" },
		{ "mode=open at=%d flags=wronly path=dir", "-EISDIR" },
		{ "mode=open at=%d flags=directory path=dir/file", "-ENOTDIR" },
		{ "mode=open at=%d path=dir/missing", "-ENOENT" },
		{ "mode=open at=%d path=lnk/file", "0" },
		{ "mode=open at=%d flags=nofollow path=lnk", "-ELOOP" },
		{ "mode=open at=%d path=..", "0" },
		{ "mode=open at=%d flags=empty path=", "0" },
		{ "lookup at=%d path=mnt/..", "0" },
	};
	char req[256];
	struct result r;
	unsigned int i;
	int fd, at;

	if (access("/sys/block", F_OK))
		SKIP(return, "no block layer in this kernel (CONFIG_BLOCK off)");
	fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, fd);
	enter_scratch_namespace("nsx");
	mkdir_p("/tmp/nsx", 0755);
	mkdir_p("/tmp/nsx/e", 0755);
	mount_ext4("/tmp/nsx/img", "/tmp/nsx/e");
	mkdir_p("/tmp/nsx/e/dir", 0755);
	mkfile("/tmp/nsx/e/dir/file");
	mklink("dir", "/tmp/nsx/e/lnk");
	mkdir_p("/tmp/nsx/e/mnt", 0755);
	ASSERT_EQ(0, mount("nsx-mnt", "/tmp/nsx/e/mnt", "tmpfs", 0, NULL));
	at = open("/tmp/nsx/e", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, at);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(req, sizeof(req), cases[i].req, at);
		if (!strncmp(req, "lookup ", 7))
			memmove(req, req + 7, strlen(req + 7) + 1);
		ASSERT_EQ(0, resolve(fd, req, &r));
		EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
		EXPECT_STREQ(cases[i].err, r.shadow_err) TH_LOG("%s", r.text);
		result_free(&r);
	}
	close(at);
	EXPECT_EQ(0, umount2("/tmp/nsx/e/mnt", 0));
	EXPECT_EQ(0, umount2("/tmp/nsx/e", 0)) TH_LOG("a reference to ext4 stayed");
	EXPECT_EQ(0, umount2("/tmp", 0));
	close(fd);
}

/*
 * Mountpoint mode: the running kernel walks LOOKUP_MOUNTPOINT as
 * path_lookupat ("file/" is ENOTDIR); 4.2's path_mountpoint took the
 * file.  semantics=4.2 answers as 4.2, and names the divergence.
 */
TEST(mountpoint_semantics)
{
	int fd = open(RESOLVE, O_RDWR);
	struct result r;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, resolve(fd, "mode=mountpoint path=/etc/passwd/", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("-ENOTDIR", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_EQ(NULL, strstr(r.text, "divergence=")) TH_LOG("%s", r.text);
	result_free(&r);
	ASSERT_EQ(0, resolve(fd, "mode=mountpoint semantics=4.2 path=/etc/passwd/", &r));
	EXPECT_STREQ("divergent", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(line_of(r.text, "shadow"), " divergence=path-mountpoint"))
		TH_LOG("%s", r.text);
	result_free(&r);
	close(fd);
}

/*
 * Automount: debugfs's "tracing" mounts tracefs when walked through.
 * Without a trailing slash or LOOKUP_DIRECTORY the final component is
 * not triggered (the point itself comes back); with one it is, and the
 * shadow hands that step to the kernel.  The shadow asks first
 * (nocheck): the kernel's own lookup would trigger it before.
 */
TEST(automount_point)
{
	const char *point = "/sys/kernel/debug/tracing";
	int fd = open(RESOLVE, O_RDWR);
	struct stat debugfs, st;
	struct result r;
	char dev[32];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	umount2(point, MNT_DETACH);	/* if an earlier walk mounted it */
	ASSERT_EQ(0, stat("/sys/kernel/debug", &debugfs));

	ASSERT_EQ(0, resolve(fd, "flags=nofollow path=/sys/kernel/debug/tracing", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	snprintf(dev, sizeof(dev), "%u:%u", major(debugfs.st_dev), minor(debugfs.st_dev));
	EXPECT_STREQ(dev, r.dev) TH_LOG("not triggered: the point itself:\n%s", r.text);
	EXPECT_EQ(NULL, strstr(r.text, "automount=")) TH_LOG("%s", r.text);
	result_free(&r);

	ASSERT_EQ(0, resolve(fd, "flags=nocheck path=/sys/kernel/debug/tracing/", &r));
	EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, " automount=kernel")) TH_LOG("%s", r.text);
	ASSERT_EQ(0, stat("/sys/kernel/debug/tracing/", &st));
	EXPECT_NE(debugfs.st_dev, st.st_dev) TH_LOG("tracefs was not mounted");
	snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
	EXPECT_STREQ(dev, r.dev) TH_LOG("%s", r.text);
	result_free(&r);

	/* now mounted: an ordinary crossing, and the kernel agrees */
	ASSERT_EQ(0, resolve(fd, "/sys/kernel/debug/tracing/trace", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, "name=tracing how=dcache mounts_down=1"))
		TH_LOG("%s", r.text);
	result_free(&r);
	close(fd);
}

/*
 * /proc/<pid>/net: proc_net_d_revalidate() says no to every dentry, so
 * each walk makes its own -- the same inode under the same name in the
 * same directory: the same answer, not a race.
 */
TEST(proc_net_remade_dentries_match)
{
	static const char *const paths[] = {
		"/proc/self/net/dev", "/proc/self/net/unix",
		"/proc/thread-self/net/dev", "/proc/self/task/%d/net/dev",
	};
	int fd = open(RESOLVE, O_RDWR);
	char req[128], path[64];
	struct result r;
	int i, round;

	ASSERT_LE(0, fd);
	for (round = 0; round < 5; round++) {
		for (i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), paths[i], getpid());
			snprintf(req, sizeof(req), "path=%s", path);
			ASSERT_EQ(0, resolve(fd, req, &r));
			EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
			EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
			result_free(&r);
		}
	}
	close(fd);
}

/*
 * /proc/self is the writer's, whatever start a request pins: its cwd,
 * root and descriptors, walked by a request with or without at=, answer
 * what the writer's own openat() with the same start answers (and not
 * the at= directory, which the request never makes the writer's cwd).
 * The writer's cwd, /usr/share, is neither at= directory.
 */
TEST(proc_self_is_the_writers)
{
	int fd = open(RESOLVE, O_RDWR), procfd, binfd, file, cwd;
	char path[64], req[128], dev[24];
	struct result r;
	struct stat st;
	struct {
		int at;		/* AT_FDCWD: at=cwd */
		const char *path;
	} cases[] = {
		{ AT_FDCWD, "/proc/self/cwd" }, { AT_FDCWD, "/proc/self/root" },
		{ AT_FDCWD, path },
		{ 0, "self/cwd" }, { 0, "self/root" }, { 0, path + 6 },
		{ 0, "thread-self/cwd" }, { 1, "../../proc/self/cwd" },
		{ 1, "/proc/self/cwd" }, { 1, "../../proc/self/cwd/../share" },
	};
	size_t i;

	ASSERT_LE(0, fd);
	cwd = open(".", O_PATH | O_DIRECTORY);
	ASSERT_LE(0, cwd);
	ASSERT_EQ(0, chdir("/usr/share"));
	procfd = open("/proc", O_PATH | O_DIRECTORY);
	binfd = open("/usr/bin", O_PATH | O_DIRECTORY);
	file = open("/etc/passwd", O_RDONLY);
	ASSERT_LE(0, procfd);
	ASSERT_LE(0, binfd);
	ASSERT_LE(0, file);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", file);
	cases[3].at = cases[4].at = cases[5].at = cases[6].at = procfd;
	cases[7].at = cases[8].at = cases[9].at = binfd;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].at == AT_FDCWD)
			snprintf(req, sizeof(req), "path=%s", cases[i].path);
		else
			snprintf(req, sizeof(req), "at=%d path=%s", cases[i].at,
				 cases[i].path);
		ASSERT_EQ(0, fstatat(cases[i].at, cases[i].path, &st, 0)) TH_LOG("%s", req);
		ASSERT_EQ(0, resolve(fd, req, &r));
		EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
		EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
		snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
		EXPECT_STREQ(dev, r.dev) TH_LOG("%s:\n%s", req, r.text);
		EXPECT_EQ(st.st_ino, r.ino) TH_LOG("%s: the writer's openat() has %lu:\n%s",
						   req, (unsigned long)st.st_ino, r.text);
		EXPECT_EQ(st.st_ino, r.kernel_ino) TH_LOG("%s:\n%s", req, r.text);
		result_free(&r);
	}
	EXPECT_EQ(0, fchdir(cwd));
	close(file);
	close(binfd);
	close(procfd);
	close(cwd);
	close(fd);
}

/* One request into a fixed buffer: no memory to map, under RLIMIT_AS. */
static int resolve_fixed(int fd, const char *req, char *out, size_t size)
{
	ssize_t n;

	if (write(fd, req, strlen(req)) < 0)
		return -1;
	n = pread(fd, out, size - 1, 0);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/* @req's result has @verdict and, if given, @reason; else it is shown. */
static int result_is(int fd, const char *req, const char *verdict,
		     const char *reason)
{
	static char out[65536];
	char want[32];

	snprintf(want, sizeof(want), "\nverdict %s\n", verdict);
	if (!resolve_fixed(fd, req, out, sizeof(out)) && strstr(out, want) &&
	    (!reason || strstr(out, reason)))
		return 1;
	fprintf(stderr, "# %s: %s\n", req, out);
	return 0;
}

static int at_its_address_space_limit(void)
{
	int fd = open(RESOLVE, O_RDWR), at = open("/usr", O_PATH);
	FILE *f = fopen("/proc/self/statm", "r");
	struct rlimit lim;
	long pages = 0;
	char req[32];

	if (fd < 0 || at < 0 || !f || fscanf(f, "%ld", &pages) != 1 || chdir("/usr"))
		return 2;
	fclose(f);
	lim.rlim_cur = lim.rlim_max = pages * getpagesize();
	if (setrlimit(RLIMIT_AS, &lim))
		return 3;
	snprintf(req, sizeof(req), "at=%d path=bin", at);
	if (!result_is(fd, "path=bin", "match", NULL) ||
	    !result_is(fd, req, "unchecked", " reason=no-room-in-writer-for-the-name") ||
	    !result_is(fd, "path=", "unchecked", " reason=no-room-in-writer-for-the-name"))
		return 4;
	return 0;
}

/*
 * A writer at its RLIMIT_AS: a name from its cwd is asked of the kernel
 * with no page mapped into it (kern_path), and checked; a name from an
 * at= descriptor, or the empty name, needs the writer's memory for
 * user_path_at() and getname(): unchecked with the reason -- never a
 * mismatch.
 */
TEST(writer_at_its_address_space_limit)
{
	expect_child_ok(_metadata, at_its_address_space_limit);
}

static int without_a_free_descriptor(void)
{
	int fd = open(RESOLVE, O_RDWR), at = open("/usr", O_PATH), top;
	struct rlimit lim;
	struct stat st;
	char req[32];

	if (fd < 0 || at < 0 || chdir("/usr"))
		return 2;
	/* every descriptor below the limit taken */
	while ((top = open("/", O_PATH)) >= 0 && top < 64)
		;
	lim.rlim_cur = lim.rlim_max = top + 1;
	if (top < 0 || setrlimit(RLIMIT_NOFILE, &lim) || open("/", O_PATH) >= 0)
		return 3;
	snprintf(req, sizeof(req), "at=%d path=bin", at);
	if (!result_is(fd, req, "unchecked", " reason=no-free-descriptor-in-writer") ||
	    !result_is(fd, "path=bin", "match", NULL))
		return 4;
	/* the writer's own descriptors are all still there */
	return fstat(at, &st) || fstat(top, &st) ? 5 : 0;
}

/*
 * A writer with no descriptor free under its RLIMIT_NOFILE: the at=
 * file cannot be given to the kernel's walk at a descriptor of its own,
 * so an at= request is unchecked with the reason; a name from the cwd
 * is checked.  Nothing of the writer's is closed or changed.
 */
TEST(writer_without_a_free_descriptor)
{
	expect_child_ok(_metadata, without_a_free_descriptor);
}

/*
 * The kernel's copy of an at= descriptor goes without close()'s flush:
 * the writer's POSIX lock on the file (and a dnotify watch, flushed the
 * same way) is still its own after the request.
 */
TEST(at_keeps_the_writers_locks)
{
	int fd = open(RESOLVE, O_RDWR), file, other, status;
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char req[64];
	struct result r;
	pid_t pid;

	ASSERT_LE(0, fd);
	file = open("/tmp/ns-at-lock", O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, file);
	ASSERT_EQ(0, fcntl(file, F_SETLK, &lk));
	snprintf(req, sizeof(req), "at=%d flags=empty path=", file);
	ASSERT_EQ(0, resolve(fd, req, &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	result_free(&r);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

		other = open("/tmp/ns-at-lock", O_RDWR);
		if (other < 0 || fcntl(other, F_GETLK, &q))
			_exit(2);
		_exit(q.l_type == F_WRLCK && q.l_pid == getppid() ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the writer's lock is gone after an at= request (exit %d)",
		       WEXITSTATUS(status));
	close(file);
	unlink("/tmp/ns-at-lock");
	close(fd);
}

/* After all of the above, nothing disagreed. */
TEST(no_mismatches_logged)
{
	FILE *f = fopen(MISMATCHES, "r");
	char line[256] = "";

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	EXPECT_EQ(0, strncmp(line, "mismatches total=0 ", 19)) TH_LOG("%s", line);
}

TEST_HARNESS_MAIN
