// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of /sys/kernel/debug/namei_shadow/features, with the module
 * loaded.  The independent oracle is /proc/kallsyms, read from
 * userspace: a symbol the module says it found must be listed there as
 * a core-kernel symbol of the right kind, and one it did not find must
 * be absent.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "ns_module.h"

#define FEATURES "/sys/kernel/debug/namei_shadow/features"

/* What the ground floor promises to report, by name. */
static const char * const wanted_ksyms[] = {
	"kallsyms_lookup_name", "__d_lookup_rcu", "__lookup_mnt",
	"__legitimize_mnt", "nd_jump_link", "may_follow_link",
	"mount_lock", "dentry_hashtable", "d_hash_shift",
	"sysctl_protected_symlinks", "security_inode_follow_link",
};

static const char * const wanted_exports[] = {
	"d_lookup", "d_alloc_parallel", "kern_path", "vfs_path_lookup",
	"follow_down_one", "follow_up", "rename_lock", "inode_permission",
	"lockref_get_not_dead", "full_name_hash", "d_path",
};

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0, n;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* The line of @text that starts with @prefix followed by a space. */
static char *find_line(const char *text, const char *prefix)
{
	size_t plen = strlen(prefix);
	const char *p = text;
	static char line[1024];

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > plen && !strncmp(p, prefix, plen) && p[plen] == ' ' &&
		    len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			return line;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* The value of " key=" in @line, copied to @out. */
static int field(const char *line, const char *key, char *out, size_t size)
{
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= size)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* Type letter of a core-kernel symbol in /proc/kallsyms, or 0. */
/* A core-kernel symbol's type letter (0 when absent) and address. */
static char kallsyms_find(const char *kallsyms, const char *name,
			 unsigned long long *addr)
{
	size_t nlen = strlen(name);
	const char *p = kallsyms;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		const char *sp = strchr(p, ' ');

		if (sp && sp[1] && sp[2] == ' ' && !strncmp(sp + 3, name, nlen) &&
		    (sp[3 + nlen] == '\n' || sp[3 + nlen] == '\0')) {
			*addr = strtoull(p, NULL, 16);
			return sp[1];
		}
		p = nl ? nl + 1 : NULL;
	}
	*addr = 0;
	return 0;
}

FIXTURE(features) {
	char *text;
};

FIXTURE_SETUP(features)
{
	self->text = read_all(FEATURES);
	ASSERT_NE(NULL, self->text) {
		TH_LOG("cannot read %s: is namei_shadow loaded?", FEATURES);
	}
}

FIXTURE_TEARDOWN(features)
{
	free(self->text);
}

TEST_F(features, release_is_the_running_kernel)
{
	struct utsname u;
	char *line;

	ASSERT_EQ(0, uname(&u));
	line = find_line(self->text, "release");
	ASSERT_NE(NULL, line);
	EXPECT_STREQ(u.release, line + strlen("release "));
}

TEST_F(features, file_is_root_only)
{
	struct stat st;

	ASSERT_EQ(0, stat(FEATURES, &st));
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(0400, st.st_mode & 07777);
}

TEST_F(features, every_internal_reported_as_kallsyms_says)
{
	char *kallsyms = read_all("/proc/kallsyms");
	char found[8], kind[8], prefix[128];
	unsigned long long stext, etext, end;
	unsigned int i;

	ASSERT_NE(NULL, kallsyms);
	ASSERT_NE(0, kallsyms_find(kallsyms, "_stext", &stext));
	ASSERT_NE(0, kallsyms_find(kallsyms, "_etext", &etext));
	ASSERT_NE(0, kallsyms_find(kallsyms, "_end", &end));
	ASSERT_LT(stext, etext);
	ASSERT_LT(etext, end);
	for (i = 0; i < ARRAY_SIZE(wanted_ksyms); i++) {
		unsigned long long addr;
		char type = kallsyms_find(kallsyms, wanted_ksyms[i], &addr);
		char *line;

		snprintf(prefix, sizeof(prefix), "ksym %s", wanted_ksyms[i]);
		line = find_line(self->text, prefix);
		ASSERT_NE(NULL, line) TH_LOG("no line for %s", wanted_ksyms[i]);
		ASSERT_EQ(0, field(line, "found", found, sizeof(found)));
		ASSERT_EQ(0, field(line, "kind", kind, sizeof(kind)));
		EXPECT_STREQ(type ? "y" : "n", found)
			TH_LOG("%s: module says found=%s, kallsyms type '%c'",
			       wanted_ksyms[i], found, type ? type : '-');
		if (type && !strcmp(kind, "func")) {
			EXPECT_TRUE(strchr("tT", type)) TH_LOG("%s", line);
			EXPECT_TRUE(addr >= stext && addr < etext)
				TH_LOG("%s: not in the kernel's text", line);
		}
		/*
		 * Data: by address, after the kernel's text and inside its
		 * image.  Not by the type letter: Debian's 7.2 lists .data
		 * objects (mount_lock, even _sdata) as 'T' or 't'.
		 */
		if (type && !strcmp(kind, "data")) {
			EXPECT_TRUE(addr >= etext && addr < end)
				TH_LOG("%s: not in the kernel's data", line);
		}
	}
	free(kallsyms);
}

TEST_F(features, usability_follows_the_ibt_rules)
{
	char enforced[4], val[64], usable[4], why[64];
	char *line = find_line(self->text, "ibt");
	const char *p;

	ASSERT_NE(NULL, line);
	ASSERT_EQ(0, field(line, "enforced", enforced, sizeof(enforced)));

	for (p = self->text; (p = strstr(p, "\nksym ")); p++) {
		char l[512];
		size_t n = strcspn(p + 1, "\n");

		ASSERT_LT(n, sizeof(l));
		memcpy(l, p + 1, n);
		l[n] = '\0';
		ASSERT_EQ(0, field(l, "found", val, sizeof(val)));
		ASSERT_EQ(0, field(l, "usable", usable, sizeof(usable)));
		ASSERT_EQ(0, field(l, "why", why, sizeof(why)));
		if (!strcmp(val, "n")) {
			EXPECT_STREQ("n", usable) TH_LOG("%s", l);
			continue;
		}
		ASSERT_EQ(0, field(l, "kind", val, sizeof(val)));
		if (!strcmp(val, "data")) {
			EXPECT_STREQ("y", usable) TH_LOG("%s", l);
			continue;
		}
		if (!strncmp(l, "ksym nd_jump_link ", 18) ||
		    !strncmp(l, "ksym may_follow_link ", 21)) {
			EXPECT_STREQ("n", usable) TH_LOG("never callable: %s", l);
			continue;
		}
		ASSERT_EQ(0, field(l, "entry", val, sizeof(val)));
		if (!strcmp(val, "endbr") || !strcmp(enforced, "n")) {
			EXPECT_STREQ("y", usable) TH_LOG("%s", l);
		} else {
			EXPECT_STREQ("n", usable) TH_LOG("sealed under IBT: %s", l);
		}
	}
}

TEST_F(features, exports_are_linked)
{
	char prefix[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wanted_exports); i++) {
		char *line;

		snprintf(prefix, sizeof(prefix), "export %s", wanted_exports[i]);
		line = find_line(self->text, prefix);
		ASSERT_NE(NULL, line) TH_LOG("no line for %s", wanted_exports[i]);
		EXPECT_NE(NULL, strstr(line, " linked=y"));
	}
}

/*
 * The walker hashes a component in one pass only where that is the
 * dcache's own hash, which the module checks at load against
 * full_name_hash(): on x86-64 it must have found the two agree.
 */
TEST_F(features, one_pass_hash_is_the_dcache_hash)
{
	char value[64];
	char *line;

	line = find_line(self->text, "hash");
	ASSERT_NE(NULL, line);
	ASSERT_EQ(0, field(line, "one_pass", value, sizeof(value)));
#ifdef __x86_64__
	EXPECT_STREQ("y", value) TH_LOG("%s", line);
#endif
}

TEST_F(features, no_kernel_pointers)
{
	regex_t re;
	regmatch_t m;

	ASSERT_EQ(0, regcomp(&re, "[0-9a-fA-F]{12,}", REG_EXTENDED));
	EXPECT_NE(0, regexec(&re, self->text, 1, &m, 0))
		TH_LOG("looks like an address: %.20s", self->text + m.rm_so);
	regfree(&re);
}

TEST_HARNESS_MAIN
