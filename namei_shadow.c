// SPDX-License-Identifier: GPL-2.0
/*
 * namei_shadow: a shadow of Linux 4.2 pathname lookup, checked
 * against the running kernel's own
 *
 * The module carries its own nameidata walker and resolves every path
 * written to its debugfs interface twice, once by the shadow and once
 * by kern_path(), and compares the answers.  This file holds the
 * module's life cycle and its debugfs interface; dcache_model.c is the
 * walker's door to the live dcache and mount table.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "ns_model.h"

static char *ksym_source = "auto";
module_param(ksym_source, charp, 0444);
MODULE_PARM_DESC(ksym_source,
		 "how kallsyms_lookup_name is called: auto (default), or gate (through a kprobe, safe under IBT)");

static struct dentry *ns_debugfs_dir;

static int features_show(struct seq_file *m, void *unused)
{
	ns_model_show_features(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(features);

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

static int __init namei_shadow_init(void)
{
	enum ns_ksym_source src;
	int err;

	if (ns_parse_ksym_source(&src)) {
		pr_err("ksym_source=%s: must be auto or gate\n", ksym_source);
		return -EINVAL;
	}

	ns_debugfs_dir = debugfs_create_dir("namei_shadow", NULL);
	if (IS_ERR(ns_debugfs_dir)) {
		pr_err("cannot create debugfs directory (%ld): is debugfs enabled and allowed?\n",
		       PTR_ERR(ns_debugfs_dir));
		return PTR_ERR(ns_debugfs_dir);
	}

	err = ns_model_init(src);
	if (err) {
		debugfs_remove_recursive(ns_debugfs_dir);
		return err;
	}

	debugfs_create_file("features", 0400, ns_debugfs_dir, NULL,
			    &features_fops);
	pr_info("loaded; see /sys/kernel/debug/namei_shadow/\n");
	return 0;
}

static void __exit namei_shadow_exit(void)
{
	debugfs_remove_recursive(ns_debugfs_dir);
	ns_model_exit();
}

module_init(namei_shadow_init);
module_exit(namei_shadow_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The namei_shadow developers");
MODULE_DESCRIPTION("Shadow of Linux 4.2 pathname lookup, cross-checked against kern_path()");
