/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checker: each request resolved by the shadow and by the kernel
 * and judged (checker/verdict.c, checker/oracle.c), counted
 * (checker/stats.c), and the debugfs files that take requests and show
 * the rest (checker/debugfs.c, checker/batch.c, checker/main.c).
 */
#ifndef NS_CHECK_H
#define NS_CHECK_H

#include <linux/fs.h>
#include <linux/mutex.h>

#include "ns_model.h"
#include "ns_request.h"
#include "ns_walk.h"
#include "ns_witness.h"

struct ns_buf;
struct ns_record;

enum ns_verdict { NS_MATCH, NS_MISMATCH, NS_RACED, NS_UNCHECKED, NS_DIVERGENT, NS_VERDICTS };

extern const char *const ns_verdict_names[NS_VERDICTS];

#define NS_RESULT_MAX	(192 * 1024)
#define NS_TRACE_MAX	(128 * 1024)

/*
 * Each open file of `resolve` (and of `batch`) is a session: its own
 * last result, and its own buffers for it, allocated once.
 */
struct ns_session {
	struct mutex lock;	/* one request at a time; guards the rest */
	char *result;		/* NS_RESULT_MAX bytes */
	char *trace;		/* NS_TRACE_MAX bytes */
	size_t len;
	struct ns_record *rec;	/* the shadow's walk; NULL: not recorded */
	struct ns_witnesses wit;
	struct ns_start start;
	struct nameidata nd;	/* the shadow's walk */
};

/* What a batch reports of one request. */
struct ns_summary {
	enum ns_verdict verdict;
	int shadow_err;
	int kernel_err;
	bool checked;		/* the kernel was asked */
	const char *unchecked;	/* if not: why */
	bool has_object;	/* the shadow's answer names an object: */
	struct ns_vfs_object object;	/* it (a create's: its directory) */
	struct ns_walk_info wi;
};

int ns_session_init(struct ns_session *ss, bool record);
void ns_session_free(struct ns_session *ss);

/*
 * One walk checked (checker/verdict.c): what the shadow walks, from
 * which start, how; then the answers and the verdict on them.
 */
struct ns_check {
	struct ns_walk_req walk;	/* .start is set to the pinned start */
	int dfd;			/* a relative name's start: AT_FDCWD or a descriptor */
	bool shadow_first;
	bool no_fd_copy;		/* change no descriptor of the writer's */
	const char *no_oracle;		/* why the kernel is not to be asked */

	struct ns_answer shadow, o1, o2;
	struct ns_walk_info wi;
	enum ns_verdict verdict;
	const char *evidence;		/* raced: what showed it */
	const char *unchecked;		/* unchecked: why */
	bool checked;			/* the kernel was asked */
	bool elsewhere;			/* a rename or mount somewhere meanwhile */
};

int ns_start_pin(struct ns_start *st, struct ns_check *c);
void ns_check_walk(struct ns_session *ss, struct ns_check *c);
void ns_check_release(struct ns_check *c);
void ns_put_check(struct ns_buf *out, struct ns_session *ss,
		  const struct ns_check *c);
size_t ns_run_request(const struct ns_request *rq, struct ns_session *ss,
		      struct ns_summary *sum);

/* The kernel's own answer (checker/oracle.c). */
const char *ns_no_oracle(const struct ns_walk_req *req);
void ns_oracle(const struct ns_walk_req *req, struct ns_start *st,
	       struct ns_answer *a);

/* Counters and the mismatch log (checker/stats.c). */
void ns_stats_count(enum ns_verdict verdict, const struct ns_walk_info *wi,
		    int shadow_err);
void ns_stats_count_rejected(void);
void ns_log_mismatch(const char *text, size_t len);
void ns_clear_mismatches(void);
extern const struct file_operations ns_stats_fops;
extern const struct file_operations ns_mismatches_fops;

/* debugfs (checker/debugfs.c, checker/batch.c). */
#define NS_BATCH_BYTES		65536
#define NS_BATCH_REQUESTS	4096

void ns_put_error(struct ns_buf *sb, int err, const char *why);
size_t ns_error_text(char *buf, size_t size, int err, const char *why);
ssize_t ns_read_locked(struct mutex *lock, const char *buf, const size_t *len,
		       char __user *ubuf, size_t count, loff_t *ppos);
int ns_control_word(const char __user *ubuf, size_t count, const char *word);
extern const struct file_operations ns_batch_fops;
extern const struct file_operations ns_bench_fops;
void ns_debugfs_create(struct dentry *dir);

/* RCU-walk as chosen at load (checker/main.c): every walk's, and `features`'. */
extern enum ns_rcu_mode ns_rcu_mode;
extern const char *const ns_rcu_mode_names[];
extern const char *ns_rcu_why;

#endif /* NS_CHECK_H */
