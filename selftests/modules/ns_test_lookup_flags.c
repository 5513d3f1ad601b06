// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never part of the product: what a filesystem is
 * told when a walk looks a name up.  Counts the calls of tmpfs's
 * ->lookup (simple_lookup) for the name name=, and of those the calls
 * made with an open intent (LOOKUP_OPEN, LOOKUP_CREATE or LOOKUP_EXCL,
 * this kernel's values) in their flags: /sys/module/
 * ns_test_lookup_flags/parameters/{calls,with_intent}.  rmmod after.
 */
#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/string.h>

static char *name;
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the name whose lookups are counted");
static atomic_t calls = ATOMIC_INIT(0);
module_param_named(calls, calls.counter, int, 0444);
MODULE_PARM_DESC(calls, "lookups of the name");
static atomic_t with_intent = ATOMIC_INIT(0);
module_param_named(with_intent, with_intent.counter, int, 0444);
MODULE_PARM_DESC(with_intent, "of those, lookups told of an open intent");

/* simple_lookup(dir, dentry, flags) */
static int ns_test_lookup_flags_seen(struct kprobe *kp, struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)regs_get_kernel_argument(regs, 1);
	unsigned int flags = regs_get_kernel_argument(regs, 2);

	if (dentry->d_name.len != strlen(name) ||
	    memcmp(dentry->d_name.name, name, dentry->d_name.len))
		return 0;
	atomic_inc(&calls);
	if (flags & (LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_EXCL))
		atomic_inc(&with_intent);
	return 0;
}

static struct kprobe ns_test_lookup_flags_probe = {
	.symbol_name = "simple_lookup",
	.pre_handler = ns_test_lookup_flags_seen,
};

static int __init ns_test_lookup_flags_init(void)
{
	if (!name || !*name)
		return -EINVAL;
	return register_kprobe(&ns_test_lookup_flags_probe);
}

static void __exit ns_test_lookup_flags_exit(void)
{
	unregister_kprobe(&ns_test_lookup_flags_probe);
}

module_init(ns_test_lookup_flags_init);
module_exit(ns_test_lookup_flags_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow test: the flags tmpfs's lookup is given for one name");
MODULE_INFO(test, "Y");
