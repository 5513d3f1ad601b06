// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs files: `resolve` (a request written, its result read back
 * on the same fd), `rcu_lookup_check`, `features`, and what they share
 * with `batch` (checker/batch.c) and `stats` (checker/stats.c).
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ns_check.h"
#include "ns_live.h"
#include "ns_text.h"

/*
 * A control file's one command, @word, surrounded by white space or
 * not: 0, -EFAULT for a buffer that cannot be read, or -EINVAL.
 */
int ns_control_word(const char __user *ubuf, size_t count, const char *word)
{
	char buf[16] = {};

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (strlen(buf) != count || strcmp(strim(buf), word))
		return -EINVAL;
	return 0;
}

static int resolve_open(struct inode *inode, struct file *file)
{
	struct ns_session *ss = kzalloc(sizeof(*ss), GFP_KERNEL);

	if (!ss || ns_session_init(ss, true)) {
		kfree(ss);
		return -ENOMEM;
	}
	file->private_data = ss;
	return 0;
}

static int resolve_release(struct inode *inode, struct file *file)
{
	struct ns_session *ss = file->private_data;

	ns_session_free(ss);
	kfree(ss);
	return 0;
}

/* "error err=<errno> reason=<why>": a refused request, as read back. */
void ns_put_error(struct ns_buf *sb, int err, const char *why)
{
	ns_puts(sb, "error err=");
	ns_put_errno(sb, err);
	ns_printf(sb, " reason=%s\n", why);
}

/* The refusal as the whole of what a session's next read() returns. */
size_t ns_error_text(char *buf, size_t size, int err, const char *why)
{
	struct ns_buf sb;

	ns_buf_init(&sb, buf, size);
	ns_put_error(&sb, err, why);
	return ns_buf_used(&sb);
}

ssize_t ns_read_locked(struct mutex *lock, const char *buf, const size_t *len,
		       char __user *ubuf, size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, *len);
	mutex_unlock(lock);
	return ret;
}

static ssize_t resolve_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct ns_session *ss = file->private_data;
	struct ns_request rq = {};
	const char *why = NULL;
	char *buf;
	int err;

	mutex_lock(&ss->lock);
	if (count > NS_REQUEST_MAX) {
		err = -ENAMETOOLONG;
		why = "request longer than PATH_MAX and its options";
		goto reject;
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf)) {
		err = PTR_ERR(buf);
		why = "cannot read the request";
		goto reject;
	}
	err = ns_parse_request(buf, count, &rq, &why);
	if (err) {
		kfree(buf);
		goto reject;
	}
	ss->len = ns_run_request(&rq, ss, NULL);
	kfree(buf);
	*ppos = 0;	/* the next read() starts at the new result */
	mutex_unlock(&ss->lock);
	return count;

reject:
	ns_stats_count_rejected();
	ss->len = ns_error_text(ss->result, NS_RESULT_MAX, err, why);
	*ppos = 0;
	mutex_unlock(&ss->lock);
	return err;
}

static ssize_t resolve_read(struct file *file, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	struct ns_session *ss = file->private_data;

	return ns_read_locked(&ss->lock, ss->result, &ss->len, ubuf, count, ppos);
}

static const struct file_operations resolve_fops = {
	.owner = THIS_MODULE,
	.open = resolve_open,
	.release = resolve_release,
	.read = resolve_read,
	.write = resolve_write,
	.llseek = default_llseek,
};

/*
 * rcu_lookup_check: write "<directory> <name>"; read back, on the same
 * fd, whether the module's RCU lookup and the kernel's __d_lookup_rcu
 * found the same dentry for it: "same found=y|n", "different", or
 * "unavailable" where the kernel's cannot be called safely (sealed ENDBR
 * under IBT).  A failed write leaves nothing to read.
 */
#define NS_CHECK_RESULT	64

static int rcu_lookup_check_open(struct inode *inode, struct file *file)
{
	file->private_data = kzalloc(NS_CHECK_RESULT, GFP_KERNEL);
	return file->private_data ? 0 : -ENOMEM;
}

static int rcu_lookup_check_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static DEFINE_MUTEX(ns_check_lock);

/* Check "<directory> <name>" in @buf; the answer into @result. */
static int ns_rcu_lookup_check(char *buf, char *result)
{
	char *dirname = strim(buf), *name = strrchr(dirname, ' ');
	struct path dir;
	bool found = false;
	int err, same;

	if (!name || !name[1] || strchr(name + 1, '/'))
		return -EINVAL;
	*name++ = '\0';
	err = kern_path(strim(dirname), LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
	if (err)
		return err;
	same = ns_vfs_compare_lookup_rcu(dir.dentry, name, &found);
	path_put(&dir);
	if (same == -EOPNOTSUPP)
		strscpy(result, "unavailable\n", NS_CHECK_RESULT);
	else if (same < 0)
		snprintf(result, NS_CHECK_RESULT, "error %d\n", same);
	else
		snprintf(result, NS_CHECK_RESULT, "%s found=%s\n",
			 same ? "same" : "different", found ? "y" : "n");
	return 0;
}

static ssize_t rcu_lookup_check_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char *result = file->private_data;
	char *buf;
	int err;

	if (count > PATH_MAX + NAME_MAX)
		return -ENAMETOOLONG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&ns_check_lock);
	result[0] = '\0';
	err = strlen(buf) == count ? ns_rcu_lookup_check(buf, result) : -EINVAL;
	*ppos = 0;
	mutex_unlock(&ns_check_lock);
	kfree(buf);
	return err ? err : count;
}

static ssize_t rcu_lookup_check_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	const char *result = file->private_data;
	ssize_t ret;

	mutex_lock(&ns_check_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, result, strlen(result));
	mutex_unlock(&ns_check_lock);
	return ret;
}

static const struct file_operations rcu_lookup_check_fops = {
	.owner = THIS_MODULE,
	.open = rcu_lookup_check_open,
	.release = rcu_lookup_check_release,
	.read = rcu_lookup_check_read,
	.write = rcu_lookup_check_write,
	.llseek = default_llseek,
};

/*
 * The running kernel's LOOKUP_* values, to read the raw flags of a
 * trace by: 7.0 renumbered them (LOOKUP_RCU was 0x40, is 0x100).
 */
static const struct {
	const char *name;
	unsigned int flag;
} ns_lookup_flag_values[] = {
	{ "follow", LOOKUP_FOLLOW }, { "directory", LOOKUP_DIRECTORY },
	{ "automount", LOOKUP_AUTOMOUNT }, { "empty", LOOKUP_EMPTY },
	{ "down", LOOKUP_DOWN }, { "mountpoint", LOOKUP_MOUNTPOINT },
	{ "reval", LOOKUP_REVAL }, { "rcu", LOOKUP_RCU },
	{ "parent", LOOKUP_PARENT }, { "open", LOOKUP_OPEN },
	{ "create", LOOKUP_CREATE }, { "excl", LOOKUP_EXCL },
};

static void ns_show_lookup_flags(struct seq_file *m)
{
	int i;

	seq_puts(m, "lookup_flags");
	for (i = 0; i < ARRAY_SIZE(ns_lookup_flag_values); i++)
		seq_printf(m, " %s=%#x", ns_lookup_flag_values[i].name,
			   ns_lookup_flag_values[i].flag);
	seq_putc(m, '\n');
}

static int ns_features_show(struct seq_file *m, void *unused)
{
	const char *why_full;
	bool full = ns_vfs_mounts_rcu_usable(&why_full);

	ns_model_show_features(m);

	seq_printf(m, "rcu mode=%s why=%s full=%s why_full=%s\n",
		   ns_rcu_mode_names[ns_rcu_mode], ns_rcu_why,
		   full ? "y" : "n", why_full);
	seq_printf(m, "batch max_bytes=%d max_requests=%d\n", NS_BATCH_BYTES,
		   NS_BATCH_REQUESTS);
	ns_show_lookup_flags(m);
	ns_live_show_features(m);
	seq_puts(m, "walk ref=y rcu=y reval-retry=y symlinks=stack magic=delegated protected_symlinks=y nosymfollow=y open=dry-run semantics=running,4.2\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ns_features);

/* The files, in /sys/kernel/debug/namei_shadow/. */
void ns_debugfs_create(struct dentry *dir)
{
	debugfs_create_file("features", 0400, dir, NULL, &ns_features_fops);
	debugfs_create_file("resolve", 0600, dir, NULL, &resolve_fops);
	debugfs_create_file("batch", 0600, dir, NULL, &ns_batch_fops);
	debugfs_create_file("bench", 0600, dir, NULL, &ns_bench_fops);
	debugfs_create_file("stats", 0600, dir, NULL, &ns_stats_fops);
	debugfs_create_file("mismatches", 0600, dir, NULL, &ns_mismatches_fops);
	debugfs_create_file("live", 0600, dir, NULL, &ns_live_fops);
	debugfs_create_file("rcu_lookup_check", 0600, dir, NULL,
			    &rcu_lookup_check_fops);
}
