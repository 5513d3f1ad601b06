/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the walker tells of its walk.  namei_shadow.c calls these at
 * each event; checker/events.c hands each to whatever watches: the
 * tracepoints (when enabled) and the walk's record (when the nameidata
 * has one).  With neither, an event is a branch or two: the walk
 * formats nothing.
 */
#ifndef NS_EVENTS_H
#define NS_EVENTS_H

#include "ns_walk.h"
#include "ns_trace.h"

/* Where the walk started, or a jump took it: a step with no component. */
enum ns_start_at { NS_AT_ROOT, NS_AT_CWD, NS_AT_FD };

/* Which way a mount was crossed. */
enum ns_mount_dir { NS_MOUNT_DOWN, NS_MOUNT_UP, NS_MOUNT_AUTOMOUNT };

void ns_event_walk_start(struct nameidata *nd, enum ns_walk_kind kind,
			 unsigned int flags);
void ns_event_restart(enum ns_why why, enum ns_walk_mode to);
void ns_event_start(struct nameidata *nd, enum ns_start_at at);
void ns_event_trace_step(struct nameidata *nd, int err);
void __ns_event_link_pushed(struct nameidata *nd, const char *body);
void ns_event_mount(struct nameidata *nd, enum ns_mount_dir dir,
		    const struct dentry *dentry);
void ns_event_unlazy(struct nameidata *nd, enum ns_why why, bool ok);

struct ns_record;
void ns_record_step_begin(struct ns_record *rec, struct nameidata *nd);
void ns_record_step_end(struct ns_record *rec, struct nameidata *nd, int err);

/* A step begins: inline, as it is all the walk pays without a record. */
static inline void ns_event_step_begin(struct nameidata *nd)
{
	nd->step = (struct ns_step){ .mode = nd->mode };
	nd->steps++;
	if (nd->rec)
		ns_record_step_begin(nd->rec, nd);
}

/*
 * The events a walk sends at every step and link are checked here,
 * inline: with no record and the tracepoint off, a step costs a test
 * and a static branch, not a call.
 */
static inline void ns_event_step_end(struct nameidata *nd, int err)
{
	if (trace_step_enabled())
		ns_event_trace_step(nd, err);
	if (nd->rec)
		ns_record_step_end(nd->rec, nd, err);
}

static inline void ns_event_link_pushed(struct nameidata *nd, const char *body)
{
	if (unlikely(nd->rec || trace_link_push_enabled()))
		__ns_event_link_pushed(nd, body);
}

static inline void ns_event_link_popped(struct nameidata *nd)
{
	trace_link_pop(nd->depth);
}

#endif /* NS_EVENTS_H */
