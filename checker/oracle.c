// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle: the running kernel's own answer to a request, from the
 * same pinned start as the shadow's -- kern_path() and its kin, each
 * asked the nearest question it can answer to the mode of the request.
 */

#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ns_check.h"
#include "ns_compat.h"

/*
 * The name in the writer's own memory, as openat(2) passes it, for the
 * kernel functions that take a descriptor (user_path_at()): a private
 * anonymous page mapped in the writer's address space once per check
 * (unmapped as the start is left), the name copied in, NULL if that
 * cannot be done (@a says why).
 */
static const char __user *
ns_oracle_user_name(struct ns_start *st, const char *name, struct ns_answer *a)
{
	size_t len = strlen(name) + 1;
	unsigned long addr;

	if (!current->mm) {
		a->unanswered = "writer-has-no-memory";
		return NULL;
	}
	if (!st->uname) {
		addr = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_ANONYMOUS | MAP_PRIVATE, 0);
		if (IS_ERR_VALUE(addr)) {
			a->unanswered = "no-room-in-writer-for-the-name";
			return NULL;
		}
		st->uname = addr;
	}
	if (len > PAGE_SIZE || copy_to_user((char __user *)st->uname, name, len)) {
		a->unanswered = "no-room-in-writer-for-the-name";
		return NULL;
	}
	return (const char __user *)st->uname;
}

/* The writer's memory at @uname still holds @name. */
static bool ns_user_name_is(const char __user *uname, const char *name)
{
	size_t left = strlen(name) + 1, n;
	char back[64];

	for (; left; left -= n, uname += n, name += n) {
		n = min(left, sizeof(back));
		if (copy_from_user(back, uname, n) || memcmp(back, name, n))
			return false;
	}
	return true;
}

/*
 * The kernel's lookup of @name from the start the request pinned: its
 * root and cwd are the writer's current->fs while it runs; an at= start
 * is the pinned file, at the writer's descriptor kept for the kernel.
 * From the cwd, kern_path(); from a descriptor, and for the empty name
 * getname() refuses (kern_path() would not), user_path_at() with the
 * name in the writer's memory, read back after the walk: a thread that
 * wrote over it leaves the kernel's answer unasked.
 */
static void ns_oracle_lookup(struct ns_start *st, const char *name,
			     unsigned int flags, struct ns_answer *a)
{
	const char __user *uname;

	if (!st->file && !ns_walk_name_refused(name, flags)) {
		a->oracle = "kern_path";
		a->err = kern_path(name, flags, &a->path);
		return;
	}
	a->oracle = "user_path_at";
	if (st->file && st->kfd < 0) {
		a->unanswered = st->no_kfd;
		return;
	}
	uname = ns_oracle_user_name(st, name, a);
	if (!uname)
		return;
	a->err = user_path_at(st->file ? st->kfd : AT_FDCWD, uname, flags,
			      &a->path);
	if (!ns_user_name_is(uname, name)) {
		if (!a->err)
			path_put(&a->path);
		a->unanswered = "name-changed-in-writer-memory";
	}
}

/*
 * The last component of @name as path_parentat() sees it, and the name
 * of its directory: "a/b/" -> "b" in "a/.", ".." -> ".." in ".",
 * "/" -> none (root) in "/".  Returns the type.
 */
static enum ns_last_type ns_split_last(const char *name, char **dir,
				       char **last)
{
	size_t end = strlen(name), start;
	enum ns_last_type type;

	while (end && name[end - 1] == '/')
		end--;
	start = end;
	while (start && name[start - 1] != '/')
		start--;
	if (start == end)
		type = NS_LAST_ROOT;
	else if (end - start == 1 && name[start] == '.')
		type = NS_LAST_DOT;
	else if (end - start == 2 && name[start] == '.' && name[start + 1] == '.')
		type = NS_LAST_DOTDOT;
	else
		type = NS_LAST_NORM;
	*last = kmemdup_nul(name + start, end - start, GFP_KERNEL);
	if (type == NS_LAST_ROOT)
		*dir = kstrdup(name, GFP_KERNEL);
	else
		*dir = kasprintf(GFP_KERNEL, "%.*s.", (int)start, name);
	return type;
}

/*
 * The parent oracle.  Where the kernel exports its own path_parentat
 * (vfs_path_parent_lookup) it answers, from the cwd (it takes no
 * descriptor); otherwise, and for the types it will not return, the
 * directory is looked up by the kernel as "<dirname>/." -- which
 * searches it, follows links to it and wants a directory, exactly as
 * link_path_walk treats it -- and the last component is split off the
 * name by text.
 */
static void ns_oracle_parent(const struct ns_walk_req *req,
			     struct ns_start *st, struct ns_answer *a)
{
	char *dir = NULL, *last = NULL;
	enum ns_last_type type;

	type = ns_split_last(req->name, &dir, &last);
	if (!dir || !last) {
		a->err = -ENOMEM;
		goto out;
	}
	if (!st->file && type == NS_LAST_NORM) {
		struct filename *fn = getname_kernel(req->name);
		struct qstr q;

		a->oracle = "vfs_path_parent_lookup";
		if (IS_ERR(fn)) {
			a->err = PTR_ERR(fn);
			goto out;
		}
		a->err = ns_compat_path_parent(fn, req->flags, &a->path, &q);
		if (!a->err) {
			a->last = kmemdup_nul(q.name, q.len, GFP_KERNEL);
			a->last_type = NS_LAST_NORM;
		}
		putname(fn);
		if (!a->err && !a->last) {
			path_put(&a->path);
			a->err = -ENOMEM;
		}
		goto out;
	}
	ns_oracle_lookup(st, dir, req->flags & ~LOOKUP_FOLLOW, a);
	a->oracle = st->file ? "user_path_at-dirname" : "kern_path-dirname";
	if (!a->err && !a->unanswered) {
		a->last = last;
		a->last_type = type;
		last = NULL;
	}
out:
	kfree(dir);
	kfree(last);
}

/*
 * The open oracle, for opens that create nothing: the kernel opens the
 * same name O_PATH (with the request's O_NOFOLLOW and O_DIRECTORY) --
 * which resolves it exactly as open(2) would, but opens nothing that
 * could have an effect -- and the object must be the shadow's.  From a
 * descriptor, or with openat2's scopes, neither of which filp_open()
 * takes, the same walk is asked of user_path_at() or kern_path() with
 * the lookup flags build_open_flags() gives the open: LOOKUP_FOLLOW
 * unless O_NOFOLLOW, LOOKUP_DIRECTORY with O_DIRECTORY, the scopes, and
 * LOOKUP_OPEN's intent unless O_PATH (a trailing automount point is
 * triggered for an open, as the open's own walk would).
 */
static void ns_oracle_open(const struct ns_walk_req *req, struct ns_start *st,
			   struct ns_answer *a)
{
	unsigned int flags = O_PATH | (req->open_flag & (O_NOFOLLOW | O_DIRECTORY));
	struct file *file;

	if (st->file || (req->flags & NS_LOOKUP_SCOPES)) {
		ns_oracle_lookup(st, req->name,
				 (flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				 (flags & O_DIRECTORY ? LOOKUP_DIRECTORY : 0) |
				 (req->open_flag & O_PATH ? 0 : LOOKUP_OPEN) |
				 (req->flags & NS_LOOKUP_SCOPES), a);
		a->oracle = st->file ? "user_path_at-O_PATH" : "kern_path-O_PATH";
		return;
	}
	a->oracle = "filp_open-O_PATH";
	file = filp_open(req->name, flags, 0);
	if (IS_ERR(file)) {
		a->err = PTR_ERR(file);
		return;
	}
	a->err = 0;
	a->path = file->f_path;
	path_get(&a->path);
	a->has_path = true;
	fput(file);
}

/*
 * Why the kernel cannot be asked, or NULL: an open that may create; one
 * RESOLVE_CACHED refuses for its O_TRUNC before any walk, which no
 * lookup function the module can call would.
 */
const char *ns_no_oracle(const struct ns_walk_req *req)
{
	if (req->kind != NS_WALK_OPEN || (req->open_flag & O_PATH))
		return NULL;
	if (req->open_flag & O_CREAT)
		return "creates";
	if ((req->open_flag & O_TRUNC) && (req->flags & LOOKUP_CACHED))
		return "cached-trunc-refused-before-the-walk";
	return NULL;
}

/*
 * A relative name from an at= file that is not a directory: path_init
 * refuses it (ENOTDIR) before the first component.  Nothing may walk a
 * name from there -- the file has no ->lookup -- so the kernel is asked
 * the one thing that decides it: is the descriptor's file a directory.
 */
static void ns_oracle_start(struct ns_start *st, struct ns_answer *a)
{
	ns_oracle_lookup(st, "", LOOKUP_EMPTY | LOOKUP_DIRECTORY, a);
	a->oracle = "user_path_at-start";
}

/*
 * The kernel asked the walk @req, from the start pinned in @st.  The
 * empty name: getname() refuses it unless AT_EMPTY_PATH, before any
 * walk; with it, every mode answers the start itself.
 */
void ns_oracle(const struct ns_walk_req *req, struct ns_start *st,
	       struct ns_answer *a)
{
	a->last_type = -1;
	if (!*req->name)
		ns_oracle_lookup(st, "", req->flags, a);
	else if (req->start_fd &&
		 (req->name[0] != '/' || (req->flags & LOOKUP_IN_ROOT)) &&
		 !d_can_lookup(ns_vfs_start_path(st)->dentry))
		ns_oracle_start(st, a);
	else if (req->kind == NS_WALK_OPEN)
		ns_oracle_open(req, st, a);
	else if (req->kind == NS_WALK_LOOKUP)
		ns_oracle_lookup(st, req->name, req->flags, a);
	else if (req->kind == NS_WALK_MOUNTPOINT)
		ns_oracle_lookup(st, req->name, req->flags | LOOKUP_MOUNTPOINT, a);
	else
		ns_oracle_parent(req, st, a);
	a->has_path = !a->err && !a->unanswered;
}
