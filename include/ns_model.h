/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface of dcache_model.c, the shadow walker's
 * one door to the live dcache and mount table.
 */
#ifndef NS_MODEL_H
#define NS_MODEL_H

struct seq_file;

/* How the unexported kernel symbols are located (module parameter). */
/* How kallsyms_lookup_name, found by a kprobe, is called. */
enum ns_ksym_source {
	NS_KSYM_SRC_AUTO,	/* directly where IBT allows, else the gate */
	NS_KSYM_SRC_DIRECT,	/* by pointer */
	NS_KSYM_SRC_GATE,	/* through the kprobe call gate */
};

int ns_model_init(enum ns_ksym_source src);
void ns_model_exit(void);
void ns_model_show_features(struct seq_file *m);

#endif /* NS_MODEL_H */
