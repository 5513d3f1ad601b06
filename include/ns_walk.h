/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shadow walker's interface: what to walk in (struct ns_walk_req),
 * the answer and its walk facts out (struct ns_answer, struct
 * ns_walk_info), and the nameidata a walk runs in.  namei_shadow.c
 * walks, and reports what it does through the events of ns_events.h;
 * whoever calls it -- the checker, the bench -- builds the request.
 */
#ifndef NS_WALK_H
#define NS_WALK_H

#include <linux/cred.h>
#include <linux/delayed_call.h>
#include <linux/mnt_idmapping.h>
#include <linux/path.h>
#include <linux/dcache.h>
#include <linux/namei.h>

#define NS_MAXSYMLINKS		40
#define NS_EMBEDDED_LEVELS	2

/*
 * What the last component is (4.2's LAST_*; its LAST_BIND, set by
 * nd_jump_link, never is here: magic links are the kernel's to walk).
 */
enum ns_last_type {
	NS_LAST_NORM,
	NS_LAST_ROOT,
	NS_LAST_DOT,
	NS_LAST_DOTDOT,
};

/* How the walk is being done. */
enum ns_walk_mode {
	NS_MODE_RCU,		/* no references, no locks: d_seq checks */
	NS_MODE_REF,		/* references and locks */
	NS_MODE_REVAL,		/* REF-walk with LOOKUP_REVAL, after ESTALE */
};

/* Whether walks start in RCU mode, and whether that crosses mounts. */
enum ns_rcu_mode { NS_RCU_OFF, NS_RCU_WITHIN_MOUNT, NS_RCU_FULL };

/*
 * Which of the kernel's walks: its final-component handlers
 * (path_lookupat, path_parentat, path_mountpoint, path_openat).
 */
enum ns_walk_kind {
	NS_WALK_LOOKUP,
	NS_WALK_PARENT,
	NS_WALK_MOUNTPOINT,
	NS_WALK_OPEN,
};

#define NS_WALK_KINDS	(NS_WALK_OPEN + 1)

/* Fault injection: make a check fail at a step, to walk the fallbacks. */
enum ns_inject {
	NS_INJECT_NONE,
	NS_INJECT_DSEQ,			/* a d_seq check fails: restart */
	NS_INJECT_LEGITIMIZE,		/* an unlazy there fails: restart */
	NS_INJECT_ECHILD_PERMISSION,	/* may_lookup says -ECHILD: unlazy */
	NS_INJECT_MISS,			/* the RCU lookup misses: unlazy */
	NS_INJECT_ESTALE,		/* the step fails ESTALE: LOOKUP_REVAL */
	NS_INJECTS
};

/*
 * Why a walk left RCU mode (unlazy) or started again (restart), in the
 * order `stats` lists them.  NS_WHY_NONE: an unlazy at the walk's end.
 */
enum ns_why {
	NS_WHY_NONE,
	NS_WHY_MISS, NS_WHY_REVALIDATE, NS_WHY_PERMISSION, NS_WHY_MOUNT,
	NS_WHY_MOUNT_UP, NS_WHY_LINK, NS_WHY_MAGIC, NS_WHY_ATIME, NS_WHY_LSM,
	NS_WHY_ALLOC, NS_WHY_ENOTDIR, NS_WHY_PROTECTED, NS_WHY_NOSYMFOLLOW,
	NS_WHY_CREATE, NS_WHY_MOUNTPOINT, NS_WHY_DSEQ, NS_WHY_LEGITIMIZE,
	NS_WHY_ROOT_SEQ, NS_WHY_DISCONNECTED, NS_WHY_ESTALE, NS_WHY_ECHILD,
	NS_WHY_SCOPE,
	NS_WHYS
};

/*
 * openat2's scopes (5.6+), as the running kernel's LOOKUP_* flags: each
 * a check that may end the walk.  Which one fired, where:
 */
#define NS_LOOKUP_SCOPES	(LOOKUP_NO_SYMLINKS | LOOKUP_NO_MAGICLINKS | \
				 LOOKUP_NO_XDEV | LOOKUP_BENEATH | \
				 LOOKUP_IN_ROOT | LOOKUP_CACHED)

enum ns_scope {
	NS_SCOPE_NONE,
	NS_SCOPE_BENEATH,	/* EXDEV: above the start, or to the root */
	NS_SCOPE_NO_XDEV,	/* EXDEV: a mount crossed, or a jump across */
	NS_SCOPE_NO_SYMLINKS,	/* ELOOP: a link to follow */
	NS_SCOPE_NO_MAGICLINKS,	/* ELOOP: a magic link to follow */
	NS_SCOPE_MAGIC,		/* EXDEV: a magic link, in a scoped walk */
	NS_SCOPE_MOUNT_LOCK,	/* EAGAIN: a mount moved, ".." may escape */
	NS_SCOPE_RENAME_LOCK,	/* EAGAIN: a rename moved, ".." may escape */
	NS_SCOPE_ESCAPED,	/* EXDEV: complete_walk found it outside */
	NS_SCOPE_CACHED,	/* EAGAIN: the walk would leave RCU mode */
	NS_SCOPES
};

/* How a step found where it went. */
enum ns_how {
	NS_HOW_NONE,
	NS_HOW_DCACHE,
	NS_HOW_REVALIDATED,
	NS_HOW_INVALIDATED,
	NS_HOW_SLOW,
	NS_HOW_DOT,
	NS_HOW_DOTDOT,
	NS_HOW_DOTDOT_ROOT,
	NS_HOW_DOTDOT_NSROOT,
	NS_HOW_MOUNTS,
	NS_HOW_WOULD_CREATE,
	NS_HOWS
};

/* A symlink being followed: its path, its body's release, the rest of the name. */
struct ns_saved {
	struct path link;		/* referenced, except in RCU mode */
	struct delayed_call done;
	const char *name;
	unsigned int seq;		/* RCU mode: the link's d_seq */
};

/* What the step in hand did, as the walker knows it: facts, not text. */
struct ns_step {
	enum ns_how how;
	int mounts_down;
	int mounts_up;
	bool automount;
	bool managed_stop;
	bool link;
	bool magic;
	bool jump_root;
	bool seq_retry;
	bool lsm_unchecked;	/* security_inode_follow_link not asked */
	u8 mode;		/* the walk's mode as the step began */
	u8 scope;		/* enum ns_scope: the check that ended it */
};

struct ns_witnesses;
struct ns_record;

struct nameidata {
	struct path path;		/* where the walk is */
	struct inode *inode;		/* path.dentry's inode */
	struct qstr last;		/* the component being looked at */
	enum ns_last_type last_type;
	struct path root;		/* set on first use, held for the walk */
	unsigned int flags;		/* LOOKUP_*, the running kernel's values */
	unsigned int state;		/* NS_JUMPED, NS_ROOT_GRABBED */
	enum ns_walk_mode mode;
	int depth;			/* links on the stack */
	int total_link_count;		/* links followed in this walk */
	struct ns_saved *stack;
	struct ns_saved internal[NS_EMBEDDED_LEVELS];
	const struct path *start;	/* a relative name's start, or NULL: cwd */
	bool start_fd;			/* ... given by a descriptor */
	const struct path *task_root;	/* the root to take, or NULL: the task's */
	const char *name;
	umode_t dir_mode;		/* the final component's directory, */
	vfsuid_t dir_vfsuid;		/* for may_follow_link */
	bool semantics_42;		/* answer as 4.2 where it differs */
	const char *divergence;		/* where 4.2 and this kernel differ */
	const char *undecided;		/* a rule the kernel did not answer */

	/* RCU-walk. */
	unsigned int seq;		/* path.dentry's d_seq */
	unsigned int next_seq;		/* the next dentry's */
	unsigned int root_seq;		/* root.dentry's */
	unsigned int m_seq;		/* mount_lock's, as the walk began */
	unsigned int r_seq;		/* rename_lock's, as the walk began */
	bool rcu_mounts;		/* RCU mode crosses mounts ("full") */
	struct path pinned;		/* the start, referenced, for RCU mode */
	enum ns_why unlazy_reason;	/* why RCU mode ended early */
	int unlazy_step;
	enum ns_why restart_reason;	/* why the walk had to start again */
	bool rcu_completed;		/* reached its end in RCU mode */
	enum ns_walk_mode attempt;	/* what this attempt starts in */
	enum ns_inject inject;
	int inject_step;

	/* openat2's scopes: the first check that fired, and where */
	enum ns_scope scope;
	int scope_step;
	bool left_rcu_own;	/* left RCU mode where the kernel need not */

	/* What watches the walk: none, either or both. */
	struct ns_witnesses *wit;
	struct ns_record *rec;
	int steps;
	struct ns_step step;
};

/* The walk's counts, for the `walk` line. */
struct ns_walk_info {
	enum ns_walk_mode mode;		/* RCU only if it never unlazied */
	int restarts;
	bool reval;			/* retried with LOOKUP_REVAL */
	enum ns_why restart_reason;
	enum ns_why unlazy_reason;
	int unlazy_step;
	int steps;
	int links;
	enum ns_scope scope;		/* a scope's check ended the walk */
	int scope_step;
	/*
	 * The shadow left RCU mode where the kernel's walk need not have (a
	 * mount's "..", a mount "within-mount" or managed, nosymfollow, an
	 * atime, no RCU mode at all, an injected failure): where the mode
	 * decides the answer -- LOOKUP_CACHED's EAGAIN, a scoped "..": its
	 * mount_lock moved by the walk's own mntput() -- the answer is the
	 * shadow's own.
	 */
	bool left_rcu_own;
	/*
	 * The walk met a case that a rule of the running kernel decides,
	 * which it could not be asked at load (kernel_rules.c): its name.
	 */
	const char *undecided;
};

/*
 * Symbols.  The walker's functions have the kernel's names, which are
 * the article's.  But a module's symbols share kallsyms with the
 * kernel's, and kprobes refuse a name two symbols carry: with the module
 * loaded, "kprobe:walk_component" would fail for everyone (and a name
 * the kernel inlined would probe the shadow's).  So each is declared
 * under a symbol of its own, ns_<name>: what kallsyms, kprobes and
 * stack traces show.  trace_test checks that the module's symbols leave
 * every kernel name unique.
 */
#define NS_SYMBOL(name)	asm("ns_" #name)

/*
 * What to walk: all a walk depends on but the task it runs in (whose
 * credentials and, where not given, root and cwd it uses, as the
 * kernel's walker does).
 */
struct ns_walk_req {
	enum ns_walk_kind kind;
	const char *name;		/* shorter than PATH_MAX */
	unsigned int flags;		/* LOOKUP_FOLLOW, _DIRECTORY, _EMPTY, */
					/* _REVAL, and NS_LOOKUP_SCOPES */
	unsigned int open_flag;		/* O_*, for NS_WALK_OPEN */
	const struct path *start;	/* a relative name's start, held by */
					/* the caller; NULL: the task's cwd */
	bool start_fd;			/* @start is a descriptor's file, */
					/* not a cwd: ENOTDIR if no directory */
	const struct path *root;	/* the task's root as the walk began, */
					/* held by the caller; NULL: the task's */
	bool semantics_42;		/* answer as 4.2 where it differs */
	enum ns_rcu_mode rcu;		/* how far RCU-walk may go */
	enum ns_inject inject;		/* a check made to fail, once */
	int inject_step;
};

/* The empty name is refused (getname's rule) unless LOOKUP_EMPTY. */
static inline bool ns_walk_name_refused(const char *name, unsigned int flags)
{
	return !*name && !(flags & LOOKUP_EMPTY);
}

/*
 * An answer to a walk: the shadow's (ns_walk), or the kernel's (the
 * checker's oracle, which alone sets @oracle and @unanswered).
 */
struct ns_answer {
	int err;
	bool has_path;		/* path holds references */
	struct path path;
	char *last;		/* parent mode, and open's create */
	int last_type;		/* parent mode; -1 when the oracle cannot say */
	const char *action;	/* open mode: "open" or "create" */
	const char *divergence;	/* where 4.2 answers otherwise */
	const char *oracle;	/* which kernel function answered */
	const char *unanswered;	/* why the kernel could not be asked */
};

void ns_answer_release(struct ns_answer *a);

/*
 * Walk @req in @nd, whose watchers (nd->wit, nd->rec) the caller
 * attached; the answer in @a, how it was walked in @wi (both zeroed by
 * the caller).
 */
void ns_walk(const struct ns_walk_req *req, struct nameidata *nd,
	     struct ns_answer *a, struct ns_walk_info *wi);
int legitimize_mnt(struct nameidata *nd, struct vfsmount *mnt)
	NS_SYMBOL(legitimize_mnt);

#endif /* NS_WALK_H */
