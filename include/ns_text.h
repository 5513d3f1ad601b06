/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text: the buffer every answer is written into, the names of the
 * walker's enums, and the pieces of a line (errnos, escaped names,
 * objects) -- checker/text.c.
 */
#ifndef NS_TEXT_H
#define NS_TEXT_H

#include <linux/compiler.h>
#include <linux/types.h>
#include "ns_walk.h"

struct ns_vfs_object;

/* A text buffer that stays NUL-terminated and drops what does not fit. */
struct ns_buf {
	char *buf;
	size_t size;
	size_t len;
};

void ns_buf_init(struct ns_buf *b, char *buf, size_t size);
void ns_buf_clear(struct ns_buf *b);
size_t ns_buf_left(const struct ns_buf *b);
size_t ns_buf_used(const struct ns_buf *b);
__printf(2, 3) void ns_printf(struct ns_buf *b, const char *fmt, ...);
void ns_putc(struct ns_buf *b, char c);
void ns_puts(struct ns_buf *b, const char *s);
void ns_put_uint(struct ns_buf *b, unsigned int n);
void ns_put_escaped(struct ns_buf *sb, const char *s, size_t len);
void ns_put_errno(struct ns_buf *sb, int err);
void ns_put_mode(struct ns_buf *sb, const struct ns_vfs_object *o);
void ns_put_object(struct ns_buf *sb, const struct ns_vfs_object *o);
void ns_put_path(struct ns_buf *sb, const struct path *path);

/* errnos named one by one (stats counts each); the rest by number */
#define NS_ERRNO_SLOTS	(EHWPOISON + 1)
const char *ns_errno_name(int e);

const char *ns_type_name(umode_t mode);

extern const char *const ns_last_names[];
extern const char *const ns_walk_kind_names[NS_WALK_KINDS];
extern const char *const ns_mode_names[];
extern const char *const ns_inject_names[NS_INJECTS];
extern const char *const ns_why_names[NS_WHYS];
extern const char *const ns_scope_names[NS_SCOPES];
extern const char *const ns_how_names[NS_HOWS];

#endif /* NS_TEXT_H */
