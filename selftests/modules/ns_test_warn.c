// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: WARNs once when loaded.  The VM harness runs the
 * kernel with panic_on_warn=1 and must report the run as a failure.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init ns_test_warn_init(void)
{
	WARN(1, "namei_shadow harness test: deliberate WARN\n");
	return 0;
}

static void __exit ns_test_warn_exit(void)
{
}

module_init(ns_test_warn_init);
module_exit(ns_test_warn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow harness test: WARN on load (test only)");
MODULE_INFO(test, "Y");
