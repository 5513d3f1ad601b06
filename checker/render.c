// SPDX-License-Identifier: GPL-2.0
/*
 * A walk's record as text: one `step` line per step, the lines
 * nsresolve and the tests read.  A line is shown only while the buffer
 * has room for it and for the lines that end a walk: a long walk shows
 * its first steps, and says how many it showed.
 */

#include "ns_record.h"
#include "ns_text.h"

/* Leave this much room in the trace for the lines that end a walk. */
#define NS_TRACE_RESERVE 512

static const char *const ns_start_at_names[] = {
	[NS_AT_ROOT] = "root",
	[NS_AT_CWD] = "cwd",
	[NS_AT_FD] = "fd",
};

/* Room for @len bytes escaped (4 bytes a byte at most), and the reserve. */
static bool ns_render_room(const struct ns_buf *sb, size_t len)
{
	return ns_buf_left(sb) >= len * 4 + NS_TRACE_RESERVE;
}

static void ns_render_start(const struct ns_rec_step *rs, struct ns_buf *sb)
{
	if (!ns_render_room(sb, 0))
		return;
	ns_printf(sb, "step n=0 mode=%s how=start at=%s", ns_mode_names[rs->mode],
		  ns_start_at_names[rs->at]);
	ns_put_object(sb, &rs->obj);
	ns_putc(sb, '\n');
}

static void ns_render_link(const struct ns_record *rec,
			   const struct ns_rec_step *rs, struct ns_buf *sb)
{
	ns_puts(sb, " link=");
	ns_put_uint(sb, rs->links);
	ns_puts(sb, " body=");
	if (!rs->body_kept || !ns_render_room(sb, rs->body_len))
		ns_puts(sb, "(not-shown)");
	else
		ns_put_escaped(sb, rec->arena + rs->body, rs->body_len);
	if (rs->link.positive)
		ns_put_mode(sb, &rs->link);
}

static void ns_render_facts(const struct ns_step *st, struct ns_buf *sb)
{
	ns_printf(sb, " how=%s", ns_how_names[st->how]);
	if (st->mounts_up)
		ns_printf(sb, " mounts_up=%d", st->mounts_up);
	if (st->mounts_down)
		ns_printf(sb, " mounts_down=%d", st->mounts_down);
	if (st->managed_stop)
		ns_puts(sb, " managed=stop");
	if (st->automount)
		ns_puts(sb, " automount=kernel");
	if (st->jump_root)
		ns_puts(sb, " jump=root");
	if (st->magic)
		ns_puts(sb, " magic=kernel");
	if (st->lsm_unchecked)
		ns_puts(sb, " lsm=unchecked");
	if (st->seq_retry)
		ns_puts(sb, " seq_retry=y");
	if (st->scope)
		ns_printf(sb, " scope=%s", ns_scope_names[st->scope]);
}

/* One component's line; false if there was no room for it. */
static bool ns_render_step(const struct ns_record *rec,
			   const struct ns_rec_step *rs, struct ns_buf *sb)
{
	if (!rs->kept || !rs->ended || !ns_render_room(sb, rs->name_len))
		return false;
	ns_printf(sb, "step n=%d mode=%s name=", rs->n, ns_mode_names[rs->mode]);
	ns_put_escaped(sb, rec->arena + rs->name, rs->name_len);
	if (rs->has_link)
		ns_render_link(rec, rs, sb);
	ns_render_facts(&rs->st, sb);
	if (rs->err) {
		ns_puts(sb, " err=");
		ns_put_errno(sb, rs->err);
	} else if (!rs->st.link || rs->st.magic) {
		ns_put_object(sb, &rs->obj);
	}
	ns_putc(sb, '\n');
	return true;
}

/* Render @rec into @sb; returns how many component steps were shown. */
int ns_record_render(const struct ns_record *rec, struct ns_buf *sb)
{
	int i, shown = 0;

	for (i = 0; i < rec->n; i++) {
		const struct ns_rec_step *rs = &rec->steps[i];

		if (!rs->n)
			ns_render_start(rs, sb);
		else
			shown += ns_render_step(rec, rs, sb);
	}
	return shown;
}
