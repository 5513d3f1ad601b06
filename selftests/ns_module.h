/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included by every test program: namei_shadow loaded before the
 * program's main(), where it is not loaded already.
 */
#ifndef NS_MODULE_H
#define NS_MODULE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Each program loads namei_shadow where it is not loaded, as the
 * scripts do (ns_module.sh): insmod $NS_KO, else modprobe namei_shadow.
 * It is left loaded for the programs after it.  Where it cannot be
 * loaded, the program is skipped whole (KSFT_SKIP), saying why.
 */
__attribute__((constructor)) static void ns_load_module(void)
{
	const char *ko = getenv("NS_KO");
	int status = -1;
	pid_t pid;

	if (!access("/sys/module/namei_shadow", F_OK))
		return;
	pid = fork();
	if (pid == 0) {
		/* live mode armed at load with NS_LIVE's words, as ns_load does */
		const char *words = getenv("NS_LIVE");
		char live[512] = "";

		if (words && *words)
			snprintf(live, sizeof(live), "live=\"%s\"", words);
		if (ko && *ko)
			execlp("insmod", "insmod", ko, live[0] ? live : NULL, (char *)NULL);
		else
			execlp("modprobe", "modprobe", "namei_shadow", live[0] ? live : NULL,
			       (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    !WEXITSTATUS(status))
		return;
	printf("1..0 # SKIP namei_shadow is not loaded, and %s%s failed\n",
	       ko && *ko ? "insmod " : "modprobe namei_shadow", ko && *ko ? ko : "");
	exit(4);	/* KSFT_SKIP */
}

#endif /* NS_MODULE_H */
