/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the supported kernels (6.1 and 6.12) that the
 * module's sources should not have to spell out.
 */
#ifndef NS_COMPAT_H
#define NS_COMPAT_H

#include <linux/namei.h>

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

#endif /* NS_COMPAT_H */
