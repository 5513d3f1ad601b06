// SPDX-License-Identifier: GPL-2.0
/*
 * Rules that changed between the supported kernels.  Each test takes
 * its expectation from what the module reports of the running kernel
 * (its features file), never from a table of versions, and where it
 * can it also checks that report against the kernel's own walk.
 *
 * unlink_may_reveal (7.2): REF-walk does not step onto a name on its
 * way out (unlinked, cant_mount); it answers -ESTALE and the walk goes
 * round again with LOOKUP_REVAL, which looks the name up afresh.  6.1
 * and 6.12 step onto it.  Seen only in a race -- a name removed between
 * its lookup and the step onto it -- so the race is made to happen on
 * cue: the test module ns_test_going makes the name go the moment a
 * REF-mode dcache lookup finds it (it unhashes the dentry and marks it
 * cant_mount, as an unlink does).  The name is a regular file on the
 * 9p root (the test module's own .ko): 9p still has the file, so a
 * fresh lookup finds it again under a new dentry, and the dentry that
 * went is only a cached one, freed once unused.  Every walk from the 9p
 * root leaves RCU mode at its first name (9p's d_revalidate wants REF
 * mode), so both walkers meet the name in REF mode.  A walk that stood
 * on the name that went answers with it: d_path calls it "(deleted)".
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "ns_selftest.h"

#define GOING	"ns_test_going.ko"
#define DELETED	"\\040(deleted)"

/* "y" or "n": does the module say this kernel's REF-walk refuses? */
static char kernel_refuses(void)
{
	FILE *f = fopen(NS_DIR "/features", "r");
	char line[256], v = '?';

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "rule unlink-may-reveal kernel=%c", &v) == 1)
			break;
	fclose(f);
	return v;
}

FIXTURE(going) {
	int fd;			/* resolve */
	int ko;			/* the test module */
	int refuses;
	char dir[PATH_MAX];	/* where it lives: on the 9p root */
	char name[PATH_MAX];	/* and its name there, absolute */
};

FIXTURE_SETUP(going)
{
	const char *mods = getenv("NS_TESTMODS");
	char v = kernel_refuses();

	ASSERT_TRUE(v == 'y' || v == 'n')
		TH_LOG("features has no y or n for unlink-may-reveal: the probe at load did not decide it");
	self->refuses = v == 'y';
	self->ko = -1;
	self->fd = -1;
	SKIP_WITHOUT_TESTMODS();
	ASSERT_EQ('/', mods[0]);
	snprintf(self->dir, sizeof(self->dir), "%s", mods);
	snprintf(self->name, sizeof(self->name), "%s/" GOING, mods);
	self->ko = open(self->name, O_RDONLY);
	ASSERT_LE(0, self->ko) TH_LOG("%s: %s", self->name, strerror(errno));
	self->fd = open(RESOLVE, O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(going)
{
	close(self->fd);
	close(self->ko);
}

/*
 * Arm the module on the .ko's own name and resolve "@opts path=<it>",
 * and make sure the race really happened: a walk that never met the
 * name in REF mode would test nothing.
 */
static void resolve_going(struct __test_metadata *_metadata,
			  FIXTURE_DATA(going) *self, const char *opts,
			  struct result *r)
{
	char cmd[2 * PATH_MAX], fired[8] = "";
	struct stat st;
	FILE *f;

	/* in the dcache, where the lookup is to find it */
	ASSERT_EQ(0, stat(self->name, &st));
	snprintf(cmd, sizeof(cmd), "insmod /proc/self/fd/%d dir=%s name=" GOING,
		 self->ko, self->dir);
	ASSERT_EQ(0, system(cmd));
	snprintf(cmd, sizeof(cmd), "%spath=%s", opts, self->name);
	ASSERT_EQ(0, resolve(self->fd, cmd, r));
	f = fopen("/sys/module/ns_test_going/parameters/fired", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(fired, sizeof(fired), f));
	fclose(f);
	ASSERT_EQ(0, system("rmmod ns_test_going"));
	ASSERT_STREQ("1\n", fired) TH_LOG("the name never went:\n%s", r->text);
}

static int stood_on_it(const char *line)
{
	return line && strstr(line, DELETED " ") != NULL;
}

/*
 * The shadow stepped onto the going name and answered with it, with no
 * walk round again; @divergence: whether it named the rule it broke.
 */
static void expect_shadow_stood_on_it(struct __test_metadata *_metadata,
				      const struct result *r, int divergence)
{
	const char *shadow = line_of(r->text, "shadow");

	ASSERT_NE(NULL, shadow);
	EXPECT_STREQ("0", r->shadow_err) TH_LOG("%s", r->text);
	EXPECT_TRUE(stood_on_it(shadow)) TH_LOG("%s", r->text);
	EXPECT_EQ(NULL, strstr(r->text, " restart=")) TH_LOG("%s", r->text);
	EXPECT_EQ(divergence, !!strstr(shadow, " divergence=unlink-may-reveal"))
		TH_LOG("%s", r->text);
}

/* The claim itself: the kernel's walk meets the going name first. */
TEST_F(going, kernel_walk_answers_as_the_module_says)
{
	struct result r;

	resolve_going(_metadata, self, "", &r);
	EXPECT_STREQ("0", r.kernel_err) TH_LOG("%s", r.text);
	EXPECT_EQ(!self->refuses, stood_on_it(line_of(r.text, "kernel")))
		TH_LOG("%s", r.text);
	/*
	 * After a walk that stood on it, the next finds the name anew: the
	 * same inode under the same name, on a new dentry -- the same answer.
	 */
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	result_free(&r);
}

/* The shadow meets it first, and answers as the running kernel would. */
TEST_F(going, shadow_walk_answers_as_the_kernel_does)
{
	struct result r;
	const char *shadow;

	resolve_going(_metadata, self, "first=shadow ", &r);
	if (!self->refuses) {
		expect_shadow_stood_on_it(_metadata, &r, 0);
		EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
		result_free(&r);
		return;
	}
	shadow = line_of(r.text, "shadow");
	ASSERT_NE(NULL, shadow);
	EXPECT_STREQ("0", r.shadow_err) TH_LOG("%s", r.text);
	EXPECT_FALSE(stood_on_it(shadow)) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, " restart=estale")) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(shadow, " divergence=unlink-may-reveal"))
		TH_LOG("%s", r.text);
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	result_free(&r);
}

/* 4.2 steps onto it: where the running kernel does not, that is named. */
TEST_F(going, semantics_42_steps_onto_it)
{
	struct result r;

	resolve_going(_metadata, self, "first=shadow semantics=4.2 ", &r);
	expect_shadow_stood_on_it(_metadata, &r, self->refuses);
	EXPECT_STREQ(self->refuses ? "divergent" : "match", r.verdict)
		TH_LOG("%s", r.text);
	result_free(&r);
}

/* A LOOKUP_REVAL walk steps onto it on every kernel: no loop of ESTALEs. */
TEST_F(going, reval_walk_steps_onto_it)
{
	struct result r;

	resolve_going(_metadata, self, "first=shadow flags=follow,reval ", &r);
	expect_shadow_stood_on_it(_metadata, &r, 0);
	EXPECT_STREQ("match", r.verdict) TH_LOG("%s", r.text);
	result_free(&r);
}

TEST_HARNESS_MAIN
