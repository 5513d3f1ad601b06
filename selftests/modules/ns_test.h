/* SPDX-License-Identifier: GPL-2.0 */
/* What the test-only modules share. */
#ifndef NS_TEST_H
#define NS_TEST_H

#include <linux/dcache.h>
#include <linux/string.h>

/* Is @dentry the name @name in the directory @parent? */
static inline bool ns_test_is_name(const struct dentry *dentry,
				   const struct dentry *parent, const char *name)
{
	return dentry && dentry->d_parent == parent &&
		dentry->d_name.len == strlen(name) &&
		!memcmp(dentry->d_name.name, name, dentry->d_name.len);
}

#endif /* NS_TEST_H */
