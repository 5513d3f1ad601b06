// SPDX-License-Identifier: GPL-2.0
/*
 * `batch`: many requests in one write, a summary line each read back.
 */

#include <linux/fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ns_check.h"
#include "ns_text.h"

/*
 * batch: many requests in one write, one newline-separated request per
 * line (resolve's grammar; empty lines skipped), each run as a write to
 * resolve would run it.  Reading back gives one summary line per
 * request and a total.  A write is at most NS_BATCH_BYTES and
 * NS_BATCH_REQUESTS; requests may not span writes.  A fatal signal stops
 * a batch after the request in hand: the write then returns the bytes
 * done, so a partial batch is never taken for a whole one.
 */
/* a summary line: its fields, and its path escaped (4 bytes a byte) */
#define NS_BATCH_LINE		256
#define NS_BATCH_OUT_MAX	(4 * NS_BATCH_BYTES + \
				 NS_BATCH_REQUESTS * NS_BATCH_LINE + NS_BATCH_LINE)

struct ns_batch {
	struct ns_session ss;	/* its buffers serve each request in turn */
	char *out;		/* NS_BATCH_OUT_MAX bytes */
	size_t len;
	long counts[NS_VERDICTS + 1];	/* per verdict; the last: refused */
};

static int batch_open(struct inode *inode, struct file *file)
{
	struct ns_batch *b = kzalloc(sizeof(*b), GFP_KERNEL);

	/* a batch reads summaries: its walks are not recorded */
	if (!b || ns_session_init(&b->ss, false)) {
		kfree(b);
		return -ENOMEM;
	}
	b->out = kvmalloc(NS_BATCH_OUT_MAX, GFP_KERNEL);
	if (!b->out) {
		ns_session_free(&b->ss);
		kfree(b);
		return -ENOMEM;
	}
	file->private_data = b;
	return 0;
}

static int batch_release(struct inode *inode, struct file *file)
{
	struct ns_batch *b = file->private_data;

	kvfree(b->out);
	ns_session_free(&b->ss);
	kfree(b);
	return 0;
}

/* Requests in @buf: its non-empty lines. */
static int ns_batch_count(const char *buf, size_t len)
{
	const char *end = buf + len, *nl;
	int n = 0;

	for (; buf < end; buf = nl + 1) {
		nl = memchr(buf, '\n', end - buf);
		if (!nl)
			nl = end;
		n += nl > buf;
	}
	return n;
}

/* One request of a batch, @line NUL-terminated, @len long. */
static void ns_batch_one(struct ns_batch *b, struct ns_buf *sb, int n,
			 char *line, size_t len)
{
	struct ns_request rq = {};
	struct ns_summary sum = {};
	const char *why = NULL;
	int err;

	ns_printf(sb, "n=%d verdict=", n);
	err = ns_parse_request(line, len, &rq, &why);
	if (err) {
		ns_stats_count_rejected();
		b->counts[NS_VERDICTS]++;
		ns_put_error(sb, err, why);
		return;
	}
	ns_run_request(&rq, &b->ss, &sum);
	b->counts[sum.verdict]++;
	ns_printf(sb, "%s shadow=", ns_verdict_names[sum.verdict]);
	ns_put_errno(sb, sum.shadow_err);
	ns_puts(sb, " kernel=");
	if (sum.checked)
		ns_put_errno(sb, sum.kernel_err);
	else
		ns_printf(sb, "none reason=%s", sum.unchecked);
	ns_printf(sb, " mode=%s", ns_mode_names[sum.wi.mode]);
	if (sum.wi.unlazy_reason)
		ns_printf(sb, " unlazy=%s@%d", ns_why_names[sum.wi.unlazy_reason],
			  sum.wi.unlazy_step);
	else
		ns_puts(sb, " unlazy=none");
	ns_printf(sb, " restarts=%d", sum.wi.restarts);
	if (sum.has_object)
		ns_printf(sb, " dev=%u:%u ino=%llu", MAJOR(sum.object.dev),
			  MINOR(sum.object.dev), sum.object.ino);
	ns_puts(sb, " path=");
	ns_put_escaped(sb, rq.path, strlen(rq.path));
	ns_putc(sb, '\n');
}

/* Returns how much of @buf was done: all of it, unless a fatal signal came. */
static size_t ns_batch_run(struct ns_batch *b, char *buf, size_t count)
{
	char *line, *nl, *end = buf + count;
	size_t done = count;
	struct ns_buf sb;
	int n = 0, i;

	memset(b->counts, 0, sizeof(b->counts));
	ns_buf_init(&sb, b->out, NS_BATCH_OUT_MAX);
	for (line = buf; line < end; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		if (nl == line)
			continue;
		if (fatal_signal_pending(current)) {
			done = line - buf;
			break;
		}
		*nl = '\0';
		ns_batch_one(b, &sb, ++n, line, nl - line);
		cond_resched();
	}
	ns_printf(&sb, "summary requests=%d", n);
	for (i = 0; i < NS_VERDICTS; i++)
		ns_printf(&sb, " %s=%ld", ns_verdict_names[i], b->counts[i]);
	ns_printf(&sb, " error=%ld\n", b->counts[NS_VERDICTS]);
	b->len = ns_buf_used(&sb);
	return done;
}

static ssize_t batch_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct ns_batch *b = file->private_data;
	const char *why = NULL;
	ssize_t ret;
	char *buf;

	mutex_lock(&b->ss.lock);
	*ppos = 0;	/* the next read() starts at the new summaries */
	if (count > NS_BATCH_BYTES) {
		ret = -E2BIG;
		why = "a batch is at most 65536 bytes of whole lines: split it";
		goto reject;
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf)) {
		ret = PTR_ERR(buf);
		why = "cannot read the batch";
		goto reject;
	}
	if (ns_batch_count(buf, count) > NS_BATCH_REQUESTS) {
		kfree(buf);
		ret = -E2BIG;
		why = "a batch is at most 4096 requests: split it";
		goto reject;
	}
	ret = ns_batch_run(b, buf, count);
	kfree(buf);
	if (!ret && count)
		ret = -EINTR;
	mutex_unlock(&b->ss.lock);
	return ret;

reject:
	ns_stats_count_rejected();
	b->len = ns_error_text(b->out, NS_BATCH_OUT_MAX, ret, why);
	mutex_unlock(&b->ss.lock);
	return ret;
}

static ssize_t batch_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct ns_batch *b = file->private_data;

	return ns_read_locked(&b->ss.lock, b->out, &b->len, ubuf, count, ppos);
}

const struct file_operations ns_batch_fops = {
	.owner = THIS_MODULE,
	.open = batch_open,
	.release = batch_release,
	.read = batch_read,
	.write = batch_write,
	.llseek = default_llseek,
};
