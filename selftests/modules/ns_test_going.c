// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never part of the product: a race, made to happen
 * on cue.  Once __d_lookup() -- the dcache lookup of REF-walk, the
 * kernel's (lookup_fast) and the shadow's (d_lookup) alike -- returns
 * the dentry named name= in the directory dir=, that dentry is made a
 * name on its way out, as if an rmdir or unlink had won the race
 * between the lookup and the step onto it: marked cant_mount, then
 * unhashed.  Once only.  /sys/module/ns_test_going/parameters/fired
 * says whether it happened.  The selftests walk the name; rmmod after.
 */
#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/string.h>

#include "ns_test.h"

static char *dir;
module_param(dir, charp, 0444);
MODULE_PARM_DESC(dir, "the directory holding the name");
static char *name;
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the name to make go, once a lookup has found it");
static int fired;
module_param(fired, int, 0444);
MODULE_PARM_DESC(fired, "1 once the name was made to go");

static struct path parent;
static atomic_t armed = ATOMIC_INIT(1);

static int ns_test_going_found(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)regs_return_value(regs);

	if (!ns_test_is_name(dentry, parent.dentry, name) || !atomic_cmpxchg(&armed, 1, 0))
		return 0;
	dont_mount(dentry);
	d_drop(dentry);
	WRITE_ONCE(fired, 1);
	return 0;
}

static struct kretprobe ns_test_going_probe = {
	.kp.symbol_name = "__d_lookup",
	.handler = ns_test_going_found,
};

static int __init ns_test_going_init(void)
{
	int err;

	if (!dir || !name || !*name || strchr(name, '/'))
		return -EINVAL;
	err = kern_path(dir, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &parent);
	if (err)
		return err;
	err = register_kretprobe(&ns_test_going_probe);
	if (err)
		path_put(&parent);
	return err;
}

static void __exit ns_test_going_exit(void)
{
	unregister_kretprobe(&ns_test_going_probe);
	path_put(&parent);
}

module_init(ns_test_going_init);
module_exit(ns_test_going_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow test: a name that goes between its lookup and the step onto it");
MODULE_INFO(test, "Y");
