// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never part of the product: mount_lock moves in the
 * middle of the shadow's RCU-walk, on cue.  Once namei_shadow's own RCU
 * dcache lookup (ns_vfs_lookup_rcu) returns the dentry named name= in
 * the directory dir=, the mount table's sequence is moved as any mount
 * or umount moves it: a reference to a mount that is in no namespace
 * (one of this module's own, made at load) is taken and dropped, and
 * mntput() takes mount_lock's write side to drop it.  Nothing is
 * mounted anywhere; the walk cannot tell that from a real mount, and
 * must not complete in RCU mode.  Once only.
 * /sys/module/ns_test_mount_seq/parameters/fired says whether it
 * happened.  Load after namei_shadow, rmmod before it.
 */
#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/string.h>

#include "ns_test.h"

static char *dir;
module_param(dir, charp, 0444);
MODULE_PARM_DESC(dir, "the directory holding the name");
static char *name;
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the name whose RCU lookup moves mount_lock");
static int fired;
module_param(fired, int, 0444);
MODULE_PARM_DESC(fired, "1 once mount_lock was moved");

static struct path parent;
static struct vfsmount *loose;	/* a mount in no namespace */
static atomic_t armed = ATOMIC_INIT(1);

static int ns_test_mount_seq_found(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)regs_return_value(regs);

	if (!ns_test_is_name(dentry, parent.dentry, name) || !atomic_cmpxchg(&armed, 1, 0))
		return 0;
	/* not the last reference: mntput() only locks and unlocks */
	mntput(mntget(loose));
	WRITE_ONCE(fired, 1);
	return 0;
}

static struct kretprobe ns_test_mount_seq_probe = {
	.kp.symbol_name = "ns_vfs_lookup_rcu",
	.handler = ns_test_mount_seq_found,
};

static struct vfsmount *ns_test_loose_mount(void)
{
	struct file_system_type *type = get_fs_type("tmpfs");
	struct vfsmount *mnt;

	if (!type)
		return ERR_PTR(-ENODEV);
	mnt = vfs_kern_mount(type, 0, "ns_test_mount_seq", NULL);
	module_put(type->owner);	/* put_filesystem(), not exported */
	return mnt;
}

static int __init ns_test_mount_seq_init(void)
{
	int err;

	if (!dir || !name || !*name || strchr(name, '/'))
		return -EINVAL;
	err = kern_path(dir, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &parent);
	if (err)
		return err;
	loose = ns_test_loose_mount();
	if (IS_ERR(loose)) {
		err = PTR_ERR(loose);
		goto out_path;
	}
	err = register_kretprobe(&ns_test_mount_seq_probe);
	if (!err)
		return 0;
	mntput(loose);
out_path:
	path_put(&parent);
	return err;
}

static void __exit ns_test_mount_seq_exit(void)
{
	unregister_kretprobe(&ns_test_mount_seq_probe);
	mntput(loose);
	path_put(&parent);
}

module_init(ns_test_mount_seq_init);
module_exit(ns_test_mount_seq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow test: mount_lock moves during the shadow's RCU-walk");
MODULE_INFO(test, "Y");
