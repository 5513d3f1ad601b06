// SPDX-License-Identifier: GPL-2.0
/*
 * namei_shadow: a shadow of Linux 4.2 pathname lookup, checked
 * against the running kernel's own
 *
 * The module carries its own nameidata walker and resolves every path
 * written to its debugfs interface twice, once by the shadow and once
 * by the kernel (kern_path() and friends), and compares the answers.
 *
 * This file holds the walker -- struct nameidata and the steps Neil
 * Brown's "Pathname lookup in Linux" names: path_init, link_path_walk,
 * walk_component, lookup_fast, lookup_slow, handle_dots, the mount
 * crossings, the final-component handlers and the retry ladder --, the
 * oracle and the verdict, and the debugfs interface.  dcache_model.c
 * is the walker's one door to the live dcache and mount table.
 *
 * Where 4.2 and the running kernel differ only by a later fix or
 * hardening, the walker does what the running kernel does (the
 * README lists each such choice).
 */

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delayed_call.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/mnt_idmapping.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ns_compat.h"
#include "ns_model.h"

#define CREATE_TRACE_POINTS
#include "ns_trace.h"

static char *ksym_source = "auto";
module_param(ksym_source, charp, 0444);
MODULE_PARM_DESC(ksym_source,
		 "how kallsyms_lookup_name is called: auto (default), or gate (through a kprobe, safe under IBT)");

static char *ksym_hide = "";
module_param(ksym_hide, charp, 0444);
MODULE_PARM_DESC(ksym_hide,
		 "kernel internals (features' ksym names, comma-separated) to do without, as on a kernel that lacks them: the walker's fallbacks");

static char *rcu = "auto";
module_param(rcu, charp, 0444);
MODULE_PARM_DESC(rcu,
		 "RCU-walk: auto (the best this kernel allows), full, within-mount, or off");

/* ------------------------------------------------------------------ */
/* The nameidata                                                       */

#define NS_MAXSYMLINKS		40
#define NS_EMBEDDED_LEVELS	2

/*
 * What the last component is (4.2's LAST_*; its LAST_BIND, set by
 * nd_jump_link, never is here: magic links are the kernel's to walk).
 */
enum ns_last_type {
	NS_LAST_NORM,
	NS_LAST_ROOT,
	NS_LAST_DOT,
	NS_LAST_DOTDOT,
};

static const char *const ns_last_names[] = {
	[NS_LAST_NORM] = "norm",
	[NS_LAST_ROOT] = "root",
	[NS_LAST_DOT] = "dot",
	[NS_LAST_DOTDOT] = "dotdot",
};

/* How the walk is being done. */
enum ns_walk_mode {
	NS_MODE_RCU,		/* no references, no locks: d_seq checks */
	NS_MODE_REF,		/* references and locks */
	NS_MODE_REVAL,		/* REF-walk with LOOKUP_REVAL, after ESTALE */
};

static const char *const ns_mode_names[] = {
	[NS_MODE_RCU] = "rcu",
	[NS_MODE_REF] = "ref",
	[NS_MODE_REVAL] = "reval",
};

/* nd->state */
#define NS_JUMPED	0x1	/* the last step was a jump: weak revalidate */
#define NS_ROOT_GRABBED	0x2	/* nd->root holds a reference */

/* walk_component() and step_into() flags */
#define WALK_TRAILING	0x1	/* the final component */
#define WALK_MORE	0x2	/* an intermediate component */
#define WALK_NOFOLLOW	0x4	/* ".." and the like: never a link */

/* A symlink being followed: its path, its body's release, the rest of the name. */
struct ns_saved {
	struct path link;		/* referenced, except in RCU mode */
	struct delayed_call done;
	const char *name;
	unsigned int seq;		/* RCU mode: the link's d_seq */
};

/* Fault injection: make a check fail at a step, to walk the fallbacks. */
enum ns_inject {
	NS_INJECT_NONE,
	NS_INJECT_DSEQ,			/* a d_seq check fails: restart */
	NS_INJECT_LEGITIMIZE,		/* an unlazy there fails: restart */
	NS_INJECT_ECHILD_PERMISSION,	/* may_lookup says -ECHILD: unlazy */
	NS_INJECT_MISS,			/* the RCU lookup misses: unlazy */
	NS_INJECT_ESTALE,		/* the step fails ESTALE: LOOKUP_REVAL */
};

static const char *const ns_inject_names[] = {
	[NS_INJECT_NONE] = "none",
	[NS_INJECT_DSEQ] = "dseq",
	[NS_INJECT_LEGITIMIZE] = "legitimize",
	[NS_INJECT_ECHILD_PERMISSION] = "echild-permission",
	[NS_INJECT_MISS] = "miss",
	[NS_INJECT_ESTALE] = "estale",
};

/* What one step of the walk did, for its `step` line. */
struct ns_step {
	const char *how;
	int mounts_down;
	int mounts_up;
	bool automount;
	bool managed_stop;
	bool link;
	bool magic;
	bool jump_root;
	bool seq_retry;
	bool lsm_unchecked;	/* security_inode_follow_link not asked */
	bool shown;
	u8 mode;		/* the walk's mode as the step began */
};

/*
 * Witnesses: the dentries a walk stood on, failed at or followed, held
 * until the verdict with what the walk relied on there: the dentry's
 * d_seq (it moves on rename, on negative <-> positive and on unhashing:
 * a symlink swapped, a name created or unlinked), the mount the walk
 * crossed to from it, if any, and -- where a permission was decided on
 * it (search, following a link, open) -- its inode's mode, owner, ACL,
 * ctime and i_version (chmod, chown and setfacl move no seqlock;
 * i_version counts each change within one clock tick, though it cannot
 * tell them from a change of the directory's entries).  A
 * witness that changed between the kernel's first answer and its second
 * is the evidence a `raced` verdict needs.  Each dentry once, the first
 * time; kept out of the nameidata (and its stack), in the session.
 */
#define NS_WITNESSES BITS_PER_LONG

struct ns_witness {
	struct vfsmount *mnt;		/* held with the dentry: */
	struct dentry *dentry;		/* its fs cannot go away */
	unsigned int seq;
	bool crossed;			/* the walk went down to @top */
	bool relied;			/* a permission was decided on @attrs */
	const struct vfsmount *top;	/* compared, never dereferenced */
	struct ns_vfs_attrs attrs;
};

struct ns_witnesses {
	struct ns_witness w[NS_WITNESSES];
	unsigned long held;		/* bit i: w[i].dentry is referenced */
	unsigned long held_mnt;		/* bit i: w[i].mnt is */
	int n;
	bool moved;			/* one moved, or could not be kept */
	bool overflowed;		/* more than NS_WITNESSES: some not kept */
};

struct nameidata {
	struct path path;		/* where the walk is */
	struct inode *inode;		/* path.dentry's inode */
	struct qstr last;		/* the component being looked at */
	enum ns_last_type last_type;
	struct path root;		/* set on first use, held for the walk */
	unsigned int flags;		/* LOOKUP_*, the running kernel's values */
	unsigned int state;		/* NS_JUMPED, NS_ROOT_GRABBED */
	enum ns_walk_mode mode;
	int depth;			/* links on the stack */
	int total_link_count;		/* links followed in this walk */
	struct ns_saved *stack;
	struct ns_saved internal[NS_EMBEDDED_LEVELS];
	bool at_fd;			/* starts at the request's at= file */
	const char *name;
	umode_t dir_mode;		/* the final component's directory, */
	vfsuid_t dir_vfsuid;		/* for may_follow_link */
	bool semantics_42;		/* answer as 4.2 where it differs */
	const char *divergence;		/* where 4.2 and this kernel differ */

	/* RCU-walk. */
	unsigned int seq;		/* path.dentry's d_seq */
	unsigned int next_seq;		/* the next dentry's */
	unsigned int root_seq;		/* root.dentry's */
	unsigned int m_seq;		/* mount_lock's, as the walk began */
	bool rcu_mounts;		/* RCU mode crosses mounts ("full") */
	struct path pinned;		/* the start, referenced, for RCU mode */
	const char *unlazy_reason;	/* why RCU mode ended early */
	int unlazy_step;
	const char *restart_reason;	/* why the walk had to start again */
	bool rcu_completed;		/* reached its end in RCU mode */
	enum ns_walk_mode attempt;	/* what this attempt starts in */
	enum ns_inject inject;
	int inject_step;

	/* Instrumentation. */
	struct ns_witnesses *wit;
	struct ns_buf *trace;
	int steps;
	int steps_shown;
	struct ns_step step;
};

/* ------------------------------------------------------------------ */
/* Output helpers                                                      */

/* A text buffer that stays NUL-terminated and drops what does not fit. */
struct ns_buf {
	char *buf;
	size_t size;
	size_t len;
};

static void ns_buf_clear(struct ns_buf *b)
{
	b->len = 0;
	b->buf[0] = '\0';
}

static void ns_buf_init(struct ns_buf *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	ns_buf_clear(b);
}

static size_t ns_buf_left(const struct ns_buf *b)
{
	return b->size - 1 - b->len;
}

static size_t ns_buf_used(const struct ns_buf *b)
{
	return b->len;
}

static __printf(2, 3) void ns_printf(struct ns_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	b->len = min_t(size_t, b->len + n, b->size - 1);
}

static void ns_putc(struct ns_buf *b, char c);

/* Without vsnprintf: these are called deep in the walk, and kept small. */
static void ns_puts(struct ns_buf *b, const char *s)
{
	while (*s)
		ns_putc(b, *s++);
}

/* Decimal, most significant digit first, without a buffer on the stack. */
static void ns_put_uint(struct ns_buf *b, unsigned int n)
{
	unsigned int div = 1;

	while (n / div >= 10)
		div *= 10;
	do {
		ns_putc(b, '0' + n / div % 10);
		div /= 10;
	} while (div);
}

static void ns_putc(struct ns_buf *b, char c)
{
	if (ns_buf_left(b)) {
		b->buf[b->len++] = c;
		b->buf[b->len] = '\0';
	}
}

/* Write @len bytes of @s as /proc/self/mountinfo does: " \t\n\\" as \ooo. */
static void ns_put_escaped(struct ns_buf *sb, const char *s, size_t len)
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

#define NS_ERRNO_SLOTS 134	/* errnos counted one by one in `stats` */

static void ns_put_errno(struct ns_buf *sb, int err)
{
	int e = -err;

	if (!err)
		ns_puts(sb, "0");
	else if (e > 0 && e < ARRAY_SIZE(ns_errno_names) && ns_errno_names[e])
		ns_printf(sb, "-%s", ns_errno_names[e]);
	else
		ns_printf(sb, "%d", err);
}

static const char *ns_type_name(umode_t mode)
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
 * them.  No printf: a link step calls this at the walk's deepest point.
 */
static void ns_put_mode(struct ns_buf *sb, const struct inode *inode)
{
	umode_t perm = inode->i_mode & 07777;
	int shift;

	ns_puts(sb, " type=");
	ns_puts(sb, ns_type_name(inode->i_mode));
	ns_puts(sb, " perm=");
	for (shift = 9; shift >= 0; shift -= 3)
		ns_putc(sb, '0' + ((perm >> shift) & 7));
	ns_puts(sb, " uid=");
	ns_put_uint(sb, from_kuid_munged(current_user_ns(), inode->i_uid));
	ns_puts(sb, " gid=");
	ns_put_uint(sb, from_kgid_munged(current_user_ns(), inode->i_gid));
}

/* " dev=M:m ino=N type=T ..." for a positive dentry, as stat(2) reports them. */
static void ns_put_object(struct ns_buf *sb, struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	dev_t dev = dentry->d_sb->s_dev;

	if (!inode) {
		ns_puts(sb, " type=negative");
		return;
	}
	ns_printf(sb, " dev=%u:%u ino=%llu", MAJOR(dev), MINOR(dev),
		  (u64)inode->i_ino);
	ns_put_mode(sb, inode);
}

/* " path=<d_path> dev=.. ino=.. type=.." */
static void ns_put_path(struct ns_buf *sb, const struct path *path)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	char *p;

	ns_puts(sb, " path=");
	p = buf ? d_path(path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	if (IS_ERR(p))
		ns_put_errno(sb, PTR_ERR(p));
	else
		ns_put_escaped(sb, p, strlen(p));
	kfree(buf);
	ns_put_object(sb, path->dentry);
}

/* ------------------------------------------------------------------ */
/* Steps: one `step` line per component                                */

/* Leave this much room in the trace for the lines that end a walk. */
#define NS_TRACE_RESERVE 512

static void ns_step_begin(struct nameidata *nd)
{
	struct ns_buf *sb = nd->trace;
	size_t need = nd->last.len * 4 + NS_TRACE_RESERVE;

	memset(&nd->step, 0, sizeof(nd->step));
	nd->steps++;
	nd->step.mode = nd->mode;
	if (!sb || ns_buf_left(sb) < need)
		return;
	nd->step.shown = true;
	nd->steps_shown++;
	ns_printf(sb, "step n=%d mode=%s name=", nd->steps,
		  ns_mode_names[nd->step.mode]);
	ns_put_escaped(sb, nd->last.name, nd->last.len);
}

static void ns_trace_step(struct nameidata *nd, int err)
{
	const struct ns_step *st = &nd->step;
	const char *type;

	if (err)
		type = "error";
	else if (st->link && !st->magic)
		type = "lnk";
	else
		type = nd->inode ? ns_type_name(nd->inode->i_mode) : "negative";
	trace_step(nd->steps, nd->last.name, nd->last.len,
		   ns_mode_names[st->mode], st->how ?: "none", type, err,
		   st->seq_retry);
}

static void ns_step_end(struct nameidata *nd, int err)
{
	struct ns_buf *sb = nd->trace;
	struct ns_step *st = &nd->step;

	if (trace_step_enabled())
		ns_trace_step(nd, err);
	if (!st->shown)
		return;
	ns_printf(sb, " how=%s", st->how ? st->how : "none");
	if (st->mounts_up)
		ns_printf(sb, " mounts_up=%d", st->mounts_up);
	if (st->mounts_down)
		ns_printf(sb, " mounts_down=%d", st->mounts_down);
	if (st->managed_stop)
		ns_puts(sb, " managed=stop");
	if (st->automount)
		ns_puts(sb, " automount=kernel");
	if (st->jump_root)
		ns_puts(sb, " jump=root");
	if (st->magic)
		ns_puts(sb, " magic=kernel");
	if (st->lsm_unchecked)
		ns_puts(sb, " lsm=unchecked");
	if (st->seq_retry)
		ns_puts(sb, " seq_retry=y");
	if (err) {
		ns_puts(sb, " err=");
		ns_put_errno(sb, err);
	} else if (!st->link || st->magic) {
		ns_put_object(sb, nd->path.dentry);
	}
	ns_putc(sb, '\n');
}

/* The body of a link just picked: written now, it may not live to the end. */
static void ns_step_link(struct nameidata *nd, const char *body)
{
	struct ns_buf *sb = nd->trace;
	size_t len = strlen(body);
	struct inode *inode;

	nd->step.link = true;
	trace_link_push(nd->depth, nd->total_link_count, body,
			ns_mode_names[nd->mode]);
	if (!nd->step.shown)
		return;
	ns_puts(sb, " link=");
	ns_put_uint(sb, nd->total_link_count);
	ns_puts(sb, " body=");
	if (ns_buf_left(sb) < len * 4 + NS_TRACE_RESERVE)
		ns_puts(sb, "(not-shown)");
	else
		ns_put_escaped(sb, body, len);
	/*
	 * The link itself, just pushed.  In RCU mode an unlink may have
	 * cleared d_inode since its d_seq was checked (the inode itself is
	 * freed only after a grace period): then its mode is not shown.
	 */
	inode = READ_ONCE(nd->stack[nd->depth - 1].link.dentry->d_inode);
	if (inode)
		ns_put_mode(sb, inode);
}

/* A step line for something that is not a component (the start, a jump). */
static void ns_step_note(struct nameidata *nd, const char *how,
			 const char *what)
{
	struct ns_buf *sb = nd->trace;

	if (!sb || ns_buf_left(sb) < NS_TRACE_RESERVE)
		return;
	ns_printf(sb, "step n=0 mode=%s how=%s at=%s",
		  ns_mode_names[nd->mode], how, what);
	ns_put_object(sb, nd->path.dentry);
	ns_putc(sb, '\n');
}

/*
 * Symbols.  The walker's functions have the kernel's names, which are
 * the article's.  But a module's symbols share kallsyms with the
 * kernel's, and kprobes refuse a name two symbols carry: with the module
 * loaded, "kprobe:walk_component" would fail for everyone (and a name
 * the kernel inlined would probe the shadow's).  So each is declared
 * here under a symbol of its own, ns_<name>: what kallsyms, kprobes and
 * stack traces show.  trace_test checks that the module's symbols leave
 * every kernel name unique.
 */
#define NS_SYMBOL(name)	asm("ns_" #name)

struct ns_open;
struct ns_parent;

static void set_root(struct nameidata *nd) NS_SYMBOL(set_root);
static void leave_rcu(struct nameidata *nd) NS_SYMBOL(leave_rcu);
static int legitimize_mnt(struct nameidata *nd, struct vfsmount *mnt)
	NS_SYMBOL(legitimize_mnt);
static bool legitimize_path(struct nameidata *nd, const struct path *path,
			    unsigned int seq, int bit, u64 *mnts, u64 *dents)
	NS_SYMBOL(legitimize_path);
static bool try_to_unlazy(struct nameidata *nd, const char *reason)
	NS_SYMBOL(try_to_unlazy);
static bool try_to_unlazy_next(struct nameidata *nd, struct dentry *child,
			       const char *reason)
	NS_SYMBOL(try_to_unlazy_next);
static int nd_jump_root(struct nameidata *nd) NS_SYMBOL(nd_jump_root);
static void put_link(struct nameidata *nd) NS_SYMBOL(put_link);
static void terminate_walk(struct nameidata *nd) NS_SYMBOL(terminate_walk);
static int reserve_stack(struct nameidata *nd) NS_SYMBOL(reserve_stack);
static int may_follow_link(struct nameidata *nd, const struct path *link,
			   struct inode *inode) NS_SYMBOL(may_follow_link);
static const char *pick_link(struct nameidata *nd, struct path *link,
			     int flags) NS_SYMBOL(pick_link);
static const char *step_into(struct nameidata *nd, int flags,
			     struct dentry *dentry) NS_SYMBOL(step_into);
static bool unlink_may_reveal(struct nameidata *nd, int flags,
			      const struct path *path)
	NS_SYMBOL(unlink_may_reveal);
static struct dentry *lookup_fast(struct nameidata *nd) NS_SYMBOL(lookup_fast);
static struct dentry *lookup_slow(struct nameidata *nd) NS_SYMBOL(lookup_slow);
static struct dentry *follow_dotdot(struct nameidata *nd)
	NS_SYMBOL(follow_dotdot);
static struct dentry *follow_dotdot_rcu(struct nameidata *nd)
	NS_SYMBOL(follow_dotdot_rcu);
static const char *handle_dots(struct nameidata *nd, int type)
	NS_SYMBOL(handle_dots);
static const char *walk_component(struct nameidata *nd, int flags)
	NS_SYMBOL(walk_component);
static int may_lookup(struct nameidata *nd) NS_SYMBOL(may_lookup);
static int link_path_walk(const char *name, struct nameidata *nd)
	NS_SYMBOL(link_path_walk);
static int path_init(struct nameidata *nd, unsigned int flags)
	NS_SYMBOL(path_init);
static int complete_walk(struct nameidata *nd) NS_SYMBOL(complete_walk);
static const char *lookup_last(struct nameidata *nd) NS_SYMBOL(lookup_last);
static int handle_lookup_down(struct nameidata *nd) NS_SYMBOL(handle_lookup_down);
static int path_lookupat(struct nameidata *nd, unsigned int flags,
			 struct path *path) NS_SYMBOL(path_lookupat);
static int path_parentat(struct nameidata *nd, unsigned int flags,
			 struct ns_parent *parent) NS_SYMBOL(path_parentat);
static int build_open_flags(struct nameidata *nd, unsigned int open_flag,
			    struct ns_open *op, unsigned int *lookup_flags)
	NS_SYMBOL(build_open_flags);
static const char *open_last_lookups(struct nameidata *nd, struct ns_open *op)
	NS_SYMBOL(open_last_lookups);
static int may_open(struct nameidata *nd, int acc_mode, unsigned int flag)
	NS_SYMBOL(may_open);
static int do_open(struct nameidata *nd, struct ns_open *op) NS_SYMBOL(do_open);
static int path_openat(struct nameidata *nd, unsigned int open_flag,
		       struct ns_open *op) NS_SYMBOL(path_openat);

/* ------------------------------------------------------------------ */
/* References, roots and the end of a walk                             */

static void set_root(struct nameidata *nd)
{
	ns_vfs_get_root(&nd->root);
	nd->state |= NS_ROOT_GRABBED;
}

/* Hand over hand: @path's references replace the walk's current ones. */
static void path_to_nameidata(struct nameidata *nd, struct path *path)
{
	path_put(&nd->path);
	nd->path = *path;
	nd->inode = d_inode(path->dentry);
}

/* Is the injected failure @what due at this step?  Once per walk. */
static bool ns_injected(struct nameidata *nd, enum ns_inject what, int step)
{
	if (nd->inject != what || step < nd->inject_step)
		return false;
	nd->inject = NS_INJECT_NONE;
	return true;
}

static void ns_witness_put(struct ns_witnesses *w, int i)
{
	if (w->held & BIT(i))
		dput(w->w[i].dentry);
	if (w->held_mnt & BIT(i))
		mntput(w->w[i].mnt);
	w->held &= ~BIT(i);
	w->held_mnt &= ~BIT(i);
}

/*
 * Record @dentry as a witness, with what the walk sees there now.  In
 * REF mode it is referenced now; in RCU mode it is kept with the d_seq
 * the walk validated it with, and referenced when the walk leaves RCU
 * mode (ns_witness_legitimize).
 */
static void ns_witness(struct nameidata *nd, struct vfsmount *mnt,
		       struct dentry *dentry, unsigned int seq)
{
	struct ns_witnesses *w = nd->wit;
	struct ns_witness *x;
	int i;

	if (!w)
		return;
	for (i = w->n - 1; i >= 0; i--)
		if (w->w[i].dentry == dentry && w->w[i].mnt == mnt)
			return;
	if (w->n == NS_WITNESSES) {
		w->overflowed = true;
		return;
	}
	x = &w->w[w->n++];
	x->mnt = mnt;
	x->dentry = dentry;
	x->seq = seq;
	x->crossed = false;
	x->relied = false;
	x->top = NULL;
	ns_vfs_attrs_take(&x->attrs, dentry);
	if (nd->mode != NS_MODE_RCU) {
		dget(dentry);
		mntget(mnt);
		w->held |= BIT(w->n - 1);
		w->held_mnt |= BIT(w->n - 1);
	}
}

static void ns_witness_ref(struct nameidata *nd, const struct path *path)
{
	ns_witness(nd, path->mnt, path->dentry, ns_vfs_seq_sample(path->dentry));
}

/*
 * A dentry a REF-mode lookup of nd->last in nd->path just found.  Its
 * d_seq is sampled after the lookup: a rename in between would leave
 * no trace in it, so the name is asked too -- a dentry already moved
 * away from it is a change this walk rests on.
 */
static void ns_witness_found(struct nameidata *nd, const struct path *path)
{
	unsigned int seq = ns_vfs_seq_sample(path->dentry);

	ns_witness(nd, path->mnt, path->dentry, seq);
	if (nd->wit && nd->last_type == NS_LAST_NORM &&
	    path->dentry != nd->path.dentry &&
	    !ns_vfs_still_named(path->dentry, seq, nd->path.dentry, &nd->last))
		nd->wit->moved = true;
}

/*
 * A permission is being decided on @dentry (a witness): what it rests
 * on, as it is now, is what must not change.
 */
static void ns_witness_relied(struct nameidata *nd, const struct dentry *dentry)
{
	struct ns_witnesses *w = nd->wit;
	int i;

	for (i = w ? w->n - 1 : -1; i >= 0; i--) {
		if (w->w[i].dentry == dentry) {
			w->w[i].relied = true;
			ns_vfs_attrs_take(&w->w[i].attrs, dentry);
			return;
		}
	}
}

/* Where the walk stands now: its start, or where a jump took it. */
static void ns_witness_here(struct nameidata *nd)
{
	struct dentry *dentry = nd->path.dentry;

	ns_witness(nd, nd->path.mnt, dentry, nd->mode == NS_MODE_RCU ?
		   nd->seq : ns_vfs_seq_sample(dentry));
}

/* The walk went down from the witness @mnt, @from to the mount @to. */
static void ns_witness_crossed(struct nameidata *nd, const struct vfsmount *mnt,
			       const struct dentry *from,
			       const struct vfsmount *to)
{
	struct ns_witnesses *w = nd->wit;
	int i;

	for (i = 0; w && i < w->n; i++) {
		if (w->w[i].dentry == from && w->w[i].mnt == mnt) {
			w->w[i].crossed = true;
			w->w[i].top = to;
			return;
		}
	}
}

/* Leaving RCU mode: reference the witnesses, or know they moved. */
static void ns_witness_legitimize(struct nameidata *nd)
{
	struct ns_witnesses *w = nd->wit;
	int i;

	for (i = 0; w && i < w->n; i++) {
		if ((w->held | w->held_mnt) & BIT(i))
			continue;
		/* the mount first: a dentry is never held without its mount */
		switch (legitimize_mnt(nd, w->w[i].mnt)) {
		case 0:
			w->held_mnt |= BIT(i);
			break;
		case -1:
			w->held_mnt |= BIT(i);
			fallthrough;
		default:
			w->moved = true;
			continue;
		}
		switch (ns_vfs_dget_seq(w->w[i].dentry, w->w[i].seq)) {
		case NS_DGET_OK:
			w->held |= BIT(i);
			break;
		case NS_DGET_STALE:
			w->held |= BIT(i);
			w->moved = true;
			break;
		case NS_DGET_DEAD:
			w->moved = true;
			break;
		}
	}
}

/*
 * Did the name the walk reached @x by change?  Its d_seq moved, or it
 * is unhashed (perhaps before the d_seq was sampled) -- unless the
 * filesystem merely remade the dentry: the same name in the same
 * directory leads to the same inode.  A filesystem's root has no name.
 */
static bool ns_witness_renamed(const struct ns_witness *x)
{
	bool unhashed = d_unhashed(x->dentry) && !IS_ROOT(x->dentry);

	if (!unhashed)
		return ns_vfs_seq_retry_dentry(x->dentry, x->seq);
	return !ns_vfs_rebound_same(x->dentry);
}

/* Is a mount on @x now that was not, or the other way round, or another? */
static bool ns_witness_remounted(const struct ns_witness *x)
{
	if (!x->crossed && !d_mountpoint(x->dentry))
		return false;
	return ns_vfs_mount_top(x->mnt, x->dentry) != x->top;
}

static bool ns_witness_changed(const struct ns_witness *x)
{
	return ns_witness_renamed(x) || ns_witness_remounted(x) ||
		(x->relied && ns_vfs_attrs_changed(&x->attrs, x->dentry));
}

/*
 * After the verdict's second oracle: did any witness change?  Returns
 * 1 if one did, 0 if none did, -1 if none of those kept did but some
 * were not kept.  All dropped.
 */
static int ns_witnesses_moved(struct ns_witnesses *w)
{
	bool moved = w->moved;
	int i, ret;

	for (i = 0; i < w->n; i++) {
		if (!moved && (w->held & BIT(i)))
			moved = ns_witness_changed(&w->w[i]);
		ns_witness_put(w, i);
	}
	ret = moved ? 1 : w->overflowed ? -1 : 0;
	w->n = 0;
	w->held = 0;
	w->held_mnt = 0;
	w->moved = false;
	w->overflowed = false;
	return ret;
}

/*
 * RCU mode holds rcu_read_lock() from path_init() to an unlazy or the
 * end of the walk, across the walk's functions, as the kernel's walker
 * does.  sparse follows lock contexts within a function only, so these
 * two tell it that the context is balanced here.
 */
static void enter_rcu(struct nameidata *nd)
{
	rcu_read_lock();
	__release(RCU);
	nd->mode = NS_MODE_RCU;
}

static void leave_rcu(struct nameidata *nd)
{
	nd->flags &= ~LOOKUP_RCU;
	nd->mode = NS_MODE_REF;
	__acquire(RCU);
	rcu_read_unlock();
}

/*
 * A reference on a mount the walk stands on in RCU mode, if the mount
 * table has not moved since the walk began: a mount or umount anywhere
 * may have covered what the walk stands on, so it cannot go on from
 * there (as __legitimize_mnt, 1: nothing taken).  The mounts pinned at
 * the start (the start's and the root's) are held already; one crossed
 * in RCU mode ("full") is taken as ns_vfs_legitimize_mnt() does.
 */
static int legitimize_mnt(struct nameidata *nd, struct vfsmount *mnt)
{
	if (mnt == nd->pinned.mnt || mnt == nd->root.mnt) {
		if (ns_vfs_mount_seq_retry(nd->m_seq))
			return 1;
		mntget(mnt);
		return 0;
	}
	return ns_vfs_legitimize_mnt(mnt, nd->m_seq);
}

/* Bits of what an unlazy holds: bit i, link i; these two, the path and child. */
#define NS_HELD_PATH	NS_MAXSYMLINKS
#define NS_HELD_CHILD	(NS_MAXSYMLINKS + 1)

/*
 * legitimize_path: the mount, then the dentry, if it is not dead and its
 * d_seq has not moved since @seq.  What was taken is recorded in @mnts
 * and @dents under @bit, to be kept or dropped as a whole.
 */
static bool legitimize_path(struct nameidata *nd, const struct path *path,
			    unsigned int seq, int bit, u64 *mnts, u64 *dents)
{
	enum ns_dget got;
	int res = legitimize_mnt(nd, path->mnt);

	if (res <= 0)
		*mnts |= BIT_ULL(bit);
	if (res)
		return false;
	got = ns_vfs_dget_seq(path->dentry, seq);
	if (got != NS_DGET_DEAD)
		*dents |= BIT_ULL(bit);
	return got == NS_DGET_OK;
}

/*
 * Unlazy: from RCU mode to REF mode where the walk is.  Every path the
 * walk uses without a reference -- each link on the stack, the current
 * path and, for try_to_unlazy_next(), the child just found (in the
 * current path's mount) -- gets its references, if nothing moved since
 * it was sampled: the dentry's d_seq, and mount_lock for a mount crossed
 * in RCU mode.  Any failure and the walk must start again in REF mode:
 * what was taken is dropped, after rcu_read_unlock(), since dput() and
 * mntput() may sleep.
 */
static bool unlazy(struct nameidata *nd, struct dentry *child,
		   unsigned int child_seq, const char *reason)
{
	bool ok = !ns_injected(nd, NS_INJECT_LEGITIMIZE, nd->steps);
	u64 mnts = 0, dents = 0;
	enum ns_dget got;
	int i;

	BUILD_BUG_ON(NS_HELD_CHILD >= BITS_PER_LONG_LONG);

	for (i = 0; i < nd->depth; i++)
		ok &= legitimize_path(nd, &nd->stack[i].link, nd->stack[i].seq,
				      i, &mnts, &dents);
	ok &= legitimize_path(nd, &nd->path, nd->seq, NS_HELD_PATH, &mnts,
			      &dents);
	if (child && (dents & BIT_ULL(NS_HELD_PATH))) {
		got = ns_vfs_dget_seq(child, child_seq);
		if (got != NS_DGET_DEAD)
			dents |= BIT_ULL(NS_HELD_CHILD);
		ok &= got == NS_DGET_OK;
	} else if (child) {
		ok = false;
	}
	ns_witness_legitimize(nd);
	leave_rcu(nd);
	trace_unlazy(reason ?: "complete", nd->steps, ok);
	if (reason && !nd->unlazy_reason) {
		nd->unlazy_reason = reason;
		/* search permission is asked before its step begins */
		nd->unlazy_step = nd->steps + !strcmp(reason, "permission");
	}
	if (ok)
		return true;
	for (i = 0; i < nd->depth; i++) {
		/* drop_links: a body given by ->get_link(NULL) is released */
		do_delayed_call(&nd->stack[i].done);
		clear_delayed_call(&nd->stack[i].done);
		if (dents & BIT_ULL(i))
			dput(nd->stack[i].link.dentry);
		if (mnts & BIT_ULL(i))
			mntput(nd->stack[i].link.mnt);
	}
	if (dents & BIT_ULL(NS_HELD_PATH))
		dput(nd->path.dentry);
	if (mnts & BIT_ULL(NS_HELD_PATH))
		mntput(nd->path.mnt);
	if (dents & BIT_ULL(NS_HELD_CHILD))
		dput(child);
	nd->depth = 0;
	nd->path.mnt = NULL;
	nd->path.dentry = NULL;
	if (!nd->restart_reason)
		nd->restart_reason = "legitimize";
	return false;
}

static bool try_to_unlazy(struct nameidata *nd, const char *reason)
{
	return unlazy(nd, NULL, 0, reason);
}

/* ... and the child just found, which the caller then holds. */
static bool try_to_unlazy_next(struct nameidata *nd, struct dentry *child,
			       const char *reason)
{
	return unlazy(nd, child, nd->next_seq, reason);
}

/* A failure only RCU mode can have: start again in REF mode. */
static const char *ns_restart(struct nameidata *nd, const char *reason)
{
	if (!nd->restart_reason)
		nd->restart_reason = reason;
	return ERR_PTR(-ECHILD);
}

static int nd_jump_root(struct nameidata *nd)
{
	if (!nd->root.mnt)
		set_root(nd);
	if (nd->mode == NS_MODE_RCU) {
		if (ns_vfs_seq_retry_dentry(nd->root.dentry, nd->root_seq))
			return PTR_ERR(ns_restart(nd, "root-seq"));
		nd->path = nd->root;
		nd->seq = nd->root_seq;
	} else {
		path_put(&nd->path);
		nd->path = nd->root;
		path_get(&nd->path);
	}
	nd->inode = d_inode(nd->path.dentry);
	nd->state |= NS_JUMPED;
	ns_witness_here(nd);
	return 0;
}

static void put_link(struct nameidata *nd)
{
	struct ns_saved *last = nd->stack + --nd->depth;

	trace_link_pop(nd->depth);
	do_delayed_call(&last->done);
	if (nd->mode != NS_MODE_RCU)
		path_put(&last->link);
}

static void terminate_walk(struct nameidata *nd)
{
	if (nd->mode == NS_MODE_RCU) {
		/* nothing but the pinned start and root is referenced */
		while (nd->depth)
			put_link(nd);
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
		ns_witness_legitimize(nd);
		leave_rcu(nd);
	}
	while (nd->depth)
		put_link(nd);
	if (nd->path.dentry) {
		path_put(&nd->path);
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
	if (nd->state & NS_ROOT_GRABBED) {
		path_put(&nd->root);
		nd->state &= ~NS_ROOT_GRABBED;
	}
	nd->root.mnt = NULL;
	nd->root.dentry = NULL;
	if (nd->pinned.dentry) {
		path_put(&nd->pinned);
		nd->pinned.mnt = NULL;
		nd->pinned.dentry = NULL;
	}
	if (nd->stack != nd->internal) {
		kfree(nd->stack);
		nd->stack = nd->internal;
	}
}

/* ------------------------------------------------------------------ */
/* Mounts                                                              */

static void ns_trace_mount(struct nameidata *nd, const char *direction,
			   const struct dentry *dentry)
{
	trace_mount(direction, ns_mode_names[nd->mode], dentry->d_sb->s_dev);
}

/*
 * follow_managed: from a dentry just found, cross whatever is mounted
 * on it, down to the top of the stack, asking d_manage() first where
 * the filesystem wants that (DCACHE_MANAGE_TRANSIT; -EISDIR means "stop
 * here"), and trigger an uncovered automount point when the walk needs
 * what is below it (intermediate components, LOOKUP_DIRECTORY,
 * LOOKUP_AUTOMOUNT, open and create intents), counting it against the
 * links as the kernel does.  @path holds references on both parts.
 */
static int follow_managed(struct nameidata *nd, struct path *path)
{
	const unsigned int want_mount = LOOKUP_PARENT | LOOKUP_DIRECTORY |
		LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_AUTOMOUNT;
	struct path before;
	int err;

	while (ns_vfs_is_managed(path->dentry)) {
		err = ns_vfs_manage(path);
		if (err == -EISDIR) {
			nd->step.managed_stop = true;
			return 0;
		}
		if (err < 0)
			return err;
		if (ns_vfs_mount_down(path)) {
			nd->step.mounts_down++;
			ns_trace_mount(nd, "down", path->dentry);
			nd->state |= NS_JUMPED;
			continue;
		}
		if (!ns_vfs_needs_automount(path))
			return 0;
		if (!(nd->flags & want_mount) && d_inode(path->dentry))
			return 0;
		if (nd->total_link_count == NS_MAXSYMLINKS - 1) {
			/* 4.2 counted ++count >= 40: one automount fewer */
			nd->divergence = "automount-count";
			if (nd->semantics_42)
				return -ELOOP;
		}
		if (nd->total_link_count++ >= NS_MAXSYMLINKS)
			return -ELOOP;
		before = *path;
		err = ns_vfs_automount(path);
		nd->step.automount = true;
		if (err)
			return err;
		ns_trace_mount(nd, "automount", path->dentry);
		if (path_equal(path, &before))
			return 0;
		nd->state |= NS_JUMPED;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Symlinks                                                            */

static int reserve_stack(struct nameidata *nd)
{
	struct ns_saved *p;

	if (nd->depth < NS_EMBEDDED_LEVELS || nd->stack != nd->internal)
		return 0;
	p = kmalloc_array(NS_MAXSYMLINKS, sizeof(*p),
			  nd->mode == NS_MODE_RCU ? GFP_ATOMIC : GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	memcpy(p, nd->internal, sizeof(nd->internal));
	nd->stack = p;
	return 0;
}

/*
 * may_follow_link: fs.protected_symlinks, for the trailing link only.
 * Following is refused (EACCES, root included) when the sysctl is on,
 * the follower's fsuid does not own the link, the directory holding it
 * is sticky and world-writable, and that directory's owner does not own
 * the link either.
 */
#define NS_STICKY_WORLD_WRITABLE 01002	/* S_ISVTX | S_IWOTH */

static int may_follow_link(struct nameidata *nd, const struct path *link,
			   struct inode *inode)
{
	int protect = ns_vfs_protected_symlinks(nd->mode != NS_MODE_RCU);
	vfsuid_t owner;

	if (protect == -ECHILD)
		return -ECHILD;		/* RCU mode: ask again in REF mode */
	if (protect <= 0)
		return 0;
	ns_witness_relied(nd, link->dentry);
	owner = i_uid_into_vfsuid(ns_compat_idmap(link->mnt), inode);
	if (vfsuid_eq_kuid(owner, current_fsuid()))
		return 0;
	if ((nd->dir_mode & NS_STICKY_WORLD_WRITABLE) != NS_STICKY_WORLD_WRITABLE)
		return 0;
	if (vfsuid_valid(nd->dir_vfsuid) && vfsuid_eq(nd->dir_vfsuid, owner))
		return 0;
	return -EACCES;
}

/*
 * A magic link is never asked for its body: the kernel follows that one
 * link (it jumps, through nd_jump_link(), in a walk of its own), and
 * this walk goes on from where it landed, as after any jump.  The
 * name is the link dentry's own: the body it was read from may already
 * have been dropped.
 */
static const char *pick_magic_link(struct nameidata *nd, struct path *link)
{
	struct name_snapshot name;
	struct path res;
	int err;

	take_dentry_name_snapshot(&name, link->dentry);
	err = ns_vfs_magic_jump(&nd->path, &name.name, &res);
	release_dentry_name_snapshot(&name);
	path_put(link);
	nd->step.magic = true;
	if (err)
		return ERR_PTR(err);
	path_to_nameidata(nd, &res);
	nd->state |= NS_JUMPED;
	return NULL;
}

/* Walk on into a link body: an absolute one jumps to the root first. */
static const char *ns_link_body(struct nameidata *nd, const char *res)
{
	int err;

	ns_step_link(nd, res);
	if (*res == '/') {
		err = nd_jump_root(nd);
		if (err)
			return ERR_PTR(err);
		nd->step.jump_root = true;
		while (*res == '/')
			res++;
	}
	if (*res)
		return res;
	put_link(nd);
	return NULL;
}

/*
 * security_inode_follow_link, which pick_link asks before it reads a
 * link's body.  Where the module cannot call it (`features`: lsm
 * follow_link=unchecked) the walk goes on without it and the step says
 * so (lsm=unchecked); a kernel without it (`absent`: no LSMs) has
 * nothing to ask.  In RCU mode an LSM may answer -ECHILD.
 */
static int may_follow_link_lsm(struct nameidata *nd, struct dentry *dentry,
			       struct inode *inode)
{
	if (!ns_vfs_lsm_follow_link_callable()) {
		nd->step.lsm_unchecked = !ns_vfs_lsm_follow_link_absent();
		return 0;
	}
	return ns_vfs_lsm_follow_link(dentry, inode, nd->mode == NS_MODE_RCU);
}

/*
 * The body ->get_link gave, or none: NULL is a pure jump, made by the
 * filesystem itself (nd_jump_link, magic links' way) -- the link is
 * done with and the walk goes on from wherever that left it.
 */
static const char *ns_link_got(struct nameidata *nd, const char *res)
{
	if (IS_ERR(res))
		return res;
	if (!res) {
		put_link(nd);
		return NULL;
	}
	return ns_link_body(nd, res);
}

/*
 * pick_link in RCU mode.  It stays in RCU mode for what can be done
 * without blocking or references: a body the filesystem keeps inline
 * (i_link) or gives without a dentry (->get_link(NULL, ...)), no atime
 * to update, room on the stack.  Returns NULL when it handled the link
 * (*@res set), or why REF mode must take over: the caller unlazies and
 * pick_link() starts over, so nothing is changed before that is known.
 */
static const char *pick_link_rcu(struct nameidata *nd, const struct path *found,
				 struct inode *inode, int flags,
				 const char **res)
{
	struct path link = *found;
	DEFINE_DELAYED_CALL(done);
	struct ns_saved *last;
	const char *body;
	int err;

	if (nd->total_link_count >= NS_MAXSYMLINKS) {
		nd->total_link_count++;
		*res = ERR_PTR(-ELOOP);
		return NULL;
	}
	if (ns_vfs_is_magic_link(inode))
		return "magic";
	/* in RCU mode only @inode, read before d_seq was checked, is trusted */
	if ((flags & WALK_TRAILING) && may_follow_link(nd, &link, inode))
		return "protected";
	if (ns_vfs_nosymfollow(link.mnt) && !nd->semantics_42)
		return "nosymfollow";
	if (ns_vfs_atime_needs_update(link.mnt, inode))
		return "atime";
	err = may_follow_link_lsm(nd, link.dentry, inode);
	if (err == -ECHILD)
		return "lsm";
	if (!err && reserve_stack(nd))
		return "alloc";
	body = err ? ERR_PTR(err) : READ_ONCE(inode->i_link);
	if (!body) {
		body = inode->i_op->get_link(NULL, inode, &done);
		if (body == ERR_PTR(-ECHILD))
			return "link";
	}
	nd->total_link_count++;
	if (ns_vfs_nosymfollow(link.mnt))
		nd->divergence = "nosymfollow";
	if (IS_ERR(body)) {
		*res = body;
		return NULL;
	}
	last = nd->stack + nd->depth++;
	last->link = link;
	last->seq = nd->next_seq;
	last->name = NULL;
	last->done = done;
	*res = ns_link_got(nd, body);
	return NULL;
}

/*
 * __follow_mount_rcu: cross, without references, the mounts stacked on
 * @path's dentry, each root's d_seq sampled into nd->next_seq before its
 * inode is read.  False when REF mode must do it: a dentry the
 * filesystem manages (d_manage) or an automount point, a root whose d_seq
 * moved, or mount_lock moved since the walk began: -1.  Otherwise the
 * number of mounts crossed.  Only in "full" RCU mode; "within-mount"
 * always says -1.
 */
static int follow_mount_rcu(struct nameidata *nd, struct path *path,
			    struct inode **inode)
{
	struct vfsmount *mounted;
	unsigned int dflags;
	int crossed = 0;

	if (!nd->rcu_mounts)
		return -1;
	for (;;) {
		dflags = READ_ONCE(path->dentry->d_flags);
		if (dflags & (DCACHE_MANAGE_TRANSIT | DCACHE_NEED_AUTOMOUNT))
			return -1;
		if (!(dflags & DCACHE_MOUNTED))
			break;
		mounted = ns_vfs_lookup_mnt_rcu(path->mnt, path->dentry);
		if (!mounted)
			break;		/* mounted in another namespace */
		path->mnt = mounted;
		path->dentry = READ_ONCE(mounted->mnt_root);
		nd->next_seq = ns_vfs_seq_begin_dentry(path->dentry);
		*inode = READ_ONCE(path->dentry->d_inode);
		crossed++;
		ns_trace_mount(nd, "down", path->dentry);
	}
	if (ns_vfs_mount_seq_retry(nd->m_seq) ||
	    ns_vfs_seq_retry_dentry(path->dentry, nd->next_seq))
		return -1;
	return crossed;
}

/*
 * step_into in RCU mode: trust nothing about the dentry found until its
 * d_seq has been checked; cross mounts in RCU mode where it can
 * ("full"), else unlazy there; a negative one is ENOENT.  Returns false
 * when the walk has left RCU mode and holds @dentry, for REF mode's
 * step_into to go on from @dentry, whatever was crossed.
 */
static bool step_into_rcu(struct nameidata *nd, int flags,
			  struct dentry *dentry, const char **res)
{
	struct path path = { .mnt = nd->path.mnt, .dentry = dentry };
	struct inode *inode = READ_ONCE(dentry->d_inode);
	unsigned int seq = nd->next_seq;
	const char *why = NULL;
	int crossed = 0;

	if (ns_vfs_seq_retry_dentry(dentry, seq) ||
	    ns_injected(nd, NS_INJECT_DSEQ, nd->steps)) {
		*res = ns_restart(nd, "dseq");
		return true;
	}
	ns_witness(nd, nd->path.mnt, dentry, seq);
	if (ns_vfs_is_managed(dentry)) {
		crossed = follow_mount_rcu(nd, &path, &inode);
		if (crossed < 0)
			why = "mount";
		if (crossed > 0) {
			ns_witness_crossed(nd, nd->path.mnt, dentry, path.mnt);
			ns_witness(nd, path.mnt, path.dentry, nd->next_seq);
		}
	}
	if (crossed > 0) {
		nd->state |= NS_JUMPED;
		nd->step.mounts_down += crossed;
	}
	if (!why && !inode) {
		*res = ERR_PTR(-ENOENT);
		return true;
	}
	if (!why && (!d_is_symlink(path.dentry) || (flags & WALK_NOFOLLOW) ||
		     ((flags & WALK_TRAILING) && !(nd->flags & LOOKUP_FOLLOW)))) {
		nd->path = path;
		nd->inode = inode;
		nd->seq = nd->next_seq;
		*res = NULL;
		return true;
	}
	if (!why) {
		why = pick_link_rcu(nd, &path, inode, flags, res);
		if (!why)
			return true;
		nd->step.mounts_down -= crossed;	/* counted again in REF mode */
	}
	/* REF mode crosses the mounts again, from @dentry */
	nd->next_seq = seq;
	if (!try_to_unlazy_next(nd, dentry, why)) {
		*res = ERR_PTR(-ECHILD);
		return true;
	}
	return false;
}

/*
 * pick_link: count the link, apply the trailing-link and mount rules,
 * push it onto the stack and return its body for link_path_walk to walk
 * next; NULL when the body was a pure jump (only slashes, or empty: the
 * walk stays where it is) or the link was magic.
 */
static const char *pick_link(struct nameidata *nd, struct path *link,
			     int flags)
{
	struct inode *inode = d_inode(link->dentry);
	struct ns_saved *last;
	const char *res;
	int err;

	if (nd->total_link_count++ >= NS_MAXSYMLINKS) {
		err = -ELOOP;
		goto refuse;
	}
	if (flags & WALK_TRAILING) {
		err = may_follow_link(nd, link, inode);
		if (err)
			goto refuse;
	}
	if (ns_vfs_nosymfollow(link->mnt)) {
		/* 4.2 had no nosymfollow: it follows */
		nd->divergence = "nosymfollow";
		if (!nd->semantics_42) {
			err = -ELOOP;
			goto refuse;
		}
	}
	if (ns_vfs_is_magic_link(inode))
		return pick_magic_link(nd, link);
	err = reserve_stack(nd);
	if (err)
		goto refuse;
	last = nd->stack + nd->depth++;
	last->link = *link;
	clear_delayed_call(&last->done);
	last->name = NULL;
	touch_atime(&last->link);
	err = may_follow_link_lsm(nd, link->dentry, inode);
	if (err)
		return ERR_PTR(err);

	res = READ_ONCE(inode->i_link);
	if (!res)
		res = inode->i_op->get_link(link->dentry, inode, &last->done);
	return ns_link_got(nd, res);

refuse:
	path_put(link);
	return ERR_PTR(err);
}

/* ------------------------------------------------------------------ */
/* One component                                                       */

/*
 * unlink_may_reveal, as 7.2 has it: REF mode does not step onto a name
 * on its way out (unlinked, marked cant_mount) -- the mounts on it are
 * going away and would uncover what lies under them; RCU mode sees the
 * same change in d_seq.  -ESTALE takes the walk round again with
 * LOOKUP_REVAL, where the name is looked up afresh.  Not for ".." or
 * LOOKUP_DOWN (WALK_NOFOLLOW: they may land on an unhashed directory),
 * nor onto a mount crossed from the name while it still existed.  4.2
 * steps onto it.
 */
static bool unlink_may_reveal(struct nameidata *nd, int flags,
			      const struct path *path)
{
	if (flags & WALK_NOFOLLOW)
		return false;
	if (nd->flags & LOOKUP_REVAL)
		return false;
	if (path->mnt != nd->path.mnt)
		return false;
	if (!ns_vfs_name_is_going(path->dentry))
		return false;
	if (!ns_vfs_refwalk_refuses_going_names())
		return false;
	nd->divergence = "unlink-may-reveal";
	return !nd->semantics_42;
}

/*
 * step_into: cross mounts on the dentry found, refuse a negative one,
 * and either move there or, for a link that is to be followed, push it.
 * Consumes the reference on @dentry.
 */
static const char *step_into(struct nameidata *nd, int flags,
			     struct dentry *dentry)
{
	struct path path;
	const char *res;
	int err;

	if (nd->mode == NS_MODE_RCU && step_into_rcu(nd, flags, dentry, &res))
		return res;
	path.mnt = mntget(nd->path.mnt);
	path.dentry = dentry;
	ns_witness_found(nd, &path);
	err = follow_managed(nd, &path);
	if (!err && path.dentry != dentry) {
		ns_witness_crossed(nd, nd->path.mnt, dentry, path.mnt);
		ns_witness_ref(nd, &path);
	}
	if (!err && d_is_negative(path.dentry))
		err = -ENOENT;
	if (err) {
		path_put(&path);
		return ERR_PTR(err);
	}
	if (likely(!d_is_symlink(path.dentry)) || (flags & WALK_NOFOLLOW) ||
	    ((flags & WALK_TRAILING) && !(nd->flags & LOOKUP_FOLLOW))) {
		if (unlikely(unlink_may_reveal(nd, flags, &path))) {
			path_put(&path);
			return ERR_PTR(-ESTALE);
		}
		path_to_nameidata(nd, &path);
		return NULL;
	}
	return pick_link(nd, &path, flags);
}

/*
 * lookup_fast: the dcache only, asking the filesystem to revalidate a
 * hit where it wants that (DCACHE_OP_REVALIDATE).  NULL means "not
 * known here": ask the filesystem.
 */
/*
 * lookup_fast in RCU mode: the hash table without references; then the
 * parent's d_seq must not have moved (or the child may not be its), and
 * a filesystem that revalidates is asked with LOOKUP_RCU.  A miss, or a
 * revalidation that cannot be answered without blocking, unlazies.
 */
static struct dentry *lookup_fast_rcu(struct nameidata *nd, int *status)
{
	struct dentry *parent = nd->path.dentry, *dentry = NULL;
	bool retried = false;
	unsigned int seq;

	if (!ns_injected(nd, NS_INJECT_MISS, nd->steps))
		dentry = ns_vfs_lookup_rcu(parent, &nd->last, &seq, &retried);
	nd->step.seq_retry = retried;
	if (!dentry) {
		if (!try_to_unlazy(nd, "miss"))
			return ERR_PTR(-ECHILD);
		return NULL;
	}
	if (ns_vfs_seq_retry_dentry(parent, nd->seq))
		return ERR_CAST(ns_restart(nd, "dseq"));
	nd->next_seq = seq;
	nd->step.how = "dcache";
	*status = 1;
	if (!(dentry->d_flags & DCACHE_OP_REVALIDATE))
		return dentry;
	*status = ns_vfs_revalidate(nd->inode, &nd->last, dentry, nd->flags);
	if (*status > 0) {
		nd->step.how = "revalidated";
		return dentry;
	}
	if (!try_to_unlazy_next(nd, dentry, "revalidate"))
		return ERR_PTR(-ECHILD);
	if (*status == -ECHILD)
		*status = ns_vfs_revalidate(nd->inode, &nd->last, dentry, nd->flags);
	return dentry;
}

static struct dentry *lookup_fast(struct nameidata *nd)
{
	struct dentry *dentry;
	int status;

	if (nd->mode == NS_MODE_RCU) {
		dentry = lookup_fast_rcu(nd, &status);
		if (IS_ERR_OR_NULL(dentry) || nd->mode == NS_MODE_RCU)
			return dentry;
		/* unlazied: the dentry is held now, and status is REF mode's */
		if (status > 0)
			return dentry;
		goto invalid;
	}
	dentry = ns_vfs_lookup_cached(nd->path.dentry, &nd->last);
	if (!dentry)
		return NULL;
	nd->step.how = "dcache";
	if (!(dentry->d_flags & DCACHE_OP_REVALIDATE))
		return dentry;
	status = ns_vfs_revalidate(nd->inode, &nd->last, dentry, nd->flags);
	if (status > 0) {
		nd->step.how = "revalidated";
		return dentry;
	}
invalid:
	if (!status)
		ns_vfs_invalidate(dentry);
	dput(dentry);
	nd->step.how = "invalidated";
	return status ? ERR_PTR(status) : NULL;
}

static struct dentry *lookup_slow(struct nameidata *nd)
{
	nd->step.how = "slow";
	return ns_vfs_lookup_slow(nd->path.dentry, &nd->last, nd->flags, true);
}

/*
 * follow_dotdot, as 4.2 does it: stay at the walk's root; at the root
 * of a mount, climb to its mountpoint with follow_up() (and again, for
 * mounts on mount roots); then take the parent, which must still be
 * inside the mount (a bind mount escaped by rename gives ENOENT).
 */
static struct dentry *follow_dotdot(struct nameidata *nd)
{
	struct dentry *parent;

	for (;;) {
#ifndef NS_TEST_BREAK_DOTDOT
		if (path_equal(&nd->path, &nd->root)) {
			nd->step.how = "dotdot-root";
			return dget(nd->path.dentry);
		}
#endif
		if (nd->path.dentry != nd->path.mnt->mnt_root)
			break;
		if (!ns_vfs_mount_up(&nd->path)) {
			nd->step.how = "dotdot-nsroot";
			return dget(nd->path.dentry);
		}
		nd->step.mounts_up++;
		ns_trace_mount(nd, "up", nd->path.dentry);
		nd->inode = d_inode(nd->path.dentry);
	}
	parent = dget_parent(nd->path.dentry);
	if (unlikely(!ns_vfs_connected(nd->path.mnt, parent))) {
		dput(parent);
		return ERR_PTR(-ENOENT);
	}
	return parent;
}

/*
 * follow_dotdot in RCU mode: the parent by d_parent, its d_seq sampled
 * before the child's is checked again.  At a mount's root the walk
 * unlazies (NULL: REF mode goes on); a parent outside the mount (an
 * escaped bind mount) or a moved child restarts the walk.
 */
static struct dentry *follow_dotdot_rcu(struct nameidata *nd)
{
	struct dentry *old = nd->path.dentry, *parent;

#ifndef NS_TEST_BREAK_DOTDOT
	if (path_equal(&nd->path, &nd->root)) {
		nd->step.how = "dotdot-root";
		nd->next_seq = nd->seq;
		return old;
	}
#endif
	if (old == nd->path.mnt->mnt_root) {
		/* choosing the mountpoint needs struct mount: REF mode does */
		if (!try_to_unlazy(nd, "mount-up"))
			return ERR_PTR(-ECHILD);
		return NULL;
	}
	parent = READ_ONCE(old->d_parent);
	nd->next_seq = ns_vfs_seq_begin_dentry(parent);
	/* the parent's d_seq is read before the child's is checked again */
	smp_rmb();
	if (ns_vfs_seq_retry_dentry(old, nd->seq))
		return ERR_CAST(ns_restart(nd, "dseq"));
	if (unlikely(!ns_vfs_connected(nd->path.mnt, parent)))
		return ERR_CAST(ns_restart(nd, "disconnected"));
	return parent;
}

static const char *handle_dots(struct nameidata *nd, int type)
{
	struct dentry *parent;

	if (type != NS_LAST_DOTDOT) {
		nd->step.how = "dot";
		return NULL;
	}
	nd->step.how = "dotdot";
	if (!nd->root.mnt)
		set_root(nd);
	if (nd->mode == NS_MODE_RCU) {
		parent = follow_dotdot_rcu(nd);
		if (IS_ERR(parent))
			return ERR_CAST(parent);
		if (parent)
			return step_into(nd, WALK_NOFOLLOW, parent);
	}
	parent = follow_dotdot(nd);
	if (IS_ERR(parent))
		return ERR_CAST(parent);
	return step_into(nd, WALK_NOFOLLOW, parent);
}

/*
 * walk_component: one step.  "." and ".." go to handle_dots(); a name
 * is looked up in the dcache, then by the filesystem, and stepped into.
 * A link whose body ends here is dropped once its last name is found.
 */
static const char *walk_component(struct nameidata *nd, int flags)
{
	struct dentry *dentry;
	const char *res;

	if (nd->last_type == NS_LAST_ROOT)
		return NULL;	/* no component: the walk ends where it is */
	ns_step_begin(nd);
	if (nd->mode != NS_MODE_REVAL && ns_injected(nd, NS_INJECT_ESTALE, nd->steps)) {
		res = ERR_PTR(-ESTALE);
		goto out;
	}
	if (nd->last_type != NS_LAST_NORM) {
		if (!(flags & WALK_MORE) && nd->depth)
			put_link(nd);
		res = handle_dots(nd, nd->last_type);
		goto out;
	}
	dentry = lookup_fast(nd);
	if (!dentry)
		dentry = lookup_slow(nd);
	if (IS_ERR(dentry)) {
		res = ERR_CAST(dentry);
		goto out;
	}
	if (!(flags & WALK_MORE) && nd->depth)
		put_link(nd);
	res = step_into(nd, flags, dentry);
out:
	ns_step_end(nd, IS_ERR(res) ? PTR_ERR(res) : 0);
	return res;
}

/* may_lookup: search permission on the directory the walk is in. */
static int may_lookup(struct nameidata *nd)
{
	ns_witness_relied(nd, nd->path.dentry);
	if (nd->mode == NS_MODE_RCU) {
		int err = ns_injected(nd, NS_INJECT_ECHILD_PERMISSION, nd->steps + 1) ?
			-ECHILD : ns_vfs_may_exec_rcu(nd->path.mnt, nd->inode);

		if (!err)
			return 0;
		if (!try_to_unlazy(nd, "permission"))
			return -ECHILD;
		if (err != -ECHILD)
			return err;
	}
	return ns_vfs_may_exec(&nd->path);
}

/*
 * Split off the next component of @name into nd->last, hash it as the
 * dcache does for this parent, and say what kind of component it is.
 * Returns the rest of the name (at the '/' or NUL after it).
 */
static const char *hash_component(struct nameidata *nd, const char *name,
				  int *err)
{
	const char *end = strchrnul(name, '/');

	nd->last.name = name;
	nd->last.len = end - name;
	nd->last_type = NS_LAST_NORM;
	*err = 0;
	if (name[0] == '.' && nd->last.len <= 2 &&
	    (nd->last.len == 1 || name[1] == '.')) {
		nd->last_type = nd->last.len == 1 ? NS_LAST_DOT : NS_LAST_DOTDOT;
		if (nd->last_type == NS_LAST_DOTDOT)
			nd->state |= NS_JUMPED;
		return end;
	}
	nd->state &= ~NS_JUMPED;
	*err = ns_vfs_hash(nd->path.dentry, &nd->last);
	return end;
}

/*
 * link_path_walk: the whole name but its last component, in one loop:
 * check search permission on the current directory, take the next
 * component, and unless it was the last, walk it.  A link found on the
 * way is pushed and its body walked in turn; the end of a body pops
 * back to the rest of the name it interrupted.
 */
static int link_path_walk(const char *name, struct nameidata *nd)
{
	int depth = 0;	/* links pushed by this call; <= nd->depth */
	int err;

	nd->last_type = NS_LAST_ROOT;
	nd->flags |= LOOKUP_PARENT;
	while (*name == '/')
		name++;
	if (!*name) {
		nd->dir_mode = 0;
		nd->flags &= ~LOOKUP_PARENT;
		return 0;
	}

	for (;;) {
		const char *link;

		err = may_lookup(nd);
		if (err)
			return err;
		name = hash_component(nd, name, &err);
		if (err)
			return err;

		while (*name == '/')
			name++;
		if (!*name) {
			/* the end of the name, or of a link's body */
			if (!depth) {
				nd->dir_vfsuid = i_uid_into_vfsuid(ns_compat_idmap(nd->path.mnt),
								   nd->inode);
				nd->dir_mode = nd->inode->i_mode;
				nd->flags &= ~LOOKUP_PARENT;
				return 0;
			}
			name = nd->stack[--depth].name;
			link = walk_component(nd, 0);
		} else {
			link = walk_component(nd, WALK_MORE);
		}
		if (unlikely(link)) {
			if (IS_ERR(link))
				return PTR_ERR(link);
			/*
			 * The rest of the name waits in the stack slot of
			 * this call's depth, not of the link: a trailing
			 * link being walked sits below, and needs none.
			 */
			nd->stack[depth++].name = name;
			name = link;
			continue;
		}
		if (unlikely(!d_can_lookup(nd->path.dentry))) {
			if (nd->mode == NS_MODE_RCU && !try_to_unlazy(nd, "enotdir"))
				return -ECHILD;
			return -ENOTDIR;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Start and end of a walk                                             */

static int path_init(struct nameidata *nd, unsigned int flags)
{
	const char *s = nd->name, *at;
	struct path start;

	nd->last_type = NS_LAST_ROOT;	/* no component yet */
	nd->state = NS_JUMPED;
	nd->depth = 0;
	nd->total_link_count = 0;
	nd->stack = nd->internal;
	nd->root.mnt = NULL;
	nd->root.dentry = NULL;
	nd->rcu_completed = false;
	nd->unlazy_reason = NULL;
	/* RCU mode only once rcu_read_lock() is taken, below */
	nd->mode = nd->attempt == NS_MODE_REVAL ? NS_MODE_REVAL : NS_MODE_REF;
	/* the filesystem is told the mode: ->d_revalidate sees these flags */
	if (nd->attempt == NS_MODE_RCU)
		flags |= LOOKUP_RCU;
	else if (nd->attempt == NS_MODE_REVAL)
		flags |= LOOKUP_REVAL;
	nd->flags = flags;

	if (*s == '/') {
		set_root(nd);
		start = nd->root;
		path_get(&start);
		at = "root";
	} else {
		/* the request pinned its start (cwd or at= file) as the pwd */
		ns_vfs_get_pwd(&start);
		at = nd->at_fd ? "fd" : "cwd";
		if (nd->at_fd && *s && !d_can_lookup(start.dentry)) {
			path_put(&start);
			return -ENOTDIR;
		}
	}
	if (!(flags & LOOKUP_RCU) || !*s) {
		nd->flags &= ~LOOKUP_RCU;
		nd->path = start;
	} else {
		/*
		 * RCU mode pins its start and its root with real references
		 * first: legitimizing them is then a dentry matter only, and
		 * the only mounts to legitimize are those crossed in RCU mode.
		 */
		if (!nd->root.mnt)
			set_root(nd);
		nd->pinned = start;
		nd->root_seq = ns_vfs_seq_begin_dentry(nd->root.dentry);
		nd->m_seq = ns_vfs_mount_seq_begin();
		enter_rcu(nd);
		nd->path = start;
		nd->seq = ns_vfs_seq_begin_dentry(start.dentry);
	}
	nd->inode = d_inode(nd->path.dentry);
	ns_witness_here(nd);
	ns_step_note(nd, "start", at);
	return 0;
}

/* complete_walk: after a jump, ask the filesystem whether the end is still good. */
static int complete_walk(struct nameidata *nd)
{
	int status;

	if (nd->mode == NS_MODE_RCU) {
		if (!try_to_unlazy(nd, NULL))
			return -ECHILD;
		nd->rcu_completed = true;
	}
	if (!(nd->state & NS_JUMPED))
		return 0;
	status = ns_vfs_weak_revalidate(nd->path.dentry, nd->flags);
	if (status > 0)
		return 0;
	return status ? status : -ESTALE;
}

/* lookup_last: the final component of path_lookupat. */
static const char *lookup_last(struct nameidata *nd)
{
	if (nd->last_type == NS_LAST_NORM && nd->last.name[nd->last.len])
		nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	return walk_component(nd, WALK_TRAILING);
}

/*
 * handle_lookup_down: cross the mounts on where the walk stands, as a
 * step onto it.  LOOKUP_MOUNTPOINT's end: umount(2) and friends want
 * the top of the stack of mounts at the name.
 */
static int handle_lookup_down(struct nameidata *nd)
{
	const char *res;

	ns_step_begin(nd);
	nd->step.how = "mounts";
	if (nd->mode != NS_MODE_RCU)
		dget(nd->path.dentry);
	nd->next_seq = nd->seq;
	res = step_into(nd, WALK_NOFOLLOW, nd->path.dentry);
	ns_step_end(nd, PTR_ERR_OR_ZERO(res));
	return PTR_ERR_OR_ZERO(res);
}

/*
 * path_lookupat: the walk, its last component, and the checks at its
 * end.  LOOKUP_MOUNTPOINT walks this way too in the running kernels
 * (4.2 had path_mountpoint of its own).
 */
static int path_lookupat(struct nameidata *nd, unsigned int flags,
			 struct path *path)
{
	const char *s;
	int err;

	err = path_init(nd, flags);
	s = nd->name;
	while (!err && !(err = link_path_walk(s, nd))) {
		s = lookup_last(nd);
		if (!s)
			break;
		if (IS_ERR(s))
			err = PTR_ERR(s);
	}
	if (!err && (nd->flags & LOOKUP_MOUNTPOINT)) {
		err = handle_lookup_down(nd);
		nd->state &= ~NS_JUMPED;	/* no weak revalidation: umount */
	}
	if (!err)
		err = complete_walk(nd);
	if (!err && (nd->flags & LOOKUP_DIRECTORY) &&
	    !d_can_lookup(nd->path.dentry))
		err = -ENOTDIR;
	if (!err) {
		*path = nd->path;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
	terminate_walk(nd);
	return err;
}

/* The parent, with the last component and its type. */
struct ns_parent {
	struct path *path;
	char **last;
	int *type;
};

static int path_parentat(struct nameidata *nd, unsigned int flags,
			 struct ns_parent *parent)
{
	int err;

	err = path_init(nd, flags);
	if (!err)
		err = link_path_walk(nd->name, nd);
	if (!err)
		err = complete_walk(nd);
	if (!err) {
		*parent->last = nd->last_type == NS_LAST_ROOT ?
			kstrdup("", GFP_KERNEL) :
			kmemdup_nul(nd->last.name, nd->last.len, GFP_KERNEL);
		if (!*parent->last)
			err = -ENOMEM;
	}
	if (!err) {
		*parent->type = nd->last_type;
		*parent->path = nd->path;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
	terminate_walk(nd);
	return err;
}

/*
 * mountpoint_last, as 4.2: the final component without revalidation
 * (umount must work on a dead server), then to the top of its mounts.
 * Since 5.7 the kernel walks LOOKUP_MOUNTPOINT as path_lookupat, with
 * its trailing-slash, directory and revalidation rules: this is
 * semantics=4.2's, and always a divergence.
 */
static const char *mountpoint_last(struct nameidata *nd)
{
	struct dentry *dentry;
	const char *res;
	struct path path;

	nd->flags &= ~LOOKUP_PARENT;
	/* 4.2 leaves RCU mode at once here */
	if (nd->mode == NS_MODE_RCU && !try_to_unlazy(nd, "mountpoint"))
		return ERR_PTR(-ECHILD);
	if (nd->last_type == NS_LAST_ROOT)
		return NULL;
	ns_step_begin(nd);
	if (nd->last_type != NS_LAST_NORM) {
		if (nd->depth)
			put_link(nd);
		res = handle_dots(nd, nd->last_type);
		goto out;
	}
	nd->step.how = "dcache";
	dentry = ns_vfs_lookup_cached(nd->path.dentry, &nd->last);
	if (!dentry) {
		nd->step.how = "slow";
		dentry = ns_vfs_lookup_slow(nd->path.dentry, &nd->last,
					    nd->flags, false);
	}
	if (IS_ERR(dentry)) {
		res = ERR_CAST(dentry);
		goto out;
	}
	if (nd->depth)
		put_link(nd);
	if (d_is_negative(dentry)) {
		dput(dentry);
		res = ERR_PTR(-ENOENT);
		goto out;
	}
	path.mnt = mntget(nd->path.mnt);
	path.dentry = dentry;
	if (d_is_symlink(dentry) && (nd->flags & LOOKUP_FOLLOW)) {
		res = pick_link(nd, &path, WALK_TRAILING);
		goto out;
	}
	while (ns_vfs_mount_down(&path)) {
		nd->step.mounts_down++;
		ns_trace_mount(nd, "down", path.dentry);
	}
	path_to_nameidata(nd, &path);
	res = NULL;
out:
	ns_step_end(nd, IS_ERR(res) ? PTR_ERR(res) : 0);
	return res;
}

static int path_mountpoint(struct nameidata *nd, unsigned int flags,
			   struct path *path)
{
	const char *s;
	int err;

	nd->divergence = "path-mountpoint";
	err = path_init(nd, flags);
	s = nd->name;
	while (!err && !(err = link_path_walk(s, nd))) {
		s = mountpoint_last(nd);
		if (!s)
			break;
		if (IS_ERR(s))
			err = PTR_ERR(s);
	}
	if (!err) {
		*path = nd->path;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
		while (ns_vfs_mount_down(path))
			;
	}
	terminate_walk(nd);
	return err;
}

/* ------------------------------------------------------------------ */
/* The open handler: do_last's decisions, as a dry run                 */

/* What open(2) would do. */
struct ns_open {
	unsigned int open_flag;		/* O_*, as build_open_flags leaves them */
	int acc_mode;			/* MAY_* */
	unsigned int intent;		/* LOOKUP_OPEN, _CREATE, _EXCL */
	bool create;			/* would create nd->last in nd->path */
	bool reached;			/* the walk reached its object */
	char *last;			/* the name it would create */
};

/*
 * build_open_flags, for open(2): O_PATH keeps only O_DIRECTORY and
 * O_NOFOLLOW; O_CREAT|O_DIRECTORY is EINVAL where the running kernel
 * says so (6.4, and stable kernels it went back to; 4.2 took it);
 * O_TRUNC needs write permission; O_CREAT|O_EXCL never follows a
 * trailing link.  Returns the lookup flags.
 */
static int build_open_flags(struct nameidata *nd, unsigned int open_flag,
			    struct ns_open *op, unsigned int *lookup_flags)
{
	if (open_flag & O_PATH)
		open_flag &= O_DIRECTORY | O_NOFOLLOW | O_PATH;
	if ((open_flag & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT) &&
	    ns_vfs_open_refuses_creat_directory()) {
		nd->divergence = "open-creat-directory";
		if (!nd->semantics_42)
			return -EINVAL;
	}
	op->acc_mode = (open_flag & O_PATH) ? 0 :
		(open_flag & O_ACCMODE) == O_RDONLY ? MAY_READ :
		(open_flag & O_ACCMODE) == O_WRONLY ? MAY_WRITE :
		MAY_READ | MAY_WRITE;
	if (open_flag & O_TRUNC)
		op->acc_mode |= MAY_WRITE;
	op->intent = (open_flag & O_PATH) ? 0 : LOOKUP_OPEN;
	if (open_flag & O_CREAT) {
		op->intent |= LOOKUP_CREATE;
		if (open_flag & O_EXCL) {
			op->intent |= LOOKUP_EXCL;
			open_flag |= O_NOFOLLOW;
		}
	}
	op->open_flag = open_flag;
	*lookup_flags = 0;
	if (open_flag & O_DIRECTORY)
		*lookup_flags |= LOOKUP_DIRECTORY;
	if (!(open_flag & O_NOFOLLOW))
		*lookup_flags |= LOOKUP_FOLLOW;
	return 0;
}

/*
 * The last component with O_CREAT: a trailing slash is EISDIR before
 * anything is looked up; a negative dentry means "create it here", if
 * the mount is writable and the writer may write and search the
 * directory (may_o_create); a positive one is stepped into, following
 * a trailing link unless O_NOFOLLOW.
 */
static const char *open_create_last(struct nameidata *nd, struct ns_open *op)
{
	struct dentry *dentry;
	const char *res;
	int err;

	ns_step_begin(nd);
	if (nd->last.name[nd->last.len]) {
		res = ERR_PTR(-EISDIR);
		goto out;
	}
	dentry = lookup_fast(nd);
	if (!dentry)
		dentry = lookup_slow(nd);
	if (IS_ERR(dentry)) {
		res = ERR_CAST(dentry);
		goto out;
	}
	if (nd->depth)
		put_link(nd);
	if (d_is_positive(dentry)) {
		res = step_into(nd, WALK_TRAILING, dentry);
		goto out;
	}
	dput(dentry);
	err = ns_vfs_may_create(&nd->path);
	if (err) {
		res = ERR_PTR(err);
		goto out;
	}
	op->create = true;
	nd->step.how = "would-create";
	res = NULL;
out:
	ns_step_end(nd, IS_ERR(res) ? PTR_ERR(res) : 0);
	return res;
}

/* The last component of an open: found, or created where it may be. */
static const char *open_last_component(struct nameidata *nd, struct ns_open *op)
{
	if (nd->last_type != NS_LAST_NORM || !(op->open_flag & O_CREAT)) {
		if (nd->last_type == NS_LAST_NORM && nd->last.name[nd->last.len])
			nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
		return walk_component(nd, WALK_TRAILING);
	}
	/* creating takes the directory's lock: REF mode */
	if (nd->mode == NS_MODE_RCU && !try_to_unlazy(nd, "create"))
		return ERR_PTR(-ECHILD);
	kfree(op->last);
	op->last = kmemdup_nul(nd->last.name, nd->last.len, GFP_KERNEL);
	if (!op->last)
		return ERR_PTR(-ENOMEM);
	return open_create_last(nd, op);
}

/*
 * open_last_lookups, dry: the last component with the open's intent.
 * A trailing link's body is walked without it -- the filesystem is not
 * told "open" or "create" of the body's directories -- and gets it back
 * at the body's own last component.
 */
static const char *open_last_lookups(struct nameidata *nd, struct ns_open *op)
{
	const char *res;

	nd->flags |= op->intent;
	res = open_last_component(nd, op);
	if (res)
		nd->flags &= ~(LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_EXCL);
	return res;
}

/*
 * may_open: what opening the object found asks of it -- never a link
 * (ELOOP), no writing to a directory (EISDIR), devices only where the
 * mount allows them, the inode's own permission, append-only files.
 */
static int may_open(struct nameidata *nd, int acc_mode, unsigned int flag)
{
	struct inode *inode = d_inode(nd->path.dentry);
	int err;

	ns_witness_relied(nd, nd->path.dentry);
	switch (inode->i_mode & S_IFMT) {
	case S_IFLNK:
		return -ELOOP;
	case S_IFDIR:
		if (acc_mode & MAY_WRITE)
			return -EISDIR;
		break;
	case S_IFBLK:
	case S_IFCHR:
		if (!ns_vfs_may_open_dev(&nd->path))
			return -EACCES;
		break;
	}
	err = ns_vfs_permission(&nd->path, MAY_OPEN | acc_mode);
	if (err)
		return err;
	if (IS_APPEND(inode)) {
		if ((flag & O_ACCMODE) != O_RDONLY && !(flag & O_APPEND))
			return -EPERM;
		if (flag & O_TRUNC)
			return -EPERM;
	}
	return 0;
}

/* do_open, dry: the checks open(2) makes once the object is known. */
static int do_open(struct nameidata *nd, struct ns_open *op)
{
	unsigned int flag = op->open_flag;
	bool last_not_norm = nd->last_type != NS_LAST_NORM;
	int err, acc_mode = op->acc_mode;

	if (!op->create) {
		err = complete_walk(nd);
		if (err)
			return err;
	}
	if (flag & O_CREAT) {
		if ((flag & O_EXCL) && !op->create) {
			if (last_not_norm && d_is_dir(nd->path.dentry)) {
				/* 4.2's finish_open never checked EXCL here */
				nd->divergence = "open-excl-dot";
				if (nd->semantics_42)
					return -EISDIR;
			}
			return -EEXIST;
		}
		if (!op->create && d_is_dir(nd->path.dentry))
			return -EISDIR;
	}
	if (op->create) {
		/* the new object is a regular file; nothing more is asked */
		op->reached = true;
		if (!(nd->flags & LOOKUP_DIRECTORY))
			return 0;
		/* 6.1 creates, then refuses; 4.2 opens what it created */
		nd->divergence = "open-creat-directory";
		return nd->semantics_42 ? 0 : -ENOTDIR;
	}
	if ((nd->flags & LOOKUP_DIRECTORY) && !d_can_lookup(nd->path.dentry)) {
		if (d_is_symlink(nd->path.dentry) && !(flag & O_PATH)) {
			/* 4.2 refused the link (ELOOP) before LOOKUP_DIRECTORY */
			nd->divergence = "open-directory-nofollow";
			if (nd->semantics_42)
				return -ELOOP;
		}
		return -ENOTDIR;
	}
	/* From here on the object is known: the oracle can be asked for it. */
	op->reached = true;
	if (flag & O_PATH)
		return 0;
	if (d_is_reg(nd->path.dentry) && (flag & O_TRUNC)) {
		err = ns_vfs_may_write_mount(nd->path.mnt);
		if (err)
			return err;
	}
	err = may_open(nd, acc_mode, flag);
	if (err)
		return err;
	return ns_vfs_open_refusal(&nd->path, flag);
}

static int path_openat(struct nameidata *nd, unsigned int open_flag,
		       struct ns_open *op)
{
	unsigned int flags;
	const char *s;
	int err;

	err = build_open_flags(nd, open_flag, op, &flags);
	if (err)
		return err;
	err = path_init(nd, flags);
	s = nd->name;
	if (!err && (op->open_flag & O_PATH)) {
		/* do_o_path: a plain lookup */
		while (!err && !(err = link_path_walk(s, nd))) {
			s = lookup_last(nd);
			if (!s)
				break;
			if (IS_ERR(s))
				err = PTR_ERR(s);
		}
		if (!err)
			err = do_open(nd, op);
		return err;
	}
	while (!err && !(err = link_path_walk(s, nd))) {
		s = open_last_lookups(nd, op);
		if (!s)
			break;
		if (IS_ERR(s))
			err = PTR_ERR(s);
	}
	if (!err)
		err = do_open(nd, op);
	return err;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */

enum ns_req_mode { NS_REQ_LOOKUP, NS_REQ_PARENT, NS_REQ_MOUNTPOINT, NS_REQ_OPEN };

static const char *const ns_req_mode_names[] = {
	[NS_REQ_LOOKUP] = "lookup",
	[NS_REQ_PARENT] = "parent",
	[NS_REQ_MOUNTPOINT] = "mountpoint",
	[NS_REQ_OPEN] = "open",
};

/* Request flags, in the order `request` lists them. */
enum {
	NS_RF_FOLLOW	= 0x01,
	NS_RF_NOFOLLOW	= 0x02,
	NS_RF_DIRECTORY	= 0x04,
	NS_RF_EMPTY	= 0x08,
	NS_RF_REVAL	= 0x10,
	NS_RF_NOCHECK	= 0x20,
	NS_RF_CREAT	= 0x40,		/* mode=open only, from here on */
	NS_RF_EXCL	= 0x80,
	NS_RF_PATH	= 0x100,
	NS_RF_TRUNC	= 0x200,
	NS_RF_WRONLY	= 0x400,
	NS_RF_RDWR	= 0x800,
};

#define NS_RF_OPEN_ONLY	(NS_RF_CREAT | NS_RF_EXCL | NS_RF_PATH | NS_RF_TRUNC | \
			 NS_RF_WRONLY | NS_RF_RDWR)

static const char *const ns_rflag_names[] = {
	"follow", "nofollow", "directory", "empty", "reval", "nocheck",
	"creat", "excl", "path", "trunc", "wronly", "rdwr",
};

struct ns_request {
	enum ns_req_mode mode;
	unsigned int rflags;
	bool flags_given;
	bool has_at;
	int at;
	bool semantics_42;
	bool shadow_first;	/* first=shadow: before the kernel warms the dcache */
	enum ns_inject inject;
	int inject_step;
	const char *path;
};

/* What one side (shadow or oracle) found. */
struct ns_answer {
	int err;
	bool has_path;		/* path holds references */
	struct path path;
	char *last;		/* parent mode, and open's create */
	int last_type;		/* parent mode; -1 when the oracle cannot say */
	const char *oracle;	/* which kernel function answered */
	const char *action;	/* open mode: "open" or "create" */
	const char *divergence;	/* where 4.2 answers otherwise */
	const char *unanswered;	/* why the kernel could not be asked */
};

static void ns_answer_release(struct ns_answer *a)
{
	if (a->has_path)
		path_put(&a->path);
	a->has_path = false;
	a->path.mnt = NULL;
	a->path.dentry = NULL;
	kfree(a->last);
	a->last = NULL;
}

static unsigned int ns_lookup_flags(const struct ns_request *rq)
{
	unsigned int flags = 0;

	if (rq->rflags & NS_RF_FOLLOW)
		flags |= LOOKUP_FOLLOW;
	if (rq->rflags & NS_RF_DIRECTORY)
		flags |= LOOKUP_DIRECTORY;
	if (rq->rflags & NS_RF_EMPTY)
		flags |= LOOKUP_EMPTY;
	if (rq->rflags & NS_RF_REVAL)
		flags |= LOOKUP_REVAL;
	return flags;
}

/* open(2)'s flags, from the request's. */
static unsigned int ns_open_flags(const struct ns_request *rq)
{
	unsigned int f = O_RDONLY;

	if (rq->rflags & NS_RF_WRONLY)
		f = O_WRONLY;
	if (rq->rflags & NS_RF_RDWR)
		f = O_RDWR;
	if (rq->rflags & NS_RF_CREAT)
		f |= O_CREAT;
	if (rq->rflags & NS_RF_EXCL)
		f |= O_EXCL;
	if (rq->rflags & NS_RF_NOFOLLOW)
		f |= O_NOFOLLOW;
	if (rq->rflags & NS_RF_DIRECTORY)
		f |= O_DIRECTORY;
	if (rq->rflags & NS_RF_PATH)
		f |= O_PATH;
	if (rq->rflags & NS_RF_TRUNC)
		f |= O_TRUNC;
	return f;
}

/*
 * The open handler's answer: what it would open (even when opening
 * would then fail, e.g. EISDIR), or the directory and name it would
 * create in, or the errno of the walk.
 */
static int ns_open_dry_run(struct nameidata *nd, const struct ns_request *rq,
			   struct ns_answer *a)
{
	struct ns_open op = {};
	int err;

	err = path_openat(nd, ns_open_flags(rq), &op);
	if ((op.reached || op.create) && nd->path.dentry) {
		a->action = op.create ? "create" : "open";
		a->path = nd->path;
		a->has_path = true;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
		if (op.create) {
			a->last = op.last;
			a->last_type = NS_LAST_NORM;
			op.last = NULL;
		}
	}
	kfree(op.last);
	terminate_walk(nd);
	return err;
}

/* The walk's counts, for the `walk` line. */
struct ns_walk_info {
	enum ns_walk_mode mode;		/* RCU only if it never unlazied */
	int restarts;
	bool reval;			/* retried with LOOKUP_REVAL */
	const char *restart_reason;
	const char *unlazy_reason;
	int unlazy_step;
	int steps;
	int steps_shown;
	int links;
};

/*
 * RCU-walk: whether walks start in RCU mode, whether that crosses mounts,
 * and why (`features`).
 */
enum ns_rcu_mode { NS_RCU_OFF, NS_RCU_WITHIN_MOUNT, NS_RCU_FULL };

static const char *const ns_rcu_mode_names[] = {
	[NS_RCU_OFF] = "off",
	[NS_RCU_WITHIN_MOUNT] = "within-mount",
	[NS_RCU_FULL] = "full",
};

static enum ns_rcu_mode ns_rcu_mode;
static const char *ns_rcu_why = "not-decided";

/*
 * filename_lookup and friends: the retry ladder.  A walk in RCU mode
 * that cannot go on is done again in REF mode; one failing with ESTALE
 * once more with LOOKUP_REVAL.  The nameidata is the session's (@nd),
 * not on the stack: with the walk's instrumentation it is 360 bytes,
 * a third of the walker's stack budget.
 */
static void ns_shadow_resolve(const struct ns_request *rq, struct ns_answer *a,
			      struct ns_buf *trace, struct ns_walk_info *wi,
			      struct ns_witnesses *wit, struct nameidata *nd)
{
	unsigned int flags = ns_lookup_flags(rq) & ~(LOOKUP_EMPTY | LOOKUP_REVAL);
	const char *reval_divergence = NULL;
	struct ns_parent parent = {
		.path = &a->path, .last = &a->last, .type = &a->last_type,
	};

	memset(nd, 0, sizeof(*nd));
	nd->at_fd = rq->has_at && rq->path[0] != '/';
	nd->name = rq->path;
	nd->trace = trace;
	nd->wit = wit;
	nd->semantics_42 = rq->semantics_42;
	nd->inject = rq->inject;
	nd->inject_step = rq->inject_step;

	if (rq->rflags & NS_RF_REVAL)
		nd->attempt = NS_MODE_REVAL;
	else if (ns_rcu_mode != NS_RCU_OFF)
		nd->attempt = NS_MODE_RCU;
	else
		nd->attempt = NS_MODE_REF;
	nd->mode = nd->attempt == NS_MODE_REVAL ? NS_MODE_REVAL : NS_MODE_REF;
	nd->rcu_mounts = ns_rcu_mode == NS_RCU_FULL;
	a->last_type = -1;
	/* getname(): the empty name is ENOENT unless AT_EMPTY_PATH. */
	if (!*rq->path && !(rq->rflags & NS_RF_EMPTY)) {
		a->err = -ENOENT;
		goto out;
	}
	for (;;) {
		nd->steps = 0;
		nd->steps_shown = 0;
		/* a rule that sent the walk round with LOOKUP_REVAL still names it */
		nd->divergence = reval_divergence;
		ns_buf_clear(trace);
		trace_walk_start(rq->path, ns_mode_names[nd->attempt],
				 ns_req_mode_names[rq->mode], flags);
		switch (rq->mode) {
		case NS_REQ_LOOKUP:
			a->err = path_lookupat(nd, flags, &a->path);
			break;
		case NS_REQ_MOUNTPOINT:
			if (rq->semantics_42)
				a->err = path_mountpoint(nd, flags, &a->path);
			else
				a->err = path_lookupat(nd, flags | LOOKUP_MOUNTPOINT,
						       &a->path);
			break;
		case NS_REQ_PARENT:
			a->err = path_parentat(nd, flags, &parent);
			break;
		case NS_REQ_OPEN:
			ns_answer_release(a);
			a->action = NULL;
			a->err = ns_open_dry_run(nd, rq, a);
			break;
		}
		if (rq->mode != NS_REQ_OPEN)
			a->has_path = !a->err;
		/* filename_lookup's ladder: RCU, then REF, then REF|REVAL */
		if (a->err == -ECHILD && nd->attempt == NS_MODE_RCU) {
			wi->restarts++;
			wi->restart_reason = nd->restart_reason ?: "echild";
			nd->attempt = NS_MODE_REF;
			trace_restart(wi->restart_reason, "ref");
			continue;
		}
		if (a->err == -ESTALE && nd->attempt != NS_MODE_REVAL) {
			reval_divergence = nd->divergence;
			wi->restarts++;
			wi->restart_reason = "estale";
			wi->reval = true;
			nd->attempt = NS_MODE_REVAL;
			trace_restart("estale", "reval");
			continue;
		}
		break;
	}
out:
	a->divergence = nd->divergence;
	wi->mode = nd->rcu_completed && !nd->unlazy_reason ? NS_MODE_RCU :
		nd->attempt == NS_MODE_RCU ? NS_MODE_REF : nd->attempt;
	wi->unlazy_reason = nd->unlazy_reason;
	wi->unlazy_step = nd->unlazy_step;
	wi->steps = nd->steps;
	wi->steps_shown = nd->steps_shown;
	wi->links = nd->total_link_count;
}

/* ------------------------------------------------------------------ */
/* The oracle: the running kernel's own answer                         */

/*
 * The empty name without AT_EMPTY_PATH, which getname() refuses before
 * any walk: user_path_at() wants the name in the writer's memory, as
 * openat(2) passes it.  Map a private anonymous page in the writer's
 * address space (zeroed: the empty string), ask, and unmap it.  A
 * writer with no room for it (RLIMIT_AS) leaves the kernel unasked.
 */
static void ns_oracle_getname_empty(struct ns_answer *a)
{
	unsigned long addr;

	a->oracle = "user_path_at";
	if (!current->mm) {
		a->unanswered = "writer-has-no-memory";
		return;
	}
	addr = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(addr)) {
		a->unanswered = "no-room-in-writer-for-the-name";
		return;
	}
	a->err = user_path_at(AT_FDCWD, (const char __user *)addr, 0, &a->path);
	vm_munmap(addr, PAGE_SIZE);
}

/*
 * The kernel's lookup, from the request's pinned start: kern_path()
 * walks from current->fs, which is the pinned one while the request
 * runs -- its root, and its cwd or at= file as the pwd.
 */
static void ns_oracle_lookup(const char *name, unsigned int flags,
			     struct ns_answer *a)
{
	a->oracle = "kern_path";
	a->err = kern_path(name, flags, &a->path);
}

/*
 * The last component of @name as path_parentat() sees it, and the name
 * of its directory: "a/b/" -> "b" in "a/.", ".." -> ".." in ".",
 * "/" -> none (root) in "/".  Returns the type.
 */
static enum ns_last_type ns_split_last(const char *name, char **dir,
				       char **last)
{
	size_t end = strlen(name), start;
	enum ns_last_type type;

	while (end && name[end - 1] == '/')
		end--;
	start = end;
	while (start && name[start - 1] != '/')
		start--;
	if (start == end)
		type = NS_LAST_ROOT;
	else if (end - start == 1 && name[start] == '.')
		type = NS_LAST_DOT;
	else if (end - start == 2 && name[start] == '.' && name[start + 1] == '.')
		type = NS_LAST_DOTDOT;
	else
		type = NS_LAST_NORM;
	*last = kmemdup_nul(name + start, end - start, GFP_KERNEL);
	if (type == NS_LAST_ROOT)
		*dir = kstrdup(name, GFP_KERNEL);
	else
		*dir = kasprintf(GFP_KERNEL, "%.*s.", (int)start, name);
	return type;
}

/*
 * The parent oracle.  Where the kernel exports its own path_parentat
 * (vfs_path_parent_lookup) it answers; otherwise, and for the types it
 * will not return, the directory is looked up by the kernel as
 * "<dirname>/." -- which searches it, follows links to it and wants a
 * directory, exactly as link_path_walk treats it -- and the last
 * component is split off the name by text.
 */
static void ns_oracle_parent(const struct ns_request *rq, struct ns_answer *a)
{
	char *dir = NULL, *last = NULL;
	enum ns_last_type type;

	type = ns_split_last(rq->path, &dir, &last);
	if (!dir || !last) {
		a->err = -ENOMEM;
		goto out;
	}
	if (*rq->path && type == NS_LAST_NORM) {
		struct filename *fn = getname_kernel(rq->path);
		struct qstr q;

		a->oracle = "vfs_path_parent_lookup";
		if (IS_ERR(fn)) {
			a->err = PTR_ERR(fn);
			goto out;
		}
		a->err = ns_compat_path_parent(fn, ns_lookup_flags(rq), &a->path, &q);
		if (!a->err) {
			a->last = kmemdup_nul(q.name, q.len, GFP_KERNEL);
			a->last_type = NS_LAST_NORM;
		}
		putname(fn);
		if (!a->err && !a->last) {
			path_put(&a->path);
			a->err = -ENOMEM;
		}
		goto out;
	}
	ns_oracle_lookup(dir, ns_lookup_flags(rq) & ~LOOKUP_FOLLOW, a);
	a->oracle = "kern_path-dirname";
	if (!a->err) {
		a->last = last;
		a->last_type = type;
		last = NULL;
	}
out:
	kfree(dir);
	kfree(last);
}

/*
 * The open oracle, for opens that create nothing: the kernel opens the
 * same name O_PATH (with the request's O_NOFOLLOW and O_DIRECTORY) --
 * which resolves it exactly as open(2) would, but opens nothing that
 * could have an effect -- and the object must be the shadow's.
 */
static void ns_oracle_open(const struct ns_request *rq, struct ns_answer *a)
{
	unsigned int flags = O_PATH | (ns_open_flags(rq) & (O_NOFOLLOW | O_DIRECTORY));
	struct file *file;

	a->oracle = "filp_open-O_PATH";
	file = filp_open(rq->path, flags, 0);
	if (IS_ERR(file)) {
		a->err = PTR_ERR(file);
		return;
	}
	a->err = 0;
	a->path = file->f_path;
	path_get(&a->path);
	a->has_path = true;
	fput(file);
}

/* Why the kernel cannot be asked, or NULL. */
static const char *ns_no_oracle(const struct ns_request *rq)
{
	if (rq->rflags & NS_RF_NOCHECK)
		return "nocheck";
	if (rq->mode != NS_REQ_OPEN)
		return NULL;
	if ((rq->rflags & NS_RF_CREAT) && !(rq->rflags & NS_RF_PATH))
		return "creates";
	return NULL;
}

/*
 * The empty name: getname() refuses it unless AT_EMPTY_PATH, before
 * any walk; with it, every mode answers the start itself.
 */
static void ns_oracle_empty(const struct ns_request *rq, struct ns_answer *a)
{
	if (rq->rflags & NS_RF_EMPTY) {
		ns_oracle_lookup("", ns_lookup_flags(rq), a);
		return;
	}
	ns_oracle_getname_empty(a);
}

/*
 * A relative name from an at= file that is not a directory: path_init
 * refuses it (ENOTDIR) before the first component.  Nothing may walk a
 * name from there -- the file has no ->lookup -- so the kernel is asked
 * the one thing that decides it: is its pinned start a directory.
 */
static void ns_oracle_start(struct ns_answer *a)
{
	a->oracle = "kern_path-start";
	a->err = kern_path("", LOOKUP_DIRECTORY, &a->path);
}

static void ns_oracle(const struct ns_request *rq, const struct ns_start *st,
		      struct ns_answer *a)
{
	unsigned int flags = ns_lookup_flags(rq);

	a->last_type = -1;
	if (!*rq->path)
		ns_oracle_empty(rq, a);
	else if (rq->has_at && rq->path[0] != '/' && !ns_vfs_start_is_dir(st))
		ns_oracle_start(a);
	else if (rq->mode == NS_REQ_OPEN)
		ns_oracle_open(rq, a);
	else if (rq->mode == NS_REQ_LOOKUP)
		ns_oracle_lookup(rq->path, flags, a);
	else if (rq->mode == NS_REQ_MOUNTPOINT)
		ns_oracle_lookup(rq->path, flags | LOOKUP_MOUNTPOINT, a);
	else
		ns_oracle_parent(rq, a);
	a->has_path = !a->err && !a->unanswered;
}

/* ------------------------------------------------------------------ */
/* The verdict                                                         */

enum ns_verdict { NS_MATCH, NS_MISMATCH, NS_RACED, NS_UNCHECKED, NS_DIVERGENT, NS_VERDICTS };

static const char *const ns_verdict_names[] = {
	[NS_MATCH] = "match",
	[NS_MISMATCH] = "mismatch",
	[NS_RACED] = "raced",
	[NS_UNCHECKED] = "unchecked",
	[NS_DIVERGENT] = "divergent",
};

/*
 * The same place: the same dentry on the same vfsmount -- or the same
 * file on the same vfsmount under the same name in the same directory,
 * on a dentry the filesystem remade: one of the two is unhashed (a
 * ->d_revalidate said no, as /proc/<pid>/net's always does).
 */
static bool ns_same_place(const struct path *x, const struct path *y)
{
	if (path_equal(x, y))
		return true;
	if (x->mnt != y->mnt ||
	    !ns_vfs_same_file(d_inode(x->dentry), d_inode(y->dentry)))
		return false;
	if (!d_unhashed(x->dentry) && !d_unhashed(y->dentry))
		return false;
	return ns_vfs_same_name(x->dentry, y->dentry);
}

/*
 * Same errno, or the same place (and same last).  An open that reached
 * its object and then failed (EISDIR, ELOOP, ...) is compared by the
 * object the kernel's O_PATH open found.
 */
static bool ns_same_answer(const struct ns_answer *x, const struct ns_answer *y)
{
	if (x->action && x->has_path)
		return y->has_path && ns_same_place(&x->path, &y->path);
	if (x->err || y->err)
		return x->err == y->err;
	if (!ns_same_place(&x->path, &y->path))
		return false;
	if (x->last_type < 0 || y->last_type < 0)
		return true;
	return x->last_type == y->last_type && !strcmp(x->last, y->last);
}

/* ------------------------------------------------------------------ */
/* Statistics and the mismatch log                                     */

/* Why walks left RCU mode or started again, counted by name. */
static const char *const ns_reasons[] = {
	"miss", "revalidate", "permission", "mount", "mount-up", "link", "magic", "atime",
	"lsm", "alloc", "enotdir", "protected", "nosymfollow", "create", "mountpoint",
	"dseq", "legitimize", "root-seq", "disconnected",
	"estale", "echild",
};

#define NS_REASONS ARRAY_SIZE(ns_reasons)

static int ns_reason_index(const char *reason)
{
	int i;

	for (i = 0; i < NS_REASONS; i++)
		if (!strcmp(reason, ns_reasons[i]))
			return i;
	return -1;
}

enum ns_counter {
	NS_C_REQUESTS,
	NS_C_WALKS_RCU,		/* walks that completed in RCU mode */
	NS_C_UNLAZY,		/* NS_REASONS slots */
	NS_C_RESTART = NS_C_UNLAZY + NS_REASONS,	/* NS_REASONS slots */
	NS_C_REST = NS_C_RESTART + NS_REASONS,
	NS_C_REJECTED = NS_C_REST,
	NS_C_SHADOW_OK,
	NS_C_REVAL_RETRIES,
	NS_C_VERDICT,	/* NS_VERDICTS slots */
	NS_C_ERRNO = NS_C_VERDICT + NS_VERDICTS,	/* NS_ERRNO_SLOTS slots */
	NS_C_ERRNO_OTHER = NS_C_ERRNO + NS_ERRNO_SLOTS,
	NS_C_NR
};

static atomic_long_t ns_counters[NS_C_NR];

static void ns_count(enum ns_counter c)
{
	atomic_long_inc(&ns_counters[c]);
}

#define NS_MISMATCH_LOG	64
#define NS_MISMATCH_MAX	(16 * 1024)	/* bytes kept of each record */

static DEFINE_MUTEX(ns_mismatch_lock);
static char *ns_mismatch_log[NS_MISMATCH_LOG];
static unsigned long ns_mismatch_total;

static void ns_log_mismatch(const char *text, size_t len)
{
	char *rec = kmemdup_nul(text, min_t(size_t, len, NS_MISMATCH_MAX),
				GFP_KERNEL);

	if (!rec)
		return;
	mutex_lock(&ns_mismatch_lock);
	kfree(ns_mismatch_log[ns_mismatch_total % NS_MISMATCH_LOG]);
	ns_mismatch_log[ns_mismatch_total % NS_MISMATCH_LOG] = rec;
	ns_mismatch_total++;
	mutex_unlock(&ns_mismatch_lock);
}

static void ns_clear_mismatches(void)
{
	int i;

	mutex_lock(&ns_mismatch_lock);
	for (i = 0; i < NS_MISMATCH_LOG; i++) {
		kfree(ns_mismatch_log[i]);
		ns_mismatch_log[i] = NULL;
	}
	ns_mismatch_total = 0;
	mutex_unlock(&ns_mismatch_lock);
}

/* ------------------------------------------------------------------ */
/* One request, end to end                                             */

#define NS_RESULT_MAX	(192 * 1024)
#define NS_TRACE_MAX	(128 * 1024)

static void ns_put_request(struct ns_buf *sb, const struct ns_request *rq)
{
	const char *sep = "";
	int i;

	ns_printf(sb, "request mode=%s flags=", ns_req_mode_names[rq->mode]);
	for (i = 0; i < ARRAY_SIZE(ns_rflag_names); i++) {
		if (rq->rflags & (1 << i)) {
			ns_printf(sb, "%s%s", sep, ns_rflag_names[i]);
			sep = ",";
		}
	}
	if (!*sep)
		ns_puts(sb, "none");
	if (rq->has_at)
		ns_printf(sb, " at=%d", rq->at);
	else
		ns_puts(sb, " at=cwd");
	if (rq->semantics_42)
		ns_puts(sb, " semantics=4.2");
	if (rq->shadow_first)
		ns_puts(sb, " first=shadow");
	ns_puts(sb, " path=");
	ns_put_escaped(sb, rq->path, strlen(rq->path));
	ns_putc(sb, '\n');
}

static void ns_put_answer(struct ns_buf *sb, const char *who,
			  const struct ns_answer *a)
{
	ns_printf(sb, "%s err=", who);
	ns_put_errno(sb, a->err);
	if (a->action)
		ns_printf(sb, " action=%s", a->action);
	if (a->has_path) {
		ns_put_path(sb, &a->path);
		if (a->last_type >= 0) {
			ns_puts(sb, " last=");
			ns_put_escaped(sb, a->last, strlen(a->last));
			ns_printf(sb, " last_type=%s",
				  ns_last_names[a->last_type]);
		}
	}
	if (a->divergence)
		ns_printf(sb, " divergence=%s", a->divergence);
	if (a->oracle)
		ns_printf(sb, " oracle=%s", a->oracle);
	ns_putc(sb, '\n');
}

/*
 * Each open file of `resolve` is a session: its own last result, and
 * its own buffers for it, allocated once.
 */
struct ns_session {
	struct mutex lock;	/* one request at a time; guards the rest */
	char *result;		/* NS_RESULT_MAX bytes */
	char *trace;		/* NS_TRACE_MAX bytes */
	size_t len;
	struct ns_witnesses wit;
	struct ns_start start;
	struct nameidata nd;	/* the shadow's walk */
};

/*
 * Resolve @rq by the kernel, then the shadow, then the kernel again,
 * and judge.  A difference while rename_lock or mount_lock moved, or
 * while the kernel disagreed with itself, is a race, not a mismatch.
 * first=shadow walks the shadow before both kernel walks, so that it
 * sees the dcache as cold as it was (the kernel's walk fills it in).
 */
static void ns_trace_verdict(const struct ns_request *rq, enum ns_verdict verdict,
			     const struct ns_answer *shadow,
			     const struct ns_answer *kernel, bool checked,
			     const struct ns_walk_info *wi)
{
	char unlazy[32] = "none";

	if (wi->unlazy_reason)
		snprintf(unlazy, sizeof(unlazy), "%s@%d", wi->unlazy_reason,
			 wi->unlazy_step);
	trace_verdict(rq->path, ns_verdict_names[verdict], shadow->err,
		      checked ? kernel->err : 0, checked, ns_mode_names[wi->mode],
		      unlazy);
}

/* What a batch reports of one request. */
struct ns_summary {
	enum ns_verdict verdict;
	int shadow_err;
	int kernel_err;
	bool checked;		/* the kernel was asked */
	struct ns_walk_info wi;
};

/*
 * The start, pinned for all three walks: the writer's root, and its cwd
 * or the at= file for a relative name.  Returns 1 when the request
 * needs none (the empty name, which getname() refuses), 0 when it is
 * entered, or the errno of a bad at= descriptor.
 */
static int ns_pin_start(const struct ns_request *rq, struct ns_start *st)
{
	if (!*rq->path && !(rq->rflags & NS_RF_EMPTY))
		return 1;
	return ns_vfs_start_enter(st, rq->has_at && rq->path[0] != '/' ?
				  rq->at : AT_FDCWD);
}

/* What showed a difference to be a race, or NULL. */
static const char *ns_race_evidence(const struct ns_answer *o1,
				    const struct ns_answer *o2, int witnessed)
{
	if (!ns_same_answer(o1, o2))
		return "kernel-answers-differ";
	if (witnessed > 0)
		return "witness-changed";
	return NULL;
}

static size_t ns_run_request(const struct ns_request *rq,
			     struct ns_session *ss, struct ns_summary *sum)
{
	struct ns_answer shadow = {}, o1 = {}, o2 = {};
	struct ns_walk_info wi = {};
	struct ns_buf out, trace;
	struct ns_vfs_seq seq;
	enum ns_verdict verdict;
	const char *unchecked = ns_no_oracle(rq);
	const char *evidence = NULL;
	char *obuf = ss->result, *tbuf = ss->trace;
	bool check = !unchecked;
	bool elsewhere = false;
	int start, witnessed = 0;

	ns_buf_init(&out, obuf, NS_RESULT_MAX);
	ns_buf_init(&trace, tbuf, NS_TRACE_MAX);

	start = ns_pin_start(rq, &ss->start);
	if (start < 0) {
		/* the kernel's own fget_raw() said so, for all three */
		shadow.err = start;
		wi.mode = NS_MODE_REF;
		if (check) {
			o1.err = start;
			o1.oracle = "fget_raw";
			o2 = o1;
		}
	} else {
		ns_vfs_seq_begin(&seq);
		if (rq->shadow_first)
			ns_shadow_resolve(rq, &shadow, &trace, &wi, &ss->wit, &ss->nd);
		if (check)
			ns_oracle(rq, &ss->start, &o1);
		if (!rq->shadow_first)
			ns_shadow_resolve(rq, &shadow, &trace, &wi, &ss->wit, &ss->nd);
		if (check)
			ns_oracle(rq, &ss->start, &o2);
		/* after the second oracle: what the shadow's walk rested on */
		witnessed = ns_witnesses_moved(&ss->wit);
		elsewhere = ns_vfs_seq_moved(&seq);
		if (!start)
			ns_vfs_start_leave(&ss->start);
	}
	if (check && (o1.unanswered || o2.unanswered)) {
		check = false;
		unchecked = o1.unanswered ?: o2.unanswered;
	}

	/*
	 * A difference is a race only on evidence that what this walk
	 * depended on changed: a witness, or the kernel's own two answers.
	 * A rename or mount elsewhere (rename_lock, mount_lock) proves
	 * nothing about this walk: a hint on a mismatch, no more.
	 */
	if (rq->semantics_42 && shadow.divergence) {
		verdict = NS_DIVERGENT;
	} else if (!check) {
		verdict = NS_UNCHECKED;
	} else if (ns_same_answer(&shadow, &o1) && ns_same_answer(&o1, &o2)) {
		verdict = NS_MATCH;
	} else {
		evidence = ns_race_evidence(&o1, &o2, witnessed);
		verdict = evidence ? NS_RACED : NS_MISMATCH;
		if (!evidence && witnessed < 0) {
			verdict = NS_UNCHECKED;
			unchecked = "witnesses-overflowed";
		}
	}

	ns_put_request(&out, rq);
	ns_put_answer(&out, "shadow", &shadow);
	if (check)
		ns_put_answer(&out, "kernel", &o1);
	else
		ns_printf(&out, "kernel oracle=%s reason=%s\n",
			  o1.oracle ?: "none", unchecked);
	if (check && !ns_same_answer(&o1, &o2))
		ns_put_answer(&out, "kernel-again", &o2);
	ns_printf(&out, "verdict %s\n", ns_verdict_names[verdict]);
	if (verdict == NS_RACED)
		ns_printf(&out, "evidence %s\n", evidence);
	else if (verdict == NS_MISMATCH)
		ns_printf(&out, "evidence none%s\n",
			  elsewhere ? " hint=rename-or-mount-elsewhere" : "");
	else if (verdict == NS_UNCHECKED && check)
		ns_printf(&out, "evidence none reason=%s\n", unchecked);
	ns_printf(&out, "walk mode=%s restarts=%d", ns_mode_names[wi.mode], wi.restarts);
	if (wi.restart_reason)
		ns_printf(&out, " restart=%s", wi.restart_reason);
	if (wi.unlazy_reason)
		ns_printf(&out, " unlazy=%s@%d", wi.unlazy_reason, wi.unlazy_step);
	else
		ns_puts(&out, " unlazy=none");
	if (rq->inject)
		ns_printf(&out, " inject=%s@%d", ns_inject_names[rq->inject], rq->inject_step);
	ns_printf(&out, " steps=%d steps_shown=%d links=%d\n", wi.steps,
		  wi.steps_shown, wi.links);
	ns_puts(&out, tbuf);

	ns_count(NS_C_REQUESTS);
	ns_count(NS_C_VERDICT + verdict);
	if (wi.mode == NS_MODE_RCU)
		ns_count(NS_C_WALKS_RCU);
	if (wi.unlazy_reason && ns_reason_index(wi.unlazy_reason) >= 0)
		ns_count(NS_C_UNLAZY + ns_reason_index(wi.unlazy_reason));
	if (wi.restart_reason && ns_reason_index(wi.restart_reason) >= 0)
		ns_count(NS_C_RESTART + ns_reason_index(wi.restart_reason));
	if (wi.reval)
		ns_count(NS_C_REVAL_RETRIES);
	if (!shadow.err)
		ns_count(NS_C_SHADOW_OK);
	else if (-shadow.err < NS_ERRNO_SLOTS && shadow.err < 0)
		ns_count(NS_C_ERRNO - shadow.err);
	else
		ns_count(NS_C_ERRNO_OTHER);

	ns_answer_release(&shadow);
	ns_answer_release(&o1);
	ns_answer_release(&o2);

	if (verdict == NS_MISMATCH)
		ns_log_mismatch(obuf, ns_buf_used(&out));
	if (trace_verdict_enabled())
		ns_trace_verdict(rq, verdict, &shadow, &o1, check, &wi);
	if (sum) {
		sum->verdict = verdict;
		sum->shadow_err = shadow.err;
		sum->kernel_err = o1.err;
		sum->checked = check;
		sum->wi = wi;
	}
	return ns_buf_used(&out);
}

/* ------------------------------------------------------------------ */
/* Parsing a request                                                   */

static const char ns_flags_help[] =
	"flags= takes a comma list of follow,nofollow,directory,empty,reval,nocheck,creat,...";

static int ns_parse_flags(char *val, struct ns_request *rq, const char **why)
{
	char *tok;
	int i;

	rq->rflags = 0;
	rq->flags_given = true;
	while ((tok = strsep(&val, ",")) != NULL) {
		for (i = 0; i < ARRAY_SIZE(ns_rflag_names); i++)
			if (!strcmp(tok, ns_rflag_names[i]))
				break;
		if (i == ARRAY_SIZE(ns_rflag_names)) {
			*why = ns_flags_help;
			return -EINVAL;
		}
		rq->rflags |= 1 << i;
	}
	if ((rq->rflags & NS_RF_FOLLOW) && (rq->rflags & NS_RF_NOFOLLOW)) {
		*why = "flags=follow and nofollow contradict each other";
		return -EINVAL;
	}
	return 0;
}

enum {
	NS_KEY_MODE, NS_KEY_FLAGS, NS_KEY_AT, NS_KEY_SEMANTICS, NS_KEY_INJECT,
	NS_KEY_FIRST, NS_KEY_PATH
};

#define NS_UNKNOWN_KEY \
	"unknown key (keys: mode, flags, at, semantics, inject, first, path)"

/* inject=<what>@<step>: make that check fail at that step, once. */
static int ns_parse_inject(char *val, struct ns_request *rq, const char **why)
{
	char *at = strchr(val, '@');
	int i;

	*why = "inject= takes <dseq|legitimize|echild-permission|miss|estale>@<step>";
	if (!at)
		return -EINVAL;
	*at = '\0';
	if (kstrtoint(at + 1, 10, &rq->inject_step) || rq->inject_step < 0)
		return -EINVAL;
	for (i = NS_INJECT_NONE + 1; i < ARRAY_SIZE(ns_inject_names); i++) {
		if (!strcmp(val, ns_inject_names[i])) {
			rq->inject = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int ns_parse_option(int key, char *val, struct ns_request *rq,
			   const char **why)
{
	int i;

	switch (key) {
	case NS_KEY_MODE:
		for (i = 0; i < ARRAY_SIZE(ns_req_mode_names); i++) {
			if (!strcmp(val, ns_req_mode_names[i])) {
				rq->mode = i;
				return 0;
			}
		}
		*why = "mode= must be lookup, parent, mountpoint or open";
		return -EINVAL;
	case NS_KEY_FLAGS:
		return ns_parse_flags(val, rq, why);
	case NS_KEY_AT:
		if (!isdigit(*val) || kstrtoint(val, 10, &rq->at)) {
			*why = "at= takes a file descriptor number (digits only)";
			return -EINVAL;
		}
		rq->has_at = true;
		return 0;
	case NS_KEY_SEMANTICS:
		if (!strcmp(val, "4.2")) {
			rq->semantics_42 = true;
			return 0;
		}
		if (!strcmp(val, "running"))
			return 0;
		*why = "semantics= must be running (the default) or 4.2";
		return -EINVAL;
	case NS_KEY_INJECT:
		return ns_parse_inject(val, rq, why);
	case NS_KEY_FIRST:
		if (!strcmp(val, "shadow") || !strcmp(val, "kernel")) {
			rq->shadow_first = !strcmp(val, "shadow");
			return 0;
		}
		*why = "first= must be kernel (the default) or shadow";
		return -EINVAL;
	}
	*why = NS_UNKNOWN_KEY;
	return -EINVAL;
}

static int ns_key_index(const char *s, size_t len)
{
	static const char *const keys[] = {
		[NS_KEY_MODE] = "mode",
		[NS_KEY_FLAGS] = "flags",
		[NS_KEY_AT] = "at",
		[NS_KEY_SEMANTICS] = "semantics",
		[NS_KEY_INJECT] = "inject",
		[NS_KEY_FIRST] = "first",
		[NS_KEY_PATH] = "path",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (strlen(keys[i]) == len && !strncmp(s, keys[i], len))
			return i;
	return -1;
}

/*
 * The grammar: optional space-separated key=value options, then the
 * path -- everything after "path=" verbatim, or, when the write does
 * not start with a known key, the whole write.  One trailing newline
 * is not part of the request.  @buf is NUL-terminated and modified.
 */
static int ns_parse_request(char *buf, size_t len, struct ns_request *rq,
			    const char **why)
{
	unsigned int seen = 0;
	char *s = buf;
	int err;

	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!len) {
		*why = "empty request: write a path, or options and path=";
		return -EINVAL;
	}
	if (memchr(buf, '\0', len)) {
		*why = "the request holds a NUL byte";
		return -EINVAL;
	}
	rq->mode = NS_REQ_LOOKUP;
	for (;;) {
		size_t tok = strcspn(s, " ");
		char *eq = memchr(s, '=', tok);
		int key = eq ? ns_key_index(s, eq - s) : -1;

		if (key < 0) {
			if (!seen) {
				rq->path = buf;	/* the whole write */
				break;
			}
			*why = eq ? NS_UNKNOWN_KEY : "after options, give the path as path=";
			return -EINVAL;
		}
		if (key == NS_KEY_PATH) {
			rq->path = eq + 1;
			break;
		}
		if (!s[tok]) {
			*why = "options must be followed by path=";
			return -EINVAL;
		}
		if (seen & BIT(key)) {
			*why = "a key is given twice";
			return -EINVAL;
		}
		seen |= BIT(key);
		s[tok] = '\0';
		err = ns_parse_option(key, eq + 1, rq, why);
		if (err)
			return err;
		s += tok + 1;
	}
	if (strlen(rq->path) >= PATH_MAX) {
		*why = "the path is PATH_MAX (4096) bytes or longer";
		return -ENAMETOOLONG;
	}
	if ((rq->rflags & NS_RF_OPEN_ONLY) && rq->mode != NS_REQ_OPEN) {
		*why = "flags creat, excl, path, trunc, wronly, rdwr are for mode=open";
		return -EINVAL;
	}
	if ((rq->rflags & NS_RF_WRONLY) && (rq->rflags & NS_RF_RDWR)) {
		*why = "flags=wronly and rdwr contradict each other";
		return -EINVAL;
	}
	if (!rq->flags_given && rq->mode != NS_REQ_PARENT)
		rq->rflags = NS_RF_FOLLOW;
	if (rq->rflags & NS_RF_NOFOLLOW)
		rq->rflags &= ~NS_RF_FOLLOW;
	return 0;
}

/* ------------------------------------------------------------------ */
/* debugfs: resolve, stats, mismatches, features                       */

/* The longest request: a PATH_MAX path and every option. */
#define NS_REQUEST_MAX	(PATH_MAX + 256)

static void ns_session_free(struct ns_session *ss)
{
	kvfree(ss->result);
	kvfree(ss->trace);
	mutex_destroy(&ss->lock);
}

static int ns_session_init(struct ns_session *ss)
{
	mutex_init(&ss->lock);
	ss->result = kvmalloc(NS_RESULT_MAX, GFP_KERNEL);
	ss->trace = kvmalloc(NS_TRACE_MAX, GFP_KERNEL);
	if (ss->result && ss->trace)
		return 0;
	ns_session_free(ss);
	return -ENOMEM;
}

static int resolve_open(struct inode *inode, struct file *file)
{
	struct ns_session *ss = kzalloc(sizeof(*ss), GFP_KERNEL);

	if (!ss || ns_session_init(ss)) {
		kfree(ss);
		return -ENOMEM;
	}
	file->private_data = ss;
	return 0;
}

static int resolve_release(struct inode *inode, struct file *file)
{
	struct ns_session *ss = file->private_data;

	ns_session_free(ss);
	kfree(ss);
	return 0;
}

/* "error err=<errno> reason=<why>": a refused request, as read back. */
static void ns_put_error(struct ns_buf *sb, int err, const char *why)
{
	ns_puts(sb, "error err=");
	ns_put_errno(sb, err);
	ns_printf(sb, " reason=%s\n", why);
}

/* The refusal as the whole of what a session's next read() returns. */
static size_t ns_error_text(char *buf, size_t size, int err, const char *why)
{
	struct ns_buf sb;

	ns_buf_init(&sb, buf, size);
	ns_put_error(&sb, err, why);
	return ns_buf_used(&sb);
}

static ssize_t ns_read_locked(struct mutex *lock, const char *buf,
			      const size_t *len, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, *len);
	mutex_unlock(lock);
	return ret;
}

static ssize_t resolve_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct ns_session *ss = file->private_data;
	struct ns_request rq = {};
	const char *why = NULL;
	char *buf;
	int err;

	mutex_lock(&ss->lock);
	if (count > NS_REQUEST_MAX) {
		err = -ENAMETOOLONG;
		why = "request longer than PATH_MAX and its options";
		goto reject;
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf)) {
		err = PTR_ERR(buf);
		why = "cannot read the request";
		goto reject;
	}
	err = ns_parse_request(buf, count, &rq, &why);
	if (err) {
		kfree(buf);
		goto reject;
	}
	ss->len = ns_run_request(&rq, ss, NULL);
	kfree(buf);
	*ppos = 0;	/* the next read() starts at the new result */
	mutex_unlock(&ss->lock);
	return count;

reject:
	ns_count(NS_C_REJECTED);
	ss->len = ns_error_text(ss->result, NS_RESULT_MAX, err, why);
	*ppos = 0;
	mutex_unlock(&ss->lock);
	return err;
}

static ssize_t resolve_read(struct file *file, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	struct ns_session *ss = file->private_data;

	return ns_read_locked(&ss->lock, ss->result, &ss->len, ubuf, count, ppos);
}

static const struct file_operations resolve_fops = {
	.owner = THIS_MODULE,
	.open = resolve_open,
	.release = resolve_release,
	.read = resolve_read,
	.write = resolve_write,
	.llseek = default_llseek,
};

/*
 * batch: many requests in one write, one newline-separated request per
 * line (resolve's grammar; empty lines skipped), each run as a write to
 * resolve would run it.  Reading back gives one summary line per
 * request and a total.  A write is at most NS_BATCH_BYTES and
 * NS_BATCH_REQUESTS; requests may not span writes.  A fatal signal stops
 * a batch after the request in hand: the write then returns the bytes
 * done, so a partial batch is never taken for a whole one.
 */
#define NS_BATCH_BYTES		65536
#define NS_BATCH_REQUESTS	4096
/* a summary line: its fields, and its path escaped (4 bytes a byte) */
#define NS_BATCH_LINE		256
#define NS_BATCH_OUT_MAX	(4 * NS_BATCH_BYTES + \
				 NS_BATCH_REQUESTS * NS_BATCH_LINE + NS_BATCH_LINE)

struct ns_batch {
	struct ns_session ss;	/* its buffers serve each request in turn */
	char *out;		/* NS_BATCH_OUT_MAX bytes */
	size_t len;
	long counts[NS_VERDICTS + 1];	/* per verdict; the last: refused */
};

static int batch_open(struct inode *inode, struct file *file)
{
	struct ns_batch *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b || ns_session_init(&b->ss)) {
		kfree(b);
		return -ENOMEM;
	}
	b->out = kvmalloc(NS_BATCH_OUT_MAX, GFP_KERNEL);
	if (!b->out) {
		ns_session_free(&b->ss);
		kfree(b);
		return -ENOMEM;
	}
	file->private_data = b;
	return 0;
}

static int batch_release(struct inode *inode, struct file *file)
{
	struct ns_batch *b = file->private_data;

	kvfree(b->out);
	ns_session_free(&b->ss);
	kfree(b);
	return 0;
}

/* Requests in @buf: its non-empty lines. */
static int ns_batch_count(const char *buf, size_t len)
{
	const char *end = buf + len, *nl;
	int n = 0;

	for (; buf < end; buf = nl + 1) {
		nl = memchr(buf, '\n', end - buf);
		if (!nl)
			nl = end;
		n += nl > buf;
	}
	return n;
}

/* One request of a batch, @line NUL-terminated, @len long. */
static void ns_batch_one(struct ns_batch *b, struct ns_buf *sb, int n,
			 char *line, size_t len)
{
	struct ns_request rq = {};
	struct ns_summary sum = {};
	const char *why = NULL;
	int err;

	ns_printf(sb, "n=%d verdict=", n);
	err = ns_parse_request(line, len, &rq, &why);
	if (err) {
		ns_count(NS_C_REJECTED);
		b->counts[NS_VERDICTS]++;
		ns_put_error(sb, err, why);
		return;
	}
	ns_run_request(&rq, &b->ss, &sum);
	b->counts[sum.verdict]++;
	ns_printf(sb, "%s shadow=", ns_verdict_names[sum.verdict]);
	ns_put_errno(sb, sum.shadow_err);
	ns_puts(sb, " kernel=");
	if (sum.checked)
		ns_put_errno(sb, sum.kernel_err);
	else
		ns_puts(sb, "none");
	ns_printf(sb, " mode=%s", ns_mode_names[sum.wi.mode]);
	if (sum.wi.unlazy_reason)
		ns_printf(sb, " unlazy=%s@%d", sum.wi.unlazy_reason,
			  sum.wi.unlazy_step);
	else
		ns_puts(sb, " unlazy=none");
	ns_printf(sb, " restarts=%d path=", sum.wi.restarts);
	ns_put_escaped(sb, rq.path, strlen(rq.path));
	ns_putc(sb, '\n');
}

/* Returns how much of @buf was done: all of it, unless a fatal signal came. */
static size_t ns_batch_run(struct ns_batch *b, char *buf, size_t count)
{
	char *line, *nl, *end = buf + count;
	size_t done = count;
	struct ns_buf sb;
	int n = 0, i;

	memset(b->counts, 0, sizeof(b->counts));
	ns_buf_init(&sb, b->out, NS_BATCH_OUT_MAX);
	for (line = buf; line < end; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		if (nl == line)
			continue;
		if (fatal_signal_pending(current)) {
			done = line - buf;
			break;
		}
		*nl = '\0';
		ns_batch_one(b, &sb, ++n, line, nl - line);
		cond_resched();
	}
	ns_printf(&sb, "summary requests=%d", n);
	for (i = 0; i < NS_VERDICTS; i++)
		ns_printf(&sb, " %s=%ld", ns_verdict_names[i], b->counts[i]);
	ns_printf(&sb, " error=%ld\n", b->counts[NS_VERDICTS]);
	b->len = ns_buf_used(&sb);
	return done;
}

static ssize_t batch_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct ns_batch *b = file->private_data;
	const char *why = NULL;
	ssize_t ret;
	char *buf;

	mutex_lock(&b->ss.lock);
	*ppos = 0;	/* the next read() starts at the new summaries */
	if (count > NS_BATCH_BYTES) {
		ret = -E2BIG;
		why = "a batch is at most 65536 bytes of whole lines: split it";
		goto reject;
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf)) {
		ret = PTR_ERR(buf);
		why = "cannot read the batch";
		goto reject;
	}
	if (ns_batch_count(buf, count) > NS_BATCH_REQUESTS) {
		kfree(buf);
		ret = -E2BIG;
		why = "a batch is at most 4096 requests: split it";
		goto reject;
	}
	ret = ns_batch_run(b, buf, count);
	kfree(buf);
	if (!ret && count)
		ret = -EINTR;
	mutex_unlock(&b->ss.lock);
	return ret;

reject:
	ns_count(NS_C_REJECTED);
	b->len = ns_error_text(b->out, NS_BATCH_OUT_MAX, ret, why);
	mutex_unlock(&b->ss.lock);
	return ret;
}

static ssize_t batch_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct ns_batch *b = file->private_data;

	return ns_read_locked(&b->ss.lock, b->out, &b->len, ubuf, count, ppos);
}

static const struct file_operations batch_fops = {
	.owner = THIS_MODULE,
	.open = batch_open,
	.release = batch_release,
	.read = batch_read,
	.write = batch_write,
	.llseek = default_llseek,
};

static int ns_stats_show(struct seq_file *m, void *unused)
{
	int i;

	seq_printf(m, "requests %ld\n", atomic_long_read(&ns_counters[NS_C_REQUESTS]));
	seq_printf(m, "rejected %ld\n", atomic_long_read(&ns_counters[NS_C_REJECTED]));
	for (i = 0; i < NS_VERDICTS; i++)
		seq_printf(m, "verdict_%s %ld\n", ns_verdict_names[i],
			   atomic_long_read(&ns_counters[NS_C_VERDICT + i]));
	seq_printf(m, "reval_retries %ld\n",
		   atomic_long_read(&ns_counters[NS_C_REVAL_RETRIES]));
	seq_printf(m, "walks_rcu %ld\n", atomic_long_read(&ns_counters[NS_C_WALKS_RCU]));
	for (i = 0; i < NS_REASONS; i++)
		seq_printf(m, "unlazy %s %ld\n", ns_reasons[i],
			   atomic_long_read(&ns_counters[NS_C_UNLAZY + i]));
	for (i = 0; i < NS_REASONS; i++)
		seq_printf(m, "restart %s %ld\n", ns_reasons[i],
			   atomic_long_read(&ns_counters[NS_C_RESTART + i]));
	seq_printf(m, "shadow_ok %ld\n", atomic_long_read(&ns_counters[NS_C_SHADOW_OK]));
	for (i = 1; i < NS_ERRNO_SLOTS; i++) {
		long n = atomic_long_read(&ns_counters[NS_C_ERRNO + i]);

		if (!n)
			continue;
		if (i < ARRAY_SIZE(ns_errno_names) && ns_errno_names[i])
			seq_printf(m, "errno %s %ld\n", ns_errno_names[i], n);
		else
			seq_printf(m, "errno %d %ld\n", i, n);
	}
	seq_printf(m, "errno other %ld\n",
		   atomic_long_read(&ns_counters[NS_C_ERRNO_OTHER]));
	return 0;
}

static int ns_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, ns_stats_show, NULL);
}

/* Writing "reset" to `stats` zeroes the counters. */
/*
 * A control file's one command, @word, surrounded by white space or
 * not: 0, -EFAULT for a buffer that cannot be read, or -EINVAL.
 */
static int ns_control_word(const char __user *ubuf, size_t count,
			   const char *word)
{
	char buf[16] = {};

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (strlen(buf) != count || strcmp(strim(buf), word))
		return -EINVAL;
	return 0;
}

static ssize_t stats_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	int i, err = ns_control_word(ubuf, count, "reset");

	if (err)
		return err;
	for (i = 0; i < NS_C_NR; i++)
		atomic_long_set(&ns_counters[i], 0);
	return count;
}

static const struct file_operations ns_stats_fops = {
	.owner = THIS_MODULE,
	.open = ns_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = stats_write,
};

static int mismatches_show(struct seq_file *m, void *unused)
{
	unsigned long first, n;

	mutex_lock(&ns_mismatch_lock);
	first = ns_mismatch_total > NS_MISMATCH_LOG ?
		ns_mismatch_total - NS_MISMATCH_LOG : 0;
	seq_printf(m, "mismatches total=%lu shown=%lu\n", ns_mismatch_total,
		   ns_mismatch_total - first);
	for (n = first; n < ns_mismatch_total; n++)
		seq_printf(m, "mismatch n=%lu\n%s", n + 1,
			   ns_mismatch_log[n % NS_MISMATCH_LOG]);
	mutex_unlock(&ns_mismatch_lock);
	return 0;
}

static int mismatches_open(struct inode *inode, struct file *file)
{
	return single_open(file, mismatches_show, NULL);
}

/* Writing anything to `mismatches` empties the log. */
static ssize_t mismatches_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	int err = ns_control_word(ubuf, count, "clear");

	if (err)
		return err;
	ns_clear_mismatches();
	return count;
}

static const struct file_operations mismatches_fops = {
	.owner = THIS_MODULE,
	.open = mismatches_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = mismatches_write,
};

/*
 * rcu_lookup_check: write "<directory> <name>"; read back, on the same
 * fd, whether the module's RCU lookup and the kernel's __d_lookup_rcu
 * found the same dentry for it: "same found=y|n", "different", or
 * "unavailable" where the kernel's cannot be called safely (sealed ENDBR
 * under IBT).  A failed write leaves nothing to read.
 */
#define NS_CHECK_RESULT	64

static int rcu_lookup_check_open(struct inode *inode, struct file *file)
{
	file->private_data = kzalloc(NS_CHECK_RESULT, GFP_KERNEL);
	return file->private_data ? 0 : -ENOMEM;
}

static int rcu_lookup_check_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static DEFINE_MUTEX(ns_check_lock);

/* Check "<directory> <name>" in @buf; the answer into @result. */
static int ns_rcu_lookup_check(char *buf, char *result)
{
	char *dirname = strim(buf), *name = strrchr(dirname, ' ');
	struct path dir;
	bool found = false;
	int err, same;

	if (!name || !name[1] || strchr(name + 1, '/'))
		return -EINVAL;
	*name++ = '\0';
	err = kern_path(strim(dirname), LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
	if (err)
		return err;
	same = ns_vfs_compare_lookup_rcu(dir.dentry, name, &found);
	path_put(&dir);
	if (same == -EOPNOTSUPP)
		strscpy(result, "unavailable\n", NS_CHECK_RESULT);
	else if (same < 0)
		snprintf(result, NS_CHECK_RESULT, "error %d\n", same);
	else
		snprintf(result, NS_CHECK_RESULT, "%s found=%s\n",
			 same ? "same" : "different", found ? "y" : "n");
	return 0;
}

static ssize_t rcu_lookup_check_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char *result = file->private_data;
	char *buf;
	int err;

	if (count > PATH_MAX + NAME_MAX)
		return -ENAMETOOLONG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&ns_check_lock);
	result[0] = '\0';
	err = strlen(buf) == count ? ns_rcu_lookup_check(buf, result) : -EINVAL;
	*ppos = 0;
	mutex_unlock(&ns_check_lock);
	kfree(buf);
	return err ? err : count;
}

static ssize_t rcu_lookup_check_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	const char *result = file->private_data;
	ssize_t ret;

	mutex_lock(&ns_check_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, result, strlen(result));
	mutex_unlock(&ns_check_lock);
	return ret;
}

static const struct file_operations rcu_lookup_check_fops = {
	.owner = THIS_MODULE,
	.open = rcu_lookup_check_open,
	.release = rcu_lookup_check_release,
	.read = rcu_lookup_check_read,
	.write = rcu_lookup_check_write,
	.llseek = default_llseek,
};

/*
 * The running kernel's LOOKUP_* values, to read the raw flags of a
 * trace by: 7.0 renumbered them (LOOKUP_RCU was 0x40, is 0x100).
 */
static const struct {
	const char *name;
	unsigned int flag;
} ns_lookup_flag_values[] = {
	{ "follow", LOOKUP_FOLLOW }, { "directory", LOOKUP_DIRECTORY },
	{ "automount", LOOKUP_AUTOMOUNT }, { "empty", LOOKUP_EMPTY },
	{ "down", LOOKUP_DOWN }, { "mountpoint", LOOKUP_MOUNTPOINT },
	{ "reval", LOOKUP_REVAL }, { "rcu", LOOKUP_RCU },
	{ "parent", LOOKUP_PARENT }, { "open", LOOKUP_OPEN },
	{ "create", LOOKUP_CREATE }, { "excl", LOOKUP_EXCL },
};

static void ns_show_lookup_flags(struct seq_file *m)
{
	int i;

	seq_puts(m, "lookup_flags");
	for (i = 0; i < ARRAY_SIZE(ns_lookup_flag_values); i++)
		seq_printf(m, " %s=%#x", ns_lookup_flag_values[i].name,
			   ns_lookup_flag_values[i].flag);
	seq_putc(m, '\n');
}

static int ns_features_show(struct seq_file *m, void *unused)
{
	const char *why_full;
	bool full = ns_vfs_mounts_rcu_usable(&why_full);

	ns_model_show_features(m);

	seq_printf(m, "rcu mode=%s why=%s full=%s why_full=%s\n",
		   ns_rcu_mode_names[ns_rcu_mode], ns_rcu_why,
		   full ? "y" : "n", why_full);
	seq_printf(m, "batch max_bytes=%d max_requests=%d\n", NS_BATCH_BYTES,
		   NS_BATCH_REQUESTS);
	ns_show_lookup_flags(m);
	seq_puts(m, "walk ref=y rcu=y reval-retry=y symlinks=stack magic=delegated protected_symlinks=y nosymfollow=y open=dry-run semantics=running,4.2\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ns_features);

/* ------------------------------------------------------------------ */
/* Module life cycle                                                   */

static struct dentry *ns_debugfs_dir;

static int ns_parse_ksym_source(enum ns_ksym_source *src)
{
	if (!strcmp(ksym_source, "auto"))
		*src = NS_KSYM_SRC_AUTO;
	else if (!strcmp(ksym_source, "gate"))
		*src = NS_KSYM_SRC_GATE;
	else
		return -EINVAL;
	return 0;
}

/*
 * RCU-walk needs the dcache's hash table (the module walks it itself:
 * __d_lookup_rcu is neither exported nor, under IBT, safely callable).
 * Crossing mounts in RCU mode ("full") needs the kernel's __lookup_mnt
 * and __legitimize_mnt to be callable and mount_lock readable; without
 * them RCU mode stays within the mounts it pinned ("within-mount") and
 * unlazies at a mount.  rcu= forces a lower mode; rcu=full refuses to
 * load where full is not possible.
 */
static int ns_choose_rcu_mode(void)
{
	const char *why_full;
	bool full = ns_vfs_mounts_rcu_usable(&why_full);

	if (!strcmp(rcu, "off")) {
		ns_rcu_mode = NS_RCU_OFF;
		ns_rcu_why = "module-parameter";
		return 0;
	}
	if (!ns_vfs_rcu_lookup_usable()) {
		ns_rcu_mode = NS_RCU_OFF;
		ns_rcu_why = "dentry_hashtable-or-d_hash_shift-not-found";
		return strcmp(rcu, "auto") ? -EOPNOTSUPP : 0;
	}
	if (!strcmp(rcu, "within-mount") || !full) {
		ns_rcu_mode = NS_RCU_WITHIN_MOUNT;
		ns_rcu_why = strcmp(rcu, "auto") ? "module-parameter" : why_full;
		return strcmp(rcu, "full") ? 0 : -EOPNOTSUPP;
	}
	ns_rcu_mode = NS_RCU_FULL;
	ns_rcu_why = strcmp(rcu, "auto") ? "module-parameter" : why_full;
	return 0;
}

static int __init namei_shadow_init(void)
{
	enum ns_ksym_source src;
	int err;

	if (ns_parse_ksym_source(&src)) {
		pr_err("ksym_source=%s: must be auto or gate\n", ksym_source);
		return -EINVAL;
	}
	err = ns_model_check_hide(ksym_hide);
	if (err) {
		pr_err("ksym_hide=%s: each name once, and one of the ksym lines of features\n",
		       ksym_hide);
		return err;
	}
	if (strcmp(rcu, "auto") && strcmp(rcu, "full") &&
	    strcmp(rcu, "within-mount") && strcmp(rcu, "off")) {
		pr_err("rcu=%s: must be auto, full, within-mount or off\n", rcu);
		return -EINVAL;
	}

	ns_debugfs_dir = debugfs_create_dir("namei_shadow", NULL);
	if (IS_ERR(ns_debugfs_dir)) {
		pr_err("cannot create debugfs directory (%ld): is debugfs enabled and allowed?\n",
		       PTR_ERR(ns_debugfs_dir));
		return PTR_ERR(ns_debugfs_dir);
	}

	err = ns_model_init(src, ksym_hide);
	if (err) {
		debugfs_remove_recursive(ns_debugfs_dir);
		return err;
	}
	err = ns_choose_rcu_mode();
	if (err) {
		pr_err("rcu=%s: not possible on this kernel (%s); features would say why: try rcu=auto\n",
		       rcu, ns_rcu_why);
		debugfs_remove_recursive(ns_debugfs_dir);
		return err;
	}
	pr_info("rcu-walk %s (%s)\n", ns_rcu_mode_names[ns_rcu_mode], ns_rcu_why);

	debugfs_create_file("features", 0400, ns_debugfs_dir, NULL,
			    &ns_features_fops);
	debugfs_create_file("resolve", 0600, ns_debugfs_dir, NULL,
			    &resolve_fops);
	debugfs_create_file("batch", 0600, ns_debugfs_dir, NULL, &batch_fops);
	debugfs_create_file("stats", 0600, ns_debugfs_dir, NULL, &ns_stats_fops);
	debugfs_create_file("mismatches", 0600, ns_debugfs_dir, NULL,
			    &mismatches_fops);
	debugfs_create_file("rcu_lookup_check", 0600, ns_debugfs_dir, NULL,
			    &rcu_lookup_check_fops);
	pr_info("loaded; see /sys/kernel/debug/namei_shadow/\n");
	return 0;
}

static void __exit namei_shadow_exit(void)
{
	debugfs_remove_recursive(ns_debugfs_dir);
	ns_clear_mismatches();
}

module_init(namei_shadow_init);
module_exit(namei_shadow_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The namei_shadow developers");
MODULE_DESCRIPTION("Shadow of Linux 4.2 pathname lookup, cross-checked against kern_path()");
