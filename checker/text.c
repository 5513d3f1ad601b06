// SPDX-License-Identifier: GPL-2.0
/*
 * Text: the buffer answers are written into, and the pieces of their
 * lines -- numbers, escaped names, errnos, objects -- and the names of
 * the walker's enums.
 */

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/errno.h>
#include <linux/kdev_t.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/path.h>
#include <linux/slab.h>
#include <linux/stat.h>

#include "ns_model.h"
#include "ns_text.h"

const char *const ns_last_names[] = {
	[NS_LAST_NORM] = "norm",
	[NS_LAST_ROOT] = "root",
	[NS_LAST_DOT] = "dot",
	[NS_LAST_DOTDOT] = "dotdot",
};

const char *const ns_walk_kind_names[NS_WALK_KINDS] = {
	[NS_WALK_LOOKUP] = "lookup",
	[NS_WALK_PARENT] = "parent",
	[NS_WALK_MOUNTPOINT] = "mountpoint",
	[NS_WALK_OPEN] = "open",
};

const char *const ns_mode_names[] = {
	[NS_MODE_RCU] = "rcu",
	[NS_MODE_REF] = "ref",
	[NS_MODE_REVAL] = "reval",
};

const char *const ns_inject_names[NS_INJECTS] = {
	[NS_INJECT_NONE] = "none",
	[NS_INJECT_DSEQ] = "dseq",
	[NS_INJECT_LEGITIMIZE] = "legitimize",
	[NS_INJECT_ECHILD_PERMISSION] = "echild-permission",
	[NS_INJECT_MISS] = "miss",
	[NS_INJECT_ESTALE] = "estale",
};

const char *const ns_why_names[NS_WHYS] = {
	[NS_WHY_NONE] = "complete",
	[NS_WHY_MISS] = "miss",
	[NS_WHY_REVALIDATE] = "revalidate",
	[NS_WHY_PERMISSION] = "permission",
	[NS_WHY_MOUNT] = "mount",
	[NS_WHY_MOUNT_UP] = "mount-up",
	[NS_WHY_LINK] = "link",
	[NS_WHY_MAGIC] = "magic",
	[NS_WHY_ATIME] = "atime",
	[NS_WHY_LSM] = "lsm",
	[NS_WHY_ALLOC] = "alloc",
	[NS_WHY_ENOTDIR] = "enotdir",
	[NS_WHY_PROTECTED] = "protected",
	[NS_WHY_NOSYMFOLLOW] = "nosymfollow",
	[NS_WHY_CREATE] = "create",
	[NS_WHY_MOUNTPOINT] = "mountpoint",
	[NS_WHY_DSEQ] = "dseq",
	[NS_WHY_LEGITIMIZE] = "legitimize",
	[NS_WHY_ROOT_SEQ] = "root-seq",
	[NS_WHY_DISCONNECTED] = "disconnected",
	[NS_WHY_ESTALE] = "estale",
	[NS_WHY_ECHILD] = "echild",
	[NS_WHY_SCOPE] = "scope",
};

const char *const ns_scope_names[NS_SCOPES] = {
	[NS_SCOPE_NONE] = "none",
	[NS_SCOPE_BENEATH] = "beneath",
	[NS_SCOPE_NO_XDEV] = "no_xdev",
	[NS_SCOPE_NO_SYMLINKS] = "no_symlinks",
	[NS_SCOPE_NO_MAGICLINKS] = "no_magiclinks",
	[NS_SCOPE_MAGIC] = "magic-in-scope",
	[NS_SCOPE_MOUNT_LOCK] = "mount_lock",
	[NS_SCOPE_RENAME_LOCK] = "rename_lock",
	[NS_SCOPE_ESCAPED] = "escaped",
	[NS_SCOPE_CACHED] = "cached",
};

const char *const ns_how_names[NS_HOWS] = {
	[NS_HOW_NONE] = "none",
	[NS_HOW_DCACHE] = "dcache",
	[NS_HOW_REVALIDATED] = "revalidated",
	[NS_HOW_INVALIDATED] = "invalidated",
	[NS_HOW_SLOW] = "slow",
	[NS_HOW_DOT] = "dot",
	[NS_HOW_DOTDOT] = "dotdot",
	[NS_HOW_DOTDOT_ROOT] = "dotdot-root",
	[NS_HOW_DOTDOT_NSROOT] = "dotdot-nsroot",
	[NS_HOW_MOUNTS] = "mounts",
	[NS_HOW_WOULD_CREATE] = "would-create",
};

void ns_buf_clear(struct ns_buf *b)
{
	b->len = 0;
	b->buf[0] = '\0';
}

void ns_buf_init(struct ns_buf *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	ns_buf_clear(b);
}

size_t ns_buf_left(const struct ns_buf *b)
{
	return b->size - 1 - b->len;
}

size_t ns_buf_used(const struct ns_buf *b)
{
	return b->len;
}

void ns_printf(struct ns_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	b->len = min_t(size_t, b->len + n, b->size - 1);
}

/* Without vsnprintf: these are called deep in the walk, and kept small. */
void ns_puts(struct ns_buf *b, const char *s)
{
	while (*s)
		ns_putc(b, *s++);
}

/* Decimal, most significant digit first, without a buffer on the stack. */
void ns_put_uint(struct ns_buf *b, unsigned int n)
{
	unsigned int div = 1;

	while (n / div >= 10)
		div *= 10;
	do {
		ns_putc(b, '0' + n / div % 10);
		div /= 10;
	} while (div);
}

void ns_putc(struct ns_buf *b, char c)
{
	if (ns_buf_left(b)) {
		b->buf[b->len++] = c;
		b->buf[b->len] = '\0';
	}
}

/* Write @len bytes of @s as /proc/self/mountinfo does: " \t\n\\" as \ooo. */
void ns_put_escaped(struct ns_buf *sb, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\\') {
			ns_putc(sb, '\\');
			ns_putc(sb, '0' + (c >> 6));
			ns_putc(sb, '0' + ((c >> 3) & 7));
			ns_putc(sb, '0' + (c & 7));
		} else {
			ns_putc(sb, c);
		}
	}
}

static const char *const ns_errno_names[] = {
	[EPERM] = "EPERM",
	[ENOENT] = "ENOENT",
	[EIO] = "EIO",
	[ENXIO] = "ENXIO",
	[E2BIG] = "E2BIG",
	[EBADF] = "EBADF",
	[ECHILD] = "ECHILD",
	[EAGAIN] = "EAGAIN",
	[ENOMEM] = "ENOMEM",
	[EACCES] = "EACCES",
	[EFAULT] = "EFAULT",
	[EBUSY] = "EBUSY",
	[EEXIST] = "EEXIST",
	[EXDEV] = "EXDEV",
	[ENODEV] = "ENODEV",
	[ETXTBSY] = "ETXTBSY",
	[ENOTDIR] = "ENOTDIR",
	[EISDIR] = "EISDIR",
	[EINVAL] = "EINVAL",
	[EMFILE] = "EMFILE",
	[ENOSPC] = "ENOSPC",
	[EROFS] = "EROFS",
	[EMLINK] = "EMLINK",
	[ERANGE] = "ERANGE",
	[ENAMETOOLONG] = "ENAMETOOLONG",
	[ENOTEMPTY] = "ENOTEMPTY",
	[ELOOP] = "ELOOP",
	[ENODATA] = "ENODATA",
	[ETIME] = "ETIME",
	[ENOLINK] = "ENOLINK",
	[EPROTO] = "EPROTO",
	[EOVERFLOW] = "EOVERFLOW",
	[EILSEQ] = "EILSEQ",
	[EOPNOTSUPP] = "EOPNOTSUPP",
	[ETIMEDOUT] = "ETIMEDOUT",
	[EHOSTDOWN] = "EHOSTDOWN",
	[ESTALE] = "ESTALE",
	[EREMOTE] = "EREMOTE",
	[EREMOTEIO] = "EREMOTEIO",
	[ENOMEDIUM] = "ENOMEDIUM",
	[ECANCELED] = "ECANCELED",
	[ENOKEY] = "ENOKEY",
	[EKEYEXPIRED] = "EKEYEXPIRED",
	[EKEYREVOKED] = "EKEYREVOKED",
	[EKEYREJECTED] = "EKEYREJECTED",
	[EOWNERDEAD] = "EOWNERDEAD",
	[EHWPOISON] = "EHWPOISON",
	[ENOTCONN] = "ENOTCONN",
	[ECONNREFUSED] = "ECONNREFUSED",
	[ENOTSUPP] = "ENOTSUPP",
};

/* "EPERM" for 1, ..., or NULL where the table has no name. */
const char *ns_errno_name(int e)
{
	if (e <= 0 || e >= ARRAY_SIZE(ns_errno_names))
		return NULL;
	return ns_errno_names[e];
}

void ns_put_errno(struct ns_buf *sb, int err)
{
	const char *name = ns_errno_name(-err);

	if (!err)
		ns_puts(sb, "0");
	else if (name)
		ns_printf(sb, "-%s", name);
	else
		ns_printf(sb, "%d", err);
}

const char *ns_type_name(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "reg";
	case S_IFDIR:
		return "dir";
	case S_IFLNK:
		return "lnk";
	case S_IFCHR:
		return "chr";
	case S_IFBLK:
		return "blk";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "sock";
	}
	return "unknown";
}

/*
 * " type=T perm=P uid=U gid=G": owners as the writer's namespace sees
 * them.  No printf: a step's link is shown at the walk's deepest point.
 */
void ns_put_mode(struct ns_buf *sb, const struct ns_vfs_object *o)
{
	umode_t perm = o->mode & 07777;
	int shift;

	ns_puts(sb, " type=");
	ns_puts(sb, ns_type_name(o->mode));
	ns_puts(sb, " perm=");
	for (shift = 9; shift >= 0; shift -= 3)
		ns_putc(sb, '0' + ((perm >> shift) & 7));
	ns_puts(sb, " uid=");
	ns_put_uint(sb, from_kuid_munged(current_user_ns(), o->uid));
	ns_puts(sb, " gid=");
	ns_put_uint(sb, from_kgid_munged(current_user_ns(), o->gid));
}

/* " dev=M:m ino=N type=T ..." for a positive dentry, as stat(2) reports them. */
void ns_put_object(struct ns_buf *sb, const struct ns_vfs_object *o)
{
	if (!o->positive) {
		ns_puts(sb, " type=negative");
		return;
	}
	ns_printf(sb, " dev=%u:%u ino=%llu", MAJOR(o->dev), MINOR(o->dev),
		  o->ino);
	ns_put_mode(sb, o);
}

/* " path=<d_path> dev=.. ino=.. type=.." */
void ns_put_path(struct ns_buf *sb, const struct path *path)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	struct ns_vfs_object o;
	char *p;

	ns_puts(sb, " path=");
	p = buf ? d_path(path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	if (IS_ERR(p))
		ns_put_errno(sb, PTR_ERR(p));
	else
		ns_put_escaped(sb, p, strlen(p));
	kfree(buf);
	ns_vfs_object_take(&o, path->dentry);
	ns_put_object(sb, &o);
}
