// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never part of the product: what a filesystem or an
 * LSM might answer, on cue.  Each call of the kernel function func=
 * whose second argument is the inode of path= (the name itself, not
 * followed), and which succeeded, returns ret= instead.  For instance
 * func=security_inode_follow_link ret=-13 makes an LSM refuse to follow
 * one link (EACCES); func=shmem_get_link ret=0 makes a tmpfs link's
 * ->get_link give no body (a jump that stays where it is).  Both take
 * (dentry, inode, ...).  /sys/module/ns_test_override/parameters/fired
 * counts the calls changed.  rmmod afterwards.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/namei.h>

static char *func;
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function whose answer to change");
static char *path;
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "the inode, by name, whose calls are changed");
static int ret;
module_param(ret, int, 0444);
MODULE_PARM_DESC(ret, "what the call returns instead (0 for NULL)");
static atomic_t fired = ATOMIC_INIT(0);
module_param_named(fired, fired.counter, int, 0444);
MODULE_PARM_DESC(fired, "how many calls were changed");

static struct path target;

static int ns_test_override_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct inode *inode = (struct inode *)regs_get_kernel_argument(regs, 1);

	*(bool *)ri->data = inode == d_inode(target.dentry);
	return 0;
}

static int ns_test_override_return(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	if (!*(bool *)ri->data || IS_ERR_VALUE(regs_return_value(regs)))
		return 0;
	regs_set_return_value(regs, (unsigned long)(long)ret);
	atomic_inc(&fired);
	return 0;
}

static struct kretprobe ns_test_override_probe = {
	.entry_handler = ns_test_override_entry,
	.handler = ns_test_override_return,
	.data_size = sizeof(bool),
};

static int __init ns_test_override_init(void)
{
	int err;

	if (!func || !path)
		return -EINVAL;
	err = kern_path(path, 0, &target);
	if (err)
		return err;
	ns_test_override_probe.kp.symbol_name = func;
	err = register_kretprobe(&ns_test_override_probe);
	if (err)
		path_put(&target);
	return err;
}

static void __exit ns_test_override_exit(void)
{
	unregister_kretprobe(&ns_test_override_probe);
	path_put(&target);
}

module_init(ns_test_override_init);
module_exit(ns_test_override_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow test: a function that answers otherwise for one inode");
MODULE_INFO(test, "Y");
