// SPDX-License-Identifier: GPL-2.0
/*
 * What the checker counts -- requests, verdicts, RCU-walk's unlazies
 * and restarts by reason, the shadow's errnos -- and the log of the
 * last mismatches: the debugfs files `stats` and `mismatches`.
 */

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ns_check.h"
#include "ns_text.h"

/*
 * The counters: requests, verdicts, how walks ended in RCU mode or left
 * it (by enum ns_why), and the shadow's errnos, one by one up to
 * NS_ERRNO_SLOTS.
 */
enum ns_counter {
	NS_C_REQUESTS,
	NS_C_WALKS_RCU,		/* walks that completed in RCU mode */
	NS_C_UNLAZY,		/* NS_WHYS slots */
	NS_C_RESTART = NS_C_UNLAZY + NS_WHYS,	/* NS_WHYS slots */
	NS_C_REJECTED = NS_C_RESTART + NS_WHYS,
	NS_C_SHADOW_OK,
	NS_C_REVAL_RETRIES,
	NS_C_VERDICT,	/* NS_VERDICTS slots */
	NS_C_ERRNO = NS_C_VERDICT + NS_VERDICTS,	/* NS_ERRNO_SLOTS slots */
	NS_C_ERRNO_OTHER = NS_C_ERRNO + NS_ERRNO_SLOTS,
	NS_C_NR
};

static atomic_long_t ns_counters[NS_C_NR];

static void ns_count(enum ns_counter c)
{
	atomic_long_inc(&ns_counters[c]);
}

static long ns_counter(enum ns_counter c)
{
	return atomic_long_read(&ns_counters[c]);
}

void ns_stats_count_rejected(void)
{
	ns_count(NS_C_REJECTED);
}

/* A request judged: its verdict, its walk, the shadow's errno. */
void ns_stats_count(enum ns_verdict verdict, const struct ns_walk_info *wi,
		    int shadow_err)
{
	ns_count(NS_C_REQUESTS);
	ns_count(NS_C_VERDICT + verdict);
	if (wi->mode == NS_MODE_RCU)
		ns_count(NS_C_WALKS_RCU);
	if (wi->unlazy_reason)
		ns_count(NS_C_UNLAZY + wi->unlazy_reason);
	if (wi->restart_reason)
		ns_count(NS_C_RESTART + wi->restart_reason);
	if (wi->reval)
		ns_count(NS_C_REVAL_RETRIES);
	if (!shadow_err)
		ns_count(NS_C_SHADOW_OK);
	else if (shadow_err < 0 && -shadow_err < NS_ERRNO_SLOTS)
		ns_count(NS_C_ERRNO - shadow_err);
	else
		ns_count(NS_C_ERRNO_OTHER);
}

#define NS_MISMATCH_LOG	64
#define NS_MISMATCH_MAX	(16 * 1024)	/* bytes kept of each record */

static DEFINE_MUTEX(ns_mismatch_lock);
static char *ns_mismatch_log[NS_MISMATCH_LOG];
static unsigned long ns_mismatch_total;

void ns_log_mismatch(const char *text, size_t len)
{
	char *rec = kmemdup_nul(text, min_t(size_t, len, NS_MISMATCH_MAX),
				GFP_KERNEL);

	if (!rec)
		return;
	mutex_lock(&ns_mismatch_lock);
	kfree(ns_mismatch_log[ns_mismatch_total % NS_MISMATCH_LOG]);
	ns_mismatch_log[ns_mismatch_total % NS_MISMATCH_LOG] = rec;
	ns_mismatch_total++;
	mutex_unlock(&ns_mismatch_lock);
}

void ns_clear_mismatches(void)
{
	int i;

	mutex_lock(&ns_mismatch_lock);
	for (i = 0; i < NS_MISMATCH_LOG; i++) {
		kfree(ns_mismatch_log[i]);
		ns_mismatch_log[i] = NULL;
	}
	ns_mismatch_total = 0;
	mutex_unlock(&ns_mismatch_lock);
}

static int ns_stats_show(struct seq_file *m, void *unused)
{
	int i;

	seq_printf(m, "requests %ld\n", ns_counter(NS_C_REQUESTS));
	seq_printf(m, "rejected %ld\n", ns_counter(NS_C_REJECTED));
	for (i = 0; i < NS_VERDICTS; i++)
		seq_printf(m, "verdict_%s %ld\n", ns_verdict_names[i],
			   ns_counter(NS_C_VERDICT + i));
	seq_printf(m, "reval_retries %ld\n", ns_counter(NS_C_REVAL_RETRIES));
	seq_printf(m, "walks_rcu %ld\n", ns_counter(NS_C_WALKS_RCU));
	for (i = NS_WHY_NONE + 1; i < NS_WHYS; i++)
		seq_printf(m, "unlazy %s %ld\n", ns_why_names[i],
			   ns_counter(NS_C_UNLAZY + i));
	for (i = NS_WHY_NONE + 1; i < NS_WHYS; i++)
		seq_printf(m, "restart %s %ld\n", ns_why_names[i],
			   ns_counter(NS_C_RESTART + i));
	seq_printf(m, "shadow_ok %ld\n", ns_counter(NS_C_SHADOW_OK));
	for (i = 1; i < NS_ERRNO_SLOTS; i++) {
		long n = ns_counter(NS_C_ERRNO + i);

		if (!n)
			continue;
		if (ns_errno_name(i))
			seq_printf(m, "errno %s %ld\n", ns_errno_name(i), n);
		else
			seq_printf(m, "errno %d %ld\n", i, n);
	}
	seq_printf(m, "errno other %ld\n", ns_counter(NS_C_ERRNO_OTHER));
	return 0;
}

static int ns_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, ns_stats_show, NULL);
}

/* Writing "reset" to `stats` zeroes the counters. */
static ssize_t stats_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	int i, err = ns_control_word(ubuf, count, "reset");

	if (err)
		return err;
	for (i = 0; i < NS_C_NR; i++)
		atomic_long_set(&ns_counters[i], 0);
	return count;
}

const struct file_operations ns_stats_fops = {
	.owner = THIS_MODULE,
	.open = ns_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = stats_write,
};

static int mismatches_show(struct seq_file *m, void *unused)
{
	unsigned long first, n;

	mutex_lock(&ns_mismatch_lock);
	first = ns_mismatch_total > NS_MISMATCH_LOG ?
		ns_mismatch_total - NS_MISMATCH_LOG : 0;
	seq_printf(m, "mismatches total=%lu shown=%lu\n", ns_mismatch_total,
		   ns_mismatch_total - first);
	for (n = first; n < ns_mismatch_total; n++)
		seq_printf(m, "mismatch n=%lu\n%s", n + 1,
			   ns_mismatch_log[n % NS_MISMATCH_LOG]);
	mutex_unlock(&ns_mismatch_lock);
	return 0;
}

static int mismatches_open(struct inode *inode, struct file *file)
{
	return single_open(file, mismatches_show, NULL);
}

/* Writing "clear" to `mismatches` empties the log. */
static ssize_t mismatches_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	int err = ns_control_word(ubuf, count, "clear");

	if (err)
		return err;
	ns_clear_mismatches();
	return count;
}

const struct file_operations ns_mismatches_fops = {
	.owner = THIS_MODULE,
	.open = mismatches_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = mismatches_write,
};
