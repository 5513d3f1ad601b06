/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the supported kernels (6.1 and 6.12) that the
 * module's sources should not have to spell out.
 */
#ifndef NS_COMPAT_H
#define NS_COMPAT_H

/*
 * Kbuild probes the kernel's headers and defines NS_COMPAT_* for what
 * they lack, so no version numbers are compared here.
 */
#ifdef NS_COMPAT_DECLARE_VFS_PATH_LOOKUP
struct dentry;
struct vfsmount;
struct path;
/* Exported all along, but declared only in fs/internal.h on 6.1. */
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

#endif /* NS_COMPAT_H */
