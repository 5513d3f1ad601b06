// SPDX-License-Identifier: GPL-2.0
/*
 * Rules where the supported kernels differ and no header can tell which
 * one the running kernel has (stable kernels gain and lose them as
 * patches: no release number says): each is asked of the kernel itself,
 * once, at load, by making it walk a case that only the rule decides.
 * What it answered, and how, is in `features`; a rule it could not be
 * asked is undecided, and the walks that meet it cannot be judged.
 */

#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/seq_file.h>

#include "ns_compat.h"
#include "ns_model.h"

/*
 * Whether open(2) refuses O_CREAT|O_DIRECTORY is decided in
 * build_open_flags(), before any lookup, and was backported to stable
 * kernels: asked with a name that cannot be created (its directory does
 * not exist), EINVAL means it refuses, ENOENT that it would have gone on.
 */
static int ns_creat_directory_probe;

static void ns_probe_creat_directory(void)
{
	struct file *file = filp_open("/.namei-shadow-no-such-dir/probe",
				      O_CREAT | O_DIRECTORY | O_RDONLY, 0);

	if (IS_ERR(file)) {
		ns_creat_directory_probe = PTR_ERR(file);
		return;
	}
	/* cannot happen: the directory does not exist */
	fput(file);
	ns_creat_directory_probe = 0;
}

bool ns_vfs_open_refuses_creat_directory(void)
{
	return ns_creat_directory_probe == -EINVAL;
}

/*
 * unlink_may_reveal: does REF-walk refuse to step onto a name on its
 * way out (unlinked, marked cant_mount)?  Debian's 6.12 had it from
 * 6.12.113 to 6.12.116, 7.2 from 7.2.11.  The kernel meets such a name
 * only in a race, between the lookup that found it and the step onto
 * it; a filesystem of the module's own makes that race on cue.  It is
 * never registered (no one can mount it) and mounted only here, inside
 * the kernel: one directory holding one file, "going", whose
 * d_revalidate
 *  - sends the kernel's walk out of RCU mode (-ECHILD), so that it
 *    meets the name in REF mode, as the rule wants;
 *  - there, makes the name go, as an unlink that won the race would:
 *    cant_mount, then unhashed -- and says it is still valid.
 * A kernel that steps onto it answers with that very dentry.  One that
 * refuses says ESTALE and walks again with LOOKUP_REVAL, which looks
 * the name up afresh and finds nothing: ENOENT.  Anything else leaves
 * the rule undecided.
 */
static enum ns_rule ns_going_rule = NS_RULE_UNDECIDED;
static const char *ns_going_why = "not-asked";
static int ns_going_err;
static struct dentry *ns_going;		/* the probe's name, while it runs */
static bool ns_going_went;

static int ns_going_revalidate(NS_D_REVALIDATE_PARAMS)
{
	if (dentry != READ_ONCE(ns_going))
		return 1;
	if (flags & LOOKUP_RCU)
		return -ECHILD;
	if (!ns_going_went) {
		dont_mount(dentry);
		d_drop(dentry);
		ns_going_went = true;
	}
	return 1;
}

static const struct dentry_operations ns_going_dops = {
	.d_revalidate = ns_going_revalidate,
};

static struct inode *ns_going_inode(struct super_block *sb, umode_t mode,
				    unsigned long ino)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = mode;
	if (S_ISDIR(mode)) {
		inode->i_op = &simple_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		set_nlink(inode, 2);
	}
	return inode;
}

static int ns_going_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *dir = ns_going_inode(sb, S_IFDIR | 0500, 1);

	sb->s_root = d_make_root(dir);
	if (!sb->s_root)
		return -ENOMEM;
	/* every name after the root: "going", and the refusing kernel's */
	ns_compat_set_default_d_op(sb, &ns_going_dops);
	return 0;
}

static int ns_going_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, ns_going_fill_super);
}

static const struct fs_context_operations ns_going_context_ops = {
	.get_tree = ns_going_get_tree,
};

static int ns_going_init_fs_context(struct fs_context *fc)
{
	fc->ops = &ns_going_context_ops;
	return 0;
}

static struct file_system_type ns_going_fs = {
	.owner = THIS_MODULE,
	.name = "namei_shadow_probe",
	.init_fs_context = ns_going_init_fs_context,
	.kill_sb = kill_anon_super,
};

/* The name "going" in @mnt's root, held by the probe until it ends. */
static struct dentry *ns_going_create(struct vfsmount *mnt)
{
	struct dentry *dentry = d_alloc_name(mnt->mnt_root, "going");
	struct inode *inode;

	if (!dentry)
		return NULL;
	inode = ns_going_inode(mnt->mnt_sb, S_IFREG | 0400, 2);
	if (!inode) {
		dput(dentry);
		return NULL;
	}
	d_add(dentry, inode);
	return dentry;
}

static void ns_going_judge(int err, const struct path *found,
			   const struct dentry *going)
{
	ns_going_err = err;
	if (!ns_going_went) {
		ns_going_why = "probe-name-never-went";
	} else if (!err && found->dentry == going) {
		ns_going_rule = NS_RULE_NO;
		ns_going_why = "probe-stepped-onto-the-name";
	} else if (err == -ENOENT) {
		ns_going_rule = NS_RULE_YES;
		ns_going_why = "probe-refused-the-name";
	} else {
		ns_going_why = "probe-answered-otherwise";
	}
}

static void ns_probe_unlink_may_reveal(void)
{
	struct vfsmount *mnt = kern_mount(&ns_going_fs);
	struct dentry *going;
	struct path found;
	int err;

	if (IS_ERR(mnt)) {
		ns_going_err = PTR_ERR(mnt);
		ns_going_why = "probe-not-mounted";
		return;
	}
	going = ns_going_create(mnt);
	if (!going) {
		ns_going_err = -ENOMEM;
		ns_going_why = "probe-not-created";
		goto out;
	}
	WRITE_ONCE(ns_going, going);
	err = vfs_path_lookup(mnt->mnt_root, mnt, "going", 0, &found);
	WRITE_ONCE(ns_going, NULL);
	ns_going_judge(err, &found, going);
	if (!err)
		path_put(&found);
	dput(going);
out:
	kern_unmount(mnt);
}

enum ns_rule ns_vfs_refwalk_refuses_going_names(void)
{
	return ns_going_rule;
}

void ns_rules_probe(void)
{
	ns_probe_creat_directory();
	ns_probe_unlink_may_reveal();
}

static const char * const ns_rule_answers[] = {
	[NS_RULE_NO] = "n",
	[NS_RULE_YES] = "y",
	[NS_RULE_UNDECIDED] = "undecided",
};

void ns_rules_show(struct seq_file *m)
{
	seq_printf(m, "open creat_directory=%s probe=%d\n",
		   ns_vfs_open_refuses_creat_directory() ? "einval" : "allowed",
		   ns_creat_directory_probe);
	seq_printf(m, "rule unlink-may-reveal kernel=%s why=%s err=%d\n",
		   ns_rule_answers[ns_going_rule], ns_going_why, ns_going_err);
}
