// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow walker's one door to the live VFS
 *
 * Everything the walker knows about the running kernel's dentries,
 * inodes and mounts comes through here: each function below is one
 * thing the 4.2 walker does to the VFS, done with what the running
 * kernel exports, or with the internals ksyms.c found and judged
 * usable.  What the kernel has and does not (features) is measured
 * here too: procfs' link fingerprints, the struct mount offset (and
 * kernel_rules.c asks the kernel the rules no header shows).
 */

#include <linux/dcache.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/iversion.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list_bl.h>
#include <linux/lockref.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <asm/cpufeature.h>

#include "ns_compat.h"
#include "ns_ksyms.h"
#include "ns_model.h"

/*
 * procfs symlinks come in two kinds: string links (/proc/self,
 * /proc/thread-self, proc_symlink()s like /proc/mounts), whose body is
 * a string like any other, and magic links (/proc/<pid>/fd/N, cwd,
 * root, exe, map_files/..., ns/...), whose ->get_link jumps through
 * nd_jump_link() on the kernel walker's own nameidata -- from here, an
 * oops.  Both kinds are fingerprinted at load by the inode operations
 * of the kernel's own links; the walker's is_magic_link() decides by
 * them.
 */
static const char *const ns_string_link_paths[] = {
	"/proc/self", "/proc/thread-self", "/proc/mounts",
};

static const char *const ns_magic_link_paths[] = {
	"/proc/self/cwd", "/proc/self/ns/mnt",
};

static const struct inode_operations *ns_string_link_ops[ARRAY_SIZE(ns_string_link_paths)];
static const struct inode_operations *ns_magic_link_ops[ARRAY_SIZE(ns_magic_link_paths)];

static int ns_record_link_ops(const char *const *paths, int n,
			      const struct inode_operations **ops)
{
	struct path path;
	int i, found = 0;

	for (i = 0; i < n; i++) {
		if (kern_path(paths[i], 0, &path))
			continue;
		if (d_is_symlink(path.dentry)) {
			ops[i] = d_inode(path.dentry)->i_op;
			found++;
		}
		path_put(&path);
	}
	return found;
}

static int ns_string_links_found, ns_magic_links_found;

static void ns_record_links(void)
{
	ns_string_links_found =
		ns_record_link_ops(ns_string_link_paths,
				   ARRAY_SIZE(ns_string_link_paths),
				   ns_string_link_ops);
	ns_magic_links_found =
		ns_record_link_ops(ns_magic_link_paths,
				   ARRAY_SIZE(ns_magic_link_paths),
				   ns_magic_link_ops);
}

static bool ns_ops_in(const struct inode *inode,
		      const struct inode_operations *const *ops, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (ops[i] && inode->i_op == ops[i])
			return true;
	return false;
}

/* Whose operations a link's inode has: a magic link's, a string link's, or others. */
enum ns_link_ops ns_vfs_link_ops(const struct inode *inode)
{
	if (ns_ops_in(inode, ns_magic_link_ops, ARRAY_SIZE(ns_magic_link_ops)))
		return NS_LINK_OPS_MAGIC;
	if (ns_ops_in(inode, ns_string_link_ops, ARRAY_SIZE(ns_string_link_ops)))
		return NS_LINK_OPS_STRING;
	return NS_LINK_OPS_OTHER;
}

/* A procfs link whose body is not kept inline (i_link). */
bool ns_vfs_procfs_link_without_body(const struct inode *inode)
{
	return !inode->i_link && inode->i_sb->s_magic == PROC_SUPER_MAGIC;
}

/*
 * Follow the magic link @name in @dir, by the kernel: vfs_path_lookup()
 * installs its own nameidata, so nd_jump_link() runs on the right one.
 * The link's own checks (ptrace access, map_files' capability) and its
 * target's errors come back as they are.
 */
int ns_vfs_magic_jump(const struct path *dir, const struct qstr *name,
		      struct path *res)
{
	char *component = kmemdup_nul(name->name, name->len, GFP_KERNEL);
	int err;

	if (!component)
		return -ENOMEM;
	err = vfs_path_lookup(dir->dentry, dir->mnt, component, LOOKUP_FOLLOW,
			      res);
	kfree(component);
	return err;
}

bool ns_vfs_name_is_going(const struct dentry *dentry)
{
	return cant_mount(dentry) && d_unlinked(dentry);
}

/*
 * fs.protected_symlinks, live: the kernel's variable where kallsyms
 * found it, otherwise the sysctl file -- which is opened and read, so
 * only where the caller may sleep: -ECHILD (RCU mode) otherwise.
 */
int ns_vfs_protected_symlinks(bool may_sleep)
{
	const struct ns_ksym *s = ns_ksym(NS_SYM_PROTECTED_SYMLINKS);
	char buf[16] = {};
	struct file *file;
	loff_t pos = 0;
	ssize_t n;
	int val;

	if (s->usable)
		return READ_ONCE(*(int *)s->addr);
	if (!may_sleep)
		return -ECHILD;
	file = filp_open("/proc/sys/fs/protected_symlinks", O_RDONLY, 0);
	if (IS_ERR(file))
		return -1;
	n = kernel_read(file, buf, sizeof(buf) - 1, &pos);
	fput(file);
	if (n <= 0 || kstrtoint(strim(buf), 10, &val))
		return -1;
	return val;
}

/*
 * No such hook in this kernel (CONFIG_SECURITY off, or ksym_hide=): a
 * kallsyms that answers did not find it.  Its walk has nothing to ask.
 */
bool ns_vfs_lsm_follow_link_absent(void)
{
	return ns_ksym(NS_SYM_KALLSYMS_LOOKUP_NAME)->addr &&
		!ns_ksym(NS_SYM_SECURITY_FOLLOW_LINK)->addr;
}

static const char *ns_lsm_follow_link_state(void)
{
	if (ns_vfs_lsm_follow_link_callable())
		return "checked";
	return ns_vfs_lsm_follow_link_absent() ? "absent" : "unchecked";
}

static void ns_probe_mounts_rcu(void);
static long ns_mnt_offset = -1;		/* of the vfsmount in struct mount */
static int ns_mnt_offset_mounts;	/* how many mounts measured it alike */

/*
 * The walker hashes a component in one pass (ns_hash.h) only if that is
 * the dcache's hash here: for names of every length to four words and
 * more, of bytes from the whole range but NUL and '/', ended by NUL and
 * by '/', for a few directories, it must give full_name_hash()'s hash
 * and the name's length.  Asked once, at load.
 */
DEFINE_STATIC_KEY_TRUE(ns_hash_one_pass);
static const char *ns_hash_why = "two-pass-build";

static bool ns_hash_agrees(const void *salt, char *buf, unsigned int len)
{
	static const char ends[] = { '\0', '/' };
	unsigned int i;
	u64 got;

	for (i = 0; i < len; i++) {
		buf[i] = 1 + (i * 37 + len * 11 + (unsigned long)salt % 7) % 255;
		if (buf[i] == '/')
			buf[i] = 'x';
	}
	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		buf[len] = ends[i];
		got = ns_vfs_hash_len(salt, buf);
		if (hashlen_len(got) != len ||
		    hashlen_hash(got) != full_name_hash(salt, buf, len))
			return false;
	}
	return true;
}

static void ns_hash_check(void)
{
	const void *salts[] = { NULL, THIS_MODULE, &ns_hash_why,
				(const void *)~0UL };
	char buf[4 * sizeof(unsigned long) + 8];
	unsigned int s, len;

	if (!NS_HASH_ONE_PASS) {
		static_branch_disable(&ns_hash_one_pass);
		return;
	}
	for (s = 0; s < ARRAY_SIZE(salts); s++) {
		for (len = 0; len < sizeof(buf); len++) {
			if (!ns_hash_agrees(salts[s], buf, len)) {
				static_branch_disable(&ns_hash_one_pass);
				ns_hash_why = "differs-from-full_name_hash";
				pr_warn("the one-pass name hash is not this kernel's (%u bytes): hashing in two passes\n",
					len);
				return;
			}
		}
	}
	ns_hash_why = "same-as-full_name_hash";
}

int ns_model_init(enum ns_ksym_source src, const char *hide)
{
	ns_hash_check();
	ns_record_links();
	ns_ksyms_init(src, hide);
	ns_probe_mounts_rcu();
	ns_rules_probe();
	return 0;
}

void ns_model_show_features(struct seq_file *m)
{
	const char *why;
	bool usable;

	seq_printf(m, "release %s\n", init_utsname()->release);
	seq_printf(m, "version %s\n", init_utsname()->version);
	ns_ksyms_show(m);
	ns_rules_show(m);
	usable = ns_vfs_mounts_rcu_usable(&why);
	seq_printf(m, "mounts_rcu usable=%s why=%s struct_mount_offset=%ld measured_on=%d\n",
		   usable ? "y" : "n", why, ns_mnt_offset, ns_mnt_offset_mounts);
	seq_printf(m, "lsm follow_link=%s why=%s\n", ns_lsm_follow_link_state(),
		   ns_ksym(NS_SYM_SECURITY_FOLLOW_LINK)->why ?: "not-looked-up");
	seq_printf(m, "links string_fingerprints=%d magic_fingerprints=%d magic_rule=procfs-without-i_link\n",
		   ns_string_links_found, ns_magic_links_found);
	seq_printf(m, "hash one_pass=%s why=%s\n",
		   static_key_enabled(&ns_hash_one_pass) ? "y" : "n", ns_hash_why);
	ns_ksyms_show_exports(m);
}

/*
 * The walker's door.  Each function below is one thing the 4.2 walker
 * does to the VFS, done with what the running kernel exports.
 */

void ns_vfs_get_root(struct path *root)
{
	get_fs_root(current->fs, root);
}

void ns_vfs_get_pwd(struct path *pwd)
{
	get_fs_pwd(current->fs, pwd);
}

/*
 * The hash the dcache files @name under in @parent: full_name_hash()
 * salted with the parent, as the running kernel's hash_name() computes
 * it, then the filesystem's own d_hash where it has one (which may
 * also refuse the name).
 */
int ns_vfs_may_exec(const struct path *dir)
{
	return path_permission(dir, MAY_EXEC);
}

int ns_vfs_permission(const struct path *path, int mask)
{
	return path_permission(path, mask);
}

/* Would the mount take a write?  Asked and given back at once. */
int ns_vfs_may_write_mount(struct vfsmount *mnt)
{
	int err = mnt_want_write(mnt);

	if (!err)
		mnt_drop_write(mnt);
	return err;
}

/* Facts the open handler's rules are made of (namei_shadow.c). */
bool ns_vfs_dir_is_dead(const struct inode *dir)
{
	return IS_DEADDIR(dir);
}

bool ns_vfs_can_create(const struct inode *dir)
{
	return dir->i_op->create;
}

/* Devices on it may not be opened (nodev, or a superblock without devices). */
bool ns_vfs_mount_nodev(const struct vfsmount *mnt)
{
	return (mnt->mnt_flags & MNT_NODEV) || (mnt->mnt_sb->s_iflags & SB_I_NODEV);
}

bool ns_vfs_mount_readonly(struct vfsmount *mnt)
{
	return __mnt_is_readonly(mnt);
}

/* A file being executed: its i_writecount is held negative. */
bool ns_vfs_being_executed(const struct inode *inode)
{
	return atomic_read(&inode->i_writecount) < 0;
}

/* A dcache hit (positive or negative), with a reference, or NULL. */
struct dentry *ns_vfs_lookup_cached(struct dentry *parent,
				    const struct qstr *name)
{
	return d_lookup(parent, name);
}

/*
 * Ask the filesystem whether a dcache hit still holds.  @dir and @name
 * are the directory searched and the name looked up there (7.2 hands
 * them to the filesystem; the dentry's own may be changing).
 */
int ns_vfs_revalidate(struct inode *dir, const struct qstr *name,
		      struct dentry *dentry, unsigned int flags)
{
	if (unlikely(dentry->d_flags & DCACHE_OP_REVALIDATE))
		return ns_compat_d_revalidate(dir, name, dentry, flags);
	return 1;
}

int ns_vfs_weak_revalidate(struct dentry *dentry, unsigned int flags)
{
	if (unlikely(dentry->d_flags & DCACHE_OP_WEAK_REVALIDATE))
		return dentry->d_op->d_weak_revalidate(dentry, flags);
	return 1;
}

void ns_vfs_invalidate(struct dentry *dentry)
{
	d_invalidate(dentry);
}

/*
 * Ask the filesystem: the parent's inode lock shared, d_alloc_parallel()
 * to meet any concurrent lookup of the same name, and ->lookup() with
 * the walk's own flags (lookup_one_unlocked() would pass none).  A
 * dentry someone else looked up meanwhile is revalidated unless
 * @revalidate is false (4.2's mountpoint_last never revalidates).
 */
struct dentry *ns_vfs_lookup_slow(struct dentry *dir, const struct qstr *name,
				  unsigned int flags, bool revalidate)
{
	struct inode *inode = dir->d_inode;
	struct ns_lookup_wait wait;
	struct dentry *dentry, *old;
	int err;

	inode_lock_shared(inode);
	if (unlikely(IS_DEADDIR(inode))) {
		dentry = ERR_PTR(-ENOENT);
		goto out;
	}
again:
	dentry = ns_compat_d_alloc_parallel(dir, name, &wait);
	if (IS_ERR(dentry))
		goto out;
	if (!d_in_lookup(dentry)) {
		err = revalidate ? ns_vfs_revalidate(inode, name, dentry, flags) : 1;
		if (err <= 0) {
			if (!err)
				d_invalidate(dentry);
			dput(dentry);
			if (!err)
				goto again;
			dentry = ERR_PTR(err);
		}
		goto out;
	}
	old = inode->i_op->lookup(inode, dentry, flags);
	d_lookup_done(dentry);
	if (unlikely(old)) {
		dput(dentry);
		dentry = old;
	}
out:
	inode_unlock_shared(inode);
	return dentry;
}

/* Is @dentry still below the root of @mnt?  Not after a bind-mount escape. */
bool ns_vfs_connected(struct vfsmount *mnt, struct dentry *dentry)
{
	if (mnt->mnt_root == mnt->mnt_sb->s_root)
		return true;
	return is_subdir(dentry, mnt->mnt_root);
}

/*
 * A link's body: inline (i_link), or from ->get_link -- with no dentry
 * (@dentry NULL) in RCU mode, where the filesystem may say -ECHILD.
 */
/* d_manage() for DCACHE_MANAGE_TRANSIT: 0 go on, -EISDIR stop, or an error. */
int ns_vfs_manage(struct path *path)
{
	if (!(READ_ONCE(path->dentry->d_flags) & DCACHE_MANAGE_TRANSIT))
		return 0;
	return path->dentry->d_op->d_manage(path, false);
}

/* One mount down, if one is mounted here in this namespace. */
bool ns_vfs_mount_down(struct path *path)
{
	if (!ns_vfs_is_mounted_on(path->dentry))
		return false;
	return follow_down_one(path);
}

/* From a mount's root to its mountpoint in the parent mount. */
bool ns_vfs_mount_up(struct path *path)
{
	return follow_up(path);
}

bool ns_vfs_needs_automount(const struct path *path)
{
	return READ_ONCE(path->dentry->d_flags) & DCACHE_NEED_AUTOMOUNT;
}

/*
 * Trigger the automount point @path and cross onto what it mounts.
 * finish_automount() is not exported, so this one step is handed to
 * the kernel: a walk of the empty name rooted at @path with
 * LOOKUP_DOWN|LOOKUP_AUTOMOUNT does exactly traverse_mounts() there.
 */
int ns_vfs_automount(struct path *path)
{
	struct path res;
	int err;

	err = vfs_path_lookup(path->dentry, path->mnt, "",
			      LOOKUP_DOWN | LOOKUP_AUTOMOUNT, &res);
	if (err)
		return err;
	path_put(path);
	*path = res;
	return 0;
}

/*
 * RCU-walk's side of the dcache.
 *
 * The kernel's __d_lookup_rcu() is not exported, and on IBT kernels its
 * ENDBR is sealed, so the module walks the live hash table itself:
 * dentry_hashtable (a pointer to the buckets) and d_hash_shift are data,
 * found through kallsyms and only read.  The bucket is the top bits of
 * the 32-bit hash, as d_hash() computes it on 6.1 and 6.12.  Each
 * candidate's d_seq is sampled raw (no wait for an even count); the
 * caller must check it before it trusts anything the dentry says.
 */
static struct hlist_bl_head *ns_hash_bucket(u64 hashlen)
{
	struct hlist_bl_head *table;
	unsigned int shift;

	table = READ_ONCE(*(struct hlist_bl_head **)ns_ksym(NS_SYM_DENTRY_HASHTABLE)->addr);
	shift = READ_ONCE(*(unsigned int *)ns_ksym(NS_SYM_D_HASH_SHIFT)->addr);
	return table + ((u32)hashlen >> shift);
}

/*
 * The first entry of a bucket, as hlist_bl_first_rcu() reads it (its
 * low bit is the bucket's bit lock); READ_ONCE rather than that macro,
 * whose rcu_dereference of a head that is not __rcu-annotated sparse
 * reports.  Entries are followed with READ_ONCE(node->next) likewise.
 */
static struct hlist_bl_node *ns_bucket_first(struct hlist_bl_head *b)
{
	return (struct hlist_bl_node *)((unsigned long)READ_ONCE(b->first) &
					~LIST_BL_LOCKMASK);
}

bool ns_vfs_rcu_lookup_usable(void)
{
	return ns_ksym(NS_SYM_DENTRY_HASHTABLE)->usable &&
		ns_ksym(NS_SYM_D_HASH_SHIFT)->usable;
}

/* d_compare, on a (name, len) pair read consistently under d_seq. */
static struct dentry *ns_lookup_rcu_op_compare(const struct dentry *parent,
					       const struct qstr *name,
					       unsigned int *seqp, bool *retried)
{
	struct hlist_bl_node *node;
	struct dentry *dentry;

	for (node = ns_bucket_first(ns_hash_bucket(name->hash_len)); node;
	     node = READ_ONCE(node->next)) {
		const char *tname;
		unsigned int seq;
		int tlen;

		dentry = hlist_bl_entry(node, struct dentry, d_hash);
seqretry:
		seq = raw_seqcount_begin(&dentry->d_seq);
		if (dentry->d_parent != parent || d_unhashed(dentry))
			continue;
		if (dentry->d_name.hash != name->hash)
			continue;
		tlen = dentry->d_name.len;
		tname = dentry->d_name.name;
		if (read_seqcount_retry(&dentry->d_seq, seq)) {
			*retried = true;
			cpu_relax();
			goto seqretry;
		}
		if (parent->d_op->d_compare(dentry, tlen, tname, name))
			continue;
		*seqp = seq;
		return dentry;
	}
	return NULL;
}

/*
 * The dentry for @name in @parent, unreferenced, with its d_seq in
 * *@seqp, or NULL.  Under rcu_read_lock().  A concurrent rename can
 * make it miss; the walk then falls back to REF-walk's d_lookup().
 */
/*
 * Are the @len bytes at @a those at @b?  A word at a time, then the
 * tail, inline: names are short, and a call would cost more than the
 * compare.  Reads exactly @len bytes of each.
 */
static inline bool ns_name_same(const unsigned char *a, const unsigned char *b,
				unsigned int len)
{
	for (; len >= sizeof(unsigned long); len -= sizeof(unsigned long)) {
		if (get_unaligned((const unsigned long *)a) !=
		    get_unaligned((const unsigned long *)b))
			return false;
		a += sizeof(unsigned long);
		b += sizeof(unsigned long);
	}
	while (len--)
		if (*a++ != *b++)
			return false;
	return true;
}

struct dentry *ns_vfs_lookup_rcu(const struct dentry *parent,
				 const struct qstr *name, unsigned int *seqp,
				 bool *retried)
{
	struct hlist_bl_node *node;
	struct dentry *dentry;

	if (unlikely(parent->d_flags & DCACHE_OP_COMPARE))
		return ns_lookup_rcu_op_compare(parent, name, seqp, retried);

	for (node = ns_bucket_first(ns_hash_bucket(name->hash_len)); node;
	     node = READ_ONCE(node->next)) {
		unsigned int seq;

		dentry = hlist_bl_entry(node, struct dentry, d_hash);
		seq = raw_seqcount_begin(&dentry->d_seq);
		if (dentry->d_parent != parent || d_unhashed(dentry))
			continue;
		if (dentry->d_name.hash_len != name->hash_len)
			continue;
		/* the name may be renamed under us: d_seq will tell */
		if (!ns_name_same(READ_ONCE(dentry->d_name.name), name->name,
				  name->len))
			continue;
		*seqp = seq;
		return dentry;
	}
	return NULL;
}

/*
 * The module's RCU lookup beside the kernel's own __d_lookup_rcu, on
 * the same name, in one RCU section: where the kernel's is safely
 * callable (an intact ENDBR, or IBT not enforced), both must find the
 * same dentry.  For the selftests, through debugfs `rcu_lookup_check`.
 * Returns 1 same, 0 different, -EOPNOTSUPP when the kernel's cannot be
 * called here.
 */
typedef struct dentry *(*ns_d_lookup_rcu_t)(const struct dentry *parent,
					    const struct qstr *name,
					    unsigned int *seqp);

int ns_vfs_compare_lookup_rcu(struct dentry *parent, const char *name,
			      bool *found)
{
	const struct ns_ksym *k = ns_ksym(NS_SYM_D_LOOKUP_RCU);
	struct qstr q = QSTR_INIT(name, strlen(name));
	struct dentry *ours, *theirs;
	unsigned int s1 = 0, s2 = 0;
	bool retried = false;
	int err;

	if (!k->usable || !ns_vfs_rcu_lookup_usable())
		return -EOPNOTSUPP;
	err = ns_vfs_hash(parent, &q);
	if (err)
		return err;
	rcu_read_lock();
	ours = ns_vfs_lookup_rcu(parent, &q, &s1, &retried);
	theirs = ((ns_d_lookup_rcu_t)k->addr)(parent, &q, &s2);
	rcu_read_unlock();
	*found = ours;
	return ours == theirs && (!ours || s1 == s2);
}

/*
 * Legitimizing one dentry found in RCU mode: a reference, if it is not
 * dead, and its d_seq unchanged since @seq.  A reference taken on a
 * dentry whose d_seq moved is kept (NS_DGET_STALE) for the caller to
 * drop once it has left RCU mode: dput() may sleep.
 */
enum ns_dget ns_vfs_dget_seq(struct dentry *dentry, unsigned int seq)
{
	if (!lockref_get_not_dead(&dentry->d_lockref))
		return NS_DGET_DEAD;
	if (read_seqcount_retry(&dentry->d_seq, seq))
		return NS_DGET_STALE;
	return NS_DGET_OK;
}

/* d_seq now, even mid-write (then any later check fails). */
unsigned int ns_vfs_seq_sample(struct dentry *dentry)
{
	return raw_seqcount_begin(&dentry->d_seq);
}

/*
 * Is @dentry, whose d_seq was @seq, still the child of @parent named
 * @name (as a lookup hashed it)?  Not if a rename moved it since a
 * lookup found it there: to another directory or another name.
 */
bool ns_vfs_still_named(struct dentry *dentry, unsigned int seq,
			const struct dentry *parent, const struct qstr *name)
{
	bool same = READ_ONCE(dentry->d_parent) == parent &&
		READ_ONCE(dentry->d_name.hash_len) == name->hash_len;

	return same && !read_seqcount_retry(&dentry->d_seq, seq);
}

/*
 * What a walk's decisions at @dentry rested on besides its name: the
 * inode, its permission bits, owner and ACL.  chmod, chown and setfacl
 * move no seqlock and no d_seq; they do move ctime and, where the
 * filesystem keeps one (tmpfs since 6.6, ext4, xfs, btrfs), i_version,
 * which counts every change even within one clock tick.  Read without
 * locks, as RCU mode may: a torn read only reports a change.
 */
void ns_vfs_attrs_take(struct ns_vfs_attrs *a, const struct dentry *dentry)
{
	const struct inode *inode = READ_ONCE(dentry->d_inode);
	struct timespec64 ctime;

	memset(a, 0, sizeof(*a));
	a->inode = inode;
	if (!inode)
		return;
	a->mode = READ_ONCE(inode->i_mode);
	a->uid = __kuid_val(READ_ONCE(inode->i_uid));
	a->gid = __kgid_val(READ_ONCE(inode->i_gid));
	a->version = inode_peek_iversion_raw(inode);
	ctime = ns_inode_ctime(inode);
	a->ctime_sec = ctime.tv_sec;
	a->ctime_nsec = ctime.tv_nsec;
#ifdef CONFIG_FS_POSIX_ACL
	a->acl = READ_ONCE(inode->i_acl);
#endif
}

bool ns_vfs_attrs_changed(const struct ns_vfs_attrs *a,
			  const struct dentry *dentry)
{
	struct ns_vfs_attrs now;

	ns_vfs_attrs_take(&now, dentry);
	return memcmp(a, &now, sizeof(now)) != 0;
}

/*
 * The mount on top of @dentry in @mnt, NULL if none: for comparing with
 * what a walk crossed to, never dereferenced.
 */
const struct vfsmount *ns_vfs_mount_top(struct vfsmount *mnt,
					struct dentry *dentry)
{
	struct path path = { .mnt = mnt, .dentry = dentry };
	const struct vfsmount *top = NULL;

	path_get(&path);
	while (d_mountpoint(path.dentry) && follow_down_one(&path))
		top = path.mnt;
	path_put(&path);
	return top;
}

/*
 * The same file: the same inode number of the same type on the same
 * superblock.  Not the same struct inode: procfs makes a new one at
 * every lookup of its entries.
 */
bool ns_vfs_same_file(const struct inode *a, const struct inode *b)
{
	return a && b && a->i_sb == b->i_sb && a->i_ino == b->i_ino &&
		((a->i_mode ^ b->i_mode) & S_IFMT) == 0;
}

/*
 * @dentry is unhashed: does its name in its parent now lead to the same
 * file, on another dentry?  That is a filesystem remaking its dentries
 * (/proc/<pid>/net revalidates every one as stale), not a change of the
 * namespace: the name still means what it meant.
 */
bool ns_vfs_rebound_same(struct dentry *dentry)
{
	struct dentry *parent = dget_parent(dentry), *now;
	struct name_snapshot name;
	bool same = false;

	take_dentry_name_snapshot(&name, dentry);
	now = d_lookup(parent, &name.name);
	if (now) {
		same = now != dentry &&
			ns_vfs_same_file(d_inode(now), d_inode(dentry));
		dput(now);
	}
	release_dentry_name_snapshot(&name);
	dput(parent);
	return same;
}

/* Do @a and @b carry the same name in the same directory? */
bool ns_vfs_same_name(struct dentry *a, struct dentry *b)
{
	struct dentry *pa = dget_parent(a), *pb = dget_parent(b);
	struct name_snapshot na, nb;
	bool same;

	take_dentry_name_snapshot(&na, a);
	take_dentry_name_snapshot(&nb, b);
	same = pa == pb && na.name.len == nb.name.len &&
		!memcmp(na.name.name, nb.name.name, na.name.len);
	release_dentry_name_snapshot(&nb);
	release_dentry_name_snapshot(&na);
	dput(pb);
	dput(pa);
	return same;
}

/*
 * A request's start, pinned: the writer's root and cwd, taken once into
 * a private fs_struct that the writer's task uses while the request
 * runs, and the file of its at= descriptor, held.  The shadow and the
 * kernel's own walks then start from the same place: chdir() and
 * chroot() by another thread of the writer act on its shared fs_struct,
 * not on this one.  Only the task itself reads current->fs; others
 * (/proc/PID/cwd) take task_lock.  The kernel takes an at= start from a
 * descriptor, as openat() does: the file is installed at the writer's
 * lowest free one too, where dup2() onto the at= number cannot reach
 * it (a writer with none free leaves the kernel unasked; so does
 * @copy_fd false: live mode changes nothing of the program it watches).
 */
int ns_vfs_start_enter(struct ns_start *st, int dfd, bool copy_fd)
{
	struct fs_struct *fs = current->fs;

	memset(st, 0, sizeof(*st));
	st->kfd = -1;
	if (dfd != AT_FDCWD) {
		st->file = dfd < 0 ? NULL : fget_raw(dfd);
		if (!st->file)
			return -EBADF;
		st->no_kfd = "no-descriptor-in-a-traced-program";
		if (copy_fd) {
			st->kfd = get_unused_fd_flags(O_CLOEXEC);
			st->no_kfd = "no-free-descriptor-in-writer";
		}
		if (st->kfd >= 0)
			fd_install(st->kfd, get_file(st->file));
	}
	st->fs.users = 1;
	ns_compat_fs_struct_init(&st->fs);
	st->fs.umask = READ_ONCE(fs->umask);
	get_fs_pwd(fs, &st->fs.pwd);
	get_fs_root(fs, &st->fs.root);
	task_lock(current);
	st->writer = current->fs;
	current->fs = &st->fs;
	task_unlock(current);
	return 0;
}

/* The kernel's copy of the at= descriptor no longer holds the pinned file. */
bool ns_vfs_start_moved(const struct ns_start *st)
{
	struct file *file;

	if (st->kfd < 0)
		return false;
	file = fget_raw(st->kfd);
	if (file)
		fput(file);
	return file != st->file;
}

/*
 * The copy taken out of the writer's table again, without close()'s
 * flush: that would drop the writer's own POSIX locks and dnotify
 * watches on the file, and call ->flush.  Only while it is the copy.
 */
static void ns_vfs_start_drop_copy(struct ns_start *st)
{
	struct file *file;

	if (st->kfd < 0 || ns_vfs_start_moved(st))
		return;
	file = ns_compat_file_close_fd(st->kfd);
	if (file)
		fput(file);
}

void ns_vfs_start_leave(struct ns_start *st)
{
	task_lock(current);
	current->fs = st->writer;
	task_unlock(current);
	ns_vfs_start_drop_copy(st);
	if (st->uname)
		vm_munmap(st->uname, PAGE_SIZE);
	if (st->file)
		fput(st->file);
	path_put(&st->fs.root);
	path_put(&st->fs.pwd);
}

/* The start of a relative name: the at= descriptor's file, or the cwd. */
const struct path *ns_vfs_start_path(const struct ns_start *st)
{
	return st->file ? &st->file->f_path : &st->fs.pwd;
}

static seqlock_t *ns_mount_lock(void)
{
	const struct ns_ksym *s = ns_ksym(NS_SYM_MOUNT_LOCK);

	return s->usable ? (seqlock_t *)s->addr : NULL;
}

void ns_vfs_seq_begin(struct ns_vfs_seq *seq)
{
	seq->rename = ns_vfs_rename_seq_begin();
	seq->mount = ns_vfs_mount_seq_begin();
}

bool ns_vfs_seq_moved(const struct ns_vfs_seq *seq)
{
	return ns_vfs_rename_seq_retry(seq->rename) ||
		ns_vfs_mount_seq_retry(seq->mount);
}

/*
 * RCU-walk across mounts.  The kernel's walker crosses a mountpoint
 * without references: __lookup_mnt() finds the mount on it, mount_lock's
 * sequence (sampled when the walk began) says whether the mount table
 * moved since, and __legitimize_mnt() takes the reference when the walk
 * leaves RCU mode.  Neither function is exported; both are called
 * through a pointer only where ns_ksym_judge() found that safe.
 *
 * __lookup_mnt() answers with a struct mount, which is private to fs/;
 * the struct vfsmount the walker wants is embedded in it.  Its offset
 * is measured at load, not assumed: a mount found by kern_path() is
 * taken up to its mountpoint by follow_up(), and asked for again with
 * __lookup_mnt(); the two answers must be the same mount.
 */
typedef void *(*ns_lookup_mnt_t)(struct vfsmount *mnt, struct dentry *dentry);
typedef int (*ns_legitimize_mnt_t)(struct vfsmount *mnt, unsigned int seq);

static const char *ns_mounts_rcu_why = "not-probed";

static const char *const ns_calibration_mounts[] = {
	"/proc", "/sys", "/dev", "/run", "/tmp",
};

/*
 * The offset for the mount at @where, or -1 when nothing is mounted
 * there, or it has no parent here.  @where must be the mount's own root:
 * a name below it would take follow_up() to the same mount's mountpoint
 * again.  *@mnt says which mount was measured.
 */
static long ns_measure_mnt_offset(const char *where, struct vfsmount **mnt)
{
	ns_lookup_mnt_t lookup = (ns_lookup_mnt_t)ns_ksym(NS_SYM_LOOKUP_MNT)->addr;
	struct path child, up;
	long off = -1;
	void *m;

	if (kern_path(where, LOOKUP_FOLLOW, &child))
		return -1;
	up = child;
	path_get(&up);
	if (child.dentry == child.mnt->mnt_root && follow_up(&up)) {
		rcu_read_lock();
		m = lookup(up.mnt, up.dentry);
		rcu_read_unlock();
		if (m)
			off = (char *)child.mnt - (char *)m;
	}
	*mnt = child.mnt;
	path_put(&up);
	path_put(&child);
	return off;
}

/*
 * The offset, where two mounts at least measure it alike and none
 * differs; each mount counts once, however many names it is found by.
 */
static void ns_probe_mounts_rcu(void)
{
	struct vfsmount *seen[ARRAY_SIZE(ns_calibration_mounts)];
	long off = -1, again;
	int i, j;

	if (!ns_ksym(NS_SYM_LOOKUP_MNT)->usable) {
		ns_mounts_rcu_why = "__lookup_mnt-not-callable";
		return;
	}
	if (!ns_ksym(NS_SYM_LEGITIMIZE_MNT)->usable) {
		ns_mounts_rcu_why = "__legitimize_mnt-not-callable";
		return;
	}
	if (!ns_mount_lock()) {
		ns_mounts_rcu_why = "mount_lock-not-readable";
		return;
	}
	ns_mnt_offset_mounts = 0;
	for (i = 0; i < ARRAY_SIZE(ns_calibration_mounts); i++) {
		again = ns_measure_mnt_offset(ns_calibration_mounts[i],
					      &seen[ns_mnt_offset_mounts]);
		if (again < 0)
			continue;
		if (off >= 0 && again != off) {
			ns_mounts_rcu_why = "struct-mount-offsets-disagree";
			return;
		}
		off = again;
		for (j = 0; j < ns_mnt_offset_mounts; j++)
			if (seen[j] == seen[ns_mnt_offset_mounts])
				break;
		if (j == ns_mnt_offset_mounts)
			ns_mnt_offset_mounts++;
	}
	if (!ns_mnt_offset_mounts) {
		ns_mounts_rcu_why = "no-mount-to-measure-struct-mount-by";
		return;
	}
	if (ns_mnt_offset_mounts < 2) {
		ns_mounts_rcu_why = "struct-mount-offset-unconfirmed";
		return;
	}
	if (off > 256 || off % sizeof(long)) {
		ns_mounts_rcu_why = "struct-mount-offset-implausible";
		return;
	}
	ns_mnt_offset = off;
	ns_mounts_rcu_why = "__lookup_mnt-and-__legitimize_mnt-callable";
}

bool ns_vfs_mounts_rcu_usable(const char **why)
{
	*why = ns_mounts_rcu_why;
	return ns_mnt_offset >= 0;
}

/* mount_lock's sequence, for a walk about to run in RCU mode. */
unsigned int ns_vfs_mount_seq_begin(void)
{
	seqlock_t *ml = ns_mount_lock();

	return ml ? read_seqbegin(ml) : 0;
}

bool ns_vfs_mount_seq_retry(unsigned int seq)
{
	seqlock_t *ml = ns_mount_lock();

	return ml && read_seqretry(ml, seq);
}

/* RCU mode: what is mounted on @dentry in @mnt, unreferenced, or NULL. */
struct vfsmount *ns_vfs_lookup_mnt_rcu(struct vfsmount *mnt,
				       struct dentry *dentry)
{
	ns_lookup_mnt_t lookup = (ns_lookup_mnt_t)ns_ksym(NS_SYM_LOOKUP_MNT)->addr;
	char *m;

	if (ns_mnt_offset < 0)
		return NULL;
	m = lookup(mnt, dentry);
	return m ? (struct vfsmount *)(m + ns_mnt_offset) : NULL;
}

/*
 * A reference on a mount crossed in RCU mode, if the mount table has
 * not moved since @seq: 0, referenced; 1, failed, nothing taken; -1,
 * failed with a reference the caller drops (mntput()) outside RCU.
 */
int ns_vfs_legitimize_mnt(struct vfsmount *mnt, unsigned int seq)
{
	ns_legitimize_mnt_t legitimize =
		(ns_legitimize_mnt_t)ns_ksym(NS_SYM_LEGITIMIZE_MNT)->addr;

	return legitimize(mnt, seq);
}
