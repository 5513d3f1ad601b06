/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface of dcache_model.c, the shadow walker's
 * one door to the live dcache and mount table.
 */
#ifndef NS_MODEL_H
#define NS_MODEL_H

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/jump_label.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/seqlock.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include "ns_compat.h"
#include "ns_hash.h"
#include "ns_ksyms.h"

struct dentry;
struct inode;
struct path;
struct qstr;
struct seq_file;
struct vfsmount;

int ns_model_init(enum ns_ksym_source src, const char *hide);
void ns_model_show_features(struct seq_file *m);

/* Where a walk starts: the writer's root, cwd, or one of its fds. */
void ns_vfs_get_root(struct path *root);
void ns_vfs_get_pwd(struct path *pwd);

/*
 * A request's start, taken once for the shadow and the kernel alike.
 * While it is entered, the writer's current->fs is a private copy of
 * its root and cwd, and an at= start's file is also installed at a
 * descriptor of the writer's own (@kfd) for the kernel's walks, which
 * take a descriptor: no thread of the writer can move either.  Only the
 * writer's own state is pinned: what the request resolves
 * (/proc/self/cwd, /proc/self/root, /proc/self/fd/N) answers for the
 * writer, as its own openat() would.
 */
struct ns_start {
	struct fs_struct fs;
	struct fs_struct *writer;
	struct file *file;	/* at=: the descriptor's file, held */
	int kfd;		/* at=: @file's copy for the kernel, or -1 */
	const char *no_kfd;	/* at=: why there is no copy */
	unsigned long uname;	/* at=: a page of the writer's memory for */
				/* the kernel's name, or 0 */
};

int ns_vfs_start_enter(struct ns_start *st, int dfd, bool copy_fd);
void ns_vfs_start_leave(struct ns_start *st);
const struct path *ns_vfs_start_path(const struct ns_start *st);
bool ns_vfs_start_moved(const struct ns_start *st);

/*
 * Names: hashing as the running kernel does, for the directory @parent.
 * The filesystem's own hash (->d_hash: case folding ...) where it has
 * one, over the dcache's.
 */
static inline int ns_vfs_d_hash(struct dentry *parent, struct qstr *name)
{
	if (unlikely(parent->d_flags & DCACHE_OP_HASH))
		return parent->d_op->d_hash(parent, name);
	return 0;
}

static inline int ns_vfs_hash(struct dentry *parent, struct qstr *name)
{
	name->hash = full_name_hash(parent, name->name, name->len);
	return ns_vfs_d_hash(parent, name);
}

/*
 * The dcache's hash and the length of the component at @name (ended by
 * '/' or NUL), as a hash_len: in one pass (ns_hash.h) unless the load
 * found that differs from full_name_hash().
 */
DECLARE_STATIC_KEY_TRUE(ns_hash_one_pass);

static inline u64 ns_vfs_hash_len(const struct dentry *parent, const char *name)
{
	unsigned int len;

	if (static_branch_likely(&ns_hash_one_pass))
		return ns_hash_name(parent, name);
	len = strchrnul(name, '/') - name;
	return hashlen_create(full_name_hash(parent, name, len), len);
}

/* Permissions, with the caller's credentials. */
int ns_vfs_may_exec(const struct path *dir);
int ns_vfs_permission(const struct path *path, int mask);
int ns_vfs_may_write_mount(struct vfsmount *mnt);
bool ns_vfs_dir_is_dead(const struct inode *dir);
bool ns_vfs_can_create(const struct inode *dir);
bool ns_vfs_mount_nodev(const struct vfsmount *mnt);
bool ns_vfs_mount_readonly(struct vfsmount *mnt);
bool ns_vfs_being_executed(const struct inode *inode);

/* The dcache. */
struct dentry *ns_vfs_lookup_cached(struct dentry *parent,
				    const struct qstr *name);
int ns_vfs_revalidate(struct inode *dir, const struct qstr *name,
		      struct dentry *dentry, unsigned int flags);
int ns_vfs_weak_revalidate(struct dentry *dentry, unsigned int flags);
void ns_vfs_invalidate(struct dentry *dentry);
struct dentry *ns_vfs_lookup_slow(struct dentry *dir, const struct qstr *name,
				  unsigned int flags, bool revalidate);
bool ns_vfs_connected(struct vfsmount *mnt, struct dentry *dentry);
enum ns_link_ops { NS_LINK_OPS_OTHER, NS_LINK_OPS_STRING, NS_LINK_OPS_MAGIC };

enum ns_link_ops ns_vfs_link_ops(const struct inode *inode);
bool ns_vfs_procfs_link_without_body(const struct inode *inode);
bool ns_vfs_lsm_follow_link_absent(void);

/*
 * The LSM hook the kernel's pick_link calls before it reads a link's
 * body: security_inode_follow_link() (SELinux, a BPF LSM program ...).
 * Not exported: called through kallsyms where that is safe, else the
 * walker goes on without it and says so.  @rcu: the caller is in RCU
 * mode, and an LSM may answer -ECHILD.
 */
typedef int (*ns_follow_link_hook_t)(struct dentry *dentry,
				     struct inode *inode, bool rcu);

static inline bool ns_vfs_lsm_follow_link_callable(void)
{
	return ns_ksym(NS_SYM_SECURITY_FOLLOW_LINK)->usable;
}

static inline int ns_vfs_lsm_follow_link(struct dentry *dentry,
					 struct inode *inode, bool rcu)
{
	const struct ns_ksym *s = ns_ksym(NS_SYM_SECURITY_FOLLOW_LINK);

	if (!s->usable)
		return 0;
	return ((ns_follow_link_hook_t)s->addr)(dentry, inode, rcu);
}

int ns_vfs_magic_jump(const struct path *dir, const struct qstr *name,
		      struct path *res);

/* A name on its way out: unlinked, and marked so nothing mounts on it. */
bool ns_vfs_name_is_going(const struct dentry *dentry);

/*
 * Rules the running kernel was asked at load (kernel_rules.c): yes, no,
 * or undecided -- the probe could not tell, and a walk the rule decides
 * cannot be judged.
 */
enum ns_rule { NS_RULE_NO, NS_RULE_YES, NS_RULE_UNDECIDED };

void ns_rules_probe(void);
void ns_rules_show(struct seq_file *m);
/* Does this kernel's REF-walk refuse to step onto one (unlink_may_reveal)? */
enum ns_rule ns_vfs_refwalk_refuses_going_names(void);
/* Does this kernel's open(2) refuse O_CREAT|O_DIRECTORY (EINVAL)? */
bool ns_vfs_open_refuses_creat_directory(void);

/*
 * fs.protected_symlinks, read live; -1 when it cannot be read, -ECHILD
 * when reading it would sleep and @may_sleep is false.
 */
int ns_vfs_protected_symlinks(bool may_sleep);

/* RCU-walk's dcache: lookups without references, d_seq, legitimizing. */
enum ns_dget { NS_DGET_OK, NS_DGET_STALE, NS_DGET_DEAD };

bool ns_vfs_rcu_lookup_usable(void);
struct dentry *ns_vfs_lookup_rcu(const struct dentry *parent,
				 const struct qstr *name, unsigned int *seqp,
				 bool *retried);

/* Search permission in RCU mode: -ECHILD when it would have to block. */
static inline int ns_vfs_may_exec_rcu(struct vfsmount *mnt, struct inode *inode)
{
	return inode_permission(ns_compat_idmap(mnt), inode,
				MAY_EXEC | MAY_NOT_BLOCK);
}

int ns_vfs_compare_lookup_rcu(struct dentry *parent, const char *name,
			      bool *found);
enum ns_dget ns_vfs_dget_seq(struct dentry *dentry, unsigned int seq);
unsigned int ns_vfs_seq_sample(struct dentry *dentry);
bool ns_vfs_still_named(struct dentry *dentry, unsigned int seq,
			const struct dentry *parent, const struct qstr *name);

/* What atime_needs_update() decides by. */
struct ns_vfs_atime {
	bool never;		/* no atime kept: noatime, read-only */
	bool relatime;
	struct timespec64 atime, mtime, ctime;
};

/*
 * What atime_needs_update() decides by, for a link about to be followed
 * (namei_shadow.c has the rule): @never where no atime is kept -- a
 * noatime inode or mount, a read-only filesystem or mount -- else
 * relatime and the three times.  Inline: it is read at every link.
 */
static inline void ns_vfs_atime_take(struct ns_vfs_atime *a,
				     struct vfsmount *mnt,
				     const struct inode *inode)
{
	a->never = (inode->i_flags & S_NOATIME) || (mnt->mnt_flags & MNT_NOATIME) ||
		IS_NOATIME(inode) || sb_rdonly(inode->i_sb) ||
		(mnt->mnt_flags & MNT_READONLY) || sb_rdonly(mnt->mnt_sb);
	if (a->never)
		return;
	a->relatime = mnt->mnt_flags & MNT_RELATIME;
	a->atime = ns_inode_atime(inode);
	a->mtime = ns_inode_mtime(inode);
	a->ctime = ns_inode_ctime(inode);
}

/* A dentry as a step line shows it: " dev=M:m ino=N type=T perm=P ..." */
struct ns_vfs_object {
	u64 ino;
	dev_t dev;
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
	bool positive;			/* no inode: a negative dentry */
};

/*
 * What a step line shows of @dentry: its device and inode number, type,
 * permission bits and owners -- or that it is negative.  In RCU mode the
 * inode may be cleared by an unlink at any time (it is freed only after
 * a grace period): it is read once.
 */
static inline void ns_vfs_object_take(struct ns_vfs_object *o,
				      const struct dentry *dentry)
{
	const struct inode *inode = READ_ONCE(dentry->d_inode);

	o->positive = inode;
	if (!inode)
		return;
	o->dev = dentry->d_sb->s_dev;
	o->ino = inode->i_ino;
	o->mode = inode->i_mode;
	o->uid = inode->i_uid;
	o->gid = inode->i_gid;
}

/* Witnesses: what a walk's decisions rested on, to tell whether it changed. */
struct ns_vfs_attrs {
	const struct inode *inode;	/* compared, never dereferenced */
	const void *acl;		/* the cached ACL, likewise */
	u64 version;			/* i_version, raw */
	s64 ctime_sec;
	long ctime_nsec;
	u32 uid, gid;
	umode_t mode;
};

void ns_vfs_attrs_take(struct ns_vfs_attrs *a, const struct dentry *dentry);
bool ns_vfs_attrs_changed(const struct ns_vfs_attrs *a,
			  const struct dentry *dentry);
const struct vfsmount *ns_vfs_mount_top(struct vfsmount *mnt,
					struct dentry *dentry);
bool ns_vfs_same_file(const struct inode *a, const struct inode *b);
bool ns_vfs_rebound_same(struct dentry *dentry);
bool ns_vfs_same_name(struct dentry *a, struct dentry *b);

/* The mount table.  @path holds references on both its parts. */
int ns_vfs_manage(struct path *path);
bool ns_vfs_mount_down(struct path *path);
bool ns_vfs_mount_up(struct path *path);
bool ns_vfs_needs_automount(const struct path *path);
int ns_vfs_automount(struct path *path);

enum ns_mounted { NS_MOUNTED_NONE, NS_MOUNTED_YES, NS_MOUNTED_MANAGED };

/*
 * The door's smallest reads, one field each, inline: the walker takes
 * them at every component, and a call each would cost more than the
 * read.  They are the door's all the same: only here, never spelled
 * out in the walker.
 */
/* RCU mode: what a dentry points to now, read once; d_seq decides later. */
static inline struct inode *ns_vfs_inode_rcu(const struct dentry *dentry)
{
	return READ_ONCE(dentry->d_inode);
}

static inline umode_t ns_vfs_mode(const struct inode *inode)
{
	return READ_ONCE(inode->i_mode);
}

static inline dev_t ns_vfs_dev(const struct dentry *dentry)
{
	return dentry->d_sb->s_dev;
}

static inline struct dentry *ns_vfs_parent_rcu(const struct dentry *dentry)
{
	return READ_ONCE(dentry->d_parent);
}

/* Does the filesystem want its dentries revalidated (->d_revalidate)? */
static inline bool ns_vfs_revalidates(const struct dentry *dentry)
{
	return dentry->d_flags & DCACHE_OP_REVALIDATE;
}

static inline bool ns_vfs_is_managed(const struct dentry *dentry)
{
	return READ_ONCE(dentry->d_flags) & DCACHE_MANAGED_DENTRY;
}

static inline bool ns_vfs_is_mounted_on(const struct dentry *dentry)
{
	return READ_ONCE(dentry->d_flags) & DCACHE_MOUNTED;
}

/* The filesystem manages transit through @dentry (->d_manage). */
static inline bool ns_vfs_manages_transit(const struct dentry *dentry)
{
	return READ_ONCE(dentry->d_flags) & DCACHE_MANAGE_TRANSIT;
}

/* rename_lock's sequence: renames anywhere, as a scoped ".." asks. */
static inline unsigned int ns_vfs_rename_seq_begin(void)
{
	return read_seqbegin(&rename_lock);
}

static inline bool ns_vfs_rename_seq_retry(unsigned int seq)
{
	return read_seqretry(&rename_lock, seq);
}

static inline bool ns_vfs_seq_retry_dentry(struct dentry *dentry, unsigned int seq)
{
	return read_seqcount_retry(&dentry->d_seq, seq);
}

static inline unsigned int ns_vfs_seq_begin_dentry(struct dentry *dentry)
{
	return read_seqcount_begin(&dentry->d_seq);
}

static inline struct dentry *ns_vfs_mount_root(const struct vfsmount *mnt)
{
	return READ_ONCE(mnt->mnt_root);
}

/* Is @path the root of its mount? */
static inline bool ns_vfs_is_mount_root(const struct path *path)
{
	return path->dentry == READ_ONCE(path->mnt->mnt_root);
}

/*
 * What RCU mode may do about the mounts on @dentry, from one read of
 * its flags: nothing is mounted; something is, to be crossed; or the
 * filesystem manages it (d_manage, automount), which only REF mode may
 * ask.
 */
static inline enum ns_mounted ns_vfs_mounted_rcu(const struct dentry *dentry)
{
	unsigned int flags = READ_ONCE(dentry->d_flags);

	if (flags & (DCACHE_MANAGE_TRANSIT | DCACHE_NEED_AUTOMOUNT))
		return NS_MOUNTED_MANAGED;
	return flags & DCACHE_MOUNTED ? NS_MOUNTED_YES : NS_MOUNTED_NONE;
}

/* A link on a nosymfollow mount is never followed (ELOOP). */
static inline bool ns_vfs_nosymfollow(const struct vfsmount *mnt)
{
	return READ_ONCE(mnt->mnt_flags) & MNT_NOSYMFOLLOW;
}

/* Is the link's body kept inline (i_link), read without ->get_link? */
static inline bool ns_vfs_link_inline(const struct inode *inode)
{
	return READ_ONCE(inode->i_link);
}

/* The link's body: inline, else from ->get_link (@dentry NULL in RCU mode). */
static inline const char *ns_vfs_link_body(struct dentry *dentry,
					   struct inode *inode,
					   struct delayed_call *done)
{
	const char *body = READ_ONCE(inode->i_link);

	return body ?: inode->i_op->get_link(dentry, inode, done);
}

/* Has the dcache or mount table changed since @seq? */
struct ns_vfs_seq {
	unsigned int rename;
	unsigned int mount;
};

void ns_vfs_seq_begin(struct ns_vfs_seq *seq);
bool ns_vfs_seq_moved(const struct ns_vfs_seq *seq);

/* RCU-walk across mounts, where the kernel's own helpers are callable. */
bool ns_vfs_mounts_rcu_usable(const char **why);
unsigned int ns_vfs_mount_seq_begin(void);
bool ns_vfs_mount_seq_retry(unsigned int seq);
struct vfsmount *ns_vfs_lookup_mnt_rcu(struct vfsmount *mnt,
				       struct dentry *dentry);
int ns_vfs_legitimize_mnt(struct vfsmount *mnt, unsigned int seq);

#endif /* NS_MODEL_H */
