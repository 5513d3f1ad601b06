// SPDX-License-Identifier: GPL-2.0
/*
 * The walker's events, handed to what watches the walk: the
 * tracepoints, each only when enabled, and the walk's record, only
 * when the nameidata has one.
 */

#include <linux/fs.h>
#include <linux/string.h>

#include "ns_record.h"
#include "ns_text.h"

#define CREATE_TRACE_POINTS
#include "ns_trace.h"

void ns_event_walk_start(struct nameidata *nd, enum ns_walk_kind kind,
			 unsigned int flags)
{
	if (nd->rec)
		ns_record_reset(nd->rec);
	trace_walk_start(nd->name, ns_mode_names[nd->attempt],
			 ns_walk_kind_names[kind], flags);
}

void ns_event_restart(enum ns_why why, enum ns_walk_mode to)
{
	trace_restart(ns_why_names[why], ns_mode_names[to]);
}

void ns_event_start(struct nameidata *nd, enum ns_start_at at)
{
	if (nd->rec)
		ns_record_start(nd->rec, nd, at);
}

void ns_event_trace_step(struct nameidata *nd, int err)
{
	const struct ns_step *st = &nd->step;
	const char *type;

	if (err)
		type = "error";
	else if (st->link && !st->magic)
		type = "lnk";
	else
		type = nd->inode ? ns_type_name(ns_vfs_mode(nd->inode)) : "negative";
	trace_step(nd->steps, nd->last.name, nd->last.len,
		   ns_mode_names[st->mode], ns_how_names[st->how], type, err,
		   st->seq_retry);
}

void __ns_event_link_pushed(struct nameidata *nd, const char *body)
{
	trace_link_push(nd->depth, nd->total_link_count, body,
			ns_mode_names[nd->mode]);
	if (nd->rec)
		ns_record_link(nd->rec, nd, body);
}

void ns_event_mount(struct nameidata *nd, enum ns_mount_dir dir,
		    const struct dentry *dentry)
{
	static const char *const names[] = {
		[NS_MOUNT_DOWN] = "down",
		[NS_MOUNT_UP] = "up",
		[NS_MOUNT_AUTOMOUNT] = "automount",
	};

	trace_mount(names[dir], ns_mode_names[nd->mode], ns_vfs_dev(dentry));
}

void ns_event_unlazy(struct nameidata *nd, enum ns_why why, bool ok)
{
	trace_unlazy(ns_why_names[why], nd->steps, ok);
}
