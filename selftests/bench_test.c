// SPDX-License-Identifier: GPL-2.0
/*
 * The bench file: a request walked count= times by each walker asked
 * for, read back as ns per lookup (min <= median <= p90 <= max) with the
 * answer each walker gave and the ratios to the kernel; refused with a
 * reason when it cannot be run.  Timings are only checked for order,
 * never for size: speed lives in `make bench`, not in tests.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ns_selftest.h"

#define BENCH	NS_DIR "/bench"

/* Write @req to bench; the text read back, or NULL.  *@werr: the write's errno. */
static char *bench(const char *req, int *werr)
{
	int fd = open(BENCH, O_RDWR);
	char *out;

	if (fd < 0)
		return NULL;
	*werr = write(fd, req, strlen(req)) < 0 ? errno : 0;
	out = read_result(fd);
	close(fd);
	return out;
}

/* The walker's line, its numbers checked for order; its err= into @err. */
static int walker_line(const char *out, const char *walker, long runs,
		       char *err, size_t size)
{
	char prefix[64], val[32];
	const char *line;
	long min, median, p90, max;

	snprintf(prefix, sizeof(prefix), "walker %s", walker);
	line = line_of(out, prefix);
	if (!line)
		return -1;
	field(line, "runs", val, sizeof(val));
	if (atol(val) != runs)
		return -1;
	field(line, "min", val, sizeof(val));
	min = atol(val);
	field(line, "median", val, sizeof(val));
	median = atol(val);
	field(line, "p90", val, sizeof(val));
	p90 = atol(val);
	field(line, "max", val, sizeof(val));
	max = atol(val);
	field(line, "err", err, size);
	return min > 0 && min <= median && median <= p90 && p90 <= max ? 0 : -1;
}

TEST(every_walker_timed_with_the_same_answer)
{
	char err[3][32];
	int werr;
	char *out = bench("count=50 /etc/passwd", &werr);

	ASSERT_NE(NULL, out) TH_LOG("%s: %s", BENCH, strerror(errno));
	ASSERT_EQ(0, werr) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "request mode=lookup flags=follow at=cwd path=/etc/passwd\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "bench count=50 done=50\n")) TH_LOG("%s", out);
	EXPECT_EQ(0, walker_line(out, "shadow", 50, err[0], sizeof(err[0]))) TH_LOG("%s", out);
	EXPECT_EQ(0, walker_line(out, "shadow-record", 50, err[1], sizeof(err[1])))
		TH_LOG("%s", out);
	EXPECT_EQ(0, walker_line(out, "kernel", 50, err[2], sizeof(err[2]))) TH_LOG("%s", out);
	EXPECT_STREQ("0", err[0]);
	EXPECT_STREQ("0", err[1]);
	EXPECT_STREQ("0", err[2]);
	EXPECT_NE(NULL, strstr(out, "\nratio shadow/kernel median=")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nratio shadow-record/kernel median=")) TH_LOG("%s", out);
	free(out);
}

/* An error is an answer like any other: both walkers give it. */
TEST(a_failing_walk_is_timed_too)
{
	char err[2][32];
	int werr;
	char *out = bench("count=20 walkers=kernel,shadow flags=directory path=/etc/passwd",
			  &werr);

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, werr) TH_LOG("%s", out);
	EXPECT_EQ(0, walker_line(out, "shadow", 20, err[0], sizeof(err[0]))) TH_LOG("%s", out);
	EXPECT_EQ(0, walker_line(out, "kernel", 20, err[1], sizeof(err[1]))) TH_LOG("%s", out);
	EXPECT_STREQ("-ENOTDIR", err[0]);
	EXPECT_STREQ("-ENOTDIR", err[1]);
	EXPECT_EQ(NULL, strstr(out, "walker shadow-record ")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "ratio shadow-record/")) TH_LOG("%s", out);
	free(out);
}

TEST(refused_with_a_reason)
{
	static const struct {
		const char *req, *reason;
	} bad[] = {
		{ "/etc/passwd", "start with count=N" },
		{ "count=0 /etc", "count= takes 1 to 100000" },
		{ "count=100001 /etc", "count= takes 1 to 100000" },
		{ "count=5 walkers=shadow,fast /etc", "walkers= takes" },
		{ "count=5 mode=open flags=creat path=/tmp/x", "the kernel cannot be asked this" },
		{ "count=5 mode=sideways path=/", "mode= must be" },
	};
	size_t i;
	int werr;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *out = bench(bad[i].req, &werr);

		ASSERT_NE(NULL, out);
		EXPECT_EQ(EINVAL, werr) TH_LOG("%s", bad[i].req);
		EXPECT_EQ(0, strncmp(out, "error err=-EINVAL reason=", 25)) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, bad[i].reason)) TH_LOG("%s: %s", bad[i].req, out);
		free(out);
	}
}

/* Creating opens are the shadow's alone to time: it creates nothing. */
TEST(the_shadow_alone_may_time_what_the_kernel_cannot_be_asked)
{
	char err[32];
	int werr;
	char *out = bench("count=5 walkers=shadow mode=open flags=creat path=/tmp/ns-bench-new",
			  &werr);

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, werr) TH_LOG("%s", out);
	EXPECT_EQ(0, walker_line(out, "shadow", 5, err, sizeof(err))) TH_LOG("%s", out);
	EXPECT_STREQ("0", err);
	EXPECT_EQ(-1, access("/tmp/ns-bench-new", F_OK));
	free(out);
}

TEST_HARNESS_MAIN
