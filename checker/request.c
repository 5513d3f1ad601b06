// SPDX-License-Identifier: GPL-2.0
/*
 * Requests: the grammar of a write to `resolve` (and of a line of
 * `batch`) -- optional key=value options, then the path -- and what a
 * request asks of a walk, as LOOKUP_* and O_* flags.
 */

#include <linux/ctype.h>
#include <linux/fcntl.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ns_check.h"
#include "ns_request.h"
#include "ns_text.h"

static const char *const ns_rflag_names[] = {
	"follow", "nofollow", "directory", "empty", "reval", "nocheck",
	"creat", "excl", "path", "trunc", "wronly", "rdwr",
};

static const char *const ns_resolve_names[] = {
	"beneath", "in_root", "no_xdev", "no_magiclinks", "no_symlinks", "cached",
};

/* resolve='s words as the running kernel's LOOKUP_* flags, as openat2 maps them */
static const unsigned int ns_resolve_lookup[] = {
	LOOKUP_BENEATH, LOOKUP_IN_ROOT, LOOKUP_NO_XDEV, LOOKUP_NO_MAGICLINKS,
	LOOKUP_NO_SYMLINKS, LOOKUP_CACHED,
};

unsigned int ns_lookup_flags(const struct ns_request *rq)
{
	unsigned int flags = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(ns_resolve_lookup); i++)
		if (rq->resolve & BIT(i))
			flags |= ns_resolve_lookup[i];
	if (rq->rflags & NS_RF_FOLLOW)
		flags |= LOOKUP_FOLLOW;
	if (rq->rflags & NS_RF_DIRECTORY)
		flags |= LOOKUP_DIRECTORY;
	if (rq->rflags & NS_RF_EMPTY)
		flags |= LOOKUP_EMPTY;
	if (rq->rflags & NS_RF_REVAL)
		flags |= LOOKUP_REVAL;
	return flags;
}

/* open(2)'s flags, from the request's. */
unsigned int ns_open_flags(const struct ns_request *rq)
{
	unsigned int f = O_RDONLY;

	if (rq->rflags & NS_RF_WRONLY)
		f = O_WRONLY;
	if (rq->rflags & NS_RF_RDWR)
		f = O_RDWR;
	if (rq->rflags & NS_RF_CREAT)
		f |= O_CREAT;
	if (rq->rflags & NS_RF_EXCL)
		f |= O_EXCL;
	if (rq->rflags & NS_RF_NOFOLLOW)
		f |= O_NOFOLLOW;
	if (rq->rflags & NS_RF_DIRECTORY)
		f |= O_DIRECTORY;
	if (rq->rflags & NS_RF_PATH)
		f |= O_PATH;
	if (rq->rflags & NS_RF_TRUNC)
		f |= O_TRUNC;
	return f;
}

/* The walk @rq asks of the shadow; its start is pinned by the check. */
void ns_request_walk(const struct ns_request *rq, struct ns_walk_req *req)
{
	*req = (struct ns_walk_req){
		.kind = rq->mode,
		.name = rq->path,
		.flags = ns_lookup_flags(rq),
		.open_flag = ns_open_flags(rq),
		.semantics_42 = rq->semantics_42,
		.rcu = ns_rcu_mode,
		.inject = rq->inject,
		.inject_step = rq->inject_step,
	};
}

static const char ns_flags_help[] =
	"flags= takes a comma list of follow,nofollow,directory,empty,reval,nocheck,creat,...";

/*
 * A comma list of @n words of @names: bit i in *@bits for names[i].
 * An unknown word is refused with @help.
 */
static int ns_parse_words(char *val, const char *const *names, int n,
			  unsigned int *bits, const char *help, const char **why)
{
	char *tok;
	int i;

	*bits = 0;
	while ((tok = strsep(&val, ",")) != NULL) {
		for (i = 0; i < n; i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == n) {
			*why = help;
			return -EINVAL;
		}
		*bits |= BIT(i);
	}
	return 0;
}

static int ns_parse_flags(char *val, struct ns_request *rq, const char **why)
{
	int err;

	BUILD_BUG_ON(ARRAY_SIZE(ns_rflag_names) != ilog2(NS_RF_RDWR) + 1);
	rq->flags_given = true;
	err = ns_parse_words(val, ns_rflag_names, ARRAY_SIZE(ns_rflag_names),
			     &rq->rflags, ns_flags_help, why);
	if (err)
		return err;
	if ((rq->rflags & NS_RF_FOLLOW) && (rq->rflags & NS_RF_NOFOLLOW)) {
		*why = "flags=follow and nofollow contradict each other";
		return -EINVAL;
	}
	return 0;
}

static const char ns_resolve_help[] =
	"resolve= takes a comma list of beneath,in_root,no_xdev,no_magiclinks,no_symlinks,cached";

static const char ns_resolve_pair[] =
	"resolve=beneath and in_root contradict each other (openat2 says EINVAL)";

static int ns_parse_resolve(char *val, struct ns_request *rq, const char **why)
{
	int err;

	BUILD_BUG_ON(ARRAY_SIZE(ns_resolve_names) != ilog2(NS_RS_CACHED) + 1);
	BUILD_BUG_ON(ARRAY_SIZE(ns_resolve_lookup) != ARRAY_SIZE(ns_resolve_names));
	err = ns_parse_words(val, ns_resolve_names, ARRAY_SIZE(ns_resolve_names),
			     &rq->resolve, ns_resolve_help, why);
	if (err)
		return err;
	if ((rq->resolve & NS_RS_BENEATH) && (rq->resolve & NS_RS_IN_ROOT)) {
		*why = ns_resolve_pair;
		return -EINVAL;
	}
	return 0;
}

enum {
	NS_KEY_MODE, NS_KEY_FLAGS, NS_KEY_AT, NS_KEY_SEMANTICS, NS_KEY_INJECT,
	NS_KEY_FIRST, NS_KEY_RESOLVE, NS_KEY_PATH
};

#define NS_UNKNOWN_KEY \
	"unknown key (keys: mode, flags, at, semantics, inject, first, resolve, path)"

/* inject=<what>@<step>: make that check fail at that step, once. */
static int ns_parse_inject(char *val, struct ns_request *rq, const char **why)
{
	char *at = strchr(val, '@');
	int i;

	*why = "inject= takes <dseq|legitimize|echild-permission|miss|estale>@<step>";
	if (!at)
		return -EINVAL;
	*at = '\0';
	if (kstrtoint(at + 1, 10, &rq->inject_step) || rq->inject_step < 0)
		return -EINVAL;
	for (i = NS_INJECT_NONE + 1; i < ARRAY_SIZE(ns_inject_names); i++) {
		if (!strcmp(val, ns_inject_names[i])) {
			rq->inject = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int ns_parse_option(int key, char *val, struct ns_request *rq,
			   const char **why)
{
	int i;

	switch (key) {
	case NS_KEY_MODE:
		for (i = 0; i < NS_WALK_KINDS; i++) {
			if (!strcmp(val, ns_walk_kind_names[i])) {
				rq->mode = i;
				return 0;
			}
		}
		*why = "mode= must be lookup, parent, mountpoint or open";
		return -EINVAL;
	case NS_KEY_FLAGS:
		return ns_parse_flags(val, rq, why);
	case NS_KEY_AT:
		if (!isdigit(*val) || kstrtoint(val, 10, &rq->at)) {
			*why = "at= takes a file descriptor number (digits only)";
			return -EINVAL;
		}
		rq->has_at = true;
		return 0;
	case NS_KEY_SEMANTICS:
		if (!strcmp(val, "4.2")) {
			rq->semantics_42 = true;
			return 0;
		}
		if (!strcmp(val, "running"))
			return 0;
		*why = "semantics= must be running (the default) or 4.2";
		return -EINVAL;
	case NS_KEY_INJECT:
		return ns_parse_inject(val, rq, why);
	case NS_KEY_FIRST:
		if (!strcmp(val, "shadow") || !strcmp(val, "kernel")) {
			rq->shadow_first = !strcmp(val, "shadow");
			return 0;
		}
		*why = "first= must be kernel (the default) or shadow";
		return -EINVAL;
	case NS_KEY_RESOLVE:
		return ns_parse_resolve(val, rq, why);
	}
	*why = NS_UNKNOWN_KEY;
	return -EINVAL;
}

static int ns_key_index(const char *s, size_t len)
{
	static const char *const keys[] = {
		[NS_KEY_MODE] = "mode",
		[NS_KEY_FLAGS] = "flags",
		[NS_KEY_AT] = "at",
		[NS_KEY_SEMANTICS] = "semantics",
		[NS_KEY_INJECT] = "inject",
		[NS_KEY_FIRST] = "first",
		[NS_KEY_RESOLVE] = "resolve",
		[NS_KEY_PATH] = "path",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (strlen(keys[i]) == len && !strncmp(s, keys[i], len))
			return i;
	return -1;
}

/*
 * The grammar: optional space-separated key=value options, then the
 * path -- everything after "path=" verbatim, or, when the write does
 * not start with a known key, the whole write.  One trailing newline
 * is not part of the request.  @buf is NUL-terminated and modified.
 */
int ns_parse_request(char *buf, size_t len, struct ns_request *rq,
		     const char **why)
{
	unsigned int seen = 0;
	char *s = buf;
	int err;

	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!len) {
		*why = "empty request: write a path, or options and path=";
		return -EINVAL;
	}
	if (memchr(buf, '\0', len)) {
		*why = "the request holds a NUL byte";
		return -EINVAL;
	}
	rq->mode = NS_WALK_LOOKUP;
	for (;;) {
		size_t tok = strcspn(s, " ");
		char *eq = memchr(s, '=', tok);
		int key = eq ? ns_key_index(s, eq - s) : -1;

		if (key < 0) {
			if (!seen) {
				rq->path = buf;	/* the whole write */
				break;
			}
			*why = eq ? NS_UNKNOWN_KEY : "after options, give the path as path=";
			return -EINVAL;
		}
		if (key == NS_KEY_PATH) {
			rq->path = eq + 1;
			break;
		}
		if (!s[tok]) {
			*why = "options must be followed by path=";
			return -EINVAL;
		}
		if (seen & BIT(key)) {
			*why = "a key is given twice";
			return -EINVAL;
		}
		seen |= BIT(key);
		s[tok] = '\0';
		err = ns_parse_option(key, eq + 1, rq, why);
		if (err)
			return err;
		s += tok + 1;
	}
	if (strlen(rq->path) >= PATH_MAX) {
		*why = "the path is PATH_MAX (4096) bytes or longer";
		return -ENAMETOOLONG;
	}
	if ((rq->rflags & NS_RF_OPEN_ONLY) && rq->mode != NS_WALK_OPEN) {
		*why = "flags creat, excl, path, trunc, wronly, rdwr are for mode=open";
		return -EINVAL;
	}
	if ((rq->rflags & NS_RF_WRONLY) && (rq->rflags & NS_RF_RDWR)) {
		*why = "flags=wronly and rdwr contradict each other";
		return -EINVAL;
	}
	if (rq->resolve && rq->semantics_42) {
		*why = "4.2 had no scoped lookup (openat2, 5.6): drop resolve= or semantics=4.2";
		return -EINVAL;
	}
	if (!rq->flags_given && rq->mode != NS_WALK_PARENT)
		rq->rflags = NS_RF_FOLLOW;
	if (rq->rflags & NS_RF_NOFOLLOW)
		rq->rflags &= ~NS_RF_FOLLOW;
	return 0;
}

/* The words of @names whose bits are in @bits, a comma between; or "none". */
static void ns_put_words(struct ns_buf *sb, const char *const *names, int n,
			 unsigned int bits)
{
	const char *sep = "";
	int i;

	for (i = 0; i < n; i++) {
		if (bits & BIT(i)) {
			ns_printf(sb, "%s%s", sep, names[i]);
			sep = ",";
		}
	}
	if (!*sep)
		ns_puts(sb, "none");
}

/* The request as read back: its first line, every option spelled out. */
void ns_put_request(struct ns_buf *sb, const struct ns_request *rq)
{
	ns_printf(sb, "request mode=%s flags=", ns_walk_kind_names[rq->mode]);
	ns_put_words(sb, ns_rflag_names, ARRAY_SIZE(ns_rflag_names), rq->rflags);
	if (rq->has_at)
		ns_printf(sb, " at=%d", rq->at);
	else
		ns_puts(sb, " at=cwd");
	if (rq->resolve) {
		ns_puts(sb, " resolve=");
		ns_put_words(sb, ns_resolve_names, ARRAY_SIZE(ns_resolve_names),
			     rq->resolve);
	}
	if (rq->semantics_42)
		ns_puts(sb, " semantics=4.2");
	if (rq->shadow_first)
		ns_puts(sb, " first=shadow");
	ns_puts(sb, " path=");
	ns_put_escaped(sb, rq->path, strlen(rq->path));
	ns_putc(sb, '\n');
}
