// SPDX-License-Identifier: GPL-2.0
/*
 * Live mode: the lookups real programs make, each taken as the kernel
 * walked it -- its start, name, LOOKUP_* flags, the task's root and
 * credentials, and the kernel's answer -- and walked again by the
 * shadow, on the way back to user space, then judged.
 *
 * Where each part runs:
 *
 *  - kretprobes on the kernel's own walks (filename_lookup, the open
 *    walk, and the parent walk where the kernel has it out of line):
 *    the entry handler filters (live's words, sampling, the rate cap)
 *    and notes the call's arguments; the return handler copies the
 *    name, notes the start and the answer as the kernel left them (by
 *    address: no reference is taken, nothing may sleep there), holds
 *    the task's credentials, and queues the lookup with task_work_add.
 *  - the task's own context on its way back to user space: the shadow
 *    walks the lookup from the same start, as the same credentials, and
 *    its answer is compared with the kernel's (by address); where they
 *    differ the walk is checked again as `resolve` checks a request --
 *    the kernel, the shadow with its witnesses, the kernel again -- to
 *    tell a race from a mismatch.
 *
 * Bounded: at most NS_LIVE_PENDING lookups wait at once (each slot
 * holds its name, PATH_MAX bytes, and a nameidata); a lookup that finds
 * none free is counted as dropped.  A pending lookup holds a reference
 * on the module, so rmmod waits until every traced task has returned to
 * user space (it fails with EBUSY meanwhile).
 */

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs_struct.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/syscall.h>

#include "ns_check.h"
#include "ns_compat.h"
#include "ns_live.h"
#include "ns_request.h"
#include "ns_text.h"
#include "ns_trace.h"

#define NS_LIVE_PENDING		256
#define NS_LIVE_SESSIONS	2
#define NS_LIVE_MAXACTIVE	64
#define NS_LIVE_UNDER_MAX	256

/* The kernel's walks live mode can take. */
enum ns_live_kind { NS_LIVE_LOOKUP, NS_LIVE_PARENT, NS_LIVE_OPEN, NS_LIVE_KINDS };

static const char *const ns_live_kind_names[NS_LIVE_KINDS] = {
	[NS_LIVE_LOOKUP] = "lookup",
	[NS_LIVE_PARENT] = "parent",
	[NS_LIVE_OPEN] = "open",
};

/* Why a lookup taken could not be judged. */
enum ns_live_why {
	NS_LW_FLAGS,		/* LOOKUP_* it cannot walk as the kernel did (CACHED) */
	NS_LW_ROOT,		/* a root given by the caller (vfs_path_lookup) */
	NS_LW_START,		/* root, cwd or dirfd changed before the shadow walked */
	NS_LW_EXITING,		/* the task was exiting */
	NS_LW_CREATED,		/* the open created what it opened */
	NS_LW_EXEC,		/* an exec's open: MAY_EXEC, not open(2)'s access */
	NS_LW_OPEN_CHECKS,	/* the open failed past its walk: not asked twice */
	NS_LW_FIRST_WALK,	/* only the shadow's unwitnessed first walk differed */
	NS_LW_CHECK,		/* the second check's own reason (witnesses...) */
	NS_LW_BUSY,		/* the task's walks could not be told from programs' */
	NS_LWS
};

static const char *const ns_live_why_names[NS_LWS] = {
	[NS_LW_FLAGS] = "lookup-flags",
	[NS_LW_ROOT] = "root-given",
	[NS_LW_START] = "start-changed",
	[NS_LW_EXITING] = "task-exiting",
	[NS_LW_CREATED] = "open-created",
	[NS_LW_EXEC] = "open-exec",
	[NS_LW_OPEN_CHECKS] = "open-checks-not-repeatable",
	[NS_LW_FIRST_WALK] = "first-walk-unwitnessed",
	[NS_LW_CHECK] = "check-unchecked",
	[NS_LW_BUSY] = "self-marks-full",
};

enum ns_live_counter {
	NS_LC_SEEN,		/* passed the filters */
	NS_LC_SAMPLED,		/* ... and the sampling */
	NS_LC_RATE_LIMITED,	/* over rate= */
	NS_LC_DROPPED,		/* no free slot, or no way back to user space */
	NS_LC_FILTERED,		/* outside under= */
	NS_LC_SHADOWED,		/* walked by the shadow and judged */
	NS_LC_VERDICT,		/* NS_VERDICTS slots */
	NS_LC_UNCHECKED = NS_LC_VERDICT + NS_VERDICTS,	/* NS_LWS slots */
	NS_LC_MODE = NS_LC_UNCHECKED + NS_LWS,		/* the shadow's walks, by mode */
	NS_LC_SLOW = NS_LC_MODE + 3,	/* checked again after a difference */
	NS_LC_KERNEL_RCU,	/* the kernel's lookups begun in RCU mode, */
	NS_LC_KERNEL_ECHILD,	/* ... and how many of those left it (-ECHILD) */
	NS_LC_NR
};

/*
 * What `live` reads back counts from the last start or reset -- an
 * epoch; what the unload reports counts from the load.  A lookup taken
 * in an earlier epoch and judged in this one counts since load only.
 */
static atomic_long_t ns_live_counters[NS_LC_NR];
static atomic_long_t ns_live_since_load[NS_LC_NR];
static atomic_t ns_live_epoch;

static void ns_live_count_in(enum ns_live_counter c, bool this_epoch)
{
	if (this_epoch)
		atomic_long_inc(&ns_live_counters[c]);
	atomic_long_inc(&ns_live_since_load[c]);
}

/* In the probes: the lookup belongs to this epoch. */
static void ns_live_count(enum ns_live_counter c)
{
	ns_live_count_in(c, true);
}

/* A new epoch: the counters start again from zero. */
static void ns_live_zero_locked(void)
{
	int i;

	atomic_inc(&ns_live_epoch);
	for (i = 0; i < NS_LC_NR; i++)
		atomic_long_set(&ns_live_counters[i], 0);
}

/* What `start` asked for. */
struct ns_live_filter {
	char comm[TASK_COMM_LEN];
	pid_t pid;
	pid_t tgid;
	struct cgroup *cgroup;
	char *cgroup_path;
	char *under;
	unsigned int kinds;		/* BIT(enum ns_live_kind) */
	unsigned int sample;		/* one in @sample */
	unsigned int rate;		/* at most this many a second; 0: no cap */
};

/* A lookup taken: what the kernel walked, and its answer. */
struct ns_live_lookup {
	struct callback_head work;
	enum ns_live_kind kind;
	int dfd;
	unsigned int flags;		/* LOOKUP_* */
	unsigned int open_flag;		/* O_*, for an open */
	bool root_given;
	/* the task's root and the start as the kernel walked from them */
	struct path root;		/* held */
	struct path start;		/* held; none for an absolute name */
	bool start_moved;		/* ... they moved during the kernel's walk */
	const struct cred *cred;	/* held */
	/* the kernel's answer */
	int err;
	const void *ans_mnt, *ans_dentry;	/* compared, never dereferenced */
	struct ns_vfs_object obj;
	bool created;			/* an open that created its file */
	int last_type;			/* parent: the last component's */
	char last[NAME_MAX + 1];
	/* who asked */
	unsigned long caller;
	long syscall;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	char name[PATH_MAX];
	struct nameidata nd;		/* the shadow's first walk */
	int epoch;			/* of the counters, when taken */
	int next_free;
};

/* Counted for lookup @e: in this epoch's counters if it was taken in it. */
static void ns_live_count_for(const struct ns_live_lookup *e, enum ns_live_counter c)
{
	ns_live_count_in(c, e->epoch == atomic_read(&ns_live_epoch));
}

/* The arguments of the probed call, between its entry and its return. */
struct ns_live_call {
	int dfd;
	unsigned int flags;
	struct filename *name;
	const void *root_mnt, *root_dentry;	/* compared, never dereferenced */
	const void *start_mnt, *start_dentry;
	struct path *out;		/* lookup's path, parent's directory */
	const struct path *root;
	const void *op;			/* open: the kernel's struct open_flags */
	struct qstr *last;
	int *type;
};

struct ns_live_probe {
	enum ns_live_kind kind;
	const char *const *symbols;	/* tried in turn: each kernel's name */
	const char *found;		/* the one this kernel has, or NULL: */
	const char *why;		/* why none could be probed */
	const char *symbol;		/* attached to now, or NULL */
	struct kretprobe rp;
};

static DEFINE_MUTEX(ns_live_lock);	/* start, stop and reading the state */
static bool ns_live_armed;		/* the probes are on */
static bool ns_live_ever_armed;		/* since load: the unload reports */
static struct ns_live_filter ns_live_filter;
static struct ns_live_lookup *ns_live_slots;
static int ns_live_free = -1;
static DEFINE_RAW_SPINLOCK(ns_live_slot_lock);
static atomic_t ns_live_pending;
static atomic_t ns_live_sampler;
static atomic_t ns_live_window_n;
static unsigned long ns_live_window;
static struct ns_session *ns_live_sessions[NS_LIVE_SESSIONS];

/* ------------------------------------------------------------------ */
/* The module's own walks                                              */

#define NS_LIVE_SELF	64

static struct task_struct *ns_live_self_tasks[NS_LIVE_SELF];
static atomic_t ns_live_self_n;

/* Mark the current task's walks as the module's own, while live mode may be on. */
void ns_live_self_begin(struct ns_live_self *self)
{
	int i;

	self->marked = false;
	for (i = 0; i < NS_LIVE_SELF; i++) {
		if (!cmpxchg(&ns_live_self_tasks[i], NULL, current)) {
			atomic_inc(&ns_live_self_n);
			self->marked = true;
			return;
		}
	}
}

void ns_live_self_end(struct ns_live_self *self)
{
	int i;

	if (!self->marked)
		return;
	for (i = 0; i < NS_LIVE_SELF; i++) {
		if (ns_live_self_tasks[i] == current) {
			WRITE_ONCE(ns_live_self_tasks[i], NULL);
			atomic_dec(&ns_live_self_n);
			return;
		}
	}
}

static bool ns_live_is_self(void)
{
	int i;

	if (!atomic_read(&ns_live_self_n))
		return false;
	for (i = 0; i < NS_LIVE_SELF; i++)
		if (READ_ONCE(ns_live_self_tasks[i]) == current)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Taking a lookup: in the probes, where nothing may sleep             */

/* Is the current task one live mode follows (comm=, pid=, tgid=, cgroup=)? */
static bool ns_live_task_wanted(void)
{
	const struct ns_live_filter *f = &ns_live_filter;

	/* kernel threads and io workers never go back to user space */
	if (current->flags & (PF_KTHREAD | PF_IO_WORKER | PF_EXITING))
		return false;
	if (f->pid && task_pid_nr(current) != f->pid)
		return false;
	if (f->tgid && task_tgid_nr(current) != f->tgid)
		return false;
	if (f->comm[0] && strncmp(current->comm, f->comm, TASK_COMM_LEN))
		return false;
	if (f->cgroup && !ns_compat_current_in_cgroup(f->cgroup))
		return false;
	return !ns_live_is_self();
}

/*
 * Is this walk of the current task's one live mode takes (kinds=,
 * sample=, rate=)?  A name getname() refused is no walk: the kernel
 * returns its error without one, and it is not counted as seen.
 */
static bool ns_live_wanted(enum ns_live_kind kind, const struct filename *name)
{
	const struct ns_live_filter *f = &ns_live_filter;
	unsigned long now;

	if (IS_ERR_OR_NULL(name) || !(f->kinds & BIT(kind)) || !ns_live_task_wanted())
		return false;
	ns_live_count(NS_LC_SEEN);
	if (f->sample > 1 &&
	    (unsigned int)atomic_inc_return(&ns_live_sampler) % f->sample)
		return false;
	if (f->rate) {
		now = jiffies / HZ;
		if (READ_ONCE(ns_live_window) != now) {
			WRITE_ONCE(ns_live_window, now);
			atomic_set(&ns_live_window_n, 0);
		}
		if (atomic_inc_return(&ns_live_window_n) > f->rate) {
			ns_live_count(NS_LC_RATE_LIMITED);
			return false;
		}
	}
	return true;
}

static struct ns_live_lookup *ns_live_slot_get(void)
{
	struct ns_live_lookup *e = NULL;
	unsigned long irqflags;

	raw_spin_lock_irqsave(&ns_live_slot_lock, irqflags);
	if (ns_live_slots && ns_live_free >= 0) {
		e = &ns_live_slots[ns_live_free];
		ns_live_free = e->next_free;
		atomic_inc(&ns_live_pending);
	}
	raw_spin_unlock_irqrestore(&ns_live_slot_lock, irqflags);
	return e;
}

static void ns_live_slot_put(struct ns_live_lookup *e)
{
	unsigned long irqflags;

	raw_spin_lock_irqsave(&ns_live_slot_lock, irqflags);
	e->next_free = ns_live_free;
	ns_live_free = e - ns_live_slots;
	atomic_dec(&ns_live_pending);
	raw_spin_unlock_irqrestore(&ns_live_slot_lock, irqflags);
}

/*
 * Where the walk starts, noted as the kernel's walk begins: the task's
 * root, and for a relative name its cwd or the dirfd's file -- their
 * addresses, read without references, to be compared when the shadow
 * walks.  The name is read here too (the caller holds it).
 */
static void ns_live_note_start(struct ns_live_call *call)
{
	struct fs_struct *fs = current->fs;
	struct file *file;

	call->root_mnt = READ_ONCE(fs->root.mnt);
	call->root_dentry = READ_ONCE(fs->root.dentry);
	call->start_mnt = NULL;
	call->start_dentry = NULL;
	if (call->name->name[0] == '/' && !(call->flags & LOOKUP_IN_ROOT))
		return;
	if (call->dfd == AT_FDCWD) {
		call->start_mnt = READ_ONCE(fs->pwd.mnt);
		call->start_dentry = READ_ONCE(fs->pwd.dentry);
		return;
	}
	rcu_read_lock();
	file = call->dfd >= 0 ? files_lookup_fd_raw(current->files, call->dfd) : NULL;
	if (file) {
		call->start_mnt = READ_ONCE(file->f_path.mnt);
		call->start_dentry = READ_ONCE(file->f_path.dentry);
	}
	rcu_read_unlock();
}

/* The kernel's answer: a path the caller holds now, or an errno. */
static void ns_live_note_answer(struct ns_live_lookup *e, int err,
				const struct path *path)
{
	e->err = err;
	e->ans_mnt = NULL;
	e->ans_dentry = NULL;
	e->obj.positive = false;
	if (err)
		return;
	e->ans_mnt = path->mnt;
	e->ans_dentry = path->dentry;
	ns_vfs_object_take(&e->obj, path->dentry);
}

static void ns_live_work(struct callback_head *work);

/*
 * The probed call returned: take its lookup into a slot and queue it
 * for the task's way back to user space.  Counted as dropped where no
 * slot is free or the task can no longer run it.
 */
static struct ns_live_lookup *ns_live_take(enum ns_live_kind kind,
					   const struct ns_live_call *call,
					   struct kretprobe_instance *ri)
{
	struct ns_live_lookup *e = ns_live_slot_get();

	if (!e) {
		ns_live_count(NS_LC_DROPPED);
		return NULL;
	}
	e->epoch = atomic_read(&ns_live_epoch);
	e->kind = kind;
	e->dfd = call->dfd;
	e->flags = call->flags;
	e->open_flag = 0;
	e->root_given = call->root;
	e->created = false;
	e->last_type = -1;
	e->last[0] = '\0';
	strscpy(e->name, call->name->name, sizeof(e->name));
	e->caller = get_kretprobe_retaddr(ri);
	e->syscall = syscall_get_nr(current, task_pt_regs(current));
	e->pid = task_pid_nr(current);
	get_task_comm(e->comm, current);
	return e;
}

/*
 * The root and the start, held for the shadow's walk: as the task has
 * them now, at the kernel's return, which must be what its walk began
 * from (noted at the entry), or the shadow cannot walk from there.
 */
static void ns_live_hold_start(struct ns_live_lookup *e,
			       const struct ns_live_call *call)
{
	struct file *file;

	get_fs_root(current->fs, &e->root);
	e->start_moved = e->root.mnt != call->root_mnt ||
		e->root.dentry != call->root_dentry;
	e->start.mnt = NULL;
	e->start.dentry = NULL;
	if (e->name[0] == '/' && !(e->flags & LOOKUP_IN_ROOT))
		return;
	if (e->dfd == AT_FDCWD) {
		get_fs_pwd(current->fs, &e->start);
	} else {
		file = fget_raw(e->dfd);
		if (file) {
			e->start = file->f_path;
			path_get(&e->start);
			fput(file);
		}
	}
	if (e->start.mnt != call->start_mnt || e->start.dentry != call->start_dentry)
		e->start_moved = true;
}

/*
 * Queue @e for the task's way back to user space; only then is anything
 * held for it, so that nothing held is ever let go here.
 */
static void ns_live_queue(struct ns_live_lookup *e, const struct ns_live_call *call)
{
	init_task_work(&e->work, ns_live_work);
	if (try_module_get(THIS_MODULE)) {
		if (!task_work_add(current, &e->work, TWA_RESUME)) {
			e->cred = get_cred(current_cred());
			ns_live_hold_start(e, call);
			return;
		}
		module_put(THIS_MODULE);
	}
	ns_live_slot_put(e);
	ns_live_count(NS_LC_DROPPED);
}

/* The probed call's arguments are noted: take its lookup at its return. */
static int ns_live_enter(struct ns_live_call *call)
{
	ns_live_note_start(call);
	ns_live_count(NS_LC_SAMPLED);
	return 0;
}

/* filename_lookup(dfd, name, flags, path, root) */
static int ns_live_lookup_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ns_live_call *call = (void *)ri->data;

	call->name = (struct filename *)regs_get_kernel_argument(regs, 1);
	if (!ns_live_wanted(NS_LIVE_LOOKUP, call->name))
		return 1;
	call->dfd = regs_get_kernel_argument(regs, 0);
	call->flags = regs_get_kernel_argument(regs, 2);
	call->out = (struct path *)regs_get_kernel_argument(regs, 3);
	call->root = (const struct path *)regs_get_kernel_argument(regs, 4);
	return ns_live_enter(call);
}

static int ns_live_lookup_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ns_live_call *call = (void *)ri->data;
	struct ns_live_lookup *e = ns_live_take(NS_LIVE_LOOKUP, call, ri);

	if (e) {
		ns_live_note_answer(e, regs_return_value(regs), call->out);
		ns_live_queue(e, call);
	}
	return 0;
}

/* __filename_parentat(dfd, name, flags, parent, last, type, root) */
static int ns_live_parent_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ns_live_call *call = (void *)ri->data;

	call->name = (struct filename *)regs_get_kernel_argument(regs, 1);
	if (!ns_live_wanted(NS_LIVE_PARENT, call->name))
		return 1;
	call->dfd = regs_get_kernel_argument(regs, 0);
	call->flags = regs_get_kernel_argument(regs, 2);
	call->out = (struct path *)regs_get_kernel_argument(regs, 3);
	call->last = (struct qstr *)regs_get_kernel_argument(regs, 4);
	call->type = (int *)regs_get_kernel_argument(regs, 5);
	call->root = (const struct path *)regs_get_kernel_argument(regs, 6);
	return ns_live_enter(call);
}

static int ns_live_parent_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ns_live_call *call = (void *)ri->data;
	struct ns_live_lookup *e = ns_live_take(NS_LIVE_PARENT, call, ri);
	int err = regs_return_value(regs);

	if (!e)
		return 0;
	ns_live_note_answer(e, err, call->out);
	if (!err) {
		/* the kernel's LAST_* are 4.2's, the walker's NS_LAST_* */
		e->last_type = *call->type;
		if (e->last_type != NS_LAST_ROOT)
			strscpy(e->last, call->last->name,
				min_t(size_t, sizeof(e->last), call->last->len + 1));
	}
	ns_live_queue(e, call);
	return 0;
}

/*
 * do_filp_open(dfd, name, op), do_file_open on 7.x.  The kernel's
 * struct open_flags (fs/internal.h) begins with the open's O_* flags on
 * every supported kernel, then its mode, access, intent and lookup
 * flags.
 */
struct ns_kernel_open_flags {
	int open_flag;
	umode_t mode;
	int acc_mode;
	int intent;
	int lookup_flags;
};

static int ns_live_open_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ns_live_call *call = (void *)ri->data;
	const struct ns_kernel_open_flags *op;

	call->name = (struct filename *)regs_get_kernel_argument(regs, 1);
	if (!ns_live_wanted(NS_LIVE_OPEN, call->name))
		return 1;
	call->dfd = regs_get_kernel_argument(regs, 0);
	op = (const void *)regs_get_kernel_argument(regs, 2);
	call->op = op;
	call->flags = op->lookup_flags;
	call->root = NULL;
	return ns_live_enter(call);
}

static int ns_live_open_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ns_live_call *call = (void *)ri->data;
	const struct ns_kernel_open_flags *op = call->op;
	struct ns_live_lookup *e = ns_live_take(NS_LIVE_OPEN, call, ri);
	struct file *file = (struct file *)regs_return_value(regs);

	if (!e)
		return 0;
	e->open_flag = op->open_flag;
	if (IS_ERR(file)) {
		ns_live_note_answer(e, PTR_ERR(file), NULL);
	} else {
		ns_live_note_answer(e, 0, &file->f_path);
		e->created = file->f_mode & FMODE_CREATED;
	}
	ns_live_queue(e, call);
	return 0;
}

/*
 * The kernel's own RCU-walk, on the same tasks (not sampled): each
 * path_lookupat() asked with LOOKUP_RCU, and those that answered
 * -ECHILD -- the walk filename_lookup() then does again in REF mode.
 */
static int ns_live_rcu_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int flags = regs_get_kernel_argument(regs, 1);

	if (!(flags & LOOKUP_RCU) || !(ns_live_filter.kinds & BIT(NS_LIVE_LOOKUP)) ||
	    !ns_live_task_wanted())
		return 1;
	ns_live_count(NS_LC_KERNEL_RCU);
	return 0;
}

static int ns_live_rcu_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if ((int)regs_return_value(regs) == -ECHILD)
		ns_live_count(NS_LC_KERNEL_ECHILD);
	return 0;
}

static const char *const ns_live_rcu_symbols[] = { "path_lookupat", NULL };

static struct ns_live_probe ns_live_rcu_probe = {
	.symbols = ns_live_rcu_symbols,
	.rp = { .entry_handler = ns_live_rcu_entry, .handler = ns_live_rcu_return },
};

static const char *const ns_live_lookup_symbols[] = { "filename_lookup", NULL };
static const char *const ns_live_parent_symbols[] = { "__filename_parentat", NULL };
static const char *const ns_live_open_symbols[] = { "do_file_open", "do_filp_open", NULL };

static struct ns_live_probe ns_live_probes[NS_LIVE_KINDS] = {
	[NS_LIVE_LOOKUP] = {
		.kind = NS_LIVE_LOOKUP, .symbols = ns_live_lookup_symbols,
		.rp = { .entry_handler = ns_live_lookup_entry,
			.handler = ns_live_lookup_return },
	},
	[NS_LIVE_PARENT] = {
		.kind = NS_LIVE_PARENT, .symbols = ns_live_parent_symbols,
		.rp = { .entry_handler = ns_live_parent_entry,
			.handler = ns_live_parent_return },
	},
	[NS_LIVE_OPEN] = {
		.kind = NS_LIVE_OPEN, .symbols = ns_live_open_symbols,
		.rp = { .entry_handler = ns_live_open_entry,
			.handler = ns_live_open_return },
	},
};

static int ns_live_register(struct ns_live_probe *p)
{
	const char *const *sym;
	int err = -ENOENT;

	for (sym = p->symbols; *sym; sym++) {
		memset(&p->rp.kp, 0, sizeof(p->rp.kp));
		p->rp.kp.symbol_name = *sym;
		p->rp.data_size = p->rp.handler == ns_live_rcu_return ? 0 :
			sizeof(struct ns_live_call);
		p->rp.maxactive = NS_LIVE_MAXACTIVE;
		p->rp.nmissed = 0;
		err = register_kretprobe(&p->rp);
		if (!err) {
			p->symbol = *sym;
			return 0;
		}
	}
	p->symbol = NULL;
	return err;
}

static void ns_live_unregister(struct ns_live_probe *p)
{
	if (!p->symbol)
		return;
	unregister_kretprobe(&p->rp);
	p->symbol = NULL;
}

/* ------------------------------------------------------------------ */
/* Walking it again: in the task, on its way back to user space        */

/* The shadow's walk of @e, as the kernel was asked it. */
static void ns_live_walk_req(const struct ns_live_lookup *e,
			     struct ns_walk_req *req)
{
	unsigned int flags = e->flags;
	enum ns_walk_kind kind = NS_WALK_LOOKUP;

	if (e->kind == NS_LIVE_OPEN) {
		kind = NS_WALK_OPEN;
	} else if (e->kind == NS_LIVE_PARENT) {
		kind = NS_WALK_PARENT;
	} else if (flags & LOOKUP_MOUNTPOINT) {
		kind = NS_WALK_MOUNTPOINT;
		flags &= ~LOOKUP_MOUNTPOINT;
	}
	*req = (struct ns_walk_req){
		.kind = kind,
		.name = e->name,
		.flags = flags,
		.open_flag = e->open_flag,
		.start = e->start.dentry ? &e->start : NULL,
		.start_fd = e->dfd != AT_FDCWD,
		.root = &e->root,
		.rcu = ns_rcu_mode,
	};
}

/*
 * The LOOKUP_* flags the shadow walks as the kernel does: openat2's
 * scopes too, but RESOLVE_CACHED, whose answer is the dcache's at the
 * kernel's walk, which the shadow's, later, cannot see.
 */
#define NS_LIVE_FLAGS	(LOOKUP_FOLLOW | LOOKUP_DIRECTORY | LOOKUP_AUTOMOUNT | \
			 LOOKUP_EMPTY | LOOKUP_MOUNTPOINT | LOOKUP_REVAL | \
			 (NS_LOOKUP_SCOPES & ~LOOKUP_CACHED))

/* The shadow's first walk against the kernel's answer, by address. */
static bool ns_live_same(const struct ns_live_lookup *e,
			 const struct ns_answer *a)
{
	if (e->err || a->err)
		return e->err == a->err;
	if (!a->has_path || a->path.mnt != e->ans_mnt ||
	    a->path.dentry != e->ans_dentry)
		return false;
	if (e->kind != NS_LIVE_PARENT)
		return true;
	return a->last_type == e->last_type && !strcmp(a->last ?: "", e->last);
}

/* A session for a second check: one of a few, waited for if all are busy. */
static struct ns_session *ns_live_session_get(void)
{
	int i;

	for (i = 0; i < NS_LIVE_SESSIONS; i++)
		if (mutex_trylock(&ns_live_sessions[i]->lock))
			return ns_live_sessions[i];
	i = task_pid_nr(current) % NS_LIVE_SESSIONS;
	mutex_lock(&ns_live_sessions[i]->lock);
	return ns_live_sessions[i];
}

/* The request line that asks `resolve` the same walk, from /. */
static void ns_live_put_replay(struct ns_buf *sb, const struct ns_live_lookup *e,
			       const struct ns_walk_req *req)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	char *p;

	ns_printf(sb, "replay mode=%s flags=%s%s path=", ns_walk_kind_names[req->kind],
		  req->flags & LOOKUP_FOLLOW ? "follow" : "nofollow",
		  req->flags & LOOKUP_DIRECTORY ? ",directory" : "");
	if (e->start.dentry && buf) {
		p = d_path(&e->start, buf, PATH_MAX);
		if (!IS_ERR(p)) {
			ns_put_escaped(sb, p, strlen(p));
			ns_putc(sb, '/');
		}
	}
	ns_put_escaped(sb, e->name, strlen(e->name));
	ns_putc(sb, '\n');
	kfree(buf);
}

/* The mismatch's record: who asked, the kernel's answer then, the check now. */
static void ns_live_log_mismatch(const struct ns_live_lookup *e,
				 struct ns_session *ss, const struct ns_check *c)
{
	struct ns_buf out;
	size_t replay;

	ns_buf_init(&out, ss->result, NS_RESULT_MAX);
	ns_printf(&out, "live comm=%s pid=%d syscall=%ld caller=%pS kind=%s dfd=%d flags=%#x name=",
		  e->comm, e->pid, e->syscall, (void *)e->caller,
		  ns_live_kind_names[e->kind], e->dfd, e->flags);
	ns_put_escaped(&out, e->name, strlen(e->name));
	ns_puts(&out, "\nkernel-live err=");
	ns_put_errno(&out, e->err);
	if (!e->err)
		ns_put_object(&out, &e->obj);
	ns_putc(&out, '\n');
	replay = ns_buf_used(&out);
	ns_live_put_replay(&out, e, &c->walk);
	if (trace_live_mismatch_enabled())
		trace_live_mismatch(e->comm, e->pid, e->caller, ns_live_kind_names[e->kind],
				    ss->result + replay, c->shadow.err, e->err);
	ns_put_check(&out, ss, c);
	ns_log_mismatch(ss->result, ns_buf_used(&out));
}

/*
 * The shadow's first walk and the kernel's answer differ: the walk is
 * checked again as `resolve` checks a request -- the kernel, the shadow
 * with its witnesses, the kernel again.  Its mismatch is a mismatch,
 * its race a race.  Agreeing now where they differed then: a race if
 * the kernel's own answer changed since the program's walk; otherwise
 * nothing shows what changed (the first walk kept no witnesses), and
 * the lookup is unchecked, never a guess.
 */
static enum ns_verdict ns_live_check_again(const struct ns_live_lookup *e,
					   const struct ns_walk_req *req,
					   enum ns_live_why *why)
{
	struct ns_session *ss = ns_live_session_get();
	struct ns_check c = { .walk = *req, .dfd = e->dfd, .no_fd_copy = true };
	enum ns_verdict verdict;

	/* the second check walks from the task's root and start as they are now */
	c.walk.root = NULL;
	c.walk.start = NULL;
	c.walk.start_fd = false;

	ns_live_count_for(e, NS_LC_SLOW);
	ns_check_walk(ss, &c);
	verdict = c.verdict;
	*why = NS_LW_CHECK;
	if (verdict == NS_MATCH) {
		verdict = NS_UNCHECKED;
		if (e->kind == NS_LIVE_OPEN && e->err && !c.o1.err)
			*why = NS_LW_OPEN_CHECKS;
		else if (ns_live_same(e, &c.o1))
			*why = NS_LW_FIRST_WALK;
		else
			verdict = NS_RACED;
	}
	if (verdict == NS_MISMATCH)
		ns_live_log_mismatch(e, ss, &c);
	ns_check_release(&c);
	mutex_unlock(&ss->lock);
	return verdict;
}

/* Does @path lie under= the filter's path? */
static bool ns_live_path_under(const struct path *path, char *buf)
{
	const char *under = ns_live_filter.under;
	char *p = d_path(path, buf, PATH_MAX);

	return !IS_ERR(p) && !strncmp(p, under, strlen(under));
}

/* Is the shadow's answer, the walk's start, or an absolute name under=? */
static bool ns_live_under(const struct ns_live_lookup *e, const struct ns_answer *a)
{
	const char *under = ns_live_filter.under;
	char *buf;
	bool in;

	if (!under || !strncmp(e->name, under, strlen(under)))
		return true;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return true;
	in = (a->has_path && ns_live_path_under(&a->path, buf)) ||
		(e->start.dentry && ns_live_path_under(&e->start, buf));
	kfree(buf);
	return in;
}

/* Why @e cannot be walked as the kernel walked it, or NS_LWS. */
static enum ns_live_why ns_live_cannot(const struct ns_live_lookup *e)
{
	if (current->flags & PF_EXITING || !current->fs)
		return NS_LW_EXITING;
	if (e->flags & ~NS_LIVE_FLAGS)
		return NS_LW_FLAGS;
	if (e->root_given)
		return NS_LW_ROOT;
	if (e->created || (e->open_flag & __O_TMPFILE) == __O_TMPFILE)
		return NS_LW_CREATED;
	if (e->open_flag & __FMODE_EXEC)
		return NS_LW_EXEC;
	if (e->start_moved)
		return NS_LW_START;
	return NS_LWS;
}

static void ns_live_count_unchecked(const struct ns_live_lookup *e,
				    enum ns_live_why why)
{
	ns_live_count_for(e, NS_LC_VERDICT + NS_UNCHECKED);
	ns_live_count_for(e, NS_LC_UNCHECKED + why);
}

static void ns_live_judge(struct ns_live_lookup *e)
{
	struct ns_answer a = {};
	struct ns_walk_info wi = {};
	struct ns_walk_req req;
	enum ns_verdict verdict = NS_MATCH;
	enum ns_live_why why = ns_live_cannot(e);

	if (why != NS_LWS) {
		ns_live_count_unchecked(e, why);
		return;
	}
	ns_live_walk_req(e, &req);
	e->nd.wit = NULL;
	e->nd.rec = NULL;
	if (e->name[0] != '/' && req.start_fd && !req.start)
		a.err = -EBADF;		/* as the kernel's fdget() found it */
	else
		ns_walk(&req, &e->nd, &a, &wi);
	if (!ns_live_under(e, &a)) {
		ns_live_count_for(e, NS_LC_FILTERED);
		goto out;
	}
	ns_live_count_for(e, NS_LC_SHADOWED);
	ns_live_count_for(e, NS_LC_MODE + wi.mode);
	if (!ns_live_same(e, &a))
		verdict = ns_live_check_again(e, &req, &why);
	if (verdict == NS_UNCHECKED)
		ns_live_count_unchecked(e, why);
	else
		ns_live_count_for(e, NS_LC_VERDICT + verdict);
out:
	ns_answer_release(&a);
}

/* The task is on its way back to user space: walk, judge, let go. */
static void ns_live_work(struct callback_head *work)
{
	struct ns_live_lookup *e = container_of(work, struct ns_live_lookup, work);
	const struct cred *old;
	struct ns_live_self self;

	ns_live_self_begin(&self);
	if (!self.marked) {
		ns_live_count_unchecked(e, NS_LW_BUSY);
	} else {
		old = override_creds(e->cred);
		ns_live_judge(e);
		revert_creds(old);
	}
	ns_live_self_end(&self);
	put_cred(e->cred);
	path_put(&e->root);
	if (e->start.dentry)
		path_put(&e->start);
	ns_live_slot_put(e);
	module_put(THIS_MODULE);
}

/* ------------------------------------------------------------------ */
/* start, stop, and what `live` reads back                             */

static void ns_live_filter_free(struct ns_live_filter *f)
{
	if (f->cgroup)
		ns_compat_cgroup_put(f->cgroup);
	kfree(f->cgroup_path);
	kfree(f->under);
	memset(f, 0, sizeof(*f));
}

static int ns_live_parse_kinds(char *val, unsigned int *kinds, const char **why)
{
	char *tok;
	int k;

	*kinds = 0;
	while ((tok = strsep(&val, ",")) != NULL) {
		for (k = 0; k < NS_LIVE_KINDS; k++)
			if (!strcmp(tok, ns_live_kind_names[k]))
				break;
		if (k == NS_LIVE_KINDS) {
			*why = "kinds= takes a comma list of lookup, parent, open";
			return -EINVAL;
		}
		if (!ns_live_probes[k].found) {
			*why = "kinds= names a walk this kernel cannot probe: see features";
			return -EOPNOTSUPP;
		}
		*kinds |= BIT(k);
	}
	return 0;
}

static int ns_live_parse_uint(const char *val, unsigned int min, unsigned int *out,
			      const char *why_text, const char **why)
{
	if (kstrtouint(val, 10, out) || *out < min) {
		*why = why_text;
		return -EINVAL;
	}
	return 0;
}

static int ns_live_parse_word(char *word, struct ns_live_filter *f, const char **why)
{
	char *val = strchr(word, '=');
	struct cgroup *cg;
	int pid;

	if (!val) {
		*why = "start takes key=value words (comm pid tgid cgroup under kinds sample rate)";
		return -EINVAL;
	}
	*val++ = '\0';
	if (!strcmp(word, "comm")) {
		if (!*val || strlen(val) >= TASK_COMM_LEN) {
			*why = "comm= takes a command name of 1 to 15 bytes";
			return -EINVAL;
		}
		strscpy(f->comm, val, sizeof(f->comm));
		return 0;
	}
	if (!strcmp(word, "pid") || !strcmp(word, "tgid")) {
		if (kstrtoint(val, 10, &pid) || pid <= 0) {
			*why = "pid= and tgid= take a process id";
			return -EINVAL;
		}
		*(word[0] == 'p' ? &f->pid : &f->tgid) = pid;
		return 0;
	}
	if (!strcmp(word, "cgroup")) {
		cg = ns_compat_cgroup_get_from_path(val);
		if (IS_ERR(cg)) {
			*why = PTR_ERR(cg) == -EOPNOTSUPP ?
				"cgroup= needs a kernel with cgroups (CONFIG_CGROUPS)" :
				"cgroup= takes a cgroup v2 path, from the root of its hierarchy";
			return PTR_ERR(cg);
		}
		if (f->cgroup)
			ns_compat_cgroup_put(f->cgroup);
		f->cgroup = cg;
		kfree(f->cgroup_path);
		f->cgroup_path = kstrdup(val, GFP_KERNEL);
		return f->cgroup_path ? 0 : -ENOMEM;
	}
	if (!strcmp(word, "under")) {
		if (*val != '/' || strlen(val) >= NS_LIVE_UNDER_MAX) {
			*why = "under= takes an absolute path prefix, shorter than 256 bytes";
			return -EINVAL;
		}
		kfree(f->under);
		f->under = kstrdup(val, GFP_KERNEL);
		return f->under ? 0 : -ENOMEM;
	}
	if (!strcmp(word, "kinds"))
		return ns_live_parse_kinds(val, &f->kinds, why);
	if (!strcmp(word, "sample"))
		return ns_live_parse_uint(val, 1, &f->sample,
					  "sample= takes N >= 1: one lookup in N", why);
	if (!strcmp(word, "rate"))
		return ns_live_parse_uint(val, 1, &f->rate,
					  "rate= takes N >= 1: at most N lookups a second", why);
	*why = "unknown word (start takes comm, pid, tgid, cgroup, under, kinds, sample, rate)";
	return -EINVAL;
}

/* The attached kinds, as the default of kinds=. */
static unsigned int ns_live_attached(void)
{
	unsigned int kinds = 0;
	int k;

	for (k = 0; k < NS_LIVE_KINDS; k++)
		if (ns_live_probes[k].found)
			kinds |= BIT(k);
	return kinds;
}

static int ns_live_parse(char *buf, struct ns_live_filter *f, const char **why)
{
	char *word;
	int err;

	f->sample = 1;
	f->kinds = ns_live_attached();
	while ((word = strsep(&buf, " \t\n")) != NULL) {
		if (!*word)
			continue;
		err = ns_live_parse_word(word, f, why);
		if (err)
			return err;
	}
	return 0;
}

static void ns_live_unregister_all(void)
{
	int k;

	for (k = 0; k < NS_LIVE_KINDS; k++)
		if (ns_live_filter.kinds & BIT(k))
			ns_live_unregister(&ns_live_probes[k]);
	ns_live_unregister(&ns_live_rcu_probe);
}

/*
 * Disarm: the probes go (unregister_kretprobe waits for the handlers
 * running); the lookups already taken still run, in their tasks.
 */
static void ns_live_stop_locked(void)
{
	if (!ns_live_armed)
		return;
	ns_live_unregister_all();
	ns_live_armed = false;
}

/* The slots and the sessions of a second check: once, kept until unload. */
static int ns_live_alloc(void)
{
	int i, err;

	if (ns_live_slots)
		return 0;
	for (i = 0; i < NS_LIVE_SESSIONS; i++) {
		ns_live_sessions[i] = kzalloc(sizeof(*ns_live_sessions[i]), GFP_KERNEL);
		if (!ns_live_sessions[i])
			return -ENOMEM;
		err = ns_session_init(ns_live_sessions[i], true);
		if (err) {
			kfree(ns_live_sessions[i]);
			ns_live_sessions[i] = NULL;
			return err;
		}
	}
	ns_live_slots = vzalloc(array_size(NS_LIVE_PENDING, sizeof(*ns_live_slots)));
	if (!ns_live_slots)
		return -ENOMEM;
	for (i = 0; i < NS_LIVE_PENDING; i++)
		ns_live_slots[i].next_free = i + 1 < NS_LIVE_PENDING ? i + 1 : -1;
	ns_live_free = 0;
	return 0;
}

static int ns_live_start_locked(char *buf, const char **why)
{
	struct ns_live_filter f = {};
	int k, err;

	err = ns_live_parse(buf, &f, why);
	if (!err && !f.kinds) {
		*why = "no walk of this kernel's can be taken: see features' live line";
		err = -EOPNOTSUPP;
	}
	if (!err) {
		err = ns_live_alloc();
		*why = "no memory for live mode's slots";
	}
	if (err) {
		ns_live_filter_free(&f);
		return err;
	}
	ns_live_stop_locked();
	/* the handlers read the filter: none runs while it changes */
	ns_live_filter_free(&ns_live_filter);
	ns_live_filter = f;
	ns_live_zero_locked();
	atomic_set(&ns_live_sampler, 0);
	for (k = 0; k < NS_LIVE_KINDS; k++) {
		if (!(f.kinds & BIT(k)))
			continue;
		err = ns_live_register(&ns_live_probes[k]);
		if (err) {
			ns_live_unregister_all();
			*why = "a probe could not be attached (kprobes refused it)";
			return err;
		}
	}
	/* the kernel's RCU completion, where its path_lookupat can be seen */
	if (ns_live_rcu_probe.found && (f.kinds & BIT(NS_LIVE_LOOKUP)))
		ns_live_register(&ns_live_rcu_probe);
	ns_live_armed = true;
	ns_live_ever_armed = true;
	return 0;
}

/* Each open file of `live` keeps the refusal of its last write, if any. */
struct ns_live_file {
	int err;
	const char *why;
};

static void ns_live_show_counters(struct seq_file *m)
{
	static const char *const names[NS_LC_NR] = {
		[NS_LC_SEEN] = "seen",
		[NS_LC_SAMPLED] = "sampled",
		[NS_LC_RATE_LIMITED] = "rate_limited",
		[NS_LC_DROPPED] = "dropped",
		[NS_LC_FILTERED] = "filtered",
		[NS_LC_SHADOWED] = "shadowed",
		[NS_LC_SLOW] = "checked_again",
		[NS_LC_KERNEL_RCU] = "kernel_rcu_walks",
		[NS_LC_KERNEL_ECHILD] = "kernel_rcu_left",
	};
	int i;

	for (i = 0; i < NS_LC_NR; i++) {
		if (names[i])
			seq_printf(m, "%s %ld\n", names[i],
				   atomic_long_read(&ns_live_counters[i]));
	}
	for (i = 0; i < NS_VERDICTS; i++)
		seq_printf(m, "verdict_%s %ld\n", ns_verdict_names[i],
			   atomic_long_read(&ns_live_counters[NS_LC_VERDICT + i]));
	for (i = 0; i < NS_LWS; i++)
		seq_printf(m, "unchecked %s %ld\n", ns_live_why_names[i],
			   atomic_long_read(&ns_live_counters[NS_LC_UNCHECKED + i]));
	for (i = NS_MODE_RCU; i <= NS_MODE_REVAL; i++)
		seq_printf(m, "shadow_mode %s %ld\n", ns_mode_names[i],
			   atomic_long_read(&ns_live_counters[NS_LC_MODE + i]));
}

static int ns_live_show(struct seq_file *m, void *unused)
{
	const struct ns_live_file *lf = m->private;
	const struct ns_live_filter *f = &ns_live_filter;
	int k;

	if (lf->err)
		seq_printf(m, "error err=-%s reason=%s\n", ns_errno_name(-lf->err) ?: "?",
			   lf->why);
	mutex_lock(&ns_live_lock);
	seq_printf(m, "live %s", ns_live_armed ? "armed" : "off");
	if (ns_live_armed) {
		seq_puts(m, " kinds=");
		for (k = 0; k < NS_LIVE_KINDS; k++)
			if (f->kinds & BIT(k))
				seq_printf(m, "%s%s", ns_live_kind_names[k],
					   f->kinds >> (k + 1) ? "," : "");
		seq_printf(m, " sample=%u", f->sample);
		if (f->rate)
			seq_printf(m, " rate=%u", f->rate);
		if (f->comm[0])
			seq_printf(m, " comm=%s", f->comm);
		if (f->pid)
			seq_printf(m, " pid=%d", f->pid);
		if (f->tgid)
			seq_printf(m, " tgid=%d", f->tgid);
		if (f->cgroup_path)
			seq_printf(m, " cgroup=%s", f->cgroup_path);
		if (f->under)
			seq_printf(m, " under=%s", f->under);
	}
	seq_printf(m, " pending=%d\n", atomic_read(&ns_live_pending));
	for (k = 0; k < NS_LIVE_KINDS; k++)
		if (ns_live_armed && (f->kinds & BIT(k)))
			seq_printf(m, "probe %s %s missed=%d\n", ns_live_kind_names[k],
				   ns_live_probes[k].symbol, ns_live_probes[k].rp.nmissed);
	mutex_unlock(&ns_live_lock);
	ns_live_show_counters(m);
	return 0;
}

static int live_open(struct inode *inode, struct file *file)
{
	struct ns_live_file *lf = kzalloc(sizeof(*lf), GFP_KERNEL);
	int err;

	if (!lf)
		return -ENOMEM;
	err = single_open(file, ns_live_show, lf);
	if (err)
		kfree(lf);
	return err;
}

static int live_release(struct inode *inode, struct file *file)
{
	kfree(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

/*
 * "start [word...]" arms live mode (again, with new words) and zeroes
 * the counters, "stop" disarms it, "reset" zeroes the counters.  A
 * refused write changes nothing; the reason is read back first on the
 * same open file.
 */
static ssize_t live_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct ns_live_file *lf = ((struct seq_file *)file->private_data)->private;
	const char *why = "write start [word...], stop or reset";
	char *buf, *cmd;
	int err = -EINVAL;

	if (count > PAGE_SIZE)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cmd = strim(buf);
	mutex_lock(&ns_live_lock);
	if (!strcmp(cmd, "stop")) {
		ns_live_stop_locked();
		err = 0;
	} else if (!strcmp(cmd, "reset")) {
		ns_live_zero_locked();
		err = 0;
	} else if (!strncmp(cmd, "start", 5) && (!cmd[5] || isspace(cmd[5]))) {
		err = ns_live_start_locked(cmd + 5, &why);
	}
	mutex_unlock(&ns_live_lock);
	kfree(buf);
	lf->err = err;
	lf->why = why;
	return err ? err : count;
}

const struct file_operations ns_live_fops = {
	.owner = THIS_MODULE,
	.open = live_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = live_release,
	.write = live_write,
};

/* Which of the kernel's walks this kernel lets live mode take, and by what. */
void ns_live_show_features(struct seq_file *m)
{
	int k;

	seq_puts(m, "live");
	for (k = 0; k < NS_LIVE_KINDS; k++)
		seq_printf(m, " %s=%s", ns_live_kind_names[k],
			   ns_live_probes[k].found ?: "none");
	for (k = 0; k < NS_LIVE_KINDS; k++)
		if (ns_live_probes[k].why)
			seq_printf(m, " why_%s=%s", ns_live_kind_names[k],
				   ns_live_probes[k].why);
	seq_printf(m, " kernel_rcu=%s via=kretprobe\n", ns_live_rcu_probe.found ?: "none");
}

/* The live= parameter's words, armed at load as `start` arms them. */
static int ns_live_start_at_load(const char *words)
{
	const char *why = NULL;
	char *buf = kstrdup(words, GFP_KERNEL);
	int err;

	if (!buf)
		return -ENOMEM;
	mutex_lock(&ns_live_lock);
	err = ns_live_start_locked(buf, &why);
	mutex_unlock(&ns_live_lock);
	kfree(buf);
	if (err)
		pr_err("live=\"%s\" refused: %s (-%s)\n", words, why,
		       ns_errno_name(-err) ?: "?");
	else
		pr_info("live mode armed: %s\n", words);
	return err;
}

/*
 * At load: which walks a kretprobe can be put on (each tried, then
 * taken off again: an armed probe costs every lookup of the system);
 * then, where the live= parameter gives words, live mode armed with
 * them.
 */
int ns_live_init(const char *words)
{
	struct ns_live_probe *p;
	int k;

	for (k = 0; k < NS_LIVE_KINDS; k++) {
		p = &ns_live_probes[k];
		/* the probes take the task's fs->lock, which sleeps on RT */
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			p->why = "preempt-rt";
			continue;
		}
		if (ns_live_register(p)) {
			/* 6.1 and 6.12 inline theirs into filename_parentat's callers */
			p->why = k == NS_LIVE_PARENT ? "parent-walk-inlined" :
				"no-probe-point";
			continue;
		}
		p->found = p->symbol;
		ns_live_unregister(p);
	}
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && !ns_live_register(&ns_live_rcu_probe)) {
		ns_live_rcu_probe.found = ns_live_rcu_probe.symbol;
		ns_live_unregister(&ns_live_rcu_probe);
	}
	return words && *words ? ns_live_start_at_load(words) : 0;
}

/* At unload, where live mode was ever armed: what it saw since load. */
static void ns_live_report_since_load(void)
{
	const atomic_long_t *n = ns_live_since_load;

	pr_info("live: since load %ld lookups seen, %ld taken, %ld dropped, %ld shadowed: %ld match, %ld raced, %ld mismatch, %ld unchecked\n",
		atomic_long_read(&n[NS_LC_SEEN]),
		atomic_long_read(&n[NS_LC_SAMPLED]),
		atomic_long_read(&n[NS_LC_DROPPED]),
		atomic_long_read(&n[NS_LC_SHADOWED]),
		atomic_long_read(&n[NS_LC_VERDICT + NS_MATCH]),
		atomic_long_read(&n[NS_LC_VERDICT + NS_RACED]),
		atomic_long_read(&n[NS_LC_VERDICT + NS_MISMATCH]),
		atomic_long_read(&n[NS_LC_VERDICT + NS_UNCHECKED]));
}

/*
 * At unload: no lookup is pending (each holds a reference on the
 * module), so only the probes, slots and sessions are left to free.
 */
void ns_live_exit(void)
{
	int i;

	mutex_lock(&ns_live_lock);
	ns_live_stop_locked();
	ns_live_filter_free(&ns_live_filter);
	mutex_unlock(&ns_live_lock);
	if (ns_live_ever_armed)
		ns_live_report_since_load();
	vfree(ns_live_slots);
	ns_live_slots = NULL;
	for (i = 0; i < NS_LIVE_SESSIONS; i++) {
		if (!ns_live_sessions[i])
			continue;
		ns_session_free(ns_live_sessions[i]);
		kfree(ns_live_sessions[i]);
		ns_live_sessions[i] = NULL;
	}
}
