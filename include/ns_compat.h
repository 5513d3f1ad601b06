/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the supported kernels (6.1, 6.12 and 7.2) that
 * the module's sources should not have to spell out.  The sources use
 * the newest kernel's form; an older form is chosen here by a probe.
 */
#ifndef NS_COMPAT_H
#define NS_COMPAT_H

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/namei.h>
#include <linux/wait.h>

/* get_unaligned(): <linux/unaligned.h> on 6.12 and 7.2, asm/ on 6.1. */
#ifdef NS_COMPAT_ASM_UNALIGNED
#include <asm/unaligned.h>
#else
#include <linux/unaligned.h>
#endif

/*
 * Kbuild probes the kernel's headers and defines NS_COMPAT_* for what
 * they lack or spell differently, so no version numbers are compared.
 */
#ifdef NS_COMPAT_DECLARE_VFS_PATH_LOOKUP
struct dentry;
struct vfsmount;
struct path;
/* Exported all along, but declared only in fs/internal.h on 6.1. */
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

/*
 * vfs_path_parent_lookup(): Debian's 6.1 has the form that also returns
 * the type of the last component; 6.12 returns -EINVAL for any type but
 * LAST_NORM instead.  Either way: the parent of a LAST_NORM name.
 */
static inline int ns_compat_path_parent(struct filename *name,
					unsigned int flags,
					struct path *parent,
					struct qstr *last)
{
#ifdef NS_COMPAT_PATH_PARENT_TYPE
	int type, err;

	err = vfs_path_parent_lookup(name, flags, parent, last, &type, NULL);
	if (!err && type != LAST_NORM) {
		path_put(parent);
		err = -EINVAL;
	}
	return err;
#else
	return vfs_path_parent_lookup(name, flags, parent, last, NULL);
#endif
}

/*
 * The mount's id mapping, as the idmapped-mount helpers take it:
 * struct mnt_idmap on 6.12, the mount's user namespace on 6.1.
 */
#ifdef NS_COMPAT_MNT_USERNS
#define ns_compat_idmap(mnt)	mnt_user_ns(mnt)
#else
#define ns_compat_idmap(mnt)	mnt_idmap(mnt)
#endif

/*
 * A private fs_struct's locks: 7.2 has one seqlock_t; 6.1 and 6.12 a
 * spinlock and a seqcount bound to it.
 */
static inline void ns_compat_fs_struct_init(struct fs_struct *fs)
{
#ifdef NS_COMPAT_FS_STRUCT_SPINLOCK
	spin_lock_init(&fs->lock);
	seqcount_spinlock_init(&fs->seq, &fs->lock);
#else
	seqlock_init(&fs->seq);
#endif
}

/*
 * A descriptor taken out of the task's table, its file returned, not
 * flushed: file_close_fd() on 6.12, close_fd_get_file() on 6.1.
 */
#ifdef NS_COMPAT_CLOSE_FD_GET_FILE
#define ns_compat_file_close_fd(fd)	close_fd_get_file(fd)
#else
#define ns_compat_file_close_fd(fd)	file_close_fd(fd)
#endif

/* An inode's times: fields on 6.1, accessors on 6.12. */
#ifdef NS_COMPAT_INODE_TIME_FIELDS
#define ns_inode_atime(inode)	((inode)->i_atime)
#define ns_inode_mtime(inode)	((inode)->i_mtime)
#define ns_inode_ctime(inode)	((inode)->i_ctime)
#else
#define ns_inode_atime(inode)	inode_get_atime(inode)
#define ns_inode_mtime(inode)	inode_get_mtime(inode)
#define ns_inode_ctime(inode)	inode_get_ctime(inode)
#endif

/*
 * ->d_revalidate(): 6.1 and 6.12 pass the dentry alone; 7.2 also passes
 * the directory's inode and the name the walk looked up, which stay
 * stable while the dentry's own name and parent may not.
 */
static inline int ns_compat_d_revalidate(struct inode *dir,
					 const struct qstr *name,
					 struct dentry *dentry,
					 unsigned int flags)
{
#ifdef NS_COMPAT_D_REVALIDATE_DENTRY
	return dentry->d_op->d_revalidate(dentry, flags);
#else
	return dentry->d_op->d_revalidate(dir, name, dentry, flags);
#endif
}

/*
 * The parameters of a d_revalidate of the module's own (kernel_rules.c):
 * its body uses dentry and flags.
 */
#ifdef NS_COMPAT_D_REVALIDATE_DENTRY
#define NS_D_REVALIDATE_PARAMS	struct dentry *dentry, unsigned int flags
#else
#define NS_D_REVALIDATE_PARAMS	struct inode *dir, const struct qstr *name, \
				struct dentry *dentry, unsigned int flags
#endif

/* A superblock's dentry operations: 6.1 and 6.12 set the field. */
#ifdef NS_COMPAT_SB_D_OP
static inline void ns_compat_set_default_d_op(struct super_block *sb,
					      const struct dentry_operations *ops)
{
	sb->s_d_op = ops;
}
#else
#define ns_compat_set_default_d_op	set_default_d_op
#endif

/*
 * d_alloc_parallel(): 6.1 and 6.12 take the caller's wait queue, for
 * others to sleep on until d_lookup_done() (so it must live that long:
 * the caller's struct ns_lookup_wait); 7.2 keeps its own.
 */
struct ns_lookup_wait {
#ifdef NS_COMPAT_D_ALLOC_PARALLEL_WQ
	wait_queue_head_t wq;
#endif
};

static inline struct dentry *
ns_compat_d_alloc_parallel(struct dentry *parent, const struct qstr *name,
			   struct ns_lookup_wait *wait)
{
#ifdef NS_COMPAT_D_ALLOC_PARALLEL_WQ
	init_waitqueue_head(&wait->wq);
	return d_alloc_parallel(parent, name, &wait->wq);
#else
	return d_alloc_parallel(parent, name);
#endif
}

/*
 * Creating a name (the test modules): 6.1 and 6.12 have
 * kern_path_create() and done_path_create(), 7.2 the start_creating_*
 * family; 7.2's vfs_symlink() also takes a delegation to break.
 */
#ifdef NS_COMPAT_KERN_PATH_CREATE
#define ns_compat_start_creating_path	kern_path_create
#define ns_compat_end_creating_path	done_path_create
#else
#define ns_compat_start_creating_path	start_creating_path
#define ns_compat_end_creating_path	end_creating_path
#endif

#ifdef NS_COMPAT_VFS_SYMLINK_NO_DELEG
#define ns_compat_vfs_symlink(idmap, dir, dentry, target) \
	vfs_symlink((idmap), (dir), (dentry), (target))
#else
#define ns_compat_vfs_symlink(idmap, dir, dentry, target) \
	vfs_symlink((idmap), (dir), (dentry), (target), NULL)
#endif

/*
 * Live mode's cgroup=: the cgroup v2 hierarchy, where the kernel has
 * cgroups at all (the debug kernel's small config has none; there the
 * word is refused with EOPNOTSUPP).
 */
#ifdef CONFIG_CGROUPS
#include <linux/cgroup.h>

#define ns_compat_cgroup_get_from_path	cgroup_get_from_path
#define ns_compat_cgroup_put		cgroup_put

static inline bool ns_compat_current_in_cgroup(struct cgroup *cgrp)
{
	bool in;

	rcu_read_lock();
	in = cgroup_is_descendant(task_dfl_cgroup(current), cgrp);
	rcu_read_unlock();
	return in;
}
#else
#include <linux/err.h>

struct cgroup;

static inline struct cgroup *ns_compat_cgroup_get_from_path(const char *path)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void ns_compat_cgroup_put(struct cgroup *cgrp)
{
}

static inline bool ns_compat_current_in_cgroup(struct cgroup *cgrp)
{
	return false;
}
#endif

#endif /* NS_COMPAT_H */
