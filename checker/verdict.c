// SPDX-License-Identifier: GPL-2.0
/*
 * One walk checked, end to end: its start pinned, the kernel asked, the
 * shadow walked, the kernel asked again, the answers judged
 * (ns_check_walk); and the result written out -- answers, verdict and
 * its evidence, the walk's counts and, from its record, its steps
 * (ns_put_check).  A request (ns_run_request) is one such check.
 */

#include <linux/fcntl.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ns_check.h"
#include "ns_live.h"
#include "ns_record.h"
#include "ns_text.h"
#include "ns_trace.h"

const char *const ns_verdict_names[NS_VERDICTS] = {
	[NS_MATCH] = "match",
	[NS_MISMATCH] = "mismatch",
	[NS_RACED] = "raced",
	[NS_UNCHECKED] = "unchecked",
	[NS_DIVERGENT] = "divergent",
};

/*
 * The same place: the same dentry on the same vfsmount -- or the same
 * file on the same vfsmount under the same name in the same directory,
 * on a dentry the filesystem remade: one of the two is unhashed (a
 * ->d_revalidate said no, as /proc/<pid>/net's always does).
 */
static bool ns_same_place(const struct path *x, const struct path *y)
{
	if (path_equal(x, y))
		return true;
	if (x->mnt != y->mnt ||
	    !ns_vfs_same_file(d_inode(x->dentry), d_inode(y->dentry)))
		return false;
	if (!d_unhashed(x->dentry) && !d_unhashed(y->dentry))
		return false;
	return ns_vfs_same_name(x->dentry, y->dentry);
}

/*
 * Same errno, or the same place (and same last).  An open that reached
 * its object and then failed (EISDIR, ELOOP, ...) is compared by the
 * object the kernel's O_PATH open found.
 */
static bool ns_same_answer(const struct ns_answer *x, const struct ns_answer *y)
{
	if (x->action && x->has_path)
		return y->has_path && ns_same_place(&x->path, &y->path);
	if (x->err || y->err)
		return x->err == y->err;
	if (!ns_same_place(&x->path, &y->path))
		return false;
	if (x->last_type < 0 || y->last_type < 0)
		return true;
	return x->last_type == y->last_type && !strcmp(x->last, y->last);
}

/* @record: the session's results show the steps of the shadow's walk. */
int ns_session_init(struct ns_session *ss, bool record)
{
	mutex_init(&ss->lock);
	ss->result = kvmalloc(NS_RESULT_MAX, GFP_KERNEL);
	ss->trace = kvmalloc(NS_TRACE_MAX, GFP_KERNEL);
	ss->rec = record ? ns_record_alloc() : NULL;
	if (ss->result && ss->trace && (ss->rec || !record))
		return 0;
	ns_session_free(ss);
	return -ENOMEM;
}

void ns_session_free(struct ns_session *ss)
{
	kvfree(ss->result);
	kvfree(ss->trace);
	ns_record_free(ss->rec);
	mutex_destroy(&ss->lock);
}

static void ns_put_answer(struct ns_buf *sb, const char *who,
			  const struct ns_answer *a)
{
	ns_printf(sb, "%s err=", who);
	ns_put_errno(sb, a->err);
	if (a->action)
		ns_printf(sb, " action=%s", a->action);
	if (a->has_path) {
		ns_put_path(sb, &a->path);
		if (a->last_type >= 0) {
			ns_puts(sb, " last=");
			ns_put_escaped(sb, a->last, strlen(a->last));
			ns_printf(sb, " last_type=%s",
				  ns_last_names[a->last_type]);
		}
	}
	if (a->divergence)
		ns_printf(sb, " divergence=%s", a->divergence);
	if (a->oracle)
		ns_printf(sb, " oracle=%s", a->oracle);
	ns_putc(sb, '\n');
}

static void ns_trace_verdict(const struct ns_request *rq,
			     const struct ns_check *c)
{
	char unlazy[32] = "none";

	if (c->wi.unlazy_reason)
		snprintf(unlazy, sizeof(unlazy), "%s@%d",
			 ns_why_names[c->wi.unlazy_reason], c->wi.unlazy_step);
	trace_verdict(rq->path, ns_verdict_names[c->verdict], c->shadow.err,
		      c->checked ? c->o1.err : 0, c->checked,
		      ns_mode_names[c->wi.mode], unlazy);
}

/*
 * The start, pinned for all three walks: the task's root, and its cwd
 * or @dfd's file for a relative name (@c->walk.root and .start).
 * Returns 0, or the errno of a bad descriptor.
 */
int ns_start_pin(struct ns_start *st, struct ns_check *c)
{
	int err;

	/*
	 * An absolute name starts at the root (but RESOLVE_IN_ROOT's, at
	 * the start); getname() refuses the empty name before any
	 * descriptor is looked at.
	 */
	if ((c->walk.name[0] == '/' && !(c->walk.flags & LOOKUP_IN_ROOT)) ||
	    ns_walk_name_refused(c->walk.name, c->walk.flags))
		c->dfd = AT_FDCWD;
	err = ns_vfs_start_enter(st, c->dfd, !c->no_fd_copy);
	if (err)
		return err;
	c->walk.root = &st->fs.root;
	c->walk.start = ns_vfs_start_path(st);
	c->walk.start_fd = c->dfd != AT_FDCWD;
	return 0;
}

/*
 * A scoped walk's ".." depends on every rename and mount: it fails with
 * EAGAIN when rename_lock or mount_lock moved since the walk began
 * (handle_dots).  The shadow's EAGAIN from that check, or the kernel's
 * while a rename or mount happened during the check, is evidence.
 */
static const char *ns_scope_evidence(const struct ns_check *c)
{
	unsigned int flags = c->walk.flags;

	if (c->shadow.err == -EAGAIN && c->wi.scope == NS_SCOPE_RENAME_LOCK)
		return "rename_lock-moved";
	/* not if the walk's own mntput() may have moved it, in REF mode */
	if (c->shadow.err == -EAGAIN && c->wi.scope == NS_SCOPE_MOUNT_LOCK &&
	    !c->wi.left_rcu_own)
		return "mount_lock-moved";
	if (c->elsewhere && (flags & (LOOKUP_BENEATH | LOOKUP_IN_ROOT)) &&
	    !(flags & LOOKUP_CACHED) &&
	    (c->o1.err == -EAGAIN || c->o2.err == -EAGAIN))
		return "kernel-eagain-rename-or-mount";
	return NULL;
}

/* What showed a difference to be a race, or NULL. */
static const char *ns_race_evidence(const struct ns_check *c, int witnessed)
{
	if (!ns_same_answer(&c->o1, &c->o2))
		return "kernel-answers-differ";
	if (witnessed > 0)
		return "witness-changed";
	return ns_scope_evidence(c);
}

/*
 * The shadow disagrees with the kernel's two answers, no witness moved,
 * but a rename or a mount happened somewhere during the check.  Walked
 * again, by the kernel and the shadow, from the same start: an answer
 * unlike its first is evidence that what the walk depended on changed.
 * (A mount put on a directory the walk crossed and taken off again
 * before the witnesses are read leaves no witness behind.)  A walker
 * that is wrong on a state that holds still answers the same again.
 */
static bool ns_rewalk_differs(struct ns_session *ss, const struct ns_check *c)
{
	struct ns_answer s2 = {}, k2 = {};
	struct ns_walk_info wi = {};
	bool differs;

	ss->nd.wit = NULL;
	ss->nd.rec = NULL;
	ns_oracle(&c->walk, &ss->start, &k2);
	ns_walk(&c->walk, &ss->nd, &s2, &wi);
	differs = !ns_same_answer(&k2, &c->o1) || !ns_same_answer(&s2, &c->shadow);
	ns_answer_release(&s2);
	ns_answer_release(&k2);
	return differs;
}

/*
 * A difference is a race only on evidence that what this walk depended
 * on changed: a witness, the kernel's own two answers, or, where a
 * rename or mount happened somewhere, an answer that changes when
 * walked again.  The rename or mount alone (rename_lock, mount_lock)
 * proves nothing about this walk: a hint, no more.
 */
static void ns_judge(struct ns_session *ss, struct ns_check *c, int witnessed)
{
	if (c->walk.semantics_42 && c->shadow.divergence) {
		c->verdict = NS_DIVERGENT;
	} else if (!c->checked) {
		c->verdict = NS_UNCHECKED;
	} else if (ns_same_answer(&c->shadow, &c->o1) &&
		   ns_same_answer(&c->o1, &c->o2)) {
		c->verdict = NS_MATCH;
	} else {
		c->evidence = ns_race_evidence(c, witnessed);
		if (!c->evidence && !witnessed && c->elsewhere &&
		    ns_rewalk_differs(ss, c))
			c->evidence = "answer-changed-on-rewalk";
		c->verdict = c->evidence ? NS_RACED : NS_MISMATCH;
		if (!c->evidence && witnessed < 0) {
			c->verdict = NS_UNCHECKED;
			c->unchecked = witnessed == NS_WIT_OVERFLOWED ?
				"witnesses-overflowed" : "witness-mount-not-held";
		} else if (!c->evidence && c->wi.left_rcu_own &&
			   (c->walk.flags & (LOOKUP_CACHED | LOOKUP_BENEATH |
					     LOOKUP_IN_ROOT))) {
			c->verdict = NS_UNCHECKED;
			c->unchecked = "left-rcu-where-the-kernel-need-not";
		} else if (!c->evidence && c->wi.undecided) {
			c->verdict = NS_UNCHECKED;
			c->unchecked = "kernel-rule-undecided";
		}
	}
}

/*
 * Check @c->walk: resolved by the kernel, then the shadow, then the
 * kernel again, from one pinned start, and judged.  first=shadow walks
 * the shadow before both kernel walks, so that it sees the dcache as
 * cold as it was (the kernel's walk fills it in).  The answers stay in
 * @c until ns_check_release().
 */
void ns_check_walk(struct ns_session *ss, struct ns_check *c)
{
	struct ns_live_self self;
	struct ns_vfs_seq seq;
	int start, witnessed = 0;

	/* the kernel's walks here are the module's, not the writer's */
	ns_live_self_begin(&self);
	ss->nd.wit = &ss->wit;
	ss->nd.rec = ss->rec;
	if (ss->rec)
		ns_record_reset(ss->rec);
	c->unchecked = c->no_oracle ?: ns_no_oracle(&c->walk);
	c->checked = !c->unchecked;

	start = ns_start_pin(&ss->start, c);
	if (start < 0) {
		/* the kernel's own fget_raw() said so, for all three */
		c->shadow.err = start;
		c->wi.mode = NS_MODE_REF;
		if (c->checked) {
			c->o1.err = start;
			c->o1.oracle = "fget_raw";
			c->o2 = c->o1;
		}
	} else {
		ns_vfs_seq_begin(&seq);
		if (c->shadow_first)
			ns_walk(&c->walk, &ss->nd, &c->shadow, &c->wi);
		if (c->checked)
			ns_oracle(&c->walk, &ss->start, &c->o1);
		if (!c->shadow_first)
			ns_walk(&c->walk, &ss->nd, &c->shadow, &c->wi);
		if (c->checked)
			ns_oracle(&c->walk, &ss->start, &c->o2);
		/* after the second oracle: what the shadow's walk rested on */
		witnessed = ns_witnesses_moved(&ss->wit);
		c->elsewhere = ns_vfs_seq_moved(&seq);
	}
	if (c->checked && (c->o1.unanswered || c->o2.unanswered)) {
		c->checked = false;
		c->unchecked = c->o1.unanswered ?: c->o2.unanswered;
	}
	/* a thread of the writer replaced the kernel's copy of at= meanwhile */
	if (c->checked && !start && ns_vfs_start_moved(&ss->start)) {
		c->checked = false;
		c->unchecked = "start-changed";
	}
	ns_judge(ss, c, witnessed);
	/* left only now: walking again needs the pinned start */
	if (!start)
		ns_vfs_start_leave(&ss->start);
	ns_live_self_end(&self);
}

void ns_check_release(struct ns_check *c)
{
	ns_answer_release(&c->shadow);
	ns_answer_release(&c->o1);
	ns_answer_release(&c->o2);
}

/* The `walk` line: how the shadow walked, and how much of it is shown. */
static void ns_put_walk(struct ns_buf *sb, const struct ns_check *c, int shown)
{
	const struct ns_walk_info *wi = &c->wi;

	ns_printf(sb, "walk mode=%s restarts=%d", ns_mode_names[wi->mode],
		  wi->restarts);
	if (wi->restart_reason)
		ns_printf(sb, " restart=%s", ns_why_names[wi->restart_reason]);
	if (wi->unlazy_reason)
		ns_printf(sb, " unlazy=%s@%d", ns_why_names[wi->unlazy_reason],
			  wi->unlazy_step);
	else
		ns_puts(sb, " unlazy=none");
	if (c->walk.inject)
		ns_printf(sb, " inject=%s@%d", ns_inject_names[c->walk.inject],
			  c->walk.inject_step);
	if (wi->scope)
		ns_printf(sb, " scope=%s@%d", ns_scope_names[wi->scope],
			  wi->scope_step);
	if (wi->undecided)
		ns_printf(sb, " undecided=%s", wi->undecided);
	ns_printf(sb, " steps=%d steps_shown=%d links=%d\n", wi->steps, shown,
		  wi->links);
}

/*
 * What a check found, after its request line: the answers, the verdict
 * and its evidence, the `walk` line and, from the session's record, the
 * steps of the shadow's walk.
 */
void ns_put_check(struct ns_buf *out, struct ns_session *ss,
		  const struct ns_check *c)
{
	struct ns_buf trace;
	int shown;

	/* the record keeps every step the trace has room to show */
	BUILD_BUG_ON(NS_REC_STEPS * NS_STEP_LINE_MIN < NS_TRACE_MAX);
	ns_buf_init(&trace, ss->trace, NS_TRACE_MAX);
	ns_put_answer(out, "shadow", &c->shadow);
	if (c->checked)
		ns_put_answer(out, "kernel", &c->o1);
	else
		ns_printf(out, "kernel oracle=%s reason=%s\n",
			  c->o1.oracle ?: "none", c->unchecked);
	if (c->checked && !ns_same_answer(&c->o1, &c->o2))
		ns_put_answer(out, "kernel-again", &c->o2);
	ns_printf(out, "verdict %s\n", ns_verdict_names[c->verdict]);
	if (c->verdict == NS_RACED)
		ns_printf(out, "evidence %s\n", c->evidence);
	else if (c->verdict == NS_MISMATCH)
		ns_printf(out, "evidence none%s\n",
			  c->elsewhere ? " hint=rename-or-mount-elsewhere" : "");
	else if (c->verdict == NS_UNCHECKED && c->checked)
		ns_printf(out, "evidence none reason=%s\n", c->unchecked);
	shown = ss->rec ? ns_record_render(ss->rec, &trace) : 0;
	ns_put_walk(out, c, shown);
	ns_puts(out, ss->trace);
}

/* A request: its walk checked, its result written, counted, logged. */
size_t ns_run_request(const struct ns_request *rq, struct ns_session *ss,
		      struct ns_summary *sum)
{
	struct ns_check c = {
		.dfd = rq->has_at ? rq->at : AT_FDCWD,
		.shadow_first = rq->shadow_first,
		.no_oracle = (rq->rflags & NS_RF_NOCHECK) ? "nocheck" : NULL,
	};
	struct ns_buf out;

	ns_request_walk(rq, &c.walk);
	ns_check_walk(ss, &c);

	ns_buf_init(&out, ss->result, NS_RESULT_MAX);
	ns_put_request(&out, rq);
	ns_put_check(&out, ss, &c);

	ns_stats_count(c.verdict, &c.wi, c.shadow.err);
	if (sum) {
		sum->verdict = c.verdict;
		sum->shadow_err = c.shadow.err;
		sum->kernel_err = c.o1.err;
		sum->checked = c.checked;
		sum->unchecked = c.unchecked;
		sum->wi = c.wi;
		if (c.shadow.has_path) {
			ns_vfs_object_take(&sum->object, c.shadow.path.dentry);
			sum->has_object = true;
		}
	}
	ns_check_release(&c);

	if (c.verdict == NS_MISMATCH)
		ns_log_mismatch(ss->result, ns_buf_used(&out));
	if (trace_verdict_enabled())
		ns_trace_verdict(rq, &c);
	return ns_buf_used(&out);
}
