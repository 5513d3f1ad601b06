// SPDX-License-Identifier: GPL-2.0
/*
 * The batch file: many requests in one write, one summary line each,
 * the same answers as resolve gives them, counted in stats the same
 * way; bounded, with a reason read back beyond the bounds.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "ns_selftest.h"

#define BATCH		NS_DIR "/batch"
#define BATCH_OUT_MAX	(2 * 1024 * 1024)
#define BATCH_BYTES	65536
#define BATCH_REQUESTS	4096

/* Write @req as one batch; the summaries read back, or NULL. */
static char *batch(int fd, const char *req, size_t len, int *write_errno)
{
	char *out = malloc(BATCH_OUT_MAX);
	ssize_t n;

	*write_errno = 0;
	if (write(fd, req, len) < 0)
		*write_errno = errno;
	if (!out)
		return NULL;
	n = pread(fd, out, BATCH_OUT_MAX - 1, 0);
	out[n < 0 ? 0 : n] = '\0';
	return out;
}

/* Line @n (1-based) of @text, copied to @out. */
static int nth_line(const char *text, int n, char *out, size_t size)
{
	const char *p = text;
	size_t len;

	while (--n > 0 && p)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	if (!p || !*p)
		return -1;
	len = strcspn(p, "\n");
	if (len >= size)
		len = size - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

FIXTURE(batch) {
	int fd;
};

FIXTURE_SETUP(batch)
{
	self->fd = open(BATCH, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("%s: %s", BATCH, strerror(errno));
}

FIXTURE_TEARDOWN(batch)
{
	close(self->fd);
}

TEST_F(batch, one_line_per_request_and_a_summary)
{
	static const char req[] =
		"/etc/passwd\n"
		"\n"
		"/no/such/file\n"
		"mode=sideways path=/\n"
		"flags=nofollow path=/proc/self\n"
		"path=/tmp/with space";
	long requests = stat_counter("requests");
	long rejected = stat_counter("rejected");
	long matched = stat_counter("verdict_match");
	char line[512];
	int werr;
	char *out = batch(self->fd, req, strlen(req), &werr);

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, werr);
	ASSERT_EQ(0, nth_line(out, 1, line, sizeof(line)));
	EXPECT_EQ(0, strncmp(line, "n=1 verdict=match shadow=0 kernel=0 mode=", 41)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(line, " path=/etc/passwd")) TH_LOG("%s", line);
	ASSERT_EQ(0, nth_line(out, 2, line, sizeof(line)));
	EXPECT_EQ(0, strncmp(line, "n=2 verdict=match shadow=-ENOENT kernel=-ENOENT ", 48))
		TH_LOG("%s", out);
	ASSERT_EQ(0, nth_line(out, 3, line, sizeof(line)));
	EXPECT_EQ(0, strncmp(line, "n=3 verdict=error err=-EINVAL reason=mode= must be", 50))
		TH_LOG("%s", out);
	ASSERT_EQ(0, nth_line(out, 4, line, sizeof(line)));
	EXPECT_EQ(0, strncmp(line, "n=4 verdict=match shadow=0 ", 27)) TH_LOG("%s", out);
	ASSERT_EQ(0, nth_line(out, 5, line, sizeof(line)));
	/* the path escaped as in every result; the last line needs no newline */
	EXPECT_NE(NULL, strstr(line, " path=/tmp/with\\040space")) TH_LOG("%s", out);
	ASSERT_EQ(0, nth_line(out, 6, line, sizeof(line)));
	EXPECT_STREQ("summary requests=5 match=4 mismatch=0 raced=0 unchecked=0 divergent=0 error=1",
		     line) TH_LOG("%s", out);
	EXPECT_EQ(-1, nth_line(out, 7, line, sizeof(line)));
	/* counted as resolve counts: four walks, one refused */
	EXPECT_EQ(requests + 4, stat_counter("requests"));
	EXPECT_EQ(matched + 4, stat_counter("verdict_match"));
	EXPECT_EQ(rejected + 1, stat_counter("rejected"));
	free(out);
}

/* Each request answered as resolve answers it. */
TEST_F(batch, agrees_with_resolve)
{
	static const char *const reqs[] = {
		"/usr/bin/env", "/proc/self/cwd", "mode=parent path=/tmp/x",
		"/etc/passwd/", "/../../etc", "flags=directory path=/etc/passwd",
	};
	int rfd = open(RESOLVE, O_RDWR);
	char req[256], line[512], want[128], got[64];
	struct result r;
	size_t i;
	int werr;
	char *out;

	ASSERT_LE(0, rfd);
	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		ASSERT_EQ(0, resolve(rfd, reqs[i], &r));
		snprintf(req, sizeof(req), "%s\n", reqs[i]);
		out = batch(self->fd, req, strlen(req), &werr);
		ASSERT_NE(NULL, out);
		ASSERT_EQ(0, nth_line(out, 1, line, sizeof(line)));
		snprintf(want, sizeof(want), "n=1 verdict=%s shadow=%s kernel=%s ",
			 r.verdict, r.shadow_err, r.kernel_err);
		EXPECT_EQ(0, strncmp(line, want, strlen(want)))
			TH_LOG("%s: resolve says\n%sbatch says\n%s", reqs[i], r.text, out);
		field(line, "mode", got, sizeof(got));
		field(line_of(r.text, "walk"), "mode", want, sizeof(want));
		EXPECT_STREQ(want, got) TH_LOG("%s: %s", reqs[i], line);
		/* the same object, or none */
		field(line, "dev", got, sizeof(got));
		EXPECT_STREQ(r.dev, got) TH_LOG("%s: %s", reqs[i], line);
		field(line, "ino", got, sizeof(got));
		snprintf(want, sizeof(want), "%lu", r.ino);
		EXPECT_STREQ(r.dev[0] ? want : "", got) TH_LOG("%s: %s", reqs[i], line);
		free(out);
		result_free(&r);
	}
	close(rfd);
}

static void expect_too_big(struct __test_metadata *_metadata, int fd,
			   const char *req, size_t len, const char *reason)
{
	long requests = stat_counter("requests");
	int werr;
	char *out = batch(fd, req, len, &werr);

	ASSERT_NE(NULL, out);
	EXPECT_EQ(E2BIG, werr);
	EXPECT_EQ(0, strncmp(out, "error err=-E2BIG reason=", 24)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, reason)) TH_LOG("%s", out);
	EXPECT_EQ(requests, stat_counter("requests")) TH_LOG("a refused batch ran");
	free(out);
}

TEST_F(batch, bounded)
{
	char *req = malloc(BATCH_BYTES + 2);
	char line[128];
	int werr, i;
	char *out;

	ASSERT_NE(NULL, req);
	memset(req, '\n', BATCH_BYTES + 1);
	expect_too_big(_metadata, self->fd, req, BATCH_BYTES + 1, "65536 bytes");
	for (i = 0; i <= BATCH_REQUESTS; i++)
		memcpy(req + 2 * i, "/\n", 2);
	expect_too_big(_metadata, self->fd, req, 2 * (BATCH_REQUESTS + 1), "4096 requests");
	/* at the bounds: all done */
	out = batch(self->fd, req, 2 * BATCH_REQUESTS, &werr);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, werr);
	snprintf(line, sizeof(line), "summary requests=%d match=%d ", BATCH_REQUESTS,
		 BATCH_REQUESTS);
	EXPECT_NE(NULL, strstr(out, line)) TH_LOG("%.200s", strstr(out, "summary") ?: out);
	free(out);
	free(req);
}

TEST_HARNESS_MAIN
