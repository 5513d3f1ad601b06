/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Witnesses of a walk (checker/witness.c): reported by the walker,
 * judged by the verdict.
 */
#ifndef NS_WITNESS_H
#define NS_WITNESS_H

#include "ns_model.h"
#include "ns_walk.h"

/*
 * Witnesses: the dentries a walk stood on, failed at or followed, held
 * until the verdict with what the walk relied on there: the dentry's
 * d_seq (it moves on rename, on negative <-> positive and on unhashing:
 * a symlink swapped, a name created or unlinked), the mount the walk
 * crossed to from it, if any, and -- where a permission was decided on
 * it (search, following a link, open) -- its inode's mode, owner, ACL,
 * ctime and i_version (chmod, chown and setfacl move no seqlock;
 * i_version counts each change within one clock tick, though it cannot
 * tell them from a change of the directory's entries).  A
 * witness that changed between the kernel's first answer and its second
 * is the evidence a `raced` verdict needs.  Each dentry once, the first
 * time; kept out of the nameidata (and its stack), in the session.
 */
#define NS_WITNESSES BITS_PER_LONG

struct ns_witness {
	struct vfsmount *mnt;		/* held with the dentry: */
	struct dentry *dentry;		/* its fs cannot go away */
	unsigned int seq;
	bool crossed;			/* the walk went down to @top */
	bool relied;			/* a permission was decided on @attrs */
	const struct vfsmount *top;	/* compared, never dereferenced */
	struct ns_vfs_attrs attrs;
};

struct ns_witnesses {
	struct ns_witness w[NS_WITNESSES];
	unsigned long held;		/* bit i: w[i].dentry is referenced */
	unsigned long held_mnt;		/* bit i: w[i].mnt is */
	int n;
	bool moved;			/* one moved, or died before it was held */
	bool overflowed;		/* more than NS_WITNESSES: some not kept */
	bool unkept;			/* a mount crossed in RCU mode not held */
};

/* ns_witnesses_moved(): none of those kept moved, but some were not kept */
#define NS_WIT_OVERFLOWED	(-1)
#define NS_WIT_UNKEPT		(-2)

void __ns_witness(struct nameidata *nd, struct vfsmount *mnt,
		  struct dentry *dentry, unsigned int seq);
void __ns_witness_ref(struct nameidata *nd, const struct path *path);
void __ns_witness_found(struct nameidata *nd, const struct path *path);
void __ns_witness_relied(struct nameidata *nd, const struct dentry *dentry);
void __ns_witness_here(struct nameidata *nd);
void __ns_witness_crossed(struct nameidata *nd, const struct vfsmount *mnt,
			  const struct dentry *from, const struct vfsmount *to);
void __ns_witness_legitimize(struct nameidata *nd);
void ns_witnesses_forget(struct ns_witnesses *w);

/*
 * What the walker calls: nothing at all for a walk that keeps no
 * witnesses (the bench's shadow walker).
 */
static inline void ns_witness(struct nameidata *nd, struct vfsmount *mnt,
			      struct dentry *dentry, unsigned int seq)
{
	if (nd->wit)
		__ns_witness(nd, mnt, dentry, seq);
}

static inline void ns_witness_ref(struct nameidata *nd, const struct path *path)
{
	if (nd->wit)
		__ns_witness_ref(nd, path);
}

static inline void ns_witness_found(struct nameidata *nd, const struct path *path)
{
	if (nd->wit)
		__ns_witness_found(nd, path);
}

static inline void ns_witness_relied(struct nameidata *nd,
				     const struct dentry *dentry)
{
	if (nd->wit)
		__ns_witness_relied(nd, dentry);
}

static inline void ns_witness_here(struct nameidata *nd)
{
	if (nd->wit)
		__ns_witness_here(nd);
}

static inline void ns_witness_crossed(struct nameidata *nd,
				      const struct vfsmount *mnt,
				      const struct dentry *from,
				      const struct vfsmount *to)
{
	if (nd->wit)
		__ns_witness_crossed(nd, mnt, from, to);
}

static inline void ns_witness_legitimize(struct nameidata *nd)
{
	if (nd->wit)
		__ns_witness_legitimize(nd);
}

/*
 * A walk started again (RCU to REF, REF to REVAL): the witnesses of
 * the attempt given up are not what the answer judged rests on.
 */
static inline void ns_witness_restart(struct nameidata *nd)
{
	if (nd->wit)
		ns_witnesses_forget(nd->wit);
}

int ns_witnesses_moved(struct ns_witnesses *w);

#endif /* NS_WITNESS_H */
