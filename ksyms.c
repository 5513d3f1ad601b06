// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-internals gate: the symbols a 4.2-style walker wants but a
 * module is not given (__d_lookup_rcu, __lookup_mnt, mount_lock, ...),
 * found, and judged for each whether it may be used on this kernel and
 * this CPU:
 *
 *  - function symbols are called through a pointer, which on kernels
 *    built with X86_KERNEL_IBT faults when the CPU enforces IBT and the
 *    function's ENDBR has been sealed at boot (its address was never
 *    taken, so objtool listed it for sealing);
 *  - data symbols are only read, which is always safe once found.
 *
 * Symbols are located through kallsyms_lookup_name, whose address comes
 * from a kprobe (the only way left since 5.7 unexported it).  It is
 * called directly where that is safe, and through a kprobe call gate
 * (below) where its ENDBR is sealed and the CPU enforces IBT.  Only
 * dcache_model.c uses what is found here.
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/lockref.h>
#include <linux/namei.h>
#include <linux/seq_file.h>
#include <linux/stringhash.h>
#include <linux/uaccess.h>
#include <asm/cpufeature.h>

#include "ns_compat.h"
#include "ns_ksyms.h"

struct ns_ksym ns_ksyms[NS_SYM_NR] = {
	[NS_SYM_KALLSYMS_LOOKUP_NAME] = { "kallsyms_lookup_name", NS_KSYM_FUNC },
	[NS_SYM_D_LOOKUP_RCU]	= { "__d_lookup_rcu", NS_KSYM_FUNC },
	[NS_SYM_LOOKUP_MNT]	= { "__lookup_mnt", NS_KSYM_FUNC },
	[NS_SYM_LEGITIMIZE_MNT]	= { "__legitimize_mnt", NS_KSYM_FUNC },
	[NS_SYM_ND_JUMP_LINK]	= { "nd_jump_link", NS_KSYM_FUNC,
				    "works-on-current-nameidata" },
	[NS_SYM_MAY_FOLLOW_LINK] = { "may_follow_link", NS_KSYM_FUNC,
				     "takes-the-kernels-nameidata" },
	[NS_SYM_MOUNT_LOCK]	= { "mount_lock", NS_KSYM_DATA },
	[NS_SYM_DENTRY_HASHTABLE] = { "dentry_hashtable", NS_KSYM_DATA },
	[NS_SYM_D_HASH_SHIFT]	= { "d_hash_shift", NS_KSYM_DATA },
	[NS_SYM_PROTECTED_SYMLINKS] = { "sysctl_protected_symlinks",
					NS_KSYM_DATA },
	[NS_SYM_SECURITY_FOLLOW_LINK] = { "security_inode_follow_link",
					  NS_KSYM_FUNC },
};

/*
 * The exported primitives the walker is built on.  Taking their
 * addresses here makes modpost and the module loader prove that each
 * one is exported by this kernel, so `features` reports a fact.
 */
struct ns_export {
	const char *name;
	const void *addr;
};

#define NS_EXPORT(sym) { #sym, &(sym) }
static const struct ns_export ns_exports[] = {
	NS_EXPORT(d_lookup),
	NS_EXPORT(d_alloc_parallel),
	NS_EXPORT(kern_path),
	NS_EXPORT(vfs_path_lookup),
	NS_EXPORT(follow_down_one),
	NS_EXPORT(follow_up),
	NS_EXPORT(rename_lock),
	NS_EXPORT(inode_permission),
	NS_EXPORT(lockref_get_not_dead),
	NS_EXPORT(full_name_hash),
	NS_EXPORT(d_path),
};

static enum ns_ksym_source ns_source;
static const char *ns_source_why = "not-looked-up";

static const u8 ns_endbr64[NS_ENTRY_BYTES] = { 0xf3, 0x0f, 0x1e, 0xfa };
/*
 * What apply_seal_endbr() writes over a sealed ENDBR, at boot, on IBT
 * CPUs or not: osp nopl (%rax) on 6.12; on 7.2 nopl -42(%rax), a NOP
 * found nowhere else.  (Debian's 6.1 is built without IBT.)
 */
static const u8 ns_sealed[][NS_ENTRY_BYTES] = {
	{ 0x66, 0x0f, 0x1f, 0x00 },
	{ 0x0f, 0x1f, 0x40, 0xd6 },
};

static bool ns_ibt_configured(void)
{
	return IS_ENABLED(CONFIG_X86_KERNEL_IBT);
}

/* With X86_KERNEL_IBT, the kernel enforces IBT whenever the CPU has it. */
static bool ns_ibt_enforced(void)
{
#ifdef CONFIG_X86_KERNEL_IBT
	return cpu_feature_enabled(X86_FEATURE_IBT);
#else
	return false;
#endif
}

static const char *ns_entry_kind(const u8 *entry)
{
	int i;

	if (!memcmp(entry, ns_endbr64, NS_ENTRY_BYTES))
		return "endbr";
	for (i = 0; i < ARRAY_SIZE(ns_sealed); i++)
		if (!memcmp(entry, ns_sealed[i], NS_ENTRY_BYTES))
			return "sealed";
	return "plain";
}

/*
 * The start of the symbol @addr lies in, if that symbol is @name.
 * A kprobe's address is the symbol + 4 on IBT kernels (kprobes step
 * over the ENDBR), so never take it as the entry point unexamined.
 */
static unsigned long ns_symbol_start(unsigned long addr, const char *name)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned long off;
	size_t len = strlen(name);
	char *plus, *slash;

	sprint_symbol(buf, addr);
	if (strncmp(buf, name, len) || buf[len] != '+')
		return 0;
	/* a module's symbol of that name (this module's own walker has some) */
	if (strchr(buf, '['))
		return 0;
	plus = buf + len + 1;
	slash = strchr(plus, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	if (kstrtoul(plus, 16, &off) || off > addr)
		return 0;
	return addr - off;
}

static unsigned long ns_kprobe_symbol(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	unsigned long addr;

	if (register_kprobe(&kp) < 0)
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return ns_symbol_start(addr, name);
}

/* ksym_hide=: the internals the module does without, comma-separated. */
static const char *ns_ksym_hide = "";

/* Is @name in the comma-separated @list? */
static bool ns_name_listed(const char *list, const char *name)
{
	size_t len = strlen(name), n;

	while (*list) {
		n = strcspn(list, ",");
		if (n == len && !strncmp(list, name, len))
			return true;
		list += n + (list[n] == ',');
	}
	return false;
}

/* Each name in @hide, once, is one the module looks up (features' ksym lines). */
int ns_ksyms_check_hide(const char *hide)
{
	int items = *hide ? 1 : 0, listed = 0, i;
	const char *p;

	for (p = hide; *p; p++)
		items += *p == ',';
	for (i = 0; i < NS_SYM_NR; i++)
		listed += ns_name_listed(hide, ns_ksyms[i].name);
	return listed == items ? 0 : -EINVAL;
}

/* Decide what a found symbol may be used for, and why. */
static void ns_ksym_judge(struct ns_ksym *s)
{
	u8 probe;

	s->usable = false;
	if (ns_name_listed(ns_ksym_hide, s->name)) {
		s->addr = 0;
		s->why = "hidden-by-ksym_hide";
		return;
	}
	if (!s->addr) {
		s->why = "not-found";
		return;
	}
	if (ns_symbol_start(s->addr, s->name) != s->addr) {
		s->why = "address-does-not-name-it";
		s->addr = 0;
		return;
	}
	if (s->kind == NS_KSYM_DATA) {
		if (copy_from_kernel_nofault(&probe, (void *)s->addr, 1)) {
			s->why = "unreadable";
			return;
		}
		s->usable = true;
		s->why = "readable";
		return;
	}
	if (copy_from_kernel_nofault(s->entry, (void *)s->addr,
				     NS_ENTRY_BYTES)) {
		s->why = "entry-unreadable";
		return;
	}
	if (s->never_call) {
		s->why = s->never_call;
		return;
	}
	if (!memcmp(s->entry, ns_endbr64, NS_ENTRY_BYTES)) {
		s->usable = true;
		s->why = "endbr-intact";
	} else if (!ns_ibt_enforced()) {
		s->usable = true;
		s->why = ns_ibt_configured() ? "ibt-not-enforced" : "no-ibt";
	} else {
		s->why = "sealed-under-enforced-ibt";
	}
}

/*
 * A call gate: calls a function whose ENDBR is sealed, on a CPU that
 * enforces IBT, without an indirect branch.  The caller makes a direct
 * call to ns_gate_entry(); a kprobe on its first instruction sends the
 * CPU on to the target by rewriting regs->ip, so the target runs with
 * the caller's arguments and returns straight to the caller.  Slow (a
 * trap per call), so only for calls made once, such as symbol lookup.
 * The (empty) post handler keeps the probe unoptimised and makes an
 * ftrace-based probe IPMODIFY, as changing the path requires.
 */
static unsigned long ns_gate_target;

static __attribute__((__noipa__)) unsigned long
ns_gate_entry(const char *name)
{
	return 0;
}

static int ns_gate_pre(struct kprobe *kp, struct pt_regs *regs)
{
	instruction_pointer_set(regs, ns_gate_target);
	return 1;
}

static void ns_gate_post(struct kprobe *kp, struct pt_regs *regs,
			 unsigned long flags)
{
}

static struct kprobe ns_gate = {
	.pre_handler = ns_gate_pre,
	.post_handler = ns_gate_post,
};

static int ns_gate_open(unsigned long target)
{
	ns_gate_target = target;
	ns_gate.addr = (kprobe_opcode_t *)ns_gate_entry;
	return register_kprobe(&ns_gate);
}

static void ns_gate_close(void)
{
	unregister_kprobe(&ns_gate);
}

typedef unsigned long (*ns_kallsyms_lookup_name_t)(const char *name);

static int ns_ksyms_from_kallsyms(enum ns_ksym_source src)
{
	struct ns_ksym *kl = &ns_ksyms[NS_SYM_KALLSYMS_LOOKUP_NAME];
	ns_kallsyms_lookup_name_t lookup;
	bool gated;
	int i, err;

	kl->addr = ns_kprobe_symbol(kl->name);
	ns_ksym_judge(kl);
	if (!kl->addr)
		return -ENOENT;

	gated = src == NS_KSYM_SRC_GATE || !kl->usable;
	if (gated) {
		err = ns_gate_open(kl->addr);
		if (err)
			return err;
		lookup = ns_gate_entry;
		ns_source = NS_KSYM_SRC_GATE;
		ns_source_why = src == NS_KSYM_SRC_GATE ? "module-parameter" :
			kl->why;
	} else {
		lookup = (ns_kallsyms_lookup_name_t)kl->addr;
		ns_source = NS_KSYM_SRC_DIRECT;
		ns_source_why = kl->why;
	}
	for (i = 0; i < NS_SYM_NR; i++) {
		if (i == NS_SYM_KALLSYMS_LOOKUP_NAME)
			continue;
		ns_ksyms[i].addr = lookup(ns_ksyms[i].name);
		ns_ksym_judge(&ns_ksyms[i]);
	}
	if (gated)
		ns_gate_close();
	return 0;
}

static void ns_show_ksym(struct seq_file *m, const struct ns_ksym *s)
{
	seq_printf(m, "ksym %s kind=%s found=%s", s->name,
		   s->kind == NS_KSYM_FUNC ? "func" : "data",
		   s->addr ? "y" : "n");
	if (s->addr && s->kind == NS_KSYM_FUNC)
		seq_printf(m, " entry=%s bytes=%*phC", ns_entry_kind(s->entry),
			   NS_ENTRY_BYTES, s->entry);
	seq_printf(m, " usable=%s why=%s\n", s->usable ? "y" : "n",
		   s->why ? s->why : "not-looked-up");
}

/* The IBT state, how kallsyms_lookup_name is called, and each symbol. */
void ns_ksyms_show(struct seq_file *m)
{
	int i;

	seq_printf(m, "ibt config=%s enforced=%s\n",
		   ns_ibt_configured() ? "y" : "n",
		   ns_ibt_enforced() ? "y" : "n");
	seq_printf(m, "ksym_source %s why=%s\n",
		   ns_source == NS_KSYM_SRC_GATE ? "kprobe-gate" : "direct",
		   ns_source_why);
	for (i = 0; i < NS_SYM_NR; i++)
		ns_show_ksym(m, &ns_ksyms[i]);
}

void ns_ksyms_show_exports(struct seq_file *m)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ns_exports); i++)
		seq_printf(m, "export %s linked=%s\n", ns_exports[i].name,
			   ns_exports[i].addr ? "y" : "n");
}

/*
 * Find and judge every symbol.  Without kallsyms_lookup_name the walker
 * does with exported primitives only: not an error.
 */
void ns_ksyms_init(enum ns_ksym_source src, const char *hide)
{
	int err;

	ns_ksym_hide = hide;
	err = ns_ksyms_from_kallsyms(src);
	if (err)
		pr_warn("kallsyms_lookup_name unavailable (%d): the walker will use exported primitives only\n",
			err);
}
