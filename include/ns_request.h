/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A request, as written to `resolve` or a line of `batch`
 * (checker/request.c parses it), and the walk it asks of the shadow.
 */
#ifndef NS_REQUEST_H
#define NS_REQUEST_H

#include <linux/path.h>
#include "ns_walk.h"

/* Request flags, in the order `request` lists them. */
enum {
	NS_RF_FOLLOW	= 0x01,
	NS_RF_NOFOLLOW	= 0x02,
	NS_RF_DIRECTORY	= 0x04,
	NS_RF_EMPTY	= 0x08,
	NS_RF_REVAL	= 0x10,
	NS_RF_NOCHECK	= 0x20,
	NS_RF_CREAT	= 0x40,		/* mode=open only, from here on */
	NS_RF_EXCL	= 0x80,
	NS_RF_PATH	= 0x100,
	NS_RF_TRUNC	= 0x200,
	NS_RF_WRONLY	= 0x400,
	NS_RF_RDWR	= 0x800,
};

/* resolve=: openat2's RESOLVE_*, in the order `request` lists them. */
enum {
	NS_RS_BENEATH		= 0x01,
	NS_RS_IN_ROOT		= 0x02,
	NS_RS_NO_XDEV		= 0x04,
	NS_RS_NO_MAGICLINKS	= 0x08,
	NS_RS_NO_SYMLINKS	= 0x10,
	NS_RS_CACHED		= 0x20,
};

#define NS_RF_OPEN_ONLY	(NS_RF_CREAT | NS_RF_EXCL | NS_RF_PATH | NS_RF_TRUNC | \
			 NS_RF_WRONLY | NS_RF_RDWR)

struct ns_request {
	enum ns_walk_kind mode;
	unsigned int rflags;
	bool flags_given;
	bool has_at;
	int at;
	unsigned int resolve;	/* NS_RS_* */
	bool semantics_42;
	bool shadow_first;	/* first=shadow: before the kernel warms the dcache */
	enum ns_inject inject;
	int inject_step;
	const char *path;
};

/* The longest request: a PATH_MAX path and every option. */
#define NS_REQUEST_MAX	(PATH_MAX + 256)

int ns_parse_request(char *buf, size_t len, struct ns_request *rq,
		     const char **why);
unsigned int ns_lookup_flags(const struct ns_request *rq);
unsigned int ns_open_flags(const struct ns_request *rq);

void ns_request_walk(const struct ns_request *rq, struct ns_walk_req *req);

struct ns_buf;
void ns_put_request(struct ns_buf *sb, const struct ns_request *rq);

#endif /* NS_REQUEST_H */
