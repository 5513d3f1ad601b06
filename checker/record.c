// SPDX-License-Identifier: GPL-2.0
/*
 * The record of a walk: each step as the walker's events describe it,
 * kept as data in a fixed-size, per-session record.  Nothing here
 * formats text; checker/render.c turns a record into `step` lines.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ns_record.h"

#define NS_REC_POISON 0x5a

struct ns_record *ns_record_alloc(void)
{
	struct ns_record *rec = kvmalloc(sizeof(*rec), GFP_KERNEL);

	if (!rec)
		return NULL;
	/*
	 * A slot is never cleared (ns_record_next): poisoned here, a field
	 * read before the event that sets it shows in every test's output,
	 * not only where the allocator happens to leave garbage.
	 */
	memset(rec->steps, NS_REC_POISON, sizeof(rec->steps));
	ns_record_reset(rec);
	return rec;
}

void ns_record_free(struct ns_record *rec)
{
	kvfree(rec);
}

/* A new attempt: its steps replace the last one's. */
void ns_record_reset(struct ns_record *rec)
{
	rec->n = 0;
	rec->dropped = 0;
	rec->used = 0;
}

/* Copy @len bytes into the arena; false if they do not fit. */
static inline bool ns_record_keep(struct ns_record *rec, const char *s,
				  u32 len, u32 *off)
{
	BUILD_BUG_ON(NS_REC_ARENA > U32_MAX);	/* offsets are u32 */
	if (len > NS_REC_ARENA - rec->used)
		return false;
	memcpy(rec->arena + rec->used, s, len);
	*off = rec->used;
	rec->used += len;
	return true;
}

/* The next step's slot, or NULL when the record is full. */
static struct ns_rec_step *ns_record_next(struct ns_record *rec,
					  struct nameidata *nd)
{
	struct ns_rec_step *rs;

	if (rec->n == NS_REC_STEPS) {
		rec->dropped++;
		return NULL;
	}
	/*
	 * Not cleared whole: each field is set with, or read only under,
	 * the flag that says it is there (has_link, ended, kept ...).
	 */
	rs = &rec->steps[rec->n++];
	rs->mode = nd->mode;
	rs->has_link = false;
	rs->ended = false;
	rs->kept = false;
	return rs;
}

/* The step in hand, if the record kept it. */
static struct ns_rec_step *ns_record_current(struct ns_record *rec,
					     struct nameidata *nd)
{
	struct ns_rec_step *rs;

	if (!rec->n)
		return NULL;
	rs = &rec->steps[rec->n - 1];
	return rs->n == nd->steps && !rs->ended ? rs : NULL;
}

void ns_record_start(struct ns_record *rec, struct nameidata *nd,
		     enum ns_start_at at)
{
	struct ns_rec_step *rs = ns_record_next(rec, nd);

	if (!rs)
		return;
	rs->n = 0;	/* what marks a start in the record */
	rs->at = at;
	rs->kept = true;
	rs->ended = true;
	ns_vfs_object_take(&rs->obj, nd->path.dentry);
}

void ns_record_step_begin(struct ns_record *rec, struct nameidata *nd)
{
	struct ns_rec_step *rs = ns_record_next(rec, nd);

	if (!rs)
		return;
	rs->n = nd->steps;
	rs->name_len = nd->last.len;
	rs->kept = ns_record_keep(rec, nd->last.name, nd->last.len, &rs->name);
}

/* The body of a link just pushed: copied now, it may not live to the end. */
void ns_record_link(struct ns_record *rec, struct nameidata *nd,
		    const char *body)
{
	struct ns_rec_step *rs = ns_record_current(rec, nd);

	if (!rs)
		return;
	rs->has_link = true;
	rs->links = nd->total_link_count;
	rs->body_len = strlen(body);
	rs->body_kept = ns_record_keep(rec, body, rs->body_len, &rs->body);
	ns_vfs_object_take(&rs->link, nd->stack[nd->depth - 1].link.dentry);
}

void ns_record_step_end(struct ns_record *rec, struct nameidata *nd, int err)
{
	struct ns_rec_step *rs = ns_record_current(rec, nd);

	if (!rs)
		return;
	rs->st = nd->step;
	rs->err = err;
	rs->ended = true;
	if (!err && (!nd->step.link || nd->step.magic))
		ns_vfs_object_take(&rs->obj, nd->path.dentry);
}
