/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-internals gate (ksyms.c): kernel symbols found through
 * kallsyms and judged usable or not, for dcache_model.c.
 */
#ifndef NS_KSYMS_H
#define NS_KSYMS_H

#include <linux/types.h>

struct seq_file;

/* How kallsyms_lookup_name, found by a kprobe, is called. */
enum ns_ksym_source {
	NS_KSYM_SRC_AUTO,	/* directly where IBT allows, else the gate */
	NS_KSYM_SRC_DIRECT,	/* by pointer */
	NS_KSYM_SRC_GATE,	/* through the kprobe call gate */
};

#define NS_ENTRY_BYTES	4

enum ns_ksym_kind { NS_KSYM_FUNC, NS_KSYM_DATA };

struct ns_ksym {
	const char *name;
	enum ns_ksym_kind kind;
	/* Why a module may never call it, whatever IBT says. */
	const char *never_call;

	unsigned long addr;
	u8 entry[NS_ENTRY_BYTES];
	bool usable;
	const char *why;
};

enum ns_ksym_id {
	NS_SYM_KALLSYMS_LOOKUP_NAME,
	NS_SYM_D_LOOKUP_RCU,
	NS_SYM_LOOKUP_MNT,
	NS_SYM_LEGITIMIZE_MNT,
	NS_SYM_ND_JUMP_LINK,
	NS_SYM_MAY_FOLLOW_LINK,
	NS_SYM_MOUNT_LOCK,
	NS_SYM_DENTRY_HASHTABLE,
	NS_SYM_D_HASH_SHIFT,
	NS_SYM_PROTECTED_SYMLINKS,
	NS_SYM_SECURITY_FOLLOW_LINK,
	NS_SYM_NR
};

int ns_ksyms_check_hide(const char *hide);
void ns_ksyms_init(enum ns_ksym_source src, const char *hide);
extern struct ns_ksym ns_ksyms[NS_SYM_NR];

/* What was found of @id, and whether it may be used. */
static inline const struct ns_ksym *ns_ksym(enum ns_ksym_id id)
{
	return &ns_ksyms[id];
}

void ns_ksyms_show(struct seq_file *m);
void ns_ksyms_show_exports(struct seq_file *m);

#endif /* NS_KSYMS_H */
