// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow walker: Linux 4.2's pathname lookup, as Neil Brown's
 * "Pathname lookup in Linux" tells it, walked over the running kernel's
 * dcache and mount table.
 *
 * In the article's order: the nameidata and its references, RCU-walk's
 * way out (unlazy, legitimize), mounts, symlinks and the link stack,
 * one component (step_into, lookup_fast, lookup_slow, handle_dots,
 * walk_component), link_path_walk, the start and end of a walk
 * (path_init, complete_walk), the final-component handlers -- lookup,
 * parent, mountpoint, open -- and the retry ladder around them.
 *
 * dcache_model.c is the walker's one door to the dentries, inodes and
 * mounts it walks; what the walk does is told through ns_events.h, to
 * the tracepoints and the walk's record; its witnesses are reported to
 * checker/witness.c.  Where 4.2 and the running kernel differ only by a
 * later fix or hardening, the walker does what the running kernel does
 * (the README lists each such choice), and says so in nd->divergence.
 */

#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "ns_compat.h"
#include "ns_events.h"
#include "ns_model.h"
#include "ns_walk.h"
#include "ns_witness.h"

/* nd->state */
#define NS_JUMPED	0x1	/* the last step was a jump: weak revalidate */
#define NS_ROOT_GRABBED	0x2	/* nd->root holds a reference */
#define NS_ROOT_SET	0x4	/* the kernel's walk would have its root by now */

/* walk_component() and step_into() flags */
#define WALK_TRAILING	0x1	/* the final component */
#define WALK_MORE	0x2	/* an intermediate component */
#define WALK_NOFOLLOW	0x4	/* ".." and the like: never a link */

struct ns_open;
struct ns_parent;

static void set_root(struct nameidata *nd) NS_SYMBOL(set_root);
static void leave_rcu(struct nameidata *nd) NS_SYMBOL(leave_rcu);
static bool legitimize_path(struct nameidata *nd, const struct path *path,
			    unsigned int seq, int bit, u64 *mnts, u64 *dents)
	NS_SYMBOL(legitimize_path);
static bool try_to_unlazy(struct nameidata *nd, enum ns_why why)
	NS_SYMBOL(try_to_unlazy);
static bool try_to_unlazy_next(struct nameidata *nd, struct dentry *child,
			       enum ns_why why)
	NS_SYMBOL(try_to_unlazy_next);
static int nd_jump_root(struct nameidata *nd) NS_SYMBOL(nd_jump_root);
static void terminate_walk(struct nameidata *nd) NS_SYMBOL(terminate_walk);
static int nd_alloc_stack(struct nameidata *nd) NS_SYMBOL(nd_alloc_stack);
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
static const char *mountpoint_last(struct nameidata *nd);
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
static int may_o_create(const struct path *dir) NS_SYMBOL(may_o_create);
static int do_open(struct nameidata *nd, struct ns_open *op) NS_SYMBOL(do_open);
static int path_openat(struct nameidata *nd, unsigned int open_flag,
		       unsigned int scopes, struct ns_open *op)
	NS_SYMBOL(path_openat);

/* ------------------------------------------------------------------ */
/* References, roots and the end of a walk                             */

static void set_root(struct nameidata *nd)
{
	if (nd->task_root) {
		nd->root = *nd->task_root;
		path_get(&nd->root);
	} else {
		ns_vfs_get_root(&nd->root);
	}
	nd->state |= NS_ROOT_GRABBED;
}

/* The walk's path, and its references, become the caller's. */
static void nd_take_path(struct nameidata *nd, struct path *path)
{
	*path = nd->path;
	nd->path.mnt = NULL;
	nd->path.dentry = NULL;
}

/* An answer's references and name go; it can be given again. */
void ns_answer_release(struct ns_answer *a)
{
	if (a->has_path)
		path_put(&a->path);
	a->has_path = false;
	a->path.mnt = NULL;
	a->path.dentry = NULL;
	kfree(a->last);
	a->last = NULL;
}

/* Hand over hand: @path's references replace the walk's current ones. */
static void path_to_nameidata(struct nameidata *nd, struct path *path)
{
	path_put(&nd->path);
	nd->path = *path;
	nd->inode = d_inode(path->dentry);
}

/*
 * Is the injected failure @what due at this step?  Once per walk.  The
 * walker asks at every step; only while a walk that asked for a failure
 * runs is the key on and the question more than a no-op.
 */
static DEFINE_STATIC_KEY_FALSE(ns_injecting);

static bool ns_injected(struct nameidata *nd, enum ns_inject what, int step)
{
	if (!static_branch_unlikely(&ns_injecting) ||
	    nd->inject != what || step < nd->inject_step)
		return false;
	nd->inject = NS_INJECT_NONE;
	return true;
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
 * One of openat2's scopes ends the walk here: the first to do so is the
 * walk's, and the step's.  Returns @err.
 */
static int scope_refuses(struct nameidata *nd, enum ns_scope why, int err)
{
	nd->step.scope = why;
	if (!nd->scope) {
		nd->scope = why;
		nd->scope_step = nd->steps;
	}
	return err;
}

/*
 * Leaving RCU mode for @why where the kernel's walk need not: ".." out
 * of a mount (the kernel chooses the mountpoint without references,
 * through struct mount, which a module cannot), nosymfollow (the kernel
 * says ELOOP in RCU mode), an atime the shadow's rule errs on.  (A
 * mount "within-mount" or managed is step_into_rcu's to tell.)
 */
static void note_own_unlazy(struct nameidata *nd, enum ns_why why)
{
	if (why == NS_WHY_MOUNT_UP || why == NS_WHY_NOSYMFOLLOW ||
	    why == NS_WHY_ATIME)
		nd->left_rcu_own = true;
}

/*
 * LOOKUP_CACHED: an unlazy is refused (the kernel's legitimize_links()
 * refuses them all), and the walk, started again in REF mode, ends in
 * path_init with EAGAIN -- the shadow's own where the kernel would have
 * stayed in RCU mode (nd->left_rcu_own).
 */
static void cached_refuses(struct nameidata *nd)
{
	scope_refuses(nd, NS_SCOPE_CACHED, -EAGAIN);
	if (!nd->restart_reason)
		nd->restart_reason = NS_WHY_SCOPE;
}

/*
 * A reference on a mount the walk stands on in RCU mode, if the mount
 * table has not moved since the walk began: a mount or umount anywhere
 * may have covered what the walk stands on, so it cannot go on from
 * there (as __legitimize_mnt, 1: nothing taken).  The mounts pinned at
 * the start (the start's and the root's) are held already; one crossed
 * in RCU mode ("full") is taken as ns_vfs_legitimize_mnt() does.
 */
int legitimize_mnt(struct nameidata *nd, struct vfsmount *mnt)
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
		   unsigned int child_seq, enum ns_why why)
{
	bool ok = !ns_injected(nd, NS_INJECT_LEGITIMIZE, nd->steps);
	u64 mnts = 0, dents = 0;
	enum ns_dget got;
	int i;

	BUILD_BUG_ON(NS_HELD_CHILD >= BITS_PER_LONG_LONG);

	/*
	 * The witnesses first: a mount table that moved before they are
	 * held fails the walk's own legitimize after them, and the walk
	 * that starts again forgets them.
	 */
	ns_witness_legitimize(nd);
	note_own_unlazy(nd, why);
	if (unlikely(nd->flags & LOOKUP_CACHED)) {
		cached_refuses(nd);
		ok = false;
		child = NULL;
		goto out;
	}
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
out:
	leave_rcu(nd);
	ns_event_unlazy(nd, why, ok);
	if (why && !nd->unlazy_reason) {
		nd->unlazy_reason = why;
		/* search permission is asked before its step begins */
		nd->unlazy_step = nd->steps + (why == NS_WHY_PERMISSION);
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
		nd->restart_reason = NS_WHY_LEGITIMIZE;
	return false;
}

static bool try_to_unlazy(struct nameidata *nd, enum ns_why why)
{
	return unlazy(nd, NULL, 0, why);
}

/* ... and the child just found, which the caller then holds. */
static bool try_to_unlazy_next(struct nameidata *nd, struct dentry *child,
			       enum ns_why why)
{
	return unlazy(nd, child, nd->next_seq, why);
}

/* A failure only RCU mode can have: start again in REF mode. */
static const char *ns_restart(struct nameidata *nd, enum ns_why why)
{
	if (!nd->restart_reason)
		nd->restart_reason = why;
	return ERR_PTR(-ECHILD);
}

/*
 * To the root, for an absolute link body.  RESOLVE_BENEATH refuses it;
 * RESOLVE_NO_XDEV unless the walk is on the root's mount -- and, as the
 * kernel asks before it takes its root, a root not taken yet counts as
 * another mount.
 */
static int nd_jump_root(struct nameidata *nd)
{
	if (unlikely(nd->flags & LOOKUP_BENEATH))
		return scope_refuses(nd, NS_SCOPE_BENEATH, -EXDEV);
	if (unlikely(nd->flags & LOOKUP_NO_XDEV) &&
	    (!(nd->state & NS_ROOT_SET) || nd->path.mnt != nd->root.mnt))
		return scope_refuses(nd, NS_SCOPE_NO_XDEV, -EXDEV);
	if (!nd->root.mnt)
		set_root(nd);
	nd->state |= NS_ROOT_SET;
	if (nd->mode == NS_MODE_RCU) {
		if (ns_vfs_seq_retry_dentry(nd->root.dentry, nd->root_seq))
			return PTR_ERR(ns_restart(nd, NS_WHY_ROOT_SEQ));
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

/* The link on top of the stack is done with: its body and reference go. */
static __always_inline void put_link(struct nameidata *nd)
{
	struct ns_saved *last = nd->stack + --nd->depth;

	ns_event_link_popped(nd);
	do_delayed_call(&last->done);
	if (nd->mode != NS_MODE_RCU)
		path_put(&last->link);
}

static void terminate_walk(struct nameidata *nd)
{
	struct path path;

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
		nd_take_path(nd, &path);
		path_put(&path);
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

/*
 * follow_managed: from a dentry just found, cross whatever is mounted
 * on it, down to the top of the stack, asking d_manage() first where
 * the filesystem wants that (DCACHE_MANAGE_TRANSIT; -EISDIR means "stop
 * here"), and trigger an uncovered automount point when the walk needs
 * what is below it (intermediate components, LOOKUP_DIRECTORY,
 * LOOKUP_AUTOMOUNT, open and create intents), counting it against the
 * links as the kernel does.  @path holds references on both parts.
 * RESOLVE_NO_XDEV refuses a transit the filesystem manages, an automount
 * and the first mount crossed, as 7.2 does (6.x crossed the whole stack
 * first: the same EXDEV, nothing else to see).
 */
static int follow_managed(struct nameidata *nd, struct path *path)
{
	const unsigned int want_mount = LOOKUP_PARENT | LOOKUP_DIRECTORY |
		LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_AUTOMOUNT;
	bool no_xdev = nd->flags & LOOKUP_NO_XDEV;
	struct path before;
	int err;

	while (ns_vfs_is_managed(path->dentry)) {
		if (no_xdev && ns_vfs_manages_transit(path->dentry))
			return scope_refuses(nd, NS_SCOPE_NO_XDEV, -EXDEV);
		err = ns_vfs_manage(path);
		if (err == -EISDIR) {
			nd->step.managed_stop = true;
			break;
		}
		if (err < 0)
			return err;
		if (ns_vfs_mount_down(path)) {
			nd->step.mounts_down++;
			ns_event_mount(nd, NS_MOUNT_DOWN, path->dentry);
			nd->state |= NS_JUMPED;
			if (no_xdev)
				return scope_refuses(nd, NS_SCOPE_NO_XDEV, -EXDEV);
			continue;
		}
		if (!ns_vfs_needs_automount(path))
			break;
		if (!(nd->flags & want_mount) && d_inode(path->dentry))
			break;
		if (no_xdev)
			return scope_refuses(nd, NS_SCOPE_NO_XDEV, -EXDEV);
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
		ns_event_mount(nd, NS_MOUNT_AUTOMOUNT, path->dentry);
		if (path_equal(path, &before))
			break;
		nd->state |= NS_JUMPED;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Symlinks                                                            */

/* The link stack outgrows the nameidata's own slots: room for all 40. */
static int nd_alloc_stack(struct nameidata *nd)
{
	struct ns_saved *p;

	p = kmalloc_array(NS_MAXSYMLINKS, sizeof(*p),
			  nd->mode == NS_MODE_RCU ? GFP_ATOMIC : GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	memcpy(p, nd->internal, sizeof(nd->internal));
	nd->stack = p;
	return 0;
}

/* Room on the stack for one more link: asked at every link, inline. */
static __always_inline int reserve_stack(struct nameidata *nd)
{
	if (likely(nd->depth < NS_EMBEDDED_LEVELS || nd->stack != nd->internal))
		return 0;
	return nd_alloc_stack(nd);
}

/*
 * may_follow_link: fs.protected_symlinks, for the trailing link only.
 * Following is refused (EACCES, root included) when the sysctl is on,
 * the follower's fsuid does not own the link, the directory holding it
 * is sticky and world-writable, and that directory's owner does not own
 * the link either.
 */
#define NS_STICKY_WORLD_WRITABLE (S_ISVTX | 0002)	/* sticky, others may write */

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
 * Is this link magic (procfs' fd/, cwd, root, exe, ns/ ...)?  Never
 * one whose body is kept inline: only ->get_link can jump.  Else its
 * operations are those of the magic links fingerprinted at load, or
 * -- to be safe -- those of no string link and it is a procfs link
 * without an inline body.
 */
static bool is_magic_link(const struct inode *inode)
{
	if (ns_vfs_link_inline(inode))
		return false;	/* its body is read, ->get_link never asked */
	switch (ns_vfs_link_ops(inode)) {
	case NS_LINK_OPS_MAGIC:
		return true;
	case NS_LINK_OPS_STRING:
		return false;
	case NS_LINK_OPS_OTHER:
		break;
	}
	return ns_vfs_procfs_link_without_body(inode);
}

/*
 * nd_jump_link's checks, once the link's ->get_link found where it
 * jumps: RESOLVE_NO_MAGICLINKS refuses every magic link, RESOLVE_NO_XDEV
 * one that leaves the walk's mount, and a scoped walk (BENEATH, IN_ROOT)
 * any, as not known to stay inside.
 */
static int may_jump_magic(struct nameidata *nd, const struct path *to)
{
	if (nd->flags & LOOKUP_NO_MAGICLINKS)
		return scope_refuses(nd, NS_SCOPE_NO_MAGICLINKS, -ELOOP);
	if ((nd->flags & LOOKUP_NO_XDEV) && to->mnt != nd->path.mnt)
		return scope_refuses(nd, NS_SCOPE_NO_XDEV, -EXDEV);
	if (nd->flags & (LOOKUP_BENEATH | LOOKUP_IN_ROOT))
		return scope_refuses(nd, NS_SCOPE_MAGIC, -EXDEV);
	return 0;
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
	if (!err) {
		err = may_jump_magic(nd, &res);
		if (err)
			path_put(&res);
	}
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

	nd->step.link = true;
	ns_event_link_pushed(nd, res);
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
static inline const char *ns_link_got(struct nameidata *nd, const char *res)
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
 * Would following a link touch its atime?  The kernel asks
 * atime_needs_update(), which is not exported: this is its rule for the
 * common mount options (noatime, nodiratime does not apply to links,
 * relatime: only when atime is not newer than mtime and ctime, or a
 * day old), erring towards "yes", which only costs an unlazy.
 */
static bool link_needs_atime_update(struct vfsmount *mnt,
				    const struct inode *inode)
{
	struct ns_vfs_atime a;
	struct timespec64 now;

	ns_vfs_atime_take(&a, mnt, inode);
	if (a.never)
		return false;
	if (!a.relatime)
		return true;
	if (timespec64_compare(&a.mtime, &a.atime) >= 0 ||
	    timespec64_compare(&a.ctime, &a.atime) >= 0)
		return true;
	ktime_get_coarse_real_ts64(&now);
	return now.tv_sec - a.atime.tv_sec >= 24 * 60 * 60;
}

/*
 * pick_link in RCU mode, its checks in pick_link's order.  It stays in
 * RCU mode for what can be done without blocking or references: room
 * on the stack, no atime to update, a body the filesystem keeps inline
 * (i_link) or gives without a dentry (->get_link(NULL, ...)).  Returns
 * NS_WHY_NONE when it handled the link (*@res set), or why REF mode must
 * take over: the caller unlazies and pick_link() starts over, so
 * nothing is changed before that is known.
 */
static enum ns_why pick_link_rcu(struct nameidata *nd, const struct path *found,
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
		return NS_WHY_NONE;
	}
	/* in RCU mode only @inode, read before d_seq was checked, is trusted */
	if ((flags & WALK_TRAILING) && may_follow_link(nd, &link, inode))
		return NS_WHY_PROTECTED;
	if (nd->flags & LOOKUP_NO_SYMLINKS) {
		nd->total_link_count++;
		*res = ERR_PTR(scope_refuses(nd, NS_SCOPE_NO_SYMLINKS, -ELOOP));
		return NS_WHY_NONE;
	}
	if (ns_vfs_nosymfollow(link.mnt) && !nd->semantics_42)
		return NS_WHY_NOSYMFOLLOW;
	if (is_magic_link(inode))
		return NS_WHY_MAGIC;
	if (reserve_stack(nd))
		return NS_WHY_ALLOC;
	if (link_needs_atime_update(link.mnt, inode))
		return NS_WHY_ATIME;
	err = may_follow_link_lsm(nd, link.dentry, inode);
	if (err == -ECHILD)
		return NS_WHY_LSM;
	body = err ? ERR_PTR(err) : ns_vfs_link_body(NULL, inode, &done);
	if (body == ERR_PTR(-ECHILD))
		return NS_WHY_LINK;
	nd->total_link_count++;
	if (ns_vfs_nosymfollow(link.mnt))
		nd->divergence = "nosymfollow";
	if (IS_ERR(body)) {
		*res = body;
		return NS_WHY_NONE;
	}
	last = nd->stack + nd->depth++;
	last->link = link;
	last->seq = nd->next_seq;
	last->name = NULL;
	last->done = done;
	*res = ns_link_got(nd, body);
	return NS_WHY_NONE;
}

/*
 * __follow_mount_rcu: cross, without references, the mounts stacked on
 * @path's dentry, each root's d_seq sampled into nd->next_seq before its
 * inode is read.  False when REF mode must do it: a dentry the
 * filesystem manages (d_manage) or an automount point, a root whose d_seq
 * moved, or mount_lock moved since the walk began: -1.  Otherwise the
 * number of mounts crossed.  Only in "full" RCU mode; "within-mount"
 * always says -1, and so does RESOLVE_NO_XDEV, as the kernel's does.
 */
static int follow_mount_rcu(struct nameidata *nd, struct path *path,
			    struct inode **inode)
{
	struct vfsmount *mounted;
	enum ns_mounted state;
	int crossed = 0;

	if (nd->flags & LOOKUP_NO_XDEV)
		return -1;
	/* the kernel would go on in RCU mode, asking d_manage() if need be */
	if (!nd->rcu_mounts) {
		nd->left_rcu_own = true;
		return -1;
	}
	for (;;) {
		state = ns_vfs_mounted_rcu(path->dentry);
		if (state == NS_MOUNTED_MANAGED) {
			nd->left_rcu_own = true;
			return -1;
		}
		if (state == NS_MOUNTED_NONE)
			break;
		mounted = ns_vfs_lookup_mnt_rcu(path->mnt, path->dentry);
		if (!mounted)
			break;		/* mounted in another namespace */
		path->mnt = mounted;
		path->dentry = ns_vfs_mount_root(mounted);
		nd->next_seq = ns_vfs_seq_begin_dentry(path->dentry);
		*inode = ns_vfs_inode_rcu(path->dentry);
		crossed++;
		ns_event_mount(nd, NS_MOUNT_DOWN, path->dentry);
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
	struct inode *inode = ns_vfs_inode_rcu(dentry);
	unsigned int seq = nd->next_seq;
	enum ns_why why = NS_WHY_NONE;
	int crossed = 0;

	if (ns_vfs_seq_retry_dentry(dentry, seq) ||
	    ns_injected(nd, NS_INJECT_DSEQ, nd->steps)) {
		*res = ns_restart(nd, NS_WHY_DSEQ);
		return true;
	}
	ns_witness(nd, nd->path.mnt, dentry, seq);
	if (ns_vfs_is_managed(dentry)) {
		crossed = follow_mount_rcu(nd, &path, &inode);
		if (crossed < 0)
			why = NS_WHY_MOUNT;
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
		if (why == NS_WHY_NONE)
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
	if (nd->flags & LOOKUP_NO_SYMLINKS) {
		err = scope_refuses(nd, NS_SCOPE_NO_SYMLINKS, -ELOOP);
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
	if (is_magic_link(inode))
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

	res = ns_vfs_link_body(link->dentry, inode, &last->done);
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
 * steps onto it.  Whether the running kernel has the rule was asked of
 * it at load (kernel_rules.c); where it could not say, the shadow steps
 * onto the name and says the rule was undecided.
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
	switch (ns_vfs_refwalk_refuses_going_names()) {
	case NS_RULE_NO:
		return false;
	case NS_RULE_UNDECIDED:
		nd->undecided = "unlink-may-reveal";
		return false;
	case NS_RULE_YES:
		break;
	}
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
		if (!try_to_unlazy(nd, NS_WHY_MISS))
			return ERR_PTR(-ECHILD);
		return NULL;
	}
	if (ns_vfs_seq_retry_dentry(parent, nd->seq))
		return ERR_CAST(ns_restart(nd, NS_WHY_DSEQ));
	nd->next_seq = seq;
	nd->step.how = NS_HOW_DCACHE;
	*status = 1;
	if (!ns_vfs_revalidates(dentry))
		return dentry;
	*status = ns_vfs_revalidate(nd->inode, &nd->last, dentry, nd->flags);
	if (*status > 0) {
		nd->step.how = NS_HOW_REVALIDATED;
		return dentry;
	}
	if (!try_to_unlazy_next(nd, dentry, NS_WHY_REVALIDATE))
		return ERR_PTR(-ECHILD);
	if (*status == -ECHILD)
		*status = ns_vfs_revalidate(nd->inode, &nd->last, dentry, nd->flags);
	return dentry;
}

/*
 * lookup_fast: the dcache only, asking the filesystem to revalidate a
 * hit where it wants that (DCACHE_OP_REVALIDATE).  NULL means "not
 * known here": ask the filesystem.
 */
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
	nd->step.how = NS_HOW_DCACHE;
	if (!ns_vfs_revalidates(dentry))
		return dentry;
	status = ns_vfs_revalidate(nd->inode, &nd->last, dentry, nd->flags);
	if (status > 0) {
		nd->step.how = NS_HOW_REVALIDATED;
		return dentry;
	}
invalid:
	if (!status)
		ns_vfs_invalidate(dentry);
	dput(dentry);
	nd->step.how = NS_HOW_INVALIDATED;
	return status ? ERR_PTR(status) : NULL;
}

static struct dentry *lookup_slow(struct nameidata *nd)
{
	nd->step.how = NS_HOW_SLOW;
	return ns_vfs_lookup_slow(nd->path.dentry, &nd->last, nd->flags, true);
}

/* A name: the dcache first, else the filesystem. */
static struct dentry *lookup_component(struct nameidata *nd)
{
	struct dentry *dentry = lookup_fast(nd);

	return dentry ? dentry : lookup_slow(nd);
}

/*
 * ".." at the walk's root stays there.  (The suite's mutation build,
 * NS_TEST_BREAK_DOTDOT, forgets this, to prove the tests notice.)
 */
static bool dotdot_at_root(struct nameidata *nd)
{
	if (NS_TEST_BREAK_DOTDOT || !path_equal(&nd->path, &nd->root))
		return false;
	nd->step.how = NS_HOW_DOTDOT_ROOT;
	return true;
}

/* ".." where there is no higher: it stays, but RESOLVE_BENEATH refuses. */
static struct dentry *dotdot_stays(struct nameidata *nd)
{
	if (nd->flags & LOOKUP_BENEATH)
		return ERR_PTR(scope_refuses(nd, NS_SCOPE_BENEATH, -EXDEV));
	return dget(nd->path.dentry);
}

/*
 * choose_mountpoint: from the root of the mount the walk is in up to
 * where it is mounted, and on up while that is a mount's root too.
 * False -- the walk stays where it is, as the kernel's does -- when the
 * climb reaches the walk's root or the namespace's top mount.  Out of
 * line: its path is not on the stack for the rest of the step.
 */
static noinline bool choose_mountpoint(struct nameidata *nd)
{
	struct path path = nd->path;
	int up = 0;

	path_get(&path);
	for (;;) {
		if (!ns_vfs_mount_up(&path)) {
			nd->step.how = NS_HOW_DOTDOT_NSROOT;
			break;
		}
		up++;
		if (path_equal(&path, &nd->root)) {
			nd->step.how = NS_HOW_DOTDOT_ROOT;
			break;
		}
		if (!ns_vfs_is_mount_root(&path)) {
			path_to_nameidata(nd, &path);
			nd->step.mounts_up += up;
			while (up--)
				ns_event_mount(nd, NS_MOUNT_UP, nd->path.dentry);
			return true;
		}
	}
	path_put(&path);
	return false;
}

/*
 * follow_dotdot: stay at the walk's root; at the root of a mount, climb
 * to its mountpoint (choose_mountpoint); then take the parent, which
 * must still be inside the mount (a bind mount escaped by rename gives
 * ENOENT).  RESOLVE_NO_XDEV refuses the climb out of a mount.
 */
static struct dentry *follow_dotdot(struct nameidata *nd)
{
	struct dentry *parent;

	if (dotdot_at_root(nd))
		return dotdot_stays(nd);
	if (ns_vfs_is_mount_root(&nd->path)) {
		if (!choose_mountpoint(nd))
			return dotdot_stays(nd);
		if (nd->flags & LOOKUP_NO_XDEV)
			return ERR_PTR(scope_refuses(nd, NS_SCOPE_NO_XDEV, -EXDEV));
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

	if (dotdot_at_root(nd)) {
		/* RESOLVE_BENEATH's EXDEV is REF mode's to give */
		if (nd->flags & LOOKUP_BENEATH)
			return ERR_CAST(ns_restart(nd, NS_WHY_SCOPE));
		nd->next_seq = nd->seq;
		return old;
	}
	if (ns_vfs_is_mount_root(&nd->path)) {
		/* choosing the mountpoint needs struct mount: REF mode does */
		if (!try_to_unlazy(nd, NS_WHY_MOUNT_UP))
			return ERR_PTR(-ECHILD);
		return NULL;
	}
	parent = ns_vfs_parent_rcu(old);
	nd->next_seq = ns_vfs_seq_begin_dentry(parent);
	/* the parent's d_seq is read before the child's is checked again */
	smp_rmb();
	if (ns_vfs_seq_retry_dentry(old, nd->seq))
		return ERR_CAST(ns_restart(nd, NS_WHY_DSEQ));
	if (unlikely(!ns_vfs_connected(nd->path.mnt, parent)))
		return ERR_CAST(ns_restart(nd, NS_WHY_DISCONNECTED));
	return parent;
}

/*
 * After ".." in a scoped walk (BENEATH, IN_ROOT): a rename or a mount
 * anywhere since the walk began may have let it climb out of the root,
 * so the walk fails with EAGAIN for the caller to try again.
 */
static const char *dotdot_may_have_escaped(struct nameidata *nd)
{
	if (ns_vfs_mount_seq_retry(nd->m_seq))
		return ERR_PTR(scope_refuses(nd, NS_SCOPE_MOUNT_LOCK, -EAGAIN));
	if (ns_vfs_rename_seq_retry(nd->r_seq))
		return ERR_PTR(scope_refuses(nd, NS_SCOPE_RENAME_LOCK, -EAGAIN));
	return NULL;
}

static const char *handle_dots(struct nameidata *nd, int type)
{
	struct dentry *parent = NULL;
	const char *res;

	if (type != NS_LAST_DOTDOT) {
		nd->step.how = NS_HOW_DOT;
		return NULL;
	}
	nd->step.how = NS_HOW_DOTDOT;
	if (!nd->root.mnt)
		set_root(nd);
	nd->state |= NS_ROOT_SET;
	/* NULL from RCU mode: it unlazied, REF mode goes on */
	if (nd->mode == NS_MODE_RCU)
		parent = follow_dotdot_rcu(nd);
	if (!parent)
		parent = follow_dotdot(nd);
	if (IS_ERR(parent))
		return ERR_CAST(parent);
	res = step_into(nd, WALK_NOFOLLOW, parent);
	if (res || !(nd->flags & (LOOKUP_BENEATH | LOOKUP_IN_ROOT)))
		return res;
	return dotdot_may_have_escaped(nd);
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
	ns_event_step_begin(nd);
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
	dentry = lookup_component(nd);
	if (IS_ERR(dentry)) {
		res = ERR_CAST(dentry);
		goto out;
	}
	if (!(flags & WALK_MORE) && nd->depth)
		put_link(nd);
	res = step_into(nd, flags, dentry);
out:
	ns_event_step_end(nd, IS_ERR(res) ? PTR_ERR(res) : 0);
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
		if (!try_to_unlazy(nd, NS_WHY_PERMISSION))
			return -ECHILD;
		if (err != -ECHILD)
			return err;
	}
	return ns_vfs_may_exec(&nd->path);
}

/*
 * Split off the next component of @name into nd->last, hashed in the
 * same pass as the dcache hashes it for this parent, and say what kind
 * of component it is; a normal name is hashed again by a filesystem
 * that has its own hash.  Returns the rest of the name (at the '/' or
 * NUL after it).
 */
static const char *hash_component(struct nameidata *nd, const char *name,
				  int *err)
{
	u64 hash_len = ns_vfs_hash_len(nd->path.dentry, name);
	const char *end = name + hashlen_len(hash_len);

	nd->last.hash_len = hash_len;
	nd->last.name = name;
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
	*err = ns_vfs_d_hash(nd->path.dentry, &nd->last);
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
				nd->dir_mode = ns_vfs_mode(nd->inode);
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
			if (nd->mode == NS_MODE_RCU && !try_to_unlazy(nd, NS_WHY_ENOTDIR))
				return -ECHILD;
			return -ENOTDIR;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Start and end of a walk                                             */

static int path_init(struct nameidata *nd, unsigned int flags)
{
	const char *s = nd->name;
	enum ns_start_at at;
	struct path start;

	nd->last_type = NS_LAST_ROOT;	/* no component yet */
	nd->state = NS_JUMPED;
	nd->depth = 0;
	nd->total_link_count = 0;
	nd->stack = nd->internal;
	nd->root.mnt = NULL;
	nd->root.dentry = NULL;
	nd->rcu_completed = false;
	nd->unlazy_reason = NS_WHY_NONE;
	/* RCU mode only once rcu_read_lock() is taken, below */
	nd->mode = nd->attempt == NS_MODE_REVAL ? NS_MODE_REVAL : NS_MODE_REF;
	/* the filesystem is told the mode: ->d_revalidate sees these flags */
	if (nd->attempt == NS_MODE_RCU)
		flags |= LOOKUP_RCU;
	else if (nd->attempt == NS_MODE_REVAL)
		flags |= LOOKUP_REVAL;
	nd->flags = flags;
	/* LOOKUP_CACHED needs RCU mode: the caller is told to try again */
	if ((flags & LOOKUP_CACHED) && nd->attempt != NS_MODE_RCU)
		return scope_refuses(nd, NS_SCOPE_CACHED, -EAGAIN);
	nd->m_seq = ns_vfs_mount_seq_begin();
	nd->r_seq = ns_vfs_rename_seq_begin();

	if (*s == '/' && !(flags & LOOKUP_IN_ROOT)) {
		if (flags & LOOKUP_BENEATH)
			return scope_refuses(nd, NS_SCOPE_BENEATH, -EXDEV);
		set_root(nd);
		nd->state |= NS_ROOT_SET;
		start = nd->root;
		path_get(&start);
		at = NS_AT_ROOT;
	} else if (nd->start) {
		if (nd->start_fd && *s && !d_can_lookup(nd->start->dentry))
			return -ENOTDIR;
		start = *nd->start;
		path_get(&start);
		at = nd->start_fd ? NS_AT_FD : NS_AT_CWD;
	} else {
		ns_vfs_get_pwd(&start);
		at = NS_AT_CWD;
	}
	/* a scoped walk's root is its start */
	if (flags & (LOOKUP_BENEATH | LOOKUP_IN_ROOT)) {
		nd->root = start;
		path_get(&nd->root);
		nd->state |= NS_ROOT_GRABBED | NS_ROOT_SET;
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
		enter_rcu(nd);
		nd->path = start;
		nd->seq = ns_vfs_seq_begin_dentry(start.dentry);
	}
	nd->inode = d_inode(nd->path.dentry);
	ns_witness_here(nd);
	ns_event_start(nd, at);
	return 0;
}

/* complete_walk: after a jump, ask the filesystem whether the end is still good. */
static int complete_walk(struct nameidata *nd)
{
	int status;

	if (nd->mode == NS_MODE_RCU) {
		/* the walk is done: its end may be held, cached or not */
		nd->flags &= ~LOOKUP_CACHED;
		if (!try_to_unlazy(nd, NS_WHY_NONE))
			return -ECHILD;
		nd->rcu_completed = true;
	}
	/* the kernel's last check that a scoped walk stayed inside */
	if ((nd->flags & (LOOKUP_BENEATH | LOOKUP_IN_ROOT)) &&
	    !path_is_under(&nd->path, &nd->root))
		return scope_refuses(nd, NS_SCOPE_ESCAPED, -EXDEV);
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

	ns_event_step_begin(nd);
	nd->step.how = NS_HOW_MOUNTS;
	if (nd->mode != NS_MODE_RCU)
		dget(nd->path.dentry);
	nd->next_seq = nd->seq;
	res = step_into(nd, WALK_NOFOLLOW, nd->path.dentry);
	ns_event_step_end(nd, PTR_ERR_OR_ZERO(res));
	return PTR_ERR_OR_ZERO(res);
}

/* The final-component handlers of path_lookupat, path_mountpoint, path_openat. */
enum ns_last_handler { NS_LAST_LOOKUP, NS_LAST_MOUNTPOINT, NS_LAST_OPEN };

static const char *handle_last(struct nameidata *nd, enum ns_last_handler h,
			       struct ns_open *op)
{
	switch (h) {
	case NS_LAST_MOUNTPOINT:
		return mountpoint_last(nd);
	case NS_LAST_OPEN:
		return open_last_lookups(nd, op);
	case NS_LAST_LOOKUP:
		break;
	}
	return lookup_last(nd);
}

/*
 * The whole name: link_path_walk up to the last component, then its
 * handler -- and while that hands back a trailing link's body, the
 * body in turn, as the kernel's path_*at loops do.
 */
static int walk_name(struct nameidata *nd, enum ns_last_handler h,
		     struct ns_open *op)
{
	const char *s = nd->name;
	int err;

	while (!(err = link_path_walk(s, nd))) {
		s = handle_last(nd, h, op);
		if (!s)
			return 0;
		if (IS_ERR(s))
			return PTR_ERR(s);
	}
	return err;
}

/*
 * path_lookupat: the walk, its last component, and the checks at its
 * end.  LOOKUP_MOUNTPOINT walks this way too in the running kernels
 * (4.2 had path_mountpoint of its own).
 */
static int path_lookupat(struct nameidata *nd, unsigned int flags,
			 struct path *path)
{
	int err;

	err = path_init(nd, flags);
	if (!err)
		err = walk_name(nd, NS_LAST_LOOKUP, NULL);
	if (!err && (nd->flags & LOOKUP_MOUNTPOINT)) {
		err = handle_lookup_down(nd);
		nd->state &= ~NS_JUMPED;	/* no weak revalidation: umount */
	}
	if (!err)
		err = complete_walk(nd);
	if (!err && (nd->flags & LOOKUP_DIRECTORY) &&
	    !d_can_lookup(nd->path.dentry))
		err = -ENOTDIR;
	if (!err)
		nd_take_path(nd, path);
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
		nd_take_path(nd, parent->path);
	}
	terminate_walk(nd);
	return err;
}

/* To the top of the mounts stacked on @path; returns how many it crossed. */
static int mount_down(struct nameidata *nd, struct path *path)
{
	int crossed = 0;

	while (ns_vfs_mount_down(path)) {
		crossed++;
		ns_event_mount(nd, NS_MOUNT_DOWN, path->dentry);
	}
	return crossed;
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
	if (nd->mode == NS_MODE_RCU && !try_to_unlazy(nd, NS_WHY_MOUNTPOINT))
		return ERR_PTR(-ECHILD);
	if (nd->last_type == NS_LAST_ROOT)
		return NULL;
	ns_event_step_begin(nd);
	if (nd->last_type != NS_LAST_NORM) {
		if (nd->depth)
			put_link(nd);
		res = handle_dots(nd, nd->last_type);
		goto out;
	}
	nd->step.how = NS_HOW_DCACHE;
	dentry = ns_vfs_lookup_cached(nd->path.dentry, &nd->last);
	if (!dentry) {
		nd->step.how = NS_HOW_SLOW;
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
	nd->step.mounts_down += mount_down(nd, &path);
	path_to_nameidata(nd, &path);
	res = NULL;
out:
	ns_event_step_end(nd, IS_ERR(res) ? PTR_ERR(res) : 0);
	return res;
}

static int path_mountpoint(struct nameidata *nd, unsigned int flags,
			   struct path *path)
{
	int err;

	nd->divergence = "path-mountpoint";
	err = path_init(nd, flags);
	if (!err)
		err = walk_name(nd, NS_LAST_MOUNTPOINT, NULL);
	if (!err) {
		nd_take_path(nd, path);
		mount_down(nd, path);
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
	*lookup_flags &= NS_LOOKUP_SCOPES;
	if (open_flag & O_DIRECTORY)
		*lookup_flags |= LOOKUP_DIRECTORY;
	if (!(open_flag & O_NOFOLLOW))
		*lookup_flags |= LOOKUP_FOLLOW;
	/* RESOLVE_CACHED: an open that may create or truncate is not tried */
	if ((*lookup_flags & LOOKUP_CACHED) && (open_flag & (O_CREAT | O_TRUNC)))
		return scope_refuses(nd, NS_SCOPE_CACHED, -EAGAIN);
	return 0;
}

/*
 * may_o_create, without creating: a live directory on a writable
 * mount, write and search permission on it, and a filesystem that can
 * create there.
 */
static int may_o_create(const struct path *dir)
{
	struct inode *inode = d_inode(dir->dentry);
	int err;

	if (ns_vfs_dir_is_dead(inode))
		return -ENOENT;
	err = ns_vfs_may_write_mount(dir->mnt);
	if (err)
		return err;
	err = ns_vfs_permission(dir, MAY_WRITE | MAY_EXEC);
	if (err)
		return err;
	return ns_vfs_can_create(inode) ? 0 : -EACCES;
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

	ns_event_step_begin(nd);
	if (nd->last.name[nd->last.len]) {
		res = ERR_PTR(-EISDIR);
		goto out;
	}
	dentry = lookup_component(nd);
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
	err = may_o_create(&nd->path);
	if (err) {
		res = ERR_PTR(err);
		goto out;
	}
	op->create = true;
	nd->step.how = NS_HOW_WOULD_CREATE;
	res = NULL;
out:
	ns_event_step_end(nd, IS_ERR(res) ? PTR_ERR(res) : 0);
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
	if (nd->mode == NS_MODE_RCU && !try_to_unlazy(nd, NS_WHY_CREATE))
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
	switch (ns_vfs_mode(inode) & S_IFMT) {
	case S_IFLNK:
		return -ELOOP;
	case S_IFDIR:
		if (acc_mode & MAY_WRITE)
			return -EISDIR;
		break;
	case S_IFBLK:
	case S_IFCHR:
		if (ns_vfs_mount_nodev(nd->path.mnt))
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

/*
 * vfs_open()'s refusals that the object and its mount decide, without
 * opening it: write access to a file being executed (ETXTBSY; O_TRUNC
 * takes write access too), write access on a read-only mount (EROFS,
 * but for devices, FIFOs and sockets), and a socket, whose inode's open
 * is sock_no_open() (ENXIO).
 */
static int open_refusal(const struct path *path, unsigned int flag)
{
	struct inode *inode = d_inode(path->dentry);
	bool write = (flag & O_ACCMODE) != O_RDONLY;

	if (S_ISREG(ns_vfs_mode(inode)) && (write || (flag & O_TRUNC)) &&
	    ns_vfs_being_executed(inode))
		return -ETXTBSY;
	if (write && !special_file(ns_vfs_mode(inode)) &&
	    ns_vfs_mount_readonly(path->mnt))
		return -EROFS;
	if (S_ISSOCK(ns_vfs_mode(inode)))
		return -ENXIO;
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
	return open_refusal(&nd->path, flag);
}

/* @scopes: openat2's RESOLVE_*, as LOOKUP_* flags */
static int path_openat(struct nameidata *nd, unsigned int open_flag,
		       unsigned int scopes, struct ns_open *op)
{
	unsigned int flags = scopes;
	int err;

	err = build_open_flags(nd, open_flag, op, &flags);
	if (err)
		return err;
	err = path_init(nd, flags);
	/* do_o_path: O_PATH is a plain lookup */
	if (!err)
		err = walk_name(nd, (op->open_flag & O_PATH) ? NS_LAST_LOOKUP :
				NS_LAST_OPEN, op);
	if (!err)
		err = do_open(nd, op);
	return err;
}

static int ns_open_dry_run(struct nameidata *nd, unsigned int open_flag,
			   unsigned int scopes, struct ns_answer *a)
{
	struct ns_open op = {};
	int err;

	err = path_openat(nd, open_flag, scopes, &op);
	if ((op.reached || op.create) && nd->path.dentry) {
		a->action = op.create ? "create" : "open";
		nd_take_path(nd, &a->path);
		a->has_path = true;
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

/*
 * One attempt of the walk @req asks for, in the mode nd->attempt says.
 * The answer goes into @a: a path with references, or an errno.
 */
static void ns_walk_attempt(const struct ns_walk_req *req, struct ns_answer *a,
			    struct nameidata *nd, unsigned int flags)
{
	struct ns_parent parent = {
		.path = &a->path, .last = &a->last, .type = &a->last_type,
	};

	switch (req->kind) {
	case NS_WALK_LOOKUP:
		a->err = path_lookupat(nd, flags, &a->path);
		break;
	case NS_WALK_MOUNTPOINT:
		if (req->semantics_42)
			a->err = path_mountpoint(nd, flags, &a->path);
		else
			a->err = path_lookupat(nd, flags | LOOKUP_MOUNTPOINT,
					       &a->path);
		break;
	case NS_WALK_PARENT:
		a->err = path_parentat(nd, flags, &parent);
		break;
	case NS_WALK_OPEN:
		ns_answer_release(a);
		a->action = NULL;
		a->err = ns_open_dry_run(nd, req->open_flag,
					 flags & NS_LOOKUP_SCOPES, a);
		break;
	}
	if (req->kind != NS_WALK_OPEN)
		a->has_path = !a->err;
}

/*
 * filename_lookup and friends: the retry ladder.  A walk in RCU mode
 * that cannot go on is done again in REF mode; one failing with ESTALE
 * once more with LOOKUP_REVAL.  The nameidata is the caller's (@nd),
 * not on the stack: with what watches the walk it is 360 bytes, a third
 * of the walker's stack budget; nd->wit and nd->rec are the watchers
 * the caller attached, kept.
 */
void ns_walk(const struct ns_walk_req *req, struct nameidata *nd,
	     struct ns_answer *a, struct ns_walk_info *wi)
{
	unsigned int flags = req->flags & ~(LOOKUP_EMPTY | LOOKUP_REVAL);
	struct ns_witnesses *wit = nd->wit;
	struct ns_record *rec = nd->rec;
	const char *reval_divergence = NULL;

	memset(nd, 0, sizeof(*nd));
	/* RESOLVE_IN_ROOT: an absolute name starts at the start too */
	nd->start = req->name[0] != '/' || (req->flags & LOOKUP_IN_ROOT) ?
		req->start : NULL;
	nd->start_fd = req->start_fd;
	nd->task_root = req->root;
	nd->name = req->name;
	nd->wit = wit;
	nd->rec = rec;
	nd->semantics_42 = req->semantics_42;
	nd->inject = req->inject;
	nd->inject_step = req->inject_step;
	if (req->inject)
		static_branch_inc(&ns_injecting);

	if (req->flags & LOOKUP_REVAL)
		nd->attempt = NS_MODE_REVAL;
	else if (req->rcu != NS_RCU_OFF)
		nd->attempt = NS_MODE_RCU;
	else
		nd->attempt = NS_MODE_REF;
	nd->mode = nd->attempt == NS_MODE_REVAL ? NS_MODE_REVAL : NS_MODE_REF;
	nd->rcu_mounts = req->rcu == NS_RCU_FULL;
	/* not walked in RCU mode, or made to fail: the walk's mode is its own */
	nd->left_rcu_own = nd->attempt != NS_MODE_RCU || req->inject;
	a->last_type = -1;
	if (ns_walk_name_refused(req->name, req->flags)) {
		a->err = -ENOENT;
		goto out;
	}
	for (;;) {
		nd->steps = 0;
		/* a rule that sent the walk round with LOOKUP_REVAL still names it */
		nd->divergence = reval_divergence;
		ns_event_walk_start(nd, req->kind, flags);
		ns_walk_attempt(req, a, nd, flags);
		/* filename_lookup's ladder: RCU, then REF, then REF|REVAL */
		if (a->err == -ECHILD && nd->attempt == NS_MODE_RCU) {
			wi->restarts++;
			wi->restart_reason = nd->restart_reason ?: NS_WHY_ECHILD;
			nd->attempt = NS_MODE_REF;
			ns_event_restart(wi->restart_reason, NS_MODE_REF);
			ns_witness_restart(nd);
			continue;
		}
		if (a->err == -ESTALE && nd->attempt != NS_MODE_REVAL) {
			reval_divergence = nd->divergence;
			wi->restarts++;
			wi->restart_reason = NS_WHY_ESTALE;
			wi->reval = true;
			nd->attempt = NS_MODE_REVAL;
			ns_event_restart(NS_WHY_ESTALE, NS_MODE_REVAL);
			ns_witness_restart(nd);
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
	wi->links = nd->total_link_count;
	wi->scope = nd->scope;
	wi->scope_step = nd->scope_step;
	wi->left_rcu_own = nd->left_rcu_own;
	wi->undecided = nd->undecided;
	if (req->inject)
		static_branch_dec(&ns_injecting);
}

