// SPDX-License-Identifier: GPL-2.0
/*
 * `bench`: one request walked many times by the shadow (its record off,
 * and on) and by the kernel, interleaved, in the writer's context; read
 * back ns per lookup for each walker (min, median, p90) and the ratios.
 * Only the walk is timed: the request is parsed and the start pinned
 * once, before; nothing is formatted until the end.
 */

#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "ns_check.h"
#include "ns_record.h"
#include "ns_text.h"

#define NS_BENCH_MAX_COUNT	100000

enum ns_bench_walker { NS_BW_SHADOW, NS_BW_RECORD, NS_BW_KERNEL, NS_BWS };

static const char *const ns_bench_names[NS_BWS] = {
	[NS_BW_SHADOW] = "shadow",
	[NS_BW_RECORD] = "shadow-record",
	[NS_BW_KERNEL] = "kernel",
};

struct ns_bench {
	struct ns_session ss;	/* nameidata, record, start, result text */
	struct ns_check check;	/* the walk, from its pinned start */
	unsigned int walkers;	/* BIT(enum ns_bench_walker) */
	int count;
	u64 *ns[NS_BWS];	/* count timings each */
	int err[NS_BWS];	/* the last answer's errno */
};

/* One walk by @w, timed; its answer released. */
static u64 ns_bench_walk(struct ns_bench *b, enum ns_bench_walker w)
{
	struct ns_answer a = {};
	struct ns_walk_info wi = {};
	u64 t0, t1;

	b->ss.nd.wit = NULL;
	b->ss.nd.rec = w == NS_BW_RECORD ? b->ss.rec : NULL;
	t0 = ktime_get_ns();
	if (w == NS_BW_KERNEL)
		ns_oracle(&b->check.walk, &b->ss.start, &a);
	else
		ns_walk(&b->check.walk, &b->ss.nd, &a, &wi);
	t1 = ktime_get_ns();
	b->err[w] = a.err;
	ns_answer_release(&a);
	return t1 - t0;
}

static int ns_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The @pct-th percentile of the sorted @v[@n]. */
static u64 ns_percentile(const u64 *v, int n, int pct)
{
	return v[(n - 1) * pct / 100];
}

/* "1.23": @x / @y to two places. */
static void ns_put_ratio(struct ns_buf *sb, u64 x, u64 y)
{
	u64 r = y ? div64_u64(x * 100 + y / 2, y) : 0;

	ns_printf(sb, "%llu.%02llu", r / 100, r % 100);
}

static size_t ns_bench_report(struct ns_bench *b, const struct ns_request *rq,
			      int done)
{
	struct ns_buf sb;
	u64 median[NS_BWS] = {};
	int w;

	ns_buf_init(&sb, b->ss.result, NS_RESULT_MAX);
	ns_put_request(&sb, rq);
	ns_printf(&sb, "bench count=%d done=%d\n", b->count, done);
	for (w = 0; w < NS_BWS; w++) {
		u64 *v = b->ns[w];

		if (!(b->walkers & BIT(w)) || !done)
			continue;
		sort(v, done, sizeof(*v), ns_cmp_u64, NULL);
		median[w] = ns_percentile(v, done, 50);
		ns_printf(&sb, "walker %s runs=%d min=%llu median=%llu p90=%llu max=%llu err=",
			  ns_bench_names[w], done, v[0], median[w],
			  ns_percentile(v, done, 90), v[done - 1]);
		ns_put_errno(&sb, b->err[w]);
		ns_putc(&sb, '\n');
	}
	for (w = NS_BW_SHADOW; w < NS_BW_KERNEL; w++) {
		if (!median[w] || !median[NS_BW_KERNEL])
			continue;
		ns_printf(&sb, "ratio %s/kernel median=", ns_bench_names[w]);
		ns_put_ratio(&sb, median[w], median[NS_BW_KERNEL]);
		ns_putc(&sb, '\n');
	}
	return ns_buf_used(&sb);
}

/*
 * Run the walk b->count times with each walker asked for, in turn within
 * each round, so that each sees the same cache and load.  Returns the
 * rounds done: fewer when a fatal signal came.
 */
static int ns_bench_run(struct ns_bench *b)
{
	int i, w;

	for (i = 0; i < b->count; i++) {
		if (fatal_signal_pending(current))
			break;
		for (w = 0; w < NS_BWS; w++)
			if (b->walkers & BIT(w))
				b->ns[w][i] = ns_bench_walk(b, w);
		cond_resched();
	}
	return i;
}

static int ns_bench_parse_walkers(char *val, unsigned int *walkers)
{
	char *tok;
	int w;

	*walkers = 0;
	while ((tok = strsep(&val, ",")) != NULL) {
		for (w = 0; w < NS_BWS; w++)
			if (!strcmp(tok, ns_bench_names[w]))
				break;
		if (w == NS_BWS)
			return -EINVAL;
		*walkers |= BIT(w);
	}
	return *walkers ? 0 : -EINVAL;
}

/*
 * "count=N [walkers=shadow,shadow-record,kernel] <request>": the bench's
 * own keys first, then a request as resolve takes it.  Returns where
 * the request starts.
 */
static char *ns_bench_parse(struct ns_bench *b, char *buf, const char **why)
{
	char *s = buf, *tok;

	b->count = 0;
	b->walkers = BIT(NS_BW_SHADOW) | BIT(NS_BW_RECORD) | BIT(NS_BW_KERNEL);
	for (;;) {
		size_t len = strcspn(s, " ");

		if (!strncmp(s, "count=", 6) && s[len]) {
			s[len] = '\0';
			if (kstrtoint(s + 6, 10, &b->count) || b->count < 1 ||
			    b->count > NS_BENCH_MAX_COUNT) {
				*why = "count= takes 1 to 100000";
				return ERR_PTR(-EINVAL);
			}
		} else if (!strncmp(s, "walkers=", 8) && s[len]) {
			s[len] = '\0';
			tok = s + 8;
			if (ns_bench_parse_walkers(tok, &b->walkers)) {
				*why = "walkers= takes a comma list of shadow,shadow-record,kernel";
				return ERR_PTR(-EINVAL);
			}
		} else {
			break;
		}
		s += len + 1;
	}
	if (!b->count) {
		*why = "start with count=N, then the request: count=1000 /some/path";
		return ERR_PTR(-EINVAL);
	}
	return s;
}

static void ns_bench_free_timings(struct ns_bench *b)
{
	int w;

	for (w = 0; w < NS_BWS; w++) {
		kvfree(b->ns[w]);
		b->ns[w] = NULL;
	}
}

static int ns_bench_alloc_timings(struct ns_bench *b)
{
	int w;

	for (w = 0; w < NS_BWS; w++) {
		if (!(b->walkers & BIT(w)))
			continue;
		b->ns[w] = kvmalloc_array(b->count, sizeof(u64), GFP_KERNEL);
		if (!b->ns[w])
			return -ENOMEM;
	}
	return 0;
}

/* Parse, pin the start, run, report; 0 or why not (@why). */
static int ns_bench_request(struct ns_bench *b, char *buf, size_t count,
			    const char **why)
{
	struct ns_request rq = {};
	int err, start, done;
	char *req;

	req = ns_bench_parse(b, buf, why);
	if (IS_ERR(req))
		return PTR_ERR(req);
	err = ns_parse_request(req, count - (req - buf), &rq, why);
	if (err)
		return err;
	b->check = (struct ns_check){ .dfd = rq.has_at ? rq.at : AT_FDCWD };
	ns_request_walk(&rq, &b->check.walk);
	if ((b->walkers & BIT(NS_BW_KERNEL)) &&
	    ((rq.rflags & NS_RF_NOCHECK) || ns_no_oracle(&b->check.walk))) {
		*why = "the kernel cannot be asked this (creat, nocheck): walkers= without kernel";
		return -EINVAL;
	}
	err = ns_bench_alloc_timings(b);
	if (err) {
		*why = "no memory for count= timings";
		goto out;
	}
	start = ns_start_pin(&b->ss.start, &b->check);
	if (start < 0) {
		err = start;
		*why = "at= is not an open file descriptor";
		goto out;
	}
	done = ns_bench_run(b);
	if (!start)
		ns_vfs_start_leave(&b->ss.start);
	b->ss.len = ns_bench_report(b, &rq, done);
	if (done < b->count)
		err = -EINTR;
out:
	ns_bench_free_timings(b);
	return err;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct ns_bench *b = file->private_data;
	const char *why = "cannot read the request";
	char *buf;
	int err;

	if (count > NS_REQUEST_MAX + 64)
		return -ENAMETOOLONG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&b->ss.lock);
	*ppos = 0;
	err = strlen(buf) == count ? ns_bench_request(b, buf, count, &why) :
		-EINVAL;
	if (err && err != -EINTR)
		b->ss.len = ns_error_text(b->ss.result, NS_RESULT_MAX, err, why);
	mutex_unlock(&b->ss.lock);
	kfree(buf);
	return err ? err : count;
}

static ssize_t bench_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct ns_bench *b = file->private_data;

	return ns_read_locked(&b->ss.lock, b->ss.result, &b->ss.len, ubuf,
			      count, ppos);
}

static int bench_open(struct inode *inode, struct file *file)
{
	struct ns_bench *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b || ns_session_init(&b->ss, true)) {
		kfree(b);
		return -ENOMEM;
	}
	file->private_data = b;
	return 0;
}

static int bench_release(struct inode *inode, struct file *file)
{
	struct ns_bench *b = file->private_data;

	ns_session_free(&b->ss);
	kfree(b);
	return 0;
}

const struct file_operations ns_bench_fops = {
	.owner = THIS_MODULE,
	.open = bench_open,
	.release = bench_release,
	.read = bench_read,
	.write = bench_write,
	.llseek = default_llseek,
};
