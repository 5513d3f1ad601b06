// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module: sleeps inside an RCU read-side critical section
 * when loaded.  Silent on a production kernel; on the debug kernel
 * (PROVE_RCU, preemptible RCU) it must show as "Voluntary context
 * switch within RCU read-side critical section" and fail the run.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/rcupdate.h>

static int __init ns_test_rcu_sleep_init(void)
{
	pr_info("sleeping inside rcu_read_lock() on purpose\n");
	rcu_read_lock();
	msleep(20);
	rcu_read_unlock();
	return 0;
}

static void __exit ns_test_rcu_sleep_exit(void)
{
}

module_init(ns_test_rcu_sleep_init);
module_exit(ns_test_rcu_sleep_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("namei_shadow harness test: sleep under RCU (test only)");
MODULE_INFO(test, "Y");
