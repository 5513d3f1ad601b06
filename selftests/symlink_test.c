// SPDX-License-Identifier: GPL-2.0
/*
 * Symlinks as the shadow walks them: the explicit stack and the 40-link
 * limit, absolute and pure-jump bodies, trailing links and slashes,
 * fs.protected_symlinks, nosymfollow, magic links handed to the kernel,
 * an empty body, and the openat2 selftest's tree walked without
 * RESOLVE_ flags.  Every case asserts verdict "match", the expected
 * errno and, for successes, st_dev/st_ino against stat(2) or lstat(2).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define S		"/tmp/nsl"
#define PROTECTED	"/proc/sys/fs/protected_symlinks"
#define LINK_OWNER	1000
#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW	256
#endif

/* dir/prefixN -> prefix(N-1) ... prefix0 -> first: following N is N+1 links. */
static void mkchain(const char *dir, const char *prefix, const char *first,
		    const char *fmt, int n)
{
	char path[256], target[256];
	int i;

	snprintf(path, sizeof(path), "%s/%s0", dir, prefix);
	mklink(first, path);
	for (i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "%s/%s%d", dir, prefix, i);
		snprintf(target, sizeof(target), fmt, i - 1);
		mklink(target, path);
	}
}

/* The openat2 selftest's tree (tools/testing/selftests/openat2), in S/o2. */
static void build_openat2_tree(void)
{
	mkdir_p(S "/o2", 0755);
	mkdir_p(S "/o2/root", 0755);
	mklink("/proc/self/exe", S "/o2/root/procexe");
	mklink("/proc/self/root", S "/o2/root/procroot");
	mkdir_p(S "/o2/root/root", 0755);
	mkdir_p(S "/o2/root/mnt", 0755);
	must(!mount("tmpfs", S "/o2/root/mnt", "tmpfs", MS_NOSUID | MS_NODEV, ""),
	     "o2 mnt");
	mklink("../mnt/", S "/o2/root/mnt/self");
	mklink("/mnt/", S "/o2/root/mnt/absself");
	mkdir_p(S "/o2/root/etc", 0755);
	mkfile(S "/o2/root/etc/passwd");
	mklink("/newfile3", S "/o2/root/creatlink");
	mklink("etc/", S "/o2/root/reletc");
	mklink("etc/passwd", S "/o2/root/relsym");
	mklink("/etc/", S "/o2/root/absetc");
	mklink("/etc/passwd", S "/o2/root/abssym");
	mklink("/cheeky", S "/o2/root/abscheeky");
	mkdir_p(S "/o2/root/cheeky", 0755);
	mklink("/", S "/o2/root/cheeky/absself");
	mklink("../../root/", S "/o2/root/cheeky/self");
	mklink("/../../root/", S "/o2/root/cheeky/garbageself");
	mklink("../cheeky/../etc/../etc/passwd", S "/o2/root/cheeky/passwd");
	mklink("/../cheeky/../etc/../etc/passwd", S "/o2/root/cheeky/abspasswd");
	mklink("../../../../../../../../../../../../../../etc/passwd",
	       S "/o2/root/cheeky/dotdotlink");
	mklink("/../../../../../../../../../../../../../../etc/passwd",
	       S "/o2/root/cheeky/garbagelink");
}

/*
 * S/dir/{file,sub/}  S/file  S/c: chains r (relative) and a (absolute)
 * of 41 links to S/dir; S/n/dK -> d(K-1)/. nests K+1 deep; loops;
 * S/lnk -> dir, lnk2file -> dir/file, dangling; S/dir/up -> ../file;
 * S/jail with abs -> /inner and slash -> ///; S/nosym: a nosymfollow
 * tmpfs; /tmp/plink owned by LINK_OWNER in the sticky /tmp.
 */
static void build_tree(void)
{
	enter_scratch_namespace("nsl");
	mkdir_p(S, 0755);
	mkdir_p(S "/dir", 0755);
	mkdir_p(S "/dir/sub", 0755);
	mkfile(S "/dir/file");
	mkfile(S "/file");
	mkdir_p(S "/c", 0755);
	mkchain(S "/c", "r", "../dir", "r%d", 40);
	mkchain(S "/c", "a", S "/dir", S "/c/a%d", 40);
	mkdir_p(S "/n", 0755);
	mkchain(S "/n", "d", "../dir", "d%d/.", 25);
	mklink("loop", S "/loop");
	mklink("cyc2", S "/cyc1");
	mklink("cyc1", S "/cyc2");
	mklink("dir", S "/lnk");
	mklink("dir/file", S "/lnk2file");
	mklink("nowhere", S "/dangling");
	mklink("../file", S "/dir/up");
	mklink("../dir/up", S "/n/viaup");
	mkdir_p(S "/jail", 0755);
	mkfile(S "/jail/inner");
	mklink("/inner", S "/jail/abs");
	mklink("///", S "/jail/slash");
	mklink("/../../inner", S "/jail/absdotdot");
	mkdir_p(S "/nosym", 0755);
	must(!mount("nsl-nosym", S "/nosym", "tmpfs", MS_NOSYMFOLLOW, NULL),
	     "nosymfollow tmpfs");
	mklink("../dir", S "/nosym/l");
	mklink(S "/dir", "/tmp/plink");
	must(!lchown("/tmp/plink", LINK_OWNER, LINK_OWNER), "lchown plink");
	build_openat2_tree();
	must(!chdir(S), "chdir");
}

static int unmount_tree(void)
{
	static const char *const mounts[] = {
		S "/o2/root/mnt", S "/nosym", "/tmp",
	};

	return unmount_all(mounts, sizeof(mounts) / sizeof(mounts[0]));
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int write_int(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

enum setup_kind {
	SETUP_NONE,
	SETUP_CHROOT,		/* chroot S/jail */
	SETUP_CHROOT_O2,	/* chroot S/o2/root */
	SETUP_PROTECTED,	/* protected_symlinks=1, as root */
	SETUP_PROTECTED_OWNER,	/* protected_symlinks=1, as the link's owner */
	SETUP_UNPROTECTED,	/* protected_symlinks=0, as root */
	SETUP_NOBODY,		/* as an unprivileged writer */
};

/* Paths made at run time: fds and pids are not known before. */
enum gen_kind {
	GEN_NONE,
	GEN_FD_FILE,		/* /proc/self/fd/N, N open on S/dir/file */
	GEN_FD_FILE_SLASH,	/* the same with a trailing slash */
	GEN_FD_DIR,		/* N open on S/dir */
	GEN_FD_DIR_FILE,	/* /proc/self/fd/N/file */
	GEN_FD_PIPE,		/* N a pipe */
	GEN_OTHER_CWD,		/* /proc/<a LINK_OWNER process>/cwd */
};

FIXTURE(links) {
	int fd;
	int rootfd;
	int filefd, dirfd, pipefd[2];
	int protected_was;
	pid_t other;
	char path[PATH_MAX];
};

FIXTURE_VARIANT(links) {
	const char *path;
	const char *flags;	/* NULL: follow */
	enum setup_kind setup;
	enum gen_kind gen;
	int expect;
	const char *stat_path;	/* success: stat this instead */
	int stat_flags;		/* AT_SYMLINK_NOFOLLOW */
	const char *has;	/* the result must hold this */
	const char *lacks;	/* ... and not this */
};

#define CASE(name, ...) \
	FIXTURE_VARIANT_ADD(links, name) { __VA_ARGS__ }

/* 39, 40 and 41 links, relative and absolute */
CASE(chain_39_relative, .path = "c/r38", .has = " link=39 ");
CASE(chain_40_relative, .path = "c/r39", .has = " link=40 ");
CASE(chain_41_relative_eloop, .path = "c/r40", .expect = ELOOP);
CASE(chain_39_absolute, .path = "c/a38");
CASE(chain_40_absolute, .path = "c/a39", .has = " jump=root");
CASE(chain_41_absolute_eloop, .path = "c/a40", .expect = ELOOP);
CASE(chain_40_intermediate, .path = "c/r39/file");
CASE(chain_41_intermediate_eloop, .path = "c/r40/file", .expect = ELOOP);
/* Nesting: no limit but the total */
CASE(nested_3, .path = "n/d2", .has = " link=3 ");
CASE(nested_20, .path = "n/d19", .has = " link=20 ");
CASE(nested_20_then_chained_20, .path = "n/d19/../c/r19");
CASE(nested_20_then_chained_21_eloop, .path = "n/d19/../c/r20", .expect = ELOOP);
CASE(nested_26, .path = "n/d25/file");
CASE(self_loop_eloop, .path = "loop", .expect = ELOOP);
CASE(cycle_eloop, .path = "cyc1", .expect = ELOOP);
CASE(cycle_nofollow_is_the_link, .path = "cyc1", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(through_dotdot, .path = "dir/up");
CASE(link_to_link_through_dotdot, .path = "n/viaup");
/* Absolute bodies and pure jumps under a chroot */
CASE(chroot_absolute_body, .path = "abs", .setup = SETUP_CHROOT);
CASE(chroot_slash_body, .path = "slash", .setup = SETUP_CHROOT,
     .stat_path = "/");
CASE(chroot_slash_body_then_name, .path = "slash/inner", .setup = SETUP_CHROOT);
CASE(chroot_absolute_dotdot_body, .path = "absdotdot", .setup = SETUP_CHROOT);
/* Trailing links, every follow/nofollow/directory/slash combination */
CASE(lnk_follow, .path = "lnk");
CASE(lnk_nofollow, .path = "lnk", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(lnk_directory_only_enotdir, .path = "lnk", .flags = "directory",
     .expect = ENOTDIR);
CASE(lnk_follow_directory, .path = "lnk", .flags = "follow,directory");
CASE(lnk_nofollow_directory_enotdir, .path = "lnk", .flags = "nofollow,directory",
     .expect = ENOTDIR);
CASE(lnk_slash_follow, .path = "lnk/");
CASE(lnk_slash_nofollow, .path = "lnk/", .flags = "nofollow");
CASE(lnk_slash_directory, .path = "lnk/", .flags = "directory");
CASE(lnk2file_follow, .path = "lnk2file");
CASE(lnk2file_nofollow, .path = "lnk2file", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(lnk2file_follow_directory_enotdir, .path = "lnk2file",
     .flags = "follow,directory", .expect = ENOTDIR);
CASE(lnk2file_slash_enotdir, .path = "lnk2file/", .expect = ENOTDIR);
CASE(lnk2file_slash_nofollow_enotdir, .path = "lnk2file/", .flags = "nofollow",
     .expect = ENOTDIR);
CASE(dangling_follow_enoent, .path = "dangling", .expect = ENOENT);
CASE(dangling_nofollow, .path = "dangling", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(dangling_slash_enoent, .path = "dangling/", .expect = ENOENT);
CASE(dangling_slash_nofollow_enoent, .path = "dangling/", .flags = "nofollow",
     .expect = ENOENT);
CASE(dangling_intermediate_enoent, .path = "dangling/x", .expect = ENOENT);
CASE(lnk_intermediate, .path = "lnk/file");
CASE(lnk_intermediate_nofollow, .path = "lnk/file", .flags = "nofollow");
CASE(lnk2file_intermediate_enotdir, .path = "lnk2file/x", .expect = ENOTDIR);
/* fs.protected_symlinks: trailing links only, root included */
CASE(protected_trailing_root_eacces, .path = "/tmp/plink",
     .setup = SETUP_PROTECTED, .expect = EACCES);
CASE(protected_trailing_slash_root_eacces, .path = "/tmp/plink/",
     .setup = SETUP_PROTECTED, .expect = EACCES);
CASE(protected_intermediate_root_ok, .path = "/tmp/plink/file",
     .setup = SETUP_PROTECTED);
CASE(protected_nofollow_root_ok, .path = "/tmp/plink", .flags = "nofollow",
     .setup = SETUP_PROTECTED, .stat_flags = AT_SYMLINK_NOFOLLOW);
CASE(protected_trailing_owner_ok, .path = "/tmp/plink",
     .setup = SETUP_PROTECTED_OWNER);
CASE(unprotected_trailing_root_ok, .path = "/tmp/plink",
     .setup = SETUP_UNPROTECTED);
/* nosymfollow: every followed link is ELOOP */
CASE(nosymfollow_trailing_eloop, .path = "nosym/l", .expect = ELOOP);
CASE(nosymfollow_intermediate_eloop, .path = "nosym/l/file", .expect = ELOOP);
CASE(nosymfollow_nofollow_ok, .path = "nosym/l", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW);
/* Magic links: handed to the kernel, one step */
CASE(magic_fd_file, .gen = GEN_FD_FILE, .has = " magic=kernel");
CASE(magic_fd_file_slash_enotdir, .gen = GEN_FD_FILE_SLASH, .expect = ENOTDIR);
CASE(magic_fd_dir, .gen = GEN_FD_DIR, .has = " magic=kernel");
CASE(magic_fd_dir_intermediate, .gen = GEN_FD_DIR_FILE, .has = " magic=kernel");
CASE(magic_fd_pipe, .gen = GEN_FD_PIPE, .has = " magic=kernel");
CASE(magic_cwd_then_names, .path = "/proc/self/cwd/dir/file", .has = " magic=kernel");
CASE(magic_root, .path = "/proc/self/root", .has = " magic=kernel");
CASE(magic_ns_mnt, .path = "/proc/self/ns/mnt", .has = " magic=kernel");
CASE(magic_exe_nofollow, .path = "/proc/self/exe", .flags = "nofollow",
     .stat_flags = AT_SYMLINK_NOFOLLOW, .lacks = "magic=");
CASE(magic_exe_follow, .path = "/proc/self/exe", .has = " magic=kernel");
CASE(magic_other_users_cwd_eacces, .gen = GEN_OTHER_CWD, .setup = SETUP_NOBODY,
     .expect = EACCES);
CASE(magic_thread_self_fd, .path = "/proc/thread-self/fd/0",
     .has = "name=thread-self link=1 body=");
/* procfs string links: walked by the shadow itself */
CASE(string_proc_self, .path = "/proc/self", .has = "name=self link=1 body=",
     .lacks = "magic=");
CASE(string_proc_mounts, .path = "/proc/mounts", .has = " body=self/mounts",
     .lacks = "magic=");
/* The openat2 selftest's tree, without RESOLVE_ flags */
CASE(o2_relsym, .path = "o2/root/relsym");
CASE(o2_reletc, .path = "o2/root/reletc");
CASE(o2_abssym_real_root, .path = "o2/root/abssym", .stat_path = "/etc/passwd");
CASE(o2_abscheeky_enoent, .path = "o2/root/abscheeky", .expect = ENOENT);
CASE(o2_cheeky_passwd, .path = "o2/root/cheeky/passwd");
CASE(o2_cheeky_self, .path = "o2/root/cheeky/self");
CASE(o2_cheeky_absself, .path = "o2/root/cheeky/absself", .stat_path = "/");
CASE(o2_cheeky_garbageself_real_root, .path = "o2/root/cheeky/garbageself",
     .stat_path = "/root/");
CASE(o2_dotdotlink_real_root, .path = "o2/root/cheeky/dotdotlink",
     .stat_path = "/etc/passwd");
CASE(o2_garbagelink_real_root, .path = "o2/root/cheeky/garbagelink",
     .stat_path = "/etc/passwd");
CASE(o2_mnt_self, .path = "o2/root/mnt/self");
CASE(o2_procroot, .path = "o2/root/procroot", .stat_path = "/");
CASE(o2_procexe, .path = "o2/root/procexe");
CASE(o2_in_root_abssym, .path = "abssym", .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_abscheeky_passwd, .path = "abscheeky/passwd",
     .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_abspasswd, .path = "cheeky/abspasswd", .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_garbagelink, .path = "cheeky/garbagelink", .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_dotdotlink, .path = "cheeky/dotdotlink", .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_garbageself, .path = "cheeky/garbageself", .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_mnt_absself, .path = "mnt/absself", .setup = SETUP_CHROOT_O2);
CASE(o2_in_root_creatlink_enoent, .path = "creatlink", .setup = SETUP_CHROOT_O2,
     .expect = ENOENT);

FIXTURE_SETUP(links)
{
	self->protected_was = read_int(PROTECTED);
	self->other = 0;
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", RESOLVE, strerror(errno));
	build_tree();
	self->rootfd = open("/", O_PATH | O_DIRECTORY);
	self->filefd = open(S "/dir/file", O_RDONLY);
	self->dirfd = open(S "/dir", O_RDONLY | O_DIRECTORY);
	ASSERT_EQ(0, pipe(self->pipefd));
	ASSERT_LE(0, self->rootfd);
	ASSERT_LE(0, self->filefd);
	ASSERT_LE(0, self->dirfd);
	ASSERT_LE(0, self->protected_was) TH_LOG("cannot read %s", PROTECTED);
}

FIXTURE_TEARDOWN(links)
{
	if (seteuid(0) || setegid(0))
		fprintf(stderr, "# cannot get root back\n");
	if (self->other > 0) {
		kill(self->other, SIGKILL);
		waitpid(self->other, NULL, 0);
	}
	close(self->filefd);
	close(self->dirfd);
	close(self->pipefd[0]);
	close(self->pipefd[1]);
	if (fchdir(self->rootfd) || chroot("."))
		fprintf(stderr, "# cannot leave the chroot\n");
	EXPECT_EQ(0, write_int(PROTECTED, self->protected_was));
	EXPECT_EQ(0, unmount_tree()) TH_LOG("a scratch mount stayed busy");
	close(self->rootfd);
	close(self->fd);
}

/* A process of LINK_OWNER's, sitting in S, for /proc/<pid>/cwd. */
static pid_t spawn_other(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(LINK_OWNER) || setuid(LINK_OWNER))
			_exit(1);
		pause();
		_exit(0);
	}
	return pid;
}

static const char *gen_path(FIXTURE_DATA(links) *self,
			    const FIXTURE_VARIANT(links) *variant)
{
	char *p = self->path;
	size_t n = sizeof(self->path);

	switch (variant->gen) {
	case GEN_NONE:
		return variant->path;
	case GEN_FD_FILE:
		snprintf(p, n, "/proc/self/fd/%d", self->filefd);
		break;
	case GEN_FD_FILE_SLASH:
		snprintf(p, n, "/proc/self/fd/%d/", self->filefd);
		break;
	case GEN_FD_DIR:
		snprintf(p, n, "/proc/self/fd/%d", self->dirfd);
		break;
	case GEN_FD_DIR_FILE:
		snprintf(p, n, "/proc/self/fd/%d/file", self->dirfd);
		break;
	case GEN_FD_PIPE:
		snprintf(p, n, "/proc/self/fd/%d", self->pipefd[0]);
		break;
	case GEN_OTHER_CWD:
		self->other = spawn_other();
		snprintf(p, n, "/proc/%d/cwd", self->other);
		break;
	}
	return p;
}

static void enter_setup(struct __test_metadata *_metadata,
			enum setup_kind setup)
{
	switch (setup) {
	case SETUP_NONE:
		break;
	case SETUP_CHROOT:
		ASSERT_EQ(0, chroot(S "/jail"));
		ASSERT_EQ(0, chdir("/"));
		break;
	case SETUP_CHROOT_O2:
		ASSERT_EQ(0, chroot(S "/o2/root"));
		ASSERT_EQ(0, chdir("/"));
		break;
	case SETUP_PROTECTED:
		ASSERT_EQ(0, write_int(PROTECTED, 1));
		break;
	case SETUP_PROTECTED_OWNER:
		ASSERT_EQ(0, write_int(PROTECTED, 1));
		ASSERT_EQ(0, setegid(LINK_OWNER));
		ASSERT_EQ(0, seteuid(LINK_OWNER));
		break;
	case SETUP_UNPROTECTED:
		ASSERT_EQ(0, write_int(PROTECTED, 0));
		break;
	case SETUP_NOBODY:
		ASSERT_EQ(0, setegid(NOBODY));
		ASSERT_EQ(0, seteuid(NOBODY));
		break;
	}
}

TEST_F(links, resolve)
{
	const char *path = gen_path(self, variant);
	const char *stat_path = variant->stat_path ? variant->stat_path : path;
	char *req = malloc(PATH_MAX + 64);
	struct result r;
	struct stat st;
	char dev[32];

	ASSERT_NE(NULL, req);
	if (variant->gen == GEN_OTHER_CWD)
		ASSERT_LT(0, self->other);
	enter_setup(_metadata, variant->setup);
	snprintf(req, PATH_MAX + 64, "flags=%s path=%s",
		 variant->flags ? variant->flags : "follow", path);

	ASSERT_EQ(0, resolve(self->fd, req, &r));
	ASSERT_EQ(0, r.write_errno) TH_LOG("write refused: %s", r.text);
	EXPECT_STREQ("match", r.verdict)
		TH_LOG("cross-check failed: shadow and kernel disagree:\n%s", r.text);
	EXPECT_STREQ(errno_name(variant->expect), r.shadow_err)
		TH_LOG("wrong errno:\n%s", r.text);
	if (!variant->expect && !strcmp(r.shadow_err, "0")) {
		ASSERT_EQ(0, fstatat(AT_FDCWD, stat_path, &st, variant->stat_flags))
			TH_LOG("stat oracle: stat %s: %s", stat_path, strerror(errno));
		snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
		EXPECT_STREQ(dev, r.dev) TH_LOG("stat oracle: st_dev differs:\n%s", r.text);
		EXPECT_EQ((unsigned long)st.st_ino, r.ino)
			TH_LOG("stat oracle: st_ino differs:\n%s", r.text);
	}
	if (variant->has)
		EXPECT_NE(NULL, strstr(r.text, variant->has))
			TH_LOG("wanted '%s' in:\n%s", variant->has, r.text);
	if (variant->lacks)
		EXPECT_EQ(NULL, strstr(r.text, variant->lacks))
			TH_LOG("did not want '%s' in:\n%s", variant->lacks, r.text);
	result_free(&r);
	free(req);
}

/* ------------------------------------------------------------------ */
/* What an LSM or a filesystem may answer otherwise                    */

/*
 * A scratch tmpfs on /tmp in a mount namespace of the test's own, with
 * ns_test_override opened first (it may live under /tmp) as @ko.
 */
static void override_scratch(struct __test_metadata *_metadata, int *ko, int *fd)
{
	*ko = open_test_module("ns_test_override");
	ASSERT_LE(0, *ko);
	*fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, *fd);
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("nsl-override", "/tmp", "tmpfs", 0, NULL));
}

/* @func answers @ret for the inode at @path, until rmmod. */
static void override(struct __test_metadata *_metadata, int ko, const char *func,
		     const char *path, int ret)
{
	char cmd[PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd), "insmod /proc/self/fd/%d func=%s path=%s ret=%d",
		 ko, func, path, ret);
	ASSERT_EQ(0, system(cmd));
}

/* How many calls were changed; unloads the module. */
static int override_done(struct __test_metadata *_metadata)
{
	int n = module_param_int("ns_test_override", "fired");

	EXPECT_EQ(0, system("rmmod ns_test_override"));
	return n;
}

/* What the module says of security_inode_follow_link: checked, unchecked, absent. */
static void lsm_state(char *state, size_t size)
{
	FILE *f = fopen(NS_DIR "/features", "r");
	char line[256];

	state[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "lsm ", 4))
			field(line, "follow_link", state, size);
	fclose(f);
}

/*
 * An LSM that refuses to follow one link (security_inode_follow_link
 * answers EACCES, as SELinux or a BPF LSM program may): the kernel's
 * walk fails there, and so must the shadow's, in RCU mode and in REF
 * mode; a name that does not follow it is not refused.  Where the
 * module cannot ask the hook, it must say so on the step.
 */
TEST(lsm_refuses_to_follow_a_link)
{
	static const char *const reqs[] = {
		"path=/tmp/l/dlnk", "first=shadow path=/tmp/l/dlnk",
		"flags=follow,reval path=/tmp/l/dlnk", "path=/tmp/l/dlnk/f",
		"first=shadow path=/tmp/l/dlnk/f",
	};
	char state[16];
	struct result r;
	unsigned int i;
	int ko, fd, checked;

	lsm_state(state, sizeof(state));
	if (!strcmp(state, "absent"))
		SKIP(return, "no LSM hook in this kernel (CONFIG_SECURITY off): nothing to refuse");
	ASSERT_TRUE(!strcmp(state, "checked") || !strcmp(state, "unchecked"))
		TH_LOG("features: lsm follow_link=%s", state);
	checked = !strcmp(state, "checked");
	SKIP_WITHOUT_TESTMODS();
	override_scratch(_metadata, &ko, &fd);
	ASSERT_EQ(0, mkdir("/tmp/l", 0755));
	mkfile("/tmp/l/f");
	mklink(".", "/tmp/l/dlnk");
	override(_metadata, ko, "security_inode_follow_link", "/tmp/l/dlnk", -EACCES);
	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		ASSERT_EQ(0, resolve(fd, reqs[i], &r));
		EXPECT_STREQ("-EACCES", r.kernel_err) TH_LOG("%s", r.text);
		if (checked) {
			EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
			EXPECT_STREQ("-EACCES", r.shadow_err) TH_LOG("%s", r.text);
		} else {
			EXPECT_NE(NULL, strstr(r.text, " lsm=unchecked")) TH_LOG("%s", r.text);
		}
		result_free(&r);
	}
	ASSERT_EQ(0, resolve(fd, "flags=directory path=/tmp/l/dlnk", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("not followed, not refused:\n%s", r.text);
	EXPECT_STREQ("-ENOTDIR", r.shadow_err) TH_LOG("%s", r.text);
	result_free(&r);
	EXPECT_LT(0, override_done(_metadata));
	close(ko);
	close(fd);
	EXPECT_EQ(0, umount2("/tmp", 0));
}

/*
 * A ->get_link that gives no body (NULL): the filesystem made the jump
 * itself, as magic links do through nd_jump_link().  Made to happen on
 * a tmpfs link long enough to live in a page (shmem_get_link; shorter
 * bodies are inline), with no jump made: both walkers stay where the
 * link is, in RCU mode (the page cached) and in REF mode.
 */
TEST(get_link_without_a_body)
{
	static const char *const reqs[] = {
		"path=/tmp/g/long", "first=shadow path=/tmp/g/long",
		"path=/tmp/g/long/d", "first=shadow path=/tmp/g/long/d",
		"flags=follow,reval path=/tmp/g/long",
	};
	char body[256] = "";
	struct stat g, d;
	struct result r;
	unsigned int i;
	int ko, fd;

	SKIP_WITHOUT_TESTMODS();
	override_scratch(_metadata, &ko, &fd);
	ASSERT_EQ(0, mkdir("/tmp/g", 0755));
	ASSERT_EQ(0, mkdir("/tmp/g/d", 0755));
	mkfile("/tmp/g/d/f");
	while (strlen(body) < 160)
		strcat(body, "./");
	strcat(body, "d/f");
	mklink(body, "/tmp/g/long");
	ASSERT_EQ(0, stat("/tmp/g", &g));
	ASSERT_EQ(0, stat("/tmp/g/d", &d));
	override(_metadata, ko, "shmem_get_link", "/tmp/g/long", 0);
	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		ASSERT_EQ(0, resolve(fd, reqs[i], &r));
		EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
		EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
		EXPECT_EQ((unsigned long)(strstr(reqs[i], "/d") ? d.st_ino : g.st_ino), r.ino)
			TH_LOG("%s", r.text);
		result_free(&r);
	}
	EXPECT_LE((int)ARRAY_SIZE(reqs), override_done(_metadata));
	/* its body again, once the filesystem gives it */
	ASSERT_EQ(0, resolve(fd, "path=/tmp/g/long", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("reg", r.type) TH_LOG("%s", r.text);
	result_free(&r);
	close(ko);
	close(fd);
	EXPECT_EQ(0, umount2("/tmp", 0));
}

/* ------------------------------------------------------------------ */
/* An empty body: a jump that does not move                            */

/*
 * symlink(2) cannot make one (getname() refuses the empty target), so
 * a test-only module makes it with vfs_symlink(); both walkers must
 * then resolve it to the directory that holds it.
 */
TEST(empty_body)
{
	/* the module may live under /tmp, which the scratch tmpfs will hide */
	int ko = open_test_module("ns_test_emptylink");
	char cmd[PATH_MAX + 128];
	struct result r;
	struct stat st, dir;
	char dev[32];
	int fd;

	SKIP_WITHOUT_TESTMODS();
	ASSERT_LE(0, ko);
	fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_EQ(0, mount("nsl-empty", "/tmp", "tmpfs", 0, NULL));
	ASSERT_EQ(0, mkdir("/tmp/e", 0755));
	ASSERT_EQ(0, mkdir("/tmp/e/d", 0755));
	EXPECT_EQ(-1, symlink("", "/tmp/e/viasyscall"));
	EXPECT_EQ(ENOENT, errno) TH_LOG("symlink(2) with an empty target");
	snprintf(cmd, sizeof(cmd), "insmod /proc/self/fd/%d path=/tmp/e/empty", ko);
	ASSERT_EQ(0, system(cmd));
	close(ko);
	ASSERT_EQ(0, system("rmmod ns_test_emptylink"));
	ASSERT_EQ(0, lstat("/tmp/e/empty", &st));
	ASSERT_TRUE(S_ISLNK(st.st_mode));
	ASSERT_EQ(0, stat("/tmp/e", &dir));

	ASSERT_EQ(0, resolve(fd, "/tmp/e/empty", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
	snprintf(dev, sizeof(dev), "%u:%u", major(dir.st_dev), minor(dir.st_dev));
	EXPECT_STREQ(dev, r.dev);
	EXPECT_EQ((unsigned long)dir.st_ino, r.ino) TH_LOG("not the holding directory:\n%s", r.text);
	result_free(&r);

	/* as an intermediate component it is "." */
	ASSERT_EQ(0, resolve(fd, "/tmp/e/empty/d", &r));
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	ASSERT_EQ(0, stat("/tmp/e/d", &dir));
	EXPECT_EQ((unsigned long)dir.st_ino, r.ino) TH_LOG("%s", r.text);
	result_free(&r);
	close(fd);
	EXPECT_EQ(0, umount2("/tmp", 0));
}

TEST_HARNESS_MAIN
