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
 * The empty name without AT_EMPTY_PATH, which getname() refuses before
 * any walk: user_path_at() wants the name in the writer's memory, as
 * openat(2) passes it.  Map a private anonymous page in the writer's
 * address space (zeroed: the empty string), ask, and unmap it.  A
 * writer with no room for it (RLIMIT_AS) leaves the kernel unasked.
 */
static void ns_oracle_getname_empty(struct ns_answer *a)
{
	unsigned long addr;

	a->oracle = "user_path_at";
	if (!current->mm) {
		a->unanswered = "writer-has-no-memory";
		return;
	}
	addr = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(addr)) {
		a->unanswered = "no-room-in-writer-for-the-name";
		return;
	}
	a->err = user_path_at(AT_FDCWD, (const char __user *)addr, 0, &a->path);
	vm_munmap(addr, PAGE_SIZE);
}

/*
 * The kernel's lookup, from the request's pinned start: kern_path()
 * walks from current->fs, which is the pinned one while the request
 * runs -- its root, and its cwd or at= file as the pwd.
 */
static void ns_oracle_lookup(const char *name, unsigned int flags,
			     struct ns_answer *a)
{
	a->oracle = "kern_path";
	a->err = kern_path(name, flags, &a->path);
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
 * (vfs_path_parent_lookup) it answers; otherwise, and for the types it
 * will not return, the directory is looked up by the kernel as
 * "<dirname>/." -- which searches it, follows links to it and wants a
 * directory, exactly as link_path_walk treats it -- and the last
 * component is split off the name by text.
 */
static void ns_oracle_parent(const struct ns_walk_req *req, struct ns_answer *a)
{
	char *dir = NULL, *last = NULL;
	enum ns_last_type type;

	type = ns_split_last(req->name, &dir, &last);
	if (!dir || !last) {
		a->err = -ENOMEM;
		goto out;
	}
	if (*req->name && type == NS_LAST_NORM) {
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
	ns_oracle_lookup(dir, req->flags & ~LOOKUP_FOLLOW, a);
	a->oracle = "kern_path-dirname";
	if (!a->err) {
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
 * could have an effect -- and the object must be the shadow's.
 */
static void ns_oracle_open(const struct ns_walk_req *req, struct ns_answer *a)
{
	unsigned int flags = O_PATH | (req->open_flag & (O_NOFOLLOW | O_DIRECTORY));
	struct file *file;

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

/* Why the kernel cannot be asked, or NULL: an open that may create. */
const char *ns_no_oracle(const struct ns_walk_req *req)
{
	if (req->kind == NS_WALK_OPEN && (req->open_flag & O_CREAT) &&
	    !(req->open_flag & O_PATH))
		return "creates";
	return NULL;
}

/*
 * The empty name: getname() refuses it unless AT_EMPTY_PATH, before
 * any walk; with it, every mode answers the start itself.
 */
static void ns_oracle_empty(const struct ns_walk_req *req, struct ns_answer *a)
{
	if (req->flags & LOOKUP_EMPTY) {
		ns_oracle_lookup("", req->flags, a);
		return;
	}
	ns_oracle_getname_empty(a);
}

/*
 * A relative name from an at= file that is not a directory: path_init
 * refuses it (ENOTDIR) before the first component.  Nothing may walk a
 * name from there -- the file has no ->lookup -- so the kernel is asked
 * the one thing that decides it: is its pinned start a directory.
 */
static void ns_oracle_start(struct ns_answer *a)
{
	a->oracle = "kern_path-start";
	a->err = kern_path("", LOOKUP_DIRECTORY, &a->path);
}

/*
 * The kernel asked the walk @req, from the start pinned in @st (the
 * task's fs_struct while the check runs).
 */
void ns_oracle(const struct ns_walk_req *req, const struct ns_start *st,
	       struct ns_answer *a)
{
	a->last_type = -1;
	if (!*req->name)
		ns_oracle_empty(req, a);
	else if (req->start && req->name[0] != '/' && !ns_vfs_start_is_dir(st))
		ns_oracle_start(a);
	else if (req->kind == NS_WALK_OPEN)
		ns_oracle_open(req, a);
	else if (req->kind == NS_WALK_LOOKUP)
		ns_oracle_lookup(req->name, req->flags, a);
	else if (req->kind == NS_WALK_MOUNTPOINT)
		ns_oracle_lookup(req->name, req->flags | LOOKUP_MOUNTPOINT, a);
	else
		ns_oracle_parent(req, a);
	a->has_path = !a->err && !a->unanswered;
}
