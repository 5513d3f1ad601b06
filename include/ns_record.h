/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of a walk: what each step did, as data, filled by the
 * walker's events (checker/events.c, checker/record.c) and rendered as
 * `step` lines only when someone reads them (checker/render.c).
 */
#ifndef NS_RECORD_H
#define NS_RECORD_H

#include <linux/limits.h>
#include <linux/uidgid.h>
#include "ns_events.h"
#include "ns_model.h"

struct ns_buf;

/*
 * Steps kept of one attempt.  The rendered trace has room for fewer:
 * a shown step line takes NS_STEP_LINE_MIN bytes or more of it.
 */
#define NS_REC_STEPS	4096
#define NS_STEP_LINE_MIN 40	/* "step n=1 mode=rcu name=a how=none err=-EIO\n" */
/*
 * Names and link bodies are copied into the arena as they are met (a
 * body, and a name inside it, may not live to the end of the walk):
 * the name and up to NS_MAXSYMLINKS + 1 bodies, each under PATH_MAX,
 * and their components once more.
 */
#define NS_REC_ARENA	(2 * PATH_MAX * (NS_MAXSYMLINKS + 2))

struct ns_rec_step {
	struct ns_step st;		/* as the step ended */
	struct ns_vfs_object obj;	/* where it ended, for a step line */
	struct ns_vfs_object link;	/* the link it pushed: mode and owners */
	u32 name;			/* arena offsets */
	u32 name_len;
	u32 body;
	u32 body_len;
	int n;				/* 0: the start */
	int err;
	int links;			/* total_link_count at the push */
	u8 mode;			/* the walk's mode as it began */
	u8 at;				/* the start: enum ns_start_at */
	bool kept;			/* its name fitted in the arena */
	bool body_kept;
	bool has_link;
	bool ended;
};

struct ns_record {
	int n;				/* steps kept */
	int dropped;			/* steps that did not fit */
	u32 used;			/* arena bytes */
	struct ns_rec_step steps[NS_REC_STEPS];
	char arena[NS_REC_ARENA];
};

struct ns_record *ns_record_alloc(void);
void ns_record_free(struct ns_record *rec);
void ns_record_reset(struct ns_record *rec);

void ns_record_start(struct ns_record *rec, struct nameidata *nd,
		     enum ns_start_at at);
void ns_record_link(struct ns_record *rec, struct nameidata *nd,
		    const char *body);

int ns_record_render(const struct ns_record *rec, struct ns_buf *sb);

#endif /* NS_RECORD_H */
