// SPDX-License-Identifier: GPL-2.0
/*
 * namei_shadow: a shadow of Linux 4.2 pathname lookup, checked
 * against the running kernel's own.  The module's parameters, its
 * choice of RCU-walk, and its life: load and unload.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/string.h>

#include "ns_check.h"
#include "ns_live.h"

static char *ksym_source = "auto";
module_param(ksym_source, charp, 0444);
MODULE_PARM_DESC(ksym_source,
		 "how kallsyms_lookup_name is called: auto (default), or gate (through a kprobe, safe under IBT)");

static char *ksym_hide = "";
module_param(ksym_hide, charp, 0444);
MODULE_PARM_DESC(ksym_hide,
		 "kernel internals (features' ksym names, comma-separated) to do without, as on a kernel that lacks them: the walker's fallbacks");

static char *live = "";
module_param(live, charp, 0444);
MODULE_PARM_DESC(live,
		 "live mode armed at load with these words, as written to live after start (e.g. \"comm=git sample=10\")");

static char *rcu = "auto";
module_param(rcu, charp, 0444);
MODULE_PARM_DESC(rcu,
		 "RCU-walk: auto (the best this kernel allows), full, within-mount, or off");

/*
 * RCU-walk: whether walks start in RCU mode, whether that crosses mounts,
 * and why (`features`).
 */
const char *const ns_rcu_mode_names[] = {
	[NS_RCU_OFF] = "off",
	[NS_RCU_WITHIN_MOUNT] = "within-mount",
	[NS_RCU_FULL] = "full",
};

enum ns_rcu_mode ns_rcu_mode;
const char *ns_rcu_why = "not-decided";

static struct dentry *ns_debugfs_dir;

static int ns_parse_ksym_source(enum ns_ksym_source *src)
{
	if (!strcmp(ksym_source, "auto"))
		*src = NS_KSYM_SRC_AUTO;
	else if (!strcmp(ksym_source, "gate"))
		*src = NS_KSYM_SRC_GATE;
	else
		return -EINVAL;
	return 0;
}

/*
 * RCU-walk needs the dcache's hash table (the module walks it itself:
 * __d_lookup_rcu is neither exported nor, under IBT, safely callable).
 * Crossing mounts in RCU mode ("full") needs the kernel's __lookup_mnt
 * and __legitimize_mnt to be callable and mount_lock readable; without
 * them RCU mode stays within the mounts it pinned ("within-mount") and
 * unlazies at a mount.  rcu= forces a lower mode; rcu=full refuses to
 * load where full is not possible.
 */
static int ns_choose_rcu_mode(void)
{
	const char *why_full;
	bool full = ns_vfs_mounts_rcu_usable(&why_full);

	if (!strcmp(rcu, "off")) {
		ns_rcu_mode = NS_RCU_OFF;
		ns_rcu_why = "module-parameter";
		return 0;
	}
	if (!ns_vfs_rcu_lookup_usable()) {
		ns_rcu_mode = NS_RCU_OFF;
		ns_rcu_why = "dentry_hashtable-or-d_hash_shift-not-found";
		return strcmp(rcu, "auto") ? -EOPNOTSUPP : 0;
	}
	if (!strcmp(rcu, "within-mount") || !full) {
		ns_rcu_mode = NS_RCU_WITHIN_MOUNT;
		ns_rcu_why = strcmp(rcu, "auto") ? "module-parameter" : why_full;
		return strcmp(rcu, "full") ? 0 : -EOPNOTSUPP;
	}
	ns_rcu_mode = NS_RCU_FULL;
	ns_rcu_why = strcmp(rcu, "auto") ? "module-parameter" : why_full;
	return 0;
}

static int __init namei_shadow_init(void)
{
	enum ns_ksym_source src;
	int err;

	if (ns_parse_ksym_source(&src)) {
		pr_err("ksym_source=%s: must be auto or gate\n", ksym_source);
		return -EINVAL;
	}
	err = ns_ksyms_check_hide(ksym_hide);
	if (err) {
		pr_err("ksym_hide=%s: each name once, and one of the ksym lines of features\n",
		       ksym_hide);
		return err;
	}
	if (strcmp(rcu, "auto") && strcmp(rcu, "full") &&
	    strcmp(rcu, "within-mount") && strcmp(rcu, "off")) {
		pr_err("rcu=%s: must be auto, full, within-mount or off\n", rcu);
		return -EINVAL;
	}

	ns_debugfs_dir = debugfs_create_dir("namei_shadow", NULL);
	if (IS_ERR(ns_debugfs_dir)) {
		pr_err("cannot create debugfs directory (%ld): is debugfs enabled and allowed?\n",
		       PTR_ERR(ns_debugfs_dir));
		return PTR_ERR(ns_debugfs_dir);
	}

	err = ns_model_init(src, ksym_hide);
	if (err) {
		debugfs_remove_recursive(ns_debugfs_dir);
		return err;
	}
	err = ns_choose_rcu_mode();
	if (err) {
		pr_err("rcu=%s: not possible on this kernel (%s); features would say why: try rcu=auto\n",
		       rcu, ns_rcu_why);
		debugfs_remove_recursive(ns_debugfs_dir);
		return err;
	}
	pr_info("rcu-walk %s (%s)\n", ns_rcu_mode_names[ns_rcu_mode], ns_rcu_why);

	err = ns_live_init(live);
	if (err) {
		ns_live_exit();
		debugfs_remove_recursive(ns_debugfs_dir);
		return err;
	}
	ns_debugfs_create(ns_debugfs_dir);
	pr_info("loaded; see /sys/kernel/debug/namei_shadow/\n");
	return 0;
}

static void __exit namei_shadow_exit(void)
{
	debugfs_remove_recursive(ns_debugfs_dir);
	ns_live_exit();
	ns_clear_mismatches();
}

module_init(namei_shadow_init);
module_exit(namei_shadow_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(NS_VERSION);
MODULE_AUTHOR("The namei_shadow developers");
MODULE_DESCRIPTION("Shadow of Linux 4.2 pathname lookup, cross-checked against kern_path()");
