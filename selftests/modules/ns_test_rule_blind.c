// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never part of the product: leaves namei_shadow's
 * load-time question about unlink_may_reveal unanswered.  While it is
 * loaded, the probe's walk (vfs_path_lookup() of "going" in the root of
 * the probe's own filesystem, kernel_rules.c) is made to ask for a name
 * that does not exist, so the name never goes and the kernel says
 * nothing about the rule.  Load it, load namei_shadow, unload it.
 * /sys/module/ns_test_rule_blind/parameters/fired counts the walks
 * changed.
 */
#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>

static atomic_t fired = ATOMIC_INIT(0);
module_param_named(fired, fired.counter, int, 0444);
MODULE_PARM_DESC(fired, "how many of the probe's walks were changed");

static const char ns_test_elsewhere[] = "not-going";

/* vfs_path_lookup(dentry, mnt, name, flags, path): the name, replaced */
static int ns_test_rule_blind_entry(struct kprobe *kp, struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)regs_get_kernel_argument(regs, 0);
	const char *name = (const char *)regs_get_kernel_argument(regs, 2);

	if (strcmp(dentry->d_sb->s_type->name, "namei_shadow_probe") ||
	    strcmp(name, "going"))
		return 0;
	regs->dx = (unsigned long)ns_test_elsewhere;
	atomic_inc(&fired);
	return 0;
}

static struct kprobe ns_test_rule_blind_probe = {
	.symbol_name = "vfs_path_lookup",
	.pre_handler = ns_test_rule_blind_entry,
};

static int __init ns_test_rule_blind_init(void)
{
	return register_kprobe(&ns_test_rule_blind_probe);
}

static void __exit ns_test_rule_blind_exit(void)
{
	unregister_kprobe(&ns_test_rule_blind_probe);
}

module_init(ns_test_rule_blind_init);
module_exit(ns_test_rule_blind_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow test: its load-time probe of a kernel rule, left unanswered");
MODULE_INFO(test, "Y");
