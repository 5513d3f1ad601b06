/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live mode (checker/live.c): the lookups real programs make, taken as
 * the kernel walked them and walked again by the shadow.
 */
#ifndef NS_LIVE_H
#define NS_LIVE_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/sched.h>

struct seq_file;

/*
 * The module's own walks -- the checker's kernel walks, the shadow's
 * hand-offs to the kernel (magic links, automounts) and live mode's
 * own checks -- are never taken as a program's: while one runs, its
 * task is marked here.
 */
struct ns_live_self {
	bool marked;
};

void ns_live_self_begin(struct ns_live_self *self);
void ns_live_self_end(struct ns_live_self *self);

int ns_live_init(const char *words);
void ns_live_exit(void);
void ns_live_show_features(struct seq_file *m);
extern const struct file_operations ns_live_fops;

#endif /* NS_LIVE_H */
