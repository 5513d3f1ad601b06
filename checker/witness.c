// SPDX-License-Identifier: GPL-2.0
/*
 * Witnesses: the dentries a walk stood on, failed at or followed, kept
 * until the verdict with what the walk relied on there, to tell a race
 * (one of them changed) from a mismatch.  The walker reports each as it
 * meets it; the verdict asks whether any moved.
 */

#include <linux/dcache.h>
#include <linux/mount.h>

#include "ns_model.h"
#include "ns_witness.h"

static void ns_witness_put(struct ns_witnesses *w, int i)
{
	if (w->held & BIT(i))
		dput(w->w[i].dentry);
	if (w->held_mnt & BIT(i))
		mntput(w->w[i].mnt);
	w->held &= ~BIT(i);
	w->held_mnt &= ~BIT(i);
}

/*
 * Record @dentry as a witness, with what the walk sees there now.  In
 * REF mode it is referenced now; in RCU mode it is kept with the d_seq
 * the walk validated it with, and referenced when the walk leaves RCU
 * mode (ns_witness_legitimize).
 */
void __ns_witness(struct nameidata *nd, struct vfsmount *mnt,
		  struct dentry *dentry, unsigned int seq)
{
	struct ns_witnesses *w = nd->wit;
	struct ns_witness *x;
	int i;

	BUILD_BUG_ON(NS_WITNESSES > BITS_PER_LONG);	/* w->held's bits */
	for (i = w->n - 1; i >= 0; i--)
		if (w->w[i].dentry == dentry && w->w[i].mnt == mnt)
			return;
	if (w->n == NS_WITNESSES) {
		w->overflowed = true;
		return;
	}
	x = &w->w[w->n++];
	x->mnt = mnt;
	x->dentry = dentry;
	x->seq = seq;
	x->crossed = false;
	x->relied = false;
	x->top = NULL;
	ns_vfs_attrs_take(&x->attrs, dentry);
	if (nd->mode != NS_MODE_RCU) {
		dget(dentry);
		mntget(mnt);
		w->held |= BIT(w->n - 1);
		w->held_mnt |= BIT(w->n - 1);
	}
}

void __ns_witness_ref(struct nameidata *nd, const struct path *path)
{
	__ns_witness(nd, path->mnt, path->dentry, ns_vfs_seq_sample(path->dentry));
}

/*
 * A dentry a REF-mode lookup of nd->last in nd->path just found.  Its
 * d_seq is sampled after the lookup: a rename in between would leave
 * no trace in it, so the name is asked too -- a dentry already moved
 * away from it is a change this walk rests on.
 */
void __ns_witness_found(struct nameidata *nd, const struct path *path)
{
	unsigned int seq = ns_vfs_seq_sample(path->dentry);

	__ns_witness(nd, path->mnt, path->dentry, seq);
	if (nd->last_type == NS_LAST_NORM &&
	    path->dentry != nd->path.dentry &&
	    !ns_vfs_still_named(path->dentry, seq, nd->path.dentry, &nd->last))
		nd->wit->moved = true;
}

/*
 * A permission is being decided on @dentry (a witness): what it rests
 * on, as it is now, is what must not change.
 */
void __ns_witness_relied(struct nameidata *nd, const struct dentry *dentry)
{
	struct ns_witnesses *w = nd->wit;
	int i;

	for (i = w->n - 1; i >= 0; i--) {
		if (w->w[i].dentry == dentry) {
			w->w[i].relied = true;
			ns_vfs_attrs_take(&w->w[i].attrs, dentry);
			return;
		}
	}
}

/* Where the walk stands now: its start, or where a jump took it. */
void __ns_witness_here(struct nameidata *nd)
{
	struct dentry *dentry = nd->path.dentry;

	__ns_witness(nd, nd->path.mnt, dentry, nd->mode == NS_MODE_RCU ?
		   nd->seq : ns_vfs_seq_sample(dentry));
}

/* The walk went down from the witness @mnt, @from to the mount @to. */
void __ns_witness_crossed(struct nameidata *nd, const struct vfsmount *mnt,
			  const struct dentry *from, const struct vfsmount *to)
{
	struct ns_witnesses *w = nd->wit;
	int i;

	for (i = 0; i < w->n; i++) {
		if (w->w[i].dentry == from && w->w[i].mnt == mnt) {
			w->w[i].crossed = true;
			w->w[i].top = to;
			return;
		}
	}
}

/*
 * A witness's mount, held.  The mounts pinned at the start are held
 * already, whatever the mount table did since.  One crossed in RCU
 * mode is taken as the walk takes it: if the table moved since the walk
 * began, that is no evidence about this mount -- a mount elsewhere
 * moves it too -- and the walk, legitimized after its witnesses, starts
 * again (which forgets them); -1 means taken all the same.
 */
static int ns_witness_hold_mnt(struct nameidata *nd, struct vfsmount *mnt)
{
	if (mnt == nd->pinned.mnt || mnt == nd->root.mnt) {
		mntget(mnt);
		return 0;
	}
	return legitimize_mnt(nd, mnt);
}

/* Leaving RCU mode: reference the witnesses, or know they moved. */
void __ns_witness_legitimize(struct nameidata *nd)
{
	struct ns_witnesses *w = nd->wit;
	int i;

	for (i = 0; i < w->n; i++) {
		if ((w->held | w->held_mnt) & BIT(i))
			continue;
		/* the mount first: a dentry is never held without its mount */
		if (ns_witness_hold_mnt(nd, w->w[i].mnt) > 0) {
			w->unkept = true;
			continue;
		}
		w->held_mnt |= BIT(i);
		switch (ns_vfs_dget_seq(w->w[i].dentry, w->w[i].seq)) {
		case NS_DGET_OK:
			w->held |= BIT(i);
			break;
		case NS_DGET_STALE:
			w->held |= BIT(i);
			w->moved = true;
			break;
		case NS_DGET_DEAD:
			w->moved = true;
			break;
		}
	}
}

/*
 * Did the name the walk reached @x by change?  Its d_seq moved, or it
 * is unhashed (perhaps before the d_seq was sampled) -- unless the
 * filesystem merely remade the dentry: the same name in the same
 * directory leads to the same inode.  A filesystem's root has no name.
 */
static bool ns_witness_renamed(const struct ns_witness *x)
{
	bool unhashed = d_unhashed(x->dentry) && !IS_ROOT(x->dentry);

	if (!unhashed)
		return ns_vfs_seq_retry_dentry(x->dentry, x->seq);
	return !ns_vfs_rebound_same(x->dentry);
}

/* Is a mount on @x now that was not, or the other way round, or another? */
static bool ns_witness_remounted(const struct ns_witness *x)
{
	if (!x->crossed && !d_mountpoint(x->dentry))
		return false;
	return ns_vfs_mount_top(x->mnt, x->dentry) != x->top;
}

static bool ns_witness_changed(const struct ns_witness *x)
{
	return ns_witness_renamed(x) || ns_witness_remounted(x) ||
		(x->relied && ns_vfs_attrs_changed(&x->attrs, x->dentry));
}

/* All dropped, as if none had been met. */
void ns_witnesses_forget(struct ns_witnesses *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		ns_witness_put(w, i);
	w->n = 0;
	w->moved = false;
	w->overflowed = false;
	w->unkept = false;
}

/*
 * After the verdict's second oracle: did any witness change?  Returns
 * 1 if one did, 0 if none did; if none of those kept did but some were
 * not kept, NS_WIT_OVERFLOWED (more than NS_WITNESSES) or NS_WIT_UNKEPT
 * (a mount crossed in RCU mode could not be held).  All dropped.
 */
int ns_witnesses_moved(struct ns_witnesses *w)
{
	bool moved = w->moved;
	int i, ret;

	for (i = 0; i < w->n && !moved; i++)
		if (w->held & BIT(i))
			moved = ns_witness_changed(&w->w[i]);
	ret = moved ? 1 : w->overflowed ? NS_WIT_OVERFLOWED :
		w->unkept ? NS_WIT_UNKEPT : 0;
	ns_witnesses_forget(w);
	return ret;
}
