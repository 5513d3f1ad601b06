// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: reads one byte past a kmalloc'ed buffer when
 * loaded.  KASAN on the debug kernel must report it and fail the run.
 */
#include <linux/module.h>
#include <linux/slab.h>

static int __init ns_test_oob_init(void)
{
	size_t size = 8;
	char *buf = kmalloc(size, GFP_KERNEL);
	/* Keep the compiler from seeing the index as out of bounds. */
	size_t past = READ_ONCE(size);
	char c;

	if (!buf)
		return -ENOMEM;
	pr_info("reading past a %zu-byte kmalloc buffer on purpose\n", size);
	c = READ_ONCE(buf[past]);
	kfree(buf);
	pr_info("read %d\n", c);
	return 0;
}

static void __exit ns_test_oob_exit(void)
{
}

module_init(ns_test_oob_init);
module_exit(ns_test_oob_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow harness test: slab out-of-bounds read (test only)");
MODULE_INFO(test, "Y");
