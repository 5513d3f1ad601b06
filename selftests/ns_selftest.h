/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selftests share: talking to /sys/kernel/debug/namei_shadow/
 * resolve, reading its results, and building scratch trees.
 */
#ifndef NS_SELFTEST_H
#define NS_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ns_module.h"

#define NS_DIR		"/sys/kernel/debug/namei_shadow"
#define RESOLVE		NS_DIR "/resolve"
#define STATS		NS_DIR "/stats"
#define MISMATCHES	NS_DIR "/mismatches"
#define NOBODY		65534
#define RESULT_MAX	(256 * 1024)

/* ------------------------------------------------------------------ */
/* Talking to resolve                                                  */

struct result {
	char *text;
	int write_errno;	/* errno of a refused write, else 0 */
	char shadow_err[32];
	char kernel_err[32];
	char verdict[16];
	char dev[32];
	unsigned long ino;
	char kernel_dev[32];
	unsigned long kernel_ino;
	char type[16];
	char last[NAME_MAX * 4 + 1];
	char last_type[16];
};

static inline void result_free(struct result *r)
{
	free(r->text);
	memset(r, 0, sizeof(*r));
}

/* The value of "key=" in @line (up to the next space), or "". */
static inline void field(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *p = line, *end = line + strcspn(line, "\n");

	out[0] = '\0';
	while ((p = strstr(p, key)) != NULL && p < end) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= size)
				n = size - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = '\0';
			return;
		}
		p += klen;
	}
}

/* The line of @text starting with "@prefix ", or NULL. */
static inline const char *line_of(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, n) && p[n] == ' ')
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static inline char *read_result(int fd)
{
	char *buf = malloc(RESULT_MAX);
	ssize_t n;

	if (!buf)
		return NULL;
	n = pread(fd, buf, RESULT_MAX - 1, 0);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	return buf;
}

static inline void parse_result(struct result *r)
{
	const char *l;
	char ino[32];

	l = line_of(r->text, "shadow");
	if (l) {
		field(l, "err", r->shadow_err, sizeof(r->shadow_err));
		field(l, "dev", r->dev, sizeof(r->dev));
		field(l, "ino", ino, sizeof(ino));
		r->ino = strtoul(ino, NULL, 10);
		field(l, "type", r->type, sizeof(r->type));
		field(l, "last", r->last, sizeof(r->last));
		field(l, "last_type", r->last_type, sizeof(r->last_type));
	}
	l = line_of(r->text, "kernel");
	if (l) {
		field(l, "err", r->kernel_err, sizeof(r->kernel_err));
		field(l, "dev", r->kernel_dev, sizeof(r->kernel_dev));
		field(l, "ino", ino, sizeof(ino));
		r->kernel_ino = strtoul(ino, NULL, 10);
	}
	l = line_of(r->text, "verdict");
	if (l)
		sscanf(l, "verdict %15s", r->verdict);
}

/* One request of @len bytes; the result (or the reason it was refused). */
static inline int resolve_len(int fd, const char *req, size_t len, struct result *r)
{
	memset(r, 0, sizeof(*r));
	if (write(fd, req, len) < 0)
		r->write_errno = errno;
	r->text = read_result(fd);
	if (!r->text)
		return -1;
	parse_result(r);
	return 0;
}

static inline int resolve(int fd, const char *req, struct result *r)
{
	return resolve_len(fd, req, strlen(req), r);
}

static inline const char *errno_name(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ 0, "0" }, { ENOENT, "-ENOENT" }, { ENOTDIR, "-ENOTDIR" },
		{ EACCES, "-EACCES" }, { EBADF, "-EBADF" }, { ELOOP, "-ELOOP" },
		{ ENAMETOOLONG, "-ENAMETOOLONG" }, { EINVAL, "-EINVAL" },
		{ EXDEV, "-EXDEV" }, { EPERM, "-EPERM" }, { EEXIST, "-EEXIST" },
		{ EISDIR, "-EISDIR" }, { EROFS, "-EROFS" }, { ENXIO, "-ENXIO" },
		{ ETXTBSY, "-ETXTBSY" }, { EOPNOTSUPP, "-EOPNOTSUPP" },
		{ EFAULT, "-EFAULT" }, { ENOMEM, "-ENOMEM" }, { ESTALE, "-ESTALE" },
		{ EAGAIN, "-EAGAIN" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	return "?";
}

/*
 * @body in a child, whose limits or namespaces it may change: it must
 * exit 0.  (kselftest_harness.h is included first by every test.)
 */
static inline void expect_child_ok(struct __test_metadata *_metadata,
				   int (*body)(void))
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(body());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* NS_RACE_SCALE=0.1 and the like: fewer walks on slow kernels. */
static inline long race_walks(long n)
{
	const char *scale = getenv("NS_RACE_SCALE");

	return scale ? (long)(n * atof(scale)) : n;
}

/* The RCU mode the module runs, from features: "full", "within-mount", "off". */
static inline void module_rcu_mode(char *buf, size_t size)
{
	FILE *f = fopen(NS_DIR "/features", "r");
	char line[256];

	snprintf(buf, size, "?");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "rcu mode=%63s", buf) == 1)
			break;
	fclose(f);
}

static inline long stat_counter(const char *name)
{
	FILE *f = fopen(STATS, "r");
	char key[64];
	long v, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/* ------------------------------------------------------------------ */
/* The scratch tree                                                    */

static inline void must(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "# setup: %s: %s\n", what, strerror(errno));
		exit(1);
	}
}

static inline void mkfile(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	must(fd >= 0, path);
	close(fd);
}

static inline void mklink(const char *target, const char *path)
{
	must(!symlink(target, path), path);
}

static inline void mkdir_p(const char *path, mode_t mode)
{
	must(!mkdir(path, mode) || errno == EEXIST, path);
}

/*
 * The inode number a fresh tmpfs gives its root, as mounted on @dir:
 * the answer of a walk that lands on a tmpfs mounted there by a race.
 */
static inline unsigned long tmpfs_root_ino(const char *dir)
{
	struct stat st;

	must(!mount("ns-probe", dir, "tmpfs", 0, NULL), "probe tmpfs");
	must(!stat(dir, &st), dir);
	must(!umount2(dir, 0), "probe tmpfs umount");
	return st.st_ino;
}

/*
 * A private mount namespace with a fresh tmpfs on /tmp (named @name, as
 * mounts show it): the scratch trees live there, and whatever the test
 * mounts goes with the namespace.
 */
static inline void enter_scratch_namespace(const char *name)
{
	must(!unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
	must(!mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), "make / private");
	must(!mount(name, "/tmp", "tmpfs", 0, "mode=1777"), "tmpfs on /tmp");
}

/*
 * A fresh ext4 on a loop device at @dir, from a sparse image @image (on
 * the scratch tmpfs): a disk filesystem for the cases that must hold on
 * one (its own d_revalidate-less dcache, its own inode numbers).
 */
static inline void mount_ext4(const char *image, const char *dir)
{
	const char *kroot = getenv("NS_KROOT");	/* the guest kernel's modules */
	char cmd[768], d[PATH_MAX + 8] = "";

	if (kroot && *kroot)
		snprintf(d, sizeof(d), "-d %s", kroot);
	snprintf(cmd, sizeof(cmd), "modprobe -q %s loop; modprobe -q %s ext4; "
		 "truncate -s 64M %s && mkfs.ext4 -q -F %s && mount -o loop %s %s",
		 d, d, image, image, image, dir);
	must(!system(cmd), "ext4 on a loop device");
}

/*
 * A test that loads a test-only module is skipped where they are not
 * given: NS_TESTMODS names the directory of their .ko files, built for
 * the running kernel (tools/build-module.sh; make check sets it).
 */
#define SKIP_WITHOUT_TESTMODS()						\
	do {								\
		if (!getenv("NS_TESTMODS"))				\
			SKIP(return, "NS_TESTMODS is not set: no test-only modules (selftests/modules) to load"); \
	} while (0)

/*
 * The test-only module @name's .ko (NS_TESTMODS, tools/ksft-guest.sh's),
 * opened before a scratch tmpfs on /tmp can hide it, for
 * "insmod /proc/self/fd/N"; -1, with a message, if it cannot be.
 */
static inline int open_test_module(const char *name)
{
	const char *mods = getenv("NS_TESTMODS");
	char path[PATH_MAX];
	int fd;

	if (!mods) {
		fprintf(stderr, "# NS_TESTMODS is not set\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s.ko", mods, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		fprintf(stderr, "# %s: %s\n", path, strerror(errno));
	return fd;
}

/* The integer parameter @param of the loaded module @module, or -1. */
static inline int module_param_int(const char *module, const char *param)
{
	char path[256];
	FILE *f;
	int n = -1;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module, param);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/* Unmount @n scratch mounts, in order; 1 if any stayed (a leaked reference). */
static inline int unmount_all(const char *const *mounts, size_t n)
{
	size_t i;
	int bad = 0;

	must(!chdir("/"), "chdir /");
	for (i = 0; i < n; i++) {
		if (umount2(mounts[i], 0)) {
			fprintf(stderr, "# umount %s: %s\n", mounts[i], strerror(errno));
			bad = 1;
		}
	}
	return bad;
}

/* ------------------------------------------------------------------ */
/* The answers a racing path can have                                  */

/*
 * What the test knows, from user space, a path can resolve to while
 * something changes under it: errnos, and objects (st_dev and st_ino,
 * as a result's dev=MAJOR:MINOR ino=N).  @other_dev: an object with
 * that inode number on any device but this one -- the root of a
 * filesystem mounted and unmounted in a loop, a new device each time.
 */
struct answer {
	const char *err;		/* "0" for an object */
	unsigned int major, minor;
	unsigned long ino;
	int other_dev;
	int any_ino;			/* any object on the device */
};

#define ANSWERS_MAX	8

struct answers {
	struct answer a[ANSWERS_MAX];
	int n;
};

static inline struct answer *answer_add(struct answers *s)
{
	if (s->n == ANSWERS_MAX) {
		fprintf(stderr, "# setup: more than %d answers\n", ANSWERS_MAX);
		exit(1);
	}
	return memset(&s->a[s->n++], 0, sizeof(s->a[0]));
}

static inline void allow_errno(struct answers *s, const char *err)
{
	answer_add(s)->err = err;
}

/* The object at @path now (never following a last link). */
static inline void allow_object(struct answers *s, const char *path)
{
	struct answer *a = answer_add(s);
	struct stat st;

	must(!lstat(path, &st), path);
	a->err = "0";
	a->major = major(st.st_dev);
	a->minor = minor(st.st_dev);
	a->ino = st.st_ino;
}

/* Inode @ino of any filesystem but @path's. */
static inline void allow_other_fs(struct answers *s, const char *path,
				  unsigned long ino)
{
	allow_object(s, path);
	s->a[s->n - 1].ino = ino;
	s->a[s->n - 1].other_dev = 1;
}

/*
 * Any object on @path's filesystem: a name swapped by rename(2) onto a
 * new inode each time.
 */
static inline void allow_any_on(struct answers *s, const char *path)
{
	allow_object(s, path);
	s->a[s->n - 1].any_ino = 1;
}

/* Is @err (with @dev, @ino for "0") one of @s? */
static inline int answer_allowed(const struct answers *s, const char *err,
				 const char *dev, unsigned long ino)
{
	unsigned int maj, min;
	int i, same_dev;

	for (i = 0; i < s->n; i++) {
		const struct answer *a = &s->a[i];

		if (strcmp(a->err, err))
			continue;
		if (strcmp(err, "0"))
			return 1;
		if (sscanf(dev, "%u:%u", &maj, &min) != 2 ||
		    (ino != a->ino && !a->any_ino))
			continue;
		same_dev = maj == a->major && min == a->minor;
		if (same_dev != a->other_dev)
			return 1;
	}
	return 0;
}

#endif /* NS_SELFTEST_H */
