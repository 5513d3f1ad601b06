// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never part of the product: creates a symlink with
 * an empty body at path=, which symlink(2) cannot (getname() refuses the
 * empty target with ENOENT) but a filesystem can hold (tmpfs stores the
 * one NUL byte).  The selftests walk it; rmmod afterwards.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>

#include "ns_compat.h"

static char *path;
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "where to create the empty symlink");

static int __init ns_test_emptylink_init(void)
{
	struct path parent;
	struct dentry *dentry;
	int err;

	if (!path)
		return -EINVAL;
	dentry = ns_compat_start_creating_path(AT_FDCWD, path, &parent, 0);
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	err = ns_compat_vfs_symlink(ns_compat_idmap(parent.mnt),
				    d_inode(parent.dentry), dentry, "");
	ns_compat_end_creating_path(&parent, dentry);
	if (!err)
		pr_info("empty symlink at %s\n", path);
	return err;
}

static void __exit ns_test_emptylink_exit(void)
{
}

module_init(ns_test_emptylink_init);
module_exit(ns_test_emptylink_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow test: a symlink with an empty body");
MODULE_INFO(test, "Y");
